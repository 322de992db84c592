# SPDX-License-Identifier: BSD-3-Clause
# PETSc through pkg-config (Debian: petsc-dev), when it is built on this tree's MPI:
# PETSc's own headers refuse another MPI's mpi.h, which is the check (Debian's PETSc is
# built on Open MPI, so the MPICH tree goes without). Sets HYMPI_HAVE_PETSC and the target
# PkgConfig::PETSC, for libhympi_petsc (src/petsc), its tests and hympi-bench's PETSc peer.
option(HYMPI_PETSC "Build libhympi_petsc (PetscSF type hympi) and time PETSc in hympi-bench when a PETSc on this MPI is found" ON)
set(HYMPI_HAVE_PETSC OFF)
if(HYMPI_PETSC)
  pkg_check_modules(PETSC IMPORTED_TARGET PETSc)
  if(PETSC_FOUND)
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${PETSC_INCLUDE_DIRS} ${MPI_CXX_INCLUDE_DIRS})
    check_cxx_source_compiles("#include <petscsf.h>\nint main() { return 0; }" HYMPI_PETSC_MATCHES_MPI)
    unset(CMAKE_REQUIRED_INCLUDES)
  endif()
  if(PETSC_FOUND AND HYMPI_PETSC_MATCHES_MPI)
    set(HYMPI_HAVE_PETSC ON)
    message(STATUS "hympi: PETSc ${PETSC_VERSION} on this MPI: libhympi_petsc (PetscSF type hympi) and its tests")
  elseif(PETSC_FOUND)
    message(STATUS "hympi: PETSc ${PETSC_VERSION} is built on another MPI: no libhympi_petsc in this tree")
  else()
    message(STATUS "hympi: PETSc not found: no libhympi_petsc (Debian: petsc-dev)")
  endif()
endif()
