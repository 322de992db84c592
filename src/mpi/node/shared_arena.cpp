// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/node/shared_arena.hpp"

#include <algorithm>

#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

SharedArena::SharedArena(MPI_Comm node, std::size_t slab_bytes)
    : node_(node), slab_bytes_(slab_bytes) {}

SharedRegion SharedArena::allocate(std::size_t bytes, std::size_t alignment) {
  if (alignment < 64 || alignment > 4096 || (alignment & (alignment - 1)) != 0)
    throw Error("hympi: SharedArena alignment must be a power of two in 64..4096");
  auto align_up = [alignment](std::size_t v) { return (v + alignment - 1) & ~(alignment - 1); };

  // A new slab when the request of any rank does not fit in its segment of the newest.
  std::size_t offset = align_up(used_);
  int fits = !slabs_.empty() && offset + bytes <= slabs_.back().local_size(), all_fit = 0;
  check(MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, node_), "MPI_Allreduce (arena)");
  if (!all_fit) {
    unsigned long long need = std::max(slab_bytes_, bytes), slab = 0;
    check(MPI_Allreduce(&need, &slab, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, node_),
          "MPI_Allreduce (arena slab size)");
    slabs_.emplace_back(node_, static_cast<std::size_t>(slab), 4096);
    offset = 0;
  }
  used_ = offset + bytes;

  const SharedWindow& window = slabs_.back();
  unsigned long long my_offset = offset;
  std::vector<unsigned long long> offsets(window.comm_size());
  check(MPI_Allgather(&my_offset, 1, MPI_UNSIGNED_LONG_LONG, offsets.data(), 1,
                      MPI_UNSIGNED_LONG_LONG, node_),
        "MPI_Allgather (arena offsets)");
  SharedRegion region;
  region.peers.resize(offsets.size());
  for (std::size_t r = 0; r < offsets.size(); ++r)
    region.peers[r] = window.segment(int(r)) + offsets[r];
  region.local = window.local() + offset;
  return region;
}

}  // namespace hympi::mpi
