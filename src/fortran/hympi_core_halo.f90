! SPDX-License-Identifier: BSD-3-Clause
! The halos of the hympi module: creation by strategy value or name, the ghost update of
! one array holding the halo's fields or of a list of fields (hympi_field_of), of separate
! send and receive arrays (hympi_halo_*_apart), buffers
! mode, shared fields, stats and trials. Before any call the binding checks what only it
! can see: the element type and size of the arrays against the halo's pattern; when these
! checks fail in an update, this rank refuses it (hympi_halo_refuse), so the ranks that
! wait for it get the error too, as for the library's own checks. Neighbour
! indices and field numbers are 1-based here and 0-based in the C API.
submodule (hympi_core) hympi_core_halo
  implicit none

contains

  module procedure halo_create_enum
    call created(pattern, halo, fields, c_code(c_hympi_halo_create(pattern%ptr, int(strategy, c_int), &
                 value_or(fields, 1), value_or(mode, HYMPI_MODE_VECTORS), halo%ptr)), ierr)
  end procedure halo_create_enum

  ! By name: an unknown name on some ranks is an error on every rank of the pattern's
  ! context (hympi_halo_create_named), as a strategy that differs between ranks is.
  module procedure halo_create_name
    call created(pattern, halo, fields, c_code(c_hympi_halo_create_named(pattern%ptr, trim(strategy) // c_null_char, &
                 value_or(fields, 1), value_or(mode, HYMPI_MODE_VECTORS), halo%ptr)), ierr)
  end procedure halo_create_name

  ! After a create that returned `code`: the halo's element counts, type and fields, from
  ! its pattern.
  subroutine created(pattern, halo, fields, code, ierr)
    type(hympi_pattern), intent(in) :: pattern
    type(hympi_halo), intent(inout) :: halo
    integer, intent(in), optional :: fields
    integer, intent(in) :: code
    integer, intent(out), optional :: ierr
    integer(c_int) :: local_points, chunk, datatype, neighbor_count, send_points, recv_points, apart
    integer :: status
    status = code
    if (status == HYMPI_SUCCESS) &
      status = c_code(c_hympi_pattern_info(pattern%ptr, local_points, chunk, datatype, neighbor_count))
    if (status == HYMPI_SUCCESS) status = c_code(c_hympi_pattern_points(pattern%ptr, send_points, recv_points, apart))
    if (status == HYMPI_SUCCESS) then
      halo%elements = int(send_points, c_size_t) * int(chunk, c_size_t)
      halo%recv_elements = int(recv_points, c_size_t) * int(chunk, c_size_t)
      halo%datatype = datatype
      halo%fields = value_or(fields, 1)
    end if
    call finish(status, ierr)
  end subroutine created

  module procedure hympi_halo_free
    call finish(c_code(c_hympi_halo_free(halo%ptr)), ierr)
    halo%elements = 0
    halo%recv_elements = 0
    halo%datatype = -1
    halo%fields = 0
  end procedure hympi_halo_free

  module procedure hympi_halo_strategy
    integer(c_int) :: c_running, c_requested
    integer :: code
    code = c_code(c_hympi_halo_strategy(halo%ptr, c_running, c_requested))
    if (code == HYMPI_SUCCESS) then
      if (present(running)) running = c_running
      if (present(requested)) requested = c_requested
    end if
    call finish(code, ierr)
  end procedure hympi_halo_strategy

  module procedure hympi_halo_fields
    integer(c_int) :: value
    value = 0
    call finish(c_code(c_hympi_halo_fields(halo%ptr, value)), ierr)
    fields = value
  end procedure hympi_halo_fields

  module procedure hympi_halo_stats_get
    call finish(c_code(c_hympi_halo_stats_get(halo%ptr, stats)), ierr)
  end procedure hympi_halo_stats_get

  module procedure hympi_halo_trials
    integer(c_int), allocatable, target :: tried(:)
    real(c_double), allocatable, target :: times(:)
    integer(c_int) :: count, written
    integer :: code
    ! The count first, then the trials.
    code = c_code(c_hympi_halo_trials(halo%ptr, 0_c_int, c_null_ptr, c_null_ptr, count))
    if (code == HYMPI_SUCCESS) then
      allocate (tried(count), times(count))
      if (count > 0) code = c_code(c_hympi_halo_trials(halo%ptr, count, c_loc(tried), c_loc(times), written))
      strategies = tried
      seconds = times
    end if
    call finish(code, ierr)
  end procedure hympi_halo_trials

  module procedure hympi_halo_acquire
    call finish(c_code(c_hympi_halo_acquire(halo%ptr)), ierr)
  end procedure hympi_halo_acquire

  module procedure hympi_halo_begin_buffers
    call finish(c_code(c_hympi_halo_begin_buffers(halo%ptr)), ierr)
  end procedure hympi_halo_begin_buffers

  module procedure hympi_halo_end_buffers
    call finish(c_code(c_hympi_halo_end_buffers(halo%ptr)), ierr)
  end procedure hympi_halo_end_buffers

  ! HYMPI_SUCCESS when the halo exists and moves values of `datatype`.
  integer function check_halo(halo, datatype, where) result(code)
    type(hympi_halo), intent(in) :: halo
    integer, intent(in) :: datatype
    character(*), intent(in) :: where
    code = HYMPI_SUCCESS
    if (.not. c_associated(halo%ptr)) then
      code = argument_error(where // ': the halo does not exist (not made by hympi_halo_create, or freed)')
    else if (datatype /= halo%datatype) then
      code = argument_error(where // ': the halo moves ' // fortran_type_name(halo%datatype) // &
                            ' values (its pattern''s datatype); the array is ' // fortran_type_name(datatype))
    end if
  end function check_halo

  ! HYMPI_SUCCESS when `elements` hold one field of `needed` elements (`what` of the halo).
  integer function check_length(elements, needed, what, need, where) result(code)
    integer(c_size_t), intent(in) :: elements, needed
    character(*), intent(in) :: what, need, where
    code = HYMPI_SUCCESS
    if (elements < needed) &
      code = argument_error(where // ': ' // what // ' has ' // str(int(elements, c_int64_t)) // &
                            ' elements; the halo needs ' // need // ' = ' // str(int(needed, c_int64_t)) // ' per field')
  end function check_length

  ! After this binding's checks of an update's arrays returned `code`: a failure refuses the
  ! update on this rank (the message stays this binding's own).
  subroutine refuse_if_failed(halo, code)
    type(hympi_halo), intent(in) :: halo
    integer, intent(in) :: code
    integer(c_int) :: ignored
    if (code == HYMPI_SUCCESS .or. .not. c_associated(halo%ptr)) return
    ignored = c_hympi_halo_refuse(halo%ptr, hympi_last_error_message() // c_null_char)
  end subroutine refuse_if_failed

  ! One vectors-mode call of the C API: `vectors` alone, or sent from `vectors` into `recv`.
  integer function run_phase(halo, phase, vectors, recv) result(code)
    type(hympi_halo), intent(in) :: halo
    integer, intent(in) :: phase
    type(c_ptr), intent(in) :: vectors(:)
    type(c_ptr), intent(in), optional :: recv(:)
    integer(c_int) :: n
    n = int(size(vectors), c_int)
    if (present(recv)) then
      select case (phase)
      case (HALO_BEGIN)
        code = c_code(c_hympi_halo_begin_apart(halo%ptr, n, vectors, recv))
      case (HALO_END)
        code = c_code(c_hympi_halo_end_apart(halo%ptr, n, vectors, recv))
      case default
        code = c_code(c_hympi_halo_update_apart(halo%ptr, n, vectors, recv))
      end select
      return
    end if
    select case (phase)
    case (HALO_BEGIN)
      code = c_code(c_hympi_halo_begin(halo%ptr, n, vectors))
    case (HALO_END)
      code = c_code(c_hympi_halo_end(halo%ptr, n, vectors))
    case default
      code = c_code(c_hympi_halo_update(halo%ptr, n, vectors))
    end select
  end function run_phase

  ! The address of each field of x (one: x; k > 1: x(..., f) along x's last dimension of
  ! extent k), each checked to hold `needed` elements (`need` names them). `vectors` has
  ! max(halo%fields, 1) entries: the callers' automatic arrays (no allocation per call).
  integer function field_addresses(halo, x, what, needed, need, where, vectors) result(code)
    type(hympi_halo), intent(in) :: halo
    type(*), dimension(..), intent(in), target :: x
    character(*), intent(in) :: what, need, where
    integer(c_size_t), intent(in) :: needed
    type(c_ptr), intent(out) :: vectors(:)
    type(c_ptr) :: at
    integer(c_size_t) :: elements, stride
    integer :: f
    code = locate(x, what, where, at, elements)
    if (code /= HYMPI_SUCCESS) return
    stride = elements
    if (halo%fields > 1) then
      if (rank(x) < 2) then
        code = argument_error(where // ': the halo moves ' // str(int(halo%fields, c_int64_t)) // ' fields: ' // &
                              'pass them along the last dimension of one array (u(n, fields)) or as ' // &
                              '[hympi_field_of(u), hympi_field_of(v), ...]')
        return
      end if
      if (size(x, rank(x)) /= halo%fields) then
        code = argument_error(where // ': the last dimension of ' // what // ' has extent ' // &
                              str(int(size(x, rank(x)), c_int64_t)) // '; the halo moves ' // &
                              str(int(halo%fields, c_int64_t)) // ' fields along it')
        return
      end if
      stride = elements / int(halo%fields, c_size_t)
    end if
    code = check_length(stride, needed, what, need, where)
    if (code /= HYMPI_SUCCESS) return
    do f = 1, size(vectors)
      vectors(f) = advance(at, int(f - 1, c_size_t) * stride * element_bytes(halo%datatype))
    end do
  end function field_addresses

  module procedure any_halo_vectors
    type(c_ptr) :: vectors(max(halo%fields, 1))
    code = check_halo(halo, datatype, where)
    if (code == HYMPI_SUCCESS) &
      code = field_addresses(halo, x, 'the array', halo%elements, 'local_points * chunk', where, vectors)
    call refuse_if_failed(halo, code)
    if (code == HYMPI_SUCCESS) code = run_phase(halo, phase, vectors)
  end procedure any_halo_vectors

  module procedure any_halo_apart
    type(c_ptr) :: sends(max(halo%fields, 1)), recvs(max(halo%fields, 1))
    code = check_halo(halo, datatype, where)
    if (code == HYMPI_SUCCESS) &
      code = field_addresses(halo, send, 'the send array', halo%elements, 'send_points * chunk', where, sends)
    if (code == HYMPI_SUCCESS) &
      code = field_addresses(halo, recv, 'the receive array', halo%recv_elements, 'recv_points * chunk', where, recvs)
    call refuse_if_failed(halo, code)
    if (code == HYMPI_SUCCESS) code = run_phase(halo, phase, sends, recvs)
  end procedure any_halo_apart

  module procedure any_field
    field%datatype = datatype
    field%elements = size(x, kind=c_size_t)
    field%contiguous = is_contiguous(x)
    field%ptr = no_data()
    if (field%contiguous .and. field%elements > 0) field%ptr = c_loc(x)
  end procedure any_field

  ! A several-field call: every field checked, then the C API.
  integer function run_fields(halo, fields, phase, where) result(code)
    type(hympi_halo), intent(in) :: halo
    type(hympi_field), intent(in) :: fields(:)
    integer, intent(in) :: phase
    character(*), intent(in) :: where
    code = check_fields(halo, fields, where)
    call refuse_if_failed(halo, code)
    if (code == HYMPI_SUCCESS) code = run_phase(halo, phase, fields%ptr)
  end function run_fields

  integer function check_fields(halo, fields, where) result(code)
    type(hympi_halo), intent(in) :: halo
    type(hympi_field), intent(in) :: fields(:)
    character(*), intent(in) :: where
    integer :: f
    character(:), allocatable :: what
    do f = 1, size(fields)
      what = 'field ' // str(int(f, c_int64_t))
      code = check_halo(halo, fields(f)%datatype, where // ': ' // what)
      if (code /= HYMPI_SUCCESS) return
      if (.not. fields(f)%contiguous) then
        code = argument_error(where // ': ' // what // ' is not contiguous; pass contiguous arrays to hympi_field_of')
        return
      end if
      code = check_length(fields(f)%elements, halo%elements, what, 'local_points * chunk', where)
      if (code /= HYMPI_SUCCESS) return
    end do
  end function check_fields

  module procedure halo_begin_fields
    call finish(run_fields(halo, fields, HALO_BEGIN, 'hympi_halo_begin'), ierr)
  end procedure halo_begin_fields

  module procedure halo_end_fields
    call finish(run_fields(halo, fields, HALO_END, 'hympi_halo_end'), ierr)
  end procedure halo_end_fields

  module procedure halo_update_fields
    call finish(run_fields(halo, fields, HALO_UPDATE, 'hympi_halo_update'), ierr)
  end procedure halo_update_fields

  module procedure any_halo_buffer
    type(c_ptr) :: at
    data = c_null_ptr
    elements = 0
    code = check_halo(halo, datatype, where)
    if (code /= HYMPI_SUCCESS) return
    if (send) then
      code = c_code(c_hympi_halo_send_buffer(halo%ptr, int(n - 1, c_int), at, elements))
    else
      code = c_code(c_hympi_halo_recv_buffer(halo%ptr, int(n - 1, c_int), at, elements))
    end if
    if (code == HYMPI_SUCCESS) data = at
  end procedure any_halo_buffer

  module procedure any_halo_shared_field
    type(c_ptr) :: at
    data = c_null_ptr
    elements = 0
    code = check_halo(halo, datatype, where)
    if (code /= HYMPI_SUCCESS) return
    code = c_code(c_hympi_halo_shared_field(halo%ptr, int(f - 1, c_int), at))
    if (code == HYMPI_SUCCESS) then
      data = at
      elements = halo%elements
    end if
  end procedure any_halo_shared_field
end submodule hympi_core_halo
