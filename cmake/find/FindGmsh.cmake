# SPDX-License-Identifier: BSD-3-Clause
# find_package(Gmsh): Gmsh's C++ API header and library (Debian: libgmsh-dev) in the cache
# variables HYMPI_GMSH_INCLUDE and HYMPI_GMSH_LIBRARY (set them to use another Gmsh); sets
# Gmsh_FOUND. The mesh library (mesh/) makes the unit-cube mesh with it.
find_path(HYMPI_GMSH_INCLUDE gmsh.h)
find_library(HYMPI_GMSH_LIBRARY gmsh)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(Gmsh REQUIRED_VARS HYMPI_GMSH_LIBRARY HYMPI_GMSH_INCLUDE)
