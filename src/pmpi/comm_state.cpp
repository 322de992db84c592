// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/comm_state.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <numeric>
#include <optional>
#include <utility>
#include <vector>

#include "mpi/coll/context_access.hpp"
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
  long made = 0;          // g_contexts_made when its Context was made
  NeighborSlot neighbor;  // after `context`: released before it
};

// Contexts this process has made: their order among the Contexts of one group is the same
// on every rank of it (each is made collectively).
long g_contexts_made = 0;

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

// The states of freed communicators whose release is collective, kept whole until
// MPI_Finalize (release_detached), their engines meanwhile joined by the next Context on a
// congruent communicator.
std::vector<CommState*> g_detached;

// Whether releasing `s` makes no collective call: no Context, or one whose engine another
// Context shares (or that MPI_Finalize released: Open MPI deletes MPI_COMM_WORLD's
// attributes there, after hympi's objects), and no neighbourhood exchange (a Halo's
// release is collective).
bool local_release(const CommState& s) {
  return !s.context || (!s.neighbor.exchange && s.neighbor.persistent.empty() &&
                        detail::ContextAccess::release_is_local(*s.context));
}

// Whether `s` is kept for its Context's engine alone (no neighbourhood exchange).
bool engine_only(const CommState& s) { return !s.neighbor.exchange && s.neighbor.persistent.empty(); }

// Deletes the kept states whose release has become local (a Context joined their engine since).
void drop_local() {
  std::erase_if(g_detached, [](CommState* s) {
    if (!local_release(*s)) return false;
    delete s;
    return true;
  });
}

// The ranks in `parent` (its group) of every rank of `comm`, or nothing when one is not there.
std::optional<std::vector<int>> ranks_in(MPI_Comm comm, MPI_Group parent) {
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  int size = 0;
  PMPI_Group_size(group, &size);
  std::vector<int> mine(static_cast<std::size_t>(size)), there(mine.size());
  std::iota(mine.begin(), mine.end(), 0);
  PMPI_Group_translate_ranks(group, size, mine.data(), parent, there.data());
  PMPI_Group_free(&group);
  if (std::ranges::find(there, MPI_UNDEFINED) != there.end()) return std::nullopt;
  return there;
}

// MPI_Comm_free's attribute callback: local, as MPI's own free is (ranks free their
// communicators in any order: a collective release here hung two ranks that freed two
// communicators in opposite orders).
int release(MPI_Comm, int, void* state, void*) {
  auto* s = static_cast<CommState*>(state);
  if (g_last.state == s) g_last = {};
  if (local_release(*s)) {
    Inside inside;  // a side communicator's free is MPI's
    delete s;
  } else {
    s->neighbor.communicator_freed();
    g_detached.push_back(s);
  }
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

void NeighborSlot::communicator_freed() {
  for (const auto& request : persistent) request->communicator_freed(side_);
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
      s.made = ++g_contexts_made;
    } catch (const std::exception&) {
      s.blocked = Path::setup_failed;  // hympi fails a set-up on every rank alike
      return s.blocked;
    }
  }
  context = s.context.get();
  return Path::hympi;
}

NeighborSlot& neighbor_slot(MPI_Comm comm) { return state_of(comm)->neighbor; }

void release_agreed(MPI_Comm parent) {
  Inside inside;  // the agreement's and the releases' MPI calls are hympi's
  drop_local();
  // The states kept for an engine all of whose ranks are in parent: this rank's candidates.
  struct Candidate {
    int64_t key;
    CommState* state;
    std::vector<int> ranks;  // the engine's ranks, in parent
  };
  std::vector<Candidate> mine;
  if (!g_detached.empty()) {
    MPI_Group group;
    PMPI_Comm_group(parent, &group);
    for (CommState* s : g_detached)
      if (engine_only(*s))
        if (auto ranks = ranks_in(s->context->topology().world(), group))
          mine.push_back({detail::ContextAccess::engine_key(*s->context), s, std::move(*ranks)});
    PMPI_Group_free(&group);
  }
  int most = int(mine.size());
  PMPI_Allreduce(MPI_IN_PLACE, &most, 1, MPI_INT, MPI_MAX, parent);
  if (most == 0) return;  // no rank keeps one: the common case, one small allreduce
  int size = 0;
  PMPI_Comm_size(parent, &size);
  std::vector<int64_t> listed(std::size_t(most), -1), all(std::size_t(size) * std::size_t(most));
  for (std::size_t i = 0; i < mine.size(); ++i) listed[i] = mine[i].key;
  PMPI_Allgather(listed.data(), most, MPI_INT64_T, all.data(), most, MPI_INT64_T, parent);
  // An engine's key names one engine on each of its ranks, so an engine is released where
  // every one of its ranks listed its key: on all of them (they read the same lists), by
  // key, newest first, the same order on every rank (a rank holds no two with one key).
  const auto lists = [&](int rank, int64_t key) {
    const auto first = all.begin() + std::ptrdiff_t(rank) * most;
    return std::find(first, first + most, key) != first + most;
  };
  std::ranges::sort(mine, std::greater<>(), &Candidate::key);
  for (const Candidate& c : mine)
    if (std::ranges::all_of(c.ranks, [&](int rank) { return lists(rank, c.key); })) {
      std::erase(g_detached, c.state);
      delete c.state;
    }
}

void release_detached() {
  Inside inside;  // the releases' MPI calls are hympi's
  drop_local();
  // The others are the same on every rank: the frees of a correct program are, a free
  // never releases an engine, and a state is kept without an exchange only while it alone
  // holds its engine. Which freed Context holds an engine differs between ranks (the last
  // one freed there), so they go by engine, newest first, not in the order they were made.
  const auto order = [](const CommState* s) {
    return std::pair(detail::ContextAccess::engine_key(*s->context), s->made);
  };
  std::sort(g_detached.begin(), g_detached.end(),
            [&](const CommState* a, const CommState* b) { return order(a) > order(b); });
  for (CommState* s : g_detached) delete s;
  g_detached.clear();
}

}  // namespace hympi::pmpi
