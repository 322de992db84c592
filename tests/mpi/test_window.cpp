// SPDX-License-Identifier: BSD-3-Clause
// Shared windows and the arena: alignment, zero-size segments, peers' pointers, first
// touch, contiguous (plain MPI) versus hympi's noncontig layout.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <cstring>

#include <unistd.h>

#include "hympi/shared_window.hpp"
#include "hympi/topology.hpp"
#include "mpi/node/shared_arena.hpp"
#include "test_util.hpp"

namespace {

struct Header {
  int64_t rank;
  int64_t bytes;
};

bool aligned(const void* p, std::size_t a) { return reinterpret_cast<std::uintptr_t>(p) % a == 0; }

}  // namespace

TEST(SharedWindow, AlignedZeroedAndPeersSeeWhatOwnersWrote) {
  hympi::Topology topo(MPI_COMM_WORLD);
  const int me = topo.node_rank();
  for (std::size_t alignment : {64, 4096}) {
    // Odd sizes, and rank 1 of each node allocates nothing.
    const std::size_t bytes = me == 1 ? 0 : 100 + 24 * me;
    hympi::SharedWindow window(topo.node(), bytes, alignment);
    ASSERT_EQ(window.comm_size(), topo.node_size());
    if (bytes == 0) {
      EXPECT_EQ(window.local(), nullptr);
      EXPECT_EQ(window.local_size(), 0u);
    } else {
      EXPECT_TRUE(aligned(window.local(), alignment));
      for (std::size_t i = 0; i < bytes; ++i) ASSERT_EQ(window.local()[i], std::byte{0});
      Header h{topo.world_rank(), int64_t(bytes)};
      std::memcpy(window.local(), &h, sizeof h);
    }
    MPI_Barrier(topo.node());
    for (int r = 0; r < window.comm_size(); ++r) {
      if (window.size(r) == 0) {
        EXPECT_EQ(r, 1);
        continue;
      }
      EXPECT_TRUE(aligned(window.segment(r), alignment));
      Header h;
      std::memcpy(&h, window.segment(r), sizeof h);
      EXPECT_EQ(h.rank, topo.node_members()[r]);
      EXPECT_EQ(std::size_t(h.bytes), window.size(r));
    }
    MPI_Barrier(topo.node());
  }
}

TEST(SharedWindow, AlignmentOutsideOnePageIsRefusedOnEveryRank) {
  // Beyond a page, a segment's place in one process says nothing of its place in another.
  hympi::Topology topo(MPI_COMM_WORLD);
  for (std::size_t alignment : {std::size_t(32), std::size_t(100), 2 * std::size_t(sysconf(_SC_PAGESIZE))})
    hympi::test::expect_error_on_every_rank([&] { hympi::SharedWindow window(topo.node(), 128, alignment); },
                                            "hympi: SharedWindow alignment must be a power of two from 64 to the page size");
}

TEST(SharedWindow, ContiguousPlainMpiVersusNoncontigSegments) {
  hympi::Topology topo(MPI_COMM_WORLD);
  // Plain MPI, contiguous (the default): segment r+1 starts where r ends.
  MPI_Win win;
  double* base = nullptr;
  MPI_Win_allocate_shared(3 * sizeof(double), sizeof(double), MPI_INFO_NULL, topo.node(), &base, &win);
  for (int r = 0; r + 1 < topo.node_size(); ++r) {
    MPI_Aint size;
    int unit;
    double *a, *b;
    MPI_Win_shared_query(win, r, &size, &unit, &a);
    MPI_Win_shared_query(win, r + 1, &size, &unit, &b);
    EXPECT_EQ(b - a, 3);
  }
  MPI_Win_free(&win);
  // hympi's noncontig windows: every segment page-aligned, none overlapping.
  hympi::SharedWindow window(topo.node(), 3 * sizeof(double), 4096);
  for (int r = 0; r + 1 < topo.node_size(); ++r) {
    EXPECT_TRUE(aligned(window.segment(r), 4096));
    auto gap = window.segment(r + 1) - window.segment(r);
    EXPECT_TRUE(gap >= 4096 || gap <= -4096) << gap;
  }
}

TEST(SharedArena, RegionsAreDistinctAlignedAndSpillToNewSlabs) {
  hympi::Topology topo(MPI_COMM_WORLD);
  hympi::mpi::SharedArena arena(topo.node(), 8192);
  std::vector<hympi::mpi::SharedRegion> regions;
  for (int k = 0; k < 6; ++k) {
    // Sizes differ by rank; the 4th request exceeds a slab and forces a bigger one.
    std::size_t bytes = k == 3 ? 20000 : 1000 + 10 * topo.node_rank();
    regions.push_back(arena.allocate(bytes, k % 2 ? 4096 : 64));
    auto& region = regions.back();
    EXPECT_TRUE(aligned(region.local, k % 2 ? 4096 : 64));
    EXPECT_EQ(region.peers[topo.node_rank()], region.local);
    std::memset(region.local, 0, bytes);
    std::memcpy(region.local, &k, sizeof k);
    int64_t rank = topo.world_rank();
    std::memcpy(region.local + sizeof(int), &rank, sizeof rank);
  }
  MPI_Barrier(topo.node());
  for (int k = 0; k < 6; ++k)
    for (int r = 0; r < topo.node_size(); ++r) {
      int kk;
      int64_t rank;
      std::memcpy(&kk, regions[k].peers[r], sizeof kk);
      std::memcpy(&rank, regions[k].peers[r] + sizeof(int), sizeof rank);
      EXPECT_EQ(kk, k);
      EXPECT_EQ(rank, topo.node_members()[r]);
    }
  MPI_Barrier(topo.node());
}
