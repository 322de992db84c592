! SPDX-License-Identifier: BSD-3-Clause
! Node-shared arrays from Fortran (hympi_node_shared_*): for real64, real32, int32 and
! int64 tables, every rank reads what the leader and then each rank's slice wrote, with new
! values at each refresh, through a pointer indexed as the whole array; one copy per node
! (a value the leader stores is seen by the other ranks of its node at once, which private
! copies would not show); and the errors: a writer that fails on one rank and a count that
! differs between ranks on every rank, an element type that is not the table's here.
program test_node_shared
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi_f08
  use hympi
  use fortran_test
  implicit none
  integer, parameter :: n = 1017  ! not a multiple of any node size here
  type(hympi_context) :: ctx
  type(hympi_topology_info) :: topo
  integer :: generation, writers, ierr
  real(real64), pointer :: r8(:), p8(:)
  real(real32), pointer :: r4(:), p4(:)
  integer(int32), pointer :: i4(:), q4(:)
  integer(int64), pointer :: i8(:), q8(:)
  type(hympi_node_shared) :: t8, t4, ti4, ti8, other

  call MPI_Init()
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call hympi_context_topology(ctx, topo)
  call hympi_node_shared_create(ctx, n, t8)  ! real64 by default
  call hympi_node_shared_create(ctx, int(n, int64), t4, HYMPI_FLOAT32)
  call hympi_node_shared_create(ctx, n, ti4, HYMPI_INT32)
  call hympi_node_shared_create(ctx, n, ti8, HYMPI_INT64)
  call hympi_node_shared_data(t8, r8)
  call hympi_node_shared_data(t4, r4)
  call hympi_node_shared_data(ti4, i4)
  call hympi_node_shared_data(ti8, i8)
  call expect(size(r8) == n .and. size(r4) == n .and. size(i4) == n .and. size(i8) == n, 'sizes')
  call expect(all(r8 == 0) .and. all(r4 == 0) .and. all(i4 == 0) .and. all(i8 == 0), 'zero until written')

  do generation = 1, 6
    writers = HYMPI_WRITERS_LEADER
    if (mod(generation, 2) == 0) writers = HYMPI_WRITERS_SLICES
    call hympi_node_shared_begin_write(t8, writers, p8)
    call hympi_node_shared_begin_write(t4, writers, p4)
    call hympi_node_shared_begin_write(ti4, writers, q4)
    call hympi_node_shared_begin_write(ti8, writers, q8)
    call expect(lbound(p8, 1) >= 1 .and. ubound(p8, 1) <= n, 'the part lies in the array')
    if (writers == HYMPI_WRITERS_LEADER) call expect(size(p8) == merge(n, 0, topo%node_rank == 0), 'leader writes all')
    call fill(p8, p4, q4, q8, generation)
    call hympi_node_shared_end_write(t8)
    call hympi_node_shared_end_write(t4)
    call hympi_node_shared_end_write(ti4)
    call hympi_node_shared_end_write(ti8)
    call expect(all(r8 == expected(generation)), 'real64 values')
    call expect(all(r4 == real(expected(generation), real32)), 'real32 values')
    call expect(all(i4 == int(expected(generation), int32)), 'int32 values')
    call expect(all(i8 == int(expected(generation), int64)), 'int64 values')
  end do

  ! One copy per node: the leader stores into the array outside a refresh (a test's
  ! liberty: after every rank's last reads), and after a barrier every rank of its node
  ! reads it.
  call MPI_Barrier(MPI_COMM_WORLD)
  if (topo%node_rank == 0) i8(1) = -1000 * (topo%node_index + 1)
  call MPI_Barrier(MPI_COMM_WORLD)
  call expect(i8(1) == -1000 * (topo%node_index + 1), 'one copy per node: the leader''s store is seen')

  ! A writer that fails on the last rank: an error on every rank; then refreshes work.
  call hympi_node_shared_begin_write(ti4, HYMPI_WRITERS_SLICES, q4)
  if (world_rank() == world_size() - 1) then
    call hympi_node_shared_end_write(ti4, 'no data for the table', ierr)
  else
    call hympi_node_shared_end_write(ti4, ierr=ierr)
  end if
  call expect_everywhere(ierr, 'a writer that failed')
  call expect(index(hympi_last_error_message(), 'hympi: NodeShared: a writer failed: no data for the table') == 1, &
              'the writer''s message: ' // hympi_last_error_message())
  call hympi_node_shared_begin_write(ti4, HYMPI_WRITERS_LEADER, q4)
  call fill_int32(q4, 7)  ! all of it on the leader, nothing elsewhere
  call hympi_node_shared_end_write(ti4)
  call expect(all(i4 == int(expected(7), int32)), 'a refresh after the failed one')

  ! A count that differs between ranks: on every rank.
  if (world_size() > 1) then
    call hympi_node_shared_create(ctx, merge(11, 10, world_rank() == 0), other, ierr=ierr)
    call expect_everywhere(ierr, 'different counts')
    call expect(index(hympi_last_error_message(), 'ranks passed different count') > 0, 'count message')
  end if
  ! An element type that is not the table's: here, and begin_write fails the others' end.
  call hympi_node_shared_data(ti4, r8, ierr)
  call expect(ierr == HYMPI_ERR_ARGUMENT .and. index(hympi_last_error_message(), &
              'hympi: hympi_node_shared_data: the table holds integer(c_int32_t), the pointer is real(c_double)') == 1, &
              'type mismatch: ' // hympi_last_error_message())
  call hympi_node_shared_data(ti4, i4)
  if (world_rank() == world_size() - 1) then
    call hympi_node_shared_begin_write(ti4, HYMPI_WRITERS_LEADER, p8, ierr)
    call expect(ierr == HYMPI_ERR_ARGUMENT .and. index(hympi_last_error_message(), 'the pointer is real(c_double)') > 0, &
                'begin_write type mismatch: ' // hympi_last_error_message())
  else
    call hympi_node_shared_begin_write(ti4, HYMPI_WRITERS_LEADER, q4)
    call hympi_node_shared_end_write(ti4, ierr=ierr)
    call expect(ierr == HYMPI_ERR_USAGE .and. index(hympi_last_error_message(), "argument 'part' is NULL") > 0, &
                'the others'' end_write fails: ' // hympi_last_error_message())
  end if

  call hympi_node_shared_free(t8)
  call hympi_node_shared_free(t4)
  call hympi_node_shared_free(ti4)
  call hympi_node_shared_free(ti8, ierr)
  call expect(ierr == HYMPI_SUCCESS .and. .not. c_associated_handle(ti8), 'freed')
  call hympi_context_free(ctx)
  call test_done('node_shared')
  call MPI_Finalize()

contains

  ! Element i's value at `generation` on my node: exact in every type.
  function expected(generation) result(v)
    integer, intent(in) :: generation
    real(real64) :: v(n)
    integer :: i
    v = [(real(mod(i, 1000) * 16 + topo%node_index * 4 + generation, real64), i = 1, n)]
  end function expected

  subroutine fill_int32(q4, generation)
    integer(int32), pointer, intent(in) :: q4(:)
    integer, intent(in) :: generation
    real(real64) :: all(n)
    integer :: i
    all = expected(generation)
    do i = lbound(q4, 1), ubound(q4, 1)
      q4(i) = int(all(i), int32)
    end do
  end subroutine fill_int32

  ! The parts this rank writes, each element from its index in the whole array.
  subroutine fill(p8, p4, q4, q8, generation)
    real(real64), pointer, intent(in) :: p8(:)
    real(real32), pointer, intent(in) :: p4(:)
    integer(int32), pointer, intent(in) :: q4(:)
    integer(int64), pointer, intent(in) :: q8(:)
    integer, intent(in) :: generation
    real(real64) :: all(n)
    integer :: i
    all = expected(generation)
    do i = lbound(p8, 1), ubound(p8, 1)
      p8(i) = all(i)
    end do
    do i = lbound(p4, 1), ubound(p4, 1)
      p4(i) = real(all(i), real32)
    end do
    call fill_int32(q4, generation)
    do i = lbound(q8, 1), ubound(q8, 1)
      q8(i) = int(all(i), int64)
    end do
  end subroutine fill

  logical function c_associated_handle(table)
    use, intrinsic :: iso_c_binding, only: c_associated
    type(hympi_node_shared), intent(in) :: table
    c_associated_handle = c_associated(hympi_c_handle(table))
  end function c_associated_handle
end program test_node_shared
