# SPDX-License-Identifier: BSD-3-Clause
# find_package(PETSc): PETSc through its pkg-config file PETSc.pc (Debian: petsc-dev; else
# PKG_CONFIG_PATH=$PETSC_DIR/$PETSC_ARCH/lib/pkgconfig) as the imported target
# PkgConfig::PETSC; sets PETSc_FOUND and PETSC_VERSION. Whether it is built on hympi's
# MPI is cmake/HympiPetsc.cmake's check.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PETSC QUIET IMPORTED_TARGET PETSc)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(PETSc REQUIRED_VARS PETSC_LINK_LIBRARIES VERSION_VAR PETSC_VERSION)
