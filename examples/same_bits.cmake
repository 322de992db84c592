# SPDX-License-Identifier: BSD-3-Clause
# cmake "-DREFERENCE=program|args..." "-DEXAMPLE=program|args..." -P same_bits.cmake
# Runs the two commands (arguments separated by |) one after the other; each must exit 0
# and print "bits residual R checksum C" (apps/app_common.cpp's report, the examples' last
# line). Prints "examples: same bits ..." when both print the same bits, else fails.
foreach(run REFERENCE EXAMPLE)
  string(REPLACE "|" ";" command "${${run}}")
  execute_process(COMMAND ${command} OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
  message("--- ${${run}}\n${out}${err}")
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "examples: the ${run} run exited with ${rc}")
  endif()
  string(REGEX MATCH "bits residual [0-9A-F]+ checksum [0-9A-F]+" ${run}_bits "${out}")
  if(NOT ${run}_bits)
    message(FATAL_ERROR "examples: the ${run} run printed no line 'bits residual R checksum C'")
  endif()
endforeach()
if(NOT REFERENCE_bits STREQUAL EXAMPLE_bits)
  message(FATAL_ERROR "examples: DIFFERENT: ${REFERENCE_bits} (C++ jacobi2d) against ${EXAMPLE_bits}")
endif()
message("examples: same bits: ${EXAMPLE_bits}")
