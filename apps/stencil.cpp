// SPDX-License-Identifier: BSD-3-Clause
#include "stencil.hpp"

#include <fmt/core.h>

#include <cmath>
#include <numeric>

#include "mpi/support/rank_lists.hpp"
#include "threads.hpp"

namespace hympi::apps {

Problem stencil_problem(std::string_view name) {
  if (name == "jacobi2d") return {"jacobi2d", Stencil::star5, {1024, 1024}, 1.0, 0.0, 1.0, false};
  if (name == "jacobi3d") return {"jacobi3d", Stencil::star7, {120, 120, 120}, 1.0, 0.0, 1.0, true};
  if (name == "laplace19") return {"laplace19", Stencil::star19, {96, 96, 96}, 0.8, 1.0, 0.0, false};
  throw Error("hympi: unknown stencil application '" + std::string(name) + "'; valid: jacobi2d, jacobi3d, laplace19");
}

namespace {

/// A's coefficient for each stencil offset: -1 on faces; on the 19-point edges the mixed
/// derivatives of K = I + a (ones - I), a = 0.2: -(a/2) * sign. Diagonal: 2 * dimensions.
double coefficient(const Index3& o) {
  const int nonzero = (o[0] != 0) + (o[1] != 0) + (o[2] != 0);
  if (nonzero == 1) return -1.0;
  const double a = 0.2;
  return -(a / 2) * (o[0] != 0 ? o[0] : 1) * (o[1] != 0 ? o[1] : 1) * (o[2] != 0 ? o[2] : 1);
}

/// The relaxation on one block: ghosts of `u` must be current; writes `next`, returns
/// (sum of squared residuals, max |change|) over owned points.
struct Kernel {
  const Block& b;
  double diag, omega, source;
  std::vector<int> delta;      // local-index offset per stencil point
  std::vector<double> weight;  // its coefficient

  Kernel(const Block& block, const Problem& p) : b(block), omega(p.omega), source(p.source) {
    diag = 2.0 * dimensions_of(p.stencil);
    for (const Index3& o : offsets_of(p.stencil)) {
      delta.push_back(b.index(o[0], o[1], o[2]) - b.index(0, 0, 0));
      weight.push_back(coefficient(o));
    }
  }

