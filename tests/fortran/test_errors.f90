! SPDX-License-Identifier: BSD-3-Clause
! Errors through ierr: each case checks the code and the message. Arguments only this rank
! sees (unknown names and values, a handle that does not exist, non-contiguous arrays,
! sizes and element types that do not fit the halo, malformed CSR offsets):
! HYMPI_ERR_ARGUMENT here, before any communication, but in a set-up (a name only the last
! rank got wrong) and in a collective (an array only the last rank got wrong): on every
! rank of it. Collective calls with arguments that
! differ between ranks: HYMPI_ERR_USAGE on every rank with the same message, and the
! objects still work afterwards. Also the names of the enums and codes.
program test_errors
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_funloc, c_null_funptr, c_null_ptr
  use mpi_f08
  use hympi
  use fortran_test
  use ring
  implicit none
  integer, parameter :: n = 5
  type(hympi_context) :: ctx, none
  type(hympi_pattern) :: pattern, unmade
  type(hympi_halo) :: halo
  type(hympi_grid) :: grid
  integer :: rank, ranks, local_points, ierr, s, back, count
  integer, allocatable :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:), owners(:)
  integer(int64), allocatable :: global_ids(:)
  real(real64), allocatable, target :: a(:), b(:)
  real(real64), allocatable :: w(:, :)
  integer, allocatable :: wrong_type(:)

  call MPI_Init()
  ! hympi's messages silenced, then back to stderr (the binding links and takes c_funloc)
  call hympi_set_message_handler(c_null_funptr, c_null_ptr)
  call hympi_set_message_handler(c_funloc(hympi_default_message_handler), c_null_ptr)
  rank = world_rank()
  ranks = world_size()
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call ring_lists(rank, ranks, n, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids)
  call ring_points(rank, ranks, n, global_ids, owners)
  call hympi_pattern_from_lists(ctx, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, pattern)

  ! --- names and codes
  do s = HYMPI_STRATEGY_SHM, HYMPI_STRATEGY_AUTOMATIC
    call hympi_strategy_from_name(hympi_strategy_name(s), back, ierr)
    call expect(ierr == HYMPI_SUCCESS .and. back == s, 'strategy names round trip')
  end do
  do s = HYMPI_STENCIL_STAR5, HYMPI_STENCIL_BOX27
    call hympi_stencil_from_name(hympi_stencil_name(s), back, ierr)
    call expect(ierr == HYMPI_SUCCESS .and. back == s, 'stencil names round trip')
  end do
  call expect(hympi_datatype_name(HYMPI_INT64) == 'int64' .and. hympi_op_name(HYMPI_MIN) == 'min', 'type, op names')
  call expect(hympi_strategy_name(42) == 'unknown', 'unknown strategy value named')
  call expect(index(hympi_error_string(HYMPI_ERR_USAGE), 'HYMPI_ERR_USAGE') == 1, 'error string')

  ! --- this rank's arguments
  call hympi_strategy_from_name('fast', s, ierr)
  call expect_local(ierr, 'fast', 'unknown strategy name')
  call hympi_halo_create(pattern, 'fast', halo, ierr=ierr)
  call expect_local(ierr, 'fast', 'halo from an unknown strategy name')
  call hympi_halo_create(pattern, 42, halo, ierr=ierr)
  call expect_local(ierr, 'strategy', 'halo from an unknown strategy value')
  call hympi_grid_create(ctx, [8, 8], 'star4', grid, ierr=ierr)
  call expect_local(ierr, 'star4', 'grid from an unknown stencil name')
  call hympi_barrier(none, ierr)
  call expect_local(ierr, 'context', 'a context never created')
  allocate (a(2 * local_points), b(2 * local_points))
  a = 1
  call hympi_allreduce(ctx, a(1:8:2), b(1:4), HYMPI_SUM, ierr)
  call expect_local(ierr, 'in is not contiguous', 'allreduce of a strided section')
  call hympi_allreduce(ctx, a(1:3), b(1:4), HYMPI_SUM, ierr)
  call expect_local(ierr, 'same size', 'allreduce of arrays of different sizes')
  call hympi_pattern_from_lists(ctx, local_points, nbr_ranks, send_ptr(1:size(send_ptr) - 1), send_ids, recv_ptr, &
                                recv_ids, unmade, ierr=ierr)
  call expect_local(ierr, 'send_ptr has', 'CSR offsets of the wrong length')

  call hympi_halo_create(pattern, 'shm', halo)
  allocate (wrong_type(local_points))
  call hympi_halo_update(halo, wrong_type, ierr)
  call expect_local(ierr, 'moves real(c_double) values', 'halo update of the wrong element type')
  call hympi_halo_update(halo, a(1:local_points - 1), ierr)
  call expect_local(ierr, 'the halo needs local_points * chunk = ', 'halo update of a too short array')
  call hympi_halo_update(halo, a(1:2 * local_points:2), ierr)
  call expect_local(ierr, 'not contiguous', 'halo update of a strided section')
  call hympi_halo_update(halo, [hympi_field_of(a), hympi_field_of(b)], ierr)
  call expect(ierr /= HYMPI_SUCCESS, 'halo update of more fields than the halo has')
  call hympi_halo_free(halo)
  call hympi_halo_create(pattern, 'shm', halo, fields=2)
  call hympi_halo_update(halo, a, ierr)
  call expect_local(ierr, 'along the last dimension', 'two-field halo update of a rank-1 array')
  allocate (w(local_points, 2))
  w = 0
  call hympi_halo_update(halo, w, ierr)  ! the update was refused: the halo refuses every call
  call expect(ierr == HYMPI_ERR_USAGE .and. index(hympi_last_error_message(), &
              'could not take part in a ghost update (hympi: hympi_halo_update: the halo moves 2 fields') > 0, &
              'a refused halo: "' // hympi_last_error_message() // '"')
  call hympi_halo_free(halo)
  call hympi_halo_create(pattern, 'shm', halo, fields=2)
  w = 0
  call hympi_halo_update(halo, w, ierr)
  call expect(ierr == HYMPI_SUCCESS, 'the halo works after the errors')
  call hympi_halo_free(halo)

  ! --- arguments that differ between ranks: the same error everywhere, then it works
  if (ranks > 1) then
    count = merge(3, 2, rank == 0)
    call hympi_allreduce(ctx, a(1:count), b(1:count), HYMPI_SUM, ierr)
    call expect_everywhere(ierr, 'allreduce of a different count on rank 0')
    call hympi_halo_create(pattern, merge('flat_mpi', 'shm     ', rank == ranks - 1), halo, ierr=ierr)
    call expect_everywhere(ierr, 'halo of a different strategy on the last rank')
    call hympi_halo_create(pattern, merge('fast', 'shm ', rank == ranks - 1), halo, ierr=ierr)
    call expect_everywhere(ierr, 'halo of a strategy name only the last rank got wrong', HYMPI_ERR_ARGUMENT)
    call hympi_grid_create(ctx, [8, 8], merge('star4', 'star5', rank == ranks - 1), grid, ierr=ierr)
    call expect_everywhere(ierr, 'grid of a stencil name only the last rank got wrong', HYMPI_ERR_ARGUMENT)
    ! A ghost update only the last rank got wrong: its own message there, HYMPI_ERR_USAGE
    ! naming it on the others, in that update or (waiting for nobody) a later one.
    call hympi_halo_create(pattern, 'shm', halo)
    if (rank == ranks - 1) then
      call hympi_halo_update(halo, wrong_type, ierr)
      call expect_local(ierr, 'moves real(c_double) values', 'halo update of the wrong type on the last rank only')
    else
      do count = 1, ranks - 1
        call hympi_halo_update(halo, a(1:local_points), ierr)
        if (ierr /= HYMPI_SUCCESS) exit
      end do
    end if
    call hympi_halo_update(halo, a(1:local_points), ierr)
    call expect(ierr == HYMPI_ERR_USAGE .and. index(hympi_last_error_message(), 'hympi: Halo: rank ' // &
                trim(str(ranks - 1)) // ' could not take part in a ghost update (hympi: hympi_halo_update: the halo moves') &
                == 1, 'a halo update refused by the last rank: "' // hympi_last_error_message() // '"')
    call hympi_halo_free(halo)
    if (rank == 0) then  ! rank 0 sends one point too few to its first neighbour
      send_ids = send_ids(2:)
      send_ptr(2:) = send_ptr(2:) - 1
    end if
    call hympi_pattern_from_lists(ctx, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, &
                                  unmade, ierr=ierr)
    call expect_everywhere(ierr, 'pattern whose counts disagree')
    ! An array only the last rank got wrong: its own message there, HYMPI_ERR_USAGE naming
    ! it on the others, in the same call (nobody is left waiting).
    if (rank == ranks - 1) then
      call hympi_allreduce(ctx, a(1:8:2), b(1:4), HYMPI_SUM, ierr)
      call expect_local(ierr, 'in is not contiguous', 'allreduce of a strided section on the last rank only')
      call hympi_reduce(ctx, a(1:4), b(1:3), HYMPI_SUM, ranks - 1, ierr)
      call expect_local(ierr, 'same size', 'reduce to the last rank into a too short out')
      call hympi_bcast(ctx, a(1:8:2), 0, ierr)
      call expect_local(ierr, 'x is not contiguous', 'bcast into a strided section on the last rank only')
    else
      call hympi_allreduce(ctx, a(1:4), b(1:4), HYMPI_SUM, ierr)
      call expect_named(ierr, 'called allreduce(count=1, double, sum) with a null input buffer')
      call hympi_reduce(ctx, a(1:4), b(1:4), HYMPI_SUM, ranks - 1, ierr)
      call expect_named(ierr, 'with a null output buffer')
      call hympi_bcast(ctx, a(1:4), 0, ierr)
      call expect_named(ierr, 'with a null buffer')
    end if
  end if
  call hympi_reduce(ctx, a(1:2), b(1:2), HYMPI_SUM, ranks, ierr)
  call expect_everywhere(ierr, 'reduce to a root that is no rank')
  a(1:2) = rank
  call hympi_allreduce(ctx, a(1:2), b(1:2), HYMPI_SUM, ierr)
  call expect(ierr == HYMPI_SUCCESS .and. all(b(1:2) == ranks * (ranks - 1) / 2), 'the context works after the errors')

  call hympi_pattern_free(pattern)
  call hympi_context_free(ctx)
  call test_done('errors')
  call MPI_Finalize()

contains

  function str(i) result(text)
    integer, intent(in) :: i
    character(16) :: text
    write (text, '(i0)') i
  end function str

  ! HYMPI_ERR_ARGUMENT with `text` in the message, which begins with "hympi".
  subroutine expect_local(code, text, what)
    integer, intent(in) :: code
    character(*), intent(in) :: text, what
    character(:), allocatable :: message
    message = hympi_last_error_message()
    call expect(code == HYMPI_ERR_ARGUMENT, what // ': HYMPI_ERR_ARGUMENT')
    call expect(index(message, text) > 0 .and. index(message, 'hympi') == 1, what // ': message "' // message // '"')
  end subroutine expect_local

  ! HYMPI_ERR_USAGE naming the last rank and `text`.
  subroutine expect_named(code, text)
    integer, intent(in) :: code
    character(*), intent(in) :: text
    character(:), allocatable :: message
    character(16) :: last
    message = hympi_last_error_message()
    write (last, '(i0)') ranks - 1
    call expect(code == HYMPI_ERR_USAGE, text // ': HYMPI_ERR_USAGE')
    call expect(index(message, 'hympi: rank ' // trim(last) // ' called ') == 1 .and. index(message, text) > 0, &
                text // ': message "' // message // '"')
  end subroutine expect_named

end program test_errors
