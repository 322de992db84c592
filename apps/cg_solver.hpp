// SPDX-License-Identifier: BSD-3-Clause
// Conjugate gradients for the P1 finite-element operator K + M (p1_operator.hpp) on the
// cube mesh of Quaranta & Maddegedara (2021), partitioned by METIS (two levels on several
// nodes: nodes first, then their ranks). Every matrix-vector product starts with a hympi ghost update,
// every dot product is a hympi allreduce. b = A 1, so the exact solution is all ones.
// Used by the `cg` program and by `hympi-bench apps`: the mesh is read and cut once, then
// solved with any strategy.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app_common.hpp"
#include "hympi/node_shared.hpp"
#include "cube_mesh.hpp"
#include "distributed.hpp"
#include "p1_operator.hpp"

namespace hympi::apps {

struct CgProblem {
  double size = 0.03;     // cube mesh element size (cached Gmsh mesh) ...
  std::string mesh_file;  // ... or a Gmsh MSH file of tetrahedra
  int levels = 2;         // METIS: 1 (k-way) or 2 (nodes, then ranks)
  bool order = false;     // local ids renumbered inner | boundary | ghost
  bool node_shared_mesh = false;  // one copy of the whole mesh per node (NodeShared), read by its leader
  double tolerance = 1e-8;
};

/// This rank's part of the problem: made once (collective), solved many times. Every rank
/// keeps the whole mesh (its coordinates and tetrahedra: the serial check and the assembly
/// read it): a private copy, or with node_shared_mesh one copy per node. `mesh` views
/// either; moving a CgSetup keeps it valid (vectors and NodeShared keep their memory).
struct CgSetup {
  mesh::TetMesh private_mesh;  // empty with node_shared_mesh
  std::optional<NodeShared<double>> shared_xyz;
  std::optional<NodeShared<int32_t>> shared_tets;
  mesh::TetMeshView mesh;
  mesh::Graph graph;
  mesh::RankPartition partition;
  mesh::LocalMesh local;
  Pattern pattern;
  Csr a;
};

/// Collective. Rank 0 makes the mesh if it is not cached; a failure is reported on every rank.
CgSetup prepare_cg(Context& ctx, const CgProblem& problem);

struct Solve {
  std::string strategy;  // what ran (automatic's choice)
  int iterations = 0;
  double residual = 0;
  std::vector<double> x;  // owned values
  Split split;
};

/// Collective: CG to problem.tolerance (at most options.iterations), ghost updates by
/// `strategy`, vectors placed by options.placement.
Solve solve_cg(Context& ctx, const CgSetup& setup, const CgProblem& problem, const CommonOptions& options,
               Strategy strategy);

/// Collective: a second solve with flat_mpi must agree bit for bit, and a serial solve on
/// rank 0 to the tolerance (iterations within 2); rank 0 prints the verdict.
bool verify_cg(Context& ctx, const CgSetup& setup, const CgProblem& problem, const CommonOptions& options,
               const Solve& solved);

}  // namespace hympi::apps
