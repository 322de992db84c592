// SPDX-License-Identifier: BSD-3-Clause
// The P1 finite-element operator K + M (stiffness plus lumped mass: symmetric positive
// definite without boundary conditions) on one part of a tetrahedral mesh, as a CSR matrix
// of its owned rows. No MPI and no hympi library: the cg application (cg_solver.hpp) and its
// flat MPI twin (flat/cg_flat.cpp) assemble the same matrix.
#pragma once

#include <cstddef>
#include <vector>

#include "cube_mesh.hpp"
#include "local_mesh.hpp"

namespace hympi::apps {

struct Csr {
  std::vector<int> offsets{0}, columns;  // local ids
  std::vector<double> values;
  int rows() const { return int(offsets.size()) - 1; }
};

/// Rows of the owned vertices of `local`, columns in its local numbering; each row's terms
/// sorted by column (the same summation order on every partition).
Csr assemble_p1(const mesh::TetMeshView& mesh, const mesh::LocalMesh& local);

/// y[r] = (A x)[r] for the rows first <= r < last.
void multiply_rows(const Csr& a, const double* x, double* y, std::size_t first, std::size_t last);

}  // namespace hympi::apps
