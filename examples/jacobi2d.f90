! SPDX-License-Identifier: BSD-3-Clause
! Jacobi 2D through hympi's Fortran module: the heat relaxation of the C++ jacobi2d
! (apps/stencil.cpp), u <- u + (f - A u) / 4 with A the 5-point Laplacian, u = 1 on the
! face before x = 1; same result, bit for bit.
!   mpiexec -n 4 ./jacobi2d_f [nx ny iterations strategy]      (1024 1024 200 shm)
program jacobi2d
  use mpi_f08
  use hympi
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  type(hympi_context) :: ctx
  type(hympi_grid) :: grid
  type(hympi_block) :: b
  type(hympi_pattern) :: pattern
  type(hympi_halo) :: halo
  real(8), pointer, contiguous :: u(:, :), next(:, :), swap(:, :)
  real(8) :: au, r, squares, sum, residual, checksum
  integer :: global(2) = [1024, 1024], iterations = 200, it, i, j, nx, ny, rank
  character(32) :: arg, strategy = 'shm'

  call MPI_Init()
  if (command_argument_count() > 1) then
    call get_command_argument(1, arg); read (arg, *) global(1)
    call get_command_argument(2, arg); read (arg, *) global(2)
  end if
  if (command_argument_count() > 2) then
    call get_command_argument(3, arg); read (arg, *) iterations
  end if
  if (command_argument_count() > 3) call get_command_argument(4, strategy)

  call hympi_context_create(MPI_COMM_WORLD, ctx)      ! no ierr: an error stops with its message
  call hympi_grid_create(ctx, global, 'star5', grid)
  call hympi_grid_block(grid, b)
  call hympi_grid_pattern(grid, pattern)
  call hympi_halo_create(pattern, trim(strategy), halo)
  nx = b%size(1); ny = b%size(2)                      ! one ghost layer each side
  allocate (u(0:nx + 1, 0:ny + 1), next(0:nx + 1, 0:ny + 1))
  u = 0; next = 0
  if (b%begin(1) == 1) then                           ! the boundary value, never overwritten
    u(0, :) = 1; next(0, :) = 1
  end if

  do it = 1, iterations
    call hympi_halo_update(halo, u)
    squares = 0
    do j = 1, ny
      do i = 1, nx
        au = 4d0 * u(i, j)
        au = au + (-1d0) * u(i, j - 1)
        au = au + (-1d0) * u(i - 1, j)
        au = au + (-1d0) * u(i + 1, j)
        au = au + (-1d0) * u(i, j + 1)
        r = 0d0 - au
        squares = squares + r * r
        next(i, j) = u(i, j) + (1d0 / 4d0) * r
      end do
    end do
    swap => u; u => next; next => swap
  end do
  sum = 0
  do j = 1, ny
    do i = 1, nx
      sum = sum + u(i, j)
    end do
  end do
  call hympi_allreduce(ctx, squares, residual, HYMPI_SUM)
  call hympi_allreduce(ctx, sum, checksum, HYMPI_SUM)
  residual = sqrt(residual)

  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  if (rank == 0) then
    print '(a, i0, a, i0, a, i0, 2a)', 'jacobi2d (Fortran): ', global(1), ' x ', global(2), ', ', &
      iterations, ' iterations, ', trim(strategy)
    print '(a, es19.12, /, a, es22.15)', 'residual ', residual, 'checksum ', checksum
    print '(a, z16.16, a, z16.16)', 'bits residual ', transfer(residual, 0_int64), &
      ' checksum ', transfer(checksum, 0_int64)
  end if
  deallocate (u, next)
  call hympi_halo_free(halo); call hympi_pattern_free(pattern)
  call hympi_grid_free(grid); call hympi_context_free(ctx)
  call MPI_Finalize()
end program jacobi2d
