// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI-4 program (no hympi in its source) with persistent neighbourhood requests,
// run with libhympi_pmpi preloaded or linked before libmpi. Each request made with
// MPI_Neighbor_alltoall(v)_init is checked against PMPI's own persistent request on the
// same arguments after every call, whole receive buffers compared, with new data every call:
//   test_pmpi_persistent check     on the graph, the periodic and the plain grid, the
//       graph with a self loop (MPI's) and the 3-D box (up to 26 neighbours): an alltoallv request (counts per neighbour, gaps,
//       a strided receive type in every other generation) and an alltoall request, alive
//       together; each call starts and completes them one of seven ways, among persistent
//       point-to-point requests of a ring in the same arrays (MPI_Start + MPI_Wait,
//       MPI_Startall + MPI_Waitall, MPI_Test loops, MPI_Waitany and MPI_Waitsome until all
//       are done, MPI_Testall and MPI_Request_get_status loops, both requests in flight
//       together and completed in reverse; with MPI-4.1, MPI_Request_get_status_all, _any
//       and _some loops, each request's data compared as soon as the call says it is
//       complete, before MPI_Wait completes it); every seventh call the requests are freed and
//       made again with other counts (the freed exchanges are released at the next init),
//       every other generation in the large-count form (MPI_Neighbor_alltoallv_init_c)
//   test_pmpi_persistent twice     under MPI_ERRORS_RETURN, rank 1 starts its request again
//       while it is active: an error on every rank, none waits (twice_mode says how)
//   test_pmpi_persistent comm_freed  a request whose communicator is freed first keeps
//       working, as MPI's do (started and completed three times more), then is freed
//   test_pmpi_persistent mismatch  under MPI_ERRORS_RETURN, rank 1 expects one element
//       more than its first in-neighbour sends: the init fails on every rank with hympi's
//       message and makes no request; a right init after it works
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "neighbors.h"

#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
#define STATUS_ARRAYS 1  // MPI-4.1's MPI_Request_get_status_all/any/some: three ways more
enum { kWays = 10 };
#else
enum { kWays = 7 };
#endif
enum { kComms = 5, kSlots = 512 };
// Requests that are MPI's own (a neighbour repeated or this rank itself, on some rank: the
// graph with a self loop, grids with a periodic dimension of size 1 or 2): MPICH 4.0 and
// 5.0 fail MPI_Testall, MPI_Waitany and MPI_Waitsome on persistent collective requests
// (MPI_Startall of them then finds them still active), and MPICH 4.0's
// MPI_Request_get_status never finds one complete, so these complete the two ways MPI's
// requests take there.
static const int mpi_ways[2] = {0, 2};

