// SPDX-License-Identifier: BSD-3-Clause
#include "halo/rma_exchange.hpp"

#include <cstdint>
#include <optional>
#include <type_traits>

#include "core/halo/post_counter.hpp"
#include "core/memory_order.hpp"
#include "core/watchdog_thread.hpp"
#include "halo/refusal.hpp"
#include "hympi/shared_window.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/peer_offsets.hpp"

namespace hympi::halo {
namespace {

using mpi::check;
// The RMA baselines' words in node-shared memory (core/halo/post_counter.hpp).
using WordOrders = std::conditional_t<core::kForceSeqCst, core::SeqCstOrders, core::TunedOrders>;
using Posts = core::PostCounter<WordOrders>;
using Flag = core::SyncedFlag<WordOrders>;

/// What the four variants share: the window of blocks (and, for the passive-target ones,
/// the flag window), the links to and from each intranode peer, and a watchdog over blocking
/// window calls.
class RmaExchange : public Exchange {
 public:
  HaloStats stats() const override { return peer_stats(peers_, fields_); }

 protected:
  struct Link {
    const PeerPlan* peer;
    std::byte* block;  // the block between the two (Blocks says in whose segment)
    uint64_t* ready;   // rma_lock, rma_lock_target: in the receiver's flag segment
    uint64_t* ack;     // rma_lock: in the sender's flag segment
  };

  /// Where the blocks live: in the receiver's segment (the sender stores into it) or in the
  /// sender's (the receiver loads from it: rma_lock_target). Which flags the flag window holds.
  enum class Blocks { at_receiver, at_sender };
  enum class Flags { none, ready, ready_and_ack };

  RmaExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup, Blocks blocks, Flags flags)
      : peers_(std::move(peers)),
        wait_(setup.wait),
        members_(setup.topology.node_members()),
        self_(setup.topology.node_rank()),
        fields_(setup.fields) {
    // First what may fail on this rank alone (a thread): a window it made would be freed
    // collectively while the others wait in the set-up's check (strategies.cpp).
    if (wait_.timeout_s > 0) watchdog_.emplace(wait_.timeout_s, members_[std::size_t(self_)]);
    const Topology& topo = setup.topology;
    const bool at_sender = blocks == Blocks::at_sender;
    // Per peer: {the block between us in my segment, its ready flag in mine, its ack flag in mine}.
    enum { kBlock, kReady, kAck };
    mpi::PeerOffsets<3> at(topo.node_size());
    std::size_t data_bytes = 0, flag_bytes = 0;
    for (const PeerPlan& p : peers_) {
      if (p.recv_bytes(fields_) > 0) {
        if (!at_sender) {
          at.mine(p.node_rank, kBlock) = data_bytes;
          data_bytes += line_up(p.recv_bytes(fields_));
        }
        if (flags != Flags::none) {
          at.mine(p.node_rank, kReady) = flag_bytes;
          flag_bytes += kCacheLine;
        }
      }
      if (p.send_bytes(fields_) > 0) {
        if (at_sender) {
          at.mine(p.node_rank, kBlock) = data_bytes;
          data_bytes += line_up(p.send_bytes(fields_));
        }
        if (flags == Flags::ready_and_ack) {
          at.mine(p.node_rank, kAck) = flag_bytes;
          flag_bytes += kCacheLine;
        }
      }
    }
    at.exchange(topo.node(), "MPI_Alltoall (RMA ghost update layout)");
    data_.emplace(topo.node(), data_bytes, 64);
    if (flags != Flags::none) flags_.emplace(topo.node(), flag_bytes, 64);

    auto flag = [&](int rank, unsigned long long position) {
      return flags_ ? reinterpret_cast<uint64_t*>(flags_->segment(rank) + position) : nullptr;
    };
    for (const PeerPlan& p : peers_) {
      const int q = p.node_rank;
      if (p.send_bytes(fields_) > 0)
        out_.push_back({&p, at_sender ? data_->local() + at.mine(q, kBlock) : data_->segment(q) + at.theirs(q, kBlock),
                        flag(q, at.theirs(q, kReady)), flag(self_, at.mine(q, kAck))});
      if (p.recv_bytes(fields_) > 0)
        in_.push_back({&p, at_sender ? data_->segment(q) + at.theirs(q, kBlock) : data_->local() + at.mine(q, kBlock),
                       flag(self_, at.mine(q, kReady)), flag(q, at.theirs(q, kAck))});
    }
  }

  void store_all(Arrays arrays) {
    for (Link& l : out_) l.peer->pack_fields(arrays.send, l.block);
  }
  void load_all(Arrays arrays) {
    for (Link& l : in_) l.peer->unpack_fields(l.block, arrays.recv);
  }

