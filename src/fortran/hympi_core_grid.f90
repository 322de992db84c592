! SPDX-License-Identifier: BSD-3-Clause
! The structured grids of the hympi module: creation by stencil value or name, the block
! (begin converted to a 1-based global index), the pattern and the Cartesian communicator.
submodule (hympi_core) hympi_core_grid
  implicit none

contains

  module procedure grid_create_enum
    call finish(c_code(c_hympi_grid_create(context%ptr, int(size(global), c_int), int(global, c_int), &
                                           int(stencil, c_int), value_or(width, 1), reorder_flag(reorder), &
                                           value_or(chunk, 1), value_or(datatype, HYMPI_FLOAT64), grid%ptr)), ierr)
  end procedure grid_create_enum

  ! By name: an unknown name on some ranks is an error on every rank of the context
  ! (hympi_grid_create_named), as a stencil that differs between ranks is.
  module procedure grid_create_name
    call finish(c_code(c_hympi_grid_create_named(context%ptr, int(size(global), c_int), int(global, c_int), &
                                                 trim(stencil) // c_null_char, value_or(width, 1), &
                                                 reorder_flag(reorder), value_or(chunk, 1), &
                                                 value_or(datatype, HYMPI_FLOAT64), grid%ptr)), ierr)
  end procedure grid_create_name

  integer(c_int) function reorder_flag(reorder)
    logical, intent(in), optional :: reorder
    reorder_flag = 0
    if (present(reorder)) then
      if (reorder) reorder_flag = 1
    end if
  end function reorder_flag

  module procedure hympi_grid_free
    call finish(c_code(c_hympi_grid_free(grid%ptr)), ierr)
  end procedure hympi_grid_free

  module procedure hympi_grid_block
    type(c_hympi_block) :: c_block
    integer :: code
    code = c_code(c_hympi_grid_block(grid%ptr, c_block))
    if (code == HYMPI_SUCCESS) then
      block%global = c_block%global
      block%dims = c_block%dims
      block%coords = c_block%coords
      block%begin = c_block%begin + 1
      block%size = c_block%size
      block%halo = c_block%halo
      block%local_points = c_block%local_points
      block%owned_points = c_block%owned_points
    end if
    call finish(code, ierr)
  end procedure hympi_grid_block

  module procedure hympi_grid_pattern
    call finish(c_code(c_hympi_grid_pattern(grid%ptr, pattern%ptr)), ierr)
  end procedure hympi_grid_pattern

  module procedure grid_cart_f08
    call grid_cart_integer(grid, cart%MPI_VAL, ierr)
  end procedure grid_cart_f08

  module procedure grid_cart_integer
    integer(c_int) :: handle
    handle = 0
    call finish(c_code(c_hympi_grid_cart_f(grid%ptr, handle)), ierr)
    cart = handle
  end procedure grid_cart_integer

  module procedure hympi_block_index
    integer :: kk
    kk = 1
    if (present(k)) kk = k
    associate (h => block%halo, s => block%size)
      id = 1 + (i - 1 + h(1)) + (s(1) + 2 * h(1)) * ((j - 1 + h(2)) + (s(2) + 2 * h(2)) * (kk - 1 + h(3)))
    end associate
  end procedure hympi_block_index
end submodule hympi_core_grid
