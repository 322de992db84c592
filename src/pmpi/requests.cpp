// SPDX-License-Identifier: BSD-3-Clause
// MPI's start and completion calls, for the persistent neighbourhood requests hympi serves
// (persistent.hpp: their MPI handles are never started, and how each call waits). With no
// such request alive, or inside hympi, each goes straight to PMPI. Otherwise the hympi
// requests in a call are finished first (MPI_Wait, MPI_Waitall: each; MPI_Waitany,
// MPI_Waitsome: until one of them finishes or MPI completes another, tested with the hympi
// ones hidden; the Test forms: those whose messages are in), then MPI gets the array: it
// takes a finished hympi request (inactive to MPI) for complete in MPI_Waitall and
// MPI_Testall, and the library reports them itself in the other forms. MPI_Startall starts
// each request in turn, as MPI defines it. MPI-4.1's MPI_Request_get_status_all/any/some
// (where MPI has them) answer as the Test forms but leave every request as it is.
#include <mpi.h>

#include <vector>

#include "pmpi/inside.hpp"
#include "pmpi/persistent.hpp"

#ifdef HYMPI_PMPI_PERSISTENT
namespace hympi::pmpi {
namespace {

using State = PersistentNeighbor::State;

bool straight() { return Inside::now() || g_live_requests == 0; }

int first_error(int code, int mpi) { return code != MPI_SUCCESS ? code : mpi; }

// What MPI returns for a completed collective: no source, tag or data.
void empty_status(MPI_Status* status) {
  if (status == MPI_STATUS_IGNORE) return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  PMPI_Status_set_elements(status, MPI_BYTE, 0);
  PMPI_Status_set_cancelled(status, 0);
}

// A call that finds a hympi request in flight answers "not complete" without MPI: it still
// drives MPI's progress, as MPI's own Test would.
int not_complete(int* flag, int code) {
  int probed = 0;
  PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &probed, MPI_STATUS_IGNORE);
  *flag = 0;
  return code;
}

// Finishes the hympi requests among `requests` whose messages are in; how many are still
// in flight. `*code`: the first error.
int finish_arrived(int count, const MPI_Request* requests, int* code) {
  int in_flight = 0;
  for (int i = 0; i < count; ++i)
    if (PersistentNeighbor* p = find_request(requests[i]); p && !p->try_finish(code)) ++in_flight;
  return in_flight;
}

// The done hympi requests among `requests` (up to `room`): their indices into `indices`,
// empty statuses into `statuses` (unless MPI_STATUSES_IGNORE); how many. `report`: they
// are reported (now idle: a completion call); else they stay done (MPI_Request_get_status_*).
int report_done(int count, const MPI_Request* requests, int room, int* indices, MPI_Status* statuses,
                bool report = true) {
  int n = 0;
  for (int i = 0; i < count && n < room; ++i)
    if (PersistentNeighbor* p = find_request(requests[i]);
        p && (report ? p->report() : p->state() == State::done)) {
      indices[n] = i;
      if (statuses != MPI_STATUSES_IGNORE) empty_status(&statuses[n]);
      ++n;
    }
  return n;
}

// The array with the hympi requests hidden (MPI_REQUEST_NULL): what MPI is asked about
// the others.
std::vector<MPI_Request> others_of(int count, const MPI_Request* requests) {
  std::vector<MPI_Request> others(requests, requests + count);
  for (MPI_Request& r : others)
    if (find_request(r)) r = MPI_REQUEST_NULL;
  return others;
}

// The first hympi request in flight or done among `requests`, or null.
PersistentNeighbor* first_pending(int count, const MPI_Request* requests) {
  for (int i = 0; i < count; ++i)
    if (PersistentNeighbor* p = find_request(requests[i]); p && p->state() != State::idle) return p;
  return nullptr;
}

// MPI_Waitany / MPI_Waitsome (`room` 1 / count) with hympi requests pending: polls until
// some hympi request is done (reported) or MPI's Testany / Testsome of the others completes
// some, whose handles go back into the program's array. -1: none pending, MPI's own call
// decides.
int wait_some(int count, MPI_Request* requests, int room, int* indices, MPI_Status* statuses, int* code) {
  PersistentNeighbor* first = first_pending(count, requests);
  if (!first) return -1;
  std::vector<MPI_Request> others = others_of(count, requests);
  int n = 0;
  first->poll([&] {
    finish_arrived(count, requests, code);
    n = report_done(count, requests, room, indices, statuses);
    if (n > 0) return true;
    int flag = 0, mpi = MPI_SUCCESS;
    if (room == 1) {
      mpi = PMPI_Testany(count, others.data(), indices, &flag, statuses);
      n = flag && indices[0] != MPI_UNDEFINED ? 1 : 0;
    } else {
      mpi = PMPI_Testsome(count, others.data(), &n, indices, statuses);
      n = n == MPI_UNDEFINED ? 0 : n;
    }
    for (int k = 0; k < n; ++k) requests[indices[k]] = others[std::size_t(indices[k])];
    *code = first_error(*code, mpi);
    return n > 0 || mpi != MPI_SUCCESS;
  });
  return n;
}

// MPI_Testany and MPI_Request_get_status_any (`report`: whether a done hympi request found
// is completed or stays done): the first done hympi request, else what `mpi_any(index,
// flag, status)` answers for the others.
template <typename MpiAny>
int test_any(int count, const MPI_Request* requests, int* index, int* flag, MPI_Status* status, bool report,
             MpiAny mpi_any) {
  int code = MPI_SUCCESS;
  const int in_flight = finish_arrived(count, requests, &code);
  if (report_done(count, requests, 1, index, status, report) == 1) {
    *flag = 1;
    return code;
  }
  const int mpi = mpi_any(index, flag, status);
  if (in_flight > 0 && *index == MPI_UNDEFINED) *flag = 0;  // MPI saw only inactive requests
  return first_error(code, mpi);
}

// MPI_Testsome and MPI_Request_get_status_some likewise: the done hympi requests first, then
// what `mpi_some(outcount, indices, statuses)` answers for the others.
template <typename MpiSome>
int test_some(int count, const MPI_Request* requests, int* outcount, int* indices, MPI_Status* statuses,
              bool report, MpiSome mpi_some) {
  int code = MPI_SUCCESS;
  const int in_flight = finish_arrived(count, requests, &code);
  const int ours = report_done(count, requests, count, indices, statuses, report);
  int theirs = 0;
  const int mpi = mpi_some(&theirs, indices + ours, statuses == MPI_STATUSES_IGNORE ? statuses : statuses + ours);
  if (theirs == MPI_UNDEFINED) theirs = ours + in_flight > 0 ? 0 : MPI_UNDEFINED;  // MPI saw only inactive requests
  *outcount = theirs == MPI_UNDEFINED ? theirs : ours + theirs;
  return first_error(code, mpi);
}

}  // namespace
}  // namespace hympi::pmpi

