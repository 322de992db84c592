// SPDX-License-Identifier: BSD-3-Clause
// Barrier, allreduce, bcast and reduce: hympi's variants against the MPI library's own, interleaved.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

nlohmann::json bench_barrier(Context& ctx, const Method& method);
enum class Collective { allreduce, bcast, reduce };
/// Per Collective (in its order): the subcommand and record name, and the MPI call timed
/// beside hympi's.
struct CollectiveNames {
  const char* name;
  const char* mpi;
};
inline constexpr CollectiveNames kCollectiveNames[] = {
    {"allreduce", "MPI_Allreduce"}, {"bcast", "MPI_Bcast"}, {"reduce", "MPI_Reduce"}};
inline const CollectiveNames& names_of(Collective op) { return kCollectiveNames[int(op)]; }

/// Allreduce (sum), bcast or reduce (sum) from root 0 of `sizes` bytes of doubles against
/// the MPI library's own call in the same launch. Fresh data: before every call of every
/// contender the input is rewritten with new values where the operation takes one, after
/// it the result is read where it lands (a checksum), as a solver does; cached: the same
/// input every call (best case, labelled). Off-cache (fresh data only): every call's input
/// and output at the next place of the region (off_cache.hpp). Every contender's result is
/// checked in the warm-up (a wrong one is reported and not timed); the record's checksum
/// is the sum of what every rank read. In cache with `data.page_offset` >= 0: the input and
/// the output each start that many bytes after a 4 KiB boundary (the record's "page_offset").
nlohmann::json bench_collective(Context& ctx, const Method& method, Collective op,
                                const std::vector<std::size_t>& sizes, const DataOptions& data);

/// Quaranta & Maddegedara (2021), Section 4.4 / Fig. 13: the allreduce with the tree
/// ordered by the hardware (sockets, L3; hwloc) and in rank order, one record per size: 8 B
/// (the paper's one double, which goes by the flat path on a node of 2 to kMaxFlat = 8
/// ranks, so there both trees run the same code) and 1 KiB (one tree sweep). Launch it once per placement
/// (e.g. Open MPI --map-by core vs --map-by socket: compact vs scatter) to compare
/// placements.
nlohmann::json bench_affinity(Context& ctx, const Method& method);

}  // namespace hympi::bench
