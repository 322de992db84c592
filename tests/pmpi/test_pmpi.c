// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program (no hympi header, no hympi call), run with libhympi_pmpi preloaded or
// linked before libmpi. Every intercepted call is checked against PMPI on the same data:
// integer, min and max results identical, floating-point sums identical on every rank and
// equal to MPI's within rounding (exact where the inputs make every order exact). Where MPI
// has them (MPI-4), the large-count forms (MPI_Allreduce_c, ...) too.
//   test_pmpi check      every operation, type, op, size and root on COMM_WORLD, a
//                        duplicate, a split, short-lived duplicates, a communicator never
//                        freed; calls hympi cannot serve (derived and unsigned types, user
//                        ops, odd-sized broadcasts, an intercommunicator) fall through
//   test_pmpi mismatch   counts and roots that differ between ranks, under
//                        MPI_ERRORS_RETURN: every rank gets an error whose string is
//                        hympi's, then the communicator goes on working
//   test_pmpi fatal      the same mismatch under MPI_ERRORS_ARE_FATAL: the job must fail
//   test_pmpi multiple   MPI_THREAD_MULTIPLE: results as MPI's (everything falls through)
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

enum { kCounts = 4, kMaxCount = 1000 };
static const int counts[kCounts] = {0, 1, 7, kMaxCount};

typedef struct {
  MPI_Datatype type;
  const char* name;
  int floating;
  size_t size;
} Type;

static double value_of(int rank, int it, int i, MPI_Op op, int exact) {
  if (op == MPI_PROD) return (1 + (rank + it + i) % 2) / 8.0;         // integers 1, 2: products stay small
  if (exact) return ((rank * 7 + it * 3 + i) % 64) / 8.0 - 3;        // eighths: every sum order exact
  return 0.1 * rank + 0.01 * it + 1e-3 * i;                          // rounding depends on the order
}

static void put(const Type* t, void* buffer, int i, double v) {
  if (t->type == MPI_DOUBLE) ((double*)buffer)[i] = v;
  else if (t->type == MPI_FLOAT) ((float*)buffer)[i] = (float)v;
  else if (t->size == 4) ((int32_t*)buffer)[i] = (int32_t)(v * 8);
  else ((int64_t*)buffer)[i] = (int64_t)(v * 8);
}

static double get(const Type* t, const void* buffer, int i) {
  if (t->type == MPI_DOUBLE) return ((const double*)buffer)[i];
  if (t->type == MPI_FLOAT) return ((const float*)buffer)[i];
  if (t->size == 4) return ((const int32_t*)buffer)[i];
  return (double)((const int64_t*)buffer)[i];
}

// `got` against MPI's `want`: bit for bit where the result cannot depend on the order.
static void compare(const Type* t, MPI_Op op, int exact, const void* got, const void* want, int count,
                    const char* what) {
  if (!t->floating || op == MPI_MIN || op == MPI_MAX || exact) {
    CHECK(memcmp(got, want, (size_t)count * t->size) == 0, "%s %s: differs from MPI's", what, t->name);
    return;
  }
  for (int i = 0; i < count; ++i) {
    const double g = get(t, got, i), w = get(t, want, i);
    const double tolerance = (t->type == MPI_FLOAT ? 1e-5 : 1e-12) * (1 + (w < 0 ? -w : w));
    CHECK(g - w <= tolerance && w - g <= tolerance, "%s %s[%d]: %g, MPI %g", what, t->name, i, g, w);
  }
}

// The same bytes on every rank of comm (rank 0's, broadcast by PMPI).
static void same_everywhere(MPI_Comm comm, const void* data, size_t bytes, const char* what) {
  static unsigned char first[kMaxCount * 8];
  memcpy(first, data, bytes);
  PMPI_Bcast(first, (int)bytes, MPI_BYTE, 0, comm);
  CHECK(memcmp(first, data, bytes) == 0, "%s: not the same on every rank", what);
}

