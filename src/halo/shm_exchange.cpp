// SPDX-License-Identifier: BSD-3-Clause
#include "halo/shm_exchange.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "core/halo/halo_link.hpp"
#include "halo/for_orders.hpp"
#include "halo/refusal.hpp"
#include "halo/single_copy.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/peer_offsets.hpp"

namespace hympi::halo {
namespace {

struct OutLink {
  const PeerPlan* peer;
  core::LinkEnds ends;
  std::byte* slots;  // in my segment; slot s at slots + s * stride
  std::size_t stride;
};

struct InLink {
  const PeerPlan* peer;
  core::LinkEnds ends;
  const std::byte* slots;  // in the sender's segment
  std::size_t stride;
};

/// The links of this rank to and from its intranode neighbours. My region of the arena:
/// [ready channel per sender][ack channel per receiver][depth slots per receiver].
struct NodeLinks {
  std::vector<OutLink> out;
  std::vector<InLink> in;

  /// `depth(bytes)`: how many slots a link of that message size rotates through.
  template <class Depth>
  NodeLinks(const std::vector<PeerPlan>& peers, const ExchangeSetup& setup, Depth depth, bool with_slots) {
    const int fields = setup.fields;
    auto slot_stride = [&](std::size_t bytes) { return with_slots ? line_up(bytes) : 0; };

    // Where each peer's words are in my region: {ready for you as sender, ack and slots
    // for you as receiver}.
    enum { kReady, kAck, kSlots };
    mpi::PeerOffsets<3> at(setup.topology.node_size());
    std::size_t offset = 0;
    for (const PeerPlan& p : peers)
      if (p.recv_bytes(fields) > 0) {
        at.mine(p.node_rank, kReady) = offset;
        offset += sizeof(core::Channel);
      }
    for (const PeerPlan& p : peers)
      if (p.send_bytes(fields) > 0) {
        at.mine(p.node_rank, kAck) = offset;
        offset += sizeof(core::Channel);
      }
    for (const PeerPlan& p : peers)
      if (p.send_bytes(fields) > 0) {
        at.mine(p.node_rank, kSlots) = offset;
        offset += std::size_t(depth(p.send_bytes(fields))) * slot_stride(p.send_bytes(fields));
      }
    mpi::SharedRegion region = setup.arena.allocate(offset, 128);
    // Nothing allocates from the exchange to the single-copy set-up's collective calls: a
    // rank failing in between would leave its node in them (strategies.cpp's made()).
    out.reserve(peers.size());
    in.reserve(peers.size());
    at.exchange(setup.topology.node(), "MPI_Alltoall (ghost update links)");

    auto channel = [](std::byte* base, unsigned long long position) { return reinterpret_cast<core::Channel*>(base + position); };
    for (const PeerPlan& p : peers) {
      const int q = p.node_rank;
      std::byte* peer_region = region.peers[std::size_t(q)];
      if (p.send_bytes(fields) > 0)
        out.push_back({&p, {channel(peer_region, at.theirs(q, kReady)), channel(region.local, at.mine(q, kAck)), depth(p.send_bytes(fields))},
                       region.local + at.mine(q, kSlots), slot_stride(p.send_bytes(fields))});
      if (p.recv_bytes(fields) > 0)
        in.push_back({&p, {channel(region.local, at.mine(q, kReady)), channel(peer_region, at.theirs(q, kAck)), depth(p.recv_bytes(fields))},
                      peer_region + at.theirs(q, kSlots), slot_stride(p.recv_bytes(fields))});
    }
    // No peer reads my words before they exist: the arena zeroed them and the offset
    // exchange above ordered that before any peer learned where they are.
  }
};

/// For each in-link i with `wanted(i)`, the plan that copies straight from its sender's
/// send array into my ghosts: each sender tells the receivers it `tells(j)` (out-link j)
/// its send list. Point-to-point on the node; both ends of a link must agree on it.
template <class WantedIn, class TellsOut>
std::vector<std::optional<CopyPlan>> sender_to_ghost_plans(const NodeLinks& links, const ExchangeSetup& setup,
                                                           WantedIn wanted, TellsOut tells) {
  const Pattern::Data& pattern = setup.pattern;
  MPI_Comm node = setup.topology.node();
  std::vector<MPI_Request> requests;
  std::vector<std::vector<int>> their_send(links.in.size());
  for (std::size_t i = 0; i < links.in.size(); ++i) {
    if (!wanted(i)) continue;
    const PeerPlan& p = *links.in[i].peer;
    their_send[i].resize(pattern.neighbors[p.index].recv.size());
    requests.emplace_back();
    mpi::check(MPI_Irecv(their_send[i].data(), int(their_send[i].size()), MPI_INT, p.node_rank, 0, node,
                         &requests.back()),
               "MPI_Irecv (send lists)");
  }
  for (std::size_t j = 0; j < links.out.size(); ++j) {
    if (!tells(j)) continue;
    const std::vector<int>& send = pattern.neighbors[links.out[j].peer->index].send;
    requests.emplace_back();
    mpi::check(MPI_Isend(send.data(), int(send.size()), MPI_INT, links.out[j].peer->node_rank, 0, node,
                         &requests.back()),
               "MPI_Isend (send lists)");
  }
  mpi::check(MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall (send lists)");
  std::vector<std::optional<CopyPlan>> plans(links.in.size());
  for (std::size_t i = 0; i < links.in.size(); ++i)
    if (wanted(i)) {
      const std::vector<int>& recv = pattern.neighbors[links.in[i].peer->index].recv;
      plans[i].emplace(their_send[i], recv, recv.size(), pattern.point_bytes);
    }
  return plans;
}

/// Base of both shared-memory strategies: the links, the call number, and the receive
/// loop that takes senders in the order their data arrives.
template <class Orders>
class LinkExchange : public Exchange {
 protected:
  template <class Depth>
  LinkExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup, Depth depth, bool with_slots)
      : peers_(std::move(peers)),
        pending_(with_capacity(peers_.size())),
        links_(peers_, setup, depth, with_slots),
        wait_(setup.wait),
        members_(setup.topology.node_members()),
        self_(setup.topology.node_rank()),
        fields_(setup.fields) {}

 public:
  HaloStats stats() const override { return peer_stats(peers_, fields_); }
  bool arrived() override {
    for (const InLink& link : links_.in)
      if (link.ends.ready->seq.load(Orders::hint) < k_) return false;  // a hint: end() reads it again to observe
    return true;
  }

 protected:

  core::WaitSite site(const char* operation, const PeerPlan& peer) const {
    return core::node_site(operation, members_, self_, peer.node_rank);
  }

  /// Calls take(link) for every sender once its call-k data is there, then acknowledges.
  template <class Take>
  void receive_all(uint64_t k, Take take) {
    pending_.clear();
    for (InLink& link : links_.in) pending_.push_back(&link);
    while (!pending_.empty()) {
      bool progressed = false;
      for (std::size_t i = 0; i < pending_.size();) {
        InLink& link = *pending_[i];
        // observe: a value >= k makes the sender's writes of call k visible to us.
        if (link.ends.ready->seq.load(Orders::observe) >= k) {
          take(link);
          if (!this->deferred_release_) core::link_release<Orders>(link.ends, k);
          pending_[i] = pending_.back();
          pending_.pop_back();
          progressed = true;
        } else {
          ++i;
        }
      }
      if (!progressed)
        core::link_wait_data<Orders>(pending_.front()->ends, k, wait_,
                                     site("ghost update: data from an intranode neighbour", *pending_.front()->peer));
    }
  }

  static std::vector<InLink*> with_capacity(std::size_t n) {
    std::vector<InLink*> v;
    v.reserve(n);
    return v;
  }

  std::vector<PeerPlan> peers_;
  std::vector<InLink*> pending_;  // allocated before links_ (see NodeLinks)
  NodeLinks links_;
  core::WaitConfig wait_;
  const std::vector<int>& members_;
  int self_, fields_;
  uint64_t k_ = 0;  // calls so far
};

/// The single-copy links of a ShmExchange (halo/single_copy.hpp): which in-links read
/// their sender's array with process_vm_readv (the plan and the sender's process), which
/// out-links only publish their arrays' addresses. Collective on the node.
struct SingleCopyLinks {
  std::vector<std::optional<CopyPlan>> in;  // per in-link: sender's array -> my ghosts
  std::vector<pid_t> in_pid;                // per in-link: the sender's process
  std::vector<char> out;                    // per out-link: the receiver reads my array itself