  /// A blocking window call under the watchdog.
  template <class Call>
  void blocking(const char* operation, Call call) {
    check(core::watched(watchdog_ ? &*watchdog_ : nullptr, operation, call), operation);
  }

  /// Node ranks of the links' peers: the group a PSCW epoch names.
  MPI_Group group_of(const std::vector<Link>& links) const {
    std::vector<int> ranks;
    for (const Link& l : links) ranks.push_back(l.peer->node_rank);
    MPI_Group node_group, group;
    check(MPI_Win_get_group(data_->win(), &node_group), "MPI_Win_get_group");  // the node's: the window's ranks
    check(MPI_Group_incl(node_group, int(ranks.size()), ranks.data(), &group), "MPI_Group_incl");
    MPI_Group_free(&node_group);
    return group;
  }

  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  const std::vector<int>& members_;
  int self_, fields_;
  std::optional<SharedWindow> data_, flags_;
  std::vector<Link> out_, in_;  // links I store into / that store into me
  std::optional<core::WatchdogThread> watchdog_;
};

/// rma_fence: MPI_Win_fence before the stores and after them, collective over the node.
/// A NodeSync (halo/refusal.hpp): the Halo's refusals are checked after every fence, and a
/// rank that stops joins the fences its node's ranks make before they find the refusal.
class FenceExchange final : public RmaExchange, NodeSync {
 public:
  FenceExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : RmaExchange(std::move(peers), setup, Blocks::at_receiver, Flags::none), refusals_(setup.refusals) {
    refusals_.attach(*this);
  }

  void begin(Arrays arrays) override {
    fence("ghost update: MPI_Win_fence (before the stores)");
    store_all(arrays);
  }

  void end(Arrays arrays) override {
    fence("ghost update: MPI_Win_fence (after the stores)");
    load_all(arrays);
  }

  void join() override { fence_only("ghost update: MPI_Win_fence (joined by a rank that stops)"); }

 private:
  void fence(const char* operation) {
    fence_only(operation);
    refusals_.synced();
  }

  void fence_only(const char* operation) {
    blocking(operation, [&] { return MPI_Win_fence(0, data_->win()); });
  }

  Refusals& refusals_;
};

/// rma_pscw: the receiver exposes its window to its senders (post ... wait), the sender
/// accesses its receivers' (start ... complete); ranks with empty groups skip the calls.
/// MPI_Win_start may block until every receiver has posted, where no refusal could end the
/// wait: each receiver counts its posts in shared memory, and the sender starts only once
/// every receiver's count says it posted (a wait the Halo's refusals end). A refusal may
/// so leave epochs open (a sender that never started, a receiver that never waited):
/// close() closes them when the Halo is freed.
class PscwExchange final : public RmaExchange {
 public:
  PscwExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : RmaExchange(std::move(peers), setup, Blocks::at_receiver, Flags::none),
        posts_(setup.arena.allocate(kCacheLine, kCacheLine)),
        to_group_(group_of(out_)),
        from_group_(group_of(in_)) {}

  ~PscwExchange() override {
    MPI_Group_free(&to_group_);
    MPI_Group_free(&from_group_);
  }

  void begin(Arrays arrays) override {
    if (!in_.empty()) {
      check(MPI_Win_post(from_group_, 0, data_->win()), "MPI_Win_post (ghost update)");
      exposed_ = true;
      Posts::post(posts(self_), ++posted_);  // a sender that sees it finds the post made
    }
    if (out_.empty()) return;
    for (const Link& l : out_) {
      const int q = l.peer->node_rank;
      core::poll_until([&] { return Posts::posted_after(posts(q), started_); }, wait_,
                       core::node_site("ghost update: a receiver's MPI_Win_post", members_, self_, q),
                       "the receiver never posted its window for this update");
    }
    blocking("ghost update: MPI_Win_start", [&] { return MPI_Win_start(to_group_, 0, data_->win()); });
    ++started_;
    accessing_ = true;
    store_all(arrays);
  }

  void end(Arrays arrays) override {
    complete();
    if (in_.empty()) return;
    int code = MPI_SUCCESS;
    auto done = [&] {
      int flag = 0;
      code = MPI_Win_test(data_->win(), &flag);
      return flag != 0 || code != MPI_SUCCESS;
    };
    core::poll_until(done, wait_, {"ghost update: MPI_Win_wait", members_[std::size_t(self_)], core::kEveryRankPeer},
                     "an intranode sender never completed its access epoch");
    check(code, "MPI_Win_test (ghost update)");
    exposed_ = false;
    load_all(arrays);
  }

