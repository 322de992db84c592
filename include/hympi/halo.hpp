// SPDX-License-Identifier: BSD-3-Clause
// The ghost (halo) update: every rank keeps its private vector, laid out as in a flat MPI
// code (owned points, then ghost copies of its neighbours' points); an update copies each
// neighbour's boundary values into this rank's ghost entries.
//
//   auto pattern = hympi::Pattern::from_lists(ctx, local_points, neighbors);  // collective, validated
//   hympi::Halo halo(pattern, hympi::Strategy::shm);                          // collective, set up once
//   halo.update(v);                                   // or: halo.begin(v); interior(); halo.end(v);
//
// A Pattern says, per neighbour rank, which local points to send and which ghost points
// receive, with `chunk` values per point (1 for a scalar, 3 for a displacement) of one
// element type. A Halo moves data for one pattern with one strategy; all strategies have
// the same semantics, so they can be compared side by side:
//   shm          intranode through shared send buffers and sequence words (Algorithm 4 of
//                Quaranta & Maddegedara (2021), without its trailing barrier); internode
//                flat Isend/Irecv started first
//   shm_direct   intranode in one copy: receivers gather straight from the sender's
//                vector, which must be allocated by the Halo (shared_field)
//   flat_mpi     persistent Isend/Irecv to every neighbour (their Algorithm 5)
//   neighbor     MPI_Neighbor_alltoallv on a distributed graph
//   rma_fence, rma_pscw, rma_lock, rma_lock_target   intranode through a shared window
//                synchronized by MPI RMA (their Algorithms 6-8: rma_lock with one
//                MPI_Win_lock_all epoch, rma_lock_target per-target locks, as written);
//                internode flat
//   aggregated   intranode as shm; internode one MPI message per node pair (MASHM,
//                Jamroz & Dennis (2016)), packed straight into a shared aggregate
//                buffer, sent by ranks in turn; intranode data is written first,
//                internode data read first
//   aggregated_odm  the same with internode messages sent first and the intranode copies
//                done while they fly (MASHM-ODM)
//   automatic    times shm, aggregated and aggregated_odm for a few updates at set-up and
//                keeps the fastest (the slowest rank's time decides); strategy() tells
// Separate send and receive arrays (MPI's sendbuf and recvbuf, PetscSF's rootdata and
// leafdata): a pattern from Pattern::from_lists_apart indexes the sent points in one array
// and the received ones in another, and halo.update(send, recv) reads the first and writes
// the second; the one-array form update(v) is the case send == recv, for a pattern of one
// array (from_lists, from_owners).
// Between begin(v) and end(v) a rank may compute on its owned points but must not write
// the points it sends nor read its ghosts (nor, with two arrays, write the send array's
// sent points nor read the receive array's received ones). With shm_direct the points it sends are read
// by its neighbours until its own end() returns. Patterns and Halos refer to their
// Context: destroy them first. Every rank calls begin/end (or update) the same number
// of times; a rank that stops calling is reported by its neighbours' watchdog.
//
// Misuse: a Halo checks at construction that every rank passed the same strategy, mode,
// field count and pattern (a fingerprint of the whole pattern, which also catches Halos
// constructed in a different order on different ranks): hympi::Error on every rank; a
// set-up that fails after that on one rank (memory for its buffers, a local MPI call)
// fails on every rank too, naming it, and leaves nothing behind.
// A call out of order on one rank (begin(v) twice, end(v) without begin(v), update(v)
// between them, an update begun with one form and ended with the other, a buffers-mode call
// on a vectors Halo or out of acquire/begin_buffers/end_buffers) and arrays that fail the
// checks of begin/end/update on one rank (their number, their element type, shm_direct's
// shared fields) end the update on every rank that waits for that rank:
// it throws its own reason, they throw hympi::Error naming it ("rank R could not take part
// in a ghost update: ..."), within the waits' polling interval instead of the watchdog,
// and the Halo cannot be used any more on any of them (free it on every rank, make a new
// one). Ranks that wait for nobody in that update finish it, and learn at their next one.
// Every strategy does this (rma_fence: every rank of the node stops after the same fence).
// Destruction is collective; a Halo alive at MPI_Finalize is released there (see
// context.hpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hympi/context.hpp"
#include "hympi/names.h"
#include "hympi/types.hpp"

