/* SPDX-License-Identifier: BSD-3-Clause */
/* The C API's patterns and ghost updates, checked against the exact values after every
 * update and against a plain-MPI exchange of the same lists after the first two and the
 * last: a pattern from lists (a line of ranks, two layers) and one from owners (a small
 * unstructured graph), the latter also renumbered by hympi_order_local_ids; every
 * strategy, by enum and by name, one to three fields, update and begin/end, shm_direct
 * through its shared fields, the zero-copy buffers mode, separate send and receive arrays,
 * the statistics and automatic's trials; many consecutive updates with data that changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "c_test.h"

/* One pattern and what the test knows of it: every local point's global id and owner. */
typedef struct {
  const char* name;
  hympi_pattern pattern;
  int local_points, chunk, neighbor_count;
  hympi_datatype type;
  int64_t* global; /* global id of each local point */
  int* owned;      /* 1 for an owned point, 0 for a ghost */
} Case;

static int g_rank, g_size;
static int* g_node_of; /* node index of every rank */
static int g_nodes;

/* The value of component c of global point g in field f at update t: exact in every type. */
static int64_t value(int64_t g, int c, int f, long t) { return ((g * 3 + c) * 4 + f) + 97 * (t % 150); }

/* Reads back what hympi says of the pattern and checks it against what was passed. */
static void describe_case(Case* k) {
  int points = -1, chunk = -1, neighbors = -1;
  hympi_datatype type = HYMPI_INT64;
  CHECK_OK(hympi_pattern_info(k->pattern, &points, &chunk, &type, &neighbors));
  CHECK(points == k->local_points && chunk == k->chunk && type == k->type);
  k->neighbor_count = neighbors;
  int previous = -1;
  for (int n = 0; n < neighbors; ++n) {
    hympi_neighbor_lists l;
    CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
    CHECK(l.rank > previous && l.rank != g_rank && l.rank < g_size); /* sorted by rank */
    CHECK(l.send_count + l.recv_count > 0);
    CHECK((l.send == NULL) == (l.send_count == 0) && (l.recv == NULL) == (l.recv_count == 0));
    for (int i = 0; i < l.send_count; ++i) CHECK(k->owned[l.send[i]]);
    for (int i = 0; i < l.recv_count; ++i) CHECK(!k->owned[l.recv[i]]);
    previous = l.rank;
  }
}

/* A line of ranks: rank r owns 5 + r % 3 points and has two ghost layers from each side. */
static Case line_case(hympi_context ctx, hympi_datatype type, int chunk) {
  Case k = {"line", NULL, 0, chunk, 0, type, NULL, NULL};
  int64_t first = 0;
  for (int r = 0; r < g_rank; ++r) first += 5 + r % 3;
  const int owned = 5 + g_rank % 3;
  const int left = g_rank > 0, right = g_rank + 1 < g_size;
  k.local_points = owned + 2 * left + 2 * right;
  k.global = malloc(sizeof(int64_t) * (size_t)k.local_points);
  k.owned = malloc(sizeof(int) * (size_t)k.local_points);
  for (int p = 0; p < owned; ++p) {
    k.global[p] = first + p;
    k.owned[p] = 1;
  }
  int ghost = owned;
  hympi_neighbor_lists lists[2];
  int count = 0;
  /* Both sides list the points in increasing global id (the lists are copied). */
  int send_left[2] = {0, 1}, recv_left[2], send_right[2], recv_right[2];
  if (left) {
    for (int i = 0; i < 2; ++i) {
      recv_left[i] = ghost;
      k.global[ghost] = first - 2 + i;
      k.owned[ghost++] = 0;
    }
    lists[count++] = (hympi_neighbor_lists){g_rank - 1, 2, send_left, 2, recv_left};
  }
  if (right) {
    for (int i = 0; i < 2; ++i) {
      send_right[i] = owned - 2 + i;
      recv_right[i] = ghost;
      k.global[ghost] = first + owned + i;
      k.owned[ghost++] = 0;
    }
    lists[count++] = (hympi_neighbor_lists){g_rank + 1, 2, send_right, 2, recv_right};
  }
  CHECK_OK(hympi_pattern_from_lists(ctx, k.local_points, count, lists, chunk, type, &k.pattern));
  describe_case(&k);
  return k;
}

