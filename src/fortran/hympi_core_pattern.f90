! SPDX-License-Identifier: BSD-3-Clause
! The patterns of the hympi module: from CSR neighbour lists (one array or separate send
! and receive arrays) or from owners, their neighbour lists read back, and the local
! numbering. Local point ids are 1-based here and 0-based in the C API: converted on the
! way in and out (copies made at set-up only).
submodule (hympi_core) hympi_core_pattern
  implicit none

contains

  ! HYMPI_SUCCESS when offsets(1 .. neighbors + 1) are CSR offsets into `ids` entries
  ! (1-based, nondecreasing, the last one past the end).
  integer function check_offsets(where, name, offsets, ids, neighbors) result(code)
    character(*), intent(in) :: where, name
    integer, intent(in) :: offsets(:), ids, neighbors
    integer :: n
    code = HYMPI_SUCCESS
    if (size(offsets) /= neighbors + 1) then
      code = argument_error(where // name // '_ptr has ' // str(int(size(offsets), c_int64_t)) // &
                            ' entries; it needs size(nbr_ranks) + 1 = ' // str(int(neighbors + 1, c_int64_t)))
    else if (offsets(1) /= 1) then
      code = argument_error(where // name // '_ptr(1) is ' // str(int(offsets(1), c_int64_t)) // &
                            '; CSR offsets start at 1')
    else if (offsets(neighbors + 1) /= ids + 1) then
      code = argument_error(where // name // '_ptr(size(nbr_ranks) + 1) is ' // &
                            str(int(offsets(neighbors + 1), c_int64_t)) // '; it must be size(' // name // &
                            '_ids) + 1 = ' // str(int(ids + 1, c_int64_t)))
    else
      do n = 1, neighbors
        if (offsets(n + 1) < offsets(n)) then
          code = argument_error(where // name // '_ptr decreases at neighbour ' // str(int(n, c_int64_t)) // &
                                '; CSR offsets are nondecreasing')
          return
        end if
      end do
    end if
  end function check_offsets

  ! from_lists (apart: from_lists_apart, recv_points used) from CSR lists with 1-based ids.
  integer function from_csr(context, points, recv_points, apart, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, &
                            pattern, chunk, datatype) result(code)
    type(hympi_context), intent(in) :: context
    integer, intent(in) :: points, recv_points
    logical, intent(in) :: apart
    integer, intent(in) :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
    type(hympi_pattern), intent(out) :: pattern
    integer, intent(in), optional :: chunk, datatype
    type(c_hympi_neighbor_lists), allocatable :: lists(:)
    integer(c_int), allocatable, target :: send0(:), recv0(:)
    integer :: n, neighbors
    character(:), allocatable :: where
    neighbors = size(nbr_ranks)
    where = 'hympi_pattern_from_lists: '
    if (apart) where = 'hympi_pattern_from_lists_apart: '
    code = check_offsets(where, 'send', send_ptr, size(send_ids), neighbors)
    if (code == HYMPI_SUCCESS) code = check_offsets(where, 'recv', recv_ptr, size(recv_ids), neighbors)
    if (code /= HYMPI_SUCCESS) return
    send0 = send_ids - 1
    recv0 = recv_ids - 1
    allocate (lists(neighbors))
    do n = 1, neighbors
      lists(n)%rank = nbr_ranks(n)
      lists(n)%send_count = send_ptr(n + 1) - send_ptr(n)
      lists(n)%send = c_null_ptr
      if (lists(n)%send_count > 0) lists(n)%send = c_loc(send0(send_ptr(n)))
      lists(n)%recv_count = recv_ptr(n + 1) - recv_ptr(n)
      lists(n)%recv = c_null_ptr
      if (lists(n)%recv_count > 0) lists(n)%recv = c_loc(recv0(recv_ptr(n)))
    end do
    if (apart) then
      code = c_code(c_hympi_pattern_from_lists_apart(context%ptr, int(points, c_int), int(recv_points, c_int), &
                                                     int(neighbors, c_int), lists, value_or(chunk, 1), &
                                                     value_or(datatype, HYMPI_FLOAT64), pattern%ptr))
    else
      code = c_code(c_hympi_pattern_from_lists(context%ptr, int(points, c_int), int(neighbors, c_int), lists, &
                                               value_or(chunk, 1), value_or(datatype, HYMPI_FLOAT64), pattern%ptr))
    end if
  end function from_csr

  module procedure hympi_pattern_from_lists
    call finish(from_csr(context, local_points, local_points, .false., nbr_ranks, send_ptr, send_ids, recv_ptr, &
                         recv_ids, pattern, chunk, datatype), ierr)
  end procedure hympi_pattern_from_lists

  module procedure hympi_pattern_from_lists_apart
    call finish(from_csr(context, send_points, recv_points, .true., nbr_ranks, send_ptr, send_ids, recv_ptr, &
                         recv_ids, pattern, chunk, datatype), ierr)
  end procedure hympi_pattern_from_lists_apart

  module procedure pattern_from_owners_i8
    integer :: code
    if (size(owners) /= size(global_ids)) then
      code = argument_error('hympi_pattern_from_owners: owners has ' // str(int(size(owners), c_int64_t)) // &
                            ' entries, global_ids ' // str(int(size(global_ids), c_int64_t)) // &
                            '; pass one owner per local point')
    else
      code = c_code(c_hympi_pattern_from_owners(context%ptr, int(size(global_ids), c_int), global_ids, &
                                                int(owners, c_int), value_or(chunk, 1), &
                                                value_or(datatype, HYMPI_FLOAT64), pattern%ptr))
    end if
    call finish(code, ierr)
  end procedure pattern_from_owners_i8

  module procedure pattern_from_owners_i4
    call pattern_from_owners_i8(context, int(global_ids, c_int64_t), owners, pattern, chunk, datatype, ierr)
  end procedure pattern_from_owners_i4

  module procedure hympi_pattern_free
    call finish(c_code(c_hympi_pattern_free(pattern%ptr)), ierr)
  end procedure hympi_pattern_free

  module procedure hympi_pattern_info
    integer(c_int) :: c_local_points, c_chunk, c_datatype, c_neighbor_count
    integer :: code
    code = c_code(c_hympi_pattern_info(pattern%ptr, c_local_points, c_chunk, c_datatype, c_neighbor_count))
    if (code == HYMPI_SUCCESS) then
      if (present(local_points)) local_points = c_local_points
      if (present(chunk)) chunk = c_chunk
      if (present(datatype)) datatype = c_datatype
      if (present(neighbor_count)) neighbor_count = c_neighbor_count
    end if
    call finish(code, ierr)
  end procedure hympi_pattern_info

  module procedure hympi_pattern_points
    integer(c_int) :: c_send_points, c_recv_points, c_apart
    integer :: code
    code = c_code(c_hympi_pattern_points(pattern%ptr, c_send_points, c_recv_points, c_apart))
    if (code == HYMPI_SUCCESS) then
      if (present(send_points)) send_points = c_send_points
      if (present(recv_points)) recv_points = c_recv_points
      if (present(apart)) apart = c_apart /= 0
    end if
    call finish(code, ierr)
  end procedure hympi_pattern_points

  ! The 1-based copy of `count` 0-based ids at `at` (NULL when count is 0).
  function one_based(at, count) result(ids)
    type(c_ptr), intent(in) :: at
    integer(c_int), intent(in) :: count
    integer, allocatable :: ids(:)
    integer(c_int), pointer :: zero_based(:)
    allocate (ids(count))
    if (count == 0) return
    call c_f_pointer(at, zero_based, [count])
    ids = zero_based + 1
  end function one_based

  module procedure hympi_pattern_neighbor
    type(c_hympi_neighbor_lists) :: lists
    integer :: code
    rank = -1
    code = c_code(c_hympi_pattern_neighbor(pattern%ptr, int(n - 1, c_int), lists))
    if (code == HYMPI_SUCCESS) then
      rank = lists%rank
      send = one_based(lists%send, lists%send_count)
      recv = one_based(lists%recv, lists%recv_count)
    end if
    call finish(code, ierr)
  end procedure hympi_pattern_neighbor

  module procedure hympi_order_local_ids
    integer(c_int) :: local_points, chunk, datatype, neighbor_count, c_inner, c_boundary, c_ghosts
    integer(c_int), allocatable :: zero_based(:)
    integer :: code
    inner = 0
    boundary = 0
    ghosts = 0
    code = c_code(c_hympi_pattern_info(pattern%ptr, local_points, chunk, datatype, neighbor_count))
    if (code == HYMPI_SUCCESS) then
      allocate (zero_based(local_points))
      code = c_code(c_hympi_order_local_ids(pattern%ptr, zero_based, c_inner, c_boundary, c_ghosts, ordered%ptr))
    end if
    if (code == HYMPI_SUCCESS) then
      new_id = zero_based + 1
      inner = c_inner
      boundary = c_boundary
      ghosts = c_ghosts
    end if
    call finish(code, ierr)
  end procedure hympi_order_local_ids
end submodule hympi_core_pattern