static void reductions(MPI_Comm comm, int it) {
  static const Type types[] = {{MPI_DOUBLE, "MPI_DOUBLE", 1, 8}, {MPI_FLOAT, "MPI_FLOAT", 1, 4},
                               {MPI_INT, "MPI_INT", 0, sizeof(int)}, {MPI_LONG, "MPI_LONG", 0, sizeof(long)},
                               {MPI_LONG_LONG, "MPI_LONG_LONG", 0, 8}, {MPI_INT64_T, "MPI_INT64_T", 0, 8}};
  static const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX};
  static double in[kMaxCount], out[kMaxCount], ref[kMaxCount];
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int root = it % size, exact = it % 2;
  for (size_t ti = 0; ti < sizeof types / sizeof types[0]; ++ti)
    for (int oi = 0; oi < 4; ++oi)
      for (int ci = 0; ci < kCounts; ++ci) {
        const Type* t = &types[ti];
        const int n = counts[ci];
        for (int i = 0; i < n; ++i) put(t, in, i, value_of(rank, it, i, ops[oi], exact));
        CHECK(MPI_Allreduce(in, out, n, t->type, ops[oi], comm) == MPI_SUCCESS, "MPI_Allreduce failed");
        PMPI_Allreduce(in, ref, n, t->type, ops[oi], comm);
        compare(t, ops[oi], exact, out, ref, n, "MPI_Allreduce");
        same_everywhere(comm, out, (size_t)n * t->size, "MPI_Allreduce");
#if MPI_VERSION >= 4  // the large-count form
        memset(out, 0x5a, sizeof out);
        CHECK(MPI_Allreduce_c(in, out, n, t->type, ops[oi], comm) == MPI_SUCCESS, "MPI_Allreduce_c failed");
        compare(t, ops[oi], exact, out, ref, n, "MPI_Allreduce_c");
        same_everywhere(comm, out, (size_t)n * t->size, "MPI_Allreduce_c");
#endif
        memcpy(out, in, (size_t)n * t->size);  // in place
        CHECK(MPI_Allreduce(MPI_IN_PLACE, out, n, t->type, ops[oi], comm) == MPI_SUCCESS, "in place failed");
        compare(t, ops[oi], exact, out, ref, n, "MPI_Allreduce(MPI_IN_PLACE)");
        memset(out, 0x5a, sizeof out);
        const int in_place = rank == root && it % 3 == 0;
        if (in_place) memcpy(out, in, (size_t)n * t->size);
        CHECK(MPI_Reduce(in_place ? MPI_IN_PLACE : in, rank == root ? out : NULL, n, t->type, ops[oi], root, comm) ==
                  MPI_SUCCESS, "MPI_Reduce failed");
        PMPI_Reduce(in, ref, n, t->type, ops[oi], root, comm);
        if (rank == root) compare(t, ops[oi], exact, out, ref, n, "MPI_Reduce");
#if MPI_VERSION >= 4
        memset(out, 0x5a, sizeof out);
        CHECK(MPI_Reduce_c(in, rank == root ? out : NULL, n, t->type, ops[oi], root, comm) == MPI_SUCCESS,
              "MPI_Reduce_c failed");
        if (rank == root) compare(t, ops[oi], exact, out, ref, n, "MPI_Reduce_c");
#endif
      }
}

static void broadcasts(MPI_Comm comm, int it) {
  static unsigned char data[8 * kMaxCount];
  static const int byte_counts[] = {0, 4, 8, 13, 16, 4000, 8 * kMaxCount};  // 13: MPI moves it
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int root = (it + 1) % size;
  for (size_t c = 0; c < sizeof byte_counts / sizeof byte_counts[0]; ++c) {
    const int n = byte_counts[c];
    for (int i = 0; i < n; ++i) data[i] = (unsigned char)(rank == root ? i * 7 + it : 0);
    MPI_Datatype type = n % 8 == 0 ? MPI_DOUBLE : n % 4 == 0 ? MPI_INT : MPI_CHAR;
    int tsize;
    MPI_Type_size(type, &tsize);
#if MPI_VERSION >= 4  // odd calls: the large-count form
    if (it % 2)
      CHECK(MPI_Bcast_c(data, n / tsize, type, root, comm) == MPI_SUCCESS, "MPI_Bcast_c failed");
    else
#endif
      CHECK(MPI_Bcast(data, n / tsize, type, root, comm) == MPI_SUCCESS, "MPI_Bcast failed");
    for (int i = 0; i < n; ++i) CHECK(data[i] == (unsigned char)(i * 7 + it), "MPI_Bcast byte %d of %d", i, n);
  }
  CHECK(MPI_Barrier(comm) == MPI_SUCCESS, "MPI_Barrier failed");
}

static int sum_ints(int* in, int* inout, int* len, MPI_Datatype* type) {
  (void)type;
  for (int i = 0; i < *len; ++i) inout[i] += in[i];
  return 0;
}

// Calls hympi cannot serve exactly go to MPI: same results as PMPI.
static void fall_throughs(MPI_Comm comm, int it) {
  int rank, size, in[4], out[4], ref[4];
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int i = 0; i < 4; ++i) in[i] = rank * 10 + i + it;
  MPI_Op user;
  MPI_Op_create((MPI_User_function*)sum_ints, 1, &user);
  MPI_Allreduce(in, out, 4, MPI_INT, user, comm);
  PMPI_Allreduce(in, ref, 4, MPI_INT, MPI_SUM, comm);
  CHECK(memcmp(out, ref, sizeof out) == 0, "user-defined op");
  MPI_Op_free(&user);
  unsigned uin[4], uout[4], uref[4];
  for (int i = 0; i < 4; ++i) uin[i] = 4000000000u - (unsigned)(rank + i);
  MPI_Allreduce(uin, uout, 4, MPI_UNSIGNED, MPI_MAX, comm);
  PMPI_Allreduce(uin, uref, 4, MPI_UNSIGNED, MPI_MAX, comm);
  CHECK(memcmp(uout, uref, sizeof uout) == 0, "MPI_UNSIGNED");
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_INT, &pair);
  MPI_Type_commit(&pair);
  MPI_Bcast(in, 2, pair, size - 1, comm);
  for (int i = 0; i < 4; ++i) CHECK(in[i] == (size - 1) * 10 + i + it, "derived type broadcast");
  MPI_Type_free(&pair);
}

