# SPDX-License-Identifier: BSD-3-Clause
# Whether to build the Fortran module (src/fortran): HYMPI_BUILD_FORTRAN and a Fortran
# compiler and this MPI's mpi_f08 module (FindMPI's Fortran component, through
# MPI_Fortran_COMPILER, e.g. mpifort.openmpi). Sets HYMPI_FORTRAN to TRUE when all are
# there, else says what is missing. Included from the top-level CMakeLists.txt, which is
# where enable_language must run (the tests link the module too).
set(HYMPI_FORTRAN FALSE)
if(NOT HYMPI_BUILD_FORTRAN)
  return()
endif()
include(CheckLanguage)
check_language(Fortran)
if(NOT CMAKE_Fortran_COMPILER)
  message(STATUS "hympi: no Fortran compiler: no Fortran module (install gfortran, or -DHYMPI_BUILD_FORTRAN=OFF)")
  return()
endif()
enable_language(Fortran)
find_package(MPI 3.0 COMPONENTS Fortran)
if(NOT MPI_Fortran_FOUND OR NOT MPI_Fortran_HAVE_F08_MODULE)
  message(STATUS "hympi: this MPI's Fortran module mpi_f08 not found: no Fortran module (point "
                 "MPI_Fortran_COMPILER at the MPI's mpifort, e.g. mpifort.openmpi, or -DHYMPI_BUILD_FORTRAN=OFF)")
  return()
endif()
set(HYMPI_FORTRAN TRUE)

include(GNUInstallDirs)
# .mod files are specific to a compiler: installed under include/hympi/fortran/<id>-<version>.
set(HYMPI_FORTRAN_COMPILER_TAG ${CMAKE_Fortran_COMPILER_ID}-${CMAKE_Fortran_COMPILER_VERSION})
set(HYMPI_FORTRAN_MODULE_INSTALL_DIR ${CMAKE_INSTALL_INCLUDEDIR}/hympi/fortran/${HYMPI_FORTRAN_COMPILER_TAG})
set(HYMPI_FORTRAN_WARNINGS)
if(CMAKE_Fortran_COMPILER_ID STREQUAL "GNU")
  set(HYMPI_FORTRAN_WARNINGS -std=f2018 -Wall -Wextra -Wimplicit-interface)
  if(HYMPI_WERROR)
    list(APPEND HYMPI_FORTRAN_WARNINGS -Werror)
  endif()
endif()
message(STATUS "hympi: Fortran module for ${HYMPI_FORTRAN_COMPILER_TAG} with ${MPI_Fortran_COMPILER}")