static int left_to_mpi(MPI_Comm comm) {
  int in, out, sources[kMaxNeighbors], destinations[kMaxNeighbors], odd = 0;
  neighbors(comm, &in, sources, &out, destinations);
  for (int i = 0; i < in; ++i)
    for (int j = 0; j <= i; ++j) odd |= sources[i] != MPI_PROC_NULL && (sources[i] == world_rank || (j < i && sources[j] == sources[i]));
  int any = 0;
  MPI_Allreduce(&odd, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

typedef struct {
  MPI_Comm comm;
  int uniform, generation;
  int in, out, sources[kMaxNeighbors], destinations[kMaxNeighbors];
  int scounts[kMaxNeighbors], sdispls[kMaxNeighbors], rcounts[kMaxNeighbors], rdispls[kMaxNeighbors];
#if MPI_VERSION >= 4  // the same for the large-count form (kept as long as the request)
  MPI_Count wscounts[kMaxNeighbors], wrcounts[kMaxNeighbors];
  MPI_Aint wsdispls[kMaxNeighbors], wrdispls[kMaxNeighbors];
#endif
  MPI_Datatype rtype;  // the reference's; the request got its own copy, freed after the init
  MPI_Datatype decoy;  // made after that free, so that it may take the freed handle
  MPI_Datatype kept;   // or, for a request left to MPI, the copy kept until the request's free
  double send[kSlots], got[2 * kSlots], want[2 * kSlots];
  double early[2 * kSlots];  // got, when an MPI_Request_get_status_* call found it complete
  MPI_Request mine;  // through the library
} Exchange;

// Counts of generation g (no growth: a persistent request's counts are fixed), blocks with
// gaps; the request made through the library.
// `mpi`: the communicator is left to MPI, whose own request may need the type (Open MPI 5's
// uses it after the program's MPI_Type_free), so the copy is kept there.
static int make(Exchange* e, MPI_Comm comm, int uniform, int g, int fail_rank, int mpi) {
  int me;
  MPI_Comm_rank(comm, &me);
  e->comm = comm, e->uniform = uniform, e->generation = g;
  neighbors(comm, &e->in, e->sources, &e->out, e->destinations);
  e->rtype = g % 2 ? strided() : MPI_DOUBLE;
  const int same = 1 + g % 3;
  int at = 1;
  for (int i = 0; i < e->out; ++i) {
    const int d = e->destinations[i];
    e->scounts[i] = uniform ? same : d == MPI_PROC_NULL ? g % 3 : count_of(me, d, 4 * g);
    e->sdispls[i] = uniform ? i * same : at;
    at += e->scounts[i] + 3;
  }
  at = 2;
  for (int j = 0; j < e->in; ++j) {
    const int s = e->sources[j];
    e->rcounts[j] = uniform ? same : s == MPI_PROC_NULL ? 1 : count_of(s, me, 4 * g);
    e->rdispls[j] = uniform ? j * same : at;
    at += e->rcounts[j] + 2;
  }
  if (world_rank == fail_rank && e->in > 0) e->rcounts[0] += 1;
  MPI_Datatype rtype;  // a derived type the program frees once hympi's request is made
  MPI_Type_dup(e->rtype, &rtype);
  int code;
  const int wide = MPI_VERSION >= 4 && g % 2;  // odd generations: the large-count form (MPI-4)
  if (uniform && !wide)
    code = MPI_Neighbor_alltoall_init(e->send, same, MPI_DOUBLE, e->got, same, rtype, comm, MPI_INFO_NULL, &e->mine);
  else if (!wide)
    code = MPI_Neighbor_alltoallv_init(e->send, e->scounts, e->sdispls, MPI_DOUBLE, e->got, e->rcounts, e->rdispls,
                                       rtype, comm, MPI_INFO_NULL, &e->mine);
#if MPI_VERSION >= 4
  else if (uniform)
    code = MPI_Neighbor_alltoall_init_c(e->send, same, MPI_DOUBLE, e->got, same, rtype, comm, MPI_INFO_NULL,
                                        &e->mine);
  else {
    for (int i = 0; i < e->out; ++i) e->wscounts[i] = e->scounts[i], e->wsdispls[i] = e->sdispls[i];
    for (int j = 0; j < e->in; ++j) e->wrcounts[j] = e->rcounts[j], e->wrdispls[j] = e->rdispls[j];
    code = MPI_Neighbor_alltoallv_init_c(e->send, e->wscounts, e->wsdispls, MPI_DOUBLE, e->got, e->wrcounts,
                                         e->wrdispls, rtype, comm, MPI_INFO_NULL, &e->mine);
  }
#endif
  e->kept = MPI_DATATYPE_NULL;
  if (mpi)
    e->kept = rtype;
  else
    MPI_Type_free(&rtype);
  MPI_Type_contiguous(3, MPI_DOUBLE, &e->decoy);
  MPI_Type_commit(&e->decoy);
  return code;
}

static void release(Exchange* e) {
  CHECK(MPI_Request_free(&e->mine) == MPI_SUCCESS && e->mine == MPI_REQUEST_NULL, "MPI_Request_free");
  MPI_Type_free(&e->decoy);
  if (e->kept != MPI_DATATYPE_NULL) MPI_Type_free(&e->kept);
}

// New data in the send blocks, the receive buffers reset.
static void prepare(Exchange* e, int it) {
  int me;
  MPI_Comm_rank(e->comm, &me);
  for (int i = 0; i < e->out; ++i)
    for (int k = 0; k < (e->uniform ? 1 + e->generation % 3 : e->scounts[i]); ++k)
      e->send[e->sdispls[i] + k] = value_of(me, e->destinations[i] == MPI_PROC_NULL ? 63 : e->destinations[i], it, k);
  for (int k = 0; k < 2 * kSlots; ++k) e->got[k] = e->want[k] = -1.0 - k;
}

// MPI's blocking call on the same arguments is the reference (MPICH 4.0's persistent
// requests made again on a communicator where the library made its own can hang).
static void compare(Exchange* e, int it, int way, const char* what) {
  if (e->uniform)
    PMPI_Neighbor_alltoall(e->send, 1 + e->generation % 3, MPI_DOUBLE, e->want, 1 + e->generation % 3, e->rtype,
                           e->comm);
  else
    PMPI_Neighbor_alltoallv(e->send, e->scounts, e->sdispls, MPI_DOUBLE, e->want, e->rcounts, e->rdispls, e->rtype,
                            e->comm);
  CHECK(memcmp(e->got, e->want, sizeof e->got) == 0, "%s call %d (%s, completed way %d): differs from MPI's", what,
        it, e->uniform ? "MPI_Neighbor_alltoall_init" : "MPI_Neighbor_alltoallv_init", way);
}

// The ring's persistent point-to-point pair (to the right, from the left) and its values.
typedef struct {
  MPI_Request requests[2];
  double out, in;
} Ring;

static void check_ring(const Ring* ring, int it) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int left = (world_rank + size - 1) % size;
  CHECK(ring->in == left * 1000.0 + it, "call %d: the ring's message is %g, not %g", it, ring->in, left * 1000.0 + it);
}

#ifdef STATUS_ARRAYS
// Request `i` of call()'s array, found complete by an MPI_Request_get_status_* call: its
// data must be in already (a request of `pair` keeps what it received then, compared once
// all are complete: the ranks find them in different orders, and the reference is a
// collective), then MPI_Wait completes it.
static void settle(MPI_Request all[4], int i, Exchange pair[2]) {
  if (i == 1 || i == 2) memcpy(pair[i - 1].early, pair[i - 1].got, sizeof pair[i - 1].got);
  CHECK(MPI_Wait(&all[i], MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait after MPI_Request_get_status_*");
}
#endif

// One call of both requests of a communicator, completed in one of kWays ways.
static void call(Exchange pair[2], Ring* ring, int it, int way, const char* what) {
  for (int r = 0; r < 2; ++r) prepare(&pair[r], it);
  ring->out = world_rank * 1000.0 + it;
  ring->in = -1;
  MPI_Request all[4] = {ring->requests[0], pair[0].mine, pair[1].mine, ring->requests[1]};
  int flag = 0, index = 0, done = 0, outcount = 0, indices[4];
  MPI_Status statuses[4];  // (MPICH's MPI_STATUSES_IGNORE trips gcc's bounds checks)
  switch (way) {
    case 0:
      for (int r = 0; r < 2; ++r) CHECK(MPI_Start(&pair[r].mine) == MPI_SUCCESS, "MPI_Start");
      for (int r = 0; r < 2; ++r) CHECK(MPI_Wait(&pair[r].mine, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait");
      MPI_Startall(2, ring->requests);
      MPI_Waitall(2, ring->requests, statuses);
      break;
    case 1:
      CHECK(MPI_Startall(4, all) == MPI_SUCCESS, "MPI_Startall");
      CHECK(MPI_Waitall(4, all, statuses) == MPI_SUCCESS, "MPI_Waitall");
      break;
    case 2:
      MPI_Startall(4, all);
      for (int r = 0; r < 4; ++r)
        for (flag = 0; !flag;) CHECK(MPI_Test(&all[r], &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Test");
      break;
    case 3:
      MPI_Startall(4, all);
      while (done < 4) {
        CHECK(MPI_Waitany(4, all, &index, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Waitany");
        if (index == MPI_UNDEFINED) break;
        ++done;
      }
      CHECK(done == 4, "MPI_Waitany completed %d of 4 requests", done);
      break;
    case 4:
      MPI_Startall(4, all);
      while (done < 4) {
        CHECK(MPI_Waitsome(4, all, &outcount, indices, statuses) == MPI_SUCCESS, "MPI_Waitsome");
        if (outcount == MPI_UNDEFINED) break;
        done += outcount;
      }
      CHECK(done == 4, "MPI_Waitsome completed %d of 4 requests", done);
      break;
    case 5:
      MPI_Startall(4, all);
      for (flag = 0; !flag;) CHECK(MPI_Testall(4, all, &flag, statuses) == MPI_SUCCESS, "MPI_Testall");
      break;
#ifdef STATUS_ARRAYS
    case 7:
      MPI_Startall(4, all);
      for (flag = 0; !flag;)
        CHECK(MPI_Request_get_status_all(4, all, &flag, statuses) == MPI_SUCCESS, "MPI_Request_get_status_all");
      for (int r = 0; r < 4; ++r) settle(all, r, pair);
      break;
    case 8:
      MPI_Startall(4, all);
      for (;;) {  // until only inactive requests are left: flag with MPI_UNDEFINED
        CHECK(MPI_Request_get_status_any(4, all, &index, &flag, statuses) == MPI_SUCCESS,
              "MPI_Request_get_status_any");
        if (!flag) continue;
        if (index == MPI_UNDEFINED) break;
        settle(all, index, pair);
        ++done;
      }
      CHECK(done == 4, "MPI_Request_get_status_any found %d of 4 requests complete", done);
      break;
    case 9:
      MPI_Startall(4, all);
      for (;;) {
        CHECK(MPI_Request_get_status_some(4, all, &outcount, indices, statuses) == MPI_SUCCESS,
              "MPI_Request_get_status_some");
        if (outcount == MPI_UNDEFINED) break;
        for (int k = 0; k < outcount; ++k) settle(all, indices[k], pair);
        done += outcount;
      }
      CHECK(done == 4, "MPI_Request_get_status_some found %d of 4 requests complete", done);
      break;
#endif
    default:  // both in flight, completed in reverse, one polled first
      MPI_Start(&pair[0].mine);
      MPI_Start(&pair[1].mine);
      for (flag = 0; !flag;) MPI_Request_get_status(pair[1].mine, &flag, MPI_STATUS_IGNORE);
      MPI_Wait(&pair[1].mine, MPI_STATUS_IGNORE);
      for (flag = 0; !flag;) MPI_Testany(1, &pair[0].mine, &index, &flag, MPI_STATUS_IGNORE);
      CHECK(index == 0, "MPI_Testany: index %d", index);
      MPI_Startall(2, ring->requests);
      MPI_Waitall(2, ring->requests, statuses);
      break;
  }
  for (int r = 0; r < 2; ++r) {  // the data first: the check after it would finish the call
    compare(&pair[r], it, way, what);
    CHECK(way < 7 || memcmp(pair[r].early, pair[r].got, sizeof pair[r].got) == 0,
          "%s call %d: complete to MPI_Request_get_status_* (way %d) before its data was in", what, it, way);
    int still = 1;
    MPI_Request_get_status(pair[r].mine, &still, MPI_STATUS_IGNORE);
    CHECK(still, "%s call %d: the request is still in flight after its completion", what, it);
  }
  check_ring(ring, it);
}

static void check_mode(int iterations) {
  MPI_Comm comms[kComms] = {graph(0), grid(1), grid(0), graph(1), box()};
  const char* names[kComms] = {"graph", "periodic grid", "grid", "graph with a self loop", "3-D box"};
  static Exchange exchanges[kComms][2];
  int mpis[kComms];
  for (int c = 0; c < kComms; ++c) mpis[c] = left_to_mpi(comms[c]);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Ring ring;
  MPI_Send_init(&ring.out, 1, MPI_DOUBLE, (world_rank + 1) % size, 7, MPI_COMM_WORLD, &ring.requests[1]);
  MPI_Recv_init(&ring.in, 1, MPI_DOUBLE, (world_rank + size - 1) % size, 7, MPI_COMM_WORLD, &ring.requests[0]);
  for (int c = 0; c < kComms; ++c)
    for (int r = 0; r < 2; ++r) CHECK(make(&exchanges[c][r], comms[c], r, 0, -1, mpis[c]) == MPI_SUCCESS, "init");
  for (int it = 0; it < iterations; ++it) {
    for (int c = 0; c < kComms; ++c) call(exchanges[c], &ring, it, mpis[c] ? mpi_ways[it % 2] : it % kWays, names[c]);
    if (it % 7 == 6)
      for (int c = 0; c < kComms; ++c)
        for (int r = 0; r < 2; ++r) {
          release(&exchanges[c][r]);
          CHECK(make(&exchanges[c][r], comms[c], r, it / 7 + 1, -1, mpis[c]) == MPI_SUCCESS, "init again");
        }
  }
  for (int c = 0; c < kComms; ++c)
    for (int r = 0; r < 2; ++r) release(&exchanges[c][r]);
  MPI_Request_free(&ring.requests[0]);
  MPI_Request_free(&ring.requests[1]);
  for (int c = 1; c < kComms; ++c) MPI_Comm_free(&comms[c]);  // the graph stays: released by MPI_Finalize
  MPI_Datatype type = strided();
  MPI_Type_free(&type);
}

// Whether `code` is an error whose string holds `part` (and "rank 1" for another rank's).
static int failed_with(int code, const char* part) {
  if (code == MPI_SUCCESS) return 0;
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  MPI_Error_string(code, text, &length);
  CHECK(strstr(text, part) && (world_rank == 1 || strstr(text, "rank 1")), "rank %d's error string '%s'", world_rank,
        text);
  return 1;
}

// Rank 1 starts its request a second time while the first call is in flight: it gets
// hympi's error there, and every rank that receives from it an error in a start or a
// completion of that call or of the next (through the refusal rank 1 posts; on one node
// every rank of the node), none waits for the watchdog.
static void twice_mode(void) {
  MPI_Comm comm = graph(0);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  static Exchange e;
  CHECK(make(&e, comm, 0, 0, -1, 0) == MPI_SUCCESS, "init");
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0, failed = failed_with(MPI_Start(&e.mine), "still active");
  CHECK(world_rank != 1 || !failed, "rank 1's first MPI_Start failed");
  if (world_rank == 1) {
    const int code = MPI_Start(&e.mine);
    CHECK(code != MPI_SUCCESS, "a second MPI_Start of an active request: MPI_SUCCESS");
    if (code != MPI_SUCCESS) MPI_Error_string(code, text, &length);
    CHECK(strstr(text, "hympi: MPI_Start on a persistent") && strstr(text, "still active"),
          "rank 1's error string '%s'", text);
    printf("test_pmpi_persistent: rank 1 got: %s\n", text);
    failed = 1;
  }
  for (int call = 0; call < 2 && !failed; ++call) {
    if (call == 1) failed = failed_with(MPI_Start(&e.mine), "still active");
    if (!failed) failed = failed_with(MPI_Wait(&e.mine, MPI_STATUS_IGNORE), "still active");
  }
  int from_1 = world_rank == 1;
  for (int j = 0; j < e.in; ++j) from_1 |= e.sources[j] == 1;
  CHECK(failed || !from_1, "rank %d receives from rank 1 and got no error", world_rank);
  MPI_Request_free(&e.mine);
  MPI_Comm_free(&comm);
}

// A served request whose communicator is freed before it: starting it afterwards is an
// error (through MPI_COMM_WORLD's handler: the communicator's is gone), freeing it works.
static void comm_freed_mode(void) {
  MPI_Comm comm = graph(0);
  static Exchange e;
  CHECK(make(&e, comm, 0, 0, -1, 0) == MPI_SUCCESS, "init");
  prepare(&e, 0);
  MPI_Start(&e.mine);
  MPI_Wait(&e.mine, MPI_STATUS_IGNORE);
  compare(&e, 0, 0, "before its communicator goes");
  MPI_Comm same;  // the same graph, for PMPI's reference calls once comm is gone
  MPI_Comm_dup(comm, &same);
  MPI_Comm_free(&comm);
  e.comm = same;
  for (int it = 1; it < 4; ++it) {
    prepare(&e, it);
    CHECK(MPI_Start(&e.mine) == MPI_SUCCESS, "MPI_Start after MPI_Comm_free");
    CHECK(MPI_Wait(&e.mine, MPI_STATUS_IGNORE) == MPI_SUCCESS, "MPI_Wait after MPI_Comm_free");
    compare(&e, it, 0, "after its communicator was freed");
  }
  CHECK(MPI_Request_free(&e.mine) == MPI_SUCCESS && e.mine == MPI_REQUEST_NULL, "MPI_Request_free");
  MPI_Comm_free(&same);
}

static void mismatch_mode(void) {
  MPI_Comm comm = graph(0);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  static Exchange e;
  e.mine = MPI_REQUEST_NULL;
  const int code = make(&e, comm, 0, 1, 1, 0);
  CHECK(code != MPI_SUCCESS, "rank 1 expects one element more than its neighbour sends: MPI_SUCCESS");
  CHECK(e.mine == MPI_REQUEST_NULL, "a failed init made a request");
  char text[MPI_MAX_ERROR_STRING] = "";
  int length = 0;
  if (code != MPI_SUCCESS) MPI_Error_string(code, text, &length);
  CHECK(strstr(text, "hympi") != NULL, "error string '%s'", text);
  if (world_rank == 0) printf("test_pmpi_persistent: rank 0 got: %s\n", text);
  static Exchange pair[2];
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Ring ring;
  MPI_Send_init(&ring.out, 1, MPI_DOUBLE, (world_rank + 1) % size, 7, MPI_COMM_WORLD, &ring.requests[1]);
  MPI_Recv_init(&ring.in, 1, MPI_DOUBLE, (world_rank + size - 1) % size, 7, MPI_COMM_WORLD, &ring.requests[0]);
  for (int r = 0; r < 2; ++r) CHECK(make(&pair[r], comm, r, 2, -1, 0) == MPI_SUCCESS, "a right init after it");
  for (int it = 0; it < kWays; ++it) call(pair, &ring, it, it, "after the mismatch");
  for (int r = 0; r < 2; ++r) release(&pair[r]);
  MPI_Request_free(&ring.requests[0]);
  MPI_Request_free(&ring.requests[1]);
  MPI_Comm_free(&comm);
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  if (strcmp(mode, "mismatch") == 0)
    mismatch_mode();
  else if (strcmp(mode, "twice") == 0)
    twice_mode();
  else if (strcmp(mode, "comm_freed") == 0)
    comm_freed_mode();
  else
    check_mode(test_iterations());
  return end_test("test_pmpi_persistent", mode);
}
