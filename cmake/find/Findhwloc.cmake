# SPDX-License-Identifier: BSD-3-Clause
# find_package(hwloc [version]): hwloc's header and library as the imported target
# hwloc::hwloc, with or without pkg-config: pkg-config's hwloc.pc (where pkg-config is
# installed) only hints where to look; else hwloc.h and libhwloc are searched in the
# usual places and under hwloc_ROOT or CMAKE_PREFIX_PATH (a Spack or module prefix).
# Sets hwloc_FOUND and hwloc_VERSION (from hwloc/autogen/config.h). Used by hympi's build
# and installed beside hympiConfig.cmake, which finds hwloc for a consumer the same way.
find_package(PkgConfig QUIET)
if(PKG_CONFIG_FOUND)
  pkg_check_modules(PC_hwloc QUIET hwloc)
endif()
find_path(hwloc_INCLUDE_DIR hwloc.h HINTS ${PC_hwloc_INCLUDE_DIRS})
find_library(hwloc_LIBRARY hwloc HINTS ${PC_hwloc_LIBRARY_DIRS})
# The release's version; Debian keeps autogen/config.h under the multiarch include path.
find_file(hwloc_CONFIG_HEADER hwloc/autogen/config.h HINTS ${hwloc_INCLUDE_DIR} ${PC_hwloc_INCLUDE_DIRS})
mark_as_advanced(hwloc_INCLUDE_DIR hwloc_LIBRARY hwloc_CONFIG_HEADER)
unset(hwloc_VERSION)
if(hwloc_CONFIG_HEADER)
  file(STRINGS ${hwloc_CONFIG_HEADER} _hwloc_version REGEX "^#define HWLOC_VERSION \"[0-9.]+")
  if(_hwloc_version MATCHES "\"([0-9.]+)")
    set(hwloc_VERSION ${CMAKE_MATCH_1})
  endif()
  unset(_hwloc_version)
endif()
include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(hwloc REQUIRED_VARS hwloc_LIBRARY hwloc_INCLUDE_DIR VERSION_VAR hwloc_VERSION)
if(hwloc_FOUND AND NOT TARGET hwloc::hwloc)
  add_library(hwloc::hwloc UNKNOWN IMPORTED)
  set_target_properties(hwloc::hwloc PROPERTIES IMPORTED_LOCATION ${hwloc_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${hwloc_INCLUDE_DIR})
endif()
