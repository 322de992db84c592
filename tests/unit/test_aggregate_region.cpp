// SPDX-License-Identifier: BSD-3-Clause
// The aggregated ghost update's regions (core/halo/aggregate_region.hpp) over threads: the even
// threads write their parts of a send region (owned by thread 0), the odd ones read theirs
// of a receive region (owned by the last thread), each call. The node-pair message goes
// through a "wire": the send owner copies the region onto it once every part is written,
// the receive owner copies it into its region once every part of the previous call was
// read (writers and readers apart: nothing else orders a slow reader before the next
// message). Data changes every call; ThreadSanitizer sees every region access.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "core/halo/aggregate_region.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

namespace {

constexpr int kPart = 32;  // words per rank in each region

uint64_t value(int rank, int i, uint64_t k) { return (uint64_t(rank) << 40) ^ (uint64_t(i) << 32) ^ k; }

template <class Orders>
void parts_move_through_the_owner(int n) {
  test::ThreadTeam team(n, 64);
  // The owner's segment: both counters and regions; each local's segment: its two notices.
  auto counters = std::make_unique<Channel[]>(2);
  auto wire_ready = std::make_unique<Channel>(), wire_taken = std::make_unique<Channel>();
  std::vector<uint64_t> wire(std::size_t(n * kPart));
  auto notices = std::make_unique<Channel[]>(std::size_t(n));  // thread q's in its segment
  std::vector<uint64_t> send(std::size_t(n * kPart)), recv(std::size_t(n * kPart));
  std::vector<Channel*> send_notices, recv_notices;  // of the even and of the odd threads
  for (int q = 0; q < n; ++q) (q % 2 ? recv_notices : send_notices).push_back(&notices[std::size_t(q)]);
  const AggregateRegion<Orders> out(&counters[0], send_notices), in(&counters[1], recv_notices);
  const WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
  team.run([&](int rank) {
    unsigned noise = 11u * unsigned(rank) + 1;
    const WaitSite site{"aggregate region test", rank, 0};
    for (uint64_t k = 1; k <= uint64_t(test::scaled(2000)); ++k) {
      test::jitter(noise);
      Channel& mine = notices[std::size_t(rank)];
      if (rank % 2 == 0) {
        out.wait_writable(mine, k, wait, site);
        for (int i = 0; i < kPart; ++i) send[std::size_t(rank * kPart + i)] = value(rank, i, k);
        out.count_part();
      }
      if (rank == 0) {  // the send owner: the message of call k leaves
        out.wait_written(k, wait, site);
        std::memcpy(wire.data(), send.data(), wire.size() * sizeof(uint64_t));
        publish<TunedOrders>(*wire_ready, k);
      }
      if (rank == n - 1) {  // the receive owner: it arrives
        in.wait_read(k, wait, site);
        wait_at_least<TunedOrders>(*wire_ready, k, wait, site);
        for (int r = 1; r < n; r += 2)  // a reader's part: its even neighbour's
          std::memcpy(&recv[std::size_t(r * kPart)], &wire[std::size_t((r - 1) * kPart)], kPart * sizeof(uint64_t));
        publish<TunedOrders>(*wire_taken, k);
        in.notify(k);
      }
      if (rank == 0) {  // sent: the send region may be rewritten
        wait_at_least<TunedOrders>(*wire_taken, k, wait, site);
        out.notify(k);
      }
      if (rank % 2 == 1) {
        in.wait_arrived(mine, k, wait, site);
        test::jitter(noise);  // a slow reader
        for (int i = 0; i < kPart; ++i)
          ASSERT_EQ(recv[std::size_t(rank * kPart + i)], value(rank - 1, i, k)) << "call " << k;
        in.count_part();
      }
    }
  });
}

}  // namespace

TEST(AggregateRegion, PartsMoveThroughTheOwnerEveryCall) {
  for (int n : {1, 2, 3, 7, 8}) parts_move_through_the_owner<TunedOrders>(n);
  parts_move_through_the_owner<SeqCstOrders>(4);
}
