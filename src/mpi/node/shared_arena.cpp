// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/node/shared_arena.hpp"

#include <algorithm>
#include <cstring>

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

SharedArena::SharedArena(MPI_Comm node, std::size_t slab_bytes)
    : node_(node), slab_bytes_(slab_bytes) {}

long SharedArena::FreeSpans::fit(std::size_t bytes, std::size_t alignment) const {
  const auto start_in = [alignment](std::size_t offset) { return (offset + alignment - 1) & ~(alignment - 1); };
  // The smallest span of bytes + alignment - 1 or more holds it wherever it starts.
  if (auto it = by_size_.lower_bound({bytes + alignment - 1, 0}); it != by_size_.end()) return long(start_in(it->second));
  // Else a smaller one may, if it starts well (a freed region of this size, say): the
  // smallest few only, not the thousands of alignment gaps a slab full of small objects has.
  int tried = 0;
  for (auto it = by_size_.lower_bound({bytes, 0}); it != by_size_.end() && tried < 16; ++it, ++tried)
    if (start_in(it->second) + bytes <= it->second + it->first) return long(start_in(it->second));
  return -1;
}

void SharedArena::FreeSpans::add(std::size_t offset, std::size_t bytes) {
  by_offset_[offset] = bytes;
  by_size_.insert({bytes, offset});
}

void SharedArena::FreeSpans::remove(std::map<std::size_t, std::size_t>::iterator span) {
  by_size_.erase({span->second, span->first});
  by_offset_.erase(span);
}

void SharedArena::FreeSpans::take(std::size_t offset, std::size_t bytes) {
  auto span = std::prev(by_offset_.upper_bound(offset));
  const std::size_t span_start = span->first, span_end = span->first + span->second;
  remove(span);
  if (span_start < offset) add(span_start, offset - span_start);
  if (offset + bytes < span_end) add(offset + bytes, span_end - offset - bytes);
}

void SharedArena::FreeSpans::give(std::size_t offset, std::size_t bytes) {
  std::size_t start = offset, end = offset + bytes;
  auto next = by_offset_.lower_bound(start);
  if (next != by_offset_.end() && next->first == end) {
    end += next->second;
    auto after = std::next(next);
    remove(next);
    next = after;
  }
  if (next != by_offset_.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      start = previous->first;
      remove(previous);
    }
  }
  add(start, end - start);
}

SharedRegion SharedArena::allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment < 64 || alignment > 4096 || (alignment & (alignment - 1)) != 0)
    throw Error("hympi: SharedArena alignment must be a power of two in 64..4096");
  bytes = std::max<std::size_t>(bytes, 1);  // a region has an address of its own

  // The lowest slab where every rank's request fits (1 = fits, MIN over ranks), else a new one.
  std::vector<int> fits(slabs_.size()), all(slabs_.size());
  for (std::size_t s = 0; s < slabs_.size(); ++s) fits[s] = slabs_[s].free.fit(bytes, alignment) >= 0;
  if (!fits.empty())
    check(MPI_Allreduce(fits.data(), all.data(), int(fits.size()), MPI_INT, MPI_MIN, node_), "MPI_Allreduce (arena)");
  std::size_t chosen = std::find(all.begin(), all.end(), 1) - all.begin();
  if (chosen == slabs_.size()) {
    // Large enough for every rank's request, and at least as large as all slabs so far:
    // the number of windows grows with the logarithm of the memory in use.
    unsigned long long need = std::max({slab_bytes_, bytes, segment_bytes()}), slab = 0;
    check(MPI_Allreduce(&need, &slab, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, node_), "MPI_Allreduce (arena slab size)");
    SharedWindow window(node_, static_cast<std::size_t>(slab), 4096);
    const std::size_t mine = window.local_size();
    slabs_.push_back({std::move(window), FreeSpans(mine), 0});
  }
  Slab& slab = slabs_[chosen];
  const std::size_t offset = std::size_t(slab.free.fit(bytes, alignment));
  slab.free.take(offset, bytes);

  SharedRegion region;
  region.local = slab.window.local() + offset;
  // A reused span: zero before any peer learns where it is (past `written`: zero already).
  if (offset < slab.written) std::memset(region.local, 0, std::min(bytes, slab.written - offset));
  slab.written = std::max(slab.written, offset + bytes);
  unsigned long long my_offset = offset;
  std::vector<unsigned long long> offsets(std::size_t(slab.window.comm_size()));
  check(MPI_Allgather(&my_offset, 1, MPI_UNSIGNED_LONG_LONG, offsets.data(), 1, MPI_UNSIGNED_LONG_LONG, node_),
        "MPI_Allgather (arena offsets)");
  region.peers.resize(offsets.size());
  for (std::size_t r = 0; r < offsets.size(); ++r) region.peers[r] = slab.window.segment(int(r)) + offsets[r];
  region.slab = chosen;
  region.offset = offset;
  region.bytes = bytes;
  return region;
}

void SharedArena::release(const SharedRegion& region) {
  if (region.local) slabs_.at(region.slab).free.give(region.offset, region.bytes);
}

std::size_t SharedArena::segment_bytes() const {
  std::size_t total = 0;
  for (const Slab& s : slabs_) total += s.window.local_size();
  return total;
}

SharedRegion ArenaLease::allocate(std::size_t bytes, std::size_t alignment) {
  regions_.push_back(arena_->allocate(bytes, alignment));
  return regions_.back();
}

void ArenaLease::release() {
  for (const SharedRegion& r : regions_) arena_->release(r);
  regions_.clear();
}

}  // namespace hympi::mpi