namespace hympi {

/// Ghost-update strategies: shm, shm_direct, flat_mpi, ... (their list: HYMPI_STRATEGIES in
/// hympi/names.h).
enum class Strategy : uint8_t { HYMPI_STRATEGIES(HYMPI_CXX_ENUMERATOR) };

const char* name_of(Strategy strategy);
/// "shm", "flat_mpi", ...; throws hympi::Error listing the valid names.
Strategy strategy_from_name(std::string_view name);
/// Every strategy, in declaration order.
std::span<const Strategy> all_strategies();

/// What this rank exchanges with one neighbour, in local point ids (0 .. local_points-1;
/// with separate arrays, `send` ids index the send array and `recv` ids the receive array).
struct NeighborLists {
  int rank = -1;          // the neighbour, in the Context's communicator
  std::vector<int> send;  // my points it receives, in the order it lists them in its `recv`
  std::vector<int> recv;  // my ghost points it fills, in the order it lists them in its `send`
};

class Pattern {
 public:
  /// Collective. Validates on every rank that A sends B as many points as B expects from
  /// A, that ids are in range, no ghost is received twice, no neighbour is this rank or
  /// outside the communicator, and chunk and type are the same everywhere; any violation
  /// throws hympi::Error on every rank with the ranks and counts involved.
  static Pattern from_lists(Context& context, int local_points, std::vector<NeighborLists> neighbors,
                            int chunk = 1, Datatype type = Datatype::float64);

  /// Collective. Every local point has a global id and an owner rank; points owned by
  /// another rank are ghosts. The send lists are derived by asking the owners, so both
  /// sides agree by construction. Errors (an owner that does not own the id, ...) are
  /// thrown on every rank.
  static Pattern from_owners(Context& context, std::span<const int64_t> global_ids,
                             std::span<const int> owners, int chunk = 1,
                             Datatype type = Datatype::float64);

  /// Collective. Separate arrays: `send` ids index a send array of `send_points` points,
  /// `recv` ids a receive array of `recv_points` points (PetscSF: roots and leaves). A
  /// point may be sent to several neighbours, or several times to one, and the same id may
  /// be both sent and received (they are different arrays); no point is received twice.
  /// Validated as from_lists, on every rank; every rank calls this one or from_lists. Its
  /// Halos move data with begin/end/update(send, recv) only.
  static Pattern from_lists_apart(Context& context, int send_points, int recv_points,
                                  std::vector<NeighborLists> neighbors, int chunk = 1,
                                  Datatype type = Datatype::float64);

  /// Not collective: the same validated lists moving `chunk` elements of `type` per point
  /// (the units of a PETSc SF share one validation). Every rank must ask alike: a Halo's
  /// set-up compares chunk and type between ranks. chunk < 1 throws hympi::Error.
  Pattern with_unit(int chunk, Datatype type) const;

  Context& context() const;
  /// The one array's points; throws hympi::Error for a pattern of separate arrays.
  int local_points() const;
  /// Points of the send and the receive array (both local_points() for one array).
  int send_points() const;
  int recv_points() const;
  /// Built by from_lists_apart: separate send and receive arrays.
  bool apart() const;
  int chunk() const;
  Datatype type() const;
  /// Sorted by rank; neighbours with nothing to exchange are dropped.
  const std::vector<NeighborLists>& neighbors() const;

  struct Data;
  const Data& data() const { return *data_; }

