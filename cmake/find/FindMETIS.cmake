# SPDX-License-Identifier: BSD-3-Clause
# find_package(METIS): METIS's header and library (Debian: libmetis-dev) in the cache
# variables HYMPI_METIS_INCLUDE and HYMPI_METIS_LIBRARY (set them to use another METIS);
# sets METIS_FOUND. hympi::mapping and the mesh library link it.
find_path(HYMPI_METIS_INCLUDE metis.h)
find_library(HYMPI_METIS_LIBRARY metis)
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(METIS REQUIRED_VARS HYMPI_METIS_LIBRARY HYMPI_METIS_INCLUDE)
