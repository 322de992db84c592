# SPDX-License-Identifier: BSD-3-Clause
# The minimal install of docs/install.md: configures the source tree SOURCE_TREE in
# MINIMAL_DIR as on a machine with only a C++20 compiler, CMake, MPI and hwloc (every
# optional package the build looks for hidden with CMAKE_DISABLE_FIND_PACKAGE_<name>, pkg-config
# among them; FC names no compiler), with the default options; checks that each optional
# component said in one line why it is off; builds (2 jobs) and installs the library and
# libhympi_pmpi into a scratch prefix, and runs check_package.cmake on that prefix: the
# consumer project with find_package(hympi) and with pkg-config, under mpiexec on 2 ranks.
# Variables: SOURCE_TREE, MINIMAL_DIR, GENERATOR, and check_package.cmake's (its BUILD_DIR
# is MINIMAL_DIR).
set(hidden GTest CLI11 fmt nlohmann_json OpenMP Gmsh METIS PETSc Python nanobind PkgConfig)
set(configure ${CMAKE_COMMAND} -S ${SOURCE_TREE} -B ${MINIMAL_DIR} -G ${GENERATOR} --no-warn-unused-cli
    -DMPI_C_COMPILER=${MPI_C_COMPILER} -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER})
foreach(package ${hidden})
  list(APPEND configure -DCMAKE_DISABLE_FIND_PACKAGE_${package}=ON)
endforeach()
set(ENV{FC} ${MINIMAL_DIR}/no-fortran-compiler)
file(REMOVE_RECURSE ${MINIMAL_DIR})
execute_process(COMMAND ${configure} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the minimal configure failed:\n${out}")
endif()
# One line per optional component, naming what is missing (cmake/HympiComponents.cmake).
set(off "")
foreach(component mapping petsc fortran applications benchmarks mesh tests python)
  if(NOT out MATCHES "-- hympi: ${component} OFF \\(([^\n]+); [^\n]+ or pass -DHYMPI_[A-Z_]+=OFF\\)\n")
    message(FATAL_ERROR "no line 'hympi: ${component} OFF (<what is missing>; ...)' in the configure output:\n${out}")
  endif()
  string(APPEND off " ${component} (${CMAKE_MATCH_1})")
endforeach()
if(out MATCHES "CMake Warning|hympi: pmpi OFF")
  message(FATAL_ERROR "the minimal configure warned, or left libhympi_pmpi out:\n${out}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${MINIMAL_DIR} --parallel 2 RESULT_VARIABLE code
                OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "the minimal build failed:\n${out}")
endif()
set(BUILD_DIR ${MINIMAL_DIR})
set(WITH_PETSC OFF)
include(${CMAKE_CURRENT_LIST_DIR}/check_package.cmake)  # installs into ${prefix}, consumes
# The library and libhympi_pmpi, and none of the optional components' files.
file(GLOB_RECURSE installed RELATIVE ${prefix} ${prefix}/*)
list(FILTER installed EXCLUDE REGEX "^include/hympi/")
list(SORT installed)
set(expected include/hympi.h lib/cmake/hympi/Findhwloc.cmake lib/cmake/hympi/hympiConfig.cmake
    lib/cmake/hympi/hympiConfigVersion.cmake lib/cmake/hympi/hympiTargets-relwithdebinfo.cmake
    lib/cmake/hympi/hympiTargets.cmake lib/libhympi.a lib/libhympi_pmpi.so lib/pkgconfig/hympi-pmpi.pc
    lib/pkgconfig/hympi.pc)
if(NOT installed STREQUAL expected)
  message(FATAL_ERROR "the minimal install holds\n  ${installed}\nnot\n  ${expected}")
endif()
message("minimal: off:${off}; installed: the library and libhympi_pmpi")
