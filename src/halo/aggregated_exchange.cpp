#include "halo/aggregated_exchange.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <utility>

#include "core/wait.hpp"
#include "halo/for_orders.hpp"
#include "mpi/mpi_check.hpp"
#include "mpi/requests.hpp"

namespace hympi::halo {
namespace {

constexpr int kTag = 7412;

struct Message {
  int src, dst;        // world ranks
  int local;           // the node rank on this node that writes (send) or reads (receive) it
  std::size_t bytes, offset = 0;
};

/// All messages between this node and one other node, in one direction.
struct Group {
  int node = -1;             // the other node
  int owner = -1;            // node rank here that sends / receives the MPI message
  int remote_owner = -1;     // world rank of the other end's owner
  std::vector<Message> messages;
  std::vector<int> locals;   // distinct node ranks that write / read parts of it
  std::size_t bytes = 0;     // padded total
  // Offsets in the owners' and locals' regions (see Layout).
  std::size_t counter_at = 0, region_at = 0;
  std::vector<std::size_t> notice_at;  // per node rank (only for locals)
  // This rank's parts, resolved at setup: its plan and the part's offset in the region.
  std::vector<std::pair<const PeerPlan*, std::size_t>> mine;
};

/// The world ranks of every node, by node index (ordered by world rank, as node comms).
std::vector<std::vector<int>> members_by_node(const Topology& topo) {
  std::vector<std::vector<int>> members(std::size_t(topo.node_count()));
  for (int r = 0; r < topo.world_size(); ++r) members[std::size_t(topo.node_of()[std::size_t(r)])].push_back(r);
  return members;
}

/// Groups messages by the other node, sorted; pads offsets; assigns owners.
std::vector<Group> make_groups(std::vector<Message> messages, bool outgoing, const Topology& topo,
                               const std::vector<std::vector<int>>& members) {
  const std::vector<int>& node_of = topo.node_of();
  std::map<int, Group> by_node;
  for (Message& m : messages) by_node[node_of[std::size_t(outgoing ? m.dst : m.src)]].messages.push_back(m);
  std::vector<Group> groups;
  for (auto& [node, g] : by_node) {
    g.node = node;
    std::sort(g.messages.begin(), g.messages.end(),
              [](const Message& a, const Message& b) { return std::pair(a.src, a.dst) < std::pair(b.src, b.dst); });
    for (Message& m : g.messages) {
      m.offset = g.bytes;
      g.bytes += line_up(m.bytes);
      if (std::find(g.locals.begin(), g.locals.end(), m.local) == g.locals.end()) g.locals.push_back(m.local);
    }
    g.owner = node % topo.node_size();
    const std::vector<int>& there = members[std::size_t(node)];
    g.remote_owner = there[std::size_t(topo.node_index()) % there.size()];
    groups.push_back(std::move(g));
  }
  return groups;
}

template <class Orders>
class AggregatedExchange final : public Exchange {
 public:
  AggregatedExchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup)
      : peers_(std::move(peers)),
        wait_(setup.wait),
        topo_(setup.topology),
        self_(setup.topology.node_rank()),
        fields_(setup.fields),
        comm_(setup.comm) {
    // Everyone's internode traffic on this node: (peer, bytes out, bytes in) per rank.
    std::vector<long long> mine;
    for (const PeerPlan& p : peers_)
      mine.insert(mine.end(), {p.rank, (long long)p.send_bytes(setup.fields), (long long)p.recv_bytes(setup.fields)});
    const int size = topo_.node_size();
    int count = int(mine.size());
    const std::size_t ranks = static_cast<std::size_t>(size);
    std::vector<int> counts_of(ranks), displs(ranks + 1, 0);
    mpi::check(MPI_Allgather(&count, 1, MPI_INT, counts_of.data(), 1, MPI_INT, topo_.node()), "MPI_Allgather (aggregation)");
    for (int q = 0; q < size; ++q) displs[std::size_t(q) + 1] = displs[std::size_t(q)] + counts_of[std::size_t(q)];
    std::vector<long long> all(static_cast<std::size_t>(displs[ranks]));
    mpi::check(MPI_Allgatherv(mine.data(), count, MPI_LONG_LONG, all.data(), counts_of.data(), displs.data(),
                              MPI_LONG_LONG, topo_.node()),
               "MPI_Allgatherv (aggregation)");
    std::vector<Message> out, in;
    for (int q = 0; q < size; ++q)
      for (int i = displs[std::size_t(q)]; i < displs[std::size_t(q) + 1]; i += 3) {
        const int peer = int(all[std::size_t(i)]), me = topo_.node_members()[std::size_t(q)];
        if (all[std::size_t(i) + 1] > 0) out.push_back({me, peer, q, std::size_t(all[std::size_t(i) + 1])});
        if (all[std::size_t(i) + 2] > 0) in.push_back({peer, me, q, std::size_t(all[std::size_t(i) + 2])});
      }
    const auto members = members_by_node(topo_);
    send_ = make_groups(std::move(out), true, topo_, members);
    recv_ = make_groups(std::move(in), false, topo_, members);
    auto plan = [this](int rank) {
      return &*std::find_if(peers_.begin(), peers_.end(), [rank](const PeerPlan& p) { return p.rank == rank; });
    };
    for (Group& g : send_)
      for (const Message& m : g.messages)
        if (m.local == self_) g.mine.emplace_back(plan(m.dst), m.offset);
    for (Group& g : recv_)
      for (const Message& m : g.messages)
        if (m.local == self_) g.mine.emplace_back(plan(m.src), m.offset);
    for (const Group& g : send_)
      if (g.owner == self_) {
        stats_.internode_messages += 1;
        for (const Message& m : g.messages) stats_.internode_bytes += m.bytes;
      }

    // Every rank's region, computed identically everywhere: [counters of the groups it
    // owns][notices of the groups it writes or reads][regions of the groups it owns].
    std::vector<std::size_t> used(ranks, 0);
    auto take = [&](int q, std::size_t bytes) {
      const std::size_t at = used[std::size_t(q)];
      used[std::size_t(q)] += line_up(bytes);
      return at;
    };
    for (std::vector<Group>* groups : {&send_, &recv_})
      for (Group& g : *groups) {
        g.counter_at = take(g.owner, sizeof(core::Channel));
        g.notice_at.assign(ranks, 0);
        for (int q : g.locals) g.notice_at[std::size_t(q)] = take(q, sizeof(core::Channel));
      }
    for (std::vector<Group>* groups : {&send_, &recv_})
      for (Group& g : *groups) g.region_at = take(g.owner, g.bytes);
    region_ = setup.arena.allocate(used[std::size_t(self_)], 128);

    for (Group& g : send_)
      if (g.owner == self_) requests_for(g, true);
    for (Group& g : recv_)
      if (g.owner == self_) requests_for(g, false);
  }

