/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API's error model: an argument only this rank sees is wrong (a NULL handle or
 * pointer, an unknown enum value or name) -> HYMPI_ERR_ARGUMENT with a message naming the
 * function and the argument: in a collective set-up on every rank (naming the ranks), else
 * on that rank alone, before any communication; the buffers, types and ops of the
 * collectives and arguments that differ between ranks -> HYMPI_ERR_USAGE with the same
 * message on every rank; Halo calls out of order -> HYMPI_ERR_USAGE on the rank that made
 * them, and the update is refused (every later call of that Halo fails until it is freed).
 * After each other error the objects still work. */
#define _POSIX_C_SOURCE 200112L /* setenv */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"

static int g_rank, g_size;

/* `code` is HYMPI_ERR_USAGE with a message containing `part`, the same on every rank. */
static void expect_collective_error(int code, const char* part, int line) {
  c_test_error(code, HYMPI_ERR_USAGE, part, __FILE__, line, "collective error");
  c_test_same_everywhere(hympi_last_error_message(), __FILE__, line);
}

/* A line of ranks exchanging one point with each side (local points: mine, left, right). */
static int line_pattern(hympi_context ctx, hympi_pattern* pattern) {
  int send = 0, recv_left = 1, recv_right = 2;
  hympi_neighbor_lists lists[2];
  int count = 0;
  if (g_rank > 0) lists[count++] = (hympi_neighbor_lists){g_rank - 1, 1, &send, 1, &recv_left};
  if (g_rank + 1 < g_size) lists[count++] = (hympi_neighbor_lists){g_rank + 1, 1, &send, 1, &recv_right};
  return hympi_pattern_from_lists(ctx, 3, count, lists, 1, HYMPI_FLOAT64, pattern);
}

/* One update of the line pattern moves every neighbour's value. */
static void expect_update_works(hympi_halo halo, double t) {
  double v[3] = {g_rank + t, -1, -1};
  void* vectors[1] = {v};
  CHECK_OK(hympi_halo_update(halo, 1, vectors));
  CHECK(v[1] == (g_rank > 0 ? g_rank - 1 + t : -1) && v[2] == (g_rank + 1 < g_size ? g_rank + 1 + t : -1));
}

