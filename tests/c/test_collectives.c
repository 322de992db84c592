/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API's context and collectives against plain MPI: version, error strings, names,
 * options, topology information, the context's communicators (C and Fortran handles), and
 * allreduce / reduce / bcast / barrier for every type and operation, several roots, in
 * place and not, with data and counts that change over many consecutive calls. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"

static void check_version_and_strings(void) {
  int major = -1, minor = -1, patch = -1;
  hympi_version(&major, &minor, &patch);
  CHECK(major == HYMPI_VERSION_MAJOR && minor == HYMPI_VERSION_MINOR && patch == HYMPI_VERSION_PATCH);
  CHECK(strncmp(hympi_error_string(HYMPI_SUCCESS), "HYMPI_SUCCESS", 13) == 0);
  CHECK(strncmp(hympi_error_string(HYMPI_ERR_USAGE), "HYMPI_ERR_USAGE", 15) == 0);
  CHECK(strncmp(hympi_error_string(HYMPI_ERR_ARGUMENT), "HYMPI_ERR_ARGUMENT", 18) == 0);
  CHECK(strncmp(hympi_error_string(HYMPI_ERR_NO_MEMORY), "HYMPI_ERR_NO_MEMORY", 19) == 0);
  CHECK(strncmp(hympi_error_string(HYMPI_ERR_INTERNAL), "HYMPI_ERR_INTERNAL", 18) == 0);
  CHECK(strstr(hympi_error_string(99), "unknown") != NULL);
}

static void check_names(void) {
  static const char* const strategies[] = {"shm", "shm_direct", "flat_mpi", "neighbor", "rma_fence",
                                           "rma_pscw", "rma_lock", "rma_lock_target", "aggregated", "aggregated_odm",
                                           "automatic"};
  for (int s = HYMPI_STRATEGY_SHM; s <= HYMPI_STRATEGY_AUTOMATIC; ++s) {
    CHECK(strcmp(hympi_strategy_name((hympi_strategy)s), strategies[s]) == 0);
    hympi_strategy parsed = HYMPI_STRATEGY_AUTOMATIC;
    CHECK_OK(hympi_strategy_from_name(strategies[s], &parsed));
    CHECK((int)parsed == s);
  }
  static const char* const stencils[] = {"star5", "box9", "star7", "star19", "box27"};
  static const char* const points[] = {"5", "9", "7", "19", "27"};
  for (int s = HYMPI_STENCIL_STAR5; s <= HYMPI_STENCIL_BOX27; ++s) {
    CHECK(strcmp(hympi_stencil_name((hympi_stencil)s), stencils[s]) == 0);
    hympi_stencil a = HYMPI_STENCIL_BOX27, b = HYMPI_STENCIL_BOX27;
    CHECK_OK(hympi_stencil_from_name(stencils[s], &a));
    CHECK_OK(hympi_stencil_from_name(points[s], &b));
    CHECK((int)a == s && (int)b == s);
  }
  CHECK(strcmp(hympi_datatype_name(HYMPI_FLOAT64), "double") == 0);
  CHECK(strcmp(hympi_datatype_name(HYMPI_INT32), "int32") == 0);
  CHECK(strcmp(hympi_op_name(HYMPI_MAX), "max") == 0);
  CHECK(strcmp(hympi_strategy_name((hympi_strategy)11), "unknown") == 0);
  CHECK(strcmp(hympi_stencil_name((hympi_stencil)-1), "unknown") == 0);
  CHECK(strcmp(hympi_datatype_name((hympi_datatype)4), "unknown") == 0);
  CHECK(strcmp(hympi_op_name((hympi_op)4), "unknown") == 0);
}

