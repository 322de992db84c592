// SPDX-License-Identifier: BSD-3-Clause
// The intranode ghost-update link (core/halo/halo_link.hpp) over threads, as the two shared-
// memory strategies use it: one or two send slots (shm), and one-copy reads from
// the sender's own vector with the sender draining acknowledgements (shm_direct). Every
// thread sends to a few others; data changes every call; ThreadSanitizer sees it all.
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <vector>

#include "core/halo/halo_link.hpp"
#include "core/memory_order.hpp"
#include "thread_team.hpp"

using namespace hympi;
using namespace hympi::core;

namespace {

constexpr int kPoints = 64;

uint64_t value(int sender, int receiver, int i, uint64_t k) {
  return (uint64_t(sender) << 48) ^ (uint64_t(receiver) << 40) ^ (uint64_t(i) << 32) ^ k;
}

struct Link {
  int from, to;
  Channel ready, ack;  // in the threads' "segments": plain shared memory here
  uint64_t slots[2][kPoints] = {};
  LinkEnds ends(int depth) { return {&ready, &ack, depth}; }
};

/// Thread r sends to r+1 and r+3 (mod n): several senders per receiver, cycles.
std::vector<std::unique_ptr<Link>> make_links(int n) {
  std::vector<std::unique_ptr<Link>> links;
  for (int r = 0; r < n; ++r)
    for (int step : {1, 3})
      if (n > step && (r + step) % n != r) {
        auto l = std::make_unique<Link>();
        l->from = r;
        l->to = (r + step) % n;
        links.push_back(std::move(l));
      }
  return links;
}

template <class Orders>
void run_slots(int n, int depth) {
  auto links = make_links(n);
  test::ThreadTeam team(n, 64);
  team.run([&](int rank) {
    WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
    unsigned noise = 17u * rank + 5;
    for (uint64_t k = 1; k <= uint64_t(test::scaled(20000)); ++k) {
      for (auto& l : links)  // begin: pack into slot k % 2 once its reader is done
        if (l->from == rank) {
          link_wait_slot_free<Orders>(l->ends(depth), k, wait, {"test: ack", rank, l->to});
          for (int i = 0; i < kPoints; ++i) l->slots[k % depth][i] = value(rank, l->to, i, k);
          link_post<Orders>(l->ends(depth), k);
        }
      test::jitter(noise);
      for (auto& l : links)  // end: wait, read, acknowledge
        if (l->to == rank) {
          link_wait_data<Orders>(l->ends(depth), k, wait, {"test: data", rank, l->from});
          for (int i = 0; i < kPoints; ++i) ASSERT_EQ(l->slots[k % depth][i], value(l->from, rank, i, k));
          link_release<Orders>(l->ends(depth), k);
        }
    }
  });
}

template <class Orders>
void run_direct(int n) {
  auto links = make_links(n);
  std::vector<std::vector<uint64_t>> vectors(static_cast<std::size_t>(n), std::vector<uint64_t>(kPoints));
  test::ThreadTeam team(n, 64);
  team.run([&](int rank) {
    WaitConfig wait{WaitPolicy::adaptive, true, 60.0};
    unsigned noise = 29u * rank + 1;
    for (uint64_t k = 1; k <= uint64_t(test::scaled(20000)); ++k) {
      // The user writes its vector (every reader of call k-1 is done), then begin().
      for (int i = 0; i < kPoints; ++i) vectors[rank][i] = value(rank, 0, i, k);
      for (auto& l : links)
        if (l->from == rank) link_post<Orders>(l->ends(1), k);
      test::jitter(noise);
      for (auto& l : links)  // end(): gather straight from the sender's vector
        if (l->to == rank) {
          link_wait_data<Orders>(l->ends(1), k, wait, {"test: data", rank, l->from});
          for (int i = 0; i < kPoints; ++i) ASSERT_EQ(vectors[l->from][i], value(l->from, 0, i, k));
          link_release<Orders>(l->ends(1), k);
        }
      for (auto& l : links)  // ... and drain my readers before returning
        if (l->from == rank) link_wait_slot_free<Orders>(l->ends(1), k + 1, wait, {"test: drain", rank, l->to});
    }
  });
}

}  // namespace

TEST(HaloLink, TwoSlotsWithParity) {
  for (int n : {2, 3, 5, 8}) run_slots<TunedOrders>(n, 2);
  run_slots<SeqCstOrders>(4, 2);
}

TEST(HaloLink, OneSlot) {
  for (int n : {2, 3, 5}) run_slots<TunedOrders>(n, 1);
}

TEST(HaloLink, OneCopyFromTheSendersVector) {
  for (int n : {2, 3, 5, 8}) run_direct<TunedOrders>(n);
  run_direct<SeqCstOrders>(4);
}
