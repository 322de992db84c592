// SPDX-License-Identifier: BSD-3-Clause
// The node collectives of a ContextEngine: the shared blocks and buffers of every rank of
// the node (one arena allocation each), the tree, and the protocol objects, for the memory
// orders the options ask for, and the sweep numbers they share (a TreeCollective's
// SweepCounter). The Context adds the internode part as leader steps.
#pragma once

#include <memory>

#include "core/coll/tree_collective.hpp"
#include "hympi/options.hpp"
#include "hympi/topology.hpp"
#include "mpi/node/shared_arena.hpp"

namespace hympi::mpi {

class NodeCollectives {
 public:
  virtual ~NodeCollectives() = default;
  virtual void barrier(core::LeaderStep step) = 0;
  virtual void allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
                         core::LeaderStep step, const core::Status& own) = 0;
  virtual void reduce(const void* in, void* out, std::size_t count, Datatype type, Op op,
                      int world_root, int node_root, core::LeaderStep step,
                      const core::Status& own) = 0;
  virtual void bcast(void* data, std::size_t count, Datatype type, int world_root,
                     int node_root, core::LeaderStep step, const core::Status& own) = 0;
  /// The calls that follow are the Context numbered `number`'s (see context_engine.hpp).
  virtual void set_caller(uint8_t number) = 0;
  /// Refusing every call (a call failed beside a counter barrier: core/coll/call_board.hpp).
  virtual bool broken() const = 0;
};

/// The node's tree (options' shape), over its socket / L3 domains when options ask for a
/// topology-aware tree (domain_groups: hwloc, or HYMPI_EMULATE_SOCKETS, whose malformed
/// value throws here on every rank of the node). Collective on the node.
core::Tree node_tree(const Topology& topology, const Options& options);

/// Collective on the node.
std::unique_ptr<NodeCollectives> make_node_collectives(const Topology& topology,
                                                       const Options& options,
                                                       const core::Tree& tree, SharedArena& arena);

}  // namespace hympi::mpi