  ~AggregatedExchange() override {
    for (MPI_Request& r : send_requests_) MPI_Request_free(&r);
    for (MPI_Request& r : recv_requests_) MPI_Request_free(&r);
  }

  HaloStats stats() const override { return stats_; }

  void begin(Vectors vectors) override {
    const uint64_t k = ++k_;
    // Receive regions: free once every reader unpacked call k-1.
    std::size_t r = 0;
    for (Group& g : recv_)
      if (g.owner == self_) {
        wait_progressing(counter(g), (k - 1) * g.locals.size(), site("ghost update (aggregated): readers of a receive region", world(g.locals.front())));
        mpi::check(MPI_Start(&recv_requests_[r++]), "MPI_Start (aggregated receive)");
      }
    // My parts of each send region, once its previous message has left.
    for (Group& g : send_)
      if (!g.mine.empty()) {
        wait_progressing(notice(g, self_), k - 1, site("ghost update (aggregated): the previous send of a region", world(g.owner)));
        std::byte* region = region_.peers[std::size_t(g.owner)] + g.region_at;
        for (auto [plan, offset] : g.mine) plan->pack_fields(vectors, region + offset);
        counter(g).seq.fetch_add(1, Orders::publish);  // release: my part is written before the owner sends
        core::wake_sleepers<Orders>(counter(g));
      }
    // The messages I send: when every writer is done.
    std::size_t s = 0;
    for (Group& g : send_)
      if (g.owner == self_) {
        wait_progressing(counter(g), k * g.locals.size(), site("ghost update (aggregated): writers of a send region", world(g.locals.front())));
        mpi::check(MPI_Start(&send_requests_[s++]), "MPI_Start (aggregated send)");
      }
  }

