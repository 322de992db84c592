// SPDX-License-Identifier: BSD-3-Clause
// jacobi2d, jacobi3d, laplace19: built three times from this file, HYMPI_APP names the
// problem; the program itself is stencil_app.cpp, compiled once into hympi_apps.
//   mpiexec -n 2 jacobi3d [--grid 120,120,120] [--strategy shm] [--iterations 200] [--threads K [--task-mode]] [--verify]
#include "stencil_app.hpp"

#define HYMPI_STRINGIFY(x) #x
#define HYMPI_NAME(x) HYMPI_STRINGIFY(x)

int main(int argc, char** argv) { return hympi::apps::stencil_main(HYMPI_NAME(HYMPI_APP), argc, argv); }
