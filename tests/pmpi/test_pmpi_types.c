// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program (no hympi in its source) that walks every datatype through every
// intercepted call, run with libhympi_pmpi preloaded or linked before libmpi. Each call's
// whole buffer (gaps included, which must stay as they were) is compared bit for bit with
// PMPI's on the same arguments, with data that changes every round:
//   test_pmpi_types check     every predefined C and Fortran type (the pair types, whose
//       size is not their extent; MPI_C_BOOL, MPI_WCHAR, the complex types, MPI_AINT,
//       MPI_OFFSET, MPI_COUNT, MPI_PACKED, ...) and derived ones (indexed out of memory order,
//       resized with gaps, a negative lower bound, a struct with holes, a vector, a dup of a
//       named type, a contiguous of a pair type, a type of size 0) through MPI_Bcast (also with the signature
//       spelled differently on the root and the others) and MPI_Neighbor_alltoall(v) on a
//       ring; every predefined type with each reduction operation MPI defines for it
//       through MPI_Allreduce and MPI_Reduce, MIN and MAX of floating point with -0.0, +0.0
//       and NaN on every rank pattern
//   test_pmpi_types pairs     1,100 MPI_Bcast of 64 MPI_DOUBLE_INT from rank 0 (the
//       1,001st is the first the default settings serve)
//   test_pmpi_types unserved  1,100 MPI_Allreduce of MPI_UNSIGNED on a duplicate, which hympi
//       never serves: no Context is made for it (the report says why each call went to MPI)
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <complex.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "check.h"

enum { kRoom = 4096 };  // bytes of every buffer; data lies at kOrigin from its start
enum { kOrigin = 256 };

// How a type's elements are written for a reduction: its class decides the ops MPI allows.
typedef enum { INTEGER, FLOATING, COMPLEX, LOGICAL, BYTE, PAIR, NONE } Class;

typedef struct {
  MPI_Datatype type;
  const char* name;
  Class cls;
  int value_size;  // PAIR: the value's bytes (then an int, or for the Fortran pairs the same
  int index_at;    // kind again, at index_at); COMPLEX: the bytes of one part
} Type;

#define T(t, c, v, i) {t, #t, c, v, i}
static const Type predefined[] = {
    T(MPI_CHAR, NONE, 0, 0), T(MPI_SIGNED_CHAR, INTEGER, 0, 0), T(MPI_UNSIGNED_CHAR, INTEGER, 0, 0),
    T(MPI_SHORT, INTEGER, 0, 0), T(MPI_UNSIGNED_SHORT, INTEGER, 0, 0), T(MPI_INT, INTEGER, 0, 0),
    T(MPI_UNSIGNED, INTEGER, 0, 0), T(MPI_LONG, INTEGER, 0, 0), T(MPI_UNSIGNED_LONG, INTEGER, 0, 0),
    T(MPI_LONG_LONG, INTEGER, 0, 0), T(MPI_UNSIGNED_LONG_LONG, INTEGER, 0, 0), T(MPI_INT8_T, INTEGER, 0, 0),
    T(MPI_INT16_T, INTEGER, 0, 0), T(MPI_INT32_T, INTEGER, 0, 0), T(MPI_INT64_T, INTEGER, 0, 0),
    T(MPI_UINT8_T, INTEGER, 0, 0), T(MPI_UINT16_T, INTEGER, 0, 0), T(MPI_UINT32_T, INTEGER, 0, 0),
    T(MPI_UINT64_T, INTEGER, 0, 0), T(MPI_AINT, INTEGER, 0, 0), T(MPI_OFFSET, INTEGER, 0, 0),
    T(MPI_COUNT, INTEGER, 0, 0), T(MPI_FLOAT, FLOATING, 0, 0), T(MPI_DOUBLE, FLOATING, 0, 0),
    T(MPI_LONG_DOUBLE, FLOATING, 0, 0), T(MPI_C_FLOAT_COMPLEX, COMPLEX, 4, 0), T(MPI_C_DOUBLE_COMPLEX, COMPLEX, 8, 0),
    T(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX, 16, 0), T(MPI_C_BOOL, LOGICAL, 0, 0), T(MPI_WCHAR, NONE, 0, 0),
    T(MPI_BYTE, BYTE, 0, 0), T(MPI_PACKED, NONE, 0, 0),
    // the pair types of MPI_MINLOC / MPI_MAXLOC: size is not extent where padded
    T(MPI_FLOAT_INT, PAIR, 4, 4), T(MPI_DOUBLE_INT, PAIR, 8, 8), T(MPI_LONG_INT, PAIR, 8, 8), T(MPI_2INT, PAIR, 4, 4),
    T(MPI_SHORT_INT, PAIR, 2, 4), T(MPI_LONG_DOUBLE_INT, PAIR, 16, 16),
    // Fortran's (MPI_DATATYPE_NULL or unsized where MPI was built without Fortran: skipped)
    T(MPI_INTEGER, INTEGER, 0, 0), T(MPI_REAL, FLOATING, 0, 0), T(MPI_DOUBLE_PRECISION, FLOATING, 0, 0),
    T(MPI_COMPLEX, COMPLEX, 4, 0), T(MPI_DOUBLE_COMPLEX, COMPLEX, 8, 0), T(MPI_LOGICAL, LOGICAL, 0, 0),
    T(MPI_CHARACTER, NONE, 0, 0), T(MPI_INTEGER4, INTEGER, 0, 0), T(MPI_INTEGER8, INTEGER, 0, 0),
    T(MPI_REAL4, FLOATING, 0, 0), T(MPI_REAL8, FLOATING, 0, 0), T(MPI_2REAL, PAIR, -4, 4),
    T(MPI_2DOUBLE_PRECISION, PAIR, -8, 8), T(MPI_2INTEGER, PAIR, 4, 4)};
