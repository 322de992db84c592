// SPDX-License-Identifier: BSD-3-Clause
// One read-only array per node that every rank of the node reads: a table, mesh
// coordinates, material data (the use case of Hoefler et al., "Leveraging MPI's one-sided
// communication interface for shared-memory programming", section 4). K ranks on a node
// keep one copy instead of K.
//
//   hympi::NodeShared<double> table(ctx, n, [&](std::span<double> part, std::size_t first) {
//     for (std::size_t i = 0; i < part.size(); ++i) part[i] = f(first + i);
//   });                                   // collective: the node's leader writes all n values
//   double x = table[i];                  // any rank, any time outside a refresh
//   table.refresh(write, hympi::Writers::slices);  // collective, rare: each rank writes a slice
//
// Invariants:
//  - Memory: one array of `count` elements per node (real or emulated), in the node
//    leader's segment of a SharedWindow on the node (docs/design.md, rule 6: allocated,
//    zeroed and first touched by the leader, so its pages are on the leader's NUMA node;
//    every other rank's segment is empty and maps the leader's). Zero until written.
//  - Writes happen only inside refresh (or the constructor that takes a writer), by the
//    writers only: Writers::leader, the node's leader writes the whole array
//    (write(all, 0)); Writers::slices, node rank k of K writes elements
//    [k*count/K, (k+1)*count/K) (write(slice, first)): disjoint, so no two ranks write the
//    same element. Everyone else only reads, through const access.
//  - Memory ordering (the MPI-3 unified model; MPI-3.1 section 11.7, and Hoefler et al.):
//    the object holds a passive-target epoch on its window for its whole life
//    (MPI_Win_lock_all with MPI_MODE_NOCHECK), inside which MPI_Win_sync is a full memory
//    barrier for the window's memory. A refresh is
//      MPI_Win_sync; synchronization 1; writes; MPI_Win_sync; synchronization 2; MPI_Win_sync
//    Synchronization 1 (an MPI_Allreduce over the communicator, which also checks that every
//    rank named the same writers) returns on no rank before every rank entered the refresh,
//    so every read of the old contents precedes every write (the sync before it orders a
//    rank's earlier loads). Synchronization 2 (the error check: an MPI_Allreduce over the
//    communicator) returns on no rank before every writer finished; the writer's sync makes
//    its stores visible before it, the reader's sync after it orders its later loads after
//    them. So every read after refresh() returns sees every write of that refresh.
//  - Errors: the construction is checked like every hympi set-up (same count, element size
//    and type on every rank, else hympi::Error on every rank); an exception thrown by a
//    writer is rethrown on every rank as hympi::Error with its message (the array is then
//    unspecified until the next refresh).
//  - Lifetime: construction, refresh and destruction are collective over the Context's
//    communicator; the object must not outlive its Context. One still alive at
//    MPI_Finalize is released there (its epoch closed, its window freed), like every hympi
//    object (context.hpp); its destructor afterwards makes no MPI call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>

#include "hympi/context.hpp"
#include "hympi/names.h"

namespace hympi {

/// Who writes in a NodeShared refresh: the node's leader everything, or every rank a slice.
enum class Writers : uint8_t { HYMPI_WRITERS(HYMPI_CXX_ENUMERATOR) };

namespace detail {

/// The untyped part of NodeShared: the window, the epoch, the synchronizations.
class NodeSharedMemory {
 public:
  NodeSharedMemory(const Context& context, std::size_t count, std::size_t element_size, std::size_t alignment,
                   const char* type_name);
  ~NodeSharedMemory();
  NodeSharedMemory(NodeSharedMemory&&) noexcept;
  NodeSharedMemory& operator=(NodeSharedMemory&&) = delete;

  std::byte* data() const;
  std::size_t count() const;
  /// The elements this rank writes with `writers`: [first, first + count); none for a
  /// rank other than the leader with Writers::leader.
  std::pair<std::size_t, std::size_t> written_by_me(Writers writers) const;
  /// Collective: synchronization 1 (see node_shared.hpp's invariants).
  void begin_write(Writers writers);
  /// Collective: synchronization 2; throws hympi::Error on every rank when `error` is not
  /// empty on some rank.
  void end_write(const std::string& error);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace detail

template <class T>
class NodeShared {
  static_assert(std::is_trivially_copyable_v<T>, "hympi::NodeShared holds trivially copyable types (it lives in shared memory)");

 public:
  /// Collective: `count` zero elements per node; every rank passes the same count.
  NodeShared(const Context& context, std::size_t count)
      : memory_(context, count, sizeof(T), alignof(T), typeid(T).name()) {}
  /// Collective: then refresh(write, writers).
  template <class Write>
  NodeShared(const Context& context, std::size_t count, Write&& write, Writers writers = Writers::leader)
      : NodeShared(context, count) {
    refresh(std::forward<Write>(write), writers);
  }

  /// Collective, rare: the writers (same on every rank) call write(std::span<T> part,
  /// std::size_t first) on the elements they own; afterwards every rank of the node reads
  /// the new contents.
  template <class Write>
  void refresh(Write&& write, Writers writers = Writers::leader) {
    memory_.begin_write(writers);
    std::string error;
    try {
      const auto [first, count] = memory_.written_by_me(writers);
      if (count > 0) write(std::span<T>(mutable_data() + first, count), first);
    } catch (const std::exception& e) {
      error = std::string("hympi: NodeShared: a writer threw: ") + e.what();
    } catch (...) {
      error = "hympi: NodeShared: a writer threw an exception that is not a std::exception";
    }
    memory_.end_write(error);
  }

  std::size_t size() const { return memory_.count(); }
  const T* data() const { return mutable_data(); }
  std::span<const T> view() const { return {data(), size()}; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size(); }

 private:
  T* mutable_data() const { return reinterpret_cast<T*>(memory_.data()); }
  detail::NodeSharedMemory memory_;
};

}  // namespace hympi
