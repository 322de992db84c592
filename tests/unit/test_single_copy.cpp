// SPDX-License-Identifier: BSD-3-Clause
// The single copy's reads (src/halo/single_copy.hpp), MPI-free: a plan's runs read with
// process_vm_readv from a forked child's memory give what a memcpy of the same runs gives,
// more runs than one system call takes, and the failures as error codes (a plan without
// runs, an unmapped page). The MPI tests run it between ranks (tests/mpi: SingleCopy.*).
#include <gtest/gtest.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "halo/copy_plan.hpp"
#include "halo/single_copy.hpp"

using hympi::halo::CopyPlan;

namespace {

/// A child process that keeps a copy of this process's memory as it was at fork() and
/// waits, so that reads of it cross processes; killed with the object.
class Child {
 public:
  Child() {
    hympi::halo::allow_single_copy_readers();
    if (pipe(done_) != 0) throw std::runtime_error("pipe");
    pid_ = fork();
    if (pid_ == 0) {  // waits for the parent to close its end, then leaves
      char c;
      close(done_[1]);
      while (read(done_[0], &c, 1) < 0 && errno == EINTR) {
      }
      _exit(0);
    }
    close(done_[0]);
  }
  ~Child() {
    close(done_[1]);
    waitpid(pid_, nullptr, 0);
  }
  pid_t pid() const { return pid_; }

 private:
  pid_t pid_ = -1;
  int done_[2] = {-1, -1};
};

std::vector<std::byte> numbered(std::size_t bytes, int seed) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = std::byte(i * 7 + std::size_t(seed));
  return v;
}

}  // namespace

TEST(SingleCopy, RunsReadFromAnotherProcessEqualAMemcpyOfThem) {
  // 300 runs of 16 points of 8 bytes, 3 apart in the source, packed in the destination:
  // more than the 128 runs one system call takes.
  std::vector<int> src, dst;
  for (int run = 0; run < 300; ++run)
    for (int i = 0; i < 16; ++i) src.push_back(run * 19 + i);
  const CopyPlan plan(src, {}, src.size(), 8);
  ASSERT_EQ(plan.segments().size(), 300u);
  const std::vector<std::byte> from = numbered(300 * 19 * 8, 3);
  Child child;  // holds `from` as it is now
  std::vector<std::byte> expected(plan.bytes()), got(plan.bytes(), std::byte(0));
  plan.run(from.data(), expected.data());
  EXPECT_EQ(hympi::halo::single_copy_read(child.pid(), plan, from.data(), got.data()), 0);
  EXPECT_EQ(got, expected);
}

TEST(SingleCopy, FailuresAreErrorCodes) {
  const long page = sysconf(_SC_PAGESIZE);
  auto* mapped = static_cast<std::byte*>(mmap(nullptr, std::size_t(2 * page), PROT_READ | PROT_WRITE,
                                             MAP_PRIVATE | MAP_ANONYMOUS, -1, 0));
  ASSERT_NE(mapped, MAP_FAILED);
  munmap(mapped + page, std::size_t(page));  // the second page: a hole
  const uint64_t word = 0x1234;
  Child child;
  std::vector<std::byte> into(std::size_t(2 * page));
  // A run that crosses into the hole: a short read.
  const CopyPlan across({}, {}, std::size_t(page / 8 + 1), 8);
  EXPECT_EQ(hympi::halo::single_copy_read(child.pid(), across, mapped, into.data()), EFAULT);
  // Scattered ids copy point by point: no runs to read.
  const std::vector<int> scattered = {5, 1, 9, 3};
  const CopyPlan by_point(scattered, {}, scattered.size(), 8);
  ASSERT_TRUE(by_point.segments().empty());
  EXPECT_EQ(hympi::halo::single_copy_read(child.pid(), by_point, mapped, into.data()), EINVAL);
  // The probe: the word as it is in the child, and not another value.
  const uint64_t other = 0x4321;
  EXPECT_TRUE(hympi::halo::single_copy_probe(child.pid(), &word, &word, sizeof word));
  EXPECT_FALSE(hympi::halo::single_copy_probe(child.pid(), &word, &other, sizeof word));
  EXPECT_FALSE(hympi::halo::single_copy_probe(child.pid(), mapped + page, &word, sizeof word));
  munmap(mapped, std::size_t(page));
}
