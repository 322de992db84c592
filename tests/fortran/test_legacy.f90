! SPDX-License-Identifier: BSD-3-Clause
! The Fortran binding from a code on `use mpi` (integer handles): a context from
! MPI_COMM_WORLD, its communicators and a grid's Cartesian communicator as integers,
! collectives against MPI's on changing data.
program test_legacy
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use mpi
  use hympi
  use fortran_test
  implicit none
  integer :: updates  ! consecutive calls per case
  type(hympi_context) :: ctx
  type(hympi_grid) :: grid
  type(hympi_block) :: b
  integer :: ierr, t, world, node, compared, node_size, cart, cart_rank, coords(2)
  type(hympi_topology_info) :: info
  integer(int64) :: counts(3), total(3), reference(3)
  real(real64) :: x, largest

  call MPI_Init(ierr)
  updates = iterations(20)
  call hympi_context_create(MPI_COMM_WORLD, ctx, ierr=ierr)
  call expect(ierr == HYMPI_SUCCESS, 'context from an integer communicator')
  call hympi_context_comm(ctx, HYMPI_COMM_WORLD, world)
  call MPI_Comm_compare(world, MPI_COMM_WORLD, compared, ierr)
  call expect(compared == MPI_IDENT .or. compared == MPI_CONGRUENT, 'world communicator as an integer')
  call hympi_context_comm(ctx, HYMPI_COMM_NODE, node)
  call MPI_Comm_size(node, node_size, ierr)
  call hympi_context_topology(ctx, info)
  call expect(node_size == info%node_size, 'node communicator as an integer')
  do t = 1, updates
    counts = [int(world_rank(), int64) * t, int(t, int64), -int(world_rank(), int64)]
    call hympi_allreduce(ctx, counts, total, HYMPI_SUM)
    call MPI_Allreduce(counts, reference, 3, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD, ierr)
    call expect(all(total == reference), 'allreduce of integer(int64) under use mpi')
    x = world_rank() + 0.5_real64 * t
    call hympi_allreduce(ctx, x, largest, HYMPI_MAX)
    call expect(largest == world_size() - 1 + 0.5_real64 * t, 'allreduce of a real(real64) scalar under use mpi')
  end do
  call hympi_grid_create(ctx, [8, 6], 'star5', grid)
  call hympi_grid_block(grid, b)
  call hympi_grid_cart(grid, cart)
  call MPI_Comm_rank(cart, cart_rank, ierr)
  call MPI_Cart_coords(cart, cart_rank, 2, coords, ierr)
  call expect(all(coords == b%coords(1:2)), 'Cartesian communicator as an integer')
  call hympi_grid_free(grid)
  call hympi_context_free(ctx)
  call test_done('legacy')
  call MPI_Finalize(ierr)
end program test_legacy
