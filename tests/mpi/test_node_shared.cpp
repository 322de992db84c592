// SPDX-License-Identifier: BSD-3-Clause
// NodeShared (include/hympi/node_shared.hpp): every rank reads what the writers wrote,
// through refreshes by the leader and by slices with new values each time; one copy per
// node, measured in /proc/self/smaps (Rss and Pss of the table's mapping); misuse and a
// throwing writer reported on every rank.
#include <gtest/gtest.h>
#include <mpi.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "hympi/node_shared.hpp"
#include "test_util.hpp"

using hympi::test::context;
using hympi::test::expect_error_on_every_rank;
using hympi::test::world_rank;
using hympi::test::world_size;

namespace {

struct Point {
  double x, y, z;
  int32_t tag;
};

/// What element i holds after refresh `generation` on node `node`.
Point expected(int node, std::size_t i, int generation) {
  return {double(i) + 0.25, double(node), double(generation), int32_t(i % 1000) * 10 + generation};
}

bool same(const Point& a, const Point& b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.tag == b.tag; }

/// The first element of `table` that does not hold generation `g`'s value, or -1.
long first_wrong(const hympi::NodeShared<Point>& table, int node, int g) {
  for (std::size_t i = 0; i < table.size(); ++i)
    if (!same(table[i], expected(node, i, g))) return long(i);
  return -1;
}

/// Rss and Pss (kB) of the mapping that holds `address`, from /proc/self/smaps.
struct Resident {
  long rss_kb = -1, pss_kb = -1;
};
Resident resident(const void* address) {
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  std::ifstream smaps("/proc/self/smaps");
  bool inside = false;
  Resident r;
  for (std::string line; std::getline(smaps, line);) {
    std::uintptr_t begin = 0, end = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> begin >> dash >> end && dash == '-' && line.find(':') > line.find(' ')) {
      inside = begin <= at && at < end;  // a mapping's header line: "begin-end perms ..."
      continue;
    }
    if (!inside) continue;
    long kb = 0;
    if (std::sscanf(line.c_str(), "Rss: %ld kB", &kb) == 1) r.rss_kb = kb;
    if (std::sscanf(line.c_str(), "Pss: %ld kB", &kb) == 1) r.pss_kb = kb;
  }
  return r;
}

}  // namespace

TEST(NodeShared, EveryRankReadsWhatTheWritersWrote) {
  auto& ctx = context();
  const int node = ctx.topology().node_index();
  const std::size_t count = 1000 + 17;  // not a multiple of any node size here
  auto write = [node](int generation) {
    return [node, generation](std::span<Point> part, std::size_t first) {
      for (std::size_t i = 0; i < part.size(); ++i) part[i] = expected(node, first + i, generation);
    };
  };
  hympi::NodeShared<Point> table(ctx, count, write(1));
  ASSERT_EQ(table.size(), count);
  EXPECT_EQ(first_wrong(table, node, 1), -1);
  table.refresh(write(2), hympi::Writers::slices);  // every rank its slice: all of them covered
  EXPECT_EQ(first_wrong(table, node, 2), -1);
  table.refresh(write(3));
  EXPECT_EQ(first_wrong(table, node, 3), -1);
  hympi::NodeShared<Point> empty(ctx, 0, write(1), hympi::Writers::slices);
  EXPECT_EQ(empty.size(), 0u);
  hympi::NodeShared<int64_t> zeros(ctx, 5);
  for (int64_t v : zeros) EXPECT_EQ(v, 0);
}

