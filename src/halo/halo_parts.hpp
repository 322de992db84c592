// SPDX-License-Identifier: BSD-3-Clause
// What a Halo runs for one strategy: its own communicator (its messages match nothing
// else) and shared memory (freed with it), the shared fields where the strategy needs
// them, and the strategy's parts (halo/strategies.hpp): begin() runs the parts in order and
// end() in reverse, so the internode part, started first, overlaps the intranode copies.
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
  /// Collective (it duplicates the pattern's communicator).
  HaloParts(const Pattern::Data& pattern, int fields, HaloMode mode);
  /// Collective.
  ~HaloParts();
  HaloParts(const HaloParts&) = delete;
  HaloParts& operator=(const HaloParts&) = delete;

  /// Collective. Replaces the parts, the shared memory and the stats by those of `strategy`.
  void build(Strategy strategy);
  /// Collective: frees the parts, the shared memory and the communicator; idempotent.
  void free();

  const Pattern::Data& pattern() const { return pattern_; }
  int fields() const { return fields_; }
  const HaloStats& stats() const { return stats_; }

  void begin(Arrays arrays);
  void end(Arrays arrays);
  void update(Arrays arrays);
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
  static constexpr std::size_t kSlabBytes = 64 << 10;  // per rank; larger requests get their own

  const Pattern::Data& pattern_;
  int fields_;
  HaloMode mode_;
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::unique_ptr<mpi::SharedArena> arena_;
  std::vector<int> told_;                   // node_internode_neighbors: a refusal's addressees
  std::unique_ptr<Refusals> refusals_;      // the parts' waits check it: freed after them
  std::vector<mpi::SharedRegion> vectors_;  // shared fields, every node rank's
  Parts parts_;
  HaloStats stats_;
};

}  // namespace hympi::halo
