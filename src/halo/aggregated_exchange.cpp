// SPDX-License-Identifier: BSD-3-Clause
#include "halo/aggregated_exchange.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "core/halo/aggregate_region.hpp"
#include "core/wait.hpp"
#include "halo/aggregate_layout.hpp"
#include "halo/for_orders.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/rank_lists.hpp"
#include "mpi/support/requests.hpp"

namespace hympi::halo {
namespace {

/// A group of the layout and this rank's parts of it, resolved at setup: its plan and the
/// part's offset in the region.
struct Region : Group {
  std::vector<std::pair<const PeerPlan*, std::size_t>> mine;
};

template <class Orders>
class AggregatedExchange final : public Exchange {
 public:
  AggregatedExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : peers_(std::move(peers)),
        wait_(setup.wait),
        topo_(setup.topology),
        self_(setup.topology.node_rank()),
        fields_(setup.fields),
        comm_(setup.comm),
        tag_(setup.tag + Tag::node_pair) {
    // Everyone's internode traffic on this node, laid out the same way on every rank.
    std::vector<Traffic> mine;
    for (const PeerPlan& p : peers_)
      mine.push_back({p.rank, (long long)p.send_bytes(fields_), (long long)p.recv_bytes(fields_)});
    const mpi::RankLists<Traffic> all = mpi::allgather_lists<Traffic>(topo_.node(), mine, "aggregation");
    std::vector<std::vector<Traffic>> traffic;
    for (int q = 0; q < topo_.node_size(); ++q) traffic.emplace_back(all.of(q).begin(), all.of(q).end());
    const NodeView node{topo_.node_index(), topo_.node_size(), topo_.node_count(), topo_.node_of(),
                        topo_.node_members()};
    AggregateLayout layout = aggregate_layout(traffic, node, sizeof(core::Channel));
    auto plan = [this](int rank) {
      return &*std::find_if(peers_.begin(), peers_.end(), [rank](const PeerPlan& p) { return p.rank == rank; });
    };
    for (Group& g : layout.send) {
      send_.push_back({std::move(g), {}});
      for (const Message& m : send_.back().messages)
        if (m.local == self_) send_.back().mine.emplace_back(plan(m.dst), m.offset);
    }
    for (Group& g : layout.recv) {
      recv_.push_back({std::move(g), {}});
      for (const Message& m : recv_.back().messages)
        if (m.local == self_) recv_.back().mine.emplace_back(plan(m.src), m.offset);
    }
    for (const Region& g : send_)
      if (g.owner == self_) {
        stats_.internode_messages += 1;
        for (const Message& m : g.messages) stats_.internode_bytes += m.bytes;
      }
    region_ = setup.arena.allocate(layout.region_bytes[std::size_t(self_)], 128);
    for (const Region& g : send_) send_sync_.push_back(make_sync(g));
    for (const Region& g : recv_) recv_sync_.push_back(make_sync(g));

    for (Region& g : send_)
      if (g.owner == self_) requests_for(g, true);
    for (Region& g : recv_)
      if (g.owner == self_) requests_for(g, false);
  }

  ~AggregatedExchange() override {
    for (MPI_Request& r : send_requests_) MPI_Request_free(&r);
    for (MPI_Request& r : recv_requests_) MPI_Request_free(&r);
  }

  HaloStats stats() const override { return stats_; }
  void cancel_receives() override { mpi::cancel_receives(recv_requests_); }

  void begin(Arrays arrays) override {
    const uint64_t k = ++k_;
    // Receive regions: free once every reader unpacked call k-1.
    std::size_t r = 0;
    for (Region& g : recv_)
      if (g.owner == self_) {
        sync(g).wait_read(k, wait_, site("ghost update (aggregated): readers of a receive region", world(g.locals.front())));
        mpi::check(MPI_Start(&recv_requests_[r++]), "MPI_Start (aggregated receive)");
      }
    // My parts of each send region, once its previous message has left.
    for (Region& g : send_)
      if (!g.mine.empty()) {
        sync(g).wait_writable(notice(g, self_), k, wait_, site("ghost update (aggregated): the previous send of a region", world(g.owner)));
        std::byte* region = region_.peers[std::size_t(g.owner)] + g.region_at;
        for (auto [plan, offset] : g.mine) plan->pack_fields(arrays.send, region + offset);
        sync(g).count_part();
      }
    // The messages I send: when every writer is done.
    std::size_t s = 0;
    for (Region& g : send_)
      if (g.owner == self_) {
        sync(g).wait_written(k, wait_, site("ghost update (aggregated): writers of a send region", world(g.locals.front())));
        mpi::check(MPI_Start(&send_requests_[s++]), "MPI_Start (aggregated send)");
      }
  }