  /// Every rank has stopped: a sender completes the epoch it began, then makes one empty
  /// epoch to the receivers that posted for an update it never started (one post at most
  /// each: a receiver posts again only after every sender completed; one epoch, as MPICH
  /// counts posts, not who made them), so every receiver's MPI_Win_wait returns.
  void close(bool /*refused*/) override {
    complete();
    std::vector<Link> posted;
    for (const Link& l : out_)
      if (Posts::posted_after(posts(l.peer->node_rank), started_)) posted.push_back(l);
    if (!posted.empty()) {
      MPI_Group group = group_of(posted);
      blocking("ghost update: MPI_Win_start (closing a refused update)", [&] { return MPI_Win_start(group, 0, data_->win()); });
      MPI_Group_free(&group);
      accessing_ = true;
      complete();
    }
    if (exposed_) blocking("ghost update: MPI_Win_wait (closing a refused update)", [&] { return MPI_Win_wait(data_->win()); });
    exposed_ = false;
  }

 private:
  uint64_t& posts(int node_rank) const { return *reinterpret_cast<uint64_t*>(posts_.peers[std::size_t(node_rank)]); }

  void complete() {
    if (!accessing_) return;
    blocking("ghost update: MPI_Win_complete", [&] { return MPI_Win_complete(data_->win()); });
    accessing_ = false;
  }

  mpi::SharedRegion posts_;  // each rank's count of MPI_Win_post calls, one line per rank
  MPI_Group to_group_, from_group_;
  uint64_t posted_ = 0, started_ = 0;         // this rank's MPI_Win_post / MPI_Win_start calls
  bool exposed_ = false, accessing_ = false;  // an exposure / access epoch is open
};

/// rma_lock: one MPI_Win_lock_all epoch on both windows for the Halo's life; monotonic
/// `ready` and `ack` flags synchronized by MPI_Win_sync.
class LockExchange final : public RmaExchange {
 public:
  LockExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : RmaExchange(std::move(peers), setup, Blocks::at_receiver, Flags::ready_and_ack) {
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, data_->win()), "MPI_Win_lock_all (data)");
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, flags_->win()), "MPI_Win_lock_all (flags)");
  }

  ~LockExchange() override {
    MPI_Win_unlock_all(flags_->win());
    MPI_Win_unlock_all(data_->win());
  }

  void begin(Arrays arrays) override {
    ++k_;
    for (Link& l : out_) {
      wait_flag(l.ack, k_ - 1, "ghost update (rma_lock): acknowledgement from a receiver", *l.peer);
      l.peer->pack_fields(arrays.send, l.block);
      raise_flag(l.ready);
    }
  }

  void end(Arrays arrays) override {
    for (Link& l : in_) {
      wait_flag(l.ready, k_, "ghost update (rma_lock): data from a sender", *l.peer);
      l.peer->unpack_fields(l.block, arrays.recv);
      raise_flag(l.ack);
    }
  }

 private:
  // Inside the passive-target epoch opened at setup (MPI_Win_lock_all on both windows),
  // MPI_Win_sync is the memory barrier of the unified model: every data store is synced
  // before the flag store, and the flag load is synced before the data loads. The atomic
  // accesses themselves are relaxed (they only rule out torn words): MPI_Win_sync is the
  // synchronization being measured. MPI_Win_lock per access and MPI_Accumulate are
  // rma_lock_target's: MPICH 4.0.2 completes those only when the target rank enters MPI
  // (measured: this protocol's waits, which do not call MPI, then hang).
  void raise_flag(uint64_t* flag) {
    check(MPI_Win_sync(data_->win()), "MPI_Win_sync (data)");
    Flag::store(*flag, k_);
    check(MPI_Win_sync(flags_->win()), "MPI_Win_sync (flag)");
  }

  void wait_flag(uint64_t* flag, uint64_t at_least, const char* operation, const PeerPlan& peer) {
    if (at_least == 0) return;
    int code = MPI_SUCCESS;
    auto ready = [&] {
      code = MPI_Win_sync(flags_->win());
      return code != MPI_SUCCESS || Flag::load(*flag) >= at_least;
    };
    core::poll_until(ready, wait_, core::node_site(operation, members_, self_, peer.node_rank),
                     "the flag never reached the expected sequence number");
    check(code, operation);
    check(MPI_Win_sync(data_->win()), "MPI_Win_sync (data)");
  }

  uint64_t k_ = 0;  // calls so far
};