/* A small unstructured graph: global point g (of 12 per rank) touches g +- 1 and g +- 7
 * (cyclic); ranks own scattered points; ghosts are the touched points owned elsewhere. */
static int owner_of(int64_t g) { return (int)((g / 2 + (g % 5 == 0)) % g_size); }

static Case owners_case(hympi_context ctx, hympi_datatype type, int chunk) {
  Case k = {"owners", NULL, 0, chunk, 0, type, NULL, NULL};
  const int64_t total = 12 * (int64_t)g_size;
  char* local = calloc((size_t)total, 1); /* 1 owned, 2 ghost */
  for (int64_t g = 0; g < total; ++g) {
    if (owner_of(g) != g_rank) continue;
    local[g] = 1;
    static const int offsets[] = {-7, -1, 1, 7};
    for (int i = 0; i < 4; ++i) {
      const int64_t h = (g + offsets[i] + total) % total;
      if (owner_of(h) != g_rank) local[h] = 2;
    }
  }
  for (int64_t g = 0; g < total; ++g) k.local_points += local[g] != 0;
  k.global = malloc(sizeof(int64_t) * (size_t)k.local_points);
  k.owned = malloc(sizeof(int) * (size_t)k.local_points);
  int* owners = malloc(sizeof(int) * (size_t)k.local_points);
  int p = 0;
  for (int pass = 1; pass <= 2; ++pass) /* owned points first, then ghosts, in reverse order */
    for (int64_t i = 0; i < total; ++i) {
      const int64_t g = pass == 1 ? i : total - 1 - i;
      if (local[g] != pass) continue;
      k.global[p] = g;
      k.owned[p] = pass == 1;
      owners[p++] = owner_of(g);
    }
  CHECK_OK(hympi_pattern_from_owners(ctx, k.local_points, k.global, owners, chunk, type, &k.pattern));
  describe_case(&k);
  free(owners);
  free(local);
  return k;
}

/* The same exchange renumbered: inner | boundary | ghost. */
static Case ordered_case(const Case* k) {
  Case o = *k;
  o.name = "ordered";
  int* new_id = malloc(sizeof(int) * (size_t)k->local_points);
  int inner = -1, boundary = -1, ghosts = -1, ghost_count = 0;
  CHECK_OK(hympi_order_local_ids(k->pattern, new_id, &inner, &boundary, &ghosts, &o.pattern));
  CHECK(inner + boundary + ghosts == k->local_points);
  o.global = malloc(sizeof(int64_t) * (size_t)k->local_points);
  o.owned = malloc(sizeof(int) * (size_t)k->local_points);
  char* seen = calloc((size_t)k->local_points, 1);
  for (int p = 0; p < k->local_points; ++p) {
    const int q = new_id[p];
    CHECK(q >= 0 && q < k->local_points && !seen[q]);
    if (q < 0 || q >= k->local_points) continue;
    seen[q] = 1;
    o.global[q] = k->global[p];
    o.owned[q] = k->owned[p];
    CHECK(k->owned[p] == (q < inner + boundary));
    ghost_count += !k->owned[p];
  }
  CHECK(ghosts == ghost_count);
  describe_case(&o);
  free(seen);
  free(new_id);
  return o;
}

static void free_case(Case* k) {
  CHECK_OK(hympi_pattern_free(&k->pattern));
  CHECK(k->pattern == NULL);
  free(k->global);
  free(k->owned);
}

/* Owned entries get their values at update t, ghosts -1. */
static void fill(const Case* k, void* v, int f, long t) {
  for (int p = 0; p < k->local_points; ++p)
    for (int c = 0; c < k->chunk; ++c)
      c_test_put(v, k->type, (size_t)(p * k->chunk + c), k->owned[p] ? value(k->global[p], c, f, t) : -1);
}

