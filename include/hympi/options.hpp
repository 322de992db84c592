// SPDX-License-Identifier: BSD-3-Clause
// Run-time choices of a hympi::Context. Every field has an environment variable, read by
// Options::from_env(), so a job can be tuned without recompiling.
#pragma once

#include <cstddef>
#include <string>

#include "hympi/names.h"

namespace hympi {

/// How a rank waits for a peer (HYMPI_WAIT): adaptive, spin, yield, sleep. See
/// src/core/wait.hpp.
enum class WaitPolicy { HYMPI_WAIT_POLICIES(HYMPI_CXX_ENUMERATOR) };

/// Shape of the intranode tree (HYMPI_TREE=kary:K | binomial).
enum class TreeShape { HYMPI_TREE_SHAPES(HYMPI_CXX_ENUMERATOR) };

/// Barrier algorithm inside a node (HYMPI_BARRIER): combining, counter_tree, counter_flat,
/// dissemination (each described at HYMPI_BARRIER_ALGORITHMS in hympi/names.h).
enum class BarrierAlgorithm { HYMPI_BARRIER_ALGORITHMS(HYMPI_CXX_ENUMERATOR) };

/// Memory orders of the protocols (HYMPI_ORDERS=tuned|seq_cst): seq_cst is the ablation
/// baseline of Quaranta & Maddegedara (2021), Section 4.4, kept for benchmarks.
enum class MemoryOrders { HYMPI_MEMORY_ORDERS(HYMPI_CXX_ENUMERATOR) };

struct Options {
  /// Emulated nodes (HYMPI_NODE_SIZE): split each shared-memory node into groups of this
  /// many consecutive ranks, so internode paths run on one machine. 0: real nodes.
  int node_size = 0;
  WaitPolicy wait = WaitPolicy::adaptive;
  /// Watchdog (HYMPI_TIMEOUT, seconds): a wait longer than this aborts the job with the
  /// operation, ranks and sequence numbers. 0 disables it.
  double timeout_s = 600.0;
  TreeShape tree = TreeShape::kary;
  int tree_arity = 4;
  /// Group the tree by socket / L3 domain as hwloc reports the ranks' bindings
  /// (HYMPI_TOPO_AWARE=0 turns it off).
  bool topology_aware = true;
  BarrierAlgorithm barrier = BarrierAlgorithm::dissemination;
  MemoryOrders orders = MemoryOrders::tuned;
  /// Per-rank shared buffer of the collectives (HYMPI_COLL_BUFFER, bytes); larger counts
  /// go through it in chunks. It is made and populated at the first collective call of a
  /// group's Contexts, not when a Context is made (BENCHMARKS.md, "Set-up cost of a
  /// Context"). 256 KiB: populating it took 0.46-0.48 ms at 2 ranks, against
  /// 1.0-1.4 ms for 1 MiB, and the 1 MiB allreduce is as fast in chunks of it (0.85 of
  /// MPI_Allreduce on application data, 0.87 with 1 MiB; 2026-11-27).
  std::size_t collective_buffer_bytes = 256 * 1024;
  /// Check across nodes that every rank called the same collective with the same
  /// arguments (HYMPI_VERIFY=0 saves one small MPI_Allreduce among node leaders per call;
  /// the check inside a node is always on and free).
  bool verify = true;
  /// The ghost update's single copy (HYMPI_SINGLE_COPY, bytes): the shm strategy's
  /// receivers read messages of at least this many bytes, made of long runs, straight out
  /// of a neighbour's private array with Linux cross-memory attach (process_vm_readv)
  /// instead of two copies through shared memory, where the kernel allows it
  /// (src/halo/single_copy.hpp says when); 0: never. 1 MiB: the smallest size where it won
  /// on a 16-core node at 2, 4, 8 and 16 ranks (0.88-0.93 of the two copies; not below 1
  /// MiB). On the 2-core VM of BENCHMARKS.md it loses at every size (1.1x at 1 MiB), so
  /// the default was chosen for multicore nodes ("Single copy"); `hympi-bench halo` with
  /// HYMPI_SINGLE_COPY=1024 shows where it wins on a machine.
  std::size_t single_copy_bytes = 1024 * 1024;

  /// Defaults overridden by the HYMPI_* environment variables; a malformed value throws
  /// hympi::Error naming the variable and what it accepts.
  static Options from_env();
  bool operator==(const Options&) const = default;
};

const char* name_of(WaitPolicy policy);
const char* name_of(BarrierAlgorithm algorithm);
const char* name_of(MemoryOrders orders);
std::string describe(const Options& options);

}  // namespace hympi