  SingleCopyLinks(const NodeLinks& links, const ExchangeSetup& setup)
      : in(links.in.size()), in_pid(links.in.size(), 0), out(links.out.size(), 0) {
    if (setup.single_copy_bytes == 0 || setup.fields > int(core::kChannelWords)) return;  // the same on every rank
    // Candidates by message size: both ends see the same size.
    auto big = [&](std::size_t bytes) { return bytes >= setup.single_copy_bytes; };
    // Nothing more where no message of the node is that long (every one is some rank's
    // in-link); readers are let in only by ranks that send such a message.
    int any = 0;
    for (const InLink& link : links.in) any |= int(big(link.peer->recv_bytes(setup.fields)));
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &any, 1, MPI_INT, MPI_LOR, setup.topology.node()),
               "MPI_Allreduce (single-copy candidates)");
    if (!any) return;
    if (std::any_of(links.out.begin(), links.out.end(),
                    [&](const OutLink& link) { return big(link.peer->send_bytes(setup.fields)); }))
      allow_single_copy_readers();
    // Every rank's process and a word of its memory to probe, after it allowed readers.
    const int node_size = setup.topology.node_size();
    const unsigned long long mine[2] = {static_cast<unsigned long long>(getpid()),
                                        reinterpret_cast<uintptr_t>(&probe_word)};
    std::vector<unsigned long long> all(2 * std::size_t(node_size));
    mpi::check(MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG,
                             setup.topology.node()),
               "MPI_Allgather (single-copy processes)");
    in = sender_to_ghost_plans(
        links, setup, [&](std::size_t i) { return big(links.in[i].peer->recv_bytes(setup.fields)); },
        [&](std::size_t j) { return big(links.out[j].peer->send_bytes(setup.fields)); });
    // Each receiver decides its in-links and tells their senders.
    std::vector<int> verdict_to(std::size_t(node_size), 0), verdict_from(std::size_t(node_size), 0);
    for (std::size_t i = 0; i < links.in.size(); ++i) {
      if (!in[i]) continue;
      const int q = links.in[i].peer->node_rank;
      const auto pid = pid_t(all[2 * std::size_t(q)]);
      const void* their_word = reinterpret_cast<const void*>(uintptr_t(all[2 * std::size_t(q) + 1]));
      const CopyPlan& plan = *in[i];
      const bool runs = !plan.segments().empty() && plan.bytes() >= plan.segments().size() * kSingleCopyRun;
      if (runs && single_copy_probe(pid, their_word, &probe_word, sizeof probe_word)) {
        in_pid[i] = pid;
        verdict_to[std::size_t(q)] = 1;
      } else {
        in[i].reset();
      }
    }
    mpi::check(MPI_Alltoall(verdict_to.data(), 1, MPI_INT, verdict_from.data(), 1, MPI_INT, setup.topology.node()),
               "MPI_Alltoall (single-copy links)");
    for (std::size_t j = 0; j < links.out.size(); ++j) out[j] = char(verdict_from[std::size_t(links.out[j].peer->node_rank)]);
  }

  /// The same value in every process: what a probe reads from a peer.
  static inline const uint64_t probe_word = 0x68796d7069436d61;  // "hympiCma"
};

