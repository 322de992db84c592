! SPDX-License-Identifier: BSD-3-Clause
! A plain Fortran MPI program (no hympi in it) under libhympi_pmpi, built three times:
! BINDING 1 mpif.h, 2 use mpi, 3 use mpi_f08. Barrier, broadcast, reduce (also in place at
! the root) and allreduce (also MPI_IN_PLACE) of DOUBLE PRECISION and INTEGER, with data
! that changes every call, against the values they must have (sums of small integers:
! exact in any order); MPI_Neighbor_alltoall and MPI_Neighbor_alltoallv on a periodic ring
! (MPI_Cart_create). With PERSISTENT (MPICH with MPI-4): a persistent MPI_Neighbor_alltoallv_init
! request beside a persistent send and receive, started and completed together six ways
! (Start/Wait, Startall/Waitall, Testall, Waitany, Waitsome, Test with Request_get_status)
! and, with STATUS_ARRAYS (an MPI-4.1 MPI), three more (MPI_Request_get_status_all, _any,
! _some until done, the data checked then, before MPI_Waitall), and freed at the end; at np 3
! and more the neighbourhood request is hympi's (MPICH 4.0 alone fails MPI_Testall on its own
! persistent collectives: docs/pmpi.md). Indices from MPI_Waitany, _Waitsome and the status
! queries must be 1-3, except from MPICH 4.0's mpi_f08 (0-2, its fault, fixed in 4.1). With LARGE (use
! mpi_f08 on an MPI-4 MPI) every count of those calls is of MPI_COUNT_KIND and every
! displacement of MPI_ADDRESS_KIND: MPI-4's large-count forms (MPICH's Fortran layer calls C's
! MPI_Allreduce_c and the like). Argument "mismatch" (np 3 or more): a count that differs on
! rank 1 in MPI_Allreduce and in MPI_Neighbor_alltoallv, on communicators that return errors,
! must come back as hympi's error (which shows the library served the call): on every rank
! for the allreduce, on rank 1 for the neighbourhood call. Argument "session" (SESSIONS: an
! MPI with MPI-4 sessions): a session at MPI_THREAD_MULTIPLE after MPI_Init, then allreduces,
! which the library must leave to MPI. Every rank stops with 1 when any rank found a difference.
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
#if LARGE
  integer, parameter :: ck = MPI_COUNT_KIND, ak = MPI_ADDRESS_KIND  ! counts, displacements
  character(*), parameter :: form = ' large-count'
#else
  integer, parameter :: ck = kind(0), ak = kind(0)
  character(*), parameter :: form = ''
#endif
  integer, parameter :: n = 8
  integer :: rank, ranks, ierr, it, i, root, failures, any_failure
  double precision :: x(n), y(n)
  integer :: k(4), m(4), sent(2), got(2), below, above
  character(len=16) :: mode
#if BINDING == 3
  type(MPI_Comm) :: ring
#else
  integer :: ring
#endif
#if PERSISTENT
  ! The buffers change behind the compiler's back (in MPI_Wait*, MPI_Test*): volatile.
  integer, volatile :: psent(2), pgot(2), token_in(1), token_out(1)
  integer(ck) :: pcounts(2)
  integer(ak) :: psend_at(2), precv_at(2)
  integer :: j, idx, done, indices(3), cases
  logical :: flag, flags(3)
