// SPDX-License-Identifier: BSD-3-Clause
// The stencil applications' program (stencil_app.cpp, compiled once into hympi_apps); each
// executable is stencil_main.cpp naming its problem. Light on purpose: no CLI11 here.
#pragma once

namespace hympi::apps {

/// jacobi2d, jacobi3d or laplace19 (stencil.hpp) as a program: options, solve, report;
/// returns the exit status.
int stencil_main(const char* problem, int argc, char** argv);

}  // namespace hympi::apps
