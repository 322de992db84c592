// SPDX-License-Identifier: BSD-3-Clause
// hympi.Context (a hympi_context handle) and what its Patterns, Halos and grids share as
// objects made from it.
//
// Lifetimes: an object made from a Context keeps the Context's Python object alive, and is
// registered with it, so Context.close() can close it first (newest first, as
// MPI_Finalize releases hympi's objects). A handle is freed once: by close() (collective,
// explicit) or when Python drops the object (collective too: every rank drops it at the
// same point of the same program). After MPI_Finalize the C API frees without MPI calls,
// and the binding makes none either.
#pragma once

#include <vector>

#include "common.hpp"

namespace hympy {

class Context;

/// A Pattern, Halo, CartesianGrid or NodeShared: made from a Context and closed before it.
class Child {
 public:
  explicit Child(Context& context);
  virtual ~Child();
  Child(const Child&) = delete;
  Child& operator=(const Child&) = delete;

  Context& context() const { return *context_; }
  nb::object context_object() const { return context_object_; }
  /// Frees the handle (collective for halos and grids) and leaves the Context's list.
  void close_handle();
  /// numpy views of this object's memory alive on this rank (they keep it alive).
  int live_views() const { return views_; }

 protected:
  /// A numpy view of `count` elements of this object's memory at `data`, counted in
  /// live_views() and keeping the object alive while it exists.
  nb::object view(void* data, std::size_t count, hympi_datatype type, bool readonly);
  /// Frees the C handle; idempotent. Derived destructors call it through free_quietly().
  virtual void free_handle() = 0;
  /// For destructors: frees, reporting a failure on stderr (no exception can leave).
  void free_quietly(const char* what) noexcept;

 private:
  Context* context_;
  nb::object context_object_;
  bool registered_ = true;
  int views_ = 0;
};

class Context {
 public:
  /// `comm`: an mpi4py communicator or None (MPI.COMM_WORLD); `options` NULL: from HYMPI_*.
  Context(nb::handle comm, const hympi_options* options);
  ~Context();
  Context(const Context&) = delete;
  Context& operator=(const Context&) = delete;

  /// The handle; hympi.Error once closed.
  hympi_context handle() const;
  bool closed() const { return handle_ == nullptr; }
  /// Collective: closes the objects made from it (newest first), then itself. Idempotent.
  void close();
  int rank() const { return rank_; }

  void add(Child* child) { children_.push_back(child); }
  void remove(Child* child);
  /// Collective: hympi.Error on every rank when any rank still holds `views` numpy views
  /// of memory that `what` is about to free. No MPI call after MPI_Finalize.
  void check_no_views(int views, const std::string& what);

 private:
  hympi_context handle_ = nullptr;
  int rank_ = 0;
  std::vector<Child*> children_;  // open objects made from this Context, oldest first
};

bool mpi_finalized();

/// __exit__ of Context, Halo and CartesianGrid.
inline constexpr const char* kExitDoc =
    "Closes it (collectively) when the with-block ends normally. When an exception leaves the block it "
    "stays open, since another rank may not be there to close it (the exception may be this rank's "
    "alone): it is freed when Python drops it, or inside MPI_Finalize.";

bool python_finalizing();
/// hympi.Error once MPI is finalized: the objects holding MPI resources went with it.
void check_not_finalized(const char* what);

/// Runs `call` (a C API call that may wait for other ranks) without the GIL, so that other
/// Python threads (pytest-timeout's, say) run meanwhile; with it while Python finalizes.
template <class F>
int without_gil(F&& call) {
  if (python_finalizing()) return call();
  nb::gil_scoped_release release;
  return call();
}

/// without_gil(call), then check().
template <class F>
void blocking(F&& call) {
  check(without_gil(call));
}

/// An mpi4py communicator from a Fortran handle (hympi._mpi.comm_from_fortran).
nb::object mpi4py_comm(MPI_Fint handle, const char* kind);

}  // namespace hympy
