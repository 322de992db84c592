// SPDX-License-Identifier: BSD-3-Clause
#include "floors.hpp"

#include <mpi.h>

#include <unistd.h>

#include <algorithm>
#include <array>
#include <memory>
#include <optional>

#include "halo/copy_plan.hpp"
#include "halo/single_copy.hpp"
#include "hympi/shared_window.hpp"
#include "neighbor_swap.hpp"

namespace hympi::bench {
namespace {

using halo::CopyPlan;

std::size_t elements_of(const Pattern& p) { return std::size_t(p.local_points()) * std::size_t(p.chunk()); }
std::size_t point_bytes(const Pattern& p) { return std::size_t(p.chunk()) * sizeof(double); }
std::byte* bytes(double* p) { return reinterpret_cast<std::byte*>(p); }

/// Each neighbour's rank on this node, or -1 when it is on another node.
std::vector<int> node_ranks(const Pattern& pattern) {
  const std::vector<int>& members = pattern.context().topology().node_members();
  std::vector<int> out;
  for (const NeighborLists& n : pattern.neighbors()) {
    const auto at = std::find(members.begin(), members.end(), n.rank);
    out.push_back(at == members.end() ? -1 : int(at - members.begin()));
  }
  return out;
}

/// Collective: every neighbour of every rank is on its node.
bool all_on_node(const Pattern& pattern, const std::vector<int>& node_rank) {
  int mine = std::find(node_rank.begin(), node_rank.end(), -1) == node_rank.end(), all = 0;
  MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_LAND, pattern.context().topology().world());
  return all != 0;
}

/// Two slots of doubles per rank of the node, in a shared window; a slot per parity of the
/// iteration, so a rank may write the next one while its neighbours still read this one.
class Slots {
 public:
  Slots(const Topology& topo, std::size_t count) : window_(topo.node(), 2 * count * sizeof(double)) {}
  double* of(int node_rank, std::uint32_t iteration) const {
    const std::size_t count = window_.size(node_rank) / (2 * sizeof(double));
    return reinterpret_cast<double*>(window_.segment(node_rank)) + (iteration & 1u) * count;
  }