#if BINDING == 3 && !STATUS_ARRAYS
  integer, parameter :: base = 0  ! (an MPI-4.0 mpi_f08: MPICH 4.0's 0-based indices accepted)
#else
  integer, parameter :: base = 1
#endif
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
  if (command_argument_count() > 0) then
    call get_command_argument(1, mode)
    call expect(mode == 'mismatch' .or. (SESSIONS == 1 .and. mode == 'session'), &
                'unknown mode '//trim(mode)//' (mismatch, session with an MPI-4 MPI, or none)')
    if (mode == 'mismatch') call mismatch_mode()
#if SESSIONS
    if (mode == 'session') call session_mode()
#endif
    call finish(trim(mode))
  end if
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
    call MPI_Allreduce(x, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect(all(y == [(dble(ranks * (it + i) + ranks * (ranks - 1) / 2), i = 1, n)]), 'allreduce sum')
    k = [(rank * 10 + i + it, i = 1, 4)]
    call MPI_Allreduce(MPI_IN_PLACE, k, 4_ck, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    call expect(all(k == [((ranks - 1) * 10 + i + it, i = 1, 4)]), 'allreduce in place max')
    y = -1
    if (rank == root) then
      y = x
      call MPI_Reduce(MPI_IN_PLACE, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    else
      call MPI_Reduce(x, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, root, MPI_COMM_WORLD, ierr)
    end if
    if (rank == root) &
      call expect(all(y == [(dble(ranks * (it + i) + ranks * (ranks - 1) / 2), i = 1, n)]), 'reduce sum at the root')
    m = 0
    if (rank == root) m = [(it * 100 + i, i = 1, 4)]
    call MPI_Bcast(m, 4_ck, MPI_INTEGER, root, MPI_COMM_WORLD, ierr)
    call expect(all(m == [(it * 100 + i, i = 1, 4)]), 'bcast')
    ! Block 1 goes to the rank below, block 2 above; got(1) comes from below, got(2) from above.
    sent = [rank * 1000 + it * 10 + 1, rank * 1000 + it * 10 + 2]
    got = -1
    call MPI_Neighbor_alltoall(sent, 1_ck, MPI_INTEGER, got, 1_ck, MPI_INTEGER, ring, ierr)
    call expect(all(got == [below * 1000 + it * 10 + 2, above * 1000 + it * 10 + 1]), 'neighbor_alltoall')
    got = -1
    call MPI_Neighbor_alltoallv(sent, [1_ck, 1_ck], [0_ak, 1_ak], MPI_INTEGER, got, [1_ck, 1_ck], [1_ak, 0_ak], &
                                MPI_INTEGER, ring, ierr)
    call expect(all(got == [above * 1000 + it * 10 + 1, below * 1000 + it * 10 + 2]), 'neighbor_alltoallv')
    call expect(ierr == MPI_SUCCESS, 'ierr')
#if PERSISTENT
    psent = [rank * 1000 + it * 10 + 1, rank * 1000 + it * 10 + 2]
    pgot = -1
    token_out = rank * 100 + it
    token_in = -1
    cases = 6
#if STATUS_ARRAYS
    cases = 9
#endif
    select case (mod(it, cases))
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
      do j = 1, 3
        call MPI_Waitany(3, requests, idx, MPI_STATUS_IGNORE, ierr)
        call expect(idx >= base .and. idx <= base + 2, 'waitany index')
      end do
    case (4)
      call MPI_Startall(3, requests, ierr)
      done = 0
      do while (done < 3)
        call MPI_Waitsome(3, requests, j, indices, MPI_STATUSES_IGNORE, ierr)
        call expect(j >= 1 .and. j <= 3, 'waitsome count')
        if (j >= 1 .and. j <= 3) call expect(all(indices(:j) >= base .and. indices(:j) <= base + 2), 'waitsome indices')
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
#if STATUS_ARRAYS
    case (6)  ! all done, as the status query says, before any completion call
      call MPI_Startall(3, requests, ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Request_get_status_all(3, requests, flag, MPI_STATUSES_IGNORE, ierr)
      end do
      call expect_received()
      call MPI_Waitall(3, requests, MPI_STATUSES_IGNORE, ierr)
    case (7)  ! the neighbourhood request alone, found done by _any
      call MPI_Startall(3, requests, ierr)
      flag = .false.
      do while (.not. flag)
        call MPI_Request_get_status_any(1, requests, idx, flag, MPI_STATUS_IGNORE, ierr)
      end do
      call expect(idx == base, 'request_get_status_any index')
      call expect(all(pgot == [above * 1000 + it * 10 + 1, below * 1000 + it * 10 + 2]), 'status query: neighbor data')
      call MPI_Waitall(3, requests, MPI_STATUSES_IGNORE, ierr)
    case (8)  ! each request as _some finds it done
      call MPI_Startall(3, requests, ierr)
      flags = .false.
      do while (.not. all(flags))
        call MPI_Request_get_status_some(3, requests, j, indices, MPI_STATUSES_IGNORE, ierr)
        call expect(j >= 0 .and. j <= 3, 'request_get_status_some count')
        if (j >= 1 .and. j <= 3) then
          call expect(all(indices(:j) >= base .and. indices(:j) <= base + 2), 'request_get_status_some indices')
          flags(min(max(indices(:j) - base + 1, 1), 3)) = .true.
        end if
      end do
      call expect_received()
      call MPI_Waitall(3, requests, MPI_STATUSES_IGNORE, ierr)
#endif
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
  call finish('check')

contains

  ! Every rank's verdict: all stop with 1 when any rank found a difference.
  subroutine finish(mode)
    character(*), intent(in) :: mode
    call MPI_Comm_free(ring, ierr)
    call MPI_Allreduce(failures, any_failure, 1, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD, ierr)
    if (rank == 0 .and. any_failure == 0) print '(a,i0,4a)', 'test_pmpi_fortran ', BINDING, form, ' ', mode, &
      ': all ranks passed'
    call MPI_Finalize(ierr)
    if (any_failure /= 0) stop 1
    stop
  end subroutine finish

#if SESSIONS
  ! After MPI_Init, a session at MPI_THREAD_MULTIPLE: from then on every call is MPI's (the
  ! report says why), the answers still right.
  subroutine session_mode()
#if BINDING == 3
    type(MPI_Info) :: info
    type(MPI_Session) :: session
#else
    integer :: info, session
#endif
    call MPI_Info_create(info, ierr)
    call MPI_Info_set(info, 'thread_level', 'MPI_THREAD_MULTIPLE', ierr)
    call MPI_Session_init(info, MPI_ERRORS_RETURN, session, ierr)
    call expect(ierr == MPI_SUCCESS, 'MPI_Session_init')
    call MPI_Info_free(info, ierr)
    do it = 1, 3
      x = [(dble(rank + it + i), i = 1, n)]
      call MPI_Allreduce(x, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, MPI_COMM_WORLD, ierr)
      call expect(all(y == [(dble(ranks * (it + i) + ranks * (ranks - 1) / 2), i = 1, n)]), 'allreduce after a session')
    end do
    call MPI_Session_finalize(session, ierr)
  end subroutine session_mode

#endif
#if PERSISTENT && STATUS_ARRAYS
  ! The data of both receiving requests, once a status query said they are done.
  subroutine expect_received()
    call expect(all(pgot == [above * 1000 + it * 10 + 1, below * 1000 + it * 10 + 2]), 'status query: neighbor data')
    call expect(token_in(1) == below * 100 + it, 'status query: received token')
  end subroutine expect_received

#endif
  ! A count that differs on rank 1 (see the header); then the communicator still works.
  subroutine mismatch_mode()
#if BINDING == 3
    type(MPI_Comm) :: comm
#else
    integer :: comm
#endif
    integer(ck) :: count, from_below
    integer :: code, length, wide(3)
    character(len=MPI_MAX_ERROR_STRING) :: text
    call expect(ranks >= 3, 'mismatch mode wants 3 ranks or more')
    call MPI_Comm_dup(MPI_COMM_WORLD, comm, ierr)
    call MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN, ierr)
    call MPI_Comm_set_errhandler(ring, MPI_ERRORS_RETURN, ierr)
    x = [(dble(i), i = 1, n)]
    sent = [1, 2]
    do it = 1, 4  ! past HYMPI_PMPI_AFTER on both communicators
      call MPI_Allreduce(x, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
      call MPI_Neighbor_alltoallv(sent, [1_ck, 1_ck], [0_ak, 1_ak], MPI_INTEGER, got, [1_ck, 1_ck], [1_ak, 0_ak], &
                                  MPI_INTEGER, ring, ierr)
    end do
    count = n
    if (rank == 1) count = n - 1
    call MPI_Allreduce(x, y, count, MPI_DOUBLE_PRECISION, MPI_SUM, comm, code)
    call expect(code /= MPI_SUCCESS, 'a count that differs on rank 1: MPI_Allreduce returned MPI_SUCCESS')
    if (code /= MPI_SUCCESS) then
      call MPI_Error_string(code, text, length, ierr)
      call expect(index(text(1:length), 'hympi') > 0, 'MPI_Allreduce''s error: '//text(1:length))
      if (rank == 0) print '(a,a)', 'test_pmpi_fortran: every rank got: ', text(1:length)
    end if
    ! Rank 1 expects two integers from the rank below, which sends it one.
    from_below = 1
    if (rank == 1) from_below = 2
    call MPI_Neighbor_alltoallv(sent, [1_ck, 1_ck], [0_ak, 1_ak], MPI_INTEGER, wide, [from_below, 1_ck], &
                                [1_ak, 0_ak], MPI_INTEGER, ring, code)
    if (rank == 1) then
      call expect(code /= MPI_SUCCESS, 'a count that differs on rank 1: MPI_Neighbor_alltoallv returned MPI_SUCCESS')
      if (code /= MPI_SUCCESS) then
        call MPI_Error_string(code, text, length, ierr)
        call expect(index(text(1:length), 'hympi') > 0, 'MPI_Neighbor_alltoallv''s error: '//text(1:length))
        print '(a,a)', 'test_pmpi_fortran: rank 1 got: ', text(1:length)
      end if
    else
      call expect(code == MPI_SUCCESS, 'MPI_Neighbor_alltoallv failed where the counts agree')
    end if
    call MPI_Allreduce(x, y, int(n, ck), MPI_DOUBLE_PRECISION, MPI_SUM, comm, code)
    call expect(code == MPI_SUCCESS .and. all(y == ranks * x), 'MPI_Allreduce after the error')
    call MPI_Comm_free(comm, ierr)
  end subroutine mismatch_mode

  subroutine expect(ok, what)
    logical, intent(in) :: ok
    character(*), intent(in) :: what
    if (.not. ok) then
      failures = failures + 1
      if (failures < 5) print '(a,i0,a,a,a,i0)', 'rank ', rank, ': ', what, ' wrong in call ', it
    end if
  end subroutine expect
end program test_pmpi_fortran
