#include "halo/rma_exchange.hpp"

#include <cstdint>
#include <optional>

#include "core/watchdog_thread.hpp"
#include "hympi/shared_window.hpp"
#include "mpi/mpi_check.hpp"

namespace hympi::halo {
namespace {

using mpi::check;

class RmaExchange final : public Exchange {
 public:
  RmaExchange(Strategy strategy, std::vector<PeerPlan> peers, const ShmSetup& setup)
      : strategy_(strategy),
        peers_(std::move(peers)),
        wait_(setup.wait),
        members_(setup.topology.node_members()),
        self_(setup.topology.node_rank()) {
    const Topology& topo = setup.topology;
    const std::size_t node_size = std::size_t(topo.node_size());
    // Per peer: {its receive block in my segment, its ready flag in mine, its ack flag in mine}.
    std::vector<unsigned long long> mine(3 * node_size, 0), theirs(3 * node_size, 0);
    std::size_t data_bytes = 0, flag_bytes = 0;
    for (const PeerPlan& p : peers_) {
      const std::size_t q = std::size_t(p.node_rank);
      if (p.recv_bytes(setup.fields) > 0) {
        mine[3 * q] = data_bytes;
        data_bytes += line_up(p.recv_bytes(setup.fields));
        mine[3 * q + 1] = flag_bytes;
        flag_bytes += 64;
      }
      if (p.send_bytes(setup.fields) > 0) {
        mine[3 * q + 2] = flag_bytes;
        flag_bytes += 64;
      }
    }
    check(MPI_Alltoall(mine.data(), 3, MPI_UNSIGNED_LONG_LONG, theirs.data(), 3, MPI_UNSIGNED_LONG_LONG, topo.node()),
          "MPI_Alltoall (RMA ghost update layout)");
    data_.emplace(topo.node(), data_bytes, 64);
    if (strategy_ == Strategy::rma_lock) flags_.emplace(topo.node(), flag_bytes, 64);

    std::vector<int> to, from;  // node ranks I store into / that store into me
    for (const PeerPlan& p : peers_) {
      const std::size_t q = std::size_t(p.node_rank);
      if (p.send_bytes(setup.fields) > 0) {
        to.push_back(p.node_rank);
        out_.push_back({&p, data_->segment(p.node_rank) + theirs[3 * q], MPI_Aint(theirs[3 * q + 1]),
                        MPI_Aint(mine[3 * q + 2])});
      }
      if (p.recv_bytes(setup.fields) > 0) {
        from.push_back(p.node_rank);
        in_.push_back({&p, data_->local() + mine[3 * q], MPI_Aint(mine[3 * q + 1]), MPI_Aint(theirs[3 * q + 2])});
      }
    }
    if (flags_) {  // displacements are relative to MPI's base, before hympi's alignment
      for (Link& l : out_) {
        l.ready_disp += flags_->displacement(l.peer->node_rank, flags_->segment(l.peer->node_rank));
        l.ack_disp += flags_->displacement(self_, flags_->local());
      }
      for (Link& l : in_) {
        l.ready_disp += flags_->displacement(self_, flags_->local());
        l.ack_disp += flags_->displacement(l.peer->node_rank, flags_->segment(l.peer->node_rank));
      }
    }
    MPI_Group node_group;
    check(MPI_Comm_group(topo.node(), &node_group), "MPI_Comm_group");
    check(MPI_Group_incl(node_group, int(to.size()), to.data(), &to_group_), "MPI_Group_incl");
    check(MPI_Group_incl(node_group, int(from.size()), from.data(), &from_group_), "MPI_Group_incl");
    MPI_Group_free(&node_group);
    if (strategy_ == Strategy::rma_lock) check(MPI_Win_lock_all(0, flags_->win()), "MPI_Win_lock_all (flags)");
    if (wait_.timeout_s > 0) watchdog_.emplace(wait_.timeout_s, members_[std::size_t(self_)]);
  }

  ~RmaExchange() override {
    if (strategy_ == Strategy::rma_lock) MPI_Win_unlock_all(flags_->win());
    MPI_Group_free(&to_group_);
    MPI_Group_free(&from_group_);
  }

