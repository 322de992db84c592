/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API's node-shared arrays (hympi_node_shared_*): every rank reads what the writers
 * wrote, for the four element types, through refreshes by the leader and by slices with
 * new values each time; one copy per node, measured in /proc/self/smaps (the Pss of the
 * ranks of a node add up to one table); and the errors: a writer that fails on one rank,
 * counts, types and writers that differ between ranks, a bad argument of one rank, on
 * every rank; calls out of order on this rank alone. After each error the table works. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"

static int g_rank, g_size;
static hympi_topology_info g_topo;

/* What element i holds after refresh `generation` on node `node` (exact in every type). */
static int64_t expected(int node, size_t i, int generation) {
  return (int64_t)(i % 100000) * 16 + node * 4 + generation % 4;
}

/* One refresh: begin, write this rank's part with generation g's values, end. */
static void refresh(hympi_node_shared table, hympi_datatype type, hympi_writers writers, int g) {
  void* part = NULL;
  size_t first = 99, count = 99;
  CHECK_OK(hympi_node_shared_begin_write(table, writers, &part, &first, &count));
  CHECK((part == NULL) == (count == 0));
  for (size_t i = 0; i < count; ++i) c_test_put(part, type, i, expected(g_topo.node_index, first + i, g));
  CHECK_OK(hympi_node_shared_end_write(table, NULL));
}

/* Every element holds generation g's value. */
static void expect_generation(hympi_node_shared table, hympi_datatype type, size_t count, int g) {
  const void* data = NULL;
  size_t n = 0;
  hympi_datatype t = (hympi_datatype)-1;
  CHECK_OK(hympi_node_shared_data(table, &data, &n, &t));
  CHECK(n == count && t == type);
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += c_test_get(data, type, i) != expected(g_topo.node_index, i, g);
  CHECK(wrong == 0);
}

static void values(hympi_context ctx) {
  static const hympi_datatype types[] = {HYMPI_FLOAT64, HYMPI_FLOAT32, HYMPI_INT32, HYMPI_INT64};
  const size_t count = 1000 + 17; /* not a multiple of any node size here */
  for (int k = 0; k < 4; ++k) {
    hympi_node_shared table = NULL;
    CHECK_OK(hympi_node_shared_create(ctx, count, types[k], &table));
    size_t zeros = 0; /* zeroed until written */
    const void* data = NULL;
    CHECK_OK(hympi_node_shared_data(table, &data, NULL, NULL));
    for (size_t i = 0; i < count; ++i) zeros += c_test_get(data, types[k], i) == 0;
    CHECK(zeros == count);
    for (int g = 1; g <= 6; ++g) {
      refresh(table, types[k], g % 2 ? HYMPI_WRITERS_LEADER : HYMPI_WRITERS_SLICES, g);
      expect_generation(table, types[k], count, g);
    }
    CHECK_OK(hympi_node_shared_free(&table));
    CHECK(table == NULL);
    hympi_node_shared empty = NULL;
    CHECK_OK(hympi_node_shared_create(ctx, 0, types[k], &empty));
    refresh(empty, types[k], HYMPI_WRITERS_SLICES, 1);
    CHECK_OK(hympi_node_shared_free(&empty));
  }
}

/* Rss and Pss (kB) of the mapping that holds `address`, from /proc/self/smaps. */
static void resident(const void* address, long* rss_kb, long* pss_kb) {
  const uintptr_t at = (uintptr_t)address;
  FILE* smaps = fopen("/proc/self/smaps", "r");
  char line[512];
  int inside = 0;
  *rss_kb = *pss_kb = -1;
  while (smaps && fgets(line, sizeof line, smaps)) {
    unsigned long long begin = 0, end = 0;
    long kb = 0;
    char perms[8];
    if (sscanf(line, "%llx-%llx %7s", &begin, &end, perms) == 3) {
      inside = begin <= at && at < end;
      continue;
    }
    if (!inside) continue;
    if (sscanf(line, "Rss: %ld kB", &kb) == 1) *rss_kb = kb;
    if (sscanf(line, "Pss: %ld kB", &kb) == 1) *pss_kb = kb;
  }
  if (smaps) fclose(smaps);
}

