# SPDX-License-Identifier: BSD-3-Clause
# Decides HYMPI_PETSC (cmake/HympiComponents.cmake): PETSc through pkg-config
# (cmake/find/FindPETSc.cmake; Debian: petsc-dev), built on this tree's MPI: PETSc's own
# headers refuse another MPI's mpi.h, which is the check (Debian's PETSc is built on Open
# MPI, so the MPICH trees go without). Gives the target PkgConfig::PETSC, for
# libhympi_petsc (src/petsc), its tests and hympi-bench's PETSc peer.
set(petsc_missing "")
if(HYMPI_PETSC)
  find_package(PETSc QUIET)
  if(NOT PETSc_FOUND)
    set(petsc_missing "PETSc not found")
  else()
    include(CheckCXXSourceCompiles)
    set(CMAKE_REQUIRED_INCLUDES ${PETSC_INCLUDE_DIRS} ${MPI_CXX_INCLUDE_DIRS})
    check_cxx_source_compiles("#include <petscsf.h>\nint main() { return 0; }" HYMPI_PETSC_MATCHES_MPI)
    unset(CMAKE_REQUIRED_INCLUDES)
    if(NOT HYMPI_PETSC_MATCHES_MPI)
      set(petsc_missing "PETSc ${PETSC_VERSION} is built on another MPI")
    endif()
  endif()
endif()
hympi_component(HYMPI_PETSC petsc "${petsc_missing}" "install a PETSc built on this MPI (Debian: petsc-dev)")
if(HYMPI_PETSC)
  message(STATUS "hympi: PETSc ${PETSC_VERSION} on this MPI: libhympi_petsc (PetscSF type hympi) and its tests")
endif()
