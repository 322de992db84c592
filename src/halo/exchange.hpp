// SPDX-License-Identifier: BSD-3-Clause
// One part of a ghost update: a set of neighbours and how data reaches them. A Halo runs
// its parts' begin() in order and their end() in reverse, so the internode part (started
// first) overlaps the intranode copies.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

#include "core/wait.hpp"
#include "halo/cache_line.hpp"
#include "halo/copy_plan.hpp"
#include "halo/pattern_data.hpp"
#include "hympi/options.hpp"
#include "hympi/topology.hpp"
#include "mpi/node/shared_arena.hpp"
#include "mpi/support/tag_ranges.hpp"

namespace hympi::halo {

class Refusals;

/// A Halo's tags, offsets from ExchangeSetup::tag (its range of mpi::TagRanges): the one
/// place they are listed.
enum Tag : int { data = 0, node_pair = 1, refusal = 2 };
static_assert(Tag::refusal < mpi::TagRanges::kTagsPerRange, "a Halo's tags fit its range");

/// The arrays of one update, one pointer per field: each part packs the points it sends
/// from `send` and unpacks the points it receives into `recv`. The one-array form passes
/// the same pointers as both; zero-copy updates pass none.
struct Arrays {
  std::span<const void* const> send;
  std::span<void* const> recv;
};

/// What every part is made from. Making a part is collective on the Halo's communicator
/// (MPI parts) or on the node (shared-memory parts).
struct ExchangeSetup {
  const Pattern::Data& pattern;
  const Topology& topology;
  MPI_Comm comm;                               // shared by the Context's Halos: collectives, and
  int tag;                                     // messages on the Halo's tags (tag + Tag::...)
  mpi::ArenaLease& arena;                      // the Halo's regions of the Context's arena
  std::span<const mpi::SharedRegion> vectors;  // the shared fields (shm_direct), every node rank's
  core::WaitConfig wait;                       // its interrupt: `refusals`
  Refusals& refusals;                          // the Halo's (halo/refusal.hpp)
  MemoryOrders orders;
  int fields;
  std::size_t single_copy_bytes;  // HYMPI_SINGLE_COPY, 0 in buffers mode (halo/single_copy.hpp)
};

/// One neighbour's packed messages in a part's own buffers (zero-copy).
struct MessageBuffers {
  std::span<std::byte> send;        // the next call's message to it
  std::span<const std::byte> recv;  // the last call's message from it
};

class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual void begin(Arrays arrays) = 0;
  virtual void end(Arrays arrays) = 0;
  /// After begin: whether end() would wait for no neighbour (local; MPI parts test their
  /// requests). The parts of shm and flat_mpi have it (Halo::test_buffers allows no other).
  virtual bool arrived();
  /// The messages this part sends per update (deterministic: from the plans).
  virtual HaloStats stats() const = 0;
  /// Before the Halo is freed (collective): receives still in flight, from an update a
  /// refusal ended (halo/refusal.hpp), are cancelled, so no message lands in memory freed
  /// after. The Halo then waits for every rank to get here, after which no receive of its
  /// communicator is posted: a send still in flight never matches, and its buffer may go.
  virtual void cancel_receives() {}
  /// After that wait (every rank has stopped updating): closes what an update that a
  /// refusal ended, or a Halo freed between begin and end, left open (RMA epochs). With
  /// `refused` (some rank posted or found a refusal) a part keeps any communicator of its
  /// own alive, as the Halo keeps its own (HaloParts::free says why).
  virtual void close(bool /*refused*/) {}

  // Zero-copy (a Halo in buffer mode): begin/end get no arrays, so nothing is packed or
  // unpacked; the user writes send buffers after wait_sendable() and reads receive buffers
  // until release_received(), to which the end of the reads of call k is deferred.
  void defer_release() { deferred_release_ = true; }
  virtual void release_received() {}
  virtual void wait_sendable() {}
  /// Buffers of the neighbour at `index` in Pattern::Data::neighbors, if this part moves its data.
  virtual std::optional<MessageBuffers> buffers(std::size_t /*index*/) { return std::nullopt; }

 protected:
  bool deferred_release_ = false;
};

/// One neighbour's packing and unpacking for every field; a message holds the fields one
/// after the other.
struct PeerPlan {
  int rank = -1;       // world rank
  int node_rank = -1;  // -1: another node
  std::size_t index = 0;  // in Pattern::Data::neighbors
  CopyPlan pack, unpack;  // one field: my send array -> a packed buffer -> my receive array

  std::size_t send_bytes(int fields) const { return pack.bytes() * std::size_t(fields); }
  std::size_t recv_bytes(int fields) const { return unpack.bytes() * std::size_t(fields); }
  void pack_fields(std::span<const void* const> send, std::byte* buffer) const;
  void unpack_fields(const std::byte* buffer, std::span<void* const> recv) const;
};

enum class Where { intranode, internode, everywhere };

/// The plans of the pattern's neighbours that are `where`.
std::vector<PeerPlan> peer_plans(const Pattern::Data& pattern, Where where);

/// One message per peer this rank sends data to, counted by where the peer is.
HaloStats peer_stats(std::span<const PeerPlan> peers, int fields);
/// Adds `part`'s messages and bytes to `total`.
void add_stats(HaloStats& total, const HaloStats& part);

}  // namespace hympi::halo
