// SPDX-License-Identifier: BSD-3-Clause
// Point-to-point messaging for the objects of one Context without a communicator each:
// communicators duplicated once and shared, each object on a range of tags of its own.
// MPI has few communicator ids (MPICH: 2,046 per process), while a code keeps thousands
// of ghost-update objects alive; an object's range keeps its messages apart from those of
// the others, split-phase updates of several in flight included.
//
// Invariants:
//  - Every rank takes and returns ranges in the same order (the objects are made and
//    freed collectively, in the same order on every rank), so a range names the same
//    communicator and tags on every rank without communication; a new communicator is
//    duplicated (collectively) only when every range of the others is taken.
//  - A range returned "dirty" (messages nobody will receive may wait on its tags: a
//    refused update) is never handed out again, and a communicator that held one is left
//    alive when the pool goes, so MPI cannot give its id, where they wait, to a new one.
#pragma once

#include <mpi.h>

#include <vector>

namespace hympi::mpi {

struct TagRange {
  MPI_Comm comm = MPI_COMM_NULL;
  int tag = 0;   // the range's first tag: tag + 0 .. tag + kTagsPerRange - 1 are the object's
  int index = -1;  // which range: for give_back()
};

class TagRanges {
 public:
  static constexpr int kTagsPerRange = 4;

  /// `base`: the communicator the shared ones duplicate (a Context's own).
  explicit TagRanges(MPI_Comm base) : base_(base) {}
  ~TagRanges();
  TagRanges(const TagRanges&) = delete;
  TagRanges& operator=(const TagRanges&) = delete;

  /// Collective on `base` when a communicator must be added, else local (see above).
  TagRange take();
  /// `dirty`: messages nobody receives may wait on its tags (see above).
  void give_back(const TagRange& range, bool dirty);

  /// Resources held: communicators, and ranges in use.
  int communicators() const { return int(comms_.size()); }
  int in_use() const { return in_use_; }

 private:
  MPI_Comm base_;
  int per_comm_ = 0;  // ranges per communicator (from MPI_TAG_UB)
  std::vector<MPI_Comm> comms_;
  std::vector<bool> keep_;  // per communicator: held a dirty range
  std::vector<int> free_;   // returned ranges, reused last-in first-out
  int next_ = 0;            // ranges never handed out start here
  int in_use_ = 0;
};

}  // namespace hympi::mpi