/* An 8 MiB table: each rank maps all of it (Rss), the node's ranks hold one copy
 * together (their Pss add up to one table, not node_size tables). */
static void one_copy_per_node(hympi_context ctx) {
  if (g_topo.node_count == g_size) return; /* one rank per node: nothing is shared */
  const size_t mib = 8, count = mib << 17; /* int64 elements */
  hympi_node_shared table = NULL;
  CHECK_OK(hympi_node_shared_create(ctx, count, HYMPI_INT64, &table));
  refresh(table, HYMPI_INT64, HYMPI_WRITERS_LEADER, 1);
  expect_generation(table, HYMPI_INT64, count, 1); /* every rank reads every page */
  MPI_Barrier(MPI_COMM_WORLD);
  const void* data = NULL;
  CHECK_OK(hympi_node_shared_data(table, &data, NULL, NULL));
  long mine[2], table_kb = (long)mib << 10;
  resident(data, &mine[0], &mine[1]);
  CHECK(mine[0] >= table_kb && mine[0] <= table_kb + 2048);
  long* all = malloc(sizeof(long) * 2 * (size_t)g_size);
  int* node = malloc(sizeof(int) * (size_t)g_size);
  MPI_Allgather(mine, 2, MPI_LONG, all, 2, MPI_LONG, MPI_COMM_WORLD);
  MPI_Allgather(&g_topo.node_index, 1, MPI_INT, node, 1, MPI_INT, MPI_COMM_WORLD);
  long pss = 0;
  for (int r = 0; r < g_size; ++r)
    if (node[r] == g_topo.node_index) pss += all[2 * r + 1];
  CHECK(pss >= table_kb - 1024 && pss <= table_kb + 2048);
  if (g_rank == 0)
    printf("# c-test node_shared: %zu MiB table, node of %d ranks: Pss summed %.1f MiB (%.2f copies)\n", mib,
           g_topo.node_size, (double)pss / 1024, (double)pss / (double)table_kb);
  free(all);
  free(node);
  CHECK_OK(hympi_node_shared_free(&table));
}

/* `code` is `expected` with a message containing `part`, the same on every rank. */
static void expect_everywhere(int code, int expected_code, const char* part, int line) {
  c_test_error(code, expected_code, part, __FILE__, line, "error on every rank");
  c_test_same_everywhere(hympi_last_error_message(), __FILE__, line);
}

