# SPDX-License-Identifier: BSD-3-Clause
# Decides HYMPI_BUILD_FORTRAN (cmake/HympiComponents.cmake), the Fortran module
# (src/fortran): a Fortran compiler and this MPI's mpi_f08 module (FindMPI's Fortran
# component, through MPI_Fortran_COMPILER, e.g. mpifort.openmpi). Included from the
# top-level CMakeLists.txt, which is where enable_language must run (the tests link the
# module too).
set(fortran_missing "")
set(fortran_remedy "install gfortran")
if(HYMPI_BUILD_FORTRAN)
  include(CheckLanguage)
  check_language(Fortran)
  if(NOT CMAKE_Fortran_COMPILER)
    set(fortran_missing "no Fortran compiler")
  else()
    enable_language(Fortran)
    find_package(MPI 3.0 COMPONENTS Fortran)
    if(NOT MPI_Fortran_FOUND OR NOT MPI_Fortran_HAVE_F08_MODULE)
      set(fortran_missing "this MPI's Fortran module mpi_f08 not found")
      set(fortran_remedy "point MPI_Fortran_COMPILER at the MPI's mpifort (e.g. mpifort.openmpi)")
    endif()
  endif()
endif()
hympi_component(HYMPI_BUILD_FORTRAN fortran "${fortran_missing}" "${fortran_remedy}")
if(NOT HYMPI_BUILD_FORTRAN)
  return()
endif()

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
