// SPDX-License-Identifier: BSD-3-Clause
// The program of jacobi2d, jacobi3d and laplace19 (apps/stencil.hpp); their executables are
// stencil_main.cpp, which names the problem.
#include "stencil_app.hpp"

#include "stencil.hpp"

namespace hympi::apps {
namespace {

const char* g_problem = "";  // stencil_main's argument, for run() (app_main takes a plain function)

int run(int argc, char** argv) {
  Problem p = stencil_problem(g_problem);
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

int stencil_main(const char* problem, int argc, char** argv) {
  g_problem = problem;
  return app_main(argc, argv, run);
}

}  // namespace hympi::apps
