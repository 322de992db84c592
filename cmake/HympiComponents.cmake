# SPDX-License-Identifier: BSD-3-Clause
# How an optional component is decided (its option is AUTO, ON or OFF; CMakeLists.txt
# declares them): AUTO builds it when what it needs is found and otherwise says in one
# line what is missing; ON builds it or fails the configure with that same reason; OFF
# skips it without a word. The decision shadows the cache entry with a plain variable of
# the same name, ON or OFF, which the rest of the build (subdirectories included) reads:
# the cache keeps AUTO, so a later configure decides again.

# hympi_find_missing(<var> <package>...): find_package(<package> QUIET) for each, and the
# list of those not found in <var> (empty when all are). A macro: the packages' variables
# and imported targets belong to the calling directory.
macro(hympi_find_missing var)
  set(${var})
  foreach(_hympi_package ${ARGN})
    find_package(${_hympi_package} QUIET)
    if(NOT ${_hympi_package}_FOUND)
      list(APPEND ${var} ${_hympi_package})
    endif()
  endforeach()
endmacro()

# hympi_not_found(<var> <list>): "A, B not found" for a non-empty list, else "".
function(hympi_not_found var)
  set(text "")
  if(ARGN)
    list(JOIN ARGN ", " text)
    string(APPEND text " not found")
  endif()
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# hympi_component(<option> <name> <missing> <remedy>): decides <option> as said above.
# <missing> says what is not there ("" when everything is), <remedy> what to install.
function(hympi_component option name missing remedy)
  string(TOUPPER "${${option}}" value)
  if(NOT value MATCHES "^(AUTO|ON|OFF|YES|NO|TRUE|FALSE|Y|N|1|0)$")
    message(FATAL_ERROR "hympi: ${option}='${${option}}': use AUTO (build ${name} when its dependencies "
                        "are found), ON (required) or OFF")
  endif()
  if(value STREQUAL "AUTO")
    if(missing)
      message(STATUS "hympi: ${name} OFF (${missing}; ${remedy} or pass -D${option}=OFF)")
      set(${option} OFF PARENT_SCOPE)
    else()
      set(${option} ON PARENT_SCOPE)
    endif()
  elseif(value MATCHES "^(ON|YES|TRUE|Y|1)$")
    if(missing)
      message(FATAL_ERROR "hympi: ${option}=${${option}} asks for ${name}, but ${missing}: ${remedy}, "
                          "or pass -D${option}=OFF (or AUTO: ${name} only where its dependencies are found)")
    endif()
    set(${option} ON PARENT_SCOPE)
  else()
    set(${option} OFF PARENT_SCOPE)
  endif()
endfunction()

# hympi_component_needs(<option> <name> <remedy> <package>...): finds the packages (none
# when <option> is OFF) and decides <option> on whether all were found.
macro(hympi_component_needs option name remedy)
  set(_hympi_missing)
  if(${option})
    hympi_find_missing(_hympi_missing ${ARGN})
  endif()
  hympi_not_found(_hympi_reason ${_hympi_missing})
  hympi_component(${option} ${name} "${_hympi_reason}" "${remedy}")
endmacro()
