// SPDX-License-Identifier: BSD-3-Clause
// One directed intranode link of the ghost update (Algorithm 4 of Quaranta & Maddegedara
// (2021), with sequence numbers instead of cleared flags and without its trailing
// barrier).
//
// The sender owns `depth` slots (1 or 2 buffers in its own segment, or its vector itself
// for the one-copy strategy); call k uses slot k % depth.
//
// Invariants (docs/design.md, rules 1-3):
//  - `ready` lives in the receiver's segment (the receiver waits on it): the sender
//    publishes k after writing call k's data into slot k % depth.
//  - `ack` lives in the sender's segment (the sender waits on it): the receiver publishes
//    k after it has finished reading call k's data.
//  - Reuse safety: before writing call k into slot k % depth the sender waits for
//    ack >= k - depth, i.e. the last reader of that slot is done. With depth 2 the sender
//    may run one call ahead of the receiver without waiting; `ready` may then already
//    hold k + 1 when the receiver waits for k, which is why waits are `>=`: the slot of
//    k is untouched until ack reaches k.
//  - Both words only grow, so consecutive calls need no barrier.
//  - Zero-copy: the receiver reads the slot in place and publishes ack only when it is
//    done (at its next acquire), the sender writes the slot in place after the same wait.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/channel.hpp"
#include "core/wait.hpp"

namespace hympi::core {

struct LinkEnds {
  Channel* ready = nullptr;  // in the receiver's segment
  Channel* ack = nullptr;    // in the sender's segment
  int depth = 2;             // slots the sender rotates through
};

/// Sender, before writing call `k` into its slot: waits until the slot's last reader is done.
template <class Orders>
void link_wait_slot_free(const LinkEnds& link, uint64_t k, const WaitConfig& config,
                         const WaitSite& site) {
  if (k > uint64_t(link.depth))
    wait_at_least<Orders>(*link.ack, k - link.depth, config, site);  // acquire: reader done before we overwrite
}

/// Sender, after writing call `k`: hands the data to the receiver.
template <class Orders>
void link_post(const LinkEnds& link, uint64_t k) {
  publish<Orders>(*link.ready, k);  // release: the slot's contents are visible to the receiver's acquire
}

/// Receiver: waits until call `k`'s data is in the sender's slot.
template <class Orders>
void link_wait_data(const LinkEnds& link, uint64_t k, const WaitConfig& config,
                    const WaitSite& site) {
  wait_at_least<Orders>(*link.ready, k, config, site);  // acquire: the sender's writes are visible
}

/// Receiver, after reading call `k`: the sender may reuse the slot.
template <class Orders>
void link_release(const LinkEnds& link, uint64_t k) {
  publish<Orders>(*link.ack, k);  // release: our reads happen before the sender's next writes
}

}  // namespace hympi::core
