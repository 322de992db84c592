! SPDX-License-Identifier: BSD-3-Clause
! The support of the hympi module: error reporting (ierr or error stop), the binding's own
! last message, C strings, names, version, options, and where an array's data is.
!
! Invariant: `own_message` is allocated exactly while the last error came from the
! binding's own checks (not from the library); hympi_last_error_message reads it first.
! It is one per process (the C API's message is one per thread).
submodule (hympi_core) hympi_core_support
  implicit none

  character(:), allocatable :: own_message
  integer(c_int64_t), target :: nothing(1) = 0  ! no_data()'s address

contains

  module procedure finish
    character(:), allocatable :: message
    integer :: at
    if (present(ierr)) then
      ierr = code
      return
    end if
    if (code == HYMPI_SUCCESS) return
    message = hympi_last_error_message()
    if (len(message) == 0) message = hympi_error_string(code)
    ! hympi::Error's messages and the binding's own begin with "hympi: "; the C API's
    ! argument errors with the C function's name, some before a C++ message
    ! ("hympi_strategy_from_name: hympi: unknown ..."): printed "hympi: <function>: ...".
    at = index(message, ': hympi: ')
    if (index(message, 'hympi: ') /= 1 .and. at > 0) then
      message = 'hympi: ' // message(1:at) // message(at + 8:)
    else if (index(message, 'hympi: ') /= 1) then
      message = 'hympi: ' // message
    end if
    ! Through the message handler (xSDK M11: a program that silenced hympi's messages
    ! gets none here either), then a stop that prints nothing of its own.
    call c_hympi_emit_message(message // c_null_char)
    error stop 1, quiet=.true.
  end procedure finish

  module procedure c_code
    if (allocated(own_message)) deallocate (own_message)
    r = code
  end procedure c_code

  module procedure argument_error
    own_message = 'hympi: ' // message
    code = HYMPI_ERR_ARGUMENT
  end procedure argument_error

  module procedure no_data
    address = c_loc(nothing)
  end procedure no_data

  module procedure locate
    elements = size(x, kind=c_size_t)
    address = no_data()
    if (.not. is_contiguous(x)) then
      code = argument_error(where // ': ' // what // ' is not contiguous (a strided section or a pointer to ' // &
                            'one); pass a contiguous array, or copy the section into one')
      return
    end if
    if (elements > 0) address = c_loc(x)
    code = HYMPI_SUCCESS
  end procedure locate

  module procedure from_c
    character(kind=c_char), pointer :: chars(:)
    integer(c_size_t) :: i, n
    if (.not. c_associated(s)) then
      text = ''
      return
    end if
    n = c_strlen(s)
    call c_f_pointer(s, chars, [n])
    allocate (character(n) :: text)
    do i = 1, n
      text(i:i) = chars(i)
    end do
  end procedure from_c

  module procedure fortran_type_name
    select case (datatype)
    case (HYMPI_FLOAT64)
      name = 'real(c_double)'
    case (HYMPI_FLOAT32)
      name = 'real(c_float)'
    case (HYMPI_INT32)
      name = 'integer(c_int32_t)'
    case (HYMPI_INT64)
      name = 'integer(c_int64_t)'
    case default
      name = 'an unknown type (' // str(int(datatype, c_int64_t)) // ')'
    end select
  end procedure fortran_type_name

  module procedure element_bytes
    select case (datatype)
    case (HYMPI_FLOAT32, HYMPI_INT32)
      bytes = 4
    case default
      bytes = 8
    end select
  end procedure element_bytes

  module procedure advance
    integer(c_intptr_t) :: at
    at = transfer(address, at)
    moved = transfer(at + int(bytes, c_intptr_t), moved)
  end procedure advance

  module procedure value_or
    v = default
    if (present(x)) v = x
  end procedure value_or

  module procedure str
    character(24) :: buffer
    write (buffer, '(i0)') value
    text = trim(buffer)
  end procedure str

  ! --- public: errors, version, names, options ---------------------------------------

  module procedure hympi_version
    integer(c_int) :: c_major, c_minor, c_patch
    call c_hympi_version(c_major, c_minor, c_patch)
    major = c_major
    minor = c_minor
    patch = c_patch
  end procedure hympi_version

  module procedure hympi_error_string
    text = from_c(c_hympi_error_string(int(code, c_int)))
  end procedure hympi_error_string

  module procedure hympi_last_error_message
    if (allocated(own_message)) then
      text = own_message
    else
      text = from_c(c_hympi_last_error_message())
    end if
  end procedure hympi_last_error_message

  module procedure hympi_strategy_name
    name = from_c(c_hympi_strategy_name(int(strategy, c_int)))
  end procedure hympi_strategy_name

  module procedure hympi_strategy_from_name
    integer(c_int) :: value
    value = -1
    call finish(c_code(c_hympi_strategy_from_name(trim(name) // c_null_char, value)), ierr)
    strategy = value
  end procedure hympi_strategy_from_name

  module procedure hympi_stencil_name
    name = from_c(c_hympi_stencil_name(int(stencil, c_int)))
  end procedure hympi_stencil_name

  module procedure hympi_stencil_from_name
    integer(c_int) :: value
    value = -1
    call finish(c_code(c_hympi_stencil_from_name(trim(name) // c_null_char, value)), ierr)
    stencil = value
  end procedure hympi_stencil_from_name

  module procedure hympi_datatype_name
    name = from_c(c_hympi_datatype_name(int(datatype, c_int)))
  end procedure hympi_datatype_name

  module procedure hympi_op_name
    name = from_c(c_hympi_op_name(int(op, c_int)))
  end procedure hympi_op_name

  module procedure hympi_options_default
    call finish(c_code(c_hympi_options_default(options)), ierr)
  end procedure hympi_options_default

  module procedure hympi_options_from_env
    call finish(c_code(c_hympi_options_from_env(options)), ierr)
  end procedure hympi_options_from_env

  module procedure hympi_options_describe
    character(kind=c_char), allocatable, target :: buffer(:)
    integer(c_size_t) :: length, written
    integer :: code
    ! The length first (an empty buffer of one byte), then the text.
    allocate (buffer(1))
    code = c_code(c_hympi_options_describe(options, c_loc(buffer), 1_c_size_t, length))
    if (code == HYMPI_SUCCESS) then
      deallocate (buffer)
      allocate (buffer(length + 1))
      code = c_code(c_hympi_options_describe(options, c_loc(buffer), length + 1, written))
    end if
    text = ''
    if (code == HYMPI_SUCCESS) text = from_c(c_loc(buffer))
    call finish(code, ierr)
  end procedure hympi_options_describe
end submodule hympi_core_support
