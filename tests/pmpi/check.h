/* SPDX-License-Identifier: BSD-3-Clause */
/* The plain MPI test programs' verdicts: CHECK counts this rank's failures (the first ten
 * printed with the rank and the line); main() sums them over the ranks for the exit code. */
#ifndef HYMPI_TESTS_PMPI_CHECK_H
#define HYMPI_TESTS_PMPI_CHECK_H

#include <stdio.h>

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

#endif
