# SPDX-License-Identifier: BSD-3-Clause
# Installs hympi into a scratch prefix, then builds and runs the consumer project with
# find_package(hympi) twice, as a C++-only and as a C-only project (a C++ and a C program), checks that pkg-config finds hympi.pc, and
# builds the C program once more with the MPI C compiler and pkg-config's flags alone;
# WITH_PETSC: the same for the component petsc (consumer_petsc, hympi_petsc.pc), and the
# plugin that pkg-config names loaded by a program that never heard of hympi; the
# component mapping when built (mapping_consumer, hympi-mapping.pc).
include(${CMAKE_CURRENT_LIST_DIR}/install_scratch.cmake)
foreach(language CXX C)  # a C++-only and a C-only project
  run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build-${language} -DLANGUAGE=${language}
      -DCMAKE_PREFIX_PATH=${prefix} -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER} -DMPI_C_COMPILER=${MPI_C_COMPILER})
  run(${CMAKE_COMMAND} --build ${WORK_DIR}/build-${language})
endforeach()
run(${MPIEXEC} -n 2 ${WORK_DIR}/build-CXX/consumer)
set(consumer_output "${last_output}")
run(${MPIEXEC} -n 2 ${WORK_DIR}/build-C/consumer_c)
set(consumer_c_output "${last_output}")
if(EXISTS ${WORK_DIR}/build-CXX/mapping_consumer)  # hympi built with METIS: hympi::mapping
  run(${WORK_DIR}/build-CXX/mapping_consumer)
  string(APPEND consumer_output "${last_output}")
endif()
set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --cflags --libs hympi)
string(FIND "${last_output}" "-lhympi" found)
if(found LESS 0)
  message(FATAL_ERROR "pkg-config hympi: ${last_output}")
endif()
run(pkg-config --define-variable=prefix=${prefix} --cflags --libs hympi)
separate_arguments(pc_flags UNIX_COMMAND "${last_output}")
run(${MPI_C_COMPILER} ${SOURCE_DIR}/main.c ${pc_flags} -o ${WORK_DIR}/consumer_pc)
run(${MPIEXEC} -n 2 ${WORK_DIR}/consumer_pc)
if(NOT last_output STREQUAL consumer_c_output)
  message(FATAL_ERROR "the C consumer built with pkg-config printed '${last_output}', not '${consumer_c_output}'")
endif()
if(EXISTS ${WORK_DIR}/build-CXX/mapping_consumer)
  run(pkg-config --libs hympi-mapping)
  string(FIND "${last_output}" "-lhympi_mapping" found)
  if(found LESS 0)
    message(FATAL_ERROR "pkg-config hympi-mapping: ${last_output}")
  endif()
endif()
# libhympi_pmpi (HYMPI_BUILD_PMPI): pkg-config names it, and it exports the MPI calls it
# intercepts and nothing else (its hympi stays private beside a program's own).
if(EXISTS ${prefix}/lib/libhympi_pmpi.so)
  run(pkg-config --libs hympi-pmpi)
  string(FIND "${last_output}" "-lhympi_pmpi" found)
  if(found LESS 0)
    message(FATAL_ERROR "pkg-config hympi-pmpi: ${last_output}")
  endif()
  run(nm -D --defined-only --format=just-symbols ${prefix}/lib/libhympi_pmpi.so)
  # MPI_<Call>, its MPI-4 large-count form MPI_<Call>_c and its Fortran entries mpi_<call>_
  # and mpi_<call>_f08_ (fortran.cpp), all compared in lower case (CMake's regular
  # expressions take few groups).
  set(calls "allreduce|barrier|bcast|init(_thread)?|finalize|session_init|reduce|neighbor_alltoallv?(_init)?|start(all)?|wait(all|any|some)?|test(all|any|some)?|request_(get_status|free)")
  string(TOLOWER "${last_output}\n" exported)
  string(REGEX REPLACE "mpi_(${calls})(_c|_|_f08_)?\n" "" others "${exported}")
  string(STRIP "${others}" others)
  if(NOT others STREQUAL "")
    message(FATAL_ERROR "libhympi_pmpi.so exports more than the intercepted MPI calls: ${others}")
  endif()
endif()
# The xSDK's M9 (a limited, well-defined name space): every symbol an installed hympi
# library defines for others is hympi's (namespace hympi, hympi_* / HYMPI_* C names,
# Hympi* in PETSc's style, Fortran modules hympi*), but for the entry points others name: the MPI calls that
# libhympi_pmpi intercepts, PETSc's plugin registration, Python's module init. Weak
# symbols (standard-library templates instantiated on hympi's types, merged by the linker)
# are no one's name space. Shared libraries: their dynamic exports.
file(GLOB_RECURSE libraries ${prefix}/lib/libhympi*.a ${prefix}/lib/libhympi*.so ${prefix}/*_hympi.*.so)
set(hympi_names "Hympi|_ZN(K)?5hympi|_ZT[VIS]N5hympi|_ZThn[0-9]+_N(K)?5hympi|_ZZN(K)?5hympi|_ZGVZN(K)?5hympi|hympi_|HYMPI_|__hympi|_F[.]hympi")
set(checked 0)
foreach(library ${libraries})
  set(allowed "${hympi_names}|PetscDLLibraryRegister_hympi|PyInit__hympi")
  set(dynamic)
  if(library MATCHES "[.]so$")
    set(dynamic -D)
  endif()
  if(library MATCHES "libhympi_pmpi[.]so$")
    set(allowed "${allowed}|MPI_|mpi_")
  endif()
  run(nm ${dynamic} --defined-only --extern-only ${library})
  string(REGEX MATCHALL "[^\n]+" lines "${last_output}")
  foreach(line ${lines})
    if(line MATCHES "^[0-9a-f]* ([A-Za-z]) (.+)$")
      set(type "${CMAKE_MATCH_1}")  # read before the next MATCHES resets them
      set(symbol "${CMAKE_MATCH_2}")
      if(type MATCHES "[WwVvu]")
        continue()
      endif()
      if(NOT symbol MATCHES "^(${allowed})")
        message(FATAL_ERROR "${library} defines '${symbol}' outside hympi's name space (xSDK M9)")
      endif()
      math(EXPR checked "${checked} + 1")
    endif()
  endforeach()
endforeach()
list(LENGTH libraries count)
message("name space: ${checked} symbols of ${count} installed libraries, all hympi's (xSDK M9)")
string(STRIP "${consumer_output}" consumer_output)
message("${consumer_output}; ${consumer_c_output} (find_package and pkg-config), pkg-config ok")
# The component petsc (built where PETSc is on this MPI): find_package(hympi COMPONENTS
# petsc) from C, and pkg-config hympi_petsc.
if(WITH_PETSC)
  run(${MPIEXEC} -n 2 ${WORK_DIR}/build-C/consumer_petsc)
  message("${last_output}")
  run(pkg-config --cflags --libs hympi_petsc)
  string(FIND "${last_output}" "-lhympi_petsc" found)
  if(found LESS 0)
    message(FATAL_ERROR "pkg-config hympi_petsc: ${last_output}")
  endif()
  run(pkg-config --define-variable=prefix=${prefix} --variable=plugin hympi_petsc)
  string(STRIP "${last_output}" plugin)
  run(${MPIEXEC} -n 2 ${WORK_DIR}/build-C/plain_petsc -dll_append ${plugin} -sf_type hympi)
  message("${last_output}")
  message("pkg-config hympi_petsc ok")
endif()