static void errors(hympi_context ctx) {
  const int last = g_rank == g_size - 1;
  hympi_node_shared table = NULL;
  CHECK_OK(hympi_node_shared_create(ctx, 64, HYMPI_INT32, &table));
  void* part = NULL;
  size_t first = 0, count = 0;

  /* A writer that fails on the last rank only: every rank's end_write fails with its
   * message; then the table refreshes again. */
  CHECK_OK(hympi_node_shared_begin_write(table, HYMPI_WRITERS_SLICES, &part, &first, &count));
  expect_everywhere(hympi_node_shared_end_write(table, last ? "no data for the table" : NULL), HYMPI_ERR_USAGE,
                    "hympi: NodeShared: a writer failed: no data for the table", __LINE__);
  refresh(table, HYMPI_INT32, HYMPI_WRITERS_LEADER, 3);
  expect_generation(table, HYMPI_INT32, 64, 3);

  /* Out of order: this rank alone, no communication. */
  CHECK_ERROR(hympi_node_shared_end_write(table, NULL), HYMPI_ERR_USAGE, "end_write out of order");
  CHECK_OK(hympi_node_shared_begin_write(table, HYMPI_WRITERS_LEADER, &part, &first, &count));
  CHECK_ERROR(hympi_node_shared_begin_write(table, HYMPI_WRITERS_LEADER, &part, &first, &count), HYMPI_ERR_USAGE,
              "begin_write out of order: a write is in progress");
  CHECK_OK(hympi_node_shared_end_write(table, NULL));

  /* This rank's arguments. */
  CHECK_ERROR(hympi_node_shared_data(NULL, NULL, NULL, NULL), HYMPI_ERR_ARGUMENT,
              "hympi_node_shared_data: argument 'table' is NULL");
  CHECK_ERROR(hympi_node_shared_begin_write(NULL, HYMPI_WRITERS_LEADER, &part, &first, &count), HYMPI_ERR_ARGUMENT,
              "argument 'table' is NULL");
  CHECK_ERROR(hympi_node_shared_free(NULL), HYMPI_ERR_ARGUMENT, "argument 'table' is NULL");
  hympi_node_shared none = NULL;
  CHECK_OK(hympi_node_shared_free(&none));
  hympi_node_shared other = table;
  expect_everywhere(hympi_node_shared_create(ctx, 8, last ? (hympi_datatype)7 : HYMPI_FLOAT64, &other),
                    HYMPI_ERR_ARGUMENT, "hympi_node_shared_create: argument 'type' is 7", __LINE__);
  CHECK(other == NULL);

  /* An unknown writers value on the last rank: an argument error there, and the others'
   * refresh fails at its end with that rank's reason. */
  const int code = hympi_node_shared_begin_write(table, last ? (hympi_writers)7 : HYMPI_WRITERS_LEADER, &part,
                                                 &first, &count);
  if (last) {
    c_test_error(code, HYMPI_ERR_ARGUMENT, "hympi_node_shared_begin_write: argument 'writers' is 7", __FILE__,
                 __LINE__, "unknown writers");
  } else {
    CHECK_OK(code);
    CHECK_ERROR(hympi_node_shared_end_write(table, NULL), HYMPI_ERR_USAGE,
                "hympi_node_shared_begin_write: argument 'writers' is 7");
  }
  c_test_same_everywhere(hympi_last_error_message(), __FILE__, __LINE__);
  refresh(table, HYMPI_INT32, HYMPI_WRITERS_SLICES, 2);
  expect_generation(table, HYMPI_INT32, 64, 2);

  if (g_size >= 2) {
    /* Different writers, counts or types between ranks: on every rank. */
    expect_everywhere(hympi_node_shared_begin_write(table, last ? HYMPI_WRITERS_SLICES : HYMPI_WRITERS_LEADER, &part,
                                                    &first, &count),
                      HYMPI_ERR_USAGE, "hympi: NodeShared::refresh: ranks named different writers (leader and slices)",
                      __LINE__);
    expect_everywhere(hympi_node_shared_create(ctx, last ? 11 : 10, HYMPI_FLOAT64, &other), HYMPI_ERR_USAGE,
                      "hympi: NodeShared: ranks passed different count: 10 on rank", __LINE__);
    CHECK(other == NULL);
    expect_everywhere(hympi_node_shared_create(ctx, 10, last ? HYMPI_INT64 : HYMPI_FLOAT64, &other), HYMPI_ERR_USAGE,
                      "hympi: NodeShared: ranks passed different element type", __LINE__);
    refresh(table, HYMPI_INT32, HYMPI_WRITERS_LEADER, 5);
    expect_generation(table, HYMPI_INT32, 64, 5);
  }
  CHECK_OK(hympi_node_shared_free(&table));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  hympi_context ctx = NULL;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  CHECK_OK(hympi_context_topology(ctx, &g_topo));
  values(ctx);
  one_copy_per_node(ctx);
  errors(ctx);
  CHECK_OK(hympi_context_free(&ctx));
  const int status = c_test_finish("node_shared");
  MPI_Finalize();
  return status;
}