TEST(NodeShared, OneCopyPerNode) {
  // 100 MiB per node when /dev/shm has room for every node's table twice over (ctest runs
  // two tests at a time), less otherwise; rank 0 decides for everyone.
  auto& ctx = context();
  const hympi::Topology& topo = ctx.topology();
  // One rank per node: nothing to share (and MPICH may then back the window with private
  // memory that the kernel merges with the heap's mapping).
  if (topo.node_count() == world_size()) GTEST_SKIP() << "every node has one rank: nothing is shared";
  long mib = 100;
  if (world_rank() == 0) {
    struct statvfs fs{};
    const long free_mib = statvfs("/dev/shm", &fs) == 0 ? long(fs.f_bavail * fs.f_frsize >> 20) : 1L << 20;
    const long room = (free_mib - 64) / (2 * topo.node_count());
    if (room < mib) {
      mib = room >= 8 ? room : 0;
      std::printf("# NodeShared.OneCopyPerNode: /dev/shm has %ld MiB free: %s\n", free_mib,
                  mib ? ("table scaled down to " + std::to_string(mib) + " MiB per node").c_str()
                      : "too little for an 8 MiB table per node (docker run --shm-size=1g)");
    }
  }
  MPI_Bcast(&mib, 1, MPI_LONG, 0, topo.world());
  if (mib == 0) GTEST_SKIP() << "too little /dev/shm for the table (see rank 0's message)";
  const std::size_t count = std::size_t(mib) << 17;  // uint64_t elements
  hympi::NodeShared<uint64_t> table(ctx, count, [](std::span<uint64_t> part, std::size_t first) {
    for (std::size_t i = 0; i < part.size(); ++i) part[i] = (first + i) * 2654435761u;
  });
  uint64_t wrong = 0;  // every page read by every rank (so each maps all of it), every value checked
  for (std::size_t i = 0; i < count; ++i) wrong += table[i] != i * 2654435761u;
  EXPECT_EQ(wrong, 0u);
  MPI_Barrier(topo.world());  // every rank maps every page before anyone measures its share
  const Resident mine = resident(table.data());
  ASSERT_GE(mine.rss_kb, 0) << "no mapping holds the table in /proc/self/smaps";
  // Rss: the whole table is mapped in this process. Pss: its share of the pages it maps.
  const long table_kb = mib << 10;
  EXPECT_GE(mine.rss_kb, table_kb);
  EXPECT_LE(mine.rss_kb, table_kb + 2048);
  std::vector<long> all(2 * std::size_t(world_size()));
  long pair[2] = {mine.rss_kb, mine.pss_kb};
  MPI_Allgather(pair, 2, MPI_LONG, all.data(), 2, MPI_LONG, topo.world());
  std::vector<long> pss(std::size_t(topo.node_count()), 0), rss(std::size_t(topo.node_count()), 0);
  std::vector<int> ranks(std::size_t(topo.node_count()), 0);
  for (int r = 0; r < world_size(); ++r) {
    const std::size_t n = std::size_t(topo.node_of()[std::size_t(r)]);
    rss[n] = ranks[n] ? std::min(rss[n], all[2 * std::size_t(r)]) : all[2 * std::size_t(r)];
    pss[n] += all[2 * std::size_t(r) + 1];
    ++ranks[n];
  }
  for (int n = 0; n < topo.node_count(); ++n) {
    // One copy: the node's ranks' shares add up to the table (pages of other windows or
    // control words in the same mapping: at most 2 MiB more); K private copies would be K
    // tables.
    EXPECT_GE(pss[std::size_t(n)], table_kb - 1024) << "node " << n;
    EXPECT_LE(pss[std::size_t(n)], table_kb + 2048) << "node " << n;
    if (world_rank() == 0)
      std::printf("# NodeShared: %ld MiB table, node %d of %d ranks: each maps %.1f MiB (Rss), together they hold "
                  "%.1f MiB (Pss summed): %.2f copies; private copies would take %ld MiB, saved %.1f MiB\n",
                  mib, n, ranks[std::size_t(n)], double(rss[std::size_t(n)]) / 1024, double(pss[std::size_t(n)]) / 1024,
                  double(pss[std::size_t(n)]) / double(table_kb), mib * ranks[std::size_t(n)],
                  double(mib * ranks[std::size_t(n)]) - double(pss[std::size_t(n)]) / 1024);
  }
}

TEST(NodeShared, AWriterThatThrowsIsAnErrorOnEveryRank) {
  auto& ctx = context();
  hympi::NodeShared<int32_t> table(ctx, 64);
  const bool thrower = world_rank() == world_size() - 1;
  expect_error_on_every_rank(
      [&] {
        table.refresh(
            [thrower](std::span<int32_t> part, std::size_t) {
              if (thrower) throw std::runtime_error("no data for the table");
              for (int32_t& v : part) v = 1;
            },
            hympi::Writers::slices);
      },
      "hympi: NodeShared: a writer threw: no data for the table");
  // Still usable: a refresh after the failed one.
  table.refresh([](std::span<int32_t> part, std::size_t first) {
    for (std::size_t i = 0; i < part.size(); ++i) part[i] = int32_t(first + i) * 3;
  });
  for (std::size_t i = 0; i < table.size(); ++i) EXPECT_EQ(table[i], int32_t(i) * 3);
}

TEST(NodeShared, MisuseIsAnErrorOnEveryRank) {
  if (world_size() < 2) GTEST_SKIP() << "needs two ranks to disagree";
  auto& ctx = context();
  expect_error_on_every_rank([&] { hympi::NodeShared<double> t(ctx, world_rank() == 0 ? 10 : 11); },
                             "hympi: NodeShared: ranks passed different count: 10 on rank 0, 11 on rank");
  expect_error_on_every_rank([&] { hympi::NodeShared<float> t(ctx, world_rank() == 0 ? 8 : 4); },
                             "ranks passed different count");
  hympi::NodeShared<double> table(ctx, 10);
  expect_error_on_every_rank(
      [&] {
        table.refresh([](std::span<double>, std::size_t) {}, world_rank() == 0 ? hympi::Writers::leader : hympi::Writers::slices);
      },
      "hympi: NodeShared::refresh: ranks named different writers (leader and slices)");
}
