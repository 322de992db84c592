// SPDX-License-Identifier: BSD-3-Clause
// MPI-4's persistent neighbourhood exchanges (MPI_Neighbor_alltoall(v)_init) through hympi:
// a request whose MPI_Start sends through the communicator's shared memory and whose
// completion, in any of MPI's completion calls, receives.
//
// Invariants:
//  - The handle the program holds is MPI's own: a persistent receive from MPI_PROC_NULL (on
//    MPI_COMM_SELF) made at init and never started, so MPI always sees an inactive request. The library answers
//    for it in every completion call: MPI_Wait and MPI_Test alone, and in arrays MPI's
//    treatment of an inactive request is what a completed one needs (MPI_Waitall,
//    MPI_Testall: complete, with an empty status), but where MPI would skip it (MPI_Waitany,
//    MPI_Waitsome, MPI_Testany, MPI_Testsome) the library reports it itself beside what MPI
//    completes of the others.
//  - States: idle -> start() -> in flight -> its receives done -> done -> reported by a
//    completion call -> idle. MPI_Request_get_status may finish a call (done) without
//    reporting it; a start of a request that is not idle is an error.
//  - Receives: in the first completion call that finds the messages in (Test forms and
//    MPI_Request_get_status: only then, they stay local). MPI_Wait, MPI_Waitall and
//    MPI_Request_free wait for them as the blocking MPI_Neighbor_alltoallv does (hympi's
//    wait, which drives MPI's progress once it has spun, as every wait of the library);
//    MPI_Waitany and MPI_Waitsome poll them beside MPI_Testany / MPI_Testsome of the other
//    requests, which drives MPI's progress.
//  - Counts and types are fixed at init (copied there; a derived type duplicated, since the
//    program may free its own once the request is made, and its layout kept): every message
//    fits its slot, and counts that differ between neighbours are an error on every rank at
//    init.
//  - Releasing an exchange is collective, MPI_Request_free is local: a freed request's
//    exchange stays with its communicator's state until every rank has freed it (agreed at
//    the next init on that communicator) or MPI_Finalize releases it. MPI_Comm_free keeps a
//    state with requests whole (comm_state.hpp), so a request whose communicator was freed
//    first keeps working, as MPI's requests do.
//  - Programs at MPI_THREAD_MULTIPLE never get here (Path::thread_multiple): the registry
//    has no lock (one that opens an MPI session at that level after making served requests
//    completes and frees those one at a time: docs/pmpi.md).
#pragma once

#include <mpi.h>

#include "pmpi/mpi_features.hpp"  // HYMPI_PMPI_PERSISTENT: the entry points exist where MPI has the calls

#include <cstddef>
#include <memory>
#include <vector>

#include "core/function_ref.hpp"
#include "pmpi/comm_state.hpp"
#include "pmpi/neighbor.hpp"

namespace hympi::pmpi {

/// One request of MPI_Neighbor_alltoall(v)_init served by hympi.
class PersistentNeighbor {
 public:
  /// Collective over comm (its init): the exchange, and *request (MPI's handle) registered.
  PersistentNeighbor(Operation which, Context& context, NeighborSlot& slot, MPI_Comm comm, const Blocks& send,
                     const Blocks& recv, std::size_t max_bytes, MPI_Request* request);
  ~PersistentNeighbor();
  PersistentNeighbor(const PersistentNeighbor&) = delete;
  PersistentNeighbor& operator=(const PersistentNeighbor&) = delete;

  enum class State { idle, in_flight, done };

  bool freed() const { return freed_; }
  State state() const { return state_; }
  /// The program freed the request's communicator: its errors go to `side` (the slot's
  /// duplicate of it, which has its error handler as it was at the first exchange).
  void communicator_freed(MPI_Comm side) { comm_ = side; }
  /// MPI_Start; an error code for the program (MPI_SUCCESS).
  int start();
  /// In flight: finishes the call if its messages are in (local). Whether it is not in
  /// flight (any more). An error went to the communicator's handler, its code to `*code`.
  bool try_finish(int* code);
  /// In flight: finishes the call, waiting for its messages as the blocking
  /// MPI_Neighbor_alltoallv does (hympi's wait, under its watchdog); errors as try_finish.
  void finish(int* code);
  /// Done: reported by a completion call, now idle (true); else false.
  bool report();
  /// MPI_Request_free: finishes a call in flight (waiting), unregisters, frees MPI's handle.
  int release(MPI_Request* request);
  /// Polls `ready` (which drives MPI's progress) under this Context's watchdog.
  void poll(core::FunctionRef<bool()> ready);

 private:
  /// hympi's receives of the call in flight: done.
  void finish_now(int* code);

  Operation which_;
  Context& context_;
  MPI_Comm comm_;  // whose handler gets its errors: the program's, once freed its side duplicate
  std::vector<int> counts_[2], displs_[2];  // the program's arrays, copied
  std::vector<MPI_Count> wide_counts_[2];   // or those of the large-count form
  std::vector<MPI_Aint> wide_displs_[2];
  Blocks send_, recv_;     // their types: the request's own (derived ones duplicated)
  TypeLayout layouts_[2];  // send_.type's, recv_.type's
  std::size_t bytes_;  // this rank's send bytes, for the report
  std::unique_ptr<NeighborExchange> exchange_;
  MPI_Request handle_;  // MPI's persistent receive from MPI_PROC_NULL, never started
  State state_ = State::idle;
  bool freed_ = false;
};

/// Requests registered now: with none, every completion call goes straight to MPI.
inline std::size_t g_live_requests = 0;
/// The hympi request behind MPI's handle, or null.
PersistentNeighbor* find_request(MPI_Request request);

/// At an init served on `slot`'s communicator (collective): releases the exchanges that
/// every rank has freed.
void reclaim_freed(MPI_Comm comm, NeighborSlot& slot);

}  // namespace hympi::pmpi