template <class Orders>
class ShmExchange final : public LinkExchange<Orders> {
  using Base = LinkExchange<Orders>;

 public:
  // Two slots let the sender run a call ahead without waiting (measured: 0.6-0.8x the time
  // of one slot at 1-16 KiB); from 512 KiB one slot keeps the link's data in cache
  // (0.9x at 1 MiB). Both ends derive the same depth from the same message size.
  static int depth(std::size_t bytes) { return bytes >= (512u << 10) ? 1 : 2; }
  ShmExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : Base(std::move(peers), setup, depth, true), single_(this->links_, setup), refusals_(setup.refusals),
        world_rank_(setup.topology.world_rank()) {
    // A single-copy link's "slot" is the sender's array itself: one deep (core/halo/halo_link.hpp).
    for (std::size_t j = 0; j < this->links_.out.size(); ++j)
      if (single_.out[j]) this->links_.out[j].ends.depth = 1;
  }

  HaloStats stats() const override {
    HaloStats s = Base::stats();
    s.single_copy_messages = int(std::count(single_.out.begin(), single_.out.end(), 1));
    return s;
  }

  void begin(Arrays arrays) override {
    const uint64_t k = ++this->k_;
    for (std::size_t j = 0; j < this->links_.out.size(); ++j) {
      OutLink& link = this->links_.out[j];
      if (single_.out[j]) {  // the receiver reads my arrays: their addresses ride on `ready`
        for (std::size_t f = 0; f < arrays.send.size(); ++f)
          link.ends.ready->words[f].store(reinterpret_cast<uintptr_t>(arrays.send[f]), Orders::hint);  // the post releases them
      } else {
        core::link_wait_slot_free<Orders>(link.ends, k, this->wait_,
                                          this->site("ghost update: acknowledgement from a receiver", *link.peer));
        link.peer->pack_fields(arrays.send, link.slots + (k % link.ends.depth) * link.stride);
      }
      core::link_post<Orders>(link.ends, k);
    }
  }

  void end(Arrays arrays) override {
    const uint64_t k = this->k_;
    this->receive_all(k, [&](InLink& link) {
      const std::size_t i = std::size_t(&link - this->links_.in.data());
      if (single_.in[i]) read_single(link, i, arrays);
      else link.peer->unpack_fields(link.slots + (k % link.ends.depth) * link.stride, arrays.recv);
    });
    // Single-copy readers of my arrays are done before the user overwrites what I send.
    for (std::size_t j = 0; j < this->links_.out.size(); ++j)
      if (single_.out[j])
        core::link_wait_slot_free<Orders>(this->links_.out[j].ends, k + 1, this->wait_,
                                          this->site("ghost update: a reader of my array", *this->links_.out[j].peer));
  }

