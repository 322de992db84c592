// SPDX-License-Identifier: BSD-3-Clause
// libhympi_petsc_plugin.so: the PetscSF type "hympi" for a PETSc program that neither
// links hympi nor calls HympiPetscInitialize. PETSc loads a dynamic library named on its
// options (-dll_append <path> or -dll_prepend <path>, on the command line or in
// PETSC_OPTIONS) during PetscInitialize and calls the function
// PetscDLLibraryRegister_<name> it finds there, <name> being the file's name without
// "lib" and the suffix (dl.c in PETSc's sys/dll). Ours registers the type.
//
// The module links hympi and libhympi_petsc in (static libraries, built PIC) and exports
// three functions (plugin.map): the register function and hympi_petsc.h's two. It binds
// its own references locally (-Bsymbolic), so a program that also links libhympi_petsc
// keeps its own copy apart. It is linked with -z nodelete: PetscFinalize closes the
// libraries it opened and then frees its inner communicators, whose hympi Contexts the
// module's MPI delete callback destroys (without it, the petsc.plugin tests crash there).
#include "hympi_petsc.h"

extern "C" PetscErrorCode PetscDLLibraryRegister_hympi_petsc_plugin(void) { return HympiPetscInitialize(); }
