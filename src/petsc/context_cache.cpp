// SPDX-License-Identifier: BSD-3-Clause
#include "petsc/context_cache.hpp"

#include <petscsys.h>

#include <memory>

#include "mpi/support/mpi_check.hpp"

namespace hympi::petsc {
namespace {

int g_key = MPI_KEYVAL_INVALID;
MPI_Comm g_held = MPI_COMM_NULL;  // holds one more PETSc reference, until PetscFinalize

int delete_context(MPI_Comm, int, void* value, void*) {
  delete static_cast<Context*>(value);  // collective: MPI_Comm_free is
  return MPI_SUCCESS;
}

}  // namespace

void create_context_key() {
  if (g_key != MPI_KEYVAL_INVALID) return;
  mpi::check(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_context, &g_key, nullptr),
             "MPI_Comm_create_keyval (hympi Context of a PETSc communicator)");
}

void free_context_key() {
  if (g_key != MPI_KEYVAL_INVALID) MPI_Comm_free_keyval(&g_key);
}

Context& context_of(MPI_Comm comm, bool* made) {
  if (g_key == MPI_KEYVAL_INVALID)
    throw Error("hympi: PetscSF type hympi: call HympiPetscInitialize() after PetscInitialize()");
  void* value = nullptr;
  int found = 0;
  mpi::check(MPI_Comm_get_attr(comm, g_key, &value, &found), "MPI_Comm_get_attr (hympi Context)");
  if (found) return *static_cast<Context*>(value);
  auto context = std::make_unique<Context>(comm);
  mpi::check(MPI_Comm_set_attr(comm, g_key, context.get()), "MPI_Comm_set_attr (hympi Context)");
  Context& result = *context.release();
  *made = true;
  if (g_held != MPI_COMM_NULL) return result;
  int relation = MPI_UNEQUAL;
  mpi::check(MPI_Comm_compare(comm, PETSC_COMM_WORLD, &relation), "MPI_Comm_compare (hympi Context)");
  // An SF's communicator is PETSc's own: this takes a reference, no new communicator.
  if (relation == MPI_CONGRUENT && PetscCommDuplicate(comm, &g_held, nullptr) != 0)
    throw Error("hympi: PetscCommDuplicate failed on the communicator of a PetscSF of type hympi");
  return result;
}

PetscErrorCode release_held_communicator() {
  PetscFunctionBegin;
  if (g_held != MPI_COMM_NULL) PetscCall(PetscCommDestroy(&g_held));
  PetscFunctionReturn(0);
}

}  // namespace hympi::petsc
