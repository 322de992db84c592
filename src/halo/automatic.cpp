// SPDX-License-Identifier: BSD-3-Clause
#include "halo/automatic.hpp"

#include <algorithm>
#include <limits>

#include "mpi/support/mpi_check.hpp"

namespace hympi::halo {
namespace {

/// Collective: seconds per update, the best of a few rounds on each rank, then the slowest rank's.
double time_updates(HaloParts& parts, Arrays v, MPI_Comm world) {
  constexpr int kWarmup = 3, kRounds = 5, kUpdates = 10;
  for (int i = 0; i < kWarmup; ++i) parts.update(v);
  double best = std::numeric_limits<double>::max();
  for (int round = 0; round < kRounds; ++round) {
    mpi::check(MPI_Barrier(world), "MPI_Barrier (Halo automatic)");
    const double start = MPI_Wtime();
    for (int i = 0; i < kUpdates; ++i) parts.update(v);
    best = std::min(best, (MPI_Wtime() - start) / kUpdates);
  }
  double slowest = 0;
  mpi::check(MPI_Allreduce(&best, &slowest, 1, MPI_DOUBLE, MPI_MAX, world), "MPI_Allreduce (Halo automatic)");
  return slowest;
}

}  // namespace

Strategy choose_automatic(HaloParts& parts, std::vector<HaloTrial>& trials) {
  const Pattern::Data& d = parts.pattern();
  const Topology& topo = d.context->topology();
  if (topo.node_count() == 1) return Strategy::shm;
  // Per field, a send and a receive array (one array for a one-array pattern: as it runs).
  const std::size_t fields = std::size_t(parts.fields());
  std::vector<std::vector<std::byte>> send(fields, std::vector<std::byte>(std::size_t(d.send_points) * d.point_bytes));
  std::vector<std::vector<std::byte>> recv(d.apart ? fields : 0,
                                           std::vector<std::byte>(std::size_t(d.recv_points) * d.point_bytes));
  std::vector<const void*> send_arrays;
  std::vector<void*> recv_arrays;
  for (std::size_t f = 0; f < fields; ++f) {
    send_arrays.push_back(send[f].data());
    recv_arrays.push_back(d.apart ? recv[f].data() : send[f].data());
  }
  Strategy best = Strategy::shm;
  double best_seconds = 0;
  for (const StrategyInfo& candidate : strategy_table()) {
    if (!candidate.automatic_candidate) continue;
    parts.build(candidate.value);
    const double seconds = time_updates(parts, {send_arrays, recv_arrays}, topo.world());
    trials.push_back({candidate.value, seconds});
    if (trials.size() == 1 || seconds < best_seconds) best = candidate.value, best_seconds = seconds;
  }
  return best;
}

}  // namespace hympi::halo