/* The plain-MPI ghost update of field vector `v` (tag f), from the pattern's own lists. */
static void mpi_reference(const Case* k, void* v, int f) {
  const size_t point = (size_t)k->chunk * c_test_size(k->type);
  char** send = malloc(sizeof(char*) * (size_t)k->neighbor_count);
  char** recv = malloc(sizeof(char*) * (size_t)k->neighbor_count);
  MPI_Request* requests = malloc(sizeof(MPI_Request) * 2 * (size_t)k->neighbor_count + 1);
  MPI_Status* statuses = malloc(sizeof(MPI_Status) * 2 * (size_t)k->neighbor_count + 1);
  for (int n = 0; n < k->neighbor_count; ++n) {
    hympi_neighbor_lists l;
    CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
    send[n] = malloc(point * (size_t)l.send_count + 1);
    recv[n] = malloc(point * (size_t)l.recv_count + 1);
    for (int i = 0; i < l.send_count; ++i) memcpy(send[n] + point * (size_t)i, (char*)v + point * (size_t)l.send[i], point);
    MPI_Irecv(recv[n], (int)(point * (size_t)l.recv_count), MPI_BYTE, l.rank, f, MPI_COMM_WORLD, &requests[2 * n]);
    MPI_Isend(send[n], (int)(point * (size_t)l.send_count), MPI_BYTE, l.rank, f, MPI_COMM_WORLD, &requests[2 * n + 1]);
  }
  MPI_Waitall(2 * k->neighbor_count, requests, statuses);
  for (int n = 0; n < k->neighbor_count; ++n) {
    hympi_neighbor_lists l;
    CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
    for (int i = 0; i < l.recv_count; ++i) memcpy((char*)v + point * (size_t)l.recv[i], recv[n] + point * (size_t)i, point);
    free(send[n]);
    free(recv[n]);
  }
  free(send);
  free(recv);
  free(requests);
  free(statuses);
}

/* Every entry of `v` (field f, update t): owned values unchanged, ghosts filled. */
static int exact(const Case* k, const void* v, int f, long t) {
  for (int p = 0; p < k->local_points; ++p)
    for (int c = 0; c < k->chunk; ++c)
      if (c_test_get(v, k->type, (size_t)(p * k->chunk + c)) != value(k->global[p], c, f, t)) return 0;
  return 1;
}

