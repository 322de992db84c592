// SPDX-License-Identifier: BSD-3-Clause
// The one rule for which MPI datatypes and reduction operations hympi serves, and how it
// moves their data. Every intercepted call with data asks here before anything is made for
// it (no Context, window or communicator for a call whose types are not served).
//
// The rule, decided from the type map, never from size and extent alone:
//  - Moving data: every type is served, in neighbourhood messages and in broadcasts whose
//    total is a multiple of 4 bytes (broadcast_words; any other total goes to MPI). A *plain*
//    type (a predefined type whose size is its extent, lower bound 0: MPI_DOUBLE, MPI_INT,
//    MPI_2INT, ...) is count x size bytes in a row and is copied as such; every other type
//    (the pair types MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_LONG_INT, MPI_LONG_DOUBLE_INT, whose
//    size is not their extent; any derived type, contiguous or not: indexed out of memory
//    order, resized, a negative lower bound, a struct with holes, a vector) is packed in
//    type-map order with PMPI_Pack and unpacked with PMPI_Unpack. Both give the same bytes
//    for the same type signature between processes of one architecture (what shared memory
//    implies), so ranks that spell a signature differently meet exactly, as MPI requires.
//  - Reducing data: the predefined C and Fortran types of the table in datatypes.cpp (the
//    same kind and size as a hympi type), with MPI_SUM and MPI_PROD on all of them and
//    MPI_MIN and MPI_MAX on the integer ones. MPI_MIN and MPI_MAX of floating-point types
//    go to MPI: where operands are -0.0 and +0.0, or a NaN, the result depends on the
//    order of the operands, which is the MPI library's own reduction order; hympi's is
//    another, so only MPI itself gives MPI's bits there. Everything else goes to MPI.
//  - The path of a call depends only on what every rank of a correct program passes alike
//    (the type signature's bytes for a broadcast; the datatype and op of a reduction,
//    which MPI requires to be the same on every rank).
#pragma once

#include <mpi.h>

#include <climits>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "hympi/types.hpp"
#include "pmpi/paths.hpp"

namespace hympi::pmpi {

/// Whether `type`'s memory is its data: a predefined type whose size is its extent.
bool plain(MPI_Datatype type);

/// A reduction hympi serves: its hympi type and op.
struct Reduction {
  Datatype type;
  Op op;
};
/// The reduction of `type` with `op` as hympi's, or why it goes to MPI (Path::datatype,
/// Path::op, Path::float_min_max: `why`).
std::optional<Reduction> reduction_of(MPI_Datatype type, MPI_Op op, Path& why);

/// The largest broadcast hympi serves, as it may pack it (PMPI_Pack's int counts before
/// MPI-4's large-count forms).
#if MPI_VERSION >= 4
inline constexpr std::size_t kPackMax = SIZE_MAX;
#else
inline constexpr std::size_t kPackMax = INT_MAX;
#endif

/// A broadcast of `bytes` (bytes_of: the same on every rank of a correct program) as hympi
/// elements of 8 or 4 bytes when the total divides and it can be packed; else nothing (MPI
/// broadcasts it).
struct Words {
  Datatype type;
  std::size_t count;
};
std::optional<Words> broadcast_words(std::size_t bytes);

/// `count` elements of `type` at `buffer` to and from their packed form of bytes_of(type,
/// count) bytes (PMPI_Pack / PMPI_Unpack; the large-count forms past INT_MAX).
void pack(const void* buffer, std::int64_t count, MPI_Datatype type, void* packed, std::size_t bytes, MPI_Comm comm);
void unpack(const void* packed, std::size_t bytes, void* buffer, std::int64_t count, MPI_Datatype type,
            MPI_Comm comm);

/// count x the size of `type` (0 for a type MPI cannot size).
std::size_t bytes_of(MPI_Datatype type, std::int64_t count);

}  // namespace hympi::pmpi
