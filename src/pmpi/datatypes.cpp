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
  static const std::array<std::pair<MPI_Op, Op>, 4> table = {
      {{MPI_SUM, Op::sum}, {MPI_PROD, Op::prod}, {MPI_MIN, Op::min}, {MPI_MAX, Op::max}}};
  for (const auto& [mpi, hympi] : table)
    if (mpi == op) return hympi;
  return std::nullopt;
}

// Whether reductions of `type` with `op` can be served, and how; else why not.
std::optional<Reduction> decide_reduction(MPI_Datatype type, MPI_Op op, Path& why) {
  const std::optional<Datatype> t = reduction_type(type);
  const std::optional<Op> o = reduction_op(op);
  if (!t) {
    why = Path::datatype;
    return std::nullopt;
  }
  if (!o) {
    why = Path::op;
    return std::nullopt;
  }
  const bool floating = *t == Datatype::float64 || *t == Datatype::float32;
  if (floating && (*o == Op::min || *o == Op::max)) {
    why = Path::float_min_max;
    return std::nullopt;
  }
  return Reduction{*t, *o};
}

}  // namespace

bool plain(MPI_Datatype type) {
  // The last predefined type asked about and the answer: a program's calls use few types,
  // and a predefined handle is never freed (a derived one may be, and is not kept). No
  // lock: programs at MPI_THREAD_MULTIPLE never get here (Path::thread_multiple).
  static MPI_Datatype last = MPI_DATATYPE_NULL;
  static bool last_plain = false;
  if (type == MPI_DATATYPE_NULL) return false;
  if (type == last) return last_plain;
  int integers = 0, addresses = 0, datatypes = 0, combiner = 0;
  if (PMPI_Type_get_envelope(type, &integers, &addresses, &datatypes, &combiner) != MPI_SUCCESS ||
      combiner != MPI_COMBINER_NAMED)
    return false;
  MPI_Count size = 0;
  MPI_Aint lb = 0, extent = 0;
  const bool sized = PMPI_Type_size_x(type, &size) == MPI_SUCCESS &&
                     PMPI_Type_get_extent(type, &lb, &extent) == MPI_SUCCESS;
  last = type;
  last_plain = sized && lb == 0 && MPI_Aint(size) == extent;
  return last_plain;
}

std::optional<Reduction> reduction_of(MPI_Datatype type, MPI_Op op, Path& why) {
  // The last pair asked about and the answer (a program reduces few pairs, and every
  // falling-through call asks): only predefined handles are served, and a derived type or
  // user op whose handle MPI reuses after a free is refused as its predecessor was. No
  // lock: programs at MPI_THREAD_MULTIPLE never get here (Path::thread_multiple).
  static MPI_Datatype last_type = MPI_DATATYPE_NULL;
  static MPI_Op last_op = MPI_OP_NULL;
  static std::optional<Reduction> last;
  static Path last_why = Path::hympi;
  if (type != last_type || op != last_op || type == MPI_DATATYPE_NULL) {
    last = decide_reduction(type, op, last_why);
    last_type = type;
    last_op = op;
  }
  if (!last) why = last_why;
  return last;
}

std::optional<Words> broadcast_words(std::size_t bytes) {
  if (bytes > kPackMax) return std::nullopt;
  if (bytes % 8 == 0) return Words{Datatype::int64, bytes / 8};
  if (bytes % 4 == 0) return Words{Datatype::int32, bytes / 4};
  return std::nullopt;
}

void pack(const void* buffer, std::int64_t count, MPI_Datatype type, void* packed, std::size_t bytes, MPI_Comm comm) {
  int code = MPI_SUCCESS;
#if MPI_VERSION >= 4
  MPI_Count position = 0;
  code = PMPI_Pack_c(buffer, MPI_Count(count), type, packed, MPI_Count(bytes), &position, comm);
#else
  int position = 0;
  code = PMPI_Pack(buffer, int(count), type, packed, int(bytes), &position, comm);
#endif
  if (code != MPI_SUCCESS) throw Error("hympi: PMPI_Pack failed on a broadcast's data");
}

void unpack(const void* packed, std::size_t bytes, void* buffer, std::int64_t count, MPI_Datatype type,
            MPI_Comm comm) {
  int code = MPI_SUCCESS;
#if MPI_VERSION >= 4
  MPI_Count position = 0;
  code = PMPI_Unpack_c(packed, MPI_Count(bytes), &position, buffer, MPI_Count(count), type, comm);
#else
  int position = 0;
  code = PMPI_Unpack(packed, int(bytes), &position, buffer, int(count), type, comm);
#endif
  if (code != MPI_SUCCESS) throw Error("hympi: PMPI_Unpack failed on a broadcast's data");
}

std::size_t bytes_of(MPI_Datatype type, std::int64_t count) {
  MPI_Count size = 0;  // _x: a derived type may be larger than INT_MAX bytes
  if (type == MPI_DATATYPE_NULL || count < 0 || PMPI_Type_size_x(type, &size) != MPI_SUCCESS) return 0;
  return std::size_t(size) * std::size_t(count);
}

}  // namespace hympi::pmpi
