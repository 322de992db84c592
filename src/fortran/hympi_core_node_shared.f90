! SPDX-License-Identifier: BSD-3-Clause
! The node-shared arrays of the hympi module: creation with a default or 8-byte count, the
! refresh's end (with this rank's error, if any) and free, and the kind-free parts of the
! typed procedures (hympi_typed.inc): the array's address and the part this rank writes.
!
! A rank whose own arguments to begin_write fail a check here (an element type that is not
! the table's) still joins the refresh, passing the C API a NULL part, so every other rank
! fails at its end_write instead of waiting; this rank returns its own message.
submodule (hympi_core) hympi_core_node_shared
  implicit none

contains

  module procedure node_shared_create_i4
    call node_shared_create_i8(context, int(count, c_int64_t), table, datatype, ierr)
  end procedure node_shared_create_i4

  module procedure node_shared_create_i8
    table%datatype = value_or(datatype, HYMPI_FLOAT64)
    ! A negative count becomes a huge size_t: the set-up then fails on every rank.
    call finish(c_code(c_hympi_node_shared_create(context%ptr, int(count, c_size_t), int(table%datatype, c_int), &
                                                  table%ptr)), ierr)
  end procedure node_shared_create_i8

  module procedure hympi_node_shared_free
    call finish(c_code(c_hympi_node_shared_free(table%ptr)), ierr)
    table%datatype = -1
  end procedure hympi_node_shared_free

  module procedure hympi_node_shared_end_write
    character(kind=c_char), allocatable, target :: text(:)
    type(c_ptr) :: at
    integer :: i
    at = c_null_ptr
    if (present(error)) then
      if (len_trim(error) > 0) then
        allocate (text(len_trim(error) + 1))
        do i = 1, len_trim(error)
          text(i) = error(i:i)
        end do
        text(len_trim(error) + 1) = c_null_char
        at = c_loc(text)
      end if
    end if
    call finish(c_code(c_hympi_node_shared_end_write(table%ptr, at)), ierr)
  end procedure hympi_node_shared_end_write

  ! The table's element type must be the pointer's: HYMPI_ERR_ARGUMENT naming both.
  integer function type_check(table, datatype, where) result(code)
    type(hympi_node_shared), intent(in) :: table
    integer, intent(in) :: datatype
    character(*), intent(in) :: where
    code = HYMPI_SUCCESS
    if (c_associated(table%ptr) .and. table%datatype /= datatype) &
      code = argument_error(where // ': the table holds ' // fortran_type_name(table%datatype) // &
                            ', the pointer is ' // fortran_type_name(datatype))
  end function type_check

  module procedure any_node_shared_data
    integer(c_int) :: type
    data = c_null_ptr
    elements = 0
    code = type_check(table, datatype, where)
    if (code == HYMPI_SUCCESS) code = c_code(c_hympi_node_shared_data(table%ptr, data, elements, type))
  end procedure any_node_shared_data

  module procedure any_node_shared_begin_write
    type(c_ptr), target :: at
    integer(c_size_t), target :: from, count
    part = c_null_ptr
    first = 0
    elements = 0
    code = type_check(table, datatype, where)
    if (code /= HYMPI_SUCCESS) then
      if (c_hympi_node_shared_begin_write(table%ptr, int(writers, c_int), c_null_ptr, c_loc(from), c_loc(count)) &
          == HYMPI_SUCCESS) error stop 'hympi: internal error: a refused begin_write succeeded'
      return
    end if
    code = c_code(c_hympi_node_shared_begin_write(table%ptr, int(writers, c_int), c_loc(at), c_loc(from), &
                                                  c_loc(count)))
    if (code /= HYMPI_SUCCESS) return
    part = at
    first = from
    elements = count
  end procedure any_node_shared_begin_write
end submodule hympi_core_node_shared
