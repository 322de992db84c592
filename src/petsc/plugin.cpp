// libhympi_petsc_plugin.so: the PetscSF type "hympi" for a PETSc program that neither
// links hympi nor calls HympiPetscInitialize. PETSc loads a dynamic library named on its
// options (-dll_append <path> or -dll_prepend <path>, on the command line or in
// PETSC_OPTIONS) during PetscInitialize and calls the function
// PetscDLLibraryRegister_<name> it finds there, <name> being the file's name without
// "lib" and the suffix (PETSc's src/sys/dll/dl.c). Ours registers the type.
//
// The module carries hympi and libhympi_petsc (static, PIC) and exports only the three
// functions of hympi_petsc.h's C API beside the register function (plugin.map): a program
// that also links libhympi_petsc keeps its own copy. It is linked with -z nodelete, since
// PetscFinalize closes the libraries it opened before MPI_Finalize frees the communicators
// whose hympi Contexts the module's delete callback destroys.
#include "hympi_petsc.h"

extern "C" PetscErrorCode PetscDLLibraryRegister_hympi_petsc_plugin(void) { return HympiPetscInitialize(); }
