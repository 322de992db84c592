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

  using Sums = std::pair<double, double>;  // (sum of squared residuals, max |change|)

  /// Relaxes the points [first, last) of row (j, k) into `next`, adding to `sums`.
  void row(const double* u, double* next, int j, int k, int first, int last, Sums& sums) const {
    const int start = b.index(0, j, k);
    for (int i = first; i < last; ++i) {
      const int at = start + i;
      double au = diag * u[at];
      for (std::size_t s = 0; s < delta.size(); ++s) au += weight[s] * u[at + delta[s]];
      const double r_at = source - au, updated = u[at] + omega / diag * r_at;
      sums.first += r_at * r_at;
      sums.second = std::max(sums.second, std::abs(updated - u[at]));
      next[at] = updated;
    }
  }

  static Sums combine(Sums a, Sums c) { return {a.first + c.first, std::max(a.second, c.second)}; }

  std::size_t rows() const { return std::size_t(b.size[1]) * std::size_t(b.size[2]); }
  int j_of(std::size_t r) const { return int(r % std::size_t(b.size[1])); }
  int k_of(std::size_t r) const { return int(r / std::size_t(b.size[1])); }

  /// Vector mode: rows (j, k) split over the threads; sums combined in thread order.
  Sums sweep(const double* u, double* next) const {
    return in_thread_order(
        rows(), Sums{0, 0},
        [&](std::size_t first, std::size_t last) {
          Sums sums{0, 0};
          for (std::size_t r = first; r < last; ++r) row(u, next, j_of(r), k_of(r), 0, b.size[0], sums);
          return sums;
        },
        combine);
  }

  /// Task mode: thread 0 runs `update` (the ghosts of u) while the others relax the
  /// points whose stencil reads no ghost (at least a ghost width from every face); then
  /// every thread the rest. Each point is computed as in sweep(): `next` is the same.
  template <class Update>
  Sums overlapped_sweep(const double* u, double* next, Update&& update) const {
    const Index3 lo = b.halo, hi{b.size[0] - b.halo[0], b.size[1] - b.halo[1], b.size[2] - b.halo[2]};
    const int inner_j = std::max(0, hi[1] - lo[1]), inner_k = std::max(0, hi[2] - lo[2]);
    const bool inner_i = hi[0] > lo[0];
    auto inside = [&](int j, int k) { return inner_i && j >= lo[1] && j < hi[1] && k >= lo[2] && k < hi[2]; };
    auto inner = [&](std::size_t first, std::size_t last) {
      Sums sums{0, 0};
      for (std::size_t r = first; r < last; ++r)
        row(u, next, lo[1] + int(r % std::size_t(inner_j)), lo[2] + int(r / std::size_t(inner_j)), lo[0], hi[0], sums);
      return sums;
    };
    auto outer = [&](std::size_t first, std::size_t last) {
      Sums sums{0, 0};
      for (std::size_t r = first; r < last; ++r) {
        const int j = j_of(r), k = k_of(r);
        if (!inside(j, k)) {
          row(u, next, j, k, 0, b.size[0], sums);
        } else {
          row(u, next, j, k, 0, lo[0], sums);
          row(u, next, j, k, hi[0], b.size[0], sums);
        }
      }
      return sums;
    };
    const std::size_t inner_rows = inner_i ? std::size_t(inner_j) * std::size_t(inner_k) : 0;
    return overlapped(update, inner_rows, inner, rows(), outer, Sums{0, 0}, combine);
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
             double* next, Halo* halo_u, Halo* halo_next, bool separate_wait = false, bool task_mode = false) {
  Kernel kernel(b, p);
  set_boundary(b, p, u);
  set_boundary(b, p, next);
  Result result;
  if (ctx) ctx->barrier();  // the loop's time starts together on every rank
  timed(result.split.loop, [&] {
    for (int it = 1; it <= iterations; ++it) {
      std::pair<double, double> local;
      if (task_mode && halo_u) {
        // The update runs inside the compute region: `compute` is the whole overlapped region.
        timed(result.split.compute, [&] {
          local = kernel.overlapped_sweep(u, next, [&] { ghost_update(*ctx, *halo_u, u, separate_wait, result.split); });
        });
      } else {
        if (halo_u) ghost_update(*ctx, *halo_u, u, separate_wait, result.split);
        timed(result.split.compute, [&] { local = kernel.sweep(u, next); });
      }
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
  if (options.task_mode && options.threads < 2)
    throw Error("hympi: --task-mode needs --threads 2 or more: thread 0 updates the ghosts while the others compute");
  use_threads(options.threads);
  CartesianGrid grid(ctx, p.grid, p.stencil);
  const Block& b = grid.block();
  Halo halo_a(grid.pattern(), strategy), halo_b(grid.pattern(), strategy);
  const std::size_t points = std::size_t(b.local_points());
  Arrays arrays(ctx, options.placement, strategy == Strategy::shm_direct ? 0 : 2, points);
  double* u = strategy == Strategy::shm_direct ? halo_a.shared_field<double>() : arrays[0];
  double* next = strategy == Strategy::shm_direct ? halo_b.shared_field<double>() : arrays[1];
  Result r = relax(&ctx, b, p, options.iterations, options.check_every, u, next, &halo_a, &halo_b, options.separate_wait,
                   options.task_mode);
  r.strategy = name_of(halo_a.strategy());
  if (options.verify) r.verified = verify(ctx, b, p, options.iterations, options.check_every, next);
  return r;
}

}  // namespace hympi::apps
