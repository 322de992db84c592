// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/neighbor.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <set>
#include <string>

#include "core/copy.hpp"
#include "hympi/types.hpp"
#include "pmpi/datatypes.hpp"

namespace hympi::pmpi {
namespace {

constexpr std::size_t kHeader = 1;  // int64 words before a slot's payload

struct Neighbors {
  std::vector<int> sources, destinations;
};

// MPI's neighbour order: a distributed graph's lists as given; a Cartesian grid's, per
// dimension, the neighbour below, then above (MPI_PROC_NULL at a non-periodic edge).
// Empty lists for any other communicator.
Neighbors neighbors_of(MPI_Comm comm, bool& topology) {
  Neighbors n;
  int kind = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &kind);
  topology = kind == MPI_DIST_GRAPH || kind == MPI_CART;
  if (kind == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    n.sources.resize(std::size_t(in));
    n.destinations.resize(std::size_t(out));
    std::vector<int> in_weights(std::size_t(std::max(in, 1))), out_weights(std::size_t(std::max(out, 1)));
    PMPI_Dist_graph_neighbors(comm, in, n.sources.data(), in_weights.data(), out, n.destinations.data(),
                              out_weights.data());
  } else if (kind == MPI_CART) {
    int dims = 0;
    PMPI_Cartdim_get(comm, &dims);
    for (int d = 0; d < dims; ++d) {
      int below = MPI_PROC_NULL, above = MPI_PROC_NULL;
      PMPI_Cart_shift(comm, d, 1, &below, &above);
      for (int r : {below, above}) n.sources.push_back(r), n.destinations.push_back(r);
    }
  }
  return n;
}

// No neighbour twice in one list, none this rank: then every message has one sender slot
// and one receiver slot, whatever order MPI matches repeated neighbours in.
bool distinct(const std::vector<int>& ranks, int me) {
  std::set<int> seen;
  for (int r : ranks)
    if (r != MPI_PROC_NULL && (r == me || !seen.insert(r).second)) return false;
  return true;
}

// A slot's message is at most INT_MAX bytes (MPI_Pack's int counts); larger ones go by MPI.
constexpr std::size_t kSlotMax = INT_MAX;

std::size_t words_for(std::size_t bytes) { return kHeader + (bytes + 7) / 8; }

// Bytes of block i (0 for a negative count, which the exchange reports).
std::size_t block_bytes(const Blocks& b, int i, const TypeLayout& t) {
  return std::size_t(std::max(b.count_of(i), std::int64_t(0))) * t.size;
}

// MPI's point-to-point for a block that goes beside the slots: the large-count form for a
// count above INT_MAX (a program's such counts come only through the large-count entry
// points, which exist where MPI has that form).
int isend(const void* buffer, std::int64_t count, MPI_Datatype type, int to, int tag, MPI_Comm comm,
          MPI_Request* request) {
#if MPI_VERSION >= 4
  if (count > INT_MAX) return PMPI_Isend_c(buffer, MPI_Count(count), type, to, tag, comm, request);
#endif
  return PMPI_Isend(buffer, int(count), type, to, tag, comm, request);
}
int irecv(void* buffer, std::int64_t count, MPI_Datatype type, int from, int tag, MPI_Comm comm,
          MPI_Request* request) {
#if MPI_VERSION >= 4
  if (count > INT_MAX) return PMPI_Irecv_c(buffer, MPI_Count(count), type, from, tag, comm, request);
#endif
  return PMPI_Irecv(buffer, int(count), type, from, tag, comm, request);
}

// Receives a message of `bytes` (the sender's header) that this rank does not want, into
// `buffer` (bytes rounded up to a KiB): in units of whole KiB where the bytes exceed INT_MAX (an int count of a large
// type, or a large-count sender) and MPI has no large-count receive.
void receive_discarded(std::byte* buffer, std::size_t bytes, int from, int tag, MPI_Comm comm) {
  MPI_Request request;
#if MPI_VERSION < 4
  if (bytes > INT_MAX) {
    MPI_Datatype kib;
    PMPI_Type_contiguous(1024, MPI_BYTE, &kib);
    PMPI_Type_commit(&kib);
    PMPI_Irecv(buffer, int(bytes / 1024 + 1), kib, from, tag, comm, &request);
    PMPI_Wait(&request, MPI_STATUS_IGNORE);
    PMPI_Type_free(&kib);
    return;
  }
#endif
  irecv(buffer, std::int64_t(bytes), MPI_BYTE, from, tag, comm, &request);
  PMPI_Wait(&request, MPI_STATUS_IGNORE);
}

}  // namespace