#undef T
enum { kPredefined = sizeof predefined / sizeof predefined[0] };

// Whether `type` exists in this MPI (sized without error).
static int usable(MPI_Datatype type) {
  int size = 0;
  return type != MPI_DATATYPE_NULL && MPI_Type_size(type, &size) == MPI_SUCCESS && size > 0;
}

// A pseudo-random byte of rank `r`, round `it`, position `i`.
static unsigned char byte_of(int r, int it, int i) { return (unsigned char)((r * 131 + it * 29 + i * 7 + 11) & 0xff); }

// The derived types, made anew for each round (freed after it): with the data of each
// (count, the memory it spans from `lb`).
typedef struct {
  MPI_Datatype type;
  const char* name;
} Derived;
enum { kDerived = 10 };
static void make_derived(Derived d[kDerived]) {
  int n = 0;
  {  // blocks listed out of memory order: lb 0, size = extent, yet not memcpy's order
    const int lengths[2] = {1, 1}, displs[2] = {1, 0};
    MPI_Type_indexed(2, lengths, displs, MPI_INT, &d[n].type);
    d[n++].name = "indexed {1, 0} of MPI_INT";
  }
  MPI_Type_create_resized(MPI_INT, 0, 12, &d[n].type);  // gaps of 8 bytes
  d[n++].name = "MPI_INT resized to extent 12";
  {
    const int lengths[1] = {2};
    const MPI_Aint displs[1] = {-16};
    MPI_Type_create_hindexed(1, lengths, displs, MPI_DOUBLE, &d[n].type);  // lower bound -16
    d[n++].name = "hindexed at -16 of 2 MPI_DOUBLE";
  }
  {
    const int lengths[2] = {1, 1};
    const MPI_Aint displs[2] = {0, 8};
    const MPI_Datatype types[2] = {MPI_CHAR, MPI_DOUBLE};
    MPI_Type_create_struct(2, lengths, displs, types, &d[n].type);  // 7 bytes of hole
    d[n++].name = "struct {char at 0, double at 8}";
  }
  MPI_Type_vector(3, 1, 2, MPI_INT, &d[n].type);
  d[n++].name = "vector(3, 1, 2) of MPI_INT";
  MPI_Type_dup(MPI_DOUBLE, &d[n].type);
  d[n++].name = "dup of MPI_DOUBLE";
  MPI_Type_contiguous(3, MPI_DOUBLE_INT, &d[n].type);
  d[n++].name = "contiguous(3) of MPI_DOUBLE_INT";
  {
    MPI_Datatype inner;
    MPI_Type_create_resized(MPI_SHORT, -4, 8, &inner);  // negative lb and gaps
    MPI_Type_contiguous(2, inner, &d[n].type);
    MPI_Type_free(&inner);
    d[n++].name = "contiguous(2) of MPI_SHORT resized to lb -4, extent 8";
  }
  {
    const int sizes[2] = {4, 5}, sub[2] = {2, 3}, starts[2] = {1, 1};
    MPI_Type_create_subarray(2, sizes, sub, starts, MPI_ORDER_C, MPI_FLOAT, &d[n].type);
    d[n++].name = "subarray 2x3 of 4x5 MPI_FLOAT";
  }
  MPI_Type_contiguous(0, MPI_INT, &d[n].type);  // size 0: a broadcast of it moves nothing
  d[n++].name = "contiguous(0) of MPI_INT";
  for (int i = 0; i < n; ++i) MPI_Type_commit(&d[i].type);
}
static void free_derived(Derived d[kDerived]) {
  for (int i = 0; i < kDerived; ++i) MPI_Type_free(&d[i].type);
}

