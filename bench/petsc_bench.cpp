// SPDX-License-Identifier: BSD-3-Clause
#include "petsc_bench.hpp"

#include <fmt/core.h>

#ifdef HYMPI_BENCH_PETSC

#include <mpi.h>
#include <petscdmda.h>
#include <petscksp.h>

#include <algorithm>
#include <array>
#include <deque>
#include <memory>
#include <string>

#include "ghost_bench.hpp"
#include "halo.hpp"
#include "hympi/grid.hpp"
#include "hympi_petsc.h"
#ifdef HYMPI_BENCH_MESH
#include "mesh_halo.hpp"
#endif

namespace hympi::bench {
namespace {

void check(PetscErrorCode code, const char* what) {
  if (code != 0) throw Error(std::string("hympi-bench petsc: PETSc ") + what + " failed with error " + std::to_string(code));
}

/// A PetscSF type under test: the contender's name and PETSc's type.
struct SfKind {
  const char* name;
  const char* type;
  bool window() const { return std::string(type) == PETSCSFWINDOW; }
};

/// hympi first (its ratios), basic last (the reference of every ratio).
constexpr std::array<SfKind, 4> kKinds{{{"sf_hympi", PETSCSFHYMPI},
                                        {"sf_neighbor", PETSCSFNEIGHBOR},
                                        {"sf_window_shared", PETSCSFWINDOW},
                                        {"sf_basic", PETSCSFBASIC}}};

/// The types this launch can run: the window's shared flavor (MPI_Win_allocate_shared on
/// the SF's communicator) needs every rank on one shared-memory node.
std::vector<SfKind> kinds_for(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0, size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_size(comm, &size);
  MPI_Comm_free(&node);
  std::vector<SfKind> kinds;
  for (const SfKind& k : kKinds)
    if (!k.window() || node_size == size) kinds.push_back(k);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0 && kinds.size() < kKinds.size())
    fmt::print("# petsc: sf_window_shared left out: its window (MPI_Win_allocate_shared) needs every rank on one "
               "shared-memory node\n");
  return kinds;
}

/// A pattern's ghost update as a VecScatter of type `kind`: roots are the rank's vector (all
/// its points, the local part of an MPI Vec), leaves its ghosts (a sequential Vec on the same
/// array). The Vecs are made on the contender's vector; another vector (off-cache) is placed
/// into them (VecPlaceArray) before its scatter.
class Scatter {
 public:
  Scatter(const AppData& app, const SfKind& kind, double* v) : original_(v), current_(v) {
    const Pattern& p = app.pattern();
    const PetscInt bs = p.chunk(), n = PetscInt(p.local_points()) * bs;
    check(VecCreateMPIWithArray(p.context().topology().world(), bs, n, PETSC_DECIDE, v, &x_), "VecCreateMPIWithArray");
    check(VecCreateSeqWithArray(PETSC_COMM_SELF, bs, n, v, &y_), "VecCreateSeqWithArray");
    const PetscInt* ranges = nullptr;
    check(VecGetOwnershipRanges(x_, &ranges), "VecGetOwnershipRanges");
    std::vector<PetscInt> from, to;  // blocks: a neighbour's sent point -> my ghost
    for (std::size_t k = 0; k < p.neighbors().size(); ++k) {
      const NeighborLists& nb = p.neighbors()[k];
      for (std::size_t j = 0; j < nb.recv.size(); ++j) {
        from.push_back(ranges[nb.rank] / bs + app.their_send()[k][j]);
        to.push_back(nb.recv[j]);
      }
    }
    IS ix, iy;
    check(ISCreateBlock(PETSC_COMM_SELF, bs, PetscInt(from.size()), from.data(), PETSC_COPY_VALUES, &ix), "ISCreateBlock");
    check(ISCreateBlock(PETSC_COMM_SELF, bs, PetscInt(to.size()), to.data(), PETSC_COPY_VALUES, &iy), "ISCreateBlock");
    check(VecScatterCreate(x_, ix, y_, iy, &sf_), "VecScatterCreate");
    ISDestroy(&ix);
    ISDestroy(&iy);
    // VecScatterCreate leaves the SF not set up: its type can still change.
    check(PetscSFSetType(sf_, kind.type), "PetscSFSetType");
    if (kind.window()) check(PetscSFWindowSetFlavorType(sf_, PETSCSF_WINDOW_FLAVOR_SHARED), "PetscSFWindowSetFlavorType");
    check(VecScatterSetUp(sf_), "VecScatterSetUp");
  }
  ~Scatter() {
    VecScatterDestroy(&sf_);
    VecDestroy(&x_);
    VecDestroy(&y_);
  }
  Scatter(const Scatter&) = delete;
  Scatter& operator=(const Scatter&) = delete;