 private:
  explicit Pattern(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
  static Pattern make(Context& context, int send_points, int recv_points, bool apart,
                      std::vector<NeighborLists> neighbors, int chunk, Datatype type);
  std::shared_ptr<const Data> data_;
};

/// A renumbering of the local points (Figs. 8 and 17 of Quaranta & Maddegedara (2021)):
/// inner | boundary | ghost.
/// Boundary points sent to one neighbour are grouped by neighbour, intranode neighbours
/// first; points sent to several neighbours come last in the boundary part; each
/// neighbour's ghosts are contiguous, intranode neighbours first. With it, most messages
/// are one memcpy.
struct LocalOrdering {
  std::vector<int> new_id;  // new_id[old local id]
  int inner = 0, boundary = 0, ghosts = 0;
  Pattern pattern;          // the same exchange in the new numbering
};

/// Collective (it builds and validates the renumbered pattern). For a pattern of one
/// array; a pattern of separate arrays throws hympi::Error on every rank.
LocalOrdering order_local_ids(const Pattern& pattern);

/// What one update moves, as seen by this rank (deterministic: from the pattern and
/// the strategy). Messages and payload bytes it sends per update, all fields together.
struct HaloStats {
  int internode_messages = 0;       // MPI messages to other nodes (aggregated: node-pair messages it sends)
  std::size_t internode_bytes = 0;
  int intranode_messages = 0;       // to neighbours on this node (shared memory, or MPI for flat_mpi / neighbor)
  std::size_t intranode_bytes = 0;
  int single_copy_messages = 0;     // of the intranode ones: read by the receiver straight from this
                                    // rank's array (shm, HYMPI_SINGLE_COPY; src/halo/single_copy.hpp)
};

/// Where a Halo's data comes from: the vectors passed to begin/end (it packs and unpacks),
/// or, zero-copy, its own message buffers, which the code writes and reads itself.
enum class HaloMode : uint8_t { HYMPI_HALO_MODES(HYMPI_CXX_ENUMERATOR) };

/// One candidate timed by Strategy::automatic: seconds per update (slowest rank).
struct HaloTrial {
  Strategy strategy;
  double seconds;
};

class Halo {
 public:
  /// Collective. `fields`: how many vectors each update moves (one synchronization, several
  /// payloads); every rank passes the same value.
  explicit Halo(const Pattern& pattern, Strategy strategy = Strategy::shm, int fields = 1,
                HaloMode mode = HaloMode::vectors);
  ~Halo();
  Halo(const Halo&) = delete;
  Halo& operator=(const Halo&) = delete;

  /// What runs: the strategy asked for, or automatic's choice.
  Strategy strategy() const;
  Strategy requested_strategy() const;
  /// automatic's measurements, in the order tried; empty for the other strategies.
  std::span<const HaloTrial> trials() const;
  int fields() const;
  const HaloStats& stats() const;

  /// `vectors`: `fields()` pointers to local_points * chunk elements of the pattern's type.
  /// For a pattern of one array.
  void begin(std::span<void* const> vectors);
  void end(std::span<void* const> vectors);
  void update(std::span<void* const> vectors) {
    begin(vectors);
    end(vectors);
  }

  template <class T> void begin(T* v) { begin({v}); }
  template <class T> void end(T* v) { end({v}); }
  template <class T> void update(T* v) { update({v}); }
  template <class T> void begin(std::initializer_list<T*> vs) { begin(typed(vs)); }
  template <class T> void end(std::initializer_list<T*> vs) { end(typed(vs)); }
  template <class T> void update(std::initializer_list<T*> vs) { update(typed(vs)); }

  /// Separate arrays, for any pattern: per field, the sent points are read from `send[f]`
  /// (send_points * chunk elements) and the received ones written into `recv[f]`
  /// (recv_points * chunk); nothing else of `recv[f]` is touched. end() takes the arrays
  /// begin() took. With shm_direct, send[f] is shared_field(f) (its neighbours read it).
  void begin(std::span<const void* const> send, std::span<void* const> recv);
  void end(std::span<const void* const> send, std::span<void* const> recv);
  void update(std::span<const void* const> send, std::span<void* const> recv) {
    begin(send, recv);
    end(send, recv);
  }

