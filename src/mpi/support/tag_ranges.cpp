// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/support/tag_ranges.hpp"

#include <algorithm>

#include "mpi/support/internal_comm.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {

TagRanges::~TagRanges() {
  for (std::size_t c = 0; c < comms_.size(); ++c)
    if (!keep_[c]) MPI_Comm_free(&comms_[c]);
}

TagRange TagRanges::take() {
  int index;
  if (!free_.empty()) {
    index = free_.back();
    free_.pop_back();
  } else {
    if (per_comm_ == 0 || next_ == per_comm_ * int(comms_.size())) {
      MPI_Comm comm;
      check(MPI_Comm_dup(base_, &comm), "MPI_Comm_dup (ghost-update channels)");
      MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
      name_internal(comm, "ghost-update channels");
      if (per_comm_ == 0) {
        void* value = nullptr;
        int flag = 0;
        MPI_Comm_get_attr(comm, MPI_TAG_UB, &value, &flag);
        const long long tag_ub = flag ? *static_cast<int*>(value) : 32767;  // the standard's least
        per_comm_ = int(std::max(1LL, (tag_ub + 1) / kTagsPerRange));
      }
      comms_.push_back(comm);
      keep_.push_back(false);
      next_ = per_comm_ * int(comms_.size() - 1);
    }
    index = next_++;
  }
  ++in_use_;
  return {comms_[std::size_t(index / per_comm_)], (index % per_comm_) * kTagsPerRange, index};
}

void TagRanges::give_back(const TagRange& range, bool dirty) {
  if (range.index < 0) return;
  --in_use_;
  if (dirty) keep_[std::size_t(range.index / per_comm_)] = true;
  else free_.push_back(range.index);
}

}  // namespace hympi::mpi