  /// Forward INSERT_VALUES on the vector `v`.
  void run(double* v) {
    if (v != current_) {
      if (current_ != original_) {
        check(VecResetArray(x_), "VecResetArray");
        check(VecResetArray(y_), "VecResetArray");
      }
      if (v != original_) {
        check(VecPlaceArray(x_, v), "VecPlaceArray");
        check(VecPlaceArray(y_, v), "VecPlaceArray");
      }
      current_ = v;
    }
    check(VecScatterBegin(sf_, x_, y_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterBegin");
    check(VecScatterEnd(sf_, x_, y_, INSERT_VALUES, SCATTER_FORWARD), "VecScatterEnd");
  }

 private:
  Vec x_ = nullptr, y_ = nullptr;
  VecScatter sf_ = nullptr;
  double* original_;
  double* current_;
};

/// Every type's scatter of `pattern` on application data, measured interleaved: the record
/// `benchmark` with the ratios of each type to basic. Beside them `halo_shm`: hympi's own
/// Halo (strategy shm, sf_hympi's default) on the same pattern and data, called without
/// PETSc, so that sf_hympi - halo_shm is what PETSc's VecScatter path adds in this launch.
nlohmann::json compare_scatters(Context& ctx, const Method& method, const Pattern& pattern, const DataOptions& data,
                                const std::string& benchmark, std::size_t bytes, const std::string& note) {
  AppData app(pattern, data);
  const std::size_t elements = std::size_t(pattern.local_points()) * std::size_t(pattern.chunk());
  std::deque<std::vector<double>> vectors;
  std::vector<Contender> contenders;
  for (const SfKind& kind : kinds_for(ctx.topology().world())) {
    double* v = vectors.emplace_back(elements).data();
    auto scatter = std::make_shared<Scatter>(app, kind, v);
    contenders.push_back(app.contender(kind.name, v, [scatter](double* x, std::uint32_t) { scatter->run(x); }));
    if (std::string(kind.name) == kKinds.front().name) {  // right after sf_hympi
      auto halo = std::make_shared<Halo>(pattern, Strategy::shm);
      contenders.push_back(app.contender("halo_shm", vectors.emplace_back(elements).data(),
                                         [halo](double* x, std::uint32_t) { halo->update(x); }));
    }
  }
  std::vector<Wrong> wrong;
  const auto samples = measure(ctx, contenders, method, &wrong);
  nlohmann::json record = report(benchmark, bytes, contenders, samples, method, note + "; " + describe(data));
  annotate_ghost_record(record, app, data, wrong);
  return record;
}

/// The options database while a KSP problem is built: -sf_type (and the window's flavor),
/// read by PetscSFSetFromOptions in every VecScatterCreate, so the matrix's scatter of
/// MatMult takes the type (PETSc 3.18 has no accessor of that scatter). Pushed over the
/// launch's own database and popped when done: nothing else sees it.
class ScopedSfType {
 public:
  explicit ScopedSfType(const SfKind& kind) {
    check(PetscOptionsCreate(&options_), "PetscOptionsCreate");
    check(PetscOptionsSetValue(options_, "-sf_type", kind.type), "PetscOptionsSetValue");
    if (kind.window()) check(PetscOptionsSetValue(options_, "-sf_window_flavor", "shared"), "PetscOptionsSetValue");
    check(PetscOptionsPush(options_), "PetscOptionsPush");
  }
  ~ScopedSfType() {
    PetscOptionsPop();
    PetscOptionsDestroy(&options_);
  }
  ScopedSfType(const ScopedSfType&) = delete;
  ScopedSfType& operator=(const ScopedSfType&) = delete;

 private:
  PetscOptions options_ = nullptr;
};

/// PETSc's log events of a solve: VecScatterBegin, VecScatterEnd, KSPSolve.
struct Events {
  std::array<PetscLogEvent, 3> ids{};
  Events() {
    const std::array<const char*, 3> names{"VecScatterBegin", "VecScatterEnd", "KSPSolve"};
    for (std::size_t e = 0; e < names.size(); ++e) {
      check(PetscLogEventGetId(names[e], &ids[e]), "PetscLogEventGetId");
      // PETSc 3.18 registers "VecScatterEnd  ", padded to VecScatterBegin's width.
      if (ids[e] < 0) check(PetscLogEventGetId((std::string(names[e]) + "  ").c_str(), &ids[e]), "PetscLogEventGetId");
      if (ids[e] < 0) throw Error(std::string("hympi-bench petsc: PETSc has no log event ") + names[e]);
    }
  }
  std::array<PetscEventPerfInfo, 3> at(PetscLogStage stage) const {
    std::array<PetscEventPerfInfo, 3> info{};
    for (std::size_t e = 0; e < ids.size(); ++e) check(PetscLogEventGetPerfInfo(stage, ids[e], &info[e]), "PetscLogEventGetPerfInfo");
    return info;
  }
};

/// One solve: its iterations, residual history and, from PETSc's log, this rank's seconds
/// in VecScatterBegin + VecScatterEnd and in KSPSolve, and its scatters.
struct Solve {
  PetscInt iterations = 0;
  std::vector<PetscReal> history;
  double scatter_s = 0, solve_s = 0;
  int scatters = 0;
};

/// CG with Jacobi on the 7-point Laplacian of an n^3 DMDA, its matrix's scatter of type
/// `kind`; the same right-hand side for every type.
class Poisson {
 public:
  Poisson(MPI_Comm comm, int n, const SfKind& kind) {
    {
      ScopedSfType scoped(kind);
      check(DMDACreate3d(comm, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DM_BOUNDARY_NONE, DMDA_STENCIL_STAR, n, n, n,
                         PETSC_DECIDE, PETSC_DECIDE, PETSC_DECIDE, 1, 1, nullptr, nullptr, nullptr, &da_),
            "DMDACreate3d");
      check(DMSetUp(da_), "DMSetUp");
      check(DMCreateMatrix(da_, &a_), "DMCreateMatrix");
      assemble();  // MatAssemblyEnd makes MatMult's scatter: in the scope
    }
    check(DMCreateGlobalVector(da_, &b_), "DMCreateGlobalVector");
    check(VecDuplicate(b_, &x_), "VecDuplicate");
    PetscInt start, end;
    PetscScalar* values;
    check(VecGetOwnershipRange(b_, &start, &end), "VecGetOwnershipRange");
    check(VecGetArray(b_, &values), "VecGetArray");
    for (PetscInt i = 0; i < end - start; ++i) values[i] = PetscScalar((start + i) % 17) - 8.0;
    check(VecRestoreArray(b_, &values), "VecRestoreArray");
    check(KSPCreate(comm, &ksp_), "KSPCreate");
    check(KSPSetOperators(ksp_, a_, a_), "KSPSetOperators");
    check(KSPSetType(ksp_, KSPCG), "KSPSetType");
    PC pc;
    check(KSPGetPC(ksp_, &pc), "KSPGetPC");
    check(PCSetType(pc, PCJACOBI), "PCSetType");
    check(KSPSetTolerances(ksp_, 1e-8, PETSC_DEFAULT, PETSC_DEFAULT, 5000), "KSPSetTolerances");
    check(KSPSetResidualHistory(ksp_, nullptr, PETSC_DECIDE, PETSC_TRUE), "KSPSetResidualHistory");
  }
  ~Poisson() {
    KSPDestroy(&ksp_);
    VecDestroy(&x_);
    VecDestroy(&b_);
    MatDestroy(&a_);
    DMDestroy(&da_);
  }
  Poisson(const Poisson&) = delete;
  Poisson& operator=(const Poisson&) = delete;

  /// Solves from x = 0 inside `stage`.
  Solve solve(PetscLogStage stage, const Events& events) {
    Solve s;
    check(PetscLogStagePush(stage), "PetscLogStagePush");
    const auto before = events.at(stage);
    check(KSPSolve(ksp_, b_, x_), "KSPSolve");
    const auto after = events.at(stage);
    check(PetscLogStagePop(), "PetscLogStagePop");
    s.scatter_s = after[0].time - before[0].time + after[1].time - before[1].time;
    s.solve_s = after[2].time - before[2].time;
    s.scatters = after[0].count - before[0].count;
    check(KSPGetIterationNumber(ksp_, &s.iterations), "KSPGetIterationNumber");
    const PetscReal* history;
    PetscInt count;
    check(KSPGetResidualHistory(ksp_, &history, &count), "KSPGetResidualHistory");
    s.history.assign(history, history + count);
    return s;
  }

  std::string process_grid() const {
    PetscInt m, n, p;
    check(DMDAGetInfo(da_, nullptr, nullptr, nullptr, nullptr, &m, &n, &p, nullptr, nullptr, nullptr, nullptr, nullptr,
                      nullptr),
          "DMDAGetInfo");
    return fmt::format("{}x{}x{}", m, n, p);
  }

 private:
  void assemble() {
    DMDALocalInfo info;
    check(DMDAGetLocalInfo(da_, &info), "DMDAGetLocalInfo");
    for (PetscInt k = info.zs; k < info.zs + info.zm; ++k)
      for (PetscInt j = info.ys; j < info.ys + info.ym; ++j)
        for (PetscInt i = info.xs; i < info.xs + info.xm; ++i) {
          MatStencil row{k, j, i, 0}, col[7];
          PetscScalar v[7];
          int c = 0;
          const auto add = [&](PetscInt kk, PetscInt jj, PetscInt ii, PetscScalar value) {
            col[c] = MatStencil{kk, jj, ii, 0};
            v[c++] = value;
          };
          add(k, j, i, 6.0);
          if (i > 0) add(k, j, i - 1, -1.0);
          if (i < info.mx - 1) add(k, j, i + 1, -1.0);
          if (j > 0) add(k, j - 1, i, -1.0);
          if (j < info.my - 1) add(k, j + 1, i, -1.0);
          if (k > 0) add(k - 1, j, i, -1.0);
          if (k < info.mz - 1) add(k + 1, j, i, -1.0);
          check(MatSetValuesStencil(a_, 1, &row, c, col, v, INSERT_VALUES), "MatSetValuesStencil");
        }
    check(MatAssemblyBegin(a_, MAT_FINAL_ASSEMBLY), "MatAssemblyBegin");
    check(MatAssemblyEnd(a_, MAT_FINAL_ASSEMBLY), "MatAssemblyEnd");
  }

  DM da_ = nullptr;
  Mat a_ = nullptr;
  Vec b_ = nullptr, x_ = nullptr;
  KSP ksp_ = nullptr;
};

double max_over_ranks(double value, MPI_Comm comm) {
  MPI_Allreduce(MPI_IN_PLACE, &value, 1, MPI_DOUBLE, MPI_MAX, comm);
  return value;
}

/// Per type: a warm-up solve (set-up, the reference history), then `rounds` solves
/// interleaved across the types, each in the type's log stage; odd rounds run the types in
/// reverse order, so that no type always follows the same one. Ratios to basic per round,
/// of the scatter time and of the whole solve (what the user sees).
nlohmann::json bench_ksp(Context& ctx, int n, int rounds) {
  const MPI_Comm comm = ctx.topology().world();
  const bool root = ctx.topology().world_rank() == 0;
  const std::vector<SfKind> kinds = kinds_for(comm);
  // Logging from here on (also without -log_view), so the scatter benchmarks above ran unlogged.
  check(PetscLogDefaultBegin(), "PetscLogDefaultBegin");
  std::vector<std::unique_ptr<Poisson>> problems;
  std::vector<PetscLogStage> stages;
  std::vector<Solve> warm;
  for (const SfKind& kind : kinds) {
    problems.push_back(std::make_unique<Poisson>(comm, n, kind));
    const std::string name = std::string("hympi-bench KSPSolve ") + kind.name;
    PetscLogStage stage;
    if (PetscLogStageGetId(name.c_str(), &stage) != 0 || stage < 0)
      check(PetscLogStageRegister(name.c_str(), &stage), "PetscLogStageRegister");
    stages.push_back(stage);
  }
  const Events events;  // after KSPCreate: KSP's package registers its events then
  for (std::size_t t = 0; t < kinds.size(); ++t) warm.push_back(problems[t]->solve(stages[t], events));
  std::vector<std::vector<double>> scatter_us(kinds.size()), solve_us(kinds.size());
  std::vector<int> identical(kinds.size(), 1);  // every history of the type the same bits as basic's
  const Solve& reference = warm.back();
  for (std::size_t t = 0; t < kinds.size(); ++t) identical[t] = warm[t].history == reference.history;
  for (int r = 0; r < rounds; ++r)
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      const std::size_t t = r % 2 == 0 ? i : kinds.size() - 1 - i;
      const Solve s = problems[t]->solve(stages[t], events);
      const double its = double(std::max<PetscInt>(1, s.iterations));
      scatter_us[t].push_back(max_over_ranks(s.scatter_s / its * 1e6, comm));
      solve_us[t].push_back(max_over_ranks(s.solve_s / its * 1e6, comm));
      identical[t] = identical[t] && s.history == reference.history;
    }
  MPI_Allreduce(MPI_IN_PLACE, identical.data(), int(identical.size()), MPI_INT, MPI_MIN, comm);

  nlohmann::json record{{"benchmark", "petsc-ksp"}, {"points", n}, {"rounds", rounds},
                        {"process_grid", problems.front()->process_grid()}, {"results", nlohmann::json::array()}};
  if (root)
    fmt::print("# petsc-ksp: CG + Jacobi, 7-point Laplacian on a {}^3 DMDA (process grid {}), rtol 1e-8; time in "
               "VecScatterBegin + VecScatterEnd per iteration from PETSc's log (a stage per type), max over ranks, "
               "median of {} solves interleaved after a warm-up solve (odd rounds in reverse order)\n"
               "# {:<20}{:>12}{:>12}{:>16}{:>16}{:>26}{:>26}{:>12}\n",
               n, problems.front()->process_grid(), rounds, "Implementation", "Iterations", "Scatters",
               "Scatter(us/it)", "Solve(us/it)", "Scatter/sf_basic (25-75%)", "Solve/sf_basic (25-75%)", "Residuals");
  const auto ratio_text = [](const RatioStats& r) { return fmt::format("{:.3f} ({:.3f}-{:.3f})", r.median, r.q25, r.q75); };
  for (std::size_t t = 0; t < kinds.size(); ++t) {
    const RatioStats ratio = ratio_of(scatter_us[t], scatter_us.back());
    const RatioStats solve_ratio = ratio_of(solve_us[t], solve_us.back());
    const double scatter = stats_of(scatter_us[t]).median_us, solve = stats_of(solve_us[t]).median_us;
    nlohmann::json result{{"implementation", kinds[t].name},
                          {"sf_type", kinds[t].type},
                          {"iterations", warm[t].iterations},
                          {"scatters_per_solve", warm[t].scatters},
                          {"residual_history_identical", identical[t] != 0},
                          {"scatter_us_per_iteration", scatter_us[t]},
                          {"solve_us_per_iteration", solve_us[t]},
                          {"median_scatter_us", scatter},
                          {"median_solve_us", solve}};
    const bool is_basic = t + 1 == kinds.size();  // the reference
    if (!is_basic) {
      result["ratio_to_sf_basic"] = ratio;
      result["solve_ratio_to_sf_basic"] = solve_ratio;
    }
    record["results"].push_back(result);
    if (root)
      fmt::print("{:<22}{:>12}{:>12}{:>16.3f}{:>16.3f}{:>26}{:>26}{:>12}\n", kinds[t].name, warm[t].iterations,
                 warm[t].scatters, scatter, solve, is_basic ? "" : ratio_text(ratio),
                 is_basic ? "" : ratio_text(solve_ratio), identical[t] ? "identical" : "DIFFERENT");
  }
  if (root) {
    for (std::size_t t = 0; t < kinds.size(); ++t)
      if (!identical[t])
        fmt::print("# WRONG: {}: its residual history differs from sf_basic's\n", kinds[t].name);
    fmt::print("\n");
  }
  return record;
}

}  // namespace

nlohmann::json bench_petsc(Context& ctx, const Method& method, const PetscBenchSpec& spec, const DataOptions& data) {
  nlohmann::json records = nlohmann::json::array();
  for (std::size_t bytes : spec.ring_sizes) {
    const Pattern pattern = ring_pattern(ctx, bytes, false);
    Method m = method;
    if (bytes >= (256u << 10)) m.inner = std::max(1, method.inner / 10);
    nlohmann::json record = compare_scatters(ctx, m, pattern, data, "petsc-ring", bytes, "VecScatter forward, ring");
    record["neighbors"] = pattern.neighbors().size();
    records.push_back(record);
  }
  {
    CartesianGrid grid(ctx, spec.grid.global, stencil_from_name(spec.grid.stencil), spec.grid.width);
    const Block& b = grid.block();
    std::string extents;
    for (int n : spec.grid.global) extents += (extents.empty() ? "" : "x") + std::to_string(n);
    const Pattern& pattern = grid.pattern();
    const std::size_t bytes = std::size_t(pattern.local_points()) * sizeof(double);
    nlohmann::json record = compare_scatters(
        ctx, method, pattern, data, "petsc-grid", bytes,
        fmt::format("VecScatter forward, grid {} {}, process grid {}x{}x{}", extents, spec.grid.stencil, b.dims[0],
                    b.dims[1], b.dims[2]));
    record["grid"] = spec.grid.global;
    record["stencil"] = spec.grid.stencil;
    records.push_back(record);
  }
#ifdef HYMPI_BENCH_MESH
  {
    int points = 0;
    const Pattern pattern = cube_mesh_pattern(ctx, spec.mesh_size, spec.mesh_chunk, points);
    const std::size_t bytes = std::size_t(pattern.local_points()) * std::size_t(pattern.chunk()) * sizeof(double);
    nlohmann::json record = compare_scatters(
        ctx, method, pattern, data, "petsc-mesh", bytes,
        fmt::format("VecScatter forward, cube mesh {:g}, {} points, chunk {}", spec.mesh_size, points, spec.mesh_chunk));
    record["mesh_size"] = spec.mesh_size;
    record["chunk"] = spec.mesh_chunk;
    records.push_back(record);
  }
#endif
  records.push_back(bench_ksp(ctx, spec.ksp_points, spec.rounds));
  return records;
}

}  // namespace hympi::bench

#else

namespace hympi::bench {

nlohmann::json bench_petsc(Context& ctx, const Method&, const PetscBenchSpec&, const DataOptions&) {
  if (ctx.topology().world_rank() == 0)
    fmt::print("# hympi-bench petsc: this hympi-bench was built without PETSc (none found on this MPI; Debian: "
               "petsc-dev, in the Open MPI tree): nothing to run\n");
  return nlohmann::json::array();
}

}  // namespace hympi::bench

#endif
