# SPDX-License-Identifier: BSD-3-Clause
# hympi_add_mpi_test(NAME <name> COMMAND <target or program> NP <n> [NODE_SIZE <k>] [ARGS ...]
#                    [ENV VAR=value ...] [PASS_REGEX <regex>] [EXPECT_FAILURE] [LABELS ...])
# Runs ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} n ${MPIEXEC_PREFLAGS} <program>
# ${MPIEXEC_POSTFLAGS} args. NODE_SIZE sets HYMPI_NODE_SIZE (emulated nodes).
# The job must exit 0 and print PASS_REGEX when given; with EXPECT_FAILURE it must exit
# nonzero and print PASS_REGEX (the error that must happen). HympiExpect.cmake judges both.
#
# What each MPI needs on this kind of machine goes here, not in library code:
#  - Open MPI as root: OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM); more ranks than cores: the
#    mapper's oversubscribe (Open MPI 4: its own rmaps; 5: PRRTE's mapping policy); no
#    single-copy (CMA) transport, which containers without ptrace rights refuse.
#  - MPICH 5 polls for progress without pause, which oversubscribed takes the
#    core from the rank it waits for (collectives 10x slower): after 64 polls without
#    progress it sleeps 1 us (CH4_PROGRESS_THROTTLE; MPICH 4.0 has no such setting).
#  - HYMPI_TIMEOUT: a hang becomes a watchdog message within a minute.
# HYMPI_MPI_FLAVOR (openmpi, mpich) chooses per-MPI tests; HYMPI_MPI_MAJOR and _MINOR its release;
# HYMPI_MPI_NO_BINDING_ENV leaves the launcher's ranks unbound; HYMPI_MPI_SPINS: the MPI
# polls without pause when oversubscribed and nothing here changes that (MPICH 4.0), so
# its runs make fewer consecutive calls.
string(REGEX MATCH "(Open MPI v|MPICH Version:[ \t]*)([0-9]+)\\.([0-9]+)" _hympi_version "${MPI_CXX_LIBRARY_VERSION_STRING}")
set(HYMPI_MPI_MAJOR ${CMAKE_MATCH_2})
set(HYMPI_MPI_MINOR ${CMAKE_MATCH_3})
if(_hympi_version MATCHES "^Open MPI" AND HYMPI_MPI_MAJOR GREATER_EQUAL 5)
  set(HYMPI_MPI_FLAVOR openmpi)
  set(HYMPI_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      PRTE_MCA_rmaps_default_mapping_policy=:oversubscribe OMPI_MCA_smsc=^cma)
  set(HYMPI_MPI_NO_BINDING_ENV PRTE_MCA_hwloc_default_binding_policy=none)
elseif(_hympi_version MATCHES "^Open MPI")
  set(HYMPI_MPI_FLAVOR openmpi)
  set(HYMPI_MPI_ENV OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none)
  set(HYMPI_MPI_NO_BINDING_ENV OMPI_MCA_hwloc_base_binding_policy=none)
else()
  set(HYMPI_MPI_FLAVOR mpich)
  set(HYMPI_MPI_ENV)
  if(HYMPI_MPI_MAJOR GREATER_EQUAL 5)
    set(HYMPI_MPI_ENV MPIR_CVAR_CH4_PROGRESS_THROTTLE=1 MPIR_CVAR_CH4_PROGRESS_THROTTLE_NO_PROGRESS_COUNT=64)
  else()
    set(HYMPI_MPI_SPINS ON)
  endif()
  set(HYMPI_MPI_NO_BINDING_ENV)  # Hydra binds nothing unless asked
endif()
message(STATUS "hympi: MPI tests use ${MPIEXEC_EXECUTABLE} (${HYMPI_MPI_FLAVOR} ${HYMPI_MPI_MAJOR})")

