// SPDX-License-Identifier: BSD-3-Clause
#include "apps.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <functional>

#include "stencil.hpp"
#ifdef HYMPI_BENCH_MESH
#include "cg_solver.hpp"
#endif

namespace hympi::bench {
namespace {

/// One solve with `strategy`: its per-iteration times (every rank).
using Solver = std::function<apps::IterationTimes(const std::string& strategy)>;

/// "median (lowest-highest)".
std::string spread(std::vector<double> v, int digits = 1) {
  std::sort(v.begin(), v.end());
  return fmt::format("{:.{}f} ({:.{}f}-{:.{}f})", v[v.size() / 2], digits, v.front(), digits, v.back(), digits);
}

}  // namespace

nlohmann::json bench_apps(Context& ctx, int rounds, bool quick) {
  const bool root = ctx.topology().world_rank() == 0;
  const std::vector<std::string> strategies{"shm", "flat_mpi", "shm_direct", "aggregated"};
  std::vector<std::pair<std::string, Solver>> solvers;
  for (auto [name, iterations] : {std::pair{"jacobi2d", 200}, {"jacobi3d", 200}, {"laplace19", 100}}) {
    apps::Problem p = apps::stencil_problem(name);
    apps::CommonOptions options;
    options.iterations = iterations;  // the applications' own defaults (bench/scripts/apps_split.py)
    if (quick) {
      for (int& n : p.grid) n = 16;
      options.iterations = 10;
    }
    options.separate_wait = true;
    solvers.emplace_back(name, [&ctx, p, options](const std::string& strategy) {
      apps::CommonOptions o = options;
      o.strategy = strategy;
      const apps::Result r = apps::solve_stencil(ctx, p, o);
      return apps::per_iteration(ctx, r.split, o.iterations);
    });
  }
#ifdef HYMPI_BENCH_MESH
  apps::CgProblem problem;
  problem.size = quick ? 0.05 : 0.03;
  auto setup = std::make_shared<apps::CgSetup>(apps::prepare_cg(ctx, problem));
  solvers.emplace_back("cg", [&ctx, setup, problem](const std::string& strategy) {
    apps::CommonOptions o;
    o.iterations = 1000;
    o.separate_wait = true;
    const apps::Solve s = apps::solve_cg(ctx, *setup, problem, o, strategy_from_name(strategy));
    return apps::per_iteration(ctx, s.split, s.iterations);
  });
#endif
  if (quick) rounds = 1;
  nlohmann::json results = nlohmann::json::object();
  for (auto& [name, solve] : solvers)
    for (int round = quick ? 0 : -1; round < rounds; ++round)  // round -1: warm-up, not kept
      for (const std::string& s : strategies) {
        const apps::IterationTimes t = solve(s);
        if (round >= 0)
          results[name][s].push_back({{"compute_us", t.compute_us}, {"ghost_us", t.ghost_us},
                                      {"reduce_us", t.reduce_us}, {"share_percent", t.share_percent}});
      }
  if (root) {
    fmt::print("# apps: {} rounds, strategies interleaved, a barrier before every exchange (timed apart);\n"
               "# per iteration, max over ranks, median (lowest-highest round)\n"
               "# {:<10}{:<12}{:>24}{:>24}{:>20}{:>22}\n",
               rounds, "App", "Strategy", "Compute(us)", "Ghost(us)", "Reduce(us)", "CommShare(%)");
    for (auto& [app, by_strategy] : results.items())
      for (auto& [s, runs] : by_strategy.items()) {
        std::vector<double> cells[4];
        for (auto& r : runs)
          for (int k = 0; const char* key : {"compute_us", "ghost_us", "reduce_us", "share_percent"})
            cells[k++].push_back(r[key].get<double>());
        fmt::print("  {:<10}{:<12}{:>24}{:>24}{:>20}{:>22}\n", app, s, spread(cells[0]), spread(cells[1]),
                   spread(cells[2]), spread(cells[3]));
      }
    for (auto& [app, by_strategy] : results.items()) {
      std::vector<double> ratios;
      for (std::size_t k = 0; k < by_strategy["shm"].size(); ++k)
        ratios.push_back(by_strategy["shm"][k]["share_percent"].get<double>() /
                         std::max(by_strategy["flat_mpi"][k]["share_percent"].get<double>(), 1e-9));
      fmt::print("# {}: communication share shm / flat_mpi, per round: median {}\n", app, spread(ratios, 2));
    }
    fmt::print("\n");
  }
  return {{"benchmark", "apps"}, {"np", ctx.topology().world_size()}, {"launches", rounds}, {"results", results}};
}

}  // namespace hympi::bench