static void argument_errors(hympi_context ctx) {
  double in[2] = {1, 2}, out[2];
  hympi_topology_info info;
  CHECK_ERROR(hympi_barrier(NULL), HYMPI_ERR_ARGUMENT, "hympi_barrier: argument 'context' is NULL");
  CHECK_ERROR(hympi_context_topology(ctx, NULL), HYMPI_ERR_ARGUMENT, "hympi_context_topology: argument 'info' is NULL");
  CHECK_ERROR(hympi_context_topology(NULL, &info), HYMPI_ERR_ARGUMENT, "argument 'context' is NULL");
  CHECK_ERROR(hympi_allreduce(NULL, in, out, 2, HYMPI_FLOAT64, HYMPI_SUM), HYMPI_ERR_ARGUMENT,
              "hympi_allreduce: argument 'context' is NULL");
  MPI_Comm comm;
  CHECK_ERROR(hympi_context_comm(ctx, (hympi_comm_kind)3, &comm), HYMPI_ERR_ARGUMENT,
              "argument 'kind' is 3; valid: 0 .. 2 (HYMPI_COMM_WORLD .. HYMPI_COMM_LEADERS)");
  CHECK_ERROR(hympi_context_comm_f(ctx, HYMPI_COMM_NODE, NULL), HYMPI_ERR_ARGUMENT, "argument 'comm' is NULL");

  hympi_strategy strategy;
  hympi_stencil stencil;
  CHECK_ERROR(hympi_strategy_from_name("fast", &strategy), HYMPI_ERR_ARGUMENT,
              "hympi_strategy_from_name: hympi: unknown ghost-update strategy 'fast'; valid: shm, shm_direct, ");
  CHECK_ERROR(hympi_stencil_from_name("star6", &stencil), HYMPI_ERR_ARGUMENT, "unknown stencil 'star6'; valid: star5");
  CHECK_ERROR(hympi_stencil_from_name(NULL, &stencil), HYMPI_ERR_ARGUMENT, "argument 'name' is NULL");
  CHECK_ERROR(hympi_strategy_from_name("shm", NULL), HYMPI_ERR_ARGUMENT, "is NULL");

  /* Options: every field is checked; the handle is NULL after a failed create. */
  hympi_options o;
  CHECK_OK(hympi_options_from_env(&o));
  o.wait = 9;
  hympi_context other = ctx;
  CHECK_ERROR(hympi_context_create(MPI_COMM_WORLD, &o, &other), HYMPI_ERR_ARGUMENT,
              "hympi_context_create: argument 'options->wait' is 9; valid: 0 .. 3");
  CHECK(other == NULL);
  CHECK_OK(hympi_options_from_env(&o));
  o.tree_arity = 17;
  CHECK_ERROR(hympi_context_create(MPI_COMM_WORLD, &o, &other), HYMPI_ERR_ARGUMENT, "'options->tree_arity' is 17");
  CHECK_OK(hympi_options_from_env(&o));
  o.collective_buffer_bytes = 8;
  CHECK_ERROR(hympi_options_describe(&o, NULL, 0, NULL), HYMPI_ERR_ARGUMENT, "'options->collective_buffer_bytes' is 8");
  CHECK_OK(hympi_options_from_env(&o));
  CHECK_ERROR(hympi_options_describe(&o, NULL, 5, NULL), HYMPI_ERR_ARGUMENT, "argument 'text' is NULL");
  CHECK_ERROR(hympi_context_create(MPI_COMM_NULL, NULL, &other), HYMPI_ERR_ARGUMENT, "'comm' is MPI_COMM_NULL");
  CHECK_ERROR(hympi_context_create(MPI_COMM_WORLD, NULL, NULL), HYMPI_ERR_ARGUMENT, "argument 'context' is NULL");

  /* Malformed environment: HYMPI_ERR_USAGE naming the variable. */
  setenv("HYMPI_WAIT", "fast", 1);
  CHECK_ERROR(hympi_options_from_env(&o), HYMPI_ERR_USAGE, "HYMPI_WAIT='fast' is not valid: it takes adaptive");
  unsetenv("HYMPI_WAIT");

  /* Handles: free accepts a NULL handle, not a NULL pointer to one. */
  hympi_pattern pattern = NULL;
  hympi_halo halo = NULL;
  hympi_grid grid = NULL;
  CHECK_OK(hympi_pattern_free(&pattern));
  CHECK_OK(hympi_halo_free(&halo));
  CHECK_OK(hympi_grid_free(&grid));
  CHECK_ERROR(hympi_context_free(NULL), HYMPI_ERR_ARGUMENT, "hympi_context_free: argument 'context' is NULL");
  CHECK_ERROR(hympi_halo_update(NULL, 0, NULL), HYMPI_ERR_ARGUMENT, "argument 'halo' is NULL");
  CHECK_ERROR(hympi_pattern_info(NULL, NULL, NULL, NULL, NULL), HYMPI_ERR_ARGUMENT, "argument 'pattern' is NULL");
  CHECK_ERROR(hympi_grid_block(NULL, NULL), HYMPI_ERR_ARGUMENT, "argument 'grid' is NULL");

  CHECK_OK(line_pattern(ctx, &pattern));
  hympi_neighbor_lists lists;
  CHECK_ERROR(hympi_pattern_neighbor(pattern, 2, &lists), HYMPI_ERR_ARGUMENT, "hympi_pattern_neighbor: argument 'n' is 2");
  CHECK_ERROR(hympi_halo_create(pattern, (hympi_strategy)11, 1, HYMPI_MODE_VECTORS, &halo), HYMPI_ERR_ARGUMENT,
              "argument 'strategy' is 11; valid: 0 .. 10 (HYMPI_STRATEGY_SHM .. HYMPI_STRATEGY_AUTOMATIC)");
  CHECK_ERROR(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, (hympi_halo_mode)2, &halo), HYMPI_ERR_ARGUMENT,
              "argument 'mode' is 2");
  hympi_pattern bad = pattern;
  CHECK_ERROR(hympi_pattern_from_lists(ctx, 3, 1, NULL, 1, HYMPI_FLOAT64, &bad), HYMPI_ERR_ARGUMENT,
              "argument 'neighbors' is NULL");
  CHECK(bad == NULL); /* a failed call leaves a NULL handle */
  const int global[2] = {8, 8};
  CHECK_ERROR(hympi_grid_create(ctx, 2, global, (hympi_stencil)5, 1, 0, 1, HYMPI_FLOAT64, &grid), HYMPI_ERR_ARGUMENT,
              "hympi_grid_create: argument 'stencil' is 5");
  CHECK_ERROR(hympi_grid_create(ctx, 2, NULL, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid), HYMPI_ERR_ARGUMENT,
              "argument 'global' is NULL");
  CHECK_OK(hympi_pattern_free(&pattern));
}

