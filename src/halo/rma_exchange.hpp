// SPDX-License-Identifier: BSD-3-Clause
// The intranode ghost update synchronized by MPI's RMA calls instead of atomics
// (Quaranta & Maddegedara (2021), Section 4.6, Algorithms 6-8): the baselines hympi's
// shared-memory protocol is measured against.
// Every variant but rma_lock_target (below) has a shared window of receive blocks (one per
// intranode sender, in the receiver's segment); the sender packs straight into its block at
// the receiver, the receiver unpacks from it. They differ in how the two are synchronized:
//  - rma_fence: MPI_Win_fence before the stores (the receiver is done with the previous
//    data) and after them (the data is there); collective over the node. A rank that stops
//    on a refusal joins the fences the node's other ranks make before they stop
//    (halo/refusal.hpp, NodeSync).
//  - rma_pscw: the receiver exposes its window to its senders (MPI_Win_post, in begin),
//    the sender accesses its receivers' (MPI_Win_start ... MPI_Win_complete), the
//    receiver waits for its senders (MPI_Win_wait, polled by MPI_Win_test). Empty groups
//    skip their calls (an Open MPI pitfall PETSc also avoids). The sender calls
//    MPI_Win_start once every receiver's post count (shared memory) says it posted, so a
//    refusal can end that wait; epochs a refusal leaves open are closed when the Halo is
//    freed.
//  - rma_lock: passive target (Algorithm 8, in its lock_all form): one MPI_Win_lock_all
//    epoch for the Halo's life on the data and the flag window, MPI_Win_sync as the memory
//    barrier; the flag window holds sequence numbers: `ready` (in the receiver's segment,
//    call k's data is there) and `ack` (in the sender's, call k was read; the sender's
//    next stores wait for it). Monotonic, so no trailing barrier (unlike Alg. 8).
//  - rma_lock_target: Algorithm 8 as the paper writes it: the sender packs into its own
//    segment in an MPI_Win_lock epoch on itself and sets a boolean flag at each receiver by
//    MPI_Accumulate in an epoch on that receiver; the receiver polls its flags with
//    MPI_Fetch_and_op, copies from the sender's segment in an epoch on the sender, clears
//    the flag; an MPI_Barrier of the node ends the update (a NodeSync, as rma_fence).
#pragma once

#include <memory>
#include <vector>

#include "halo/exchange.hpp"

namespace hympi::halo {

/// Each collective on the node.
std::unique_ptr<Exchange> make_rma_fence_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);
std::unique_ptr<Exchange> make_rma_pscw_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);
std::unique_ptr<Exchange> make_rma_lock_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);
std::unique_ptr<Exchange> make_rma_lock_target_exchange(std::vector<PeerPlan> peers, const ExchangeSetup& setup);

}  // namespace hympi::halo
