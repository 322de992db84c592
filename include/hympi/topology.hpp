// SPDX-License-Identifier: BSD-3-Clause
// Where every rank is: its node (a shared-memory domain, real or emulated), its rank on
// the node, and the node leaders. Built collectively from any communicator.
#pragma once

#include <mpi.h>

#include <vector>

#include "hympi/detail/finalize_guard.hpp"

namespace hympi {

class Topology {
 public:
  /// Collective over `comm`. `node_size` > 0 emulates nodes of that many consecutive ranks
  /// inside each shared-memory domain (the last group of a domain may be smaller).
  explicit Topology(MPI_Comm comm, int node_size = 0);
  /// Collective (it frees communicators). One still alive at MPI_Finalize is freed there.
  ~Topology();
  Topology(const Topology&) = delete;
  Topology& operator=(const Topology&) = delete;

  MPI_Comm world() const { return world_; }      // a duplicate of the given communicator
  MPI_Comm node() const { return node_; }        // ranks of my node, ordered by world rank
  MPI_Comm leaders() const { return leaders_; }  // one rank per node; MPI_COMM_NULL elsewhere

  int world_rank() const { return world_rank_; }
  int world_size() const { return world_size_; }
  int node_index() const { return node_index_; }  // 0 .. node_count()-1, by leader rank
  int node_count() const { return node_count_; }
  int node_rank() const { return node_rank_; }
  int node_size() const { return node_size_; }
  bool is_leader() const { return node_rank_ == 0; }
  bool emulated() const { return emulated_; }

  /// World rank of each rank of my node, by node rank.
  const std::vector<int>& node_members() const { return node_members_; }
  /// Node index of every world rank.
  const std::vector<int>& node_of() const { return node_of_; }
  /// Ranks sharing my physical shared-memory domain (>= node_size() when emulated).
  int domain_size() const { return domain_size_; }
  /// More ranks on my physical domain than CPUs they may run on (the union of their
  /// affinity masks: cgroup cpusets and launcher bindings count): waits must yield early.
  bool oversubscribed() const { return oversubscribed_; }

 private:
  void build(MPI_Comm comm, int node_size);
  void free_comms();

  MPI_Comm world_ = MPI_COMM_NULL, node_ = MPI_COMM_NULL, leaders_ = MPI_COMM_NULL;
  MPI_Comm non_leaders_ = MPI_COMM_NULL;  // the other ranks' side of the leaders' split, unused
  int world_rank_ = 0, world_size_ = 1, node_index_ = 0, node_count_ = 1;
  int node_rank_ = 0, node_size_ = 1, domain_size_ = 1;
  bool emulated_ = false, oversubscribed_ = false;
  std::vector<int> node_members_, node_of_;
  detail::FinalizeGuard guard_{[this] { free_comms(); }};  // last: destroyed first
};

}  // namespace hympi
