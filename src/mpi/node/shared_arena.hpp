// SPDX-License-Identifier: BSD-3-Clause
// Sub-allocation from few shared windows (MPI implementations cap how many windows a
// job may create, and MPICH spends a communicator id on each). Collective on a node: each
// rank asks for its own size; every rank gets its region, zero-filled, and a pointer to
// each peer's. A region released on every rank (in the same order, as the objects that
// hold them are freed collectively) is reused by later allocations; windows stay until the
// arena goes. Slabs grow geometrically, so many small objects need few windows.
//
// Invariants:
//  - Every rank of the node makes the same sequence of allocate() and release() calls; a
//    rank's free list describes its own segment of each slab only.
//  - allocate() picks the lowest slab in which every rank's request fits (an allreduce),
//    else makes a slab large enough for every rank: the same slab everywhere.
//  - A region is zeroed by its owner before the offsets are exchanged, so no peer reads it
//    before it is zero (a slab's memory never handed out is zero already: only the part
//    below its high-water mark is cleared).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "hympi/shared_window.hpp"

namespace hympi::mpi {

struct SharedRegion {
  std::byte* local = nullptr;
  std::vector<std::byte*> peers;  // peers[r]: rank r's region, in my address space
  std::size_t slab = 0;           // where my part lies, for release()
  std::size_t offset = 0, bytes = 0;
};

class SharedArena {
 public:
  explicit SharedArena(MPI_Comm node, std::size_t slab_bytes = 1 << 20);
  /// Collective on the node. `alignment` is a power of two in 64..4096.
  SharedRegion allocate(std::size_t bytes, std::size_t alignment = 64);
  /// Not communicating, but every rank of the node must release the region (in the same
  /// order of calls as the others), once no rank reads or writes it any more.
  void release(const SharedRegion& region);

  /// Resources held: windows, and bytes of this rank's segments (in use or free).
  std::size_t windows() const { return slabs_.size(); }
  std::size_t segment_bytes() const;

 private:
  /// My segment's free spans, by offset (to merge neighbours) and by size (to find a
  /// fit among thousands of alignment gaps without scanning them).
  class FreeSpans {
   public:
    explicit FreeSpans(std::size_t bytes) { add(0, bytes); }
    /// The offset of a free span's part that holds `bytes` at `alignment`, or -1.
    long fit(std::size_t bytes, std::size_t alignment) const;
    /// Takes [offset, offset + bytes), inside one free span.
    void take(std::size_t offset, std::size_t bytes);
    /// Returns [offset, offset + bytes), merged with free neighbours.
    void give(std::size_t offset, std::size_t bytes);

   private:
    void add(std::size_t offset, std::size_t bytes);
    void remove(std::map<std::size_t, std::size_t>::iterator span);
    std::map<std::size_t, std::size_t> by_offset_;           // offset -> bytes
    std::set<std::pair<std::size_t, std::size_t>> by_size_;  // (bytes, offset)
  };
  struct Slab {
    SharedWindow window;
    FreeSpans free;
    std::size_t written = 0;  // my segment past this offset is as the window came: zero
  };

  MPI_Comm node_;
  std::size_t slab_bytes_;
  std::vector<Slab> slabs_;
};

/// The regions one object allocates from an arena, released together when it goes (or
/// at release()). Collective where the arena's calls are.
class ArenaLease {
 public:
  explicit ArenaLease(SharedArena& arena) : arena_(&arena) {}
  ~ArenaLease() { release(); }
  ArenaLease(const ArenaLease&) = delete;
  ArenaLease& operator=(const ArenaLease&) = delete;

  SharedRegion allocate(std::size_t bytes, std::size_t alignment = 64);
  void release();

 private:
  SharedArena* arena_;
  std::vector<SharedRegion> regions_;
};

}  // namespace hympi::mpi
