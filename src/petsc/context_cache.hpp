// SPDX-License-Identifier: BSD-3-Clause
// One hympi::Context per communicator, kept as an MPI attribute of that communicator (the
// PETSc communicator of the SFs that use it): made by the first SF set up on it, freed
// when the communicator is freed. Both are collective on the communicator, so every rank
// has a Context there or none. Patterns and Halos made from it belong to SFs on the same
// communicator, which PETSc destroys before it frees the communicator.
#pragma once

#include <mpi.h>

#include "hympi/context.hpp"

namespace hympi::petsc {

/// Creates the attribute key (once; HympiPetscInitialize). Throws hympi::Error.
void create_context_key();
/// Frees the key (PetscFinalize); Contexts still attached are freed with their communicator.
void free_context_key();

/// The Context of `comm`; collective on `comm` when it has none yet. Throws hympi::Error.
Context& context_of(MPI_Comm comm);

}  // namespace hympi::petsc
