! SPDX-License-Identifier: BSD-3-Clause
! A Fortran PETSc program that knows nothing of hympi: a ring VecScatter of values that
! change before every update, each update checked, and its scatter's type compared with
! the one asked for on the command line (-sf_type, default hympi). Run with
! -dll_append <libhympi_petsc_plugin.so> -sf_type hympi, PETSc loads the type itself.
! Prints "petsc-fortran: all checks passed" on rank 0 and exits 0 only when every rank's
! checks passed.
#include <petsc/finclude/petscvec.h>
program petsc_fortran_ghost
  use petscvec
  implicit none
  PetscInt, parameter :: n = 6
  integer, parameter :: updates = 20
  PetscErrorCode :: ierr
  PetscMPIInt :: rank, size
  Vec :: x, y
  VecScatter :: sc
  IS :: ix, iy
  PetscInt :: from(n), to(n), i, start, right
  PetscScalar, pointer :: a(:)
  PetscBool :: set
  character(len=64) :: asked, got
  integer :: update, bad, all_bad

  call PetscInitialize(PETSC_NULL_CHARACTER, ierr)
  if (ierr /= 0) stop 1
  call MPI_Comm_rank(PETSC_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(PETSC_COMM_WORLD, size, ierr)
  asked = 'hympi'
  call PetscOptionsGetString(PETSC_NULL_OPTIONS, PETSC_NULL_CHARACTER, '-sf_type', asked, set, ierr)
  ! x: n owned values per rank; y: the n values of the next rank.
  call VecCreateMPI(PETSC_COMM_WORLD, n, PETSC_DETERMINE, x, ierr)
  call VecCreateSeq(PETSC_COMM_SELF, n, y, ierr)
  right = mod(rank + 1, size)
  do i = 1, n
    from(i) = right * n + (i - 1)
    to(i) = i - 1
  end do
  call ISCreateGeneral(PETSC_COMM_SELF, n, from, PETSC_COPY_VALUES, ix, ierr)
  call ISCreateGeneral(PETSC_COMM_SELF, n, to, PETSC_COPY_VALUES, iy, ierr)
  call VecScatterCreate(x, ix, y, iy, sc, ierr)
  call VecScatterSetFromOptions(sc, ierr)
  call VecScatterSetUp(sc, ierr)
  call PetscObjectGetType(sc, got, ierr)

  bad = 0
  if (trim(got) /= trim(asked)) then
    print '(a,i0,5a)', 'petsc-fortran: rank ', rank, ': the scatter has type ', trim(got), ', not ', trim(asked), &
      ' (is -dll_append given?)'
    bad = 1
  end if
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
      print '(3a)', 'petsc-fortran: all checks passed (type ', trim(got), ')'
    else
      print '(a,i0,a)', 'petsc-fortran: ', all_bad, ' checks failed'
    end if
  end if

  call VecScatterDestroy(sc, ierr)
  call ISDestroy(ix, ierr)
  call ISDestroy(iy, ierr)
  call VecDestroy(x, ierr)
  call VecDestroy(y, ierr)
  call PetscFinalize(ierr)
  if (all_bad /= 0 .or. ierr /= 0) stop 1
end program petsc_fortran_ghost