static void intercommunicator(int it) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2) return;
  MPI_Comm half, inter;
  const int low = world_rank < size / 2;
  MPI_Comm_split(MPI_COMM_WORLD, low, world_rank, &half);
  MPI_Intercomm_create(half, 0, MPI_COMM_WORLD, low ? size / 2 : 0, 7, &inter);
  int in = world_rank + it, out = -1, ref = -2;
  MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, inter);  // the remote group's sum
  PMPI_Allreduce(&in, &ref, 1, MPI_INT, MPI_SUM, inter);
  CHECK(out == ref, "intercommunicator allreduce: %d, MPI %d", out, ref);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&half);
}

static void check_mode(void) {
  const int iterations = test_iterations();
  MPI_Comm dup, split, never_freed;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, -world_rank, &split);
  MPI_Comm_dup(dup, &never_freed);  // released by MPI_Finalize
  for (int it = 0; it < iterations; ++it) {
    MPI_Comm comms[4] = {MPI_COMM_WORLD, dup, split, never_freed};
    for (int c = 0; c < 4; ++c) {
      reductions(comms[c], it);
      broadcasts(comms[c], it);
    }
    fall_throughs(MPI_COMM_WORLD, it);
    intercommunicator(it);
    MPI_Comm short_lived;  // a Context made and released with its communicator
    MPI_Comm_dup(it % 2 ? dup : MPI_COMM_WORLD, &short_lived);
    for (int k = 0; k < 4; ++k) broadcasts(short_lived, it + k);
    MPI_Comm_free(&short_lived);
  }
  // Freed in an order other than made.
  MPI_Comm_free(&dup);
  reductions(split, 0);
  MPI_Comm_free(&split);
  broadcasts(never_freed, 0);
}

// A count (or root) that differs on rank 1: the call fails on every rank.
static void mismatch_mode(int fatal) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  if (!fatal) MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  double in[8] = {1, 2, 3, 4, 5, 6, 7, 8}, out[8];
  for (int k = 0; k < 4; ++k) MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, comm);  // past HYMPI_PMPI_AFTER
  const int count = world_rank == 1 % size ? 7 : 8;
  int code = MPI_Allreduce(in, out, size > 1 ? count : 8, MPI_DOUBLE, MPI_SUM, comm);
  if (size > 1) {
    CHECK(code != MPI_SUCCESS, "a count that differs on rank 1: MPI_Allreduce returned MPI_SUCCESS");
    char text[MPI_MAX_ERROR_STRING];
    int length = 0;
    MPI_Error_string(code, text, &length);
    CHECK(strstr(text, "hympi") && strstr(text, "allreduce"), "error string '%s'", text);
    if (world_rank == 0) printf("test_pmpi: every rank got: %s\n", text);
    const int root = world_rank == 1 ? 1 : 0;
    code = MPI_Bcast(in, 8, MPI_DOUBLE, root, comm);
    CHECK(code != MPI_SUCCESS, "a root that differs on rank 1: MPI_Bcast returned MPI_SUCCESS");
#if MPI_VERSION >= 4  // the large-count forms too: hympi's error, so the library served them
    const char* forms[3] = {"MPI_Allreduce_c (a count)", "MPI_Bcast_c (a root)", "MPI_Reduce_c (a root)"};
    for (int f = 0; f < 3; ++f) {
      code = f == 0   ? MPI_Allreduce_c(in, out, count, MPI_DOUBLE, MPI_SUM, comm)
             : f == 1 ? MPI_Bcast_c(in, 8, MPI_DOUBLE, root, comm)
                      : MPI_Reduce_c(in, out, 8, MPI_DOUBLE, MPI_SUM, root, comm);
      MPI_Error_string(code, text, &length);
      CHECK(code != MPI_SUCCESS && strstr(text, "hympi"), "%s that differs on rank 1: '%s'", forms[f],
            code == MPI_SUCCESS ? "MPI_SUCCESS" : text);
    }
#endif
  }
  CHECK(MPI_Allreduce(in, out, 8, MPI_DOUBLE, MPI_SUM, comm) == MPI_SUCCESS, "the communicator after the error");
  for (int i = 0; i < 8; ++i) CHECK(out[i] == in[i] * size, "after the error: %g", out[i]);
  MPI_Comm_free(&comm);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "check";
  int provided = MPI_THREAD_SINGLE;
  if (strcmp(mode, "multiple") == 0) {
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
    if (provided != MPI_THREAD_MULTIPLE) printf("test_pmpi: MPI_THREAD_MULTIPLE not provided (%d)\n", provided);
  } else {
    MPI_Init(&argc, &argv);
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  if (strcmp(mode, "check") == 0 || strcmp(mode, "multiple") == 0) check_mode();
  else if (strcmp(mode, "mismatch") == 0) mismatch_mode(0);
  else if (strcmp(mode, "fatal") == 0) mismatch_mode(1);
  else {
    fprintf(stderr, "test_pmpi: unknown mode '%s' (check, mismatch, fatal, multiple)\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return end_test("test_pmpi", mode);
}
