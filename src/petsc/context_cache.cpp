// SPDX-License-Identifier: BSD-3-Clause
#include "petsc/context_cache.hpp"

#include <memory>

#include "mpi/support/mpi_check.hpp"

namespace hympi::petsc {
namespace {

int g_key = MPI_KEYVAL_INVALID;

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

Context& context_of(MPI_Comm comm) {
  if (g_key == MPI_KEYVAL_INVALID)
    throw Error("hympi: PetscSF type hympi: call HympiPetscInitialize() after PetscInitialize()");
  void* value = nullptr;
  int found = 0;
  mpi::check(MPI_Comm_get_attr(comm, g_key, &value, &found), "MPI_Comm_get_attr (hympi Context)");
  if (found) return *static_cast<Context*>(value);
  auto context = std::make_unique<Context>(comm);
  mpi::check(MPI_Comm_set_attr(comm, g_key, context.get()), "MPI_Comm_set_attr (hympi Context)");
  return *context.release();
}

}  // namespace hympi::petsc
