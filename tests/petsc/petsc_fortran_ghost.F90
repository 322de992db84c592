! A Fortran PETSc program that knows nothing of hympi: a ring VecScatter of changing
! values, each update checked; its scatter viewed (the type, and what the type says of its
! broadcasts). Run with -dll_append <libhympi_petsc_plugin.so> -sf_type hympi, PETSc loads
! the type itself. Prints "petsc-fortran: all checks passed" on rank 0 when every rank's
! checks passed.
#include <petsc/finclude/petscvec.h>
program petsc_fortran_ghost
  use petscvec
  implicit none
  integer, parameter :: n = 6, updates = 20
  PetscErrorCode :: ierr
  PetscMPIInt :: rank, size
  Vec :: x, y
  VecScatter :: sc
  IS :: ix, iy
  PetscInt :: from(n), to(n), i, start
  PetscScalar, pointer :: a(:)
  integer :: update, bad, all_bad, right

  call PetscInitialize(PETSC_NULL_CHARACTER, ierr)
  if (ierr /= 0) stop 1
  call MPI_Comm_rank(PETSC_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(PETSC_COMM_WORLD, size, ierr)
  ! x: n owned values per rank; y: n values received from the next rank.
  call VecCreateMPI(PETSC_COMM_WORLD, int(n, kind(n)), PETSC_DETERMINE, x, ierr)
  call VecCreateSeq(PETSC_COMM_SELF, int(n, kind(n)), y, ierr)
  right = mod(rank + 1, size)
  do i = 1, n
    from(i) = right * n + (i - 1)
    to(i) = i - 1
  end do
  call ISCreateGeneral(PETSC_COMM_SELF, int(n, kind(n)), from, PETSC_COPY_VALUES, ix, ierr)
  call ISCreateGeneral(PETSC_COMM_SELF, int(n, kind(n)), to, PETSC_COPY_VALUES, iy, ierr)
  call VecScatterCreate(x, ix, y, iy, sc, ierr)
  call VecScatterSetFromOptions(sc, ierr)
  call VecScatterSetUp(sc, ierr)
  call VecScatterView(sc, PETSC_VIEWER_STDOUT_WORLD, ierr)

  bad = 0
  start = rank * n
  do update = 1, updates
    call VecGetArrayF90(x, a, ierr)
    do i = 1, n
      a(i) = 1000.0d0 * update + start + (i - 1)
    end do
    call VecRestoreArrayF90(x, a, ierr)
    call VecScatterBegin(sc, x, y, INSERT_VALUES, SCATTER_FORWARD, ierr)
    call VecScatterEnd(sc, x, y, INSERT_VALUES, SCATTER_FORWARD, ierr)
    call VecGetArrayF90(y, a, ierr)
    do i = 1, n
      if (a(i) /= 1000.0d0 * update + from(i)) bad = bad + 1
    end do
    call VecRestoreArrayF90(y, a, ierr)
  end do
  call MPI_Allreduce(bad, all_bad, 1, MPI_INTEGER, MPI_SUM, PETSC_COMM_WORLD, ierr)
  if (rank == 0) then
    if (all_bad == 0) then
      print '(a)', 'petsc-fortran: all checks passed'
    else
      print '(a,i0,a)', 'petsc-fortran: ', all_bad, ' wrong values'
    end if
  end if

  call VecScatterDestroy(sc, ierr)
  call ISDestroy(ix, ierr)
  call ISDestroy(iy, ierr)
  call VecDestroy(x, ierr)
  call VecDestroy(y, ierr)
  call PetscFinalize(ierr)
  if (all_bad /= 0) stop 1
end program petsc_fortran_ghost
