// SPDX-License-Identifier: BSD-3-Clause
// The intranode ghost update through shared memory (strategies shm and shm_direct).
//
// shm (Algorithm 4 of Quaranta & Maddegedara (2021), two copies): the sender packs each
// receiver's data into a send slot in its own segment and publishes the call number on
// the receiver's `ready` channel; the receiver waits on its own line, unpacks, and
// publishes an acknowledgement. Two slots per link (parity): the sender only waits when
// it is two calls ahead; one slot for messages from 512 KiB, where cache footprint costs
// more than the wait. Large messages of long runs skip the slot where the kernel allows it:
// the receiver reads them straight out of the sender's private array (process_vm_readv;
// halo/single_copy.hpp has the choice and the invariants).
//
// shm_direct (one copy): the vectors (the send arrays, with separate arrays) live in shared
// memory (Halo::shared_field); begin() publishes "my vector holds call k", the receiver
// gathers straight from the sender's vector into its ghosts and acknowledges; the sender's end() waits for every reader's
// acknowledgement, because after end() returns the user overwrites the points it sends.
//
// Link protocol and its invariants: core/halo/halo_link.hpp. Channels and slots are
// sub-allocated from the shared memory the Halo gives its parts (ExchangeSetup::arena,
// held by HaloParts in halo/halo_parts.hpp and given back when the Halo goes): each rank's
// control words and slots in its own segment, first-touched by it.
#pragma once

#include <memory>
#include <vector>

#include "halo/exchange.hpp"

namespace hympi::halo {

/// Collective on the node.
std::unique_ptr<Exchange> make_shm_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

/// Collective on the node. `setup.vectors[f]` is field f's shared vector of every node
/// rank (from the Halo's shared memory); `setup.pattern` gives the senders' lists to gather from.
std::unique_ptr<Exchange> make_direct_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

}  // namespace hympi::halo
