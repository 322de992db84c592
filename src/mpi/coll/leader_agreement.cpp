// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/leader_agreement.hpp"

#include <algorithm>
#include <vector>

namespace hympi::mpi {

CheckHeader CheckHeader::of(const core::CallDesc& desc, const core::Status& status) {
  uint64_t d[core::CallDesc::kWords];
  desc.to_words(d);
  return {{status.failed(), int64_t(d[0]), int64_t(d[1]), -int64_t(d[0]), -int64_t(d[1])}};
}

bool CheckHeader::agrees() const {
  return words[0] == 0 && words[1] == -words[3] && words[2] == -words[4];
}

void CheckHeader::max_with(const CheckHeader& other) {
  for (int i = 0; i < kWords; ++i) words[i] = std::max(words[i], other.words[i]);
}

void leaders_explain(const LeaderComm& leaders, const core::CallDesc& mine, core::Status& status) {
  constexpr int kRecord = 1 + core::CallDesc::kWords + core::Status::kWords;
  uint64_t record[kRecord];
  record[0] = uint64_t(leaders.world_rank());
  mine.to_words(record + 1);
  status.to_words(record + 1 + core::CallDesc::kWords);
  int count = 0;
  MPI_Comm_size(leaders.comm(), &count);
  std::vector<uint64_t> all(std::size_t(count) * kRecord);
  leaders.run(
      "leaders' argument check (MPI_Allgather)",
      [&] { return MPI_Allgather(record, kRecord, MPI_UINT64_T, all.data(), kRecord, MPI_UINT64_T, leaders.comm()); },
      [&](MPI_Request* r) {
        return MPI_Iallgather(record, kRecord, MPI_UINT64_T, all.data(), kRecord, MPI_UINT64_T, leaders.comm(), r);
      });
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