 private:
  SharedWindow window_;
};

Contender one_copy(Context& ctx, AppData& data, const std::vector<int>& node_rank) {
  const Pattern& p = data.pattern();
  struct State {
    Slots vectors;
    std::vector<CopyPlan> gathers;  // per neighbour: its sent points -> my ghosts
  };
  auto s = std::make_shared<State>(State{Slots(ctx.topology(), elements_of(p)), {}});
  for (std::size_t n = 0; n < p.neighbors().size(); ++n)
    s->gathers.emplace_back(data.their_send()[n], p.neighbors()[n].recv, p.neighbors()[n].recv.size(), point_bytes(p));
  const int me = ctx.topology().node_rank();
  return data.contender(
      "one_copy", [s, me](std::uint32_t k) { return s->vectors.of(me, k); },
      [s, &ctx, node_rank](double* v, std::uint32_t k) {
        ctx.barrier();
        for (std::size_t n = 0; n < node_rank.size(); ++n)
          s->gathers[n].run(bytes(s->vectors.of(node_rank[n], k)), bytes(v));
      });
}

/// Collective on the node: every rank reads its ghosts straight out of its neighbours'
/// private vectors with process_vm_readv (two vectors by parity, one barrier): the floor of
/// shm's single copy. None where the kernel refuses it to any rank, or where ids are too
/// scattered for runs (the copy plans go point by point).
std::optional<Contender> cma_copy(Context& ctx, AppData& data, const std::vector<int>& node_rank) {
  const Pattern& p = data.pattern();
  struct State {
    std::array<std::vector<double>, 2> vectors;
    std::vector<CopyPlan> gathers;                   // per neighbour: its sent points -> my ghosts
    std::vector<pid_t> pid;                          // per neighbour
    std::array<std::vector<const std::byte*>, 2> theirs;  // per parity and neighbour: its vector
  };
  auto s = std::make_shared<State>();
  for (auto& v : s->vectors) v.resize(elements_of(p));
  halo::allow_single_copy_readers();
  const Topology& topo = ctx.topology();
  static const unsigned long long probe_word = 0x68796d7069436d61;  // the same in every process
  constexpr std::size_t kWords = 4;  // pid, the two vectors, the probe word
  const unsigned long long mine[kWords] = {static_cast<unsigned long long>(getpid()),
                                           reinterpret_cast<uintptr_t>(s->vectors[0].data()),
                                           reinterpret_cast<uintptr_t>(s->vectors[1].data()),
                                           reinterpret_cast<uintptr_t>(&probe_word)};
  std::vector<unsigned long long> all(kWords * std::size_t(topo.node_size()));
  MPI_Allgather(mine, kWords, MPI_UNSIGNED_LONG_LONG, all.data(), kWords, MPI_UNSIGNED_LONG_LONG, topo.node());
  int readable = 1;
  for (std::size_t n = 0; n < node_rank.size(); ++n) {
    const unsigned long long* theirs = &all[kWords * std::size_t(node_rank[n])];
    s->pid.push_back(pid_t(theirs[0]));
    for (std::size_t parity = 0; parity < 2; ++parity)
      s->theirs[parity].push_back(reinterpret_cast<const std::byte*>(uintptr_t(theirs[1 + parity])));
    s->gathers.emplace_back(data.their_send()[n], p.neighbors()[n].recv, p.neighbors()[n].recv.size(), point_bytes(p));
    readable &= !s->gathers.back().segments().empty() || s->gathers.back().bytes() == 0;  // runs, not points
    readable &= halo::single_copy_probe(s->pid.back(), reinterpret_cast<const void*>(uintptr_t(theirs[3])),
                                        &probe_word, sizeof probe_word);
  }
  MPI_Allreduce(MPI_IN_PLACE, &readable, 1, MPI_INT, MPI_LAND, topo.world());
  if (!readable) return std::nullopt;
  return data.contender(
      "cma_copy", [s](std::uint32_t k) { return s->vectors[k & 1u].data(); },
      [s, &ctx](double* v, std::uint32_t k) {
        ctx.barrier();
        for (std::size_t n = 0; n < s->gathers.size(); ++n)
          halo::single_copy_read(s->pid[n], s->gathers[n], s->theirs[k & 1u][n], bytes(v));
      });
}

Contender two_copies(Context& ctx, AppData& data, const std::vector<int>& node_rank) {
  const Pattern& p = data.pattern();
  const auto& neighbors = p.neighbors();
  std::vector<std::vector<int>> offsets;  // of each neighbour's message in my slot, in elements
  std::size_t total = 0;
  for (const NeighborLists& n : neighbors) {
    offsets.push_back({int(total)});
    total += n.send.size() * std::size_t(p.chunk());
  }
  const std::vector<std::vector<int>> theirs =  // of my message in each neighbour's slot
      swap_with_neighbors(p, offsets, std::vector<std::size_t>(neighbors.size(), 1));
  struct State {
    Slots messages;
    std::vector<double> vector;
    std::vector<CopyPlan> packs, unpacks;
  };
  auto s = std::make_shared<State>(State{Slots(ctx.topology(), total), std::vector<double>(elements_of(p)), {}, {}});
  for (const NeighborLists& n : neighbors) {
    s->packs.emplace_back(n.send, std::span<const int>{}, n.send.size(), point_bytes(p));
    s->unpacks.emplace_back(std::span<const int>{}, n.recv, n.recv.size(), point_bytes(p));
  }
  const int me = ctx.topology().node_rank();
  const auto exchange = [s, &ctx, me, node_rank, offsets, theirs](double* v, std::uint32_t k) {
    for (std::size_t n = 0; n < node_rank.size(); ++n)
      s->packs[n].run(bytes(v), bytes(s->messages.of(me, k) + offsets[n][0]));
    ctx.barrier();
    for (std::size_t n = 0; n < node_rank.size(); ++n)
      s->unpacks[n].run(bytes(s->messages.of(node_rank[n], k) + theirs[n][0]), bytes(v));
  };
  return data.contender("two_copies", s->vector.data(), exchange);
}

/// Points `ids` of a vector as one MPI buffer: (first element, type). A range of ids is a
/// count of doubles, anything else an indexed type (MPI gathers it).
struct Typed {
  std::size_t offset = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
};

Typed typed(const std::vector<int>& ids, int chunk) {
  Typed t;
  const bool range = std::adjacent_find(ids.begin(), ids.end(), [](int a, int b) { return b != a + 1; }) == ids.end();
  if (range) {
    t.offset = ids.empty() ? 0 : std::size_t(ids[0]) * std::size_t(chunk);
    MPI_Type_contiguous(int(ids.size()) * chunk, MPI_DOUBLE, &t.type);
  } else {
    std::vector<int> displacements;
    for (int id : ids) displacements.push_back(id * chunk);
    MPI_Type_create_indexed_block(int(ids.size()), chunk, displacements.data(), MPI_DOUBLE, &t.type);
  }
  MPI_Type_commit(&t.type);
  return t;
}

Contender bare_mpi(AppData& data) {
  const Pattern& p = data.pattern();
  struct State {
    MPI_Comm comm = MPI_COMM_NULL;
    std::vector<double> vector;
    std::vector<Typed> send, recv;
    std::vector<MPI_Request> requests;
    std::vector<MPI_Status> statuses;  // not MPI_STATUSES_IGNORE: gcc 12 misreads MPICH's attributes
    ~State() {
      for (auto* list : {&send, &recv})
        for (Typed& t : *list) MPI_Type_free(&t.type);
      MPI_Comm_free(&comm);
    }
  };
  auto s = std::make_shared<State>();
  MPI_Comm_dup(p.context().topology().world(), &s->comm);
  s->vector.resize(elements_of(p));
  for (const NeighborLists& n : p.neighbors()) {
    s->send.push_back(typed(n.send, p.chunk()));
    s->recv.push_back(typed(n.recv, p.chunk()));
  }
  s->requests.resize(2 * p.neighbors().size());
  s->statuses.resize(s->requests.size());
  std::vector<int> ranks;
  for (const NeighborLists& n : p.neighbors()) ranks.push_back(n.rank);
  return data.contender("bare_mpi", s->vector.data(), [s, ranks](double* v, std::uint32_t) {
    for (std::size_t n = 0; n < ranks.size(); ++n) {
      MPI_Irecv(v + s->recv[n].offset, 1, s->recv[n].type, ranks[n], 0, s->comm, &s->requests[2 * n]);
      MPI_Isend(v + s->send[n].offset, 1, s->send[n].type, ranks[n], 0, s->comm, &s->requests[2 * n + 1]);
    }
    MPI_Waitall(int(s->requests.size()), s->requests.data(), s->statuses.data());
  });
}

}  // namespace

std::vector<Contender> floor_contenders(Context& ctx, AppData& data) {
  std::vector<Contender> floors;
  if (data.mode() == DataMode::fresh) {
    auto vector = std::make_shared<std::vector<double>>(elements_of(data.pattern()));
    Contender c = data.contender("write_read", vector->data(), {});
    c.call = [vector, call = std::move(c.call)] { call(); };  // keeps the vector alive
    floors.push_back(std::move(c));
  }
  const std::vector<int> node_rank = node_ranks(data.pattern());
  if (all_on_node(data.pattern(), node_rank)) {
    if (!data.off_cache()) {  // their vectors: two slots of their own, which cannot rotate
      floors.push_back(one_copy(ctx, data, node_rank));
      if (auto cma = cma_copy(ctx, data, node_rank)) floors.push_back(std::move(*cma));
    }
    floors.push_back(two_copies(ctx, data, node_rank));
  }
  floors.push_back(bare_mpi(data));
  return floors;
}

}  // namespace hympi::bench