/// rma_lock_target: Algorithm 8 as the paper writes it, per-target passive epochs
/// (MPI_Win_lock/MPI_Win_unlock, shared locks: every access is either an atomic MPI call or
/// to a block nobody else writes in that update):
///  - begin (sender): packs into its own blocks in an epoch on itself (the local stores
///    reach the public window at the unlock), then sets its flag at each receiver with
///    MPI_Accumulate(MPI_REPLACE) in an epoch on that receiver;
///  - end (receiver): polls each sender's flag in its own segment with
///    MPI_Fetch_and_op(MPI_NO_OP) in an epoch on itself, copies from the sender's block in an
///    epoch on the sender, clears the flag; then MPI_Barrier on the node. The flags are
///    booleans, so that barrier is what lets the next update start: without it a sender's
///    next flag could land before its receiver cleared this one (the receiver would clear it
///    unseen: a deadlock, as the paper says), or its next pack overwrite an unread block.
/// Every wait is an MPI call (MPICH may complete a passive epoch only when its target enters
/// MPI). The barrier is the node communicator's: the Halos of this strategy end their updates
/// in the same order on every rank of a node. A NodeSync (halo/refusal.hpp): a rank that
/// stops joins the barriers its node's ranks make before they find the refusal.
class LockTargetExchange final : public RmaExchange, NodeSync {
 public:
  LockTargetExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : RmaExchange(std::move(peers), setup, Blocks::at_sender, Flags::ready),
        node_(setup.topology.node()),
        refusals_(setup.refusals) {
    refusals_.attach(*this);
  }

  void begin(Arrays arrays) override {
    if (out_.empty()) return;
    locked(self_, data_->win(), "ghost update (rma_lock_target): MPI_Win_lock on its own blocks",
           [&] { store_all(arrays); });
    for (const Link& l : out_)
      put_flag(l.peer->node_rank, l.ready, kSet, "ghost update (rma_lock_target): setting a receiver's flag");
  }

  void end(Arrays arrays) override {
    for (const Link& l : in_) {
      const int q = l.peer->node_rank;
      const MPI_Aint at = flags_->displacement(self_, l.ready);
      uint64_t set = 0;
      auto arrived = [&] {
        locked(self_, flags_->win(), "ghost update (rma_lock_target): MPI_Win_lock on its own flags", [&] {
          check(MPI_Fetch_and_op(nullptr, &set, MPI_UINT64_T, self_, at, MPI_NO_OP, flags_->win()),
                "MPI_Fetch_and_op (rma_lock_target: reading a flag)");
        });
        return set != 0;
      };
      core::poll_until(arrived, wait_,
                       core::node_site("ghost update (rma_lock_target): data from a sender", members_, self_, q),
                       "the sender never set its flag");
      locked(q, data_->win(), "ghost update (rma_lock_target): MPI_Win_lock on a sender's blocks",
             [&] { l.peer->unpack_fields(l.block, arrays.recv); });
      put_flag(self_, l.ready, kClear, "ghost update (rma_lock_target): clearing its own flag");
    }
    barrier("ghost update (rma_lock_target): MPI_Barrier of the node");
    refusals_.synced();
  }

  void join() override { barrier("ghost update (rma_lock_target): MPI_Barrier joined by a rank that stops"); }

 private:
  static constexpr uint64_t kSet = 1, kClear = 0;

  /// `inside`, in a passive epoch on `rank` of `win`; the lock and unlock under the
  /// watchdog (an unlock may wait for the target to enter MPI).
  template <class Inside>
  void locked(int rank, MPI_Win win, const char* operation, Inside inside) {
    blocking(operation, [&] { return MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win); });
    inside();
    blocking(operation, [&] { return MPI_Win_unlock(rank, win); });
  }

  /// Stores `value` into `flag` of `owner` (MPI_Accumulate with MPI_REPLACE: atomic against
  /// the owner's MPI_Fetch_and_op), in a passive epoch on it.
  void put_flag(int owner, const uint64_t* flag, const uint64_t& value, const char* operation) {
    locked(owner, flags_->win(), operation, [&] {
      check(MPI_Accumulate(&value, 1, MPI_UINT64_T, owner, flags_->displacement(owner, flag), 1, MPI_UINT64_T,
                           MPI_REPLACE, flags_->win()),
            operation);
    });
  }

  void barrier(const char* operation) {
    blocking(operation, [&] { return MPI_Barrier(node_); });
  }

  MPI_Comm node_;
  Refusals& refusals_;
};

}  // namespace

std::unique_ptr<Exchange> make_rma_fence_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<FenceExchange>(std::move(peers), setup);
}

std::unique_ptr<Exchange> make_rma_pscw_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<PscwExchange>(std::move(peers), setup);
}

std::unique_ptr<Exchange> make_rma_lock_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<LockExchange>(std::move(peers), setup);
}

std::unique_ptr<Exchange> make_rma_lock_target_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return std::make_unique<LockTargetExchange>(std::move(peers), setup);
}

}  // namespace hympi::halo
