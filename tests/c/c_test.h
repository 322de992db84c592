/* SPDX-License-Identifier: BSD-3-Clause */
/* Helpers of the C API's test programs (tests/c): checks that count failures on this rank,
 * error-code checks that print hympi_last_error_message(), typed element access for the
 * four hympi_datatype values, a check that a message is the same on every rank, and the
 * verdict over all ranks at the end. */
#ifndef HYMPI_C_TEST_H
#define HYMPI_C_TEST_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "hympi.h"

/* Records a failure on this rank (printed with the rank, file and line). */
void c_test_fail(const char* file, int line, const char* text, const char* detail);
/* `code` must be HYMPI_SUCCESS; else the failure names the code and the last message. */
void c_test_ok(int code, const char* file, int line, const char* text);
/* `code` must be `expected` and the last message must contain `part`. */
void c_test_error(int code, int expected, const char* part, const char* file, int line, const char* text);

#define CHECK(cond) ((cond) ? (void)0 : c_test_fail(__FILE__, __LINE__, #cond, ""))
#define CHECK_OK(call) c_test_ok((call), __FILE__, __LINE__, #call)
#define CHECK_ERROR(call, expected, part) c_test_error((call), (expected), (part), __FILE__, __LINE__, #call)

/* `message` must be the same on every rank of MPI_COMM_WORLD (collective). */
void c_test_same_everywhere(const char* message, const char* file, int line);
#define CHECK_SAME_EVERYWHERE(message) c_test_same_everywhere((message), __FILE__, __LINE__)

/* Element i of an array of `type` (integral values only: they are exact in every type). */
void c_test_put(void* array, hympi_datatype type, size_t i, int64_t value);
int64_t c_test_get(const void* array, hympi_datatype type, size_t i);
size_t c_test_size(hympi_datatype type);
MPI_Datatype c_test_mpi_type(hympi_datatype type);

/* An integer from the environment, or `fallback`. */
long c_test_env(const char* name, long fallback);
int c_test_rank(void);
int c_test_size_of_world(void);

/* Collective: the failures of every rank; rank 0 prints "c-test NAME: passed on N ranks"
 * or the count. Returns the exit status (0: passed). */
int c_test_finish(const char* name);

#endif
