// SPDX-License-Identifier: BSD-3-Clause
// jacobi2d, jacobi3d, laplace19 (apps/stencil.hpp): built three times from this file,
// HYMPI_APP selects the problem.
//   mpiexec -n 2 jacobi3d [--grid 120,120,120] [--strategy shm] [--iterations 200] [--threads K [--task-mode]] [--verify]
#include "stencil.hpp"

namespace hympi::apps {
namespace {

#define HYMPI_STRINGIFY(x) #x
#define HYMPI_NAME(x) HYMPI_STRINGIFY(x)

int run(int argc, char** argv) {
  Problem p = stencil_problem(HYMPI_NAME(HYMPI_APP));
  CLI::App app{std::string(p.name) + ": weighted Jacobi relaxation, ghost updates and reductions through hympi"};
  CommonOptions options;
  add_common_options(app, options);
  app.add_option("--grid", p.grid, "grid points per dimension")->delimiter(',')->expected(dimensions_of(p.stencil));
  app.add_flag("--task-mode", options.task_mode,
               "with --threads K >= 2: thread 0 runs each ghost update while the other K - 1 threads relax the points "
               "that need no ghost, then all K the rest (Hager & Wellein (2010), 11.1.2; default: vector mode)");
  if (const auto status = parse(app, argc, argv)) return *status;
  Context ctx(MPI_COMM_WORLD);
  const Result r = solve_stencil(ctx, p, options);
  report(ctx, p.name, r.strategy, options.threads, options.iterations, r.residual, r.checksum, r.split);
  return r.verified ? 0 : 1;
}

}  // namespace
}  // namespace hympi::apps

int main(int argc, char** argv) { return hympi::apps::app_main(argc, argv, hympi::apps::run); }