  void begin(Vectors vectors) override {
    ++k_;
    switch (strategy_) {
      case Strategy::rma_fence:
        blocking("ghost update: MPI_Win_fence (before the stores)", [&] { return MPI_Win_fence(0, data_->win()); });
        store_all(vectors);
        break;
      case Strategy::rma_pscw:
        if (!in_.empty()) check(MPI_Win_post(from_group_, 0, data_->win()), "MPI_Win_post (ghost update)");
        if (!out_.empty()) {
          blocking("ghost update: MPI_Win_start", [&] { return MPI_Win_start(to_group_, 0, data_->win()); });
          store_all(vectors);
        }
        break;
      default:  // rma_lock
        for (Link& l : out_) {
          wait_flag(l.ack_disp, self_, k_ - 1, "ghost update (rma_lock): acknowledgement from a receiver", *l.peer);
          check(MPI_Win_lock(MPI_LOCK_SHARED, l.peer->node_rank, 0, data_->win()), "MPI_Win_lock (data)");
          l.peer->pack_fields(vectors, l.block);
          check(MPI_Win_unlock(l.peer->node_rank, data_->win()), "MPI_Win_unlock (data)");
          raise_flag(l.ready_disp, l.peer->node_rank);
        }
    }
  }

  void end(Vectors vectors) override {
    switch (strategy_) {
      case Strategy::rma_fence:
        blocking("ghost update: MPI_Win_fence (after the stores)", [&] { return MPI_Win_fence(0, data_->win()); });
        for (Link& l : in_) l.peer->unpack_fields(l.block, vectors);
        break;
      case Strategy::rma_pscw:
        if (!out_.empty())
          blocking("ghost update: MPI_Win_complete", [&] { return MPI_Win_complete(data_->win()); });
        if (!in_.empty()) {
          int code = MPI_SUCCESS;
          auto done = [&] {
            int flag = 0;
            code = MPI_Win_test(data_->win(), &flag);
            return flag != 0 || code != MPI_SUCCESS;
          };
          core::poll_until(done, wait_, {"ghost update: MPI_Win_wait", members_[std::size_t(self_)], -1},
                           "an intranode sender never completed its access epoch");
          check(code, "MPI_Win_test (ghost update)");
          for (Link& l : in_) l.peer->unpack_fields(l.block, vectors);
        }
        break;
      default:  // rma_lock
        for (Link& l : in_) {
          wait_flag(l.ready_disp, self_, k_, "ghost update (rma_lock): data from a sender", *l.peer);
          check(MPI_Win_lock(MPI_LOCK_SHARED, self_, 0, data_->win()), "MPI_Win_lock (data)");
          l.peer->unpack_fields(l.block, vectors);
          check(MPI_Win_unlock(self_, data_->win()), "MPI_Win_unlock (data)");
          raise_flag(l.ack_disp, l.peer->node_rank);
        }
    }
  }

 private:
  struct Link {
    const PeerPlan* peer;
    std::byte* block;     // the receive block (at the receiver)
    MPI_Aint ready_disp;  // in the receiver's flag segment
    MPI_Aint ack_disp;    // in the sender's flag segment
  };

  void store_all(Vectors vectors) {
    for (Link& l : out_) l.peer->pack_fields(vectors, l.block);
  }

  template <class Call>
  void blocking(const char* operation, Call call) {
    if (watchdog_) watchdog_->enter(operation);
    const int code = call();
    if (watchdog_) watchdog_->leave();
    check(code, operation);
  }

  void raise_flag(MPI_Aint disp, int target) {
    const uint64_t value = k_;
    check(MPI_Accumulate(&value, 1, MPI_UINT64_T, target, disp, 1, MPI_UINT64_T, MPI_REPLACE, flags_->win()),
          "MPI_Accumulate (flag)");
    check(MPI_Win_flush(target, flags_->win()), "MPI_Win_flush (flag)");
  }

  void wait_flag(MPI_Aint disp, int target, uint64_t at_least, const char* operation, const PeerPlan& peer) {
    if (at_least == 0) return;
    uint64_t seen = 0;
    int code = MPI_SUCCESS;
    auto ready = [&] {
      code = MPI_Fetch_and_op(nullptr, &seen, MPI_UINT64_T, target, disp, MPI_NO_OP, flags_->win());
      if (code == MPI_SUCCESS) code = MPI_Win_flush(target, flags_->win());
      return code != MPI_SUCCESS || seen >= at_least;
    };
    core::poll_until(ready, wait_, core::node_site(operation, members_, self_, peer.node_rank),
                     "the flag never reached the expected sequence number");
    check(code, operation);
  }

  Strategy strategy_;
  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  const std::vector<int>& members_;
  int self_;
  uint64_t k_ = 0;
  std::optional<SharedWindow> data_, flags_;
  std::vector<Link> out_, in_;
  MPI_Group to_group_ = MPI_GROUP_NULL, from_group_ = MPI_GROUP_NULL;
  std::optional<core::WatchdogThread> watchdog_;
};

}  // namespace

std::unique_ptr<Exchange> make_rma_exchange(Strategy strategy, std::vector<PeerPlan> peers, const ShmSetup& setup) {
  return std::make_unique<RmaExchange>(strategy, std::move(peers), setup);
}

}  // namespace hympi::halo