// How many elements of `type` fit a buffer of kRoom bytes from kOrigin, at most `want`.
static int fitting(MPI_Datatype type, int want) {
  MPI_Aint lb, extent, true_lb, true_extent;
  MPI_Type_get_extent(type, &lb, &extent);
  MPI_Type_get_true_extent(type, &true_lb, &true_extent);
  int n = want;
  while (n > 0 && (true_lb < -kOrigin || kOrigin + (n - 1) * extent + true_lb + true_extent > kRoom)) --n;
  return n;
}

// Broadcasts of `count` x `type` from `root`, whole buffers against PMPI's; the root may
// spell the signature as `root_count` x `root_type`.
static void bcast_one(MPI_Comm comm, int it, MPI_Datatype type, int count, MPI_Datatype root_type, int root_count,
                      int root, const char* what) {
  static unsigned char got[kRoom], want[kRoom];
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int i = 0; i < kRoom; ++i) got[i] = want[i] = rank == root ? byte_of(rank, it, i) : (unsigned char)(0xa5 ^ i);
  const MPI_Datatype t = rank == root ? root_type : type;
  const int n = rank == root ? root_count : count;
  CHECK(MPI_Bcast(got + kOrigin, n, t, root, comm) == MPI_SUCCESS, "MPI_Bcast of %s failed", what);
  PMPI_Bcast(want + kOrigin, n, t, root, comm);
  CHECK(memcmp(got, want, kRoom) == 0, "MPI_Bcast of %d %s from rank %d: differs from MPI's", n, what, root);
}

// A ring (out-neighbour r+1, in-neighbour r-1), made from 2 ranks on (at 1, its own
// neighbour: hympi leaves that to MPI, tested elsewhere).
static MPI_Comm ring(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int in = (rank + size - 1) % size, out = (rank + 1) % size;
  const int weight = 1;  // (MPI_UNWEIGHTED is a zero-sized object to GCC's checks)
  MPI_Comm graph;
  MPI_Dist_graph_create_adjacent(comm, 1, &in, &weight, 1, &out, &weight, MPI_INFO_NULL, 0, &graph);
  return graph;
}

