// SPDX-License-Identifier: BSD-3-Clause
// Pattern construction and its collective validation (docs/design.md, rule 7: bad input
// is an error on every rank, never a hang): local checks, then one all-to-all of counts
// so each receiver compares what its senders will send with what it expects. One array
// (from_lists, from_owners) or separate send and receive arrays (from_lists_apart): the
// same construction, where one array adds "a ghost is not sent on".
#include <mpi.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/name_table.hpp"
#include "halo/pattern_data.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/rank_lists.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi {
namespace {

using std::to_string;

std::string where(int rank) { return "hympi: Pattern: rank " + to_string(rank) + ": "; }

/// " outside 0..points-1 (array points)" for an id out of range, else "".
std::string out_of_range(int id, int points, const char* array) {
  if (id >= 0 && id < points) return "";
  return ", outside 0.." + to_string(points - 1) + " (" + array + " " + to_string(points) + ")";
}

/// The first problem in this rank's own lists, or "".
std::string check_local(const Pattern::Data& d, int self, int size) {
  if (d.chunk < 1) return where(self) + "chunk is " + to_string(d.chunk) + "; it must be >= 1";
  if (d.send_points < 0 || d.recv_points < 0)
    return where(self) + (d.apart ? "send_points or recv_points is negative" : "local_points is negative");
  const char* send_array = d.apart ? "send_points" : "local_points";
  const char* recv_array = d.apart ? "recv_points" : "local_points";
  std::vector<int> received_from(std::size_t(d.recv_points), -1), sent_to(std::size_t(d.send_points), -1);
  for (std::size_t i = 0; i < d.neighbors.size(); ++i) {
    const NeighborLists& n = d.neighbors[i];
    if (n.rank < 0 || n.rank >= size)
      return where(self) + "neighbour rank " + to_string(n.rank) + " is not in the communicator (size " +
             to_string(size) + ")";
    if (n.rank == self) return where(self) + "lists itself as a neighbour";
    if (i > 0 && d.neighbors[i - 1].rank == n.rank)
      return where(self) + "lists neighbour " + to_string(n.rank) + " twice";
    for (int id : n.send) {
      if (std::string e = out_of_range(id, d.send_points, send_array); !e.empty())
        return where(self) + "sends local id " + to_string(id) + " to rank " + to_string(n.rank) + e;
      sent_to[std::size_t(id)] = n.rank;
    }
    for (int id : n.recv) {
      if (std::string e = out_of_range(id, d.recv_points, recv_array); !e.empty())
        return where(self) + "receives from rank " + to_string(n.rank) + " into local id " + to_string(id) + e;
      int& from = received_from[std::size_t(id)];
      if (from >= 0)
        return where(self) + "ghost " + to_string(id) + " is received twice (from rank " + to_string(from) +
               " and from rank " + to_string(n.rank) + ")";
      from = n.rank;
    }
  }
  if (!d.apart)  // one array: a point its neighbours read must not be written by a receive
    for (int id = 0; id < d.recv_points; ++id)
      if (received_from[std::size_t(id)] >= 0 && sent_to[std::size_t(id)] >= 0)
        return where(self) + "local id " + to_string(id) + " is a ghost (from rank " +
               to_string(received_from[std::size_t(id)]) + ") and is also sent (to rank " +
               to_string(sent_to[std::size_t(id)]) + "); a ghost cannot be sent on";
  return "";
}

std::string show_arrays(int64_t apart) {
  return apart ? "separate send and receive arrays (from_lists_apart)" : "one array (from_lists, from_owners)";
}

/// Chunk, type and arrays must be the same on every rank (the set-up's first collective call).
void agree_on_data(MPI_Comm comm, int chunk, Datatype type, bool apart) {
  mpi::agree_on_setup(comm, "Pattern",
                      {{"chunk", chunk},
                       {"element type", int64_t(type), &core::show_name<Datatype>},
                       {"arrays", int64_t(apart), &show_arrays}});
}

/// The same number on every rank for one validated pattern, different (but for hash
/// collisions) for patterns whose lists differ anywhere: a Halo compares it across ranks.
uint64_t fingerprint(const Pattern::Data& d, MPI_Comm comm, int self) {
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](int64_t v) { h = (h ^ uint64_t(v)) * 1099511628211ull; };
  mix(self);
  mix(d.apart);
  mix(d.send_points);
  mix(d.recv_points);
  for (const NeighborLists& n : d.neighbors) {
    mix(n.rank);
    mix(int64_t(n.send.size()));
    for (int id : n.send) mix(id);
    mix(int64_t(n.recv.size()));
    for (int id : n.recv) mix(id);
  }
  uint64_t all = 0;  // unsigned sum: wraps, the same on every rank
  mpi::check(MPI_Allreduce(&h, &all, 1, MPI_UINT64_T, MPI_SUM, comm), "MPI_Allreduce (pattern fingerprint)");
  return all;
}

