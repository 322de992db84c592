! SPDX-License-Identifier: BSD-3-Clause
! A plain Fortran MPI program (no hympi in it) under libhympi_pmpi, built three times:
! BINDING 1 mpif.h, 2 use mpi, 3 use mpi_f08. Barrier, broadcast, reduce (also in place at
! the root) and allreduce (also MPI_IN_PLACE) of DOUBLE PRECISION and INTEGER, with data
! that changes every call, against the values they must have (sums of small integers:
! exact in any order); MPI_Neighbor_alltoall and MPI_Neighbor_alltoallv on a periodic ring
! (MPI_Cart_create). With PERSISTENT (an MPI-4 MPI): a persistent MPI_Neighbor_alltoallv_init
! request beside a persistent send and receive, started and completed together six ways
! (Start/Wait, Startall/Waitall, Testall, Waitany, Waitsome, Test with Request_get_status)
! and freed at the end; at np 3 and more the neighbourhood request is hympi's (MPICH 4.0
! alone fails MPI_Testall on its own persistent collectives: docs/pmpi.md). Every rank stops
! with 1 when any rank found a difference.
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
#if PERSISTENT
  ! The buffers change behind the compiler's back (in MPI_Wait*, MPI_Test*): volatile.
  integer, volatile :: psent(2), pgot(2), token_in(1), token_out(1)
  integer :: pcounts(2), psend_at(2), precv_at(2), j, idx, done, indices(3)
  logical :: flag, flags(3)
#if BINDING == 3
  type(MPI_Request) :: requests(3)
#else
  integer :: requests(3)
#endif
#endif

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, ranks, ierr)
  failures = 0
  call MPI_Cart_create(MPI_COMM_WORLD, 1, [ranks], [.true.], .false., ring, ierr)
  call MPI_Cart_shift(ring, 0, 1, below, above, ierr)
#if PERSISTENT
  pcounts = [1, 1]
  psend_at = [0, 1]
  precv_at = [1, 0]
  call MPI_Neighbor_alltoallv_init(psent, pcounts, psend_at, MPI_INTEGER, pgot, pcounts, precv_at, MPI_INTEGER, ring, &
                                   MPI_INFO_NULL, requests(1), ierr)
  call MPI_Recv_init(token_in, 1, MPI_INTEGER, below, 5, ring, requests(2), ierr)
  call MPI_Send_init(token_out, 1, MPI_INTEGER, above, 5, ring, requests(3), ierr)
#endif
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
#if PERSISTENT
    psent = [rank * 1000 + it * 10 + 1, rank * 1000 + it * 10 + 2]
    pgot = -1
    token_out = rank * 100 + it
    token_in = -1
    select case (mod(it, 6))
    case (0)
      do j = 1, 3
        call MPI_Start(requests(j), ierr)
      end do
      do j = 1, 3
        call MPI_Wait(requests(j), MPI_STATUS_IGNORE, ierr)
      end do
    case (1)
      call MPI_Startall(3, requests, ierr)
      call MPI_Waitall(3, requests, MPI_STATUSES_IGNORE, ierr)
    case (2)
      call MPI_Startall(3, requests, ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Testall(3, requests, flag, MPI_STATUSES_IGNORE, ierr)
      end do
    case (3)
      call MPI_Startall(3, requests, ierr)
      do j = 1, 3  ! the index's base is the MPI's (MPICH 4.0's mpi_f08: 0): only counted here
        call MPI_Waitany(3, requests, idx, MPI_STATUS_IGNORE, ierr)
        call expect(idx /= MPI_UNDEFINED, 'waitany')
      end do
    case (4)
      call MPI_Startall(3, requests, ierr)
      done = 0
      do while (done < 3)
        call MPI_Waitsome(3, requests, j, indices, MPI_STATUSES_IGNORE, ierr)
        call expect(j /= MPI_UNDEFINED, 'waitsome')
        done = done + j
      end do
    case (5)
      call MPI_Startall(3, requests, ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Request_get_status(requests(1), flag, MPI_STATUS_IGNORE, ierr)
      end do
      flags = .false.
      do while (.not. all(flags))
        do j = 1, 3
          if (.not. flags(j)) call MPI_Test(requests(j), flags(j), MPI_STATUS_IGNORE, ierr)
        end do
      end do
    end select
    call expect(all(pgot == [above * 1000 + it * 10 + 1, below * 1000 + it * 10 + 2]), 'persistent neighbor_alltoallv')
    call expect(token_in(1) == below * 100 + it, 'persistent receive')
    call expect(ierr == MPI_SUCCESS, 'ierr')
#endif
  end do
#if PERSISTENT
  do j = 1, 3
    call MPI_Request_free(requests(j), ierr)
  end do
#endif
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
