// SPDX-License-Identifier: BSD-3-Clause
// One hympi::Context per communicator, kept as an MPI attribute of that communicator (the
// PETSc communicator of the SFs that use it): made by the first SF set up on it, freed
// when the communicator is freed. Both are collective on the communicator, so every rank
// has a Context there or none. Patterns and Halos made from it belong to SFs on the same
// communicator, which PETSc destroys before it frees the communicator.
//
// A short program often destroys every PETSc object between two solves, and PETSc then
// frees its communicator: the next SF would pay a Context's first set-up again (a window
// of the node's collectives, about a millisecond). So the first communicator congruent
// with PETSC_COMM_WORLD that gets a Context is held (one more PETSc reference,
// PetscCommDuplicate) until PetscFinalize (release_held_communicator): its Context, and
// the engine every later Context on a congruent communicator shares, stay. One
// communicator per process, the same on every rank (congruence is).
#pragma once

#include <mpi.h>
#include <petscsys.h>

#include "hympi/context.hpp"

namespace hympi::petsc {

/// Creates the attribute key (once; HympiPetscInitialize). Throws hympi::Error.
void create_context_key();
/// Frees the key (PetscFinalize); Contexts still attached are freed with their communicator.
void free_context_key();

/// The Context of `comm`; collective on `comm` when it has none yet (then `*made` is set).
/// Throws hympi::Error.
Context& context_of(MPI_Comm comm, bool* made);

/// Gives back the held communicator (PetscFinalize, collective on PETSC_COMM_WORLD): PETSc
/// frees it with its Context once no object uses it.
PetscErrorCode release_held_communicator();

}  // namespace hympi::petsc
