// SPDX-License-Identifier: BSD-3-Clause
// Mapping ranks to nodes by their traffic (Quaranta & Maddegedara (2021), Section 7.2: the
// ranks that exchange the most on the same node, and inside a node the heaviest pairs on
// cores that share an L3 cache or a socket). A separate include and library: link
// hympi::mapping (built when METIS is found; find_package(hympi COMPONENTS mapping)).
//
//   auto new_rank = hympi::map_ranks(pattern);            // collective
//   MPI_Comm comm = hympi::reordered_comm(MPI_COMM_WORLD, new_rank);
//   // rank r of `comm` now does the work old rank r did (part r of the mesh): rebuild the
//   // Context and the data on `comm`; heavy neighbours share a node.
//
// The convention is MPI_Dist_graph_create's with reorder: the graph's vertices are units of
// work, numbered as the ranks that do them (vertex v: the work of rank v, before and after),
// and the processes stay where they run. new_rank[p] is the rank that process p (old rank
// p) takes in the reordered communicator, and with it the vertex it works on; vertex v then
// runs on the node of process p with new_rank[p] == v (node_of_new_ranks below).
//
// How (map_ranks): the traffic is symmetrized (bytes both ways), METIS cuts the rank graph
// into one part per node, with each part's target weight its node's process count; METIS
// parts are only approximately balanced, so vertices then move from parts that are too big
// to parts that are too small, each time the one that costs the least cut traffic, until
// every part has exactly its node's size. Each node's part is cut again the same way into
// its domains. Parts are matched to nodes (and vertices to processes) keeping as many
// vertices where they are as possible, and the result is never worse than the current
// order: if leaving every rank in place crosses fewer node boundaries (then domain
// boundaries), map_ranks returns the identity. Deterministic: the same input gives the same
// permutation on every rank and run.
#pragma once

#include <mpi.h>

#include <span>
#include <vector>

#include "hympi/halo.hpp"
#include "hympi/statistics.hpp"

namespace hympi {

/// Where the processes of a communicator run: the node of each (any non-negative ids), and
/// optionally its domain inside the node (an L3 cache or a socket; any non-negative ids,
/// compared only between processes of the same node).
struct ProcessPlacement {
  std::vector<int> node_of;    // per process (old rank)
  std::vector<int> domain_of;  // per process; empty: one domain per node

  /// `ranks` processes on nodes of `ranks_per_node` consecutive ranks (the last node may
  /// be smaller), each node split into `domains_per_node` domains of consecutive ranks.
  static ProcessPlacement consecutive(int ranks, int ranks_per_node, int domains_per_node = 1);
};

/// The traffic's permutation: new_rank[p] for every process p (see above). `traffic`: the
/// bytes between ranks (either direction; repeated pairs add up; self-messages and zero
/// bytes are ignored); ranks are 0 .. placement.node_of.size()-1. Needs no MPI. Throws
/// hympi::Error for a message naming a rank outside the placement or a negative node or
/// domain id.
std::vector<int> map_ranks(std::span<const RankMessage> traffic, const ProcessPlacement& placement);

/// Collective over the pattern's Context: its traffic (pattern_messages, `fields` vectors
/// per update), nodes from its Topology and domains from hwloc (placement_of); computed
/// on rank 0 and broadcast. The same result on every rank.
std::vector<int> map_ranks(const Pattern& pattern, int fields = 1);

/// Collective: where the ranks of `topology` run, nodes as it sees them (real or emulated)
/// and domains by the L3 cache (else socket) each rank is bound to; one domain per node
/// when some rank is unbound.
ProcessPlacement placement_of(const Topology& topology);

/// Collective over `comm`: MPI_Comm_split with new_rank[my rank] as the key, the same
/// permutation on every rank (checked: hympi::Error on every rank otherwise). The caller
/// owns the communicator (MPI_Comm_free).
MPI_Comm reordered_comm(MPI_Comm comm, std::span<const int> new_rank);

/// The node of every new rank: result[new_rank[p]] = node_of[p]. With the traffic (whose
/// ranks are new ranks) it gives the statistics after the mapping (message_statistics).
std::vector<int> node_of_new_ranks(std::span<const int> new_rank, std::span<const int> node_of);

}  // namespace hympi
