! SPDX-License-Identifier: BSD-3-Clause
! A plain Fortran MPI program (no hympi in it) under libhympi_pmpi, built three times:
! BINDING 1 mpif.h, 2 use mpi, 3 use mpi_f08. Barrier, broadcast, reduce (also in place at
! the root) and allreduce (also MPI_IN_PLACE) of DOUBLE PRECISION and INTEGER, with data
! that changes every call, against the values they must have (sums of small integers:
! exact in any order); MPI_Neighbor_alltoall and MPI_Neighbor_alltoallv on a periodic ring
! (MPI_Cart_create). Every rank stops with 1 when any rank found a difference.
program test_pmpi_fortran
#if BINDING == 3
  use mpi_f08
#elif BINDING == 2
  use mpi
#endif
  implicit none
#if BINDING == 1
  include 'mpif.h'
#endif
  integer, parameter :: n = 8
  integer :: rank, ranks, ierr, it, i, root, failures, any_failure
  double precision :: x(n), y(n)
  integer :: k(4), m(4), sent(2), got(2), below, above
#if BINDING == 3
  type(MPI_Comm) :: ring
#else
  integer :: ring
#endif

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  failures = 0
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [ranks], [.true.], .false., ring, ierr)
  call MPI_Cart_shift(ring, 0, 1, below, above, ierr)
  do it = 1, 30
    root = mod(it, ranks)
    call MPI_Barrier(MPI_COMM_WORLD, ierr)
    x = [(dble(rank + it + i), i = 1, n)]
    call MPI_Allreduce(x, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect(all(y == [(dble(ranks * (it + i) + ranks * (ranks - 1) / 2), i = 1, n)]), 'allreduce sum')
    k = [(rank * 10 + i + it, i = 1, 4)]
    call MPI_Allreduce(MPI_IN_PLACE, k, 4, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    call expect(all(k == [((ranks - 1) * 10 + i + it, i = 1, 4)]), 'allreduce in place max')
    y = -1
    if (rank == root) then
      y = x
      call MPI_Reduce(MPI_IN_PLACE, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    else
      call MPI_Reduce(x, y, n, MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    end if
    if (rank == root) &
      call expect(all(y == [(dble(ranks * (it + i) + ranks * (ranks - 1) / 2), i = 1, n)]), 'reduce sum at the root')
    m = 0
    if (rank == root) m = [(it * 100 + i, i = 1, 4)]
    call MPI_Bcast(m, 4, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call expect(all(m == [(it * 100 + i, i = 1, 4)]), 'bcast')
    ! Block 1 goes to the rank below, block 2 above; got(1) comes from below, got(2) from above.
    sent = [rank * 1000 + it * 10 + 1, rank * 1000 + it * 10 + 2]
    got = -1
    call MPI_Neighbor_alltoall(sent, 1, MPI_INTEGER, got, 1, MPI_INTEGER, ring, ierr)
    call expect(all(got == [below * 1000 + it * 10 + 2, above * 1000 + it * 10 + 1]), 'neighbor_alltoall')
    got = -1
    call MPI_Neighbor_alltoallv(sent, [1, 1], [0, 1], MPI_INTEGER, got, [1, 1], [1, 0], MPI_INTEGER, ring, ierr)
    call expect(all(got == [above * 1000 + it * 10 + 1, below * 1000 + it * 10 + 2]), 'neighbor_alltoallv')
    call expect(ierr == MPI_SUCCESS, 'ierr')
  end do
  call MPI_Comm_free(ring, ierr)
  call MPI_Allreduce(failures, any_failure, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0 .and. any_failure == 0) print '(a,i0,a)', 'test_pmpi_fortran ', BINDING, ': all ranks passed'
  call MPI_Finalize(ierr)
  if (any_failure /= 0) stop 1

contains

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      if (failures < 5) print '(a,i0,a,a,a,i0)', 'rank ', rank, ': ', what, ' wrong in call ', it
    end if
  end subroutine expect
end program test_pmpi_fortran
