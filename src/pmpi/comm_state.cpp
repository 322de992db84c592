// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/comm_state.hpp"

#include <exception>
#include <memory>

#include "mpi/support/internal_comm.hpp"
#include "pmpi/inside.hpp"
#include "pmpi/neighbor.hpp"
#include "pmpi/persistent.hpp"
#include "pmpi/settings.hpp"

namespace hympi::pmpi {
namespace {

struct CommState {
  long calls = 0;
  Path blocked = Path::hympi;  // a reason this communicator never gets a Context, or hympi
  std::unique_ptr<Context> context;
  NeighborSlot neighbor;  // after `context`: released before it
};

// The communicator looked up last and its state: programs make their collectives on one
// communicator in a row, and MPI's attribute lookup (a locked hash table in Open MPI) costs
// about as much as a small hympi collective. Forgotten when that state is released
// (MPI_Comm_free: MPI may give the handle to a later communicator). No lock: programs at
// MPI_THREAD_MULTIPLE never get here (Path::thread_multiple), the others make their MPI
// calls one at a time (one that opens an MPI session at that level after served calls
// frees its earlier communicators one at a time too: docs/pmpi.md).
struct LastLookup {
  MPI_Comm comm = MPI_COMM_NULL;
  CommState* state = nullptr;
};
LastLookup g_last;

int release(MPI_Comm, int, void* state, void*) {
  Inside inside;  // the Context's release makes MPI calls of its own
  if (g_last.state == state) g_last = {};
  delete static_cast<CommState*>(state);
  return MPI_SUCCESS;
}

int keyval() {
  static const int key = [] {
    int k = MPI_KEYVAL_INVALID;
    PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &release, &k, nullptr);
    return k;
  }();
  return key;
}

CommState* state_of(MPI_Comm comm) {
  if (comm == g_last.comm && g_last.state) return g_last.state;
  void* value = nullptr;
  int found = 0;
  if (comm == MPI_COMM_NULL || PMPI_Comm_get_attr(comm, keyval(), &value, &found) != MPI_SUCCESS) return nullptr;
  if (found) {
    g_last = {comm, static_cast<CommState*>(value)};
    return g_last.state;
  }
  auto* state = new CommState;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter)
    state->blocked = Path::intercommunicator;
  else if (mpi::is_internal(comm))
    state->blocked = Path::hympi_internal;
  PMPI_Comm_set_attr(comm, keyval(), state);
  g_last = {comm, state};
  return state;
}

}  // namespace

NeighborSlot::NeighborSlot() = default;
NeighborSlot::~NeighborSlot() {
  persistent.clear();
  exchange.reset();
  if (side_ != MPI_COMM_NULL) PMPI_Comm_free(&side_);
}

MPI_Comm NeighborSlot::side(MPI_Comm comm) {
  if (side_ == MPI_COMM_NULL) PMPI_Comm_dup(comm, &side_);
  return side_;
}

Path route(MPI_Comm comm, Context*& context, bool now) {
  context = nullptr;
  CommState* state = state_of(comm);
  if (!state) return Path::invalid;
  CommState& s = *state;
  if (s.blocked != Path::hympi) return s.blocked;
  if (!s.context) {
    if (++s.calls <= settings().after && !now) return Path::warming_up;
    try {
      Inside inside;
      s.context = std::make_unique<Context>(comm);
    } catch (const std::exception&) {
      s.blocked = Path::setup_failed;  // hympi fails a set-up on every rank alike
      return s.blocked;
    }
  }
  context = s.context.get();
  return Path::hympi;
}

NeighborSlot& neighbor_slot(MPI_Comm comm) { return state_of(comm)->neighbor; }

}  // namespace hympi::pmpi