TypeLayout layout_of(MPI_Datatype type) {
  TypeLayout t;
  MPI_Aint lb = 0;
  PMPI_Type_get_extent(type, &lb, &t.extent);
  t.size = bytes_of(type, 1);
  t.contiguous = plain(type);  // the rule of datatypes.hpp: any other type is packed
  return t;
}

bool NeighborExchange::topological(MPI_Comm comm) {
  int kind = MPI_UNDEFINED;
  return PMPI_Topo_test(comm, &kind) == MPI_SUCCESS && (kind == MPI_DIST_GRAPH || kind == MPI_CART);
}

Path NeighborExchange::eligible(MPI_Comm comm, const Blocks& send, const Blocks& recv, std::size_t max_bytes) {
  bool topology = false;
  const Neighbors n = neighbors_of(comm, topology);
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  const TypeLayout st = layout_of(send.type), rt = layout_of(recv.type);
  bool fits = true;
  for (std::size_t i = 0; i < n.destinations.size(); ++i) fits = fits && block_bytes(send, int(i), st) <= max_bytes;
  for (std::size_t j = 0; j < n.sources.size(); ++j) fits = fits && block_bytes(recv, int(j), rt) <= max_bytes;
  int ok[2] = {topology && distinct(n.sources, me) && distinct(n.destinations, me), fits};
  PMPI_Allreduce(MPI_IN_PLACE, ok, 2, MPI_INT, MPI_MIN, comm);
  return !ok[0] ? Path::topology : !ok[1] ? Path::size : Path::hympi;
}

std::size_t NeighborExchange::send_bytes(MPI_Comm comm, const Blocks& send) {
  bool topology = false;
  const std::size_t out = neighbors_of(comm, topology).destinations.size();
  const TypeLayout st = layout_of(send.type);
  std::size_t bytes = 0;
  for (std::size_t i = 0; i < out; ++i) bytes += block_bytes(send, int(i), st);
  return bytes;
}

void NeighborExchange::degrees(MPI_Comm comm, int& in, int& out) {
  bool topology = false;
  const Neighbors n = neighbors_of(comm, topology);
  in = int(n.sources.size());
  out = int(n.destinations.size());
}

NeighborExchange::NeighborExchange(Context& context, MPI_Comm comm, const Blocks& send, const Blocks& recv,
                                   std::size_t max_bytes, MPI_Comm side, int tag)
    : side_(side), tag_(tag) {
  bool topology = false;
  Neighbors n = neighbors_of(comm, topology);
  sources_ = std::move(n.sources);
  destinations_ = std::move(n.destinations);
  const TypeLayout st = layout_of(send.type), rt = layout_of(recv.type);
  // One NeighborLists per rank met, in rank order; a slot of consecutive ids per message.
  std::vector<int> ranks;
  for (int r : sources_) ranks.push_back(r);
  for (int r : destinations_) ranks.push_back(r);
  std::erase(ranks, MPI_PROC_NULL);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::vector<NeighborLists> lists(ranks.size());
  auto index_of = [&](int r) { return int(std::lower_bound(ranks.begin(), ranks.end(), r) - ranks.begin()); };
  int send_points = 0, recv_points = 0;
  auto slots = [&](const std::vector<int>& peers, const Blocks& b, const TypeLayout& t, bool sending,
                   std::vector<int>& slot_of) {
    slot_of.assign(peers.size(), -1);
    for (std::size_t i = 0; i < peers.size(); ++i) {
      if (peers[i] == MPI_PROC_NULL) continue;
      slot_of[i] = index_of(peers[i]);
      NeighborLists& l = lists[std::size_t(slot_of[i])];
      l.rank = peers[i];
      const std::size_t words = words_for(std::min({block_bytes(b, int(i), t), max_bytes, kSlotMax}));
      int& next = sending ? send_points : recv_points;
      for (std::size_t w = 0; w < words; ++w) (sending ? l.send : l.recv).push_back(next++);
    }
  };
  slots(destinations_, send, st, true, out_slot_);
  slots(sources_, recv, rt, false, in_slot_);
  const Pattern pattern =
      Pattern::from_lists_apart(context, send_points, recv_points, std::move(lists), 1, Datatype::int64);
  halo_ = std::make_unique<Halo>(pattern, Strategy::shm, 1, HaloMode::buffers);
}

