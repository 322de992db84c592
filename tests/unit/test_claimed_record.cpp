// SPDX-License-Identifier: BSD-3-Clause
// The claimed record (core/halo/claimed_record.hpp) and the RMA baselines' post counter
// (core/halo/post_counter.hpp) over threads, as node ranks use them; ThreadSanitizer sees
// every text, number and payload read against its write.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/halo/claimed_record.hpp"
#include "core/halo/post_counter.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

namespace {

template <class Orders>
void every_rank_reads_the_one_claimant(int n) {
  test::ThreadTeam team(n, 64);
  for (int round = 0; round < test::scaled(300); ++round) {
    auto words = std::make_unique<RecordWords>();  // zeroed, as hympi's arena gives it
    std::atomic<int> claimants{0};
    team.run([&](int rank) {
      unsigned noise = 17u * unsigned(rank) + unsigned(round);
      test::jitter(noise);
      ClaimedRecord<Orders> record(*words);
      if (rank % 2 == 0 && record.claim()) {  // the even ranks race for it
        claimants.fetch_add(1, std::memory_order_relaxed);
        record.post("refused by rank " + std::to_string(rank) + " in round " + std::to_string(round),
                    uint64_t(1000 * round + rank));
      } else {
        record.wait_posted();
      }
      const std::string text = record.text();
      const uint64_t stop = record.stop();
      ASSERT_EQ(text.rfind("refused by rank ", 0), 0u) << text;
      const int claimant = std::stoi(text.substr(16));
      ASSERT_EQ(claimant % 2, 0);
      ASSERT_EQ(text, "refused by rank " + std::to_string(claimant) + " in round " + std::to_string(round));
      ASSERT_EQ(stop, uint64_t(1000 * round + claimant));
    });
    ASSERT_EQ(claimants.load(), 1) << "round " << round;
  }
}

template <class Orders>
void senders_start_after_the_post(int n) {
  // Rank 0 "exposes" (writes the payload MPI_Win_post would make readable) and posts; every
  // other rank waits for the post of this round, then reads the payload, as rma_pscw does.
  test::ThreadTeam team(n, 64);
  uint64_t count = 0;
  std::vector<uint64_t> payload(16, 0);
  std::vector<std::atomic<uint64_t>> done(static_cast<std::size_t>(n));
  team.run([&](int rank) {
    unsigned noise = 5u + unsigned(rank);
    for (uint64_t k = 1; k <= uint64_t(test::scaled(3000)); ++k) {
      test::jitter(noise);
      if (rank == 0) {
        for (int r = 1; r < n; ++r)  // the previous round's readers are done
          while (done[std::size_t(r)].load(std::memory_order_acquire) < k - 1) std::this_thread::yield();
        for (uint64_t& p : payload) p = k * 7;
        PostCounter<Orders>::post(count, k);
      } else {
        while (!PostCounter<Orders>::posted_after(count, k - 1)) std::this_thread::yield();
        for (uint64_t p : payload) ASSERT_EQ(p, k * 7);
        done[std::size_t(rank)].store(k, std::memory_order_release);
      }
    }
  });
}

}  // namespace

TEST(ClaimedRecord, ExactlyOneClaimantEveryRankReadsItsText) {
  for (int n : {1, 2, 3, 7, 8}) every_rank_reads_the_one_claimant<TunedOrders>(n);
  every_rank_reads_the_one_claimant<SeqCstOrders>(4);
}

TEST(PostCounter, SendersReadWhatWasPostedBeforeTheCount) {
  for (int n : {2, 3, 8}) senders_start_after_the_post<TunedOrders>(n);
  senders_start_after_the_post<SeqCstOrders>(3);
}
