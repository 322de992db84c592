// SPDX-License-Identifier: BSD-3-Clause
// Memory-order policies for the shared-memory protocols.
//
// Every protocol is a template over one of these policies, so the tuned orders and the
// all-seq_cst ablation of Quaranta & Maddegedara (2021), Section 4.4 (about 15 % slower
// there), live in the same binary and are compared side by side in one run. Protocol code
// never names a std::memory_order directly: it writes `Orders::publish`,
// `Orders::observe`, ... and each use carries a one-line reason why that order suffices.
#pragma once

#include <atomic>

namespace hympi::core {

/// The weakest orders that are correct for the protocols (the default).
struct TunedOrders {
  /// A store (or read-modify-write) of a sequence number or state word that hands data (or
  /// permission) to a waiting peer: everything written before it must be visible to
  /// whoever acquires the value.
  static constexpr std::memory_order publish = std::memory_order_release;
  /// A load of such a word whose value gates reads of the peer's data.
  static constexpr std::memory_order observe = std::memory_order_acquire;
  /// Loads and stores that need no order of their own: words written before a publish and
  /// read after the observe of it (call descriptions, failure records, small data, array
  /// addresses), words ordered by MPI_Win_sync, statistics and wake-up hints.
  static constexpr std::memory_order hint = std::memory_order_relaxed;
};

/// Every atomic operation sequentially consistent: the ablation baseline of Quaranta &
/// Maddegedara (2021).
struct SeqCstOrders {
  static constexpr std::memory_order publish = std::memory_order_seq_cst;
  static constexpr std::memory_order observe = std::memory_order_seq_cst;
  static constexpr std::memory_order hint = std::memory_order_seq_cst;
};

/// The build switch -DHYMPI_FORCE_SEQ_CST=ON makes every Context use SeqCstOrders,
/// whatever its options say.
#ifdef HYMPI_FORCE_SEQ_CST
inline constexpr bool kForceSeqCst = true;
#else
inline constexpr bool kForceSeqCst = false;
#endif

}  // namespace hympi::core