using hympi::pmpi::find_request;
using hympi::pmpi::PersistentNeighbor;

#ifdef HYMPI_PMPI_STATUS_ARRAYS
// The request array of MPI-4.1's status calls as this mpi.h declares it: const in MPICH 5,
// not in MPICH 4.1-4.2 (an entry point must match its prototype).
template <class F>
struct RequestArrayOf;
template <class Requests, class... Rest>
struct RequestArrayOf<int (*)(int, Requests, Rest...)> {
  using type = Requests;
};
using RequestArray = RequestArrayOf<decltype(&PMPI_Request_get_status_all)>::type;
#endif

extern "C" {

int MPI_Start(MPI_Request* request) {
  if (hympi::pmpi::straight()) return PMPI_Start(request);
  if (PersistentNeighbor* p = find_request(*request)) return p->start();
  return PMPI_Start(request);
}

int MPI_Startall(int count, MPI_Request requests[]) {
  if (hympi::pmpi::straight()) return PMPI_Startall(count, requests);
  int code = MPI_SUCCESS;
  for (int i = 0; i < count; ++i) code = hympi::pmpi::first_error(code, MPI_Start(&requests[i]));
  return code;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Wait(request, status);
  PersistentNeighbor* p = find_request(*request);
  if (!p) return PMPI_Wait(request, status);
  int code = MPI_SUCCESS;
  p->finish(&code);
  p->report();
  hympi::pmpi::empty_status(status);
  return code;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Waitall(count, requests, statuses);
  int code = MPI_SUCCESS;
  for (int i = 0; i < count; ++i)
    if (PersistentNeighbor* p = find_request(requests[i])) p->finish(&code), p->report();
  return hympi::pmpi::first_error(code, PMPI_Waitall(count, requests, statuses));
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Waitany(count, requests, index, status);
  int code = MPI_SUCCESS;
  if (hympi::pmpi::wait_some(count, requests, 1, index, status, &code) < 0)
    return PMPI_Waitany(count, requests, index, status);
  return code;
}

int MPI_Waitsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Waitsome(count, requests, outcount, indices, statuses);
  int code = MPI_SUCCESS;
  *outcount = hympi::pmpi::wait_some(count, requests, count, indices, statuses, &code);
  if (*outcount < 0) return PMPI_Waitsome(count, requests, outcount, indices, statuses);
  return code;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Test(request, flag, status);
  PersistentNeighbor* p = find_request(*request);
  if (!p) return PMPI_Test(request, flag, status);
  int code = MPI_SUCCESS;
  if (!p->try_finish(&code)) return hympi::pmpi::not_complete(flag, code);
  p->report();
  hympi::pmpi::empty_status(status);
  *flag = 1;
  return code;
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Testall(count, requests, flag, statuses);
  int code = MPI_SUCCESS;
  if (hympi::pmpi::finish_arrived(count, requests, &code) > 0)  // not all complete: none is touched
    return hympi::pmpi::not_complete(flag, code);
  const int mpi = PMPI_Testall(count, requests, flag, statuses);
  if (*flag)  // the done hympi requests went as inactive ones, complete
    for (int i = 0; i < count; ++i)
      if (PersistentNeighbor* p = find_request(requests[i])) p->report();
  return hympi::pmpi::first_error(code, mpi);
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Testany(count, requests, index, flag, status);
  return hympi::pmpi::test_any(count, requests, index, flag, status, true, [&](int* i, int* f, MPI_Status* st) {
    return PMPI_Testany(count, requests, i, f, st);
  });
}

