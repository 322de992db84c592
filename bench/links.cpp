// SPDX-License-Identifier: BSD-3-Clause
#include "links.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace hympi::bench {
namespace {

/// Half round trip in seconds between world ranks a and b (median of 5 rounds of `reps`).
double half_round_trip(MPI_Comm comm, int a, int b, std::size_t bytes, int reps) {
  int me = 0;
  MPI_Comm_rank(comm, &me);
  std::vector<char> buffer(std::max<std::size_t>(bytes, 1));
  std::vector<double> rounds;
  for (int round = 0; round < 5; ++round) {
    MPI_Barrier(comm);
    const double start = MPI_Wtime();
    for (int i = 0; i < reps && (me == a || me == b); ++i) {
      if (me == a) {
        MPI_Send(buffer.data(), int(bytes), MPI_BYTE, b, 1, comm);
        MPI_Recv(buffer.data(), int(bytes), MPI_BYTE, b, 1, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(buffer.data(), int(bytes), MPI_BYTE, a, 1, comm, MPI_STATUS_IGNORE);
        MPI_Send(buffer.data(), int(bytes), MPI_BYTE, a, 1, comm);
      }
    }
    rounds.push_back((MPI_Wtime() - start) / (2.0 * reps));
  }
  std::sort(rounds.begin(), rounds.end());
  double t = rounds[rounds.size() / 2];
  MPI_Bcast(&t, 1, MPI_DOUBLE, a, comm);
  return t;
}

nlohmann::json link(MPI_Comm comm, int a, int b) {
  constexpr std::size_t kLarge = 1 << 20;
  const double small = half_round_trip(comm, a, b, 8, 1000), large = half_round_trip(comm, a, b, kLarge, 20);
  return {{"ranks", {a, b}}, {"latency_us", small * 1e6}, {"bandwidth_Bps", double(kLarge) / std::max(large - small, 1e-9)}};
}

}  // namespace

nlohmann::json measure_links(Context& ctx) {
  const Topology& topo = ctx.topology();
  const MPI_Comm world = topo.world();
  nlohmann::json out;
  const std::vector<int>& node_of = topo.node_of();
  const auto other_node = std::find_if(node_of.begin(), node_of.end(), [&](int n) { return n != node_of[0]; });
  if (other_node != node_of.end()) out["inter"] = link(world, 0, int(other_node - node_of.begin()));
  const auto same_node = std::find(node_of.begin() + 1, node_of.end(), node_of[0]);
  if (same_node != node_of.end()) out["intra"] = link(world, 0, int(same_node - node_of.begin()));
  std::vector<char> from(1 << 22, 1), to(1 << 22);
  std::vector<double> rounds;
  for (int round = 0; round < 5; ++round) {
    const double start = MPI_Wtime();
    for (int i = 0; i < 10; ++i) std::memcpy(to.data(), from.data(), from.size());
    rounds.push_back((MPI_Wtime() - start) / 10);
  }
  std::sort(rounds.begin(), rounds.end());
  out["memcpy_Bps"] = double(from.size()) / rounds[rounds.size() / 2];
  if (topo.world_rank() == 0) {
    fmt::print("# model inputs (ping-pong 8 B / 1 MiB, memcpy 4 MiB):");
    for (const char* where : {"inter", "intra"})
      if (out.contains(where))
        fmt::print(" {} {:.2f} us {:.2f} GB/s;", where, out[where]["latency_us"].get<double>(),
                   out[where]["bandwidth_Bps"].get<double>() / 1e9);
    fmt::print(" memcpy {:.2f} GB/s\n", out["memcpy_Bps"].get<double>() / 1e9);
  }
  return out;
}

}  // namespace hympi::bench
