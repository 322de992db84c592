// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/report.hpp"

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "pmpi/datatypes.hpp"
#include "pmpi/settings.hpp"

namespace hympi::pmpi {
namespace {

constexpr std::size_t kOps = kMpiNames.size(), kSizes = kSizeNames.size();
constexpr std::size_t kCells = kOps * kSizes * kPaths;

std::atomic<uint64_t> g_counts[kCells];
bool g_printed = false;  // by MPI_Finalize (its thread, then exit: one after the other)

std::size_t cell(std::size_t op, std::size_t size, std::size_t path) { return (op * kSizes + size) * kPaths + path; }

// `summed`: collective over MPI_COMM_WORLD, rank 0 prints the sums; else this process's own.
void print(bool summed) {
  std::vector<unsigned long long> mine(kCells), all(kCells);
  for (std::size_t c = 0; c < kCells; ++c) mine[c] = g_counts[c].load(std::memory_order_relaxed);  // relaxed: see count_bytes
  std::string whose = "this process (its own: no MPI_Init seen, no sum over ranks)";
  if (summed) {
    int rank = 0, size = 1;
    PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    PMPI_Comm_size(MPI_COMM_WORLD, &size);
    PMPI_Reduce(mine.data(), all.data(), int(kCells), MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank != 0) return;
    whose = std::to_string(size) + " ranks";
  } else {
    all = mine;
  }
  std::printf("# hympi_pmpi: intercepted calls of %s, by operation, bytes per rank and path\n", whose.c_str());
  if (const Measured* m = settings().measured)
    std::printf("# sizes served: where hympi was measured faster than %s %d\n", m->family, m->major);
  else
    std::printf("# sizes served: %s\n", settings().bounds_set
                                             ? "HYMPI_PMPI_MIN_BYTES / HYMPI_PMPI_MAX_BYTES"
                                             : "where hympi was measured faster than every MPI measured (not this one)");
  std::printf("# %-22s %-11s %-40s %12s\n", "operation", "size", "path", "calls");
  for (std::size_t op = 0; op < kOps; ++op)
    for (std::size_t s = 0; s < kSizes; ++s)
      for (std::size_t p = 0; p < kPaths; ++p)
        if (const unsigned long long n = all[cell(op, s, p)])
          std::printf("  %-22s %-11s %-40s %12llu\n", kMpiNames[op], kSizeNames[s], kPathNames[p], n);
  std::fflush(stdout);
}

}  // namespace

void count_bytes(Operation op, Path path, std::size_t bytes) {
  // relaxed: a tally read only when printed, after the threads that call MPI are done
  g_counts[cell(std::size_t(op), size_class(bytes), std::size_t(path))].fetch_add(1, std::memory_order_relaxed);
}

void print_report() {
  // The sums over MPI_COMM_WORLD need every rank here: only when the ranks compared their
  // settings (HYMPI_PMPI_REPORT among them) at an MPI_Init that went through the library.
  // relaxed: set on this thread or before it could call MPI (nothing else read with it)
  print(g_init_seen.load(std::memory_order_relaxed));
  g_printed = true;
}

void print_unprinted_report() {
  // A process whose MPI_Init went through the library reports at MPI_Finalize only (one
  // that exits before it, e.g. in MPI_Abort, prints nothing). relaxed: as print_report.
  if (!g_printed && !g_init_seen.load(std::memory_order_relaxed)) print(false);
}

}  // namespace hympi::pmpi
