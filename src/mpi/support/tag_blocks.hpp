// SPDX-License-Identifier: BSD-3-Clause
// Point-to-point messaging for the objects of one Context without a communicator each:
// communicators duplicated once and shared, each object on a block of tags of its own.
// MPI has few communicator ids (MPICH: 2,046 per process), while a code keeps thousands
// of ghost-update objects alive; an object's block keeps its messages apart from those of
// the others, split-phase updates of several in flight included.
//
// Invariants:
//  - Every rank takes and returns blocks in the same order (the objects are made and
//    freed collectively, in the same order on every rank), so a block names the same
//    communicator and tags on every rank without communication; a new communicator is
//    duplicated (collectively) only when every block of the others is taken.
//  - A block returned "dirty" (messages nobody will receive may wait on its tags: a
//    refused update) is never handed out again, and a communicator that held one is left
//    alive when the pool goes, so MPI cannot give its id, where they wait, to a new one.
#pragma once

#include <mpi.h>

#include <vector>

namespace hympi::mpi {

struct TagBlock {
  MPI_Comm comm = MPI_COMM_NULL;
  int tag = 0;   // the block's first tag: tag + 0 .. tag + kTagsPerBlock - 1 are the object's
  int index = -1;  // which block: for release()
};

class TagBlocks {
 public:
  static constexpr int kTagsPerBlock = 4;

  /// `base`: the communicator the shared ones duplicate (a Context's own).
  explicit TagBlocks(MPI_Comm base) : base_(base) {}
  ~TagBlocks();
  TagBlocks(const TagBlocks&) = delete;
  TagBlocks& operator=(const TagBlocks&) = delete;

  /// Collective on `base` when a communicator must be added, else local (see above).
  TagBlock take();
  /// `dirty`: messages nobody receives may wait on its tags (see above).
  void give_back(const TagBlock& block, bool dirty);

  /// Resources held: communicators, and blocks in use.
  int communicators() const { return int(comms_.size()); }
  int in_use() const { return in_use_; }

 private:
  MPI_Comm base_;
  int per_comm_ = 0;  // blocks per communicator (from MPI_TAG_UB)
  std::vector<MPI_Comm> comms_;
  std::vector<bool> keep_;  // per communicator: held a dirty block
  std::vector<int> free_;   // returned blocks, reused last-in first-out
  int next_ = 0;            // blocks never handed out start here
  int in_use_ = 0;
};

}  // namespace hympi::mpi