  template <class T> void begin(const T* send, T* recv) { begin(std::initializer_list<const T*>{send}, {recv}); }
  template <class T> void end(const T* send, T* recv) { end(std::initializer_list<const T*>{send}, {recv}); }
  template <class T> void update(const T* send, T* recv) { update(std::initializer_list<const T*>{send}, {recv}); }
  template <class T> void begin(std::initializer_list<const T*> send, std::initializer_list<T*> recv) {
    begin(typed_send(send), typed(recv));
  }
  template <class T> void end(std::initializer_list<const T*> send, std::initializer_list<T*> recv) {
    end(typed_send(send), typed(recv));
  }
  template <class T> void update(std::initializer_list<const T*> send, std::initializer_list<T*> recv) {
    update(typed_send(send), typed(recv));
  }

  // Zero-copy (HaloMode::buffers, MASHM's buffer pointers). One update:
  //   halo.acquire();                                  // ends the reads of the previous update
  //   for each neighbour n: fill halo.send_buffer<T>(n) // n: index in pattern.neighbors()
  //   halo.begin_buffers();  compute();  halo.end_buffers();
  //   for each neighbour n: read halo.recv_buffer<T>(n) // valid until the next acquire()
  // A message holds field 0, then field 1, ...: for each point of the sender's send list,
  // in order, `chunk` values. For aggregated strategies an internode buffer is the rank's
  // part of the node-pair message itself. Strategies: shm, aggregated, aggregated_odm,
  // flat_mpi and automatic; calls out of this order throw hympi::Error and refuse the
  // update (as above); send_buffer and recv_buffer out of it throw on this rank alone.
  void acquire();
  /// This rank cannot take part in the next update (or the rest of this one): the ranks
  /// that wait for it throw hympi::Error with `reason` and this rank's number instead of
  /// waiting, and the Halo is broken as above. For wrappers and bindings whose own
  /// argument checks failed; begin/end/update do it themselves when theirs fail. Local.
  void refuse(const std::string& reason);
  void begin_buffers();
  /// Between begin_buffers() and end_buffers(): whether every message of this update is
  /// in, so that end_buffers() waits for no neighbour. Local (it drives MPI's progress for
  /// MPI's messages); for strategies shm and flat_mpi (automatic: when it chose one of them).
  bool test_buffers();
  void end_buffers();
  template <class T> std::span<T> send_buffer(int neighbor) {
    check_type(datatype_of<T>());
    std::span<std::byte> b = buffer_bytes(neighbor, true);
    return {reinterpret_cast<T*>(b.data()), b.size() / sizeof(T)};
  }
  template <class T> std::span<const T> recv_buffer(int neighbor) {
    check_type(datatype_of<T>());
    std::span<std::byte> b = buffer_bytes(neighbor, false);
    return {reinterpret_cast<const T*>(b.data()), b.size() / sizeof(T)};
  }

  /// Field `f`'s vector in shared memory, local_points * chunk elements (send_points *
  /// chunk: the send array, with separate arrays), owned by this rank and zero-initialized.
  /// Only for shm_direct, which needs its vectors from here (the other strategies move any
  /// array).
  template <class T> T* shared_field(int f = 0) {
    check_type(datatype_of<T>());
    return static_cast<T*>(shared_field_bytes(f));
  }

 private:
  static constexpr std::size_t kMaxInline = 8;
  template <class T> std::span<void* const> typed(std::initializer_list<T*> vs) {
    return fill(vs, inline_);
  }
  template <class T> std::span<const void* const> typed_send(std::initializer_list<const T*> vs) {
    return fill(vs, inline_send_);
  }
  template <class T, class P> std::span<P const> fill(std::initializer_list<T*> vs, P (&out)[kMaxInline]) {
    check_update_arrays(datatype_of<std::remove_const_t<T>>(), vs.size());
    std::size_t i = 0;
    for (T* v : vs) out[i++] = v;
    return {out, vs.size()};
  }
  void check_type(Datatype type) const;
  /// The typed arrays of an update: their type and number (at most kMaxInline); refuses.
  void check_update_arrays(Datatype type, std::size_t count);
  void* shared_field_bytes(int f);
  std::span<std::byte> buffer_bytes(int neighbor, bool send);

  void* inline_[kMaxInline] = {};
  const void* inline_send_[kMaxInline] = {};
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hympi