/// What each sender will send me against what I expect from it.
std::string check_counts(const Pattern::Data& d, MPI_Comm comm, int self, int size) {
  std::vector<long long> sends(std::size_t(size), 0), incoming(std::size_t(size), 0), expected(std::size_t(size), 0);
  for (const NeighborLists& n : d.neighbors)
    if (n.rank >= 0 && n.rank < size) {
      sends[std::size_t(n.rank)] = (long long)n.send.size();
      expected[std::size_t(n.rank)] = (long long)n.recv.size();
    }
  mpi::check(MPI_Alltoall(sends.data(), 1, MPI_LONG_LONG, incoming.data(), 1, MPI_LONG_LONG, comm),
             "MPI_Alltoall (pattern counts)");
  for (int r = 0; r < size; ++r)
    if (incoming[std::size_t(r)] != expected[std::size_t(r)])
      return "hympi: Pattern: rank " + to_string(r) + " sends " + to_string(incoming[std::size_t(r)]) +
             " points to rank " + to_string(self) + ", but rank " + to_string(self) + " expects " +
             to_string(expected[std::size_t(r)]) + " from rank " + to_string(r);
  return "";
}

}  // namespace

Pattern Pattern::from_lists(Context& context, int local_points, std::vector<NeighborLists> neighbors,
                            int chunk, Datatype type) {
  return make(context, local_points, local_points, false, std::move(neighbors), chunk, type);
}

Pattern Pattern::from_lists_apart(Context& context, int send_points, int recv_points,
                                  std::vector<NeighborLists> neighbors, int chunk, Datatype type) {
  return make(context, send_points, recv_points, true, std::move(neighbors), chunk, type);
}

Pattern Pattern::make(Context& context, int send_points, int recv_points, bool apart,
                      std::vector<NeighborLists> neighbors, int chunk, Datatype type) {
  const Topology& topo = context.topology();
  MPI_Comm comm = topo.world();
  const int self = topo.world_rank(), size = topo.world_size();
  agree_on_data(comm, chunk, type, apart);

  auto d = std::make_shared<Data>();
  d->context = &context;
  d->send_points = send_points;
  d->recv_points = recv_points;
  d->apart = apart;
  d->chunk = chunk;
  d->type = type;
  d->point_bytes = std::size_t(std::max(chunk, 0)) * size_of(type);
  std::erase_if(neighbors, [](const NeighborLists& n) { return n.send.empty() && n.recv.empty(); });
  std::sort(neighbors.begin(), neighbors.end(),
            [](const NeighborLists& a, const NeighborLists& b) { return a.rank < b.rank; });
  d->neighbors = std::move(neighbors);

  std::string error = check_local(*d, self, size);
  std::string counts = check_counts(*d, comm, self, size);
  mpi::throw_if_any(comm, !error.empty() ? error : counts);
  d->fingerprint = fingerprint(*d, comm, self);

  const auto& members = topo.node_members();
  for (const NeighborLists& n : d->neighbors) {
    auto it = std::find(members.begin(), members.end(), n.rank);
    d->node_rank.push_back(topo.node_of()[std::size_t(n.rank)] == topo.node_index() && it != members.end()
                               ? int(it - members.begin())
                               : -1);
  }
  return Pattern(std::move(d));
}