int MPI_Testsome(int count, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Testsome(count, requests, outcount, indices, statuses);
  return hympi::pmpi::test_some(count, requests, outcount, indices, statuses, true,
                                [&](int* n, int* at, MPI_Status* st) { return PMPI_Testsome(count, requests, n, at, st); });
}

int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Request_get_status(request, flag, status);
  PersistentNeighbor* p = find_request(request);
  if (!p) return PMPI_Request_get_status(request, flag, status);
  int code = MPI_SUCCESS;
  if (!p->try_finish(&code)) return hympi::pmpi::not_complete(flag, code);
  hympi::pmpi::empty_status(status);  // done stays done: a completion call reports it
  *flag = 1;
  return code;
}

#ifdef HYMPI_PMPI_STATUS_ARRAYS
// MPI-4.1's status calls on arrays: as MPI_Testall / MPI_Testany / MPI_Testsome, but no
// request is completed (a done hympi request stays done, MPI's stay active).

int MPI_Request_get_status_all(int count, RequestArray requests, int* flag, MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Request_get_status_all(count, requests, flag, statuses);
  int code = MPI_SUCCESS;
  if (hympi::pmpi::finish_arrived(count, requests, &code) > 0)  // MPI would take them for inactive
    return hympi::pmpi::not_complete(flag, code);
  return hympi::pmpi::first_error(code, PMPI_Request_get_status_all(count, requests, flag, statuses));
}

int MPI_Request_get_status_any(int count, RequestArray requests, int* index, int* flag,
                               MPI_Status* status) {
  if (hympi::pmpi::straight()) return PMPI_Request_get_status_any(count, requests, index, flag, status);
  return hympi::pmpi::test_any(count, requests, index, flag, status, false, [&](int* i, int* f, MPI_Status* st) {
    return PMPI_Request_get_status_any(count, requests, i, f, st);
  });
}

int MPI_Request_get_status_some(int count, RequestArray requests, int* outcount, int indices[],
                                MPI_Status statuses[]) {
  if (hympi::pmpi::straight()) return PMPI_Request_get_status_some(count, requests, outcount, indices, statuses);
  return hympi::pmpi::test_some(count, requests, outcount, indices, statuses, false, [&](int* n, int* at, MPI_Status* st) {
    return PMPI_Request_get_status_some(count, requests, n, at, st);
  });
}
#endif

int MPI_Request_free(MPI_Request* request) {
  if (hympi::pmpi::straight()) return PMPI_Request_free(request);
  if (PersistentNeighbor* p = find_request(*request)) return p->release(request);
  return PMPI_Request_free(request);
}

}  // extern "C"
#endif
