// SPDX-License-Identifier: BSD-3-Clause
// `hympi-bench petsc`: PETSc's VecScatter forward (INSERT_VALUES) with every PetscSF type
// side by side in one launch: hympi (libhympi_petsc), neighbor, window (shared flavor;
// only when every rank shares one memory node) and basic (PETSc's default, the reference
// of the ratios, last), each type set on its own scatter (PetscSFSetType). Patterns: the
// ring (bytes per neighbour), the 19-point grid (halo-grid's) and, with the mesh library,
// the cube mesh (halo-mesh's). Application data (app_data.hpp): before each scatter the
// sender writes its points anew, after it the receiver reads its ghosts; every type is
// checked in the warm-up against what the senders wrote, and a wrong one is reported, not
// timed. Then a KSP CG solve (Jacobi) of the 7-point Laplacian on a 3D DMDA per type: its
// time in VecScatter per iteration from PETSc's own logging (the events VecScatterBegin
// and VecScatterEnd that -log_view prints, one log stage per type), and its residual
// history, which must be the same bits for every type. Without PETSc on this MPI it says
// so and returns no record.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"
#include "stats.hpp"

namespace hympi::bench {

struct PetscBenchSpec {
  std::vector<std::size_t> ring_sizes;  // bytes of doubles per neighbour
  GridSpec grid;                        // the structured grid (19-point by default)
  double mesh_size = 0.03;              // the cube mesh's element size (with the mesh library)
  int mesh_chunk = 1;
  int ksp_points = 64;                  // the KSP's DMDA: points per dimension
  int rounds = 5;                       // KSP solves per type, interleaved, after one warm-up solve
};

/// Collective. The records petsc-ring (one per size), petsc-grid, petsc-mesh and petsc-ksp.
nlohmann::json bench_petsc(Context& ctx, const Method& method, const PetscBenchSpec& spec, const DataOptions& data);

}  // namespace hympi::bench
