// SPDX-License-Identifier: BSD-3-Clause
// PETSc as a peer of hympi's ghost update: the same pattern as a PetscSF (star forest),
// the object behind VecScatter and VecGhostUpdateBegin/End, timed in the same launch with
// the same method. Roots are the rank's local vector, leaves its ghosts; an update is
// PetscSFBcastBegin/End(MPI_REPLACE) from the vector onto itself. The SF type comes from
// PETSc's options (PETSC_OPTIONS="-sf_type window"), default `basic`: persistent
// Isend/Irecv, what a PETSc FEM code gets. Without PETSc (or with a PETSc built on
// another MPI) everything here is a no-op: no contender, no initialization.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "app_data.hpp"

namespace hympi::bench {

/// PetscInitialize after MPI_Init (then HympiPetscInitialize: the PetscSF type "hympi"),
/// PetscFinalize before MPI_Finalize (MPI stays PETSc's caller's). Collective.
class PetscScope {
 public:
  PetscScope();
  ~PetscScope();
  PetscScope(const PetscScope&) = delete;
  PetscScope& operator=(const PetscScope&) = delete;
  /// "PETSc 3.18.5 PetscSF type basic", or empty without PETSc.
  std::string describe() const;
};

/// Collective. The update of a vector of data's pattern (double values only) through a
/// PetscSF (the contender "petsc_sf", checked like every other in the warm-up), or nothing
/// when hympi-bench was built without PETSc or the pattern holds another type. The
/// exchange owns its SF.
std::optional<AppData::Exchange> petsc_exchange(const AppData& data);

/// Collective when called: a PetscSF of type basic on data's pattern made (PetscSFCreate,
/// SetGraph, SetUp) and destroyed, the set-up a PETSc code pays per scatter; nothing
/// without PETSc or for another type than double.
std::optional<std::function<void()>> petsc_sf_setup(const AppData& data);

}  // namespace hympi::bench