static void collective_errors(hympi_context ctx) {
  double in[3] = {1, 2, 3}, out[3];
  const int last = g_rank == g_size - 1;
  /* A root that is no rank, on every rank. */
  char expected[80];
  snprintf(expected, sizeof expected, "hympi: root %d is not a rank of the communicator", g_size);
  expect_collective_error(hympi_bcast(ctx, in, 3, HYMPI_FLOAT64, g_size), expected, __LINE__);
  expect_collective_error(hympi_reduce(ctx, in, out, 3, HYMPI_FLOAT64, HYMPI_SUM, -1), "hympi: root -1", __LINE__);

  /* A type or op that is none, a NULL buffer: on every rank, then on the last rank only.
   * The call fails on every rank naming a rank that got it wrong, and moves no data. */
  expect_collective_error(hympi_allreduce(ctx, in, out, 2, (hympi_datatype)9, HYMPI_SUM),
                          "called allreduce(count=2, unknown-type, sum) with a type that is none of", __LINE__);
  expect_collective_error(hympi_allreduce(ctx, in, out, 2, HYMPI_FLOAT64, (hympi_op)-1),
                          "with an op that is none of sum, prod, min, max", __LINE__);
  expect_collective_error(hympi_bcast(ctx, in, 2, (hympi_datatype)4, 0), "called bcast(count=2, unknown-type, root=0)",
                          __LINE__);
  expect_collective_error(hympi_reduce(ctx, in, g_rank == 0 ? NULL : out, 2, HYMPI_FLOAT64, HYMPI_SUM, 0),
                          "hympi: rank 0 called reduce(count=2, double, sum, root=0) with a null output buffer", __LINE__);
  char named[120];
  out[0] = out[1] = -7;
  snprintf(named, sizeof named, "hympi: rank %d called allreduce(count=2, double, unknown-op) with an op", g_size - 1);
  expect_collective_error(hympi_allreduce(ctx, in, out, 2, HYMPI_FLOAT64, last ? (hympi_op)7 : HYMPI_SUM), named,
                          __LINE__);
  CHECK(out[0] == -7 && out[1] == -7); /* no data moved */
  snprintf(named, sizeof named, "hympi: rank %d called allreduce(count=2, double, sum) with a null input buffer",
           g_size - 1);
  expect_collective_error(hympi_allreduce(ctx, last ? NULL : in, out, 2, HYMPI_FLOAT64, HYMPI_SUM), named, __LINE__);
  snprintf(named, sizeof named, "hympi: rank %d called bcast(count=3, unknown-type, root=0)", g_size - 1);
  expect_collective_error(hympi_bcast(ctx, in, 3, last ? (hympi_datatype)300 : HYMPI_FLOAT64, 0), named, __LINE__);

  hympi_pattern pattern = NULL;
  CHECK_OK(line_pattern(ctx, &pattern));
  if (g_size >= 2) {
    /* A different count, op or type on the last rank. */
    expect_collective_error(hympi_allreduce(ctx, in, out, last ? 2 : 3, HYMPI_FLOAT64, HYMPI_SUM),
                            "hympi: ranks called a collective with different arguments: ", __LINE__);
    expect_collective_error(hympi_allreduce(ctx, in, out, 3, HYMPI_FLOAT64, last ? HYMPI_MAX : HYMPI_SUM),
                            "hympi: ranks called a collective with different arguments: ", __LINE__);
    /* A different strategy or field count on the last rank. */
    hympi_halo halo = NULL;
    expect_collective_error(
        hympi_halo_create(pattern, last ? HYMPI_STRATEGY_FLAT_MPI : HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &halo),
        "hympi: Halo: ranks passed different strategy: ", __LINE__);
    CHECK(halo == NULL);
    expect_collective_error(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, last ? 2 : 1, HYMPI_MODE_VECTORS, &halo),
                            "hympi: Halo: ranks passed different field count: ", __LINE__);
    /* Lists that do not match: rank 0 expects two points from rank 1, which sends one. */
    int send = 0, recv[2] = {1, 2};
    hympi_neighbor_lists lists = {g_rank == 0 ? 1 : 0, 1, &send, g_rank == 0 ? 2 : 1, recv};
    hympi_pattern bad = NULL;
    expect_collective_error(hympi_pattern_from_lists(ctx, 3, g_rank < 2 ? 1 : 0, &lists, 1, HYMPI_FLOAT64, &bad),
                            "hympi: ", __LINE__);
    CHECK(bad == NULL);
    /* A grid of different extents on the last rank. */
    const int global[2] = {8, last ? 9 : 8};
    hympi_grid grid = NULL;
    expect_collective_error(hympi_grid_create(ctx, 2, global, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid),
                            "hympi: CartesianGrid: ranks passed different y extent: ", __LINE__);
    CHECK(grid == NULL);
  }
  /* Extents that do not fit the stencil, on every rank. */
  const int global[3] = {8, 8, 8};
  hympi_grid grid = NULL;
  expect_collective_error(hympi_grid_create(ctx, 3, global, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid),
                          "hympi: CartesianGrid: the stencil star5 needs 2 grid extents, got 3", __LINE__);

  /* Halo calls out of order (here on every rank, after a barrier: a rank that is still in an
   * earlier update would find another's refusal there): the error on the rank that makes
   * them, which refuses the update; every later call fails, naming a rank that refused (its
   * message holds the same reason), until the Halo is freed (tests/mpi's misuse tests put
   * the mistake on one rank). */
  static const hympi_strategy strategies[] = {HYMPI_STRATEGY_SHM, HYMPI_STRATEGY_FLAT_MPI, HYMPI_STRATEGY_AGGREGATED,
                                              HYMPI_STRATEGY_RMA_PSCW};
  const char* refused = "could not take part in a ghost update";
  for (int s = 0; s < 4; ++s) {
    double v[3] = {0, 0, 0};
    void* vectors[2] = {v, v};
    hympi_halo halo = NULL;
    CHECK_OK(hympi_halo_create(pattern, strategies[s], 1, HYMPI_MODE_VECTORS, &halo));
    for (int t = 0; t < 20; ++t) expect_update_works(halo, t);
    CHECK_OK(hympi_barrier(ctx));
    CHECK_ERROR(hympi_halo_end(halo, 1, vectors), HYMPI_ERR_USAGE,
                "hympi: Halo::end(vectors) out of order: no update is in flight");
    CHECK_ERROR(hympi_halo_update(halo, 1, vectors), HYMPI_ERR_USAGE, refused);
    CHECK_OK(hympi_halo_free(&halo));
    CHECK_OK(hympi_halo_create(pattern, strategies[s], 1, HYMPI_MODE_VECTORS, &halo));
    CHECK_OK(hympi_halo_begin(halo, 1, vectors));
    CHECK_OK(hympi_barrier(ctx));
    CHECK_ERROR(hympi_halo_begin(halo, 1, vectors), HYMPI_ERR_USAGE, "out of order: an update is in flight");
    CHECK_ERROR(hympi_halo_end(halo, 1, vectors), HYMPI_ERR_USAGE, refused);
    CHECK_OK(hympi_halo_free(&halo));
    CHECK_OK(hympi_halo_create(pattern, strategies[s], 1, HYMPI_MODE_VECTORS, &halo));
    void* shared = NULL;
    CHECK_ERROR(hympi_halo_shared_field(halo, 0, &shared), HYMPI_ERR_USAGE, "hympi: Halo::shared_field() is for shm_direct");
    for (int t = 0; t < 20; ++t) expect_update_works(halo, t); /* a local mistake: no update refused */
    CHECK_OK(hympi_barrier(ctx));
    CHECK_ERROR(hympi_halo_acquire(halo), HYMPI_ERR_USAGE, "hympi: Halo::acquire() is for a Halo in HaloMode::buffers");
    CHECK_ERROR(hympi_halo_update(halo, 1, vectors), HYMPI_ERR_USAGE, refused);
    CHECK_OK(hympi_halo_free(&halo));
  }
  /* Buffers mode: the buffer accessors' mistakes are this rank's alone; begin_buffers()
   * out of order refuses the update. */
  hympi_halo halo = NULL;
  CHECK_OK(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_BUFFERS, &halo));
  void* data = NULL;
  size_t elements = 0;
  CHECK_ERROR(hympi_halo_send_buffer(halo, 0, NULL, &elements), HYMPI_ERR_ARGUMENT, "argument 'data' is NULL");
  CHECK_OK(hympi_halo_acquire(halo));
  CHECK_ERROR(hympi_halo_send_buffer(halo, 5, &data, &elements), HYMPI_ERR_USAGE, "hympi: Halo buffer of neighbour 5");
  CHECK_OK(hympi_halo_begin_buffers(halo));
  CHECK_OK(hympi_halo_end_buffers(halo));
  CHECK_OK(hympi_barrier(ctx));
  CHECK_ERROR(hympi_halo_begin_buffers(halo), HYMPI_ERR_USAGE, "hympi: Halo::begin_buffers() out of order");
  CHECK_ERROR(hympi_halo_acquire(halo), HYMPI_ERR_USAGE, refused);
  CHECK_OK(hympi_halo_free(&halo));
  CHECK_OK(hympi_pattern_free(&pattern));

  /* The context still works. */
  double x = g_rank + 1.0, sum = 0;
  CHECK_OK(hympi_allreduce(ctx, &x, &sum, 1, HYMPI_FLOAT64, HYMPI_SUM));
  CHECK(sum == g_size * (g_size + 1) / 2.0);
}

