# SPDX-License-Identifier: BSD-3-Clause
# Decides HYMPI_BUILD_PYTHON (cmake/HympiComponents.cmake), the Python package's extension
# and its tests (python/): Python 3.10 or newer with its headers, and nanobind (found
# through `python -m nanobind --cmake_dir` unless nanobind_ROOT is given).
set(python_missing)
if(HYMPI_BUILD_PYTHON)
  find_package(Python 3.10 QUIET COMPONENTS Interpreter Development.Module)
  if(NOT Python_FOUND)
    list(APPEND python_missing "Python 3.10 or newer with its headers")
  else()
    if(NOT nanobind_ROOT)
      execute_process(COMMAND ${Python_EXECUTABLE} -m nanobind --cmake_dir
                      OUTPUT_VARIABLE nanobind_ROOT OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
    endif()
    find_package(nanobind CONFIG QUIET)
    if(NOT nanobind_FOUND)
      list(APPEND python_missing "nanobind for ${Python_EXECUTABLE}")
    endif()
  endif()
endif()
hympi_not_found(python_missing ${python_missing})
hympi_component(HYMPI_BUILD_PYTHON python "${python_missing}" "install python3-dev and nanobind")
