// SPDX-License-Identifier: BSD-3-Clause
// A region of the aggregated ghost update (src/halo/aggregated_exchange.cpp): one node-
// pair message in its owner's shared segment, written (a send region) or read (a receive
// region) in place by the node ranks with a part in it (its locals), and sent or received
// by its owner with MPI.
//
//   send region, call k     each local: wait for its notice >= k-1 (the previous message
//                           left); write its part; count one
//                           owner: wait for the count >= k x locals; send; once sent,
//                           notice k to every local
//   receive region, call k  owner: wait for the count >= (k-1) x locals (every part of k-1
//                           read); receive; once arrived, notice k to every local
//                           each local: wait for its notice >= k; read its part; count one
//
// Invariants:
//  - The counter lives in the owner's segment and only grows, by one per local per call,
//    after that local's writes (send) or reads (receive) of the region: a publishing RMW.
//  - Each local's notice lives in its own segment (it spins on local memory) and only
//    grows; the owner stores k after the message of call k left (the region may be
//    rewritten) or arrived (MPI's data is in the region): a publishing store.
//  - So a local never writes a send region its previous message is still leaving, and the
//    owner never receives into a region a local is still reading.
#pragma once

#include <cstdint>
#include <vector>

#include "core/channel.hpp"
#include "core/wait.hpp"

namespace hympi::core {

template <class Orders>
class AggregateRegion {
 public:
  /// `notices`: one per local, each in that local's segment.
  AggregateRegion(Channel* counter, std::vector<Channel*> notices) : counter_(counter), notices_(std::move(notices)) {}

  // --- a local, with its notice -------------------------------------------------------------
  /// Send region: before writing its part of call k.
  void wait_writable(Channel& notice, uint64_t k, const WaitConfig& wait, const WaitSite& site) const {
    wait_at_least<Orders>(notice, k - 1, wait, site);
  }
  /// Receive region: before reading its part of call k.
  void wait_arrived(Channel& notice, uint64_t k, const WaitConfig& wait, const WaitSite& site) const {
    wait_at_least<Orders>(notice, k, wait, site);
  }
  /// After writing (send) or reading (receive) its part.
  void count_part() const {
    counter_->seq.fetch_add(1, Orders::publish);  // publish: my writes (reads) of the region come before
    wake_sleepers<Orders>(*counter_);
  }

  // --- the owner -----------------------------------------------------------------------------
  /// Send region: before sending call k (every part written).
  void wait_written(uint64_t k, const WaitConfig& wait, const WaitSite& site) const {
    wait_at_least<Orders>(*counter_, k * notices_.size(), wait, site);
  }
  /// Receive region: before receiving call k (every part of k-1 read).
  void wait_read(uint64_t k, const WaitConfig& wait, const WaitSite& site) const {
    wait_at_least<Orders>(*counter_, (k - 1) * notices_.size(), wait, site);
  }
  /// After the message of call k left (send) or arrived (receive).
  void notify(uint64_t k) const {
    for (Channel* n : notices_) publish<Orders>(*n, k);  // publish: the region is free (sent) or filled (received)
  }

 private:
  Channel* counter_;
  std::vector<Channel*> notices_;
};

}  // namespace hympi::core
