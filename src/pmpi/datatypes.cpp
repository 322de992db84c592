// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/datatypes.hpp"

#include <array>
#include <utility>

namespace hympi::pmpi {
namespace {

enum class Kind { floating, integer };

// A handle here stands for the hympi type of its kind and size (the size asked from MPI:
// MPI_LONG is 8 bytes on LP64, MPI_INTEGER 4 unless the Fortran compiler was told else).
std::optional<Datatype> hympi_type(MPI_Datatype mpi, Kind kind) {
  int size = 0;  // an MPI built without Fortran may define its Fortran types as MPI_DATATYPE_NULL
  if (mpi == MPI_DATATYPE_NULL || PMPI_Type_size(mpi, &size) != MPI_SUCCESS) return std::nullopt;
  if (size == 8) return kind == Kind::floating ? Datatype::float64 : Datatype::int64;
  if (size == 4) return kind == Kind::floating ? Datatype::float32 : Datatype::int32;
  return std::nullopt;
}

struct Entry {
  MPI_Datatype mpi;
  std::optional<Datatype> hympi;
};

}  // namespace

std::optional<Datatype> reduction_type(MPI_Datatype type) {
  if (type == MPI_DATATYPE_NULL) return std::nullopt;
  // Sized once, at the first reduction (after MPI_Init): a predefined type's size never
  // changes, and asking MPI on every call costs as much as a small hympi collective.
  static const std::array<Entry, 12> table = [] {
    const std::array<std::pair<MPI_Datatype, Kind>, 12> predefined = {{{MPI_DOUBLE, Kind::floating},
                                                                       {MPI_FLOAT, Kind::floating},
                                                                       {MPI_DOUBLE_PRECISION, Kind::floating},
                                                                       {MPI_REAL, Kind::floating},
                                                                       {MPI_INT, Kind::integer},
                                                                       {MPI_LONG, Kind::integer},
                                                                       {MPI_LONG_LONG, Kind::integer},
                                                                       {MPI_INT32_T, Kind::integer},
                                                                       {MPI_INT64_T, Kind::integer},
                                                                       {MPI_INTEGER, Kind::integer},
                                                                       {MPI_INTEGER4, Kind::integer},
                                                                       {MPI_INTEGER8, Kind::integer}}};
    std::array<Entry, 12> sized{};
    for (std::size_t i = 0; i < predefined.size(); ++i)
      sized[i] = {predefined[i].first, hympi_type(predefined[i].first, predefined[i].second)};
    return sized;
  }();
  for (const Entry& e : table)
    if (e.mpi == type) return e.hympi;
  return std::nullopt;
}

std::optional<Op> reduction_op(MPI_Op op) {
  const std::array<std::pair<MPI_Op, Op>, 4> table = {
      {{MPI_SUM, Op::sum}, {MPI_PROD, Op::prod}, {MPI_MIN, Op::min}, {MPI_MAX, Op::max}}};
  for (const auto& [mpi, hympi] : table)
    if (mpi == op) return hympi;
  return std::nullopt;
}

std::optional<Words> broadcast_words(MPI_Datatype type, std::int64_t count, std::size_t bytes) {
  if (type == MPI_DATATYPE_NULL || count < 0) return std::nullopt;
  int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
  if (PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS ||
      combiner != MPI_COMBINER_NAMED)
    return std::nullopt;
  if (bytes % 8 == 0) return Words{Datatype::int64, bytes / 8};
  if (bytes % 4 == 0) return Words{Datatype::int32, bytes / 4};
  return std::nullopt;
}

std::size_t bytes_of(MPI_Datatype type, std::int64_t count) {
  int size = 0;
  if (type == MPI_DATATYPE_NULL || count < 0 || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
  return std::size_t(size) * std::size_t(count);
}

}  // namespace hympi::pmpi
