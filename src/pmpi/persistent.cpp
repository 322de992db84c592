// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/persistent.hpp"

#include <exception>
#include <unordered_map>

#include "core/wait.hpp"
#include "mpi/coll/context_access.hpp"
#include "pmpi/errors.hpp"
#include "pmpi/inside.hpp"
#include "pmpi/report.hpp"

namespace hympi::pmpi {
namespace {

std::unordered_map<MPI_Request, PersistentNeighbor*>& registry() {
  static std::unordered_map<MPI_Request, PersistentNeighbor*> requests;
  return requests;
}

// One side's arrays copied (null stays null: the uniform form), `count` entries.
template <class T>
void keep(const T* from, int count, std::vector<T>& into, const T*& pointer) {
  if (!from) return;
  into.assign(from, from + count);
  pointer = into.data();
}

bool predefined(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner);
  return combiner == MPI_COMBINER_NAMED;
}

// The request's own handle of `type`: MPI lets the program free a derived type once the
// request is made (MPI's own request would keep it), so a derived one is duplicated.
MPI_Datatype own(MPI_Datatype type) {
  if (predefined(type)) return type;
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  PMPI_Type_dup(type, &copy);
  return copy;
}

void disown(MPI_Datatype type) {
  if (!predefined(type)) PMPI_Type_free(&type);
}

}  // namespace

PersistentNeighbor::PersistentNeighbor(Operation which, Context& context, NeighborSlot& slot, MPI_Comm comm,
                                       const Blocks& send, const Blocks& recv, std::size_t max_bytes,
                                       MPI_Request* request)
    : which_(which), context_(context), comm_(comm), send_(send), recv_(recv),
      bytes_(NeighborExchange::send_bytes(comm, send)) {
  int in = 0, out = 0;
  NeighborExchange::degrees(comm, in, out);
  keep(send.counts, out, counts_[0], send_.counts);
  keep(send.displs, out, displs_[0], send_.displs);
  keep(recv.counts, in, counts_[1], recv_.counts);
  keep(recv.displs, in, displs_[1], recv_.displs);
  keep(send.wide_counts, out, wide_counts_[0], send_.wide_counts);
  keep(send.wide_displs, out, wide_displs_[0], send_.wide_displs);
  keep(recv.wide_counts, in, wide_counts_[1], recv_.wide_counts);
  keep(recv.wide_displs, in, wide_displs_[1], recv_.wide_displs);
  exchange_ = std::make_unique<NeighborExchange>(context, comm, send_, recv_, max_bytes, slot.side(comm),
                                                 slot.next_tag());
  send_.type = own(send.type);  // once nothing can throw: the destructor gives them back
  recv_.type = own(recv.type);
  layouts_[0] = layout_of(send_.type);
  layouts_[1] = layout_of(recv_.type);
  // On MPI_COMM_SELF, not comm: a request on comm would keep it (and its state) alive past
  // MPI_Comm_free in MPICH, to be released inside a local MPI_Request_free.
  PMPI_Recv_init(nullptr, 0, MPI_BYTE, MPI_PROC_NULL, 0, MPI_COMM_SELF, &handle_);
  *request = handle_;
  registry().emplace(handle_, this);
  g_live_requests = registry().size();
}

PersistentNeighbor::~PersistentNeighbor() {
  disown(send_.type);
  disown(recv_.type);
}

int PersistentNeighbor::start() {
  if (counting()) count_bytes(which_, Path::hympi, bytes_);
  try {
    Inside inside;
    if (state_ != State::idle) {
      const char* reason = "hympi: MPI_Start on a persistent neighbourhood request that is still active (its last "
                           "start was not completed by MPI_Wait, MPI_Test or their kin)";
      exchange_->refuse(reason);  // the neighbours waiting for this rank's call fail too
      throw Error(reason);
    }
    exchange_->start(send_, layouts_[0]);
    state_ = State::in_flight;
    return MPI_SUCCESS;
  } catch (const std::exception& e) {
    return raise_error(comm_, e.what());
  }
}

bool PersistentNeighbor::try_finish(int* code) {
  if (state_ != State::in_flight) return true;
  try {
    Inside inside;
    if (!exchange_->arrived()) return false;
  } catch (const std::exception& e) {  // a refusal reached this rank: the call ends
    state_ = State::done;
    *code = raise_error(comm_, e.what());
    return true;
  }
  finish_now(code);
  return true;
}

void PersistentNeighbor::finish(int* code) {
  if (state_ == State::in_flight) finish_now(code);
}

bool PersistentNeighbor::report() {
  if (state_ != State::done) return false;
  state_ = State::idle;
  return true;
}

void PersistentNeighbor::finish_now(int* code) {
  state_ = State::done;
  try {
    Inside inside;
    exchange_->finish(recv_, layouts_[1]);
  } catch (const std::exception& e) {
    *code = raise_error(comm_, e.what());
  }
}

int PersistentNeighbor::release(MPI_Request* request) {
  int code = MPI_SUCCESS;
  finish(&code);
  registry().erase(handle_);
  g_live_requests = registry().size();
  freed_ = true;
  const int freed = PMPI_Request_free(request);
  return code != MPI_SUCCESS ? code : freed;
}

void PersistentNeighbor::poll(core::FunctionRef<bool()> ready) {
  Inside inside;
  int rank = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  core::poll_until(ready, detail::ContextAccess::wait(context_),
                   {"persistent neighbourhood exchange: a neighbour's MPI_Start", rank, -1},
                   "a neighbour never started its part of the persistent neighbourhood exchange");
}

PersistentNeighbor* find_request(MPI_Request request) {
  if (request == MPI_REQUEST_NULL) return nullptr;
  const auto it = registry().find(request);
  return it == registry().end() ? nullptr : it->second;
}

void reclaim_freed(MPI_Comm comm, NeighborSlot& slot) {
  if (slot.persistent.empty()) return;  // the same on every rank: made collectively
  std::vector<int> freed(slot.persistent.size());
  for (std::size_t i = 0; i < freed.size(); ++i) freed[i] = slot.persistent[i]->freed();
  PMPI_Allreduce(MPI_IN_PLACE, freed.data(), int(freed.size()), MPI_INT, MPI_MIN, comm);
  std::size_t i = 0;
  std::erase_if(slot.persistent, [&](const auto&) { return freed[i++] != 0; });
}

}  // namespace hympi::pmpi
