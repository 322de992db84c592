# SPDX-License-Identifier: BSD-3-Clause
# Installs hympi into a scratch prefix, then builds tests/fortran/consumer against it twice
# and runs each on 2 ranks: with find_package(hympi COMPONENTS fortran), and with the MPI's
# mpifort and `pkg-config --cflags --libs hympi-fortran`.
include(${CMAKE_CURRENT_LIST_DIR}/../package/install_scratch.cmake)

run(${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -DCMAKE_PREFIX_PATH=${prefix}
    -DMPI_C_COMPILER=${MPI_C_COMPILER} -DMPI_CXX_COMPILER=${MPI_CXX_COMPILER}
    -DMPI_Fortran_COMPILER=${MPI_Fortran_COMPILER})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build)
run(${MPIEXEC} -n 2 ${WORK_DIR}/build/consumer CMake)
message("${last_output}")

set(ENV{PKG_CONFIG_PATH} ${prefix}/lib/pkgconfig)
run(pkg-config --define-variable=prefix=${prefix} --cflags --libs hympi-fortran)
separate_arguments(flags UNIX_COMMAND "${last_output}")
run(${MPI_Fortran_COMPILER} ${SOURCE_DIR}/consumer.f90 -o ${WORK_DIR}/consumer-pkg-config ${flags})
run(${MPIEXEC} -n 2 ${WORK_DIR}/consumer-pkg-config pkg-config)
message("${last_output}")