static void check_options(void) {
  hympi_options o;
  memset(&o, 0x5a, sizeof o);
  CHECK_OK(hympi_options_default(&o));
  CHECK(o.node_size == 0 && o.wait == HYMPI_WAIT_ADAPTIVE && o.timeout_s == 600.0 && o.tree == HYMPI_TREE_KARY &&
        o.tree_arity == 4 && o.topology_aware == 1 && o.barrier == HYMPI_BARRIER_DISSEMINATION &&
        o.orders == HYMPI_ORDERS_TUNED && o.collective_buffer_bytes == 256 * 1024 && o.verify == 1 &&
        o.single_copy_bytes == 1024 * 1024);

  char text[256];
  size_t length = 0;
  CHECK_OK(hympi_options_describe(&o, text, sizeof text, &length));
  CHECK(strcmp(text, "node_size=physical wait=adaptive timeout=600s tree=kary:4 barrier=dissemination orders=tuned "
                     "coll_buffer=262144 verify=on single_copy=1048576") == 0);
  CHECK(length == strlen(text));
  char small[10];
  size_t full = 0;
  CHECK_OK(hympi_options_describe(&o, small, sizeof small, &full));
  CHECK(strcmp(small, "node_size") == 0 && full == length);
  full = 0;
  CHECK_OK(hympi_options_describe(&o, NULL, 0, &full));
  CHECK(full == length);

  o.wait = HYMPI_WAIT_YIELD;
  o.tree = HYMPI_TREE_BINOMIAL;
  o.barrier = HYMPI_BARRIER_COUNTER_FLAT;
  o.orders = HYMPI_ORDERS_SEQ_CST;
  o.node_size = 3;
  o.verify = 0;
  o.timeout_s = 30;
  o.collective_buffer_bytes = 4096;
  o.single_copy_bytes = 4096;
  CHECK_OK(hympi_options_describe(&o, text, sizeof text, NULL));
  CHECK(strcmp(text, "node_size=3 wait=yield timeout=30s tree=binomial barrier=counter_flat orders=seq_cst "
                     "coll_buffer=4096 verify=off single_copy=4096") == 0);

  /* ctest sets HYMPI_TIMEOUT (and HYMPI_NODE_SIZE for emulated nodes). */
  CHECK_OK(hympi_options_from_env(&o));
  CHECK(o.timeout_s == (double)c_test_env("HYMPI_TIMEOUT", 600));
  CHECK(o.node_size == (int)c_test_env("HYMPI_NODE_SIZE", 0));
  CHECK(o.wait == HYMPI_WAIT_ADAPTIVE);
}

static int same_options(const hympi_options* a, const hympi_options* b) {
  return a->node_size == b->node_size && a->wait == b->wait && a->timeout_s == b->timeout_s && a->tree == b->tree &&
         a->tree_arity == b->tree_arity && a->topology_aware == b->topology_aware && a->barrier == b->barrier &&
         a->orders == b->orders && a->collective_buffer_bytes == b->collective_buffer_bytes && a->verify == b->verify;
}

/* Topology information and the communicators against plain MPI. */
static void check_topology(hympi_context ctx) {
  hympi_topology_info t;
  CHECK_OK(hympi_context_topology(ctx, &t));
  const int size = c_test_size_of_world();
  CHECK(t.world_rank == c_test_rank() && t.world_size == size);
  int* node_of = malloc(sizeof(int) * (size_t)size);
  MPI_Allgather(&t.node_index, 1, MPI_INT, node_of, 1, MPI_INT, MPI_COMM_WORLD);
  int nodes = 0, same = 0, before = 0;
  for (int r = 0; r < size; ++r) {
    if (node_of[r] + 1 > nodes) nodes = node_of[r] + 1;
    same += node_of[r] == t.node_index;
    before += node_of[r] == t.node_index && r < t.world_rank;
  }
  CHECK(t.node_count == nodes && t.node_size == same && t.node_rank == before);
  const long emulated = c_test_env("HYMPI_NODE_SIZE", 0);
  CHECK(t.emulated == (emulated > 0));
  if (emulated > 0) CHECK(t.node_size <= emulated && t.domain_size >= t.node_size);
  CHECK(t.domain_size >= t.node_size && (t.oversubscribed == 0 || t.oversubscribed == 1));
  free(node_of);

  MPI_Comm world, node, leaders;
  MPI_Fint world_f, node_f, leaders_f;
  int compared = -1, n = -1, r = -1;
  CHECK_OK(hympi_context_comm(ctx, HYMPI_COMM_WORLD, &world));
  CHECK_OK(hympi_context_comm(ctx, HYMPI_COMM_NODE, &node));
  CHECK_OK(hympi_context_comm(ctx, HYMPI_COMM_LEADERS, &leaders));
  CHECK_OK(hympi_context_comm_f(ctx, HYMPI_COMM_WORLD, &world_f));
  CHECK_OK(hympi_context_comm_f(ctx, HYMPI_COMM_NODE, &node_f));
  CHECK_OK(hympi_context_comm_f(ctx, HYMPI_COMM_LEADERS, &leaders_f));
  MPI_Comm_compare(world, MPI_COMM_WORLD, &compared);
  CHECK(compared == MPI_CONGRUENT);
  MPI_Comm_compare(MPI_Comm_f2c(world_f), world, &compared);
  CHECK(compared == MPI_IDENT);
  MPI_Comm_size(node, &n);
  MPI_Comm_rank(node, &r);
  CHECK(n == t.node_size && r == t.node_rank);
  MPI_Comm_compare(MPI_Comm_f2c(node_f), node, &compared);
  CHECK(compared == MPI_IDENT);
  CHECK((leaders != MPI_COMM_NULL) == (t.node_rank == 0));
  CHECK((MPI_Comm_f2c(leaders_f) == MPI_COMM_NULL) == (leaders == MPI_COMM_NULL));
  if (leaders != MPI_COMM_NULL) {
    MPI_Comm_size(leaders, &n);
    MPI_Comm_rank(leaders, &r);
    CHECK(n == t.node_count && r == t.node_index);
  }
}

