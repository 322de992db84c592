// SPDX-License-Identifier: BSD-3-Clause
// Weighted Jacobi relaxation of a stencil operator on a structured grid, every ghost
// update and reduction through hympi:  u <- u + omega / diag * (f - A u).
//   jacobi2d   heat propagation / Laplace, 5-point, N x N (Hoefler et al. (2012), sec. 4)
//   jacobi3d   3D Jacobi of Hager & Wellein (2010), 9.3: 7-point, max-norm convergence
//              test by allreduce
//   laplace19  anisotropic Laplace -div(K grad u) = 1, 19-point, 96^3, omega 0.8 (MASHM,
//              Jamroz & Dennis (2016))
// Jacobi updates each point from the previous iterate only, so the result is the same, bit
// for bit, for every strategy, rank count and decomposition; verification checks that
// against a serial run. Used by the three applications and by `hympi-bench apps`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app_common.hpp"

namespace hympi::apps {

struct Problem {
  const char* name;
  Stencil stencil;
  std::vector<int> grid;
  double omega, source, boundary;  // boundary: value on the x = -1 face (others 0)
  bool max_norm;                   // convergence: max |change| (Hager & Wellein) or ||f - Au||_2
};

/// jacobi2d, jacobi3d or laplace19 on its default grid; throws hympi::Error otherwise.
Problem stencil_problem(std::string_view name);

struct Result {
  double residual = 0, checksum = 0;
  Split split;
  std::string strategy;  // what ran (automatic's choice)
  bool verified = true;  // with options.verify: identical to a serial run
};

/// Collective: relaxes `p` for options.iterations over the Context's ranks (CartesianGrid,
/// ghost updates by options.strategy, arrays placed by options.placement).
Result solve_stencil(Context& ctx, const Problem& p, const CommonOptions& options);

}  // namespace hympi::apps