/* `code` is HYMPI_ERR_ARGUMENT with `part` and `who` (the refusing ranks) in its message,
 * the same on every rank. */
static void expect_refused(int code, const char* part, const char* who, int line) {
  c_test_error(code, HYMPI_ERR_ARGUMENT, part, __FILE__, line, "set-up refused");
  c_test_error(code, HYMPI_ERR_ARGUMENT, who, __FILE__, line, "set-up refused: the ranks");
  c_test_same_everywhere(hympi_last_error_message(), __FILE__, line);
}

/* Collective set-ups whose arguments only the last rank got wrong (a bad enum value, name,
 * NULL array or option): every rank returns the error at once, naming that rank, instead
 * of waiting for it; the handle stays NULL and everything works afterwards. */
static void one_rank_setup_errors(hympi_context ctx) {
  const int last = g_rank == g_size - 1;
  char who[64];
  snprintf(who, sizeof who, "set-up refused on rank %d: hympi_", g_size - 1);
  hympi_pattern pattern = NULL, bad = NULL;
  CHECK_OK(line_pattern(ctx, &pattern));
  hympi_halo halo = NULL;
  expect_refused(hympi_halo_create(pattern, last ? (hympi_strategy)11 : HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &halo),
                 "hympi_halo_create: argument 'strategy' is 11", who, __LINE__);
  CHECK(halo == NULL);
  expect_refused(hympi_halo_create_named(pattern, last ? "fast" : "shm", 1, HYMPI_MODE_VECTORS, &halo),
                 "hympi_halo_create_named: hympi: unknown ghost-update strategy 'fast'", who, __LINE__);
  expect_refused(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, last ? (hympi_halo_mode)2 : HYMPI_MODE_VECTORS, &halo),
                 "argument 'mode' is 2", who, __LINE__);
  expect_refused(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, last ? NULL : &halo),
                 "argument 'halo' is NULL", who, __LINE__);
  const int global[2] = {8, 8};
  hympi_grid grid = NULL;
  expect_refused(hympi_grid_create_named(ctx, 2, global, last ? "star6" : "star5", 1, 0, 1, HYMPI_FLOAT64, &grid),
                 "hympi_grid_create_named: hympi: unknown stencil 'star6'", who, __LINE__);
  expect_refused(hympi_grid_create(ctx, 2, last ? NULL : global, HYMPI_STENCIL_STAR5, 1, 0, 1, HYMPI_FLOAT64, &grid),
                 "hympi_grid_create: argument 'global' is NULL", who, __LINE__);
  CHECK(grid == NULL);
  int send = 0, recv = 1;
  hympi_neighbor_lists lists = {(g_rank + 1) % g_size, 1, &send, 1, &recv};
  expect_refused(hympi_pattern_from_lists(ctx, 2, g_size > 1, &lists, 1, last ? (hympi_datatype)9 : HYMPI_FLOAT64, &bad),
                 "hympi_pattern_from_lists: argument 'type' is 9", who, __LINE__);
  CHECK(bad == NULL);
  hympi_options o;
  CHECK_OK(hympi_options_from_env(&o));
  if (last) o.wait = 9;
  hympi_context other = NULL;
  expect_refused(hympi_context_create(MPI_COMM_WORLD, &o, &other), "hympi_context_create: argument 'options->wait' is 9",
                 who, __LINE__);
  CHECK(other == NULL);
  /* Every rank wrong: each rank's reason, once per distinct reason. */
  if (g_size > 1) {
    char everyone[64];
    snprintf(everyone, sizeof everyone, "set-up refused on ranks 0-%d: hympi_", g_size - 1);
    expect_refused(hympi_halo_create(pattern, (hympi_strategy)-3, 1, HYMPI_MODE_VECTORS, &halo), "'strategy' is -3",
                   everyone, __LINE__);
  }
  CHECK_OK(hympi_halo_create_named(pattern, "shm", 1, HYMPI_MODE_VECTORS, &halo));
  for (int t = 0; t < 20; ++t) expect_update_works(halo, t);
  CHECK_OK(hympi_halo_free(&halo));
  CHECK_OK(hympi_pattern_free(&pattern));
}

