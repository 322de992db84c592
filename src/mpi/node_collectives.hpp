// The intranode engine of a Context: the shared blocks and buffers of every rank of the
// node (one arena allocation each), the tree, and the protocol objects, for the memory
// orders the options ask for. The Context adds the internode part as leader steps.
#pragma once

#include <cstdint>
#include <memory>

#include "core/tree_collective.hpp"
#include "hympi/options.hpp"
#include "hympi/topology.hpp"
#include "mpi/shared_arena.hpp"

namespace hympi::mpi {

class NodeCollectives {
 public:
  virtual ~NodeCollectives() = default;
  virtual void barrier(uint64_t& seq, core::LeaderStep step) = 0;
  virtual void allreduce(uint64_t& seq, const void* in, void* out, std::size_t count,
                         Datatype type, Op op, core::LeaderStep step) = 0;
  virtual void reduce(uint64_t& seq, const void* in, void* out, std::size_t count,
                      Datatype type, Op op, int world_root, int node_root,
                      core::LeaderStep step, const core::Status& own) = 0;
  virtual void bcast(uint64_t& seq, void* data, std::size_t count, Datatype type,
                     int world_root, int node_root, core::LeaderStep step,
                     const core::Status& own) = 0;
};

/// Collective on the node.
std::unique_ptr<NodeCollectives> make_node_collectives(const Topology& topology,
                                                       const Options& options,
                                                       SharedArena& arena);

}  // namespace hympi::mpi