  void end(Vectors vectors) override {
    const uint64_t k = k_;
    std::size_t r = 0;
    for (Group& g : recv_)
      if (g.owner == self_) {
        mpi::wait_all({&recv_requests_[r++], 1}, wait_, site("ghost update (aggregated): node-pair message", g.remote_owner));
        for (int q : g.locals) core::publish<Orders>(notice(g, q), k);  // release: MPI's data before the notice
      }
    for (Group& g : recv_)
      if (!g.mine.empty()) {
        wait_progressing(notice(g, self_), k, site("ghost update (aggregated): arrival of a node-pair message", world(g.owner)));
        const std::byte* region = region_.peers[std::size_t(g.owner)] + g.region_at;
        for (auto [plan, offset] : g.mine) plan->unpack_fields(region + offset, vectors);
        if (!deferred_release_) done_reading(g);
      }
    std::size_t s = 0;
    for (Group& g : send_)
      if (g.owner == self_) {
        mpi::wait_all({&send_requests_[s++], 1}, wait_, site("ghost update (aggregated): node-pair send", g.remote_owner));
        for (int q : g.locals) core::publish<Orders>(notice(g, q), k);  // release: the region may be rewritten
      }
  }

  // Zero-copy: the parts of the shared regions themselves. A send region is written after
  // its previous message left; a receive region is read until release_received().
  bool has_buffers() const override { return true; }
  void release_received() override {
    if (k_ > 0)
      for (Group& g : recv_)
        if (!g.mine.empty()) done_reading(g);
  }
  void wait_sendable() override {
    for (Group& g : send_)
      if (!g.mine.empty())
        wait_progressing(notice(g, self_), k_, site("ghost update (aggregated): the previous send of a region", world(g.owner)));
  }
  std::optional<MessageBuffers> buffers(std::size_t index) override {
    MessageBuffers b;
    bool mine = false;
    for (Group& g : send_)
      for (auto [plan, offset] : g.mine)
        if (plan->index == index) {
          b.send = {region_.peers[std::size_t(g.owner)] + g.region_at + offset, plan->send_bytes(fields_)};
          mine = true;
        }
    for (Group& g : recv_)
      for (auto [plan, offset] : g.mine)
        if (plan->index == index) {
          b.recv = {region_.peers[std::size_t(g.owner)] + g.region_at + offset, plan->recv_bytes(fields_)};
          mine = true;
        }
    for (const PeerPlan& p : peers_) mine = mine || p.index == index;
    return mine ? std::optional(b) : std::nullopt;
  }

 private:
  void requests_for(const Group& g, bool send) {
    if (g.bytes > std::size_t(std::numeric_limits<int>::max()))
      throw Error("hympi: Halo(aggregated): a node-pair message exceeds 2 GiB; use fewer fields per update");
    std::byte* region = region_.local + g.region_at;
    MPI_Request request;
    if (send)
      mpi::check(MPI_Send_init(region, int(g.bytes), MPI_BYTE, g.remote_owner, kTag, comm_, &request), "MPI_Send_init");
    else
      mpi::check(MPI_Recv_init(region, int(g.bytes), MPI_BYTE, g.remote_owner, kTag, comm_, &request), "MPI_Recv_init");
    (send ? send_requests_ : recv_requests_).push_back(request);
  }

  /// A wait on a node peer that also drives MPI progress: the peer may itself wait for an
  /// MPI message that needs this rank's progress (a rendezvous of a request it started).
  void wait_progressing(core::Channel& channel, uint64_t target, const core::WaitSite& where) {
    auto progress = [this] {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, MPI_STATUS_IGNORE);
    };
    core::wait_at_least<Orders>(channel, target, wait_, where, progress);
  }

  void done_reading(Group& g) {
    counter(g).seq.fetch_add(1, Orders::publish);  // release: my reads end before the region is reused
    core::wake_sleepers<Orders>(counter(g));
  }

  core::Channel& counter(const Group& g) {
    return *reinterpret_cast<core::Channel*>(region_.peers[std::size_t(g.owner)] + g.counter_at);
  }
  core::Channel& notice(const Group& g, int q) {
    return *reinterpret_cast<core::Channel*>(region_.peers[std::size_t(q)] + g.notice_at[std::size_t(q)]);
  }
  core::WaitSite site(const char* operation, int peer) const { return {operation, topo_.world_rank(), peer}; }
  int world(int node_rank) const { return topo_.node_members()[std::size_t(node_rank)]; }

  std::vector<PeerPlan> peers_;
  core::WaitConfig wait_;
  const Topology& topo_;
  int self_, fields_;
  MPI_Comm comm_;
  std::vector<Group> send_, recv_;
  HaloStats stats_;
  mpi::SharedRegion region_;
  std::vector<MPI_Request> send_requests_, recv_requests_;
  uint64_t k_ = 0;
};

}  // namespace

std::unique_ptr<Exchange> make_aggregated_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup) {
  return make_for_orders<AggregatedExchange>(setup.orders, std::move(peers), setup);
}

}  // namespace hympi::halo
