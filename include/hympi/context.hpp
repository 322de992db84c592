// SPDX-License-Identifier: BSD-3-Clause
// The entry point: topology, shared windows and the collectives of one communicator.
//
//   hympi::Context ctx(MPI_COMM_WORLD);            // collective; options from HYMPI_*
//   ctx.barrier();
//   ctx.allreduce(in, out, n, hympi::Op::sum);     // double, float, int32_t, int64_t
//   double total = ctx.allreduce(local, hympi::Op::sum);
//
// Inside a node the collectives run over shared memory and C++ atomics (a tree of ranks);
// between nodes the node leaders use MPI. All calls are collective over the communicator,
// must be made in the same order with the same arguments (checked: a mismatch throws
// hympi::Error on every rank), and need no synchronization between consecutive calls.
//
// Cost: Contexts on congruent communicators (the same communicator again, or duplicates
// of it) with the same options share one engine (communicators, shared memory, protocols):
// the first costs its communicators (a few times MPI_Comm_dup + MPI_Comm_split_type), each
// further one one MPI_Allgather and holds no MPI resource of its own. The collectives'
// shared memory (a window, populated) is made at the engine's first collective call, so
// a Context used for ghost updates only never holds it; a window MPI refuses, or
// /dev/shm full, is then that call's hympi::Error on every rank. Their collectives must
// come in the same order on every rank, as MPI requires of collectives on different
// communicators (a rank in another Context's call is an error on every rank). hympi is
// called from one thread at a time per process.
//
// Lifetime: construction and destruction are collective. A Context (or Pattern's Halo,
// CartesianGrid, SharedWindow, Topology) still alive at MPI_Finalize is released inside
// MPI_Finalize, newest first; its destructor afterwards makes no MPI call. So
//   MPI_Init(...); hympi::Context ctx(MPI_COMM_WORLD); ...; MPI_Finalize(); return 0;
// is correct. Objects made from a Context (Patterns, Halos, grids) must not outlive it.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "hympi/options.hpp"
#include "hympi/topology.hpp"
#include "hympi/types.hpp"

namespace hympi {

namespace detail {
struct ContextAccess;  // hympi's own components (halo) reach the wait settings
}

class Context {
 public:
  /// Collective over `comm`, with the options of the HYMPI_* environment variables
  /// (Options::from_env()). A malformed one on some ranks only (one host's environment,
  /// say) fails the set-up on every rank, naming those ranks and the variable.
  explicit Context(MPI_Comm comm = MPI_COMM_WORLD);
  /// Collective over `comm`. The options that shape the protocols (every HYMPI_* but
  /// HYMPI_WAIT and HYMPI_TIMEOUT) must be the same on every rank: else hympi::Error on
  /// every rank, naming the ranks and the values.
  Context(MPI_Comm comm, Options options);
  /// Collective. After MPI_Finalize it does nothing (MPI_Finalize released it).
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  const Topology& topology() const;
  const Options& options() const;

  /// Collectives. An argument that one rank alone got wrong (a null buffer with a nonzero
  /// count, a type or op outside its enumeration, a root that is no rank) or arguments
  /// that differ between ranks make the call fail on every rank with the same
  /// hympi::Error, moving no data; the Context stays usable.
  void barrier();
  /// `in` may equal `out` (in place). Any count, including 0.
  void allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op);
  /// Only `root` (a rank of the communicator) receives the result in `out` (null elsewhere
  /// is fine).
  void reduce(const void* in, void* out, std::size_t count, Datatype type, Op op, int root);
  void bcast(void* data, std::size_t count, Datatype type, int root);

  template <class T>
  void allreduce(const T* in, T* out, std::size_t count, Op op) {
    allreduce(in, out, count, datatype_of<T>(), op);
  }
  template <class T>
  T allreduce(T value, Op op) {
    T result;
    allreduce(&value, &result, 1, datatype_of<T>(), op);
    return result;
  }
  template <class T>
  void reduce(const T* in, T* out, std::size_t count, Op op, int root) {
    reduce(in, out, count, datatype_of<T>(), op, root);
  }
  template <class T>
  void bcast(T* data, std::size_t count, int root) {
    bcast(data, count, datatype_of<T>(), root);
  }

 private:
  friend struct detail::ContextAccess;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hympi
