// SPDX-License-Identifier: BSD-3-Clause
// main() of the MPI GoogleTest programs: rank 0 prints the usual report, the other ranks
// print their failures only (prefixed with the rank); the exit code is the same on all,
// and rank 0 prints the verdict of all ranks as its last line.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>

namespace {

class RankFailurePrinter : public ::testing::EmptyTestEventListener {
 public:
  explicit RankFailurePrinter(int rank) : rank_(rank) {}
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (result.failed())
      std::fprintf(stderr, "[rank %d] %s:%d: Failure\n%s\n", rank_,
                   result.file_name() ? result.file_name() : "?", result.line_number(),
                   result.summary());
  }

 private:
  int rank_;
};

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (rank != 0) {
    delete listeners.Release(listeners.default_result_printer());
    listeners.Append(new RankFailurePrinter(rank));
  }
  int failed = RUN_ALL_TESTS() != 0, any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !failed) std::fprintf(stderr, "FAILED on another rank (see above)\n");
  // The verdict of every rank, before MPI_Finalize (tests/multihost/run.sh reads it: MPICH
  // 4.0.2 over UCX/TCP may hang in MPI_Finalize after this point).
  if (rank == 0) std::printf("hympi-tests: %s\n", any_failed ? "failures (see above)" : "all ranks passed");
  std::fflush(stdout);
  MPI_Finalize();
  return any_failed;
}
