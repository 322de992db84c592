// SPDX-License-Identifier: BSD-3-Clause
// A PetscSF unit (an MPI datatype) as hympi sees it: `count` contiguous elements of one
// of hympi's element types, or nothing hympi moves. Predefined types, MPI_Type_dup and
// MPI_Type_contiguous of them, nested; anything else (vectors, structs, pairs) is for
// PetscSF's own implementation.
#pragma once

#include <mpi.h>

#include <optional>

#include "hympi/types.hpp"

namespace hympi::petsc {

struct Unit {
  Datatype type;
  int count;  // elements per unit, >= 1

  bool operator==(const Unit&) const = default;
};

/// Decodes `unit` with MPI's envelope calls (a few per call: no cache, so a freed and
/// reused handle cannot be misread).
std::optional<Unit> unit_of(MPI_Datatype unit);

}  // namespace hympi::petsc
