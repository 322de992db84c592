// SPDX-License-Identifier: BSD-3-Clause
// An MPI-3 shared-memory window with hympi's placement rules (docs/design.md, rule 6):
// MPI_Win_allocate_shared with alloc_shared_noncontig, each rank's segment aligned (by
// the MPI-4 library through mpi_minimum_memory_alignment, else by hympi: Open MPI 4.1
// guarantees 8 bytes), zero-filled and first-touched by
// its owner, peers' segments mapped through MPI_Win_shared_query. Zero-size segments
// are allowed. Too little /dev/shm is reported on every rank as hympi::Error, not SIGBUS.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "hympi/detail/finalize_guard.hpp"

namespace hympi {

class SharedWindow {
 public:
  /// Collective over `comm`, which must be a shared-memory communicator (a node).
  /// `alignment` is a power of two from 64 to the page size (what every process's view of
  /// a peer's segment can share).
  /// Each rank may ask for its own `bytes`; `alignment` must be the same on every rank.
  SharedWindow(MPI_Comm comm, std::size_t bytes, std::size_t alignment = 4096);
  /// Collective (MPI_Win_free). One still alive at MPI_Finalize is freed there.
  ~SharedWindow();
  SharedWindow(SharedWindow&& other) noexcept;
  SharedWindow& operator=(SharedWindow&&) = delete;
  SharedWindow(const SharedWindow&) = delete;
  SharedWindow& operator=(const SharedWindow&) = delete;

  std::byte* local() const { return segments_[rank_]; }
  std::size_t local_size() const { return sizes_[rank_]; }
  /// Rank r's segment, mapped into this process.
  std::byte* segment(int rank) const { return segments_[rank]; }
  std::size_t size(int rank) const { return sizes_[rank]; }
  int comm_size() const { return static_cast<int>(segments_.size()); }
  MPI_Win win() const { return win_; }
  /// The displacement (disp_unit 1) of `address`, in rank r's segment, for MPI's RMA calls
  /// on win(): counted from the segment as MPI allocated it, before the alignment above.
  MPI_Aint displacement(int rank, const void* address) const {
    return static_cast<const std::byte*>(address) - bases_[static_cast<std::size_t>(rank)];
  }

 private:
  MPI_Win win_ = MPI_WIN_NULL;
  int rank_ = 0;
  std::vector<std::byte*> segments_;
  std::vector<std::size_t> sizes_;
  std::vector<std::byte*> bases_;  // each rank's segment as MPI_Win_shared_query gives it
  detail::FinalizeGuard guard_{[this] { free(); }};  // last: destroyed first

  /// Collective: the window of `request` bytes on this rank (the MPI-4 alignment key when
  /// `ask_alignment`); an error on every rank when any failed. Returns whether every
  /// rank's segment starts on `alignment`.
  bool allocate(MPI_Comm comm, std::size_t request, std::size_t alignment, bool ask_alignment);
  void map_segments(MPI_Comm comm, std::size_t bytes, std::size_t alignment, unsigned long long node_total);
  void free();
};

}  // namespace hympi
