// SPDX-License-Identifier: BSD-3-Clause
// Sub-allocation from few shared windows (MPI implementations cap how many windows a
// job may create). Collective on a node: each rank asks for its own size; every rank
// gets its region and a pointer to each peer's. Regions live as long as the arena.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "hympi/shared_window.hpp"

namespace hympi::mpi {

struct SharedRegion {
  std::byte* local = nullptr;
  std::vector<std::byte*> peers;  // peers[r]: rank r's region, in my address space
};

class SharedArena {
 public:
  explicit SharedArena(MPI_Comm node, std::size_t slab_bytes = 1 << 20);
  /// Collective on the node. `alignment` is a power of two in 64..4096.
  SharedRegion allocate(std::size_t bytes, std::size_t alignment = 64);

 private:
  MPI_Comm node_;
  std::size_t slab_bytes_;
  std::vector<SharedWindow> slabs_;
  std::size_t used_ = 0;  // bytes used of my segment in the newest slab
};

}  // namespace hympi::mpi