// MPI_Neighbor_alltoall and _alltoallv of `count` x `type` on `graph`, against PMPI's.
static void neighbor_one(MPI_Comm graph, int it, MPI_Datatype type, int count, const char* what) {
  static unsigned char send[kRoom], got[kRoom], want[kRoom];
  int rank;
  MPI_Comm_rank(graph, &rank);
  for (int i = 0; i < kRoom; ++i) send[i] = byte_of(rank, it, i), got[i] = want[i] = (unsigned char)(0x5a ^ i);
  CHECK(MPI_Neighbor_alltoall(send + kOrigin, count, type, got + kOrigin, count, type, graph) == MPI_SUCCESS,
        "MPI_Neighbor_alltoall of %s failed", what);
  PMPI_Neighbor_alltoall(send + kOrigin, count, type, want + kOrigin, count, type, graph);
  CHECK(memcmp(got, want, kRoom) == 0, "MPI_Neighbor_alltoall of %d %s: differs from MPI's", count, what);
  const int counts[1] = {count}, displs[1] = {0};
  for (int i = 0; i < kRoom; ++i) got[i] = want[i] = (unsigned char)(0x3c ^ i);
  CHECK(MPI_Neighbor_alltoallv(send + kOrigin, counts, displs, type, got + kOrigin, counts, displs, type, graph) ==
            MPI_SUCCESS, "MPI_Neighbor_alltoallv of %s failed", what);
  PMPI_Neighbor_alltoallv(send + kOrigin, counts, displs, type, want + kOrigin, counts, displs, type, graph);
  CHECK(memcmp(got, want, kRoom) == 0, "MPI_Neighbor_alltoallv of %d %s: differs from MPI's", count, what);
}

// Every type through the calls that move data.
static void moves(MPI_Comm comm, MPI_Comm graph, int it) {
  int size;
  MPI_Comm_size(comm, &size);
  const int root = it % size;
  for (int t = 0; t < kPredefined; ++t) {
    if (!usable(predefined[t].type)) continue;
    const int n = fitting(predefined[t].type, 1 + it % 5 * 13);
    bcast_one(comm, it, predefined[t].type, n, predefined[t].type, n, root, predefined[t].name);
    if (graph != MPI_COMM_NULL) neighbor_one(graph, it, predefined[t].type, n, predefined[t].name);
  }
  Derived d[kDerived];
  make_derived(d);
  for (int k = 0; k < kDerived; ++k) {
    const int n = fitting(d[k].type, 1 + it % 4 * 9);
    bcast_one(comm, it, d[k].type, n, d[k].type, n, root, d[k].name);
    if (graph != MPI_COMM_NULL) neighbor_one(graph, it, d[k].type, n, d[k].name);
  }
  // One signature, spelled differently on the root and on the others, both ways round.
  bcast_one(comm, it, MPI_INT, 4, d[0].type, 2, root, "2 indexed {1, 0} at the root, 4 MPI_INT elsewhere");
  bcast_one(comm, it, d[4].type, 2, MPI_INT, 6, root, "6 MPI_INT at the root, 2 vectors elsewhere");
  free_derived(d);
}

// Element i of rank r's contribution for `op` (v: a small integer that keeps sums and
// products exact in every type and every order).
static int small_value(int r, int it, int i, MPI_Op op) {
  if (op == MPI_PROD) return r == 0 && i % 3 == 0 ? 2 : 1;
  return (r * 5 + it * 3 + i) % 11 - 3;
}

