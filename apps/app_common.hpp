// SPDX-License-Identifier: BSD-3-Clause
// What every hympi application shares: the command-line options (strategy, iterations,
// placement), where its arrays live, the time split (compute / ghost update / reductions)
// and the report, printed by rank 0 with the maxima over ranks.
#pragma once

#include <CLI/CLI.hpp>
#include <mpi.h>

#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"

namespace hympi::apps {

struct CommonOptions {
  std::string strategy = "shm";
  int iterations = 200;
  int check_every = 10;          // residual (an allreduce) every this many iterations
  std::string placement = "first-touch";
  bool verify = false;           // compare with a serial run on rank 0
  bool separate_wait = false;    // a barrier before each ghost update, timed on its own
  int threads = 1;               // OpenMP threads per rank for the compute loops (threads.hpp)
  bool task_mode = false;        // stencil apps: thread 0 updates the ghosts while the others compute
};

void add_common_options(CLI::App& app, CommonOptions& options);

/// Parses the command line; on --help or a bad option rank 0 prints and the result holds
/// the exit status (empty: go on).
std::optional<int> parse(CLI::App& app, int argc, char** argv);

/// An app's main(): MPI_Init_thread (funneled: threads.hpp), `run`, a hympi::Error printed by rank 0 (status 2), MPI_Finalize.
int app_main(int argc, char** argv, int (*run)(int, char**));

/// Arrays of `count` doubles per rank. "first-touch": each rank allocates and initializes
/// its own (the default; Hager & Wellein (2010), 8.1.1), each of its threads the share it
/// computes on (threads.hpp). "shared": a shared window
/// allocated noncontig, each rank's segment page-aligned and first written by its owner
/// (alloc_shared_noncontig, Hoefler et al. (2012)). "rank0": the node's arrays are one
/// contiguous region of a shared window allocated and first written by node rank 0 (the
/// contiguous shared allocation of Hoefler et al. (2012): pages on rank 0's memory, arrays
/// of neighbours share pages).
class Arrays {
 public:
  Arrays(const Context& ctx, const std::string& placement, int arrays, std::size_t count);
  double* operator[](int i) { return pointers_[std::size_t(i)]; }

 private:
  std::vector<std::unique_ptr<double[]>> own_;
  std::unique_ptr<SharedWindow> window_;
  std::vector<double*> pointers_;
};

/// Seconds spent per phase on this rank. `wait`: in the barrier before each ghost update
/// and reduction (--separate-wait): the other ranks' later arrival, not data movement.
struct Split {
  double compute = 0, ghost = 0, reduce = 0, wait = 0;
  double loop = 0;  // the whole iteration loop: every phase, the wait for other ranks included
};

/// Runs `f` and adds its duration to `slot`.
template <class F>
void timed(double& slot, F&& f) {
  const double start = MPI_Wtime();
  f();
  slot += MPI_Wtime() - start;
}

/// One ghost update of `v`, timed into split.ghost; with `separate_wait`, a hympi barrier
/// first, timed into split.wait, so that the update's time is the exchange alone.
void ghost_update(Context& ctx, Halo& halo, double* v, bool separate_wait, Split& split);

/// A hympi allreduce of one value, timed into split.reduce (after the same optional barrier).
double reduce(Context& ctx, double value, Op op, bool separate_wait, Split& split);

/// Collective: microseconds per iteration of each phase, the maximum over ranks, and the
/// communication share (ghost update + reductions) / (compute + ghost update + reductions).
struct IterationTimes {
  double compute_us = 0, ghost_us = 0, reduce_us = 0, wait_us = 0, share_percent = 0, iteration_us = 0;
};
IterationTimes per_iteration(const Context& ctx, const Split& split, int iterations);

/// Rank 0 prints one line per quantity, OSU-like; times are maxima over ranks.
void report(const Context& ctx, const std::string& app, const std::string& strategy, int threads, int iterations,
            double residual, double checksum, const Split& split);

}  // namespace hympi::apps
