// SPDX-License-Identifier: BSD-3-Clause
// The internode ghost update with one MPI message per node pair (MASHM, Jamroz & Dennis
// (2016); option 1 of Section 5.3 of Quaranta & Maddegedara (2021)), without MASHM's
// node-wide fences.
//
// Setup (collective on the node, no messages between nodes): every rank learns the
// node's internode traffic (an allgather of (peer, bytes) lists) and lays out the regions
// from it (halo/aggregate_layout.hpp): messages to node D are sorted by (source rank,
// destination rank) and laid out, each cache-line padded, in one send region; node D lays
// out what it receives from this node the same way, so both ends agree on every offset
// without exchanging a plan (the pattern was validated). The message to node D is sent by
// node rank D mod (my node size), the message from node A is received by node rank A mod
// (my node size): node-pair messages are spread over the ranks and each end can name the
// other.
//
// Per call k (invariants, docs/design.md, rules 1-3; every word below only grows):
//  - `sent` (in each contributor's segment): the owner of a send region publishes k once
//    its MPI send of call k completed; a contributor writes call k+1 only after sent >= k.
//  - `filled` (in the send owner's segment): each contributor adds 1 after writing its
//    part of call k; the owner starts the MPI send when filled >= k * contributors.
//  - `arrived` (in each reader's segment): the receive owner publishes k once the MPI
//    receive of call k completed; readers unpack after arrived >= k.
//  - `read` (in the receive owner's segment): each reader adds 1 after unpacking call k;
//    the owner restarts the receive for call k+1 only when read >= k * readers.
// So one call is in flight per region and consecutive calls need no barrier.
// Waits on these words also drive MPI progress, as every wait of a Context does
// (core::WaitConfig::progress): the rank waited for may be blocked on a rendezvous that
// needs a request of this rank to progress.
// Zero-copy: ranks write their parts of call k+1 into the send region themselves after
// sent >= k (wait_sendable), and add to `read` at release_received() instead of in end().
#pragma once

#include <memory>
#include <vector>

#include "halo/exchange.hpp"

namespace hympi::halo {

/// Collective on the node. `peers`: this rank's internode neighbours. Its stats() are the
/// node-pair messages this rank sends (and their payload bytes).
std::unique_ptr<Exchange> make_aggregated_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

}  // namespace hympi::halo
