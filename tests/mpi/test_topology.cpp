// SPDX-License-Identifier: BSD-3-Clause
// Topology against what plain MPI says: node groups, leaders, indices, emulated nodes.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <vector>

#include "hympi/options.hpp"
#include "hympi/topology.hpp"

namespace {

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

}  // namespace

TEST(Topology, ConsistentWithPlainMpi) {
  const int emulated = hympi::Options::from_env().node_size;
  hympi::Topology topo(MPI_COMM_WORLD, emulated);
  int world_rank, world_size;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  EXPECT_EQ(topo.world_rank(), world_rank);
  EXPECT_EQ(topo.world_size(), world_size);

  // Node communicator: my node's members, by world rank, include me at my node rank.
  int node_size;
  MPI_Comm_size(topo.node(), &node_size);
  ASSERT_EQ(node_size, topo.node_size());
  ASSERT_EQ(int(topo.node_members().size()), node_size);
  EXPECT_EQ(topo.node_members()[topo.node_rank()], world_rank);
  for (int r = 1; r < node_size; ++r) EXPECT_LT(topo.node_members()[r - 1], topo.node_members()[r]);

  // Leaders: one per node, ranked by node index; everyone agrees on the node of everyone.
  EXPECT_EQ(topo.is_leader(), topo.leaders() != MPI_COMM_NULL);
  if (topo.is_leader()) {
    int leaders;
    MPI_Comm_size(topo.leaders(), &leaders);
    EXPECT_EQ(leaders, topo.node_count());
  }
  int leader_count = topo.is_leader(), total_leaders = 0;
  MPI_Allreduce(&leader_count, &total_leaders, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total_leaders, topo.node_count());
  for (int member : topo.node_members()) EXPECT_EQ(topo.node_of()[member], topo.node_index());
  std::vector<int> reference(world_size);
  int mine = topo.node_index();
  MPI_Allgather(&mine, 1, MPI_INT, reference.data(), 1, MPI_INT, MPI_COMM_WORLD);
  EXPECT_EQ(reference, topo.node_of());

  // On one machine, emulated nodes are blocks of `emulated` consecutive ranks.
  if (emulated > 0 && topo.domain_size() == world_size) {
    EXPECT_EQ(topo.node_index(), world_rank / emulated);
    EXPECT_EQ(topo.node_count(), (world_size + emulated - 1) / emulated);
    EXPECT_EQ(topo.emulated(), emulated < world_size);
  }
  // MPICH clique emulation (MPIR_CVAR_NUM_CLIQUES): the test says how many nodes to expect.
  if (int expect = env_int("HYMPI_TEST_EXPECT_NODES", 0)) {
    EXPECT_EQ(topo.node_count(), std::min(expect, world_size));
  }
  // Oversubscription comes from the CPUs the ranks may use (affinity masks), not the
  // machine's CPU count: the test says what to expect when it restricts them (taskset).
  if (int expect = env_int("HYMPI_TEST_EXPECT_OVERSUBSCRIBED", -1); expect >= 0) {
    EXPECT_EQ(topo.oversubscribed(), expect == 1);
  }
}

TEST(Topology, ManyTopologiesCanCoexist) {
  hympi::Topology a(MPI_COMM_WORLD, 1), b(MPI_COMM_WORLD, 0);
  int world_size;
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  EXPECT_EQ(a.node_count(), world_size);
  EXPECT_EQ(a.node_size(), 1);
  EXPECT_GE(b.node_size(), 1);
}