# A sanitizer build (HYMPI_SANITIZE): every finding fails the test. LeakSanitizer is off:
# Open MPI's components, loaded with dlopen and closed in MPI_Finalize, leave allocations
# whose stacks no longer resolve at exit (nothing to suppress them by).
if(HYMPI_SANITIZE)
  set(HYMPI_SANITIZE_LABEL sanitize)
  set(HYMPI_SANITIZE_ENV
      "ASAN_OPTIONS=halt_on_error=1:detect_leaks=0:detect_stack_use_after_return=0"
      "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1")
endif()

# hympi_expect_command(<var> <zero|nonzero> <regex> <command> [args...]): sets <var> to a
# test command that passes only when <command> exits as said (zero, or nonzero: an error
# that must happen) and its output matches <regex> (may be empty with zero). Every test
# that looks at output goes through it: ctest's PASS_REGULAR_EXPRESSION ignores the exit code.
set(HYMPI_EXPECT_SCRIPT ${CMAKE_CURRENT_LIST_DIR}/HympiExpect.cmake)
function(hympi_expect_command var exit regex)
  set(${var} ${CMAKE_COMMAND} -DEXIT=${exit} "-DEXPECT=${regex}" -P ${HYMPI_EXPECT_SCRIPT} -- ${ARGN} PARENT_SCOPE)
endfunction()

function(hympi_add_mpi_test)
  cmake_parse_arguments(T "EXPECT_FAILURE" "NAME;COMMAND;NP;NODE_SIZE;PASS_REGEX;TIMEOUT;PROCESSORS" "ARGS;ENV;LABELS"
                        ${ARGN})
  if(HYMPI_SANITIZE)
    # A tenth of the long runs (HYMPI_TEST_ITERATIONS of 1,000 and more): the sanitizers look
    # for memory errors and undefined behaviour on each path, which the first calls take; the
    # long runs against the reference are the other trees'.
    set(shorter)
    foreach(e IN LISTS T_ENV)
      if(e MATCHES "^HYMPI_TEST_ITERATIONS=([0-9]+)$" AND CMAKE_MATCH_1 GREATER_EQUAL 1000)
        math(EXPR n "${CMAKE_MATCH_1} / 10")
        set(e HYMPI_TEST_ITERATIONS=${n})
      endif()
      list(APPEND shorter "${e}")
    endforeach()
    set(T_ENV ${shorter})
  endif()
  set(env ${HYMPI_MPI_ENV} HYMPI_TIMEOUT=60 ${HYMPI_SANITIZE_ENV} ${T_ENV})
  if(T_NODE_SIZE)
    list(APPEND env HYMPI_NODE_SIZE=${T_NODE_SIZE})
  endif()
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 300)
  endif()
  if(NOT T_PROCESSORS)  # a test's ranks each take a core (ctest -j2 runs one at a time)
    set(T_PROCESSORS ${T_NP})
  endif()
  set(program ${T_COMMAND})
  if(TARGET ${T_COMMAND})
    set(program $<TARGET_FILE:${T_COMMAND}>)
  endif()
  set(command ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${T_NP} ${MPIEXEC_PREFLAGS}
              ${program} ${MPIEXEC_POSTFLAGS} ${T_ARGS})
  if(T_EXPECT_FAILURE)
    hympi_expect_command(command nonzero "${T_PASS_REGEX}" ${command})
  elseif(T_PASS_REGEX)
    hympi_expect_command(command zero "${T_PASS_REGEX}" ${command})
  endif()
  add_test(NAME ${T_NAME} COMMAND ${command})
  set_tests_properties(${T_NAME} PROPERTIES ENVIRONMENT "${env}" TIMEOUT ${T_TIMEOUT}
                       LABELS "mpi;${HYMPI_MPI_FLAVOR};${HYMPI_SANITIZE_LABEL};${T_LABELS}" PROCESSORS ${T_PROCESSORS})
endfunction()

# <prefix>.np<np>, plus .node<k> when k > 0 (emulated nodes of k ranks; NODE_SIZE 0 = real).
function(hympi_node_test_name out prefix np k)
  if(k EQUAL 0)
    set(${out} ${prefix}.np${np} PARENT_SCOPE)
  else()
    set(${out} ${prefix}.np${np}.node${k} PARENT_SCOPE)
  endif()
endfunction()
