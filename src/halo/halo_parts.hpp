// SPDX-License-Identifier: BSD-3-Clause
// What a Halo runs for one strategy: its range of tags on the Context's shared
// communicators (its messages match nothing else: mpi/support/tag_ranges.hpp) and its
// regions of the Context's shared memory (returned when it goes), the shared fields where
// the strategy needs them, and the strategy's parts (halo/strategies.hpp): begin() runs the
// parts in order and end() in reverse, so the internode part, started first, overlaps the
// intranode copies. A Halo holds no communicator and no window of its own (the baselines
// neighbor and rma_* make theirs: what their MPI calls need).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "halo/refusal.hpp"
#include "halo/strategies.hpp"

namespace hympi::halo {

class HaloParts {
 public:
  /// Collective.
  HaloParts(const Pattern::Data& pattern, int fields, HaloMode mode);
  /// Collective.
  ~HaloParts();
  HaloParts(const HaloParts&) = delete;
  HaloParts& operator=(const HaloParts&) = delete;

  /// Collective. Replaces the parts, the shared memory and the stats by those of `strategy`.
  void build(Strategy strategy);
  /// Collective: frees the parts, returns the shared memory and the tags; idempotent.
  void free();

  const Pattern::Data& pattern() const { return pattern_; }
  int fields() const { return fields_; }
  const HaloStats& stats() const { return stats_; }

  void begin(Arrays arrays);
  void end(Arrays arrays);
  void update(Arrays arrays);
  /// After begin: whether every part's messages of this call are in (Exchange::arrived);
  /// throws Refused when a refusal reached this rank, as a wait would.
  bool arrived();
  /// This rank takes no part in the update: every rank that waits for it throws `message`.
  void refuse(const std::string& message) { refusals_->post(message); }

  // Zero-copy: see Exchange.
  void defer_release();
  /// Every part ends its reads before any waits for its own buffers: no wait depends on
  /// another part of a rank that is itself waiting.
  void acquire();
  /// The buffers of the neighbour at `index` in Pattern::Data::neighbors, from the part that moves it.
  std::optional<MessageBuffers> buffers(std::size_t index);

  /// Field f's shared vector (strategies without private vectors; the send array), this rank's.
  std::byte* shared_field(std::size_t f) const { return vectors_[f].local; }

 private:
  const Pattern::Data& pattern_;
  int fields_;
  HaloMode mode_;
  mpi::TagRanges* tag_ranges_ = nullptr;    // the Context's
  mpi::TagRange tags_;                      // taken from tag_ranges_ until free()
  mpi::ArenaLease arena_;                   // regions of the Context's arena
  std::vector<int> told_;                   // node_internode_neighbors: a refusal's addressees
  std::unique_ptr<Refusals> refusals_;      // the parts' waits check it: freed after them
  std::vector<mpi::SharedRegion> vectors_;  // shared fields, every node rank's
  Parts parts_;
  HaloStats stats_;
};

}  // namespace hympi::halo
