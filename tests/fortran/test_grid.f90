! SPDX-License-Identifier: BSD-3-Clause
! Structured grids from Fortran: a 2D box9 grid of width 2 (stencil by value, real(real64)
! array with the ghost layers as its bounds), a 3D star7 grid (by name, 2 integer(int32)
! values per point, a rank-4 array) and a 3D star19 grid in shm_direct's shared field (a
! pointer remapped to 3D). Blocks tile the grid (1-based begin), the Cartesian
! communicator matches them, and after every update the ghosts the stencil reads hold
! the owners' values while all others stay untouched.
program test_grid
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi_f08
  use hympi
  use fortran_test
  implicit none
  integer :: updates  ! consecutive calls per case
  type(hympi_context) :: ctx

  call MPI_Init()
  updates = iterations(30)
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call box9_2d()
  call star7_3d()
  call star19_shared()
  call hympi_context_free(ctx)
  call test_done('grid')
  call MPI_Finalize()

contains

  ! Component c of global point (x, y, z) (1-based) at update t.
  integer(int64) function formula(x, y, z, c, t)
    integer, intent(in) :: x, y, z, c, t
    formula = ((int(z, int64) * 32 + y) * 32 + x) * 2 + c + 5 * modulo(t, 64)
  end function formula

  ! Every value of the block's padded box in memory order (chunk values per point, x
  ! fastest): owned points, and with `ghosts` the ghosts within `reach` dimensions outside
  ! the block (1: faces, 2: and edges, 3: all), hold the formula; the rest -1.
  function expected(b, chunk, reach, ghosts, t) result(v)
    type(hympi_block), intent(in) :: b
    integer, intent(in) :: chunk, reach, t
    logical, intent(in) :: ghosts
    integer(int64), allocatable :: v(:)
    integer :: i, j, k, c, x, y, z, out, at
    logical :: inside
    allocate (v(b%local_points * chunk))
    v = -1
    do k = 1 - b%halo(3), b%size(3) + b%halo(3)
      do j = 1 - b%halo(2), b%size(2) + b%halo(2)
        do i = 1 - b%halo(1), b%size(1) + b%halo(1)
          x = b%begin(1) + i - 1
          y = b%begin(2) + j - 1
          z = b%begin(3) + k - 1
          inside = x >= 1 .and. x <= b%global(1) .and. y >= 1 .and. y <= b%global(2) .and. z >= 1 .and. z <= b%global(3)
          out = count([i < 1 .or. i > b%size(1), j < 1 .or. j > b%size(2), k < 1 .or. k > b%size(3)])
          if (.not. inside .or. out > merge(reach, 0, ghosts)) cycle
          at = (hympi_block_index(b, i, j, k) - 1) * chunk
          do c = 1, chunk
            v(at + c) = formula(x, y, z, c, t)
          end do
        end do
      end do
    end do
  end function expected

  ! The block against the grid and the Cartesian communicator (both handle kinds).
  subroutine check_block(grid, b, ndims, global, width)
    type(hympi_grid), intent(in) :: grid
    type(hympi_block), intent(in) :: b
    integer, intent(in) :: ndims, global(:), width
    type(MPI_Comm) :: cart
    integer :: cart_handle, cart_rank, coords(ndims), owned, total
    call expect(all(b%global(1:ndims) == global) .and. all(b%halo(1:ndims) == width), 'block global and halo')
    call expect(all(b%begin >= 1 .and. b%begin + b%size - 1 <= b%global), 'block begin 1-based, inside')
    call expect(product(b%dims) == world_size() .and. b%owned_points == product(b%size), 'block dims and owned')
    call expect(b%local_points == product(b%size + 2 * b%halo), 'block local points')
    call expect(hympi_block_index(b, 1 - b%halo(1), 1 - b%halo(2), 1 - b%halo(3)) == 1 .and. &
                hympi_block_index(b, b%size(1) + b%halo(1), b%size(2) + b%halo(2), b%size(3) + b%halo(3)) == &
                b%local_points, 'block index 1 .. local_points')
    owned = b%owned_points
    call MPI_Allreduce(owned, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call expect(total == product(global), 'blocks tile the grid')
    call hympi_grid_cart(grid, cart)
    call hympi_grid_cart(grid, cart_handle)
    call expect(cart_handle == cart%MPI_VAL, 'cart as integer handle')
    call MPI_Comm_rank(cart, cart_rank)
    call MPI_Cart_coords(cart, cart_rank, ndims, coords)
    call expect(all(coords == b%coords(1:ndims)), 'block coords are MPI_Cart_coords')
  end subroutine check_block

  subroutine box9_2d()
    type(hympi_grid) :: grid
    type(hympi_block) :: b
    type(hympi_pattern) :: pattern
    type(hympi_halo) :: halo
    real(real64), allocatable :: u(:, :)
    integer :: t
    call hympi_grid_create(ctx, [10, 9], HYMPI_STENCIL_BOX9, grid, width=2)
    call hympi_grid_block(grid, b)
    call check_block(grid, b, 2, [10, 9], 2)
    call hympi_grid_pattern(grid, pattern)
    call hympi_halo_create(pattern, 'shm', halo)
    allocate (u(1 - b%halo(1):b%size(1) + b%halo(1), 1 - b%halo(2):b%size(2) + b%halo(2)))
    do t = 1, updates
      u = reshape(real(expected(b, 1, 3, .false., t), real64), shape(u))
      call hympi_halo_update(halo, u)
      call expect(all(reshape(int(u, int64), [size(u)]) == expected(b, 1, 3, .true., t)), '2D box9 width 2')
    end do
    call hympi_halo_free(halo)
    call hympi_pattern_free(pattern)
    call hympi_grid_free(grid)
  end subroutine box9_2d

  subroutine star7_3d()
    type(hympi_grid) :: grid
    type(hympi_block) :: b
    type(hympi_pattern) :: pattern
    type(hympi_halo) :: halo
    integer(int32), allocatable :: v(:, :, :, :)
    integer :: t
    call hympi_grid_create(ctx, [7, 6, 5], 'star7', grid, chunk=2, datatype=HYMPI_INT32)
    call hympi_grid_block(grid, b)
    call check_block(grid, b, 3, [7, 6, 5], 1)
    call hympi_grid_pattern(grid, pattern)
    call hympi_halo_create(pattern, 'flat_mpi', halo)
    allocate (v(2, 1 - b%halo(1):b%size(1) + b%halo(1), 1 - b%halo(2):b%size(2) + b%halo(2), &
                1 - b%halo(3):b%size(3) + b%halo(3)))
    do t = 1, updates
      v = reshape(int(expected(b, 2, 1, .false., t), int32), shape(v))
      call hympi_halo_begin(halo, v)
      call hympi_halo_end(halo, v)
      call expect(all(reshape(int(v, int64), [size(v)]) == expected(b, 2, 1, .true., t)), '3D star7, chunk 2')
    end do
    call hympi_halo_free(halo)
    call hympi_pattern_free(pattern)
    call hympi_grid_free(grid)
  end subroutine star7_3d

  subroutine star19_shared()
    type(hympi_grid) :: grid
    type(hympi_block) :: b
    type(hympi_pattern) :: pattern
    type(hympi_halo) :: halo
    real(real32), pointer :: flat(:), u(:, :, :)
    integer :: t
    call hympi_grid_create(ctx, [6, 7, 5], HYMPI_STENCIL_STAR19, grid, datatype=HYMPI_FLOAT32, reorder=.true.)
    call hympi_grid_block(grid, b)
    call check_block(grid, b, 3, [6, 7, 5], 1)
    call hympi_grid_pattern(grid, pattern)
    call hympi_halo_create(pattern, HYMPI_STRATEGY_SHM_DIRECT, halo)
    call hympi_halo_shared_field(halo, 1, flat)
    u(1 - b%halo(1):b%size(1) + b%halo(1), 1 - b%halo(2):b%size(2) + b%halo(2), 1 - b%halo(3):b%size(3) + b%halo(3)) &
      => flat
    do t = 1, updates
      u = reshape(real(expected(b, 1, 2, .false., t), real32), shape(u))
      call hympi_halo_update(halo, u)
      call expect(all(reshape(int(u, int64), [size(u)]) == expected(b, 1, 2, .true., t)), '3D star19, shared field')
    end do
    call hympi_halo_free(halo)
    call hympi_pattern_free(pattern)
    call hympi_grid_free(grid)
  end subroutine star19_shared
end program test_grid