  void end(Arrays arrays) override {
    const uint64_t k = k_;
    std::size_t r = 0;
    for (Region& g : recv_)
      if (g.owner == self_) {
        mpi::wait_all({&recv_requests_[r++], 1}, wait_, site("ghost update (aggregated): node-pair message", g.remote_owner));
        sync(g).notify(k);
      }
    for (Region& g : recv_)
      if (!g.mine.empty()) {
        sync(g).wait_arrived(notice(g, self_), k, wait_, site("ghost update (aggregated): arrival of a node-pair message", world(g.owner)));
        const std::byte* region = region_.peers[std::size_t(g.owner)] + g.region_at;
        for (auto [plan, offset] : g.mine) plan->unpack_fields(region + offset, arrays.recv);
        if (!deferred_release_) sync(g).count_part();
      }
    std::size_t s = 0;
    for (Region& g : send_)
      if (g.owner == self_) {
        mpi::wait_all({&send_requests_[s++], 1}, wait_, site("ghost update (aggregated): node-pair send", g.remote_owner));
        sync(g).notify(k);
      }
  }

  // Zero-copy: the parts of the shared regions themselves. A send region is written after
  // its previous message left; a receive region is read until release_received().
  void release_received() override {
    if (k_ > 0)
      for (Region& g : recv_)
        if (!g.mine.empty()) sync(g).count_part();
  }
  void wait_sendable() override {
    for (Region& g : send_)
      if (!g.mine.empty())
        sync(g).wait_writable(notice(g, self_), k_ + 1, wait_, site("ghost update (aggregated): the previous send of a region", world(g.owner)));
  }
  std::optional<MessageBuffers> buffers(std::size_t index) override {
    MessageBuffers b;
    bool mine = false;
    for (Region& g : send_)
      for (auto [plan, offset] : g.mine)
        if (plan->index == index) {
          b.send = {region_.peers[std::size_t(g.owner)] + g.region_at + offset, plan->send_bytes(fields_)};
          mine = true;
        }
    for (Region& g : recv_)
      for (auto [plan, offset] : g.mine)
        if (plan->index == index) {
          b.recv = {region_.peers[std::size_t(g.owner)] + g.region_at + offset, plan->recv_bytes(fields_)};
          mine = true;
        }
    for (const PeerPlan& p : peers_) mine = mine || p.index == index;
    return mine ? std::optional(b) : std::nullopt;
  }

 private:
  void requests_for(const Region& g, bool send) {
    if (g.bytes > std::size_t(std::numeric_limits<int>::max()))
      throw Error("hympi: Halo(aggregated): a node-pair message exceeds 2 GiB; use fewer fields per update");
    std::byte* region = region_.local + g.region_at;
    MPI_Request request;
    if (send)
      mpi::check(MPI_Send_init(region, int(g.bytes), MPI_BYTE, g.remote_owner, tag_, comm_, &request), "MPI_Send_init");
    else
      mpi::check(MPI_Recv_init(region, int(g.bytes), MPI_BYTE, g.remote_owner, tag_, comm_, &request), "MPI_Recv_init");
    (send ? send_requests_ : recv_requests_).push_back(request);
  }

  /// The region's protocol (core/halo/aggregate_region.hpp), made at set-up: its counter in the
  /// owner's segment, its locals' notices in theirs.
  core::AggregateRegion<Orders> make_sync(const Region& g) const {
    std::vector<core::Channel*> notices;
    for (int q : g.locals) notices.push_back(&notice(g, q));
    return core::AggregateRegion<Orders>(
        reinterpret_cast<core::Channel*>(region_.peers[std::size_t(g.owner)] + g.counter_at), std::move(notices));
  }
  const core::AggregateRegion<Orders>& sync(const Region& g) const {
    const bool send = &g >= send_.data() && &g < send_.data() + send_.size();
    return send ? send_sync_[std::size_t(&g - send_.data())] : recv_sync_[std::size_t(&g - recv_.data())];
  }
  core::Channel& notice(const Region& g, int q) const {
    return *reinterpret_cast<core::Channel*>(region_.peers[std::size_t(q)] + g.notice_at[std::size_t(q)]);
  }
  core::WaitSite site(const char* operation, int peer) const { return {operation, topo_.world_rank(), peer}; }
  int world(int node_rank) const { return topo_.node_members()[std::size_t(node_rank)]; }

  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  const Topology& topo_;
  int self_, fields_;
  MPI_Comm comm_;
  int tag_;  // the node-pair messages' (ExchangeSetup::tag)
  std::vector<Region> send_, recv_;
  HaloStats stats_;
  mpi::SharedRegion region_;
  std::vector<core::AggregateRegion<Orders>> send_sync_, recv_sync_;  // by region, as send_ and recv_
  std::vector<MPI_Request> send_requests_, recv_requests_;
  uint64_t k_ = 0;
};

}  // namespace

std::unique_ptr<Exchange> make_aggregated_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return make_for_orders<AggregatedExchange>(setup.orders, std::move(peers), setup);
}

}  // namespace hympi::halo
