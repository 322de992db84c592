// SPDX-License-Identifier: BSD-3-Clause
// Release store / acquire load across processes through a shared window: a ring where
// each rank publishes a block of changing data to its right neighbour and waits for the
// left one's, with an acknowledgement before it overwrites its block. 10^5 rounds.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <new>

#include "core/channel.hpp"
#include "core/memory_order.hpp"
#include "core/wait.hpp"
#include "hympi/shared_window.hpp"
#include "hympi/topology.hpp"

using namespace hympi::core;

namespace {

constexpr int kValues = 61;  // not a multiple of a cache line: data spans lines unevenly

struct Segment {
  Channel ready;  // written by my left neighbour: its block holds round k
  Channel ack;    // written by my right neighbour: it has read my round k
  double data[kValues];
};

double value(int rank, uint64_t round, int i) { return rank * 1e6 + double(round) + i * 1e-3; }

}  // namespace

TEST(Visibility, ReleaseAcquireRingWithChangingData) {
  hympi::Topology topo(MPI_COMM_WORLD);
  const int n = topo.node_size(), me = topo.node_rank();
  const int right = (me + 1) % n, left = (me + n - 1) % n;
  hympi::SharedWindow window(topo.node(), sizeof(Segment), 4096);
  new (window.local()) Segment();
  MPI_Barrier(topo.node());
  auto seg = [&](int r) { return std::launder(reinterpret_cast<Segment*>(window.segment(r))); };

  const char* env = std::getenv("HYMPI_TEST_ROUNDS");
  const uint64_t rounds = env ? std::strtoull(env, nullptr, 10) : 100000;
  WaitConfig wait{hympi::core::WaitPolicy::adaptive, topo.oversubscribed(), 60.0};
  const auto& world = topo.node_members();
  uint64_t errors = 0;
  for (uint64_t k = 1; k <= rounds; ++k) {
    // Reuse safety: overwrite my block only after my right neighbour read round k-1.
    wait_at_least<TunedOrders>(seg(me)->ack, k - 1, wait, {"visibility: ack", world[me], world[right]});
    for (int i = 0; i < kValues; ++i) seg(me)->data[i] = value(me, k, i);
    publish<TunedOrders>(seg(right)->ready, k);
    wait_at_least<TunedOrders>(seg(me)->ready, k, wait, {"visibility: data", world[me], world[left]});
    for (int i = 0; i < kValues; ++i) errors += seg(left)->data[i] != value(left, k, i);
    publish<TunedOrders>(seg(left)->ack, k);
  }
  EXPECT_EQ(errors, 0u) << "stale values seen after an acquire";
  wait_at_least<TunedOrders>(seg(me)->ack, rounds, wait, {"visibility: final ack", world[me], world[right]});
  MPI_Barrier(topo.node());
}
