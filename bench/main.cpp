// SPDX-License-Identifier: BSD-3-Clause
// hympi-bench: hympi against the MPI library's own operations, side by side in one launch.
//   mpiexec -n 2 hympi-bench barrier|allreduce|bcast|reduce|dot|sync|affinity|halo|halo-grid|halo-mesh|stats|apps|petsc|bindings|setup|all
//                            [--outer 100] [--inner 100] [--rounds 5] [--json F] [--ranks-per-node K]
//                            [--cached-data | --off-cache | --page-offset B]
#include <CLI/CLI.hpp>
#include <fmt/core.h>
#include <mpi.h>

#include <fstream>
#include <string>
#include <tuple>

#include "app_data.hpp"
#include "apps.hpp"
#include "bindings.hpp"
#include "collectives.hpp"
#include "dot_sync.hpp"
#include "grid_halo.hpp"
#include "halo.hpp"
#include "hympi/hympi.hpp"
#include "machine.hpp"
#include "off_cache.hpp"
#include "petsc_bench.hpp"
#include "petsc_peer.hpp"
#include "setup.hpp"
#ifdef HYMPI_BENCH_MAPPING
#include "mapping_stats.hpp"
#endif
#ifdef HYMPI_BENCH_SAVED_MESH
#include "mesh_halo.hpp"
#endif
#ifdef HYMPI_BENCH_MESH
#include "mesh_stats.hpp"
#endif

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int status = 0;
  {
    CLI::App app{"hympi-bench: hympi vs MPI, method of Quaranta & Maddegedara 2021 (100 outer x 100 inner, "
                 "max over ranks)"};
    hympi::bench::Method method;
    std::string json_path;
    bool quick = false;
    int rounds = 5;
    int ranks_per_node = 0;  // live runs: emulated nodes of this many ranks (0: real nodes); stats: default 16
    app.add_option("--outer", method.outer, "samples per contender")->check(CLI::PositiveNumber);
    app.add_option("--inner", method.inner, "calls per sample")->check(CLI::PositiveNumber);
    app.add_option("--json", json_path, "write every sample and the machine to this file");
    app.add_flag("--quick", quick, "10 x 10 calls: a smoke run, not a measurement");
    app.add_option("--rounds", rounds, "apps: solves per strategy, interleaved")->check(CLI::PositiveNumber);
    app.add_option("--ranks-per-node", ranks_per_node,
                   "emulate nodes of this many consecutive ranks (as HYMPI_NODE_SIZE); stats: the modelled nodes' size (16)")
        ->check(CLI::PositiveNumber);
    hympi::bench::DataOptions data;
    bool cached = false;
    app.add_flag("--cached-data", cached,
                 "ghost updates re-send unchanged data and allreduces reduce the same input, nothing written or read "
                 "between calls: the cache-resident best case, labelled as such (default: fresh data, as an application)");
    bool off_cache = false;
    app.add_flag("--off-cache", off_cache,
                 "allreduce and ghost updates: every call on buffers at the next place of a region twice the "
                 "last-level cache (hwloc; IMB's -off_cache), not where the previous call left them in the cache "
                 "(shm_direct and the one_copy floor cannot rotate: left out)")
        ->excludes("--cached-data");
    app.add_option("--page-offset", data.page_offset,
                   "allreduce, bcast, reduce in cache: the input and the output each start this many bytes after a "
                   "4 KiB boundary (a multiple of 8; default: where the allocator puts them)")
        ->check(CLI::Range(0, 4088))
        ->excludes("--off-cache");
    app.add_option("--break-contender", data.broken, "test hook: make this ghost-update contender's result wrong")
        ->group("");  // hidden
    app.fallthrough();  // subcommands inherit it: options may follow the subcommand
    auto* barrier = app.add_subcommand("barrier", "hympi barrier variants vs MPI_Barrier");
    // allreduce, bcast and reduce: the same sizes option each.
    std::vector<std::size_t> default_sizes{8, 64, 512, 4096, 32768, 262144, 1048576};
    std::vector<std::size_t> allreduce_sizes = default_sizes, bcast_sizes = default_sizes, reduce_sizes = default_sizes;
    auto sized = [&](hympi::bench::Collective op, std::vector<std::size_t>& sizes) {
      const char* name = hympi::bench::names_of(op).name;
      auto* sub = app.add_subcommand(name, std::string(name) + " 8 B - 1 MiB vs " + hympi::bench::names_of(op).mpi +
                                               (op == hympi::bench::Collective::allreduce ? "" : " (root 0)"));
      sub->add_option("--sizes", sizes, "bytes per call, comma-separated (doubles: multiples of 8)")
          ->delimiter(',')
          ->check(CLI::Validator(
              [name](std::string& v) {
                std::size_t used = 0;
                unsigned long long bytes = 0;
                try {
                  if (!v.empty() && v[0] != '-') bytes = std::stoull(v, &used);
                } catch (const std::exception&) {
                  used = 0;
                }
                return used == v.size() && bytes > 0 && bytes % 8 == 0
                           ? std::string()
                           : "'" + v + "' is not a positive multiple of 8 bytes (the " + name + " moves doubles)";
              },
              "BYTES"));
      return sub;
    };
    auto* allreduce = sized(hympi::bench::Collective::allreduce, allreduce_sizes);
    auto* bcast = sized(hympi::bench::Collective::bcast, bcast_sizes);
    auto* reduce = sized(hympi::bench::Collective::reduce, reduce_sizes);
    auto* dot = app.add_subcommand("dot", "FP32 dot product MFLOP/s per core vs vector length");
    auto* sync = app.add_subcommand("sync", "time synchronization after MPI_Barrier vs hympi barrier loops");
    auto* affinity = app.add_subcommand("affinity", "allreduce with the tree by socket/L3 vs by rank (run per placement)");
    auto* halo = app.add_subcommand("halo", "ghost update per strategy, 1 KiB - 1 MiB per neighbour, and overlap");
    hympi::bench::GridSpec grid;
    std::vector<int> nodes{2, 4, 8, 16, 32, 64, 128, 256, 512};
    auto* halo_grid = app.add_subcommand("halo-grid", "ghost update of a structured grid: flat vs aggregated vs ODM");
    auto* stats = app.add_subcommand(
        "stats", "dry run: MASHM's message table of a grid (16 ranks per node), its ranks mapped by traffic "
                 "(map_ranks, with METIS) against random and row-major order, and, with Gmsh, Tables 2-3 of "
                 "Quaranta & Maddegedara 2021 for the cube mesh (36 ranks per node) and its mapping; "
                 "--ranks-per-node sets both; then a live probe of MPI_Dist_graph_create's reorder");
    stats->add_option("--nodes", nodes, "node counts")->delimiter(',');
    stats->add_option("--point-bytes", grid.point_bytes, "bytes per grid point")->check(CLI::PositiveNumber);
    double mesh_size = 0.03;
    int mesh_chunk = 1;
    std::vector<int> mesh_parts{36, 72, 144};
    std::string mesh_partition;
#ifdef HYMPI_BENCH_SAVED_MESH
    auto* halo_mesh = app.add_subcommand(
        "halo-mesh", "ghost update on the cube mesh (Quaranta & Maddegedara 2021, Fig. 16): flat MPI, hympi, "
                     "neighbourhood, RMA");
    auto* partition_option = halo_mesh->add_option(
        "--partition", mesh_partition, "a partition saved by hympi-mesh partition (no Gmsh needed) instead of --size");
    halo_mesh->add_option("--chunk", mesh_chunk, "values per point (1 or 3)")->check(CLI::PositiveNumber);
#endif
#ifdef HYMPI_BENCH_MESH
    halo_mesh->add_option("--size", mesh_size, "cube mesh element size")->excludes(partition_option);
    stats->add_option("--size", mesh_size, "cube mesh element size");
    stats->add_option("--chunk", mesh_chunk, "values per point (1 or 3)")->check(CLI::PositiveNumber);
    stats->add_option("--parts", mesh_parts, "cube mesh: process counts of the Tables 2-3 rows")->delimiter(',');
#elif defined(HYMPI_BENCH_SAVED_MESH)
    partition_option->required();  // built without Gmsh: no cube mesh to make
#endif
    auto* apps = app.add_subcommand("apps", "jacobi2d, jacobi3d, laplace19 and cg per strategy: time split per iteration");
    auto* petsc_sub = app.add_subcommand(
        "petsc", "PETSc's VecScatter per PetscSF type (hympi, neighbor, window shared, basic) on the ring, the grid "
                 "(--grid, 96^3 star19) and the cube mesh, and a DMDA KSP CG solve's VecScatter time per iteration "
                 "(needs PETSc on this MPI)");
    for (CLI::App* sub : {halo_grid, stats, petsc_sub}) {
      sub->add_option("--grid", grid.global, "points per dimension (2 or 3 values)")->delimiter(',');
      sub->add_option("--stencil", grid.stencil, "star5, box9, star7, star19, box27");
      sub->add_option("--width", grid.width, "ghost layers")->check(CLI::PositiveNumber);
    }
    int ksp_points = 0;  // 0: 64, --quick 16
    petsc_sub->add_option("--ksp-points", ksp_points, "the KSP solve's DMDA: points per dimension (64; --quick: 16)")
        ->check(CLI::PositiveNumber);
#ifdef HYMPI_BENCH_MESH
    petsc_sub->add_option("--size", mesh_size, "cube mesh element size");
    petsc_sub->add_option("--chunk", mesh_chunk, "values per point (1 or 3)")->check(CLI::PositiveNumber);
#endif
    auto* bindings = app.add_subcommand(
        "bindings", "what the C API adds to a 1 KiB ghost update over the C++ call (one Halo, both layers, "
                    "interleaved; the Fortran and Python programs in bench/bindings measure theirs over the C API)");
    auto* setup = app.add_subcommand(
        "setup", "set-up cost: a Context vs MPI_Comm_dup + split_type, a Halo per strategy vs a dist graph");
    auto* all = app.add_subcommand("all", "everything above (halo-grid and petsc on a 48^3 grid, halo-mesh at 0.03; "
                                          "--quick: 0.05)");
    app.require_subcommand(1);
    app.set_version_flag("--version", hympi::configuration());
    try {
      app.parse(argc, argv);
      if (data.page_offset % 8 != 0 && data.page_offset >= 0)
        throw CLI::ValidationError("--page-offset", "not a multiple of 8");
    } catch (const CLI::ParseError& e) {
      int rank;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      status = rank == 0 ? app.exit(e) : (e.get_exit_code() != 0);
      MPI_Finalize();
      return status;
    }
    if (quick) method = {10, 10};
    if (cached) data.mode = hympi::bench::DataMode::cached;
    if (off_cache) data.off_cache.llc_bytes = hympi::bench::last_level_cache_bytes();

    hympi::bench::PetscScope petsc;  // a ghost-update peer, when built with PETSc
    hympi::Options options = hympi::Options::from_env();
    if (ranks_per_node > 0 && !stats->parsed()) options.node_size = ranks_per_node;
    hympi::Context ctx(MPI_COMM_WORLD, options);
    nlohmann::json out{{"machine", hympi::bench::describe_machine(ctx)}, {"benchmarks", nlohmann::json::array()}};
    if (const std::string peer = petsc.describe(); !peer.empty()) out["machine"]["petsc"] = peer;
    if (ctx.topology().world_rank() == 0)
      fmt::print("# hympi-bench  {}  ranks={} nodes={}\n# {}\n# peers: the MPI library{}\n\n",
                 out["machine"]["mpi"].get<std::string>(), ctx.topology().world_size(), ctx.topology().node_count(),
                 describe(ctx.options()), out["machine"].contains("petsc") ? ", " + petsc.describe() : "");
    if (barrier->parsed() || all->parsed()) out["benchmarks"].push_back(hympi::bench::bench_barrier(ctx, method));
    using hympi::bench::Collective;
    for (auto [sub, op, sizes] : {std::tuple{allreduce, Collective::allreduce, &allreduce_sizes},
                                  std::tuple{bcast, Collective::bcast, &bcast_sizes},
                                  std::tuple{reduce, Collective::reduce, &reduce_sizes}})
      if (sub->parsed() || all->parsed())
        for (auto& r : hympi::bench::bench_collective(ctx, method, op, *sizes, data))
          out["benchmarks"].push_back(r);
    if (dot->parsed() || all->parsed()) out["benchmarks"].push_back(hympi::bench::bench_dot(ctx, method));
    if (sync->parsed() || all->parsed()) out["benchmarks"].push_back(hympi::bench::bench_sync(ctx, method.outer));
    if (affinity->parsed() || all->parsed())
      for (auto& r : hympi::bench::bench_affinity(ctx, method)) out["benchmarks"].push_back(r);
    if (halo->parsed() || all->parsed()) {
      std::vector<std::size_t> sizes{1024, 4096, 16384, 65536, 262144, 1048576};
      if (quick) sizes = {4096, 65536};
      for (auto& r : hympi::bench::bench_halo(ctx, method, sizes, data)) out["benchmarks"].push_back(r);
    }
    if (stats->parsed() || all->parsed()) {
      out["benchmarks"].push_back(hympi::bench::bench_stats(grid, ranks_per_node > 0 ? ranks_per_node : 16, nodes));
#ifdef HYMPI_BENCH_MAPPING
      std::vector<int> mapped_nodes = nodes;  // --quick: up to 32 nodes (map_ranks takes seconds on thousands of ranks)
      if (quick) std::erase_if(mapped_nodes, [](int n) { return n > 32; });
      out["benchmarks"].push_back(
          hympi::bench::bench_mapping_grid(grid, ranks_per_node > 0 ? ranks_per_node : 16, mapped_nodes));
      out["benchmarks"].push_back(hympi::bench::bench_reorder_probe(ctx, grid));
#endif
#ifdef HYMPI_BENCH_MESH
      out["benchmarks"].push_back(hympi::bench::bench_mesh_stats(quick ? 0.05 : mesh_size, mesh_parts,
                                                                 ranks_per_node > 0 ? ranks_per_node : 36, mesh_chunk));
#endif
    }
    if (halo_grid->parsed() || all->parsed()) {
      if (all->parsed()) grid.global = {48, 48, 48};
      out["benchmarks"].push_back(hympi::bench::bench_halo_grid(ctx, method, grid, data));
    }
#ifdef HYMPI_BENCH_SAVED_MESH
    if (halo_mesh->parsed() && !mesh_partition.empty()) try {
        out["benchmarks"].push_back(hympi::bench::bench_halo_saved_mesh(ctx, method, mesh_partition, mesh_chunk, data));
      } catch (const hympi::bench::EveryRankError& e) {  // thrown on every rank together
        if (ctx.topology().world_rank() == 0) fmt::print(stderr, "{}\n", e.what());
        status = 2;
      }
#endif
#ifdef HYMPI_BENCH_MESH
    if ((halo_mesh->parsed() && mesh_partition.empty()) || all->parsed())
      out["benchmarks"].push_back(hympi::bench::bench_halo_mesh(ctx, method, quick ? 0.05 : mesh_size, mesh_chunk, data));
#endif
    if (apps->parsed() || all->parsed()) out["benchmarks"].push_back(hympi::bench::bench_apps(ctx, rounds, quick));
    if (bindings->parsed() || all->parsed()) out["benchmarks"].push_back(hympi::bench::bench_bindings(ctx, method));
    if (petsc_sub->parsed() || all->parsed()) {
      hympi::bench::PetscBenchSpec spec;
      spec.ring_sizes = {1024, 4096, 16384, 65536, 262144, 1048576};
      if (quick) spec.ring_sizes = {4096, 65536};
      spec.grid = grid;  // `all` has set 48^3
      spec.mesh_size = quick ? 0.05 : mesh_size;
      spec.mesh_chunk = mesh_chunk;
      spec.ksp_points = ksp_points > 0 ? ksp_points : quick ? 16 : 64;
      spec.rounds = rounds;
      for (auto& r : hympi::bench::bench_petsc(ctx, method, spec, data)) out["benchmarks"].push_back(r);
    }
    if (setup->parsed() || all->parsed())
      for (auto& r : hympi::bench::bench_setup(ctx, method)) out["benchmarks"].push_back(r);
    if (ctx.topology().world_rank() == 0 && !json_path.empty() && status == 0) {
      std::ofstream(json_path) << out.dump(1) << "\n";
      fmt::print("# samples written to {}\n", json_path);
    }
  }
  MPI_Finalize();
  return status;
}
