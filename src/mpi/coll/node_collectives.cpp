// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/node_collectives.hpp"

#include <memory>
#include <new>
#include <utility>

#include "core/coll/board_barrier.hpp"
#include "core/memory_order.hpp"
#include "mpi/coll/core_config.hpp"
#include "mpi/node/domains.hpp"

namespace hympi::mpi {
namespace {

/// The NodeCollectives of one memory-order policy: its protocol objects.
template <class Orders>
class NodeProtocols final : public NodeCollectives {
 public:
  NodeProtocols(std::unique_ptr<ArenaLease> memory, int self, std::vector<core::Participant> participants,
                core::Tree tree, const Options& options, core::WaitConfig wait, std::vector<int> world_ranks)
      : memory_(std::move(memory)),
        board_(self, participants, wait, world_ranks, options.barrier == BarrierAlgorithm::dissemination),
        tree_(self, participants, tree, options.collective_buffer_bytes, wait, world_ranks,
              options.barrier == BarrierAlgorithm::combining ? nullptr : &board_),
        board_barrier_(self, participants, tree,
                       options.barrier == BarrierAlgorithm::dissemination ? core::Arrival::dissemination
                                                                          : core::Arrival::counter,
                       options.barrier == BarrierAlgorithm::counter_tree, wait, world_ranks, tree_.sweeps(), board_),
        algorithm_(options.barrier) {}

  void barrier(core::LeaderStep step) override {
    if (algorithm_ == BarrierAlgorithm::combining) tree_.barrier(step);
    else board_barrier_.barrier(step);
  }
  void allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
                 core::LeaderStep step, const core::Status& own) override {
    tree_.allreduce(in, out, count, type, op, step, own);
  }
  void reduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
              int world_root, int node_root, core::LeaderStep step,
              const core::Status& own) override {
    tree_.reduce(in, out, count, type, op, world_root, node_root, step, own);
  }
  void bcast(void* data, std::size_t count, Datatype type, int world_root, int node_root,
             core::LeaderStep step, const core::Status& own) override {
    tree_.bcast(data, count, type, world_root, node_root, step, own);
  }
  void set_caller(uint8_t number) override { tree_.set_caller(number); }
  bool broken() const override { return board_.broken(); }

 private:
  std::unique_ptr<ArenaLease> memory_;  // the blocks and buffers below live in; released last
  core::CallBoard<Orders> board_;        // used only beside a BoardBarrier
  core::TreeCollective<Orders> tree_;
  core::BoardBarrier<Orders> board_barrier_;
  BarrierAlgorithm algorithm_;
};

}  // namespace

core::Tree node_tree(const Topology& topology, const Options& options) {
  const core::TreeSpec spec = tree_spec(options);
  return options.topology_aware ? core::Tree::build(spec, domain_groups(topology.node()))
                                : core::Tree::build(spec, topology.node_size());
}

std::unique_ptr<NodeCollectives> make_node_collectives(const Topology& topology,
                                                       const Options& options,
                                                       const core::Tree& tree, SharedArena& arena) {
  // Control blocks and data buffers in separate regions: control lines never share a
  // page with data, and each buffer is page-aligned. Released with the NodeCollectives (or
  // here, when the second allocation fails).
  auto memory = std::make_unique<ArenaLease>(arena);
  SharedRegion blocks = memory->allocate(sizeof(core::CollectiveBlock), alignof(core::CollectiveBlock));
  SharedRegion buffers = memory->allocate(options.collective_buffer_bytes, 4096);
  new (blocks.local) core::CollectiveBlock();  // zero-filled memory becomes live atomics
  MPI_Barrier(topology.node());                // every block constructed before first use

  std::vector<core::Participant> participants;
  for (int r = 0; r < topology.node_size(); ++r)
    participants.push_back({std::launder(reinterpret_cast<core::CollectiveBlock*>(blocks.peers[r])),
                            buffers.peers[r]});

  core::WaitConfig wait = wait_config(options, topology);

  const int self = topology.node_rank();
  const auto& members = topology.node_members();
  if (core::kForceSeqCst || options.orders == MemoryOrders::seq_cst)
    return std::make_unique<NodeProtocols<core::SeqCstOrders>>(std::move(memory), self, participants, tree, options,
                                                               wait, members);
  return std::make_unique<NodeProtocols<core::TunedOrders>>(std::move(memory), self, participants, tree, options, wait,
                                                            members);
}

}  // namespace hympi::mpi