/* The statistics against the pattern: messages and bytes per node class. */
static void check_stats(const Case* k, hympi_halo halo, hympi_strategy running, int fields) {
  hympi_halo_stats s;
  CHECK_OK(hympi_halo_stats_get(halo, &s));
  int intra = 0, inter = 0;
  size_t intra_bytes = 0, inter_bytes = 0;
  int* pairs = calloc((size_t)(g_nodes * g_nodes), sizeof(int)); /* node pairs with a message */
  for (int n = 0; n < k->neighbor_count; ++n) {
    hympi_neighbor_lists l;
    CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
    if (l.send_count == 0) continue;
    const size_t bytes = (size_t)(l.send_count * k->chunk * fields) * c_test_size(k->type);
    if (g_node_of[l.rank] == g_node_of[g_rank]) {
      ++intra;
      intra_bytes += bytes;
    } else {
      ++inter;
      inter_bytes += bytes;
      pairs[g_node_of[g_rank] * g_nodes + g_node_of[l.rank]] = 1;
    }
  }
  CHECK(s.intranode_messages == intra && s.intranode_bytes == intra_bytes);
  if (running == HYMPI_STRATEGY_AGGREGATED || running == HYMPI_STRATEGY_AGGREGATED_ODM) {
    /* one message per node pair, counted with all its bytes by the rank that sends it */
    int total = 0, node_pairs = 0;
    long long bytes[2] = {(long long)s.internode_bytes, (long long)inter_bytes};
    MPI_Allreduce(MPI_IN_PLACE, pairs, g_nodes * g_nodes, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&s.internode_messages, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(MPI_IN_PLACE, bytes, 2, MPI_LONG_LONG, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < g_nodes * g_nodes; ++i) node_pairs += pairs[i];
    CHECK(total == node_pairs && bytes[0] == bytes[1]);
  } else {
    CHECK(s.internode_messages == inter && s.internode_bytes == inter_bytes);
  }
  free(pairs);
}

/* What the Halo says it runs, and automatic's trials. */
static hympi_strategy check_strategy(hympi_halo halo, hympi_strategy asked) {
  hympi_strategy running = HYMPI_STRATEGY_AUTOMATIC, requested = HYMPI_STRATEGY_SHM;
  CHECK_OK(hympi_halo_strategy(halo, &running, &requested));
  CHECK(requested == asked);
  int count = -1;
  CHECK_OK(hympi_halo_trials(halo, 0, NULL, NULL, &count));
  if (asked != HYMPI_STRATEGY_AUTOMATIC) {
    CHECK(running == asked && count == 0);
    return running;
  }
  CHECK(running == HYMPI_STRATEGY_SHM || running == HYMPI_STRATEGY_AGGREGATED ||
        running == HYMPI_STRATEGY_AGGREGATED_ODM);
  CHECK(count == (g_nodes > 1 ? 3 : 0)); /* one node: shm without trials */
  if (count <= 0) return running;
  hympi_strategy tried[3] = {HYMPI_STRATEGY_AUTOMATIC, HYMPI_STRATEGY_AUTOMATIC, HYMPI_STRATEGY_AUTOMATIC};
  double seconds[3] = {-1, -1, -1};
  int again = -1, found = 0;
  CHECK_OK(hympi_halo_trials(halo, 1, tried, seconds, &again)); /* room for one */
  CHECK(again == count && tried[1] == HYMPI_STRATEGY_AUTOMATIC && seconds[1] == -1);
  CHECK_OK(hympi_halo_trials(halo, 3, tried, seconds, &again));
  double best = seconds[0];
  for (int i = 0; i < 3; ++i) {
    CHECK(seconds[i] > 0);
    CHECK(tried[i] == HYMPI_STRATEGY_SHM || tried[i] == HYMPI_STRATEGY_AGGREGATED ||
          tried[i] == HYMPI_STRATEGY_AGGREGATED_ODM);
    if (seconds[i] < best) best = seconds[i];
  }
  for (int i = 0; i < 3; ++i) found |= tried[i] == running && seconds[i] == best;
  CHECK(found);
  return running;
}

/* `updates` consecutive ghost updates of `fields` vectors with `strategy`, asked for by
 * enum or by name; odd updates split in begin / end. */
static void check_vectors(const Case* k, hympi_strategy strategy, int by_name, int fields, long updates) {
  hympi_halo halo = NULL;
  if (by_name) {
    hympi_strategy parsed = HYMPI_STRATEGY_AUTOMATIC;
    CHECK_OK(hympi_strategy_from_name(hympi_strategy_name(strategy), &parsed));
    CHECK_OK(hympi_halo_create(k->pattern, parsed, fields, HYMPI_MODE_VECTORS, &halo));
  } else {
    CHECK_OK(hympi_halo_create(k->pattern, strategy, fields, HYMPI_MODE_VECTORS, &halo));
  }
  if (!halo) return;
  int got = 0;
  CHECK_OK(hympi_halo_fields(halo, &got));
  CHECK(got == fields);
  const hympi_strategy running = check_strategy(halo, strategy);
  check_stats(k, halo, running, fields);

  const size_t bytes = (size_t)(k->local_points * k->chunk) * c_test_size(k->type);
  void* vectors[3];
  void* reference = malloc(bytes + 1);
  for (int f = 0; f < fields; ++f) {
    if (strategy == HYMPI_STRATEGY_SHM_DIRECT) {
      vectors[f] = NULL;
      CHECK_OK(hympi_halo_shared_field(halo, f, &vectors[f]));
      CHECK(vectors[f] != NULL || bytes == 0);
      for (size_t i = 0; vectors[f] && i < bytes; ++i) CHECK(((char*)vectors[f])[i] == 0);
    } else {
      vectors[f] = malloc(bytes + 1);
    }
  }
  for (long t = 0; t < updates; ++t) {
    for (int f = 0; f < fields; ++f) fill(k, vectors[f], f, t);
    if (t % 2) {
      CHECK_OK(hympi_halo_begin(halo, fields, vectors));
      CHECK_OK(hympi_halo_end(halo, fields, vectors));
    } else {
      CHECK_OK(hympi_halo_update(halo, fields, vectors));
    }
    const int compare = t < 2 || t == updates - 1; /* with the MPI reference; always with the exact values */
    for (int f = 0; f < fields; ++f) {
      if (compare) {
        fill(k, reference, f, t);
        mpi_reference(k, reference, f);
      }
      if (!exact(k, vectors[f], f, t) || (compare && memcmp(reference, vectors[f], bytes) != 0)) {
        char detail[200];
        snprintf(detail, sizeof detail, "%s: %s, field %d of %d, update %ld", k->name, hympi_strategy_name(strategy),
                 f, fields, t);
        c_test_fail(__FILE__, __LINE__, "ghosts equal the MPI reference and the exact values", detail);
        t = updates;
        break;
      }
    }
  }
  for (int f = 0; f < fields && strategy != HYMPI_STRATEGY_SHM_DIRECT; ++f) free(vectors[f]);
  free(reference);
  CHECK_OK(hympi_halo_free(&halo));
  CHECK(halo == NULL);
}

/* Zero copy: messages written into the send buffers, read from the receive buffers. */
static void check_buffers(const Case* k, hympi_strategy strategy, int fields, long updates) {
  hympi_halo halo = NULL;
  CHECK_OK(hympi_halo_create(k->pattern, strategy, fields, HYMPI_MODE_BUFFERS, &halo));
  if (!halo) return;
  const hympi_strategy running = check_strategy(halo, strategy);
  check_stats(k, halo, running, fields);
  const size_t bytes = (size_t)(k->local_points * k->chunk) * c_test_size(k->type);
  void* reference = malloc(bytes * (size_t)fields + 1);
  int wrong = 0;
  for (long t = 0; t < updates && !wrong; ++t) {
    CHECK_OK(hympi_halo_acquire(halo));
    for (int n = 0; n < k->neighbor_count; ++n) {
      hympi_neighbor_lists l;
      void* data = NULL;
      size_t elements = 0;
      CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
      CHECK_OK(hympi_halo_send_buffer(halo, n, &data, &elements));
      CHECK(elements == (size_t)(fields * l.send_count * k->chunk));
      if (elements != (size_t)(fields * l.send_count * k->chunk)) continue;
      for (int f = 0; f < fields; ++f)
        for (int i = 0; i < l.send_count; ++i)
          for (int c = 0; c < k->chunk; ++c)
            c_test_put(data, k->type, (size_t)((f * l.send_count + i) * k->chunk + c), value(k->global[l.send[i]], c, f, t));
    }
    CHECK_OK(hympi_halo_begin_buffers(halo));
    CHECK_OK(hympi_halo_end_buffers(halo));
    const int compare = t < 2 || t == updates - 1; /* with the MPI reference; always with the exact values */
    for (int f = 0; f < fields && compare; ++f) {
      char* v = (char*)reference + bytes * (size_t)f;
      fill(k, v, f, t);
      mpi_reference(k, v, f);
    }
    for (int n = 0; n < k->neighbor_count; ++n) {
      hympi_neighbor_lists l;
      const void* data = NULL;
      size_t elements = 0;
      CHECK_OK(hympi_pattern_neighbor(k->pattern, n, &l));
      CHECK_OK(hympi_halo_recv_buffer(halo, n, &data, &elements));
      CHECK(elements == (size_t)(fields * l.recv_count * k->chunk));
      if (elements != (size_t)(fields * l.recv_count * k->chunk)) continue;
      for (int f = 0; f < fields; ++f)
        for (int i = 0; i < l.recv_count; ++i)
          for (int c = 0; c < k->chunk; ++c) {
            const int64_t got = c_test_get(data, k->type, (size_t)((f * l.recv_count + i) * k->chunk + c));
            const char* v = (const char*)reference + bytes * (size_t)f;
            const size_t at = (size_t)(l.recv[i] * k->chunk + c);
            wrong |= got != value(k->global[l.recv[i]], c, f, t) || (compare && got != c_test_get(v, k->type, at));
          }
    }
    if (wrong) {
      char detail[200];
      snprintf(detail, sizeof detail, "%s: %s buffers, update %ld", k->name, hympi_strategy_name(strategy), t);
      c_test_fail(__FILE__, __LINE__, "receive buffers hold the sent values", detail);
    }
  }
  free(reference);
  CHECK_OK(hympi_halo_free(&halo));
}

/* Separate send and receive arrays (hympi_pattern_from_lists_apart): rank r sends points
 * 0, last, 0 of its 4 + r % 2 points (one twice) to each ring neighbour, which stores them
 * at every other slot of its receive array from the end; every other slot keeps -1. After
 * every update each slot is checked; the one-array calls are refused on every rank. */
static void check_apart(hympi_context ctx, hympi_strategy strategy, int fields, long updates) {
  const int send_points = 4 + g_rank % 2;
  int ring[2] = {(g_rank + g_size - 1) % g_size, (g_rank + 1) % g_size}, neighbors = 0;
  int nbr[2];
  for (int i = 0; i < 2; ++i)
    if (ring[i] != g_rank && (neighbors == 0 || nbr[0] != ring[i])) nbr[neighbors++] = ring[i];
  if (neighbors == 2 && nbr[0] > nbr[1]) { /* any order is accepted; keep it sorted */
    const int t = nbr[0];
    nbr[0] = nbr[1];
    nbr[1] = t;
  }
  const int recv_points = 6 * neighbors + 1;
  int send_ids[2][3], recv_ids[2][3];
  int64_t from_global[6]; /* global id (rank * 8 + point) each received slot gets */
  hympi_neighbor_lists lists[2];
  for (int n = 0; n < neighbors; ++n) {
    const int last_mine = send_points - 1, last_theirs = 4 + nbr[n] % 2 - 1;
    const int theirs[3] = {0, last_theirs, 0};
    send_ids[n][0] = send_ids[n][2] = 0;
    send_ids[n][1] = last_mine;
    for (int i = 0; i < 3; ++i) {
      recv_ids[n][i] = recv_points - 2 - 2 * (3 * n + i);
      from_global[3 * n + i] = nbr[n] * 8 + theirs[i];
    }
    lists[n] = (hympi_neighbor_lists){nbr[n], 3, send_ids[n], 3, recv_ids[n]};
  }
  hympi_pattern pattern = NULL;
  CHECK_OK(hympi_pattern_from_lists_apart(ctx, send_points, recv_points, neighbors, lists, 1, HYMPI_INT64, &pattern));
  if (!pattern) return;
  int sends = -1, recvs = -1, apart = -1, points = 0, chunk = 0, count = 0;
  hympi_datatype type = HYMPI_INT64;
  CHECK_OK(hympi_pattern_points(pattern, &sends, &recvs, &apart));
  CHECK(sends == send_points && recvs == recv_points && apart == 1);
  CHECK_OK(hympi_pattern_info(pattern, &points, &chunk, &type, &count));
  CHECK(points == -1 && chunk == 1 && type == HYMPI_INT64 && count == neighbors);
  hympi_halo halo = NULL;
  if (strategy != HYMPI_STRATEGY_SHM_DIRECT) { /* the one-array form is refused: on every rank here */
    int64_t recv[2][13];
    void* recv_arrays[2] = {recv[0], recv[1]};
    CHECK_OK(hympi_halo_create(pattern, strategy, fields, HYMPI_MODE_VECTORS, &halo));
    CHECK_ERROR(hympi_halo_update(halo, fields, recv_arrays), HYMPI_ERR_USAGE, "separate send and receive");
    CHECK_ERROR(hympi_halo_update(halo, fields, recv_arrays), HYMPI_ERR_USAGE, "could not take part in a ghost update");
    CHECK_OK(hympi_halo_free(&halo));
  }
  CHECK_OK(hympi_halo_create(pattern, strategy, fields, HYMPI_MODE_VECTORS, &halo));
  if (halo) {
    int64_t storage[2][5], recv[2][13];
    const void* send[2];
    void* recv_arrays[2] = {recv[0], recv[1]};
    for (int f = 0; f < fields; ++f) {
      send[f] = storage[f];
      if (strategy == HYMPI_STRATEGY_SHM_DIRECT) CHECK_OK(hympi_halo_shared_field(halo, f, (void**)&send[f]));
    }
    for (long t = 0; t < updates; ++t) {
      for (int f = 0; f < fields; ++f) {
        for (int p = 0; p < send_points; ++p) ((int64_t*)send[f])[p] = value(g_rank * 8 + p, 0, f, t);
        for (int p = 0; p < recv_points; ++p) recv[f][p] = -1;
      }
      if (t % 2) {
        CHECK_OK(hympi_halo_begin_apart(halo, fields, send, recv_arrays));
        CHECK_OK(hympi_halo_end_apart(halo, fields, send, recv_arrays));
      } else {
        CHECK_OK(hympi_halo_update_apart(halo, fields, send, recv_arrays));
      }
      int wrong = 0;
      for (int f = 0; f < fields; ++f) {
        for (int p = 0; p < recv_points; ++p) wrong |= p % 2 == 0 && recv[f][p] != -1; /* slots nobody fills */
        for (int i = 0; i < 3 * neighbors; ++i) wrong |= recv[f][recv_points - 2 - 2 * i] != value(from_global[i], 0, f, t);
      }
      if (wrong) {
        char detail[200];
        snprintf(detail, sizeof detail, "%s, %d fields, update %ld", hympi_strategy_name(strategy), fields, t);
        c_test_fail(__FILE__, __LINE__, "separate arrays: every slot holds what its sender wrote", detail);
        break;
      }
    }
    CHECK_OK(hympi_halo_free(&halo));
  }
  CHECK_OK(hympi_pattern_free(&pattern));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  g_rank = c_test_rank();
  g_size = c_test_size_of_world();
  const long updates = c_test_env("HYMPI_TEST_ITERATIONS", 200);
  hympi_context ctx = NULL;
  CHECK_OK(hympi_context_create(MPI_COMM_WORLD, NULL, &ctx));
  hympi_topology_info info;
  CHECK_OK(hympi_context_topology(ctx, &info));
  g_nodes = info.node_count;
  g_node_of = malloc(sizeof(int) * (size_t)g_size);
  MPI_Allgather(&info.node_index, 1, MPI_INT, g_node_of, 1, MPI_INT, MPI_COMM_WORLD);

  Case cases[3];
  cases[0] = line_case(ctx, HYMPI_FLOAT64, 2);
  cases[1] = owners_case(ctx, HYMPI_INT32, 1);
  cases[2] = ordered_case(&cases[1]);
  /* Every strategy twice, by enum on one case and by name on the next (a Halo's set-up is
   * what costs here: each is made once). Fields: 2 on the line, 3 and 1 on the others. */
  for (int s = HYMPI_STRATEGY_SHM; s <= HYMPI_STRATEGY_AUTOMATIC; ++s) {
    const int rma = s == HYMPI_STRATEGY_RMA_FENCE || s == HYMPI_STRATEGY_RMA_PSCW || s == HYMPI_STRATEGY_RMA_LOCK ||
                    s == HYMPI_STRATEGY_RMA_LOCK_TARGET;
    for (int by_name = 0; by_name < 2; ++by_name) {
      const int i = (s + by_name) % 3;
      check_vectors(&cases[i], (hympi_strategy)s, by_name, 1 + (i + 1) % 3, rma ? updates / 4 : updates);
    }
  }
  static const hympi_strategy zero_copy[] = {HYMPI_STRATEGY_SHM, HYMPI_STRATEGY_FLAT_MPI, HYMPI_STRATEGY_AGGREGATED,
                                             HYMPI_STRATEGY_AGGREGATED_ODM, HYMPI_STRATEGY_AUTOMATIC};
  for (int s = 0; s < 5; ++s) check_buffers(&cases[s % 2], zero_copy[s], 2 - s % 2, updates);
  for (int s = HYMPI_STRATEGY_SHM; s <= HYMPI_STRATEGY_AUTOMATIC; ++s) check_apart(ctx, (hympi_strategy)s, 1 + s % 2, updates / 4);
  for (int i = 0; i < 3; ++i) free_case(&cases[i]);
  free(g_node_of);
  CHECK_OK(hympi_context_free(&ctx));
  const int status = c_test_finish("halo");
  MPI_Finalize();
  return status;
}