// Writes v into one element of class `cls` and `size` bytes at p (floating MIN/MAX: a
// pattern of -0.0, +0.0, NaN and numbers by v).
static void write_value(const Type* t, int size, unsigned char* p, int v, MPI_Op op) {
  const int special = (op == MPI_MIN || op == MPI_MAX) && t->cls == FLOATING;
  switch (t->cls) {
    case INTEGER: {
      const int64_t x = v;
      memcpy(p, &x, (size_t)size);  // little-endian: the low bytes, sign kept in two's complement
      return;
    }
    case FLOATING: {
      double x = v / 4.0;
      if (special) {
        const int k = (v + 3) % 5;
        x = k == 0 ? -0.0 : k == 1 ? 0.0 : k == 2 ? NAN : k == 3 ? -x : x;
      }
      if (size == 4) {
        const float f = (float)x;
        memcpy(p, &f, 4);
      } else if (size == 8) {
        memcpy(p, &x, 8);
      } else {
        const long double l = x;
        memcpy(p, &l, sizeof l < (size_t)size ? sizeof l : (size_t)size);
      }
      return;
    }
    case COMPLEX: {
      const Type part = {MPI_DATATYPE_NULL, "", FLOATING, 0, 0};
      write_value(&part, size / 2, p, v, MPI_SUM);
      write_value(&part, size / 2, p + size / 2, -v, MPI_SUM);
      return;
    }
    case LOGICAL: {
      const int64_t x = v & 1;
      memcpy(p, &x, (size_t)size);
      return;
    }
    case BYTE:
    case NONE: *p = (unsigned char)v; return;
    case PAIR: {
      const int value_size = t->value_size < 0 ? -t->value_size : t->value_size;
      const Type value = {MPI_DATATYPE_NULL, "", t->value_size < 0 || value_size == 16 ? FLOATING
                                                 : t->type == MPI_FLOAT_INT || t->type == MPI_DOUBLE_INT ? FLOATING
                                                                                                          : INTEGER,
                          0, 0};
      write_value(&value, value_size, p, v, MPI_SUM);
      if (t->value_size < 0) write_value(&value, value_size, p + t->index_at, v + 7, MPI_SUM);
      else {
        const int index = v + 7;
        memcpy(p + t->index_at, &index, sizeof index);
      }
      return;
    }
  }
}

// The reduction operations MPI defines for a type of its class (the logical ones: C
// integers and logicals, not Fortran's INTEGER).
static int ops_of(const Type* t, MPI_Op ops[8]) {
  const Class cls = t->cls;
  const int fortran_integer = strncmp(t->name, "MPI_INTEGER", 11) == 0;
  int n = 0;
  if (cls == INTEGER || cls == FLOATING || cls == COMPLEX) ops[n++] = MPI_SUM, ops[n++] = MPI_PROD;
  if (cls == INTEGER || cls == FLOATING) ops[n++] = MPI_MIN, ops[n++] = MPI_MAX;
  if ((cls == INTEGER && !fortran_integer) || cls == LOGICAL) ops[n++] = MPI_LAND, ops[n++] = MPI_LXOR;
  if (cls == INTEGER || cls == BYTE) ops[n++] = MPI_BAND, ops[n++] = MPI_BXOR;
  if (cls == PAIR) ops[n++] = MPI_MINLOC, ops[n++] = MPI_MAXLOC;
  return n;
}

static const char* op_name(MPI_Op op) {
  return op == MPI_SUM ? "MPI_SUM" : op == MPI_PROD ? "MPI_PROD" : op == MPI_MIN ? "MPI_MIN" : op == MPI_MAX ? "MPI_MAX"
       : op == MPI_MINLOC ? "MPI_MINLOC" : op == MPI_MAXLOC ? "MPI_MAXLOC" : "a logical or bitwise op";
}

