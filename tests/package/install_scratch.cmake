# SPDX-License-Identifier: BSD-3-Clause
# Shared by the package checks (cmake -P scripts): run(cmd...) fails the check with the
# command's output and keeps its stdout in `last_output`; then hympi is installed from
# BUILD_DIR into a fresh scratch prefix ${WORK_DIR}/prefix (in `prefix`).
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed: ${ARGN}\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()
file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
