// SPDX-License-Identifier: BSD-3-Clause
// MPI datatypes and reduction operations as hympi's, where hympi handles them exactly.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "hympi/types.hpp"

namespace hympi::pmpi {

/// The hympi type that reduces `type` bit for bit like MPI: a predefined C or Fortran
/// type of the same kind and size (MPI_DOUBLE, MPI_FLOAT, MPI_INT, MPI_LONG, MPI_LONG_LONG,
/// MPI_INT32_T, MPI_INT64_T, MPI_DOUBLE_PRECISION, MPI_REAL, MPI_INTEGER, ...).
std::optional<Datatype> reduction_type(MPI_Datatype type);
std::optional<Op> reduction_op(MPI_Op op);

/// A broadcast moves bytes: `count` elements of a predefined (named) `type`, `bytes` in all
/// (bytes_of), as hympi elements of 8 or 4 bytes when the total divides. Else nothing (MPI
/// broadcasts it).
struct Words {
  Datatype type;
  std::size_t count;
};
std::optional<Words> broadcast_words(MPI_Datatype type, std::int64_t count, std::size_t bytes);

/// count x the size of `type` (0 for a type MPI cannot size).
std::size_t bytes_of(MPI_Datatype type, std::int64_t count);

}  // namespace hympi::pmpi