// Every predefined type with each op MPI defines for it, MPI_Allreduce (also in place) and
// MPI_Reduce, against PMPI's (poisoned buffers, the gaps of pair types included).
static void reductions(MPI_Comm comm, int it) {
  static unsigned char in[kRoom], got[kRoom], want[kRoom];
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int root = (it + 1) % size;
  for (int t = 0; t < kPredefined; ++t) {
    const Type* type = &predefined[t];
    MPI_Op ops[8];
    const int nops = ops_of(type, ops);
    if (!nops || !usable(type->type)) continue;
    MPI_Aint lb, extent;
    MPI_Type_get_extent(type->type, &lb, &extent);
    int tsize;
    MPI_Type_size(type->type, &tsize);
    const int n = 1 + (it * 7 + t) % 24;
    for (int o = 0; o < nops; ++o) {
      memset(in, 0, sizeof in);
      for (int i = 0; i < n; ++i)
        write_value(type, type->cls == COMPLEX ? tsize : (int)(type->cls == PAIR ? extent : tsize), in + i * extent,
                    small_value(rank, it, i, ops[o]), ops[o]);
      memset(got, 0x5a, sizeof got);
      memset(want, 0x5a, sizeof want);
      CHECK(MPI_Allreduce(in, got, n, type->type, ops[o], comm) == MPI_SUCCESS, "MPI_Allreduce %s failed", type->name);
      PMPI_Allreduce(in, want, n, type->type, ops[o], comm);
      CHECK(memcmp(got, want, kRoom) == 0, "MPI_Allreduce of %d %s with %s: differs from MPI's", n, type->name,
            op_name(ops[o]));
      memcpy(got, in, kRoom);
      memcpy(want, in, kRoom);
      CHECK(MPI_Allreduce(MPI_IN_PLACE, got, n, type->type, ops[o], comm) == MPI_SUCCESS, "in place failed");
      PMPI_Allreduce(MPI_IN_PLACE, want, n, type->type, ops[o], comm);
      CHECK(memcmp(got, want, kRoom) == 0, "MPI_Allreduce(MPI_IN_PLACE) of %d %s with %s: differs", n, type->name,
            op_name(ops[o]));
      memset(got, 0x5a, sizeof got);
      memset(want, 0x5a, sizeof want);
      CHECK(MPI_Reduce(in, got, n, type->type, ops[o], root, comm) == MPI_SUCCESS, "MPI_Reduce %s failed",
            type->name);
      PMPI_Reduce(in, want, n, type->type, ops[o], root, comm);
      CHECK(memcmp(got, want, kRoom) == 0, "MPI_Reduce of %d %s with %s to rank %d: differs from MPI's", n,
            type->name, op_name(ops[o]), root);
    }
  }
}

static void check_mode(void) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);  // MPI_Type_size of a missing type
  int size;
  MPI_Comm_size(dup, &size);
  MPI_Comm graph = size >= 2 ? ring(dup) : MPI_COMM_NULL;
  const int rounds = test_iterations();
  for (int it = 0; it < rounds; ++it) {
    moves(dup, graph, it);
    reductions(dup, it);
  }
  if (graph != MPI_COMM_NULL) MPI_Comm_free(&graph);
  MPI_Comm_free(&dup);
}

typedef struct {
  double value;
  int index;
} DoubleInt;

static void pairs_mode(void) {
  DoubleInt data[64];
  for (int call = 0; call < 1100; ++call) {
    for (int i = 0; i < 64; ++i) {
      data[i].value = world_rank == 0 ? call + i / 8.0 : -1.0;
      data[i].index = world_rank == 0 ? call * 64 + i : -1;
    }
    CHECK(MPI_Bcast(data, 64, MPI_DOUBLE_INT, 0, MPI_COMM_WORLD) == MPI_SUCCESS, "MPI_Bcast failed");
    for (int i = 0; i < 64; ++i)
      CHECK(data[i].value == call + i / 8.0 && data[i].index == call * 64 + i,
            "call %d, element %d: {%g, %d}, expected {%g, %d}", call, i, data[i].value, data[i].index,
            call + i / 8.0, call * 64 + i);
  }
}

static void unserved_mode(void) {
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  for (int call = 0; call < 1100; ++call) {
    unsigned in[4], out[4];
    for (int i = 0; i < 4; ++i) in[i] = (unsigned)(world_rank + call + i);
    CHECK(MPI_Allreduce(in, out, 4, MPI_UNSIGNED, MPI_SUM, dup) == MPI_SUCCESS, "MPI_Allreduce failed");
    int size;
    MPI_Comm_size(dup, &size);
    for (int i = 0; i < 4; ++i)
      CHECK(out[i] == (unsigned)(size * (call + i) + size * (size - 1) / 2), "call %d: %u", call, out[i]);
  }
  MPI_Comm_free(&dup);
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  if (strcmp(mode, "check") == 0) check_mode();
  else if (strcmp(mode, "pairs") == 0) pairs_mode();
  else if (strcmp(mode, "unserved") == 0) unserved_mode();
  else CHECK(0, "unknown mode '%s'", mode);
  return end_test("test_pmpi_types", mode);
}
