#include "halo.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <numeric>
#include <random>

#include "hympi/halo.hpp"
#include "hympi/shared_window.hpp"
#include "petsc_peer.hpp"

namespace hympi::bench {
namespace {

/// The ring pattern: `points` owned points per neighbour direction, then the ghosts.
/// Contiguous: each neighbour's send and receive ids are ranges. Gathered: both lists
/// are random permutations of those ranges (the worst case for packing).
std::vector<NeighborLists> ring_lists(const Topology& topo, int points, bool gathered, int& local_points) {
  const int me = topo.world_rank(), size = topo.world_size();
  std::vector<int> peers;
  if (size > 1) peers.push_back((me + 1) % size);
  if (size > 2) peers.push_back((me + size - 1) % size);
  const int owned = points * int(peers.size());
  local_points = owned + points * int(peers.size());
  std::mt19937 gen(unsigned(me) * 7u + 1u);
  std::vector<NeighborLists> lists;
  for (std::size_t i = 0; i < peers.size(); ++i) {
    NeighborLists n{peers[i], std::vector<int>(std::size_t(points)), std::vector<int>(std::size_t(points))};
    std::iota(n.send.begin(), n.send.end(), int(i) * points);
    std::iota(n.recv.begin(), n.recv.end(), owned + int(i) * points);
    if (gathered) {
      std::shuffle(n.send.begin(), n.send.end(), gen);
      std::shuffle(n.recv.begin(), n.recv.end(), gen);
    }
    lists.push_back(std::move(n));
  }
  return lists;  // the i-th value sent lands in the i-th ghost listed: any order is a valid pattern
}

Pattern ring_pattern(Context& ctx, std::size_t bytes, bool gathered, int& local_points) {
  const int points = int(std::max<std::size_t>(1, bytes / sizeof(double)));
  std::vector<NeighborLists> lists = ring_lists(ctx.topology(), points, gathered, local_points);
  return Pattern::from_lists(ctx, local_points, std::move(lists));
}

void busy_work(long iterations) {
  volatile double x = 0;
  for (long i = 0; i < iterations; ++i) x = x + 1e-9 * double(i);
}

/// Work iterations that take about `target_us` on this rank.
long calibrate_work(double target_us) {
  long n = 1000;
  for (;;) {
    const double start = MPI_Wtime();
    busy_work(n);
    const double us = (MPI_Wtime() - start) * 1e6;
    if (us > 200 || n > (1L << 30)) return std::max(1L, long(double(n) * target_us / us));
    n *= 4;
  }
}

}  // namespace

nlohmann::json bench_halo(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes) {
  nlohmann::json records = nlohmann::json::array();
  const Topology& topo = ctx.topology();
  const bool root = topo.world_rank() == 0;
  // hympi's strategies first (the extra ratios below are theirs), flat MPI last (the reference).
  const std::vector<Strategy> order{Strategy::shm,      Strategy::shm_direct, Strategy::aggregated,
                                    Strategy::neighbor, Strategy::rma_fence,  Strategy::rma_pscw,
                                    Strategy::rma_lock};
  for (bool gathered : {false, true})
    for (std::size_t bytes : sizes) {
      const int points = int(std::max<std::size_t>(1, bytes / sizeof(double)));
      int local_points = 0;
      Pattern pattern = ring_pattern(ctx, bytes, gathered, local_points);
      std::vector<std::unique_ptr<Halo>> halos;
      std::vector<std::vector<double>> storage;
      std::vector<double*> vectors;
      std::vector<Contender> contenders;
      for (Strategy s : order) halos.push_back(std::make_unique<Halo>(pattern, s));
      halos.push_back(std::make_unique<Halo>(pattern, Strategy::flat_mpi));
      for (auto& h : halos) {
        storage.emplace_back(std::size_t(local_points), 1.0);
        vectors.push_back(h->strategy() == Strategy::shm_direct ? h->shared_field<double>() : storage.back().data());
      }
      // The floor: one memcpy of each neighbour's block from its shared window, one barrier.
      SharedWindow window(topo.node(), std::size_t(points) * sizeof(double) * 2);
      std::vector<double> landing(std::size_t(points) * 2);
      const int node_rank = topo.node_rank(), node_size = topo.node_size();
      std::vector<int> node_peers;
      if (node_size > 1) node_peers.push_back((node_rank + 1) % node_size);
      if (node_size > 2) node_peers.push_back((node_rank + node_size - 1) % node_size);
      auto bare_copy = [&] {
        for (std::size_t i = 0; i < node_peers.size(); ++i)
          std::memcpy(landing.data() + i * std::size_t(points), window.segment(node_peers[i]),
                      std::size_t(points) * sizeof(double));
        ctx.barrier();
      };
      // MPI's floor: the bare exchange of the blocks (Irecv, Isend, Waitall; no packing), as
      // OSU-style probes time it: what flat_mpi adds to it is packing and unpacking.
      std::vector<double> mpi_out(std::size_t(points) * 2, 1.0), mpi_in(mpi_out.size());
      auto bare_mpi = [&] {
        const std::vector<NeighborLists>& peers = pattern.neighbors();
        MPI_Request requests[4];
        MPI_Status statuses[4];  // not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's access attributes
        for (std::size_t i = 0; i < peers.size(); ++i) {
          MPI_Irecv(mpi_in.data() + i * std::size_t(points), points, MPI_DOUBLE, peers[i].rank, 0, topo.world(), &requests[i]);
          MPI_Isend(mpi_out.data() + i * std::size_t(points), points, MPI_DOUBLE, peers[i].rank, 0, topo.world(),
                    &requests[peers.size() + i]);
        }
        MPI_Waitall(int(2 * peers.size()), requests, statuses);
      };
      std::vector<double> petsc_vector(std::size_t(local_points), 1.0);
      for (std::size_t i = 0; i < halos.size(); ++i) {
        Halo* h = halos[i].get();
        double* v = vectors[i];
        if (i + 1 == halos.size()) {
          if (auto petsc = petsc_contender(pattern, petsc_vector.data())) contenders.push_back(std::move(*petsc));
          contenders.push_back({"bare_copy+barrier", bare_copy});
          contenders.push_back({"bare_isend_irecv", bare_mpi});
        }
        contenders.push_back({name_of(h->strategy()), [h, v] { h->update(v); }});
      }
      Method m = method;
      if (bytes >= (256u << 10)) m.inner = std::max(1, method.inner / 10);
      auto samples = measure(ctx, contenders, m);
      nlohmann::json record = report(gathered ? "halo-gathered" : "halo-contiguous", bytes, contenders, samples, m);
      record["neighbors"] = pattern.neighbors().size();
      report_peer_ratios(record, contenders, samples, 3);
      records.push_back(record);
    }

  // Split phase: begin, work as long as the update itself, end (OSU's overlap).
  if (root)
    fmt::print("# halo-overlap (contiguous): work between begin and end as long as the update\n"
               "# {:<14}{:>10}{:>12}{:>10}{:>10}{:>12}\n",
               "Strategy", "Size(B)", "Update(us)", "Work(us)", "Total(us)", "Overlap(%)");
  nlohmann::json overlap = {{"benchmark", "halo-overlap"}, {"results", nlohmann::json::array()}};
  for (std::size_t bytes : {std::size_t(64) << 10, std::size_t(1) << 20}) {
    int local_points = 0;
    Pattern pattern = ring_pattern(ctx, bytes, false, local_points);
    for (Strategy s : {Strategy::shm, Strategy::shm_direct, Strategy::aggregated, Strategy::flat_mpi, Strategy::neighbor}) {
      Halo halo(pattern, s);
      std::vector<double> storage(std::size_t(local_points), 1.0);
      double* v = s == Strategy::shm_direct ? halo.shared_field<double>() : storage.data();
      Method m = method;
      m.inner = std::max(1, method.inner / 10);
      auto update = measure(ctx, {{"update", [&] { halo.update(v); }}}, m);
      double update_us = stats_of(update[0]).median_us;
      MPI_Bcast(&update_us, 1, MPI_DOUBLE, 0, topo.world());
      const long work = calibrate_work(update_us);
      auto split = measure(ctx,
                           {{"work", [&] { busy_work(work); }},
                            {"total", [&] {
                               halo.begin(v);
                               busy_work(work);
                               halo.end(v);
                             }}},
                           m);
      const double work_us = stats_of(split[0]).median_us, total_us = stats_of(split[1]).median_us;
      const double percent = std::clamp(100.0 * (1.0 - (total_us - work_us) / update_us), 0.0, 100.0);
      if (root)
        fmt::print("{:<16}{:>10}{:>12.2f}{:>10.2f}{:>10.2f}{:>12.1f}\n", name_of(s), bytes, update_us, work_us,
                   total_us, percent);
      overlap["results"].push_back({{"strategy", name_of(s)}, {"bytes", bytes}, {"update_us", update_us},
                                    {"work_us", work_us}, {"total_us", total_us}, {"overlap_percent", percent}});
    }
  }
  if (root) fmt::print("\n");
  records.push_back(overlap);
  return records;
}

}  // namespace hympi::bench