  // Zero-copy: the slots themselves. Call k's slots are read until release_received();
  // call k+1's are written after wait_sendable(). (No single-copy link in this mode.)
  void release_received() override {
    if (this->k_ > 0)
      for (InLink& link : this->links_.in) core::link_release<Orders>(link.ends, this->k_);
  }
  void wait_sendable() override {
    for (OutLink& link : this->links_.out)
      core::link_wait_slot_free<Orders>(link.ends, this->k_ + 1, this->wait_,
                                        this->site("ghost update: acknowledgement from a receiver", *link.peer));
  }
  std::optional<MessageBuffers> buffers(std::size_t index) override {
    const auto peer = std::find_if(this->peers_.begin(), this->peers_.end(), [&](const PeerPlan& p) { return p.index == index; });
    if (peer == this->peers_.end()) return std::nullopt;
    const uint64_t k = this->k_;
    MessageBuffers b;
    for (OutLink& link : this->links_.out)
      if (link.peer == &*peer) b.send = {link.slots + ((k + 1) % link.ends.depth) * link.stride, peer->send_bytes(this->fields_)};
    for (InLink& link : this->links_.in)
      if (link.peer == &*peer) b.recv = {link.slots + (k % link.ends.depth) * link.stride, peer->recv_bytes(this->fields_)};
    return b;
  }

 private:
  /// Copies in-link i's call out of its sender's arrays (addresses read after the acquire
  /// that saw the call); a failed read refuses the update on every rank (unless a refusal
  /// already ended it: then that one is the error).
  void read_single(InLink& link, std::size_t i, Arrays arrays) {
    for (std::size_t f = 0; f < arrays.recv.size(); ++f) {
      const auto* src = reinterpret_cast<const std::byte*>(uintptr_t(link.ends.ready->words[f].load(Orders::hint)));  // after the acquire of seq
      if (const int error = single_copy_read(single_.in_pid[i], *single_.in[i], src, static_cast<std::byte*>(arrays.recv[f]))) {
        refusals_.check();  // a sender that refused this update may have freed its array: its reason first
        const std::string message = "hympi: Halo: rank " + std::to_string(world_rank_) + " could not read the ghosts that rank " +
                                    std::to_string(link.peer->rank) + " sent in field " + std::to_string(f) +
                                    " (process_vm_readv: " + std::strerror(error) +
                                    ": is that rank's array as long as its ids say?); the update failed on every rank "
                                    "waiting for it, and the Halo cannot be used any more: free it on every rank and "
                                    "make a new one";
        refusals_.post(message);
        throw Refused(message);
      }
    }
  }

  SingleCopyLinks single_;
  Refusals& refusals_;
  int world_rank_;
};

template <class Orders>
class DirectExchange final : public LinkExchange<Orders> {
  using Base = LinkExchange<Orders>;

 public:
  DirectExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : Base(std::move(peers), setup, [](std::size_t) { return 1; }, false), vectors_(setup.vectors) {
    // Each receiver learns its senders' lists: it gathers from their vectors.
    auto every = [](std::size_t) { return true; };
    for (std::optional<CopyPlan>& plan : sender_to_ghost_plans(this->links_, setup, every, every)) gathers_.push_back(std::move(*plan));
  }

  void begin(Arrays) override {  // the Halo checked that the send arrays are the shared fields
    const uint64_t k = ++this->k_;
    // The previous end() waited for every reader, so the vector may be published now.
    for (OutLink& link : this->links_.out) core::link_post<Orders>(link.ends, k);
  }

  void end(Arrays arrays) override {
    const uint64_t k = this->k_;
    this->receive_all(k, [&](InLink& link) {
      const std::size_t i = std::size_t(&link - this->links_.in.data());
      for (std::size_t f = 0; f < arrays.recv.size(); ++f)
        gathers_[i].run(vectors_[f].peers[std::size_t(link.peer->node_rank)], static_cast<std::byte*>(arrays.recv[f]));
    });
    // Readers of my vector are done before the user overwrites what I send.
    for (OutLink& link : this->links_.out)
      core::link_wait_slot_free<Orders>(link.ends, k + 1, this->wait_,
                                        this->site("ghost update: a reader of my vector", *link.peer));
  }

 private:
  std::span<const mpi::SharedRegion> vectors_;
  std::vector<CopyPlan> gathers_;  // per in-link: sender's vector -> my ghosts
};

}  // namespace

std::unique_ptr<Exchange> make_shm_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return make_for_orders<ShmExchange>(setup.orders, std::move(peers), setup);
}

std::unique_ptr<Exchange> make_direct_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return make_for_orders<DirectExchange>(setup.orders, std::move(peers), setup);
}

}  // namespace hympi::halo
