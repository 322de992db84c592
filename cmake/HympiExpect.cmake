# SPDX-License-Identifier: BSD-3-Clause
# cmake -DEXIT=<zero|nonzero> [-DEXPECT=<regex>] -P HympiExpect.cmake -- <command> [args...]
# Runs a test's command and judges it by its exit code and its output together (ctest's
# PASS_REGULAR_EXPRESSION alone ignores the exit code: a program that prints its verdict and
# then crashes, or whose other ranks fail, would pass). An MPI launcher's exit code is
# nonzero when any rank's is, so EXIT=zero checks every rank.
#   EXIT=zero     the command must exit 0 (and print EXPECT, when given)
#   EXIT=nonzero  the command must fail, and print EXPECT: an error that must happen
# stdout and stderr are printed merged, in the order produced, either way. Arguments cannot
# hold a ";" (CMake's list separator): pass such a command through a script.
set(command)
set(started FALSE)
math(EXPR last "${CMAKE_ARGC} - 1")
foreach(i RANGE 1 ${last})
  if(started)
    list(APPEND command "${CMAKE_ARGV${i}}")
  elseif(CMAKE_ARGV${i} STREQUAL "--")
    set(started TRUE)
  endif()
endforeach()
if(NOT EXIT MATCHES "^(zero|nonzero)$" OR NOT command OR (EXIT STREQUAL "nonzero" AND "${EXPECT}" STREQUAL ""))
  message(FATAL_ERROR "usage: cmake -DEXIT=zero|nonzero [-DEXPECT=regex] -P HympiExpect.cmake -- command...; "
                      "EXIT=nonzero needs EXPECT")
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE out)
message("${out}")
if(EXIT STREQUAL "zero" AND NOT code STREQUAL "0")
  message(FATAL_ERROR "expect: the command exited with '${code}'; it had to exit 0")
elseif(EXIT STREQUAL "nonzero" AND code STREQUAL "0")
  message(FATAL_ERROR "expect: the command exited with 0; it had to fail")
endif()
if(NOT "${EXPECT}" STREQUAL "" AND NOT "${out}" MATCHES "${EXPECT}")
  message(FATAL_ERROR "expect: exit ${code}, but no output matches '${EXPECT}'")
endif()
message("expect: exit ${code} and output as expected")
