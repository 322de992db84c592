#include "mpi/leader_agreement.hpp"

#include <vector>

#include "mpi/mpi_check.hpp"

namespace hympi::mpi {

void leaders_agree(const LeaderComm& leaders, const core::CallDesc& mine, core::Status& status) {
  uint64_t desc[core::CallDesc::kWords];
  mine.to_words(desc);
  // MAX of (failed, desc, -desc): everyone agrees iff none failed and max == min.
  int64_t local[5] = {status.failed(), int64_t(desc[0]), int64_t(desc[1]), -int64_t(desc[0]),
                      -int64_t(desc[1])};
  int64_t global[5];
  MPI_Request request;
  check(MPI_Iallreduce(local, global, 5, MPI_INT64_T, MPI_MAX, leaders.comm, &request),
        "MPI_Iallreduce (leaders' argument check)");
  leaders.complete(request, "leaders' argument check (MPI_Iallreduce)");
  if (global[0] == 0 && global[1] == -global[3] && global[2] == -global[4]) return;

  constexpr int kRecord = 1 + core::CallDesc::kWords + core::Status::kWords;
  uint64_t record[kRecord];
  record[0] = uint64_t(leaders.world_rank);
  mine.to_words(record + 1);
  status.to_words(record + 1 + core::CallDesc::kWords);
  int count = 0;
  MPI_Comm_size(leaders.comm, &count);
  std::vector<uint64_t> all(std::size_t(count) * kRecord);
  check(MPI_Iallgather(record, kRecord, MPI_UINT64_T, all.data(), kRecord, MPI_UINT64_T,
                       leaders.comm, &request),
        "MPI_Iallgather (leaders' argument check)");
  leaders.complete(request, "leaders' argument check (MPI_Iallgather)");
  const uint64_t* first = all.data();
  for (int l = 0; l < count; ++l) {  // a node's own failure first, in leader order
    auto s = core::Status::from_words(first + l * kRecord + 1 + core::CallDesc::kWords);
    if (s.failed()) {
      status = s;
      return;
    }
  }
  auto desc0 = core::CallDesc::from_words(first + 1);
  for (int l = 1; l < count; ++l) {
    auto other = core::CallDesc::from_words(first + l * kRecord + 1);
    if (!(other == desc0)) {
      status = core::Status::mismatch(int64_t(first[0]), desc0, int64_t(first[l * kRecord]), other);
      return;
    }
  }
}

}  // namespace hympi::mpi
