// SPDX-License-Identifier: BSD-3-Clause
// A plain main(): hympi objects alive at MPI_Finalize are released there, and their
// destructors afterwards make no MPI call, so the program exits 0 (ctest also fails on any
// MPI complaint about calls after finalize); a rank whose objects gave a wrong result exits
// 1. argv[1] says which objects outlive MPI_Finalize:
//   scope    every kind, declared in main(): destroyed after MPI_Finalize, at main's return
//   static   every kind, held by static pointers: destroyed at exit
//   mixed    the Halo and the grid freed before MPI_Finalize, the rest after
//   none     everything freed before MPI_Finalize (the reference)
#include <mpi.h>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"

namespace {

int g_failures = 0;  // this rank's wrong results: its exit code

void failed(const char* what, double value) {
  std::printf("finalize-order: %s: %g\n", what, value);
  ++g_failures;
}

struct Objects {
  hympi::Context ctx{MPI_COMM_WORLD};
  hympi::Topology topology{MPI_COMM_WORLD};
  hympi::SharedWindow window{topology.node(), 4096};
  hympi::NodeShared<double> table{ctx, 1000};  // its epoch on its window: closed before the window is freed
  std::unique_ptr<hympi::CartesianGrid> grid;
  std::unique_ptr<hympi::Halo> halo;
  std::vector<double> v;

  Objects() {
    const int size = ctx.topology().world_size();
    grid = std::make_unique<hympi::CartesianGrid>(ctx, std::vector<int>{8 * size, 8}, hympi::Stencil::star5);
    halo = std::make_unique<hympi::Halo>(grid->pattern(), hympi::Strategy::shm);
    v.assign(std::size_t(grid->block().local_points()), 1.0);
  }
  void use() {
    table.refresh(
        [](std::span<double> part, std::size_t first) {
          for (std::size_t i = 0; i < part.size(); ++i) part[i] = double(first + i);
        },
        hympi::Writers::slices);
    if (table[999] != 999.0) failed("NodeShared holds a wrong value", table[999]);
    ctx.barrier();
    halo->update(v.data());
    ctx.allreduce(1.0, hympi::Op::sum);
    // A plain MPI call beside them: with libhympi_pmpi preloaded (pmpi.preload.finalize.*)
    // the library's own Context on MPI_COMM_WORLD is alive at MPI_Finalize too.
    int ranks = 1;
    MPI_Allreduce(MPI_IN_PLACE, &ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (ranks != ctx.topology().world_size()) failed("MPI_Allreduce gave a wrong sum", ranks);
  }
};

std::unique_ptr<Objects> g_objects;

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "scope";
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (mode == "scope") {
    Objects objects;
    objects.use();
    MPI_Finalize();
    if (rank == 0) std::printf("finalize-order: %s: MPI_Finalize returned\n", mode.c_str());
    return g_failures == 0 ? 0 : 1;
  }
  g_objects = std::make_unique<Objects>();
  g_objects->use();
  if (mode == "mixed") {
    g_objects->halo.reset();
    g_objects->grid.reset();
  } else if (mode == "none") {
    g_objects.reset();
  }
  MPI_Finalize();
  if (rank == 0) std::printf("finalize-order: %s: MPI_Finalize returned\n", mode.c_str());
  return g_failures == 0 ? 0 : 1;
}
