// SPDX-License-Identifier: BSD-3-Clause
#include "cg_solver.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "mpi/support/rank_lists.hpp"
#include "threads.hpp"

namespace hympi::apps {
namespace {

void multiply(const Csr& a, const double* x, double* y) {
  in_parallel(std::size_t(a.rows()), [&](std::size_t first, std::size_t last) { multiply_rows(a, x, y, first, last); });
}

/// The solver's vectors, each of the local points (owned, then ghosts); where they live is
/// the caller's choice (--placement). `p` is the one the ghost update moves.
struct Vectors {
  std::size_t points;
  double *x, *b, *r, *p, *q;
};

/// CG on the rows of `a` (owned); `halo` and `ctx` null: serial.
Solve cg(const Csr& a, Vectors v, Context* ctx, Halo* halo, double tolerance, int max_iterations,
         bool separate_wait = false) {
  const std::size_t n = std::size_t(a.rows());
  double *x = v.x, *b = v.b, *r = v.r, *p = v.p, *q = v.q;
  Solve s;
  auto dot = [&](const double* u, const double* w) {
    double local = 0;
    timed(s.split.compute, [&] {
      local = in_thread_order(
          n, 0.0,
          [&](std::size_t first, std::size_t last) {
            double sum = 0;
            for (std::size_t i = first; i < last; ++i) sum += u[i] * w[i];
            return sum;
          },
          std::plus<double>());
    });
    if (ctx) local = reduce(*ctx, local, Op::sum, separate_wait, s.split);
    return local;
  };
  std::fill(p, p + v.points, 1.0);
  multiply(a, p, b);  // b = A 1: the solution is all ones
  std::fill(x, x + n, 0.0);
  std::copy(b, b + n, r);
  std::copy(r, r + n, p);
  const double norm_b = std::sqrt(dot(b, b));
  double rr = dot(r, r);
  s.residual = std::sqrt(rr) / norm_b;
  if (ctx) ctx->barrier();  // the loop's time starts together on every rank
  timed(s.split.loop, [&] {
    while (s.iterations < max_iterations && s.residual > tolerance) {
      if (halo) ghost_update(*ctx, *halo, p, separate_wait, s.split);
      timed(s.split.compute, [&] { multiply(a, p, q); });
      const double alpha = rr / dot(p, q);
      timed(s.split.compute, [&] {
        in_parallel(n, [&](std::size_t first, std::size_t last) {
          for (std::size_t i = first; i < last; ++i) x[i] += alpha * p[i], r[i] -= alpha * q[i];
        });
      });
      const double rr_next = dot(r, r), beta = rr_next / rr;
      rr = rr_next;
      timed(s.split.compute, [&] {
        in_parallel(n, [&](std::size_t first, std::size_t last) {
          for (std::size_t i = first; i < last; ++i) p[i] = r[i] + beta * p[i];
        });
      });
      s.residual = std::sqrt(rr) / norm_b;
      ++s.iterations;
    }
  });
  s.x.assign(x, x + n);
  return s;
}

/// The vectors in `arrays` (of `points` entries); with shm_direct, p is the Halo's own.
Vectors vectors_in(Arrays& arrays, std::size_t points, Halo& halo) {
  double* p = halo.strategy() == Strategy::shm_direct ? halo.shared_field<double>() : arrays[3];
  return {points, arrays[0], arrays[1], arrays[2], p, arrays[4]};
}

}  // namespace

CgSetup prepare_cg(Context& ctx, const CgProblem& problem) {
  const Topology& topo = ctx.topology();
  const int rank = topo.world_rank();
  std::string error;
  if (rank == 0 && problem.mesh_file.empty()) try {
      mesh::cube_mesh_file(problem.size, false);
    } catch (const Error& e) {
      error = e.what();
    }
  int failed = !error.empty();
  MPI_Bcast(&failed, 1, MPI_INT, 0, topo.world());
  if (failed) throw Error(rank == 0 ? error : "hympi cg: rank 0 could not make the mesh (see its message)");
  const std::string file = problem.mesh_file.empty() ? mesh::cube_mesh_file(problem.size, false) : problem.mesh_file;
  mesh::TetMesh private_mesh;
  std::optional<NodeShared<double>> shared_xyz;
  std::optional<NodeShared<int32_t>> shared_tets;
  mesh::TetMeshView m;
  if (problem.node_shared_mesh) {
    // The node's leader reads the file and fills the node's one copy; world rank 0 tells
    // everyone the sizes (every rank constructs the NodeShared arrays alike).
    std::optional<mesh::TetMesh> read;
    if (topo.is_leader()) read = mesh::read_mesh(file);
    unsigned long long sizes[2] = {read ? read->xyz.size() : 0, read ? read->tets.size() : 0};
    MPI_Bcast(sizes, 2, MPI_UNSIGNED_LONG_LONG, 0, topo.world());
    const mesh::TetMeshView source = read ? mesh::TetMeshView(*read) : mesh::TetMeshView();
    auto copy_from = [](auto from) {
      return [from](auto part, std::size_t first) { std::copy_n(from.begin() + long(first), part.size(), part.begin()); };
    };
    shared_xyz.emplace(ctx, std::size_t(sizes[0]), copy_from(source.xyz));
    shared_tets.emplace(ctx, std::size_t(sizes[1]), copy_from(source.tets));
    m = {shared_xyz->view(), shared_tets->view()};
  } else {
    private_mesh = mesh::read_mesh(file);
    m = private_mesh;
  }
  mesh::Graph graph = mesh::vertex_graph(m);
  mesh::RankPartition partition = mesh::partition_over(graph, topo, problem.levels);
  mesh::LocalMesh local = mesh::rank_local_mesh(graph, partition, rank);
  if (problem.order) local = mesh::reordered(local, order_local_ids(mesh::mesh_pattern(ctx, local)).new_id);
  Pattern pattern = mesh::mesh_pattern(ctx, local);
  Csr a = assemble_p1(m, local);
  // The views stay valid: moving a vector or a NodeShared keeps its memory.
  return {std::move(private_mesh), std::move(shared_xyz), std::move(shared_tets), m,          std::move(graph),
          std::move(partition),    std::move(local),      std::move(pattern),     std::move(a)};
}

Solve solve_cg(Context& ctx, const CgSetup& setup, const CgProblem& problem, const CommonOptions& options,
               Strategy strategy) {
  use_threads(options.threads);
  Halo halo(setup.pattern, strategy);
  const std::size_t points = setup.local.global.size();
  Arrays arrays(ctx, options.placement, 5, points);
  Solve s = cg(setup.a, vectors_in(arrays, points, halo), &ctx, &halo, problem.tolerance, options.iterations,
               options.separate_wait);
  s.strategy = name_of(halo.strategy());
  return s;
}

bool verify_cg(Context& ctx, const CgSetup& setup, const CgProblem& problem, const CommonOptions& options,
               const Solve& solved) {
  const Topology& topo = ctx.topology();
  const mesh::LocalMesh& local = setup.local;
  // The same solve with flat_mpi: bit for bit.
  CommonOptions plain = options;
  plain.separate_wait = false;
  const Solve again = solve_cg(ctx, setup, problem, plain, Strategy::flat_mpi);
  int same = again.iterations == solved.iterations && again.x == solved.x;
  same = ctx.allreduce(same, Op::min);
  // Serial on rank 0: every owned value within round-off of the serial solution.
  const std::vector<double> all_x = mpi::gather_lists<double>(topo.world(), solved.x, 0, "verify: values").items;
  const std::vector<int64_t> owned_ids(local.global.begin(), local.global.begin() + local.owned);
  const std::vector<int64_t> all_ids = mpi::gather_lists<int64_t>(topo.world(), owned_ids, 0, "verify: ids").items;
  int ok = same;
  if (topo.world_rank() == 0) {
    const mesh::LocalMesh whole = mesh::local_mesh(setup.graph, std::vector<int32_t>(setup.partition.part.size(), 0), 0);
    const std::size_t all = std::size_t(whole.owned);
    std::vector<std::vector<double>> serial_vectors(5, std::vector<double>(all));
    auto at = [&](int i) { return serial_vectors[std::size_t(i)].data(); };
    const SerialSection one_thread;
    const Solve serial = cg(assemble_p1(setup.mesh, whole), {all, at(0), at(1), at(2), at(3), at(4)}, nullptr, nullptr,
                            problem.tolerance, options.iterations);
    double worst = 0;
    for (std::size_t i = 0; i < all_x.size(); ++i) worst = std::max(worst, std::abs(all_x[i] - serial.x[std::size_t(all_ids[i])]));
    const bool close = worst <= problem.tolerance && std::abs(serial.iterations - solved.iterations) <= 2;
    fmt::print("verify: flat_mpi {}; serial run: {} iterations, largest difference {:.3e}: {}\n",
               same ? "bit-identical" : "DIFFERENT", serial.iterations, worst, close ? "round-off" : "DIFFERENT");
    ok = same && close;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, topo.world());
  return ok != 0;
}

}  // namespace hympi::apps