/* Updates whose arrays one rank got wrong (the last rank a NULL list, then the first a
 * field too many): that rank gets its error, every other rank HYMPI_ERR_USAGE naming it,
 * in that update or, when it waited for nobody, a later one (on the line, a rank d ranks
 * away by its d-th); from then on every call of the halo returns that error on every
 * rank, and the halo is freed. */
static void refused_updates(hympi_context ctx) {
  hympi_pattern pattern = NULL;
  CHECK_OK(line_pattern(ctx, &pattern));
  for (int round = 0; round < 2; ++round) {
    const int bad = round == 0 ? g_size - 1 : 0, me = g_rank == bad;
    const char* reason = round == 0 ? "hympi_halo_update: argument 'vectors' is NULL but has 1 element(s)"
                                    : "hympi: Halo was set up for 1 field(s), got 2";
    hympi_halo halo = NULL;
    CHECK_OK(hympi_halo_create(pattern, round == 0 ? HYMPI_STRATEGY_SHM : HYMPI_STRATEGY_FLAT_MPI, 1,
                               HYMPI_MODE_VECTORS, &halo));
    double v[3] = {0, 0, 0};
    void* vectors[2] = {v, v};
    char naming[256];
    snprintf(naming, sizeof naming, "hympi: Halo: rank %d could not take part in a ghost update (%s)", bad, reason);
    if (me) {
      CHECK_OK(hympi_halo_update(halo, 1, vectors)); /* a good update first: the refusal meets links in use */
      CHECK_ERROR(hympi_halo_update(halo, round == 0 ? 1 : 2, round == 0 ? NULL : vectors),
                  round == 0 ? HYMPI_ERR_ARGUMENT : HYMPI_ERR_USAGE, reason);
    } else { /* the good update too may stop, on the bad rank's node (its begin checks the node) */
      for (int t = 0; t <= g_size && hympi_halo_update(halo, 1, vectors) == HYMPI_SUCCESS; ++t) {
      }
    }
    CHECK_ERROR(hympi_halo_update(halo, 1, vectors), HYMPI_ERR_USAGE, naming);
    c_test_same_everywhere(hympi_last_error_message(), __FILE__, __LINE__);
    CHECK_ERROR(hympi_halo_begin(halo, 1, vectors), HYMPI_ERR_USAGE, naming);
    CHECK_OK(hympi_halo_free(&halo));
  }
  /* A wrapper's own check (hympi_halo_refuse), on the first rank; the baselines that
     synchronize through MPI's RMA calls too. */
  const hympi_strategy refusing[3] = {HYMPI_STRATEGY_AGGREGATED, HYMPI_STRATEGY_RMA_FENCE, HYMPI_STRATEGY_RMA_PSCW};
  hympi_halo halo = NULL;
  double v[3] = {0, 0, 0};
  void* vectors[1] = {v};
  for (int s = 0; s < 3; ++s) {
    CHECK_OK(hympi_halo_create(pattern, refusing[s], 1, HYMPI_MODE_VECTORS, &halo));
    if (g_rank == 0) CHECK_OK(hympi_halo_refuse(halo, "my array has 2 points, the pattern 3"));
    for (int t = 1; g_rank != 0 && t < g_size && hympi_halo_update(halo, 1, vectors) == HYMPI_SUCCESS; ++t) {
    }
    CHECK_ERROR(hympi_halo_update(halo, 1, vectors), HYMPI_ERR_USAGE,
                "hympi: Halo: rank 0 could not take part in a ghost update (my array has 2 points, the pattern 3)");
    CHECK_ERROR(hympi_halo_refuse(halo, NULL), HYMPI_ERR_ARGUMENT, "hympi_halo_refuse: argument 'reason' is NULL");
    CHECK_OK(hympi_halo_free(&halo));
  }
  CHECK_OK(hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &halo));
  for (int t = 0; t < 5; ++t) expect_update_works(halo, t);
  CHECK_OK(hympi_halo_free(&halo));
  CHECK_OK(hympi_pattern_free(&pattern));
}

/* Messages (hympi.h): silenced, then the default back; the handler itself is tested in
 * test_halo's Messages.RedirectedThenSilenced. */
static void message_handler_round_trip(void) {
  hympi_set_message_handler(NULL, NULL);
  hympi_set_message_handler(hympi_default_message_handler, NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  message_handler_round_trip();
  g_rank = c_test_rank();
  g_size = c_test_size_of_world();
  hympi_context ctx = NULL;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  argument_errors(ctx);
  collective_errors(ctx);
  one_rank_setup_errors(ctx);
  refused_updates(ctx);
  CHECK_OK(hympi_context_free(&ctx));
  const int status = c_test_finish("errors");
  MPI_Finalize();
  return status;
}
