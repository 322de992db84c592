// SPDX-License-Identifier: BSD-3-Clause
// hympi objects alive at MPI_Finalize. A code that declares its Context or Halo in main()
// destroys it after `MPI_Finalize(); return 0;`, when no MPI call is allowed any more.
//
// Mechanism (MPI-3.1, section 8.7.1): MPI_Finalize first frees the attributes of
// MPI_COMM_SELF, while MPI is still fully usable. One attribute, set when the first guard
// is made, has a delete callback that releases every object still guarded, newest first
// (a Halo before the Context it was made from); each release frees the object's MPI
// resources, collectively, as the object's destructor would. The destructor that runs
// later finds nothing left and makes no MPI call.
//
// Invariants:
//  - A guard lives inside the object it releases and is destroyed before the object's MPI
//    resources: a normally destroyed object is never released twice.
//  - The registry is popped before each release runs, so a release may destroy other
//    guarded objects (a Context's Topology and windows): their guards find themselves gone.
//  - Releases run in the same order on every rank when objects were made in the same
//    order, which their collective constructors require: collective frees match up.
#pragma once

#include <functional>

namespace hympi::detail {

class FinalizeGuard {
 public:
  /// `release` frees the guarded object's MPI resources; it must not throw.
  explicit FinalizeGuard(std::function<void()> release);
  ~FinalizeGuard();
  FinalizeGuard(const FinalizeGuard&) = delete;
  FinalizeGuard& operator=(const FinalizeGuard&) = delete;

  /// MPI_Finalize has begun releasing the guarded objects (only ever set when some object
  /// was guarded): no hympi object may be used any more. One atomic load.
  static bool finalizing() noexcept;

 private:
  unsigned long long number_;  // its place in the registry: made later, released earlier
};

}  // namespace hympi::detail