Pattern Pattern::from_owners(Context& context, std::span<const int64_t> global_ids,
                             std::span<const int> owners, int chunk, Datatype type) {
  const Topology& topo = context.topology();
  MPI_Comm comm = topo.world();
  const int self = topo.world_rank(), size = topo.world_size();
  agree_on_data(comm, chunk, type, false);
  std::string error;
  if (global_ids.size() != owners.size())
    error = where(self) + "from_owners got " + to_string(global_ids.size()) + " global ids but " +
            to_string(owners.size()) + " owners";

  // My requests, per owner: the global ids of my ghosts (and where they go).
  const std::size_t ranks = static_cast<std::size_t>(size);
  std::vector<std::vector<int64_t>> asked(ranks);
  std::vector<std::vector<int>> ghost_ids(ranks);
  std::unordered_map<int64_t, int> mine;  // global id -> local id, for the points I own
  for (std::size_t i = 0; error.empty() && i < owners.size(); ++i) {
    const int owner = owners[i];
    if (owner < 0 || owner >= size) {
      error = where(self) + "local id " + to_string(i) + " has owner " + to_string(owner) +
              ", not a rank of the communicator (size " + to_string(size) + ")";
    } else if (owner == self) {
      if (!mine.emplace(global_ids[i], int(i)).second)
        error = where(self) + "owns global id " + to_string(global_ids[i]) + " twice";
    } else {
      asked[std::size_t(owner)].push_back(global_ids[i]);
      ghost_ids[std::size_t(owner)].push_back(int(i));
    }
  }
  mpi::throw_if_any(comm, error);

  const mpi::RankLists<int64_t> wanted = mpi::alltoall_lists(comm, asked, "ghost requests");

  std::vector<NeighborLists> neighbors;
  for (int r = 0; r < size; ++r) {
    NeighborLists n{r, {}, std::move(ghost_ids[std::size_t(r)])};
    for (int64_t id : wanted.of(r)) {
      auto it = mine.find(id);
      if (it == mine.end()) {
        if (error.empty())
          error = "hympi: Pattern: rank " + to_string(r) + " has a ghost of global id " + to_string(id) +
                  " owned by rank " + to_string(self) + ", but rank " + to_string(self) + " does not own that id";
        continue;
      }
      n.send.push_back(it->second);
    }
    if (!n.send.empty() || !n.recv.empty()) neighbors.push_back(std::move(n));
  }
  mpi::throw_if_any(comm, error);
  return from_lists(context, int(global_ids.size()), std::move(neighbors), chunk, type);
}

Context& Pattern::context() const { return *data_->context; }
int Pattern::local_points() const {
  if (data_->apart)
    throw Error("hympi: Pattern::local_points(): this pattern has separate send and receive arrays "
                "(from_lists_apart): use send_points() and recv_points()");
  return data_->recv_points;
}
int Pattern::send_points() const { return data_->send_points; }
int Pattern::recv_points() const { return data_->recv_points; }
bool Pattern::apart() const { return data_->apart; }
Pattern Pattern::with_unit(int chunk, Datatype type) const {
  if (chunk < 1) throw Error("hympi: Pattern::with_unit: chunk is " + to_string(chunk) + "; it must be >= 1");
  auto d = std::make_shared<Data>(*data_);
  d->chunk = chunk;
  d->type = type;
  d->point_bytes = std::size_t(chunk) * size_of(type);
  return Pattern(std::move(d));
}

int Pattern::chunk() const { return data_->chunk; }
Datatype Pattern::type() const { return data_->type; }
const std::vector<NeighborLists>& Pattern::neighbors() const { return data_->neighbors; }

}  // namespace hympi
