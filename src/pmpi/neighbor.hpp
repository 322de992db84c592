// SPDX-License-Identifier: BSD-3-Clause
// MPI_Neighbor_alltoall(v) through hympi: one zero-copy Halo per distributed-graph or
// Cartesian communicator, made at its first served call, whose slot for each neighbour
// holds an 8-byte header and a payload as large as that neighbour's first message (at most
// the operation's upper bound).
//
// Invariants:
//  - The topology never changes, so the Halo's neighbours are fixed; only counts change
//    between calls. Every call runs one update of the Halo on every rank, so no rank needs
//    to know what another chose: each message travels in its slot when it fits (header:
//    its bytes), else by MPI on the communicator's side duplicate under the exchange's own
//    tag (header: -1 - its bytes), a choice the sender makes alone and the receiver reads
//    from the header. One side communicator serves every exchange of a communicator.
//  - A call is start() (the sends) then finish() (the receives), arrived() telling between
//    them whether finish() would wait; the blocking call is both at once, a persistent
//    request (persistent.hpp) runs them at MPI_Start and at its completion.
//  - The receiver checks each header against its own count; a difference is an error on
//    that rank, raised after every message of the call is received (none is left in MPI).
//  - Whether a communicator is served is agreed once, collectively (PMPI_Allreduce): a
//    rank with a repeated or self neighbour (multigraphs, periodic dimensions of size 1 or
//    2, where MPI's matching order decides), or a first message above the operation's upper
//    bound (HYMPI_PMPI_MAX_BYTES, else kMeasured's row: settings.hpp), makes all of them
//    fall through, for good. Later messages larger than their slot go by MPI beside the Halo.
//  - Types follow the one rule of datatypes.hpp: plain ones (predefined, size = extent) are
//    copied; every other type is packed with PMPI_Pack / PMPI_Unpack into and out of the
//    slot, in type-map order (an indexed type whose blocks are listed out of memory order
//    has a lower bound 0 and size = extent, yet memcpy would reorder it). A plain type on
//    one side and a packed one on the other meet as bytes, which holds where MPI's packed
//    form is the data itself (Open MPI and MPICH between processes of one architecture,
//    which shared memory implies).
#pragma once

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hympi/halo.hpp"
#include "pmpi/paths.hpp"

namespace hympi::pmpi {

/// One side of a call: neighbour i's block is count(i) elements of `type` starting
/// offset(i) extents into `buffer`.
struct Blocks {
  const void* buffer;  // the receive side's is the program's writable buffer
  const int* counts;  // null: `count` for every neighbour (MPI_Neighbor_alltoall)
  const int* displs;  // null: block i starts at i * count
  std::int64_t count;
  MPI_Datatype type;
  const MPI_Count* wide_counts = nullptr;  // the large-count forms' (MPI_Neighbor_alltoallv_c):
  const MPI_Aint* wide_displs = nullptr;   // in place of counts and displs
  /// MPI_Neighbor_alltoallv's side (int arrays) or its large-count form's.
  static Blocks varying(const void* buffer, const int* counts, const int* displs, MPI_Datatype type) {
    return {buffer, counts, displs, 0, type};
  }
  static Blocks varying(const void* buffer, const MPI_Count* counts, const MPI_Aint* displs, MPI_Datatype type) {
    return {buffer, nullptr, nullptr, 0, type, counts, displs};
  }
  /// The arrays as varying() was given them (Count: int or MPI_Count).
  template <class Count>
  const Count* given_counts() const {
    if constexpr (std::is_same_v<Count, int>) return counts; else return wide_counts;
  }
  template <class Displacement>
  const Displacement* given_displs() const {
    if constexpr (std::is_same_v<Displacement, int>) return displs; else return wide_displs;
  }
  std::int64_t count_of(int i) const { return wide_counts ? wide_counts[i] : counts ? counts[i] : count; }
  MPI_Aint offset(int i) const {
    return wide_displs ? wide_displs[i] : displs ? MPI_Aint(displs[i]) : MPI_Aint(i * count);
  }
};

/// What a call needs of a type: its extent, its size, whether memcpy moves it.
struct TypeLayout {
  MPI_Aint extent = 0;
  std::size_t size = 0;
  bool contiguous = false;  // plain (datatypes.hpp): its memory is its data; else packed
};
TypeLayout layout_of(MPI_Datatype type);

class NeighborExchange {
 public:
  /// Collective over comm, at its first call that would be served: Path::hympi when every
  /// rank can be served and no message of this call is above `max_bytes`, else why not
  /// (for good: Path::topology or Path::size).
  static Path eligible(MPI_Comm comm, const Blocks& send, const Blocks& recv, std::size_t max_bytes);
  /// Whether comm is a distributed graph or a Cartesian grid (local; the same on every rank):
  /// no other communicator is served, nor gets a Context for its neighbourhood calls.
  static bool topological(MPI_Comm comm);
  /// The bytes of this rank's send blocks in all, one per out-neighbour (the report's size).
  static std::size_t send_bytes(MPI_Comm comm, const Blocks& send);
  /// How many blocks each side of a call on comm has (in: receive, out: send).
  static void degrees(MPI_Comm comm, int& in, int& out);
  /// Collective over comm (after eligible): the Halo, with slots sized by this call's
  /// counts (at most `max_bytes` each); throws hympi::Error on every rank where the
  /// counts of two neighbours disagree. `side` (a duplicate of comm) and `tag` carry the
  /// messages that do not fit their slot.
  NeighborExchange(Context& context, MPI_Comm comm, const Blocks& send, const Blocks& recv, std::size_t max_bytes,
                   MPI_Comm side, int tag);
  ~NeighborExchange();
  NeighborExchange(const NeighborExchange&) = delete;
  NeighborExchange& operator=(const NeighborExchange&) = delete;

  /// One call; throws hympi::Error on a rank whose counts differ from its neighbour's.
  void exchange(const Blocks& send, const Blocks& recv) {
    start(send, layout_of(send.type));
    finish(recv, layout_of(recv.type));
  }
  /// The first half of a call: this rank's messages leave (after its neighbours have read
  /// those of the call before last). `layout`: send.type's (a persistent request keeps it).
  void start(const Blocks& send, const TypeLayout& layout);
  /// After start: whether finish() would wait for no slot (local).
  bool arrived() { return halo_->test_buffers(); }
  /// The second half: the messages come in; throws hympi::Error as exchange() does.
  void finish(const Blocks& recv, const TypeLayout& layout);
  /// This rank will not finish the call: its neighbours' waits for it throw `reason`.
  void refuse(const std::string& reason) { halo_->refuse(reason); }

 private:
  MPI_Comm side_;  // the messages that do not fit their slot, under tag_; PMPI_Pack's (the
                   // program's communicator may be freed while a persistent request lives)
  int tag_;
  std::vector<int> sources_, destinations_;  // MPI's neighbour order, MPI_PROC_NULL kept
  std::vector<int> in_slot_, out_slot_;     // their index among the Halo's neighbours
  std::unique_ptr<Halo> halo_;
  std::vector<MPI_Request> requests_;  // a call's MPI messages, from start() to finish()
  std::string problem_;                // this rank's first error of the call, raised by finish()
  void note(const std::string& what);  // keeps the first
};

}  // namespace hympi::pmpi
