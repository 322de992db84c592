/* SPDX-License-Identifier: BSD-3-Clause */
/* The plain MPI test programs' verdicts: CHECK counts this rank's failures (the first ten
 * printed with the rank and the line); end_test() sums them over the ranks for the exit code. */
#ifndef HYMPI_TESTS_PMPI_CHECK_H
#define HYMPI_TESTS_PMPI_CHECK_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int failures = 0;
static int world_rank = 0;

#define CHECK(cond, ...)                                                    \
  do {                                                                      \
    if (!(cond)) {                                                          \
      if (failures++ < 10) {                                                \
        fprintf(stderr, "rank %d: %s:%d: ", world_rank, __FILE__, __LINE__); \
        fprintf(stderr, __VA_ARGS__);                                       \
        fprintf(stderr, "\n");                                              \
      }                                                                     \
    }                                                                       \
  } while (0)

// HYMPI_TEST_ITERATIONS, or 20.
static inline int test_iterations(void) {
  return getenv("HYMPI_TEST_ITERATIONS") ? atoi(getenv("HYMPI_TEST_ITERATIONS")) : 20;
}

// MPI_Init and this rank's number; the mode: the first argument, or "check".
static inline const char* begin_test(int* argc, char*** argv) {
  MPI_Init(argc, argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  return *argc > 1 ? (*argv)[1] : "check";
}

// Collective over comm: every rank's failures summed (PMPI: never through the library under
// test), rank 0 prints "<program> <mode>: all ranks passed" or "FAILED"; the exit code of
// every rank.
static inline int verdict(MPI_Comm comm, const char* program, const char* mode) {
  int all = 0;
  PMPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, comm);
  if (world_rank == 0) printf("%s %s: %s\n", program, mode, all ? "FAILED" : "all ranks passed");
  fflush(stdout);
  return all ? 1 : 0;
}

// verdict() over MPI_COMM_WORLD, then MPI_Finalize.
static inline int end_test(const char* program, const char* mode) {
  const int code = verdict(MPI_COMM_WORLD, program, mode);
  MPI_Finalize();
  return code;
}

#endif
