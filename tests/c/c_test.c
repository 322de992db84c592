/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the C API's test programs (c_test.h). */
#include "c_test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failures = 0;

int c_test_rank(void) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int c_test_size_of_world(void) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

void c_test_fail(const char* file, int line, const char* text, const char* detail) {
  ++g_failures;
  if (g_failures <= 20)
    fprintf(stderr, "c-test FAILED on rank %d at %s:%d: %s %s\n", c_test_rank(), file, line, text, detail);
}

void c_test_ok(int code, const char* file, int line, const char* text) {
  if (code == HYMPI_SUCCESS) return;
  char detail[1024];
  snprintf(detail, sizeof detail, "returned %s: %s", hympi_error_string(code), hympi_last_error_message());
  c_test_fail(file, line, text, detail);
}

void c_test_error(int code, int expected, const char* part, const char* file, int line, const char* text) {
  const char* message = hympi_last_error_message();
  if (code == expected && strstr(message, part)) return;
  char detail[1200];
  snprintf(detail, sizeof detail, "returned %d (expected %d) with message '%s' (expected to contain '%s')", code,
           expected, code == HYMPI_SUCCESS ? "" : message, part);
  c_test_fail(file, line, text, detail);
}

void c_test_same_everywhere(const char* message, const char* file, int line) {
  int length = (int)strlen(message);
  int root_length = length;
  MPI_Bcast(&root_length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char* root = malloc((size_t)root_length + 1);
  if (c_test_rank() == 0) memcpy(root, message, (size_t)length + 1);
  MPI_Bcast(root, root_length + 1, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (strcmp(root, message) != 0) {
    char detail[2400];
    snprintf(detail, sizeof detail, "'%.1000s' differs from rank 0's '%.1000s'", message, root);
    c_test_fail(file, line, "the same message on every rank", detail);
  }
  free(root);
}

void c_test_put(void* array, hympi_datatype type, size_t i, int64_t value) {
  switch (type) {
    case HYMPI_FLOAT64: ((double*)array)[i] = (double)value; break;
    case HYMPI_FLOAT32: ((float*)array)[i] = (float)value; break;
    case HYMPI_INT32: ((int32_t*)array)[i] = (int32_t)value; break;
    case HYMPI_INT64: ((int64_t*)array)[i] = value; break;
  }
}

int64_t c_test_get(const void* array, hympi_datatype type, size_t i) {
  switch (type) {
    case HYMPI_FLOAT64: return (int64_t)((const double*)array)[i];
    case HYMPI_FLOAT32: return (int64_t)((const float*)array)[i];
    case HYMPI_INT32: return ((const int32_t*)array)[i];
    case HYMPI_INT64: return ((const int64_t*)array)[i];
  }
  return 0;
}

size_t c_test_size(hympi_datatype type) {
  return type == HYMPI_FLOAT64 || type == HYMPI_INT64 ? 8 : 4;
}

MPI_Datatype c_test_mpi_type(hympi_datatype type) {
  switch (type) {
    case HYMPI_FLOAT64: return MPI_DOUBLE;
    case HYMPI_FLOAT32: return MPI_FLOAT;
    case HYMPI_INT32: return MPI_INT32_T;
    case HYMPI_INT64: return MPI_INT64_T;
  }
  return MPI_DATATYPE_NULL;
}

long c_test_env(const char* name, long fallback) {
  const char* value = getenv(name);
  return value && *value ? atol(value) : fallback;
}

int c_test_finish(const char* name) {
  int total = 0;
  MPI_Allreduce(&g_failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (c_test_rank() == 0) {
    if (total == 0)
      printf("c-test %s: passed on %d ranks\n", name, c_test_size_of_world());
    else
      printf("c-test %s: %d check(s) FAILED\n", name, total);
    fflush(stdout);
  }
  return total == 0 ? 0 : 1;
}