/* Element i of rank `rank`'s input at call `call`: small integers (exact in every type and
 * every summation order); for prod only 1, 2 and -1, so products stay small. */
static int64_t input(int rank, long call, size_t i, hympi_op op) {
  const int64_t mix = (int64_t)((size_t)rank * 31 + (size_t)call * 7 + i * 13);
  if (op == HYMPI_PROD) return mix % 5 == 0 ? -1 : 1 + mix % 2;
  return mix % 41 - 20;
}

static MPI_Op mpi_op(hympi_op op) {
  return op == HYMPI_SUM ? MPI_SUM : op == HYMPI_PROD ? MPI_PROD : op == HYMPI_MIN ? MPI_MIN : MPI_MAX;
}

enum { MAX_COUNT = 3000 };

/* `calls` consecutive allreduce / reduce / bcast calls, each checked against MPI's. */
static void check_collectives(hympi_context ctx, long calls) {
  static const size_t counts[] = {1, 0, 3, 17, 250, 1, 2999, 64};
  const int rank = c_test_rank(), size = c_test_size_of_world();
  char* in = malloc(MAX_COUNT * 8);
  char* out = malloc(MAX_COUNT * 8);
  char* expected = malloc(MAX_COUNT * 8);
  for (long call = 0; call < calls; ++call) {
    const hympi_datatype type = (hympi_datatype)(call % 4);
    const hympi_op op = (hympi_op)((call / 4) % 4);
    const size_t count = counts[(size_t)call % (sizeof counts / sizeof counts[0])];
    const size_t bytes = count * c_test_size(type);
    const int root = (int)((call / 3) % size);
    const int in_place = call % 3 == 1;
    for (size_t i = 0; i < count; ++i) c_test_put(in, type, i, input(rank, call, i, op));

    /* allreduce, in place every third call */
    MPI_Allreduce(in, expected, (int)count, c_test_mpi_type(type), mpi_op(op), MPI_COMM_WORLD);
    memset(out, 0x7f, bytes);
    if (in_place) {
      memcpy(out, in, bytes);
      CHECK_OK(hympi_allreduce(ctx, out, out, count, type, op));
    } else {
      CHECK_OK(hympi_allreduce(ctx, count ? in : NULL, count ? out : NULL, count, type, op));
    }
    CHECK(memcmp(out, expected, bytes) == 0);

    /* reduce to a root that moves; out may be NULL off the root */
    MPI_Reduce(in, expected, (int)count, c_test_mpi_type(type), mpi_op(op), root, MPI_COMM_WORLD);
    memset(out, 0x7f, bytes);
    if (in_place) memcpy(out, in, bytes);
    CHECK_OK(hympi_reduce(ctx, in_place ? out : in, rank == root || in_place ? out : NULL, count, type, op, root));
    if (rank == root) CHECK(memcmp(out, expected, bytes) == 0);

    /* bcast from a root that moves */
    for (size_t i = 0; i < count; ++i) c_test_put(out, type, i, rank == root ? input(root, call, i, op) : 99);
    CHECK_OK(hympi_bcast(ctx, out, count, type, root));
    for (size_t i = 0; i < count; ++i) CHECK(c_test_get(out, type, i) == input(root, call, i, op));

    if (call % 16 == 0) CHECK_OK(hympi_barrier(ctx));
  }
  free(in);
  free(out);
  free(expected);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  check_version_and_strings();
  check_names();
  check_options();

  hympi_context ctx = NULL;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  check_topology(ctx);
  check_collectives(ctx, c_test_env("HYMPI_TEST_ITERATIONS", 200));

  /* Explicit options, and a second context from a Fortran handle. */
  hympi_options o, back;
  CHECK_OK(hympi_options_from_env(&o));
  o.tree = HYMPI_TREE_BINOMIAL;
  o.barrier = HYMPI_BARRIER_COUNTER_TREE;
  o.collective_buffer_bytes = 256;
  hympi_context second = NULL;
  CHECK_OK(hympi_context_create_f(MPI_Comm_c2f(MPI_COMM_WORLD), &o, &second));
  CHECK_OK(hympi_context_options(second, &back));
  CHECK(same_options(&o, &back));
  check_collectives(second, 16); /* every type and operation once */
  CHECK_OK(hympi_context_free(&second));
  CHECK(second == NULL);

  CHECK_OK(hympi_context_free(&ctx));
  CHECK(ctx == NULL);
  CHECK_OK(hympi_context_free(&ctx)); /* a NULL handle: nothing to do */
  const int status = c_test_finish("collectives");
  MPI_Finalize();
  return status;
}