NeighborExchange::~NeighborExchange() = default;  // the Halo's release is collective, as what releases this

void NeighborExchange::note(const std::string& what) {
  if (problem_.empty()) problem_ = what;
}

void NeighborExchange::start(const Blocks& send, const TypeLayout& st) {
  problem_.clear();
  requests_.clear();
  halo_->acquire();
  for (std::size_t i = 0; i < destinations_.size(); ++i) {
    if (destinations_[i] == MPI_PROC_NULL) continue;
    const std::int64_t count = send.count_of(int(i));
    const std::span<int64_t> slot = halo_->send_buffer<int64_t>(out_slot_[i]);
    if (count < 0) {  // MPI's error: its receiver hears 0 bytes, and says so too
      note("hympi: a negative send count (" + std::to_string(count) + ") for neighbour " + std::to_string(i));
      slot[0] = 0;
      continue;
    }
    const auto* from = static_cast<const char*>(send.buffer) + send.offset(int(i)) * st.extent;
    const std::size_t bytes = block_bytes(send, int(i), st);
    const std::size_t room = std::min((slot.size() - kHeader) * 8, kSlotMax);
    int packed = 0;  // (a nonempty block within room: its count fits an int)
    if (bytes && bytes <= room && !st.contiguous) PMPI_Pack_size(int(count), send.type, side_, &packed);
    if (bytes <= room && (st.contiguous || std::size_t(packed) <= room)) {
      int position = int(bytes);  // what the receiver reads: a packed form longer than the data
      if (st.contiguous || !bytes) {  // is a count mismatch there, not garbage
        if (bytes) core::copy_bytes(slot.data() + kHeader, from, bytes);
      } else {
        position = 0;
        PMPI_Pack(from, int(count), send.type, slot.data() + kHeader, int(room), &position, side_);
      }
      slot[0] = position;
    } else {
      slot[0] = -1 - int64_t(bytes);
      requests_.emplace_back();
      isend(from, count, send.type, destinations_[i], tag_, side_, &requests_.back());
    }
  }
  halo_->begin_buffers();
}

void NeighborExchange::finish(const Blocks& recv, const TypeLayout& rt) {
  halo_->end_buffers();
  std::vector<std::byte> discard;
  for (std::size_t j = 0; j < sources_.size(); ++j) {
    if (sources_[j] == MPI_PROC_NULL) continue;
    const std::span<const int64_t> slot = halo_->recv_buffer<int64_t>(in_slot_[j]);
    const std::int64_t count = recv.count_of(int(j));
    const std::size_t expected = block_bytes(recv, int(j), rt);
    auto* to = static_cast<char*>(const_cast<void*>(recv.buffer)) + recv.offset(int(j)) * rt.extent;
    const bool in_slot = slot[0] >= 0;
    const std::size_t bytes = std::size_t(in_slot ? slot[0] : -1 - slot[0]);
    if (bytes != expected || count < 0) {
      note("hympi: rank " + std::to_string(sources_[j]) + " sent " + std::to_string(bytes) +
           " bytes to this rank, which expects " + std::to_string(expected) + " from it (counts or types that "
           "differ between neighbours)");
      if (!in_slot) {  // received all the same: nothing is left behind in MPI
        discard.resize(std::max(discard.size(), bytes + 1024));  // receive_discarded's whole KiB
        receive_discarded(discard.data(), bytes, sources_[j], tag_, side_);
      }
    } else if (!in_slot) {
      requests_.emplace_back();
      irecv(to, count, recv.type, sources_[j], tag_, side_, &requests_.back());
    } else if (rt.contiguous) {
      if (bytes) core::copy_bytes(to, slot.data() + kHeader, bytes);
    } else if (bytes) {  // a slot holds at most INT_MAX bytes: the count of nonempty elements fits an int
      int position = 0;
      PMPI_Unpack(slot.data() + kHeader, int(bytes), &position, to, int(count), recv.type, side_);
    }
  }
  PMPI_Waitall(int(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
  if (!problem_.empty()) throw Error(problem_);
}

}  // namespace hympi::pmpi