  std::pair<double, double> sweep(const double* u, double* next) const {
    // Rows (j, k) split over the threads; (squares, max |change|) combined in thread order.
    const auto rows = std::size_t(b.size[1]) * std::size_t(b.size[2]);
    return in_thread_order(
        rows, std::pair<double, double>{0, 0},
        [&](std::size_t first, std::size_t last) {
          double squares = 0, change = 0;
          for (std::size_t r = first; r < last; ++r) {
            const int row = b.index(0, int(r % std::size_t(b.size[1])), int(r / std::size_t(b.size[1])));
            for (int i = 0; i < b.size[0]; ++i) {
              const int at = row + i;
              double au = diag * u[at];
              for (std::size_t s = 0; s < delta.size(); ++s) au += weight[s] * u[at + delta[s]];
              const double r_at = source - au, updated = u[at] + omega / diag * r_at;
              squares += r_at * r_at;
              change = std::max(change, std::abs(updated - u[at]));
              next[at] = updated;
            }
          }
          return std::pair<double, double>{squares, change};
        },
        [](std::pair<double, double> a, std::pair<double, double> c) {
          return std::pair<double, double>{a.first + c.first, std::max(a.second, c.second)};
        });
  }
};

/// Fixed boundary values in the ghost layers on the global border (never overwritten:
/// the halo fills only layers that face a neighbour).
void set_boundary(const Block& b, const Problem& p, double* u) {
  for (int k = -b.halo[2]; k < b.size[2] + b.halo[2]; ++k)
    for (int j = -b.halo[1]; j < b.size[1] + b.halo[1]; ++j)
      for (int i = -b.halo[0]; i < b.size[0] + b.halo[0]; ++i)
        if (b.begin[0] + i < 0) u[b.index(i, j, k)] = p.boundary;
}


Result relax(Context* ctx, const Block& b, const Problem& p, int iterations, int check_every, double* u,
             double* next, Halo* halo_u, Halo* halo_next, bool separate_wait = false) {
  Kernel kernel(b, p);
  set_boundary(b, p, u);
  set_boundary(b, p, next);
  Result result;
  if (ctx) ctx->barrier();  // the loop's time starts together on every rank
  timed(result.split.loop, [&] {
    for (int it = 1; it <= iterations; ++it) {
      if (halo_u) ghost_update(*ctx, *halo_u, u, separate_wait, result.split);
      std::pair<double, double> local;
      timed(result.split.compute, [&] { local = kernel.sweep(u, next); });
      if (it % check_every == 0 || it == iterations) {
        double measure = p.max_norm ? local.second : local.first;
        if (ctx) measure = reduce(*ctx, measure, p.max_norm ? Op::max : Op::sum, separate_wait, result.split);
        result.residual = p.max_norm ? measure : std::sqrt(measure);
      }
      std::swap(u, next);
      std::swap(halo_u, halo_next);
    }
  });
  double sum = 0;
  for (int k = 0; k < b.size[2]; ++k)
    for (int j = 0; j < b.size[1]; ++j)
      for (int i = 0; i < b.size[0]; ++i) sum += u[b.index(i, j, k)];
  result.checksum = ctx ? ctx->allreduce(sum, Op::sum) : sum;
  // The final iterate is in `u`: copy it where the caller looks.
  if (iterations % 2 == 1) std::copy(u, u + b.local_points(), next);
  return result;
}

/// Rank 0 gathers every block's owned values and compares them with a serial run.
bool verify(Context& ctx, const Block& b, const Problem& p, int iterations, int check_every, const double* u) {
  std::vector<double> mine;
  for (int k = 0; k < b.size[2]; ++k)
    for (int j = 0; j < b.size[1]; ++j)
      for (int i = 0; i < b.size[0]; ++i) mine.push_back(u[b.index(i, j, k)]);
  const MPI_Comm world = ctx.topology().world();
  const std::vector<int> box{b.begin[0], b.begin[1], b.begin[2], b.size[0], b.size[1], b.size[2]};
  const std::vector<int> boxes = mpi::gather_lists<int>(world, box, 0, "verify: blocks").items;
  const std::vector<double> all = mpi::gather_lists<double>(world, mine, 0, "verify: values").items;
  int ok = 1;
  if (ctx.topology().world_rank() == 0) {
    Index3 global{1, 1, 1};
    for (std::size_t d = 0; d < p.grid.size(); ++d) global[d] = p.grid[d];
    const Block whole = make_block(global, {1, 1, 1}, {0, 0, 0}, 1, dimensions_of(p.stencil));
    std::vector<double> su(std::size_t(whole.local_points()), 0.0), snext(su.size(), 0.0);
    const SerialSection serial;
    relax(nullptr, whole, p, iterations, check_every, su.data(), snext.data(), nullptr, nullptr);
    double worst = 0;
    std::size_t at = 0;  // values come in rank order, box by box
    for (std::size_t r = 0; r < boxes.size(); r += 6) {
      const int* q = &boxes[r];
      for (int k = 0; k < q[5]; ++k)
        for (int j = 0; j < q[4]; ++j)
          for (int i = 0; i < q[3]; ++i) worst = std::max(worst, std::abs(all[at++] - snext[std::size_t(whole.index(q[0] + i, q[1] + j, q[2] + k))]));
    }
    ok = worst == 0.0;
    fmt::print("verify: largest difference to a serial run {:.3e} over {} points: {}\n", worst, all.size(),
               ok ? "identical" : "DIFFERENT");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, world);
  return ok != 0;
}

}  // namespace

Result solve_stencil(Context& ctx, const Problem& p, const CommonOptions& options) {
  const Strategy strategy = strategy_from_name(options.strategy);
  use_threads(options.threads);
  CartesianGrid grid(ctx, p.grid, p.stencil);
  const Block& b = grid.block();
  Halo halo_a(grid.pattern(), strategy), halo_b(grid.pattern(), strategy);
  const std::size_t points = std::size_t(b.local_points());
  Arrays arrays(ctx, options.placement, strategy == Strategy::shm_direct ? 0 : 2, points);
  double* u = strategy == Strategy::shm_direct ? halo_a.shared_field<double>() : arrays[0];
  double* next = strategy == Strategy::shm_direct ? halo_b.shared_field<double>() : arrays[1];
  Result r = relax(&ctx, b, p, options.iterations, options.check_every, u, next, &halo_a, &halo_b, options.separate_wait);
  r.strategy = name_of(halo_a.strategy());
  if (options.verify) r.verified = verify(ctx, b, p, options.iterations, options.check_every, next);
  return r;
}

}  // namespace hympi::apps
