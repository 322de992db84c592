// SPDX-License-Identifier: BSD-3-Clause
// cg (apps/cg_solver.hpp) on the cube mesh or any tetrahedral MSH file.
//   mpiexec -n 2 cg [--size 0.03] [--strategy shm] [--tolerance 1e-8] [--node-shared-mesh] [--threads K] [--verify]
// --verify: the same solve on one rank (rank 0, serial) must agree to round-off, and a
// second parallel solve with flat_mpi must agree bit for bit (the strategy moves data, it
// does not change arithmetic).
#include <fmt/core.h>

#include <cmath>

#include "cg_solver.hpp"

namespace hympi::apps {
namespace {

int run(int argc, char** argv) {
  CLI::App app{"cg: conjugate gradients for a P1 FEM operator on the partitioned cube mesh, through hympi"};
  CommonOptions options;
  options.iterations = 1000;
  add_common_options(app, options);
  CgProblem problem;
  app.add_flag("--order", problem.order, "renumber local points inner | boundary | ghost (order_local_ids)");
  app.add_option("--size", problem.size, "mesh element size (cached Gmsh mesh)");
  app.add_option("--mesh", problem.mesh_file, "a Gmsh MSH file of tetrahedra instead of the cube");
  app.add_option("--tolerance", problem.tolerance, "relative residual to stop at");
  app.add_flag("--node-shared-mesh", problem.node_shared_mesh,
               "keep one copy of the whole mesh per node (hympi::NodeShared), read by the node's leader");
  app.add_option("--levels", problem.levels, "METIS partition: 1 (k-way) or 2 (nodes, then ranks)")->check(CLI::IsMember({1, 2}));
  if (const auto status = parse(app, argc, argv)) return *status;
  Context ctx(MPI_COMM_WORLD);
  const Strategy strategy = strategy_from_name(options.strategy);
  const CgSetup setup = prepare_cg(ctx, problem);
  const Solve s = solve_cg(ctx, setup, problem, options, strategy);
  double worst_error = 0, sum = 0;
  for (double v : s.x) worst_error = std::max(worst_error, std::abs(v - 1)), sum += v;
  worst_error = ctx.allreduce(worst_error, Op::max);
  sum = ctx.allreduce(sum, Op::sum);
  if (ctx.topology().world_rank() == 0)
    fmt::print("# mesh {}: {} points, {} tetrahedra, {} partition\n",
               problem.mesh_file.empty() ? fmt::format("cube {:g}", problem.size) : problem.mesh_file, setup.mesh.vertices(),
               setup.mesh.elements(), setup.partition.two_level ? "two-level" : "one-level");
  if (problem.node_shared_mesh && ctx.topology().world_rank() == 0) {
    const double mib = double(setup.mesh.xyz.size_bytes() + setup.mesh.tets.size_bytes()) / double(1 << 20);
    fmt::print("# mesh node-shared: one copy of {:.1f} MiB per node of {} ranks instead of {} (saves {:.1f} MiB per node)\n",
               mib, ctx.topology().node_size(), ctx.topology().node_size(), mib * (ctx.topology().node_size() - 1));
  }
  report(ctx, "cg", s.strategy, options.threads, s.iterations, s.residual, sum, s.split);
  if (ctx.topology().world_rank() == 0) fmt::print("max |x - 1| {:.3e}\n", worst_error);
  return !options.verify || verify_cg(ctx, setup, problem, options, s) ? 0 : 1;
}

}  // namespace
}  // namespace hympi::apps

int main(int argc, char** argv) { return hympi::apps::app_main(argc, argv, hympi::apps::run); }
