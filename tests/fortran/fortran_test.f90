! SPDX-License-Identifier: BSD-3-Clause
! What the Fortran tests share: expect() records a failed check on this rank (and says
! which), test_done() ends a test collectively, printing "fortran-test NAME: passed on N
! ranks" on rank 0 (ctest's pass expression) or stopping with the number of failures;
! iterations() is how many consecutive calls a test makes (HYMPI_TEST_ITERATIONS);
! expect_everywhere() checks an error that every rank returns with the same message.
module fortran_test
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
  use, intrinsic :: iso_fortran_env, only: int64
  use mpi_f08, only: MPI_COMM_WORLD, MPI_Comm_rank, MPI_Comm_size, MPI_Allreduce, MPI_INTEGER, MPI_INTEGER8, MPI_SUM, &
                     MPI_MIN, MPI_MAX
  use hympi, only: hympi_last_error_message, hympi_error_string, HYMPI_ERR_USAGE
  implicit none
  private
  public :: expect, expect_everywhere, test_done, world_rank, world_size, iterations

  integer :: failures = 0

contains

  integer function world_rank()
    call MPI_Comm_rank(MPI_COMM_WORLD, world_rank)
  end function world_rank

  integer function world_size()
    call MPI_Comm_size(MPI_COMM_WORLD, world_size)
  end function world_size

  ! HYMPI_TEST_ITERATIONS, else `default`.
  integer function iterations(default)
    integer, intent(in) :: default
    character(16) :: text
    integer :: length, status
    iterations = default
    call get_environment_variable('HYMPI_TEST_ITERATIONS', text, length, status)
    if (status == 0) read (text, *) iterations
  end function iterations

  ! A check: `what` is printed with this rank when `condition` is false (the first 20).
  subroutine expect(condition, what)
    logical, intent(in) :: condition
    character(*), intent(in) :: what
    if (condition) return
    failures = failures + 1
    if (failures <= 20) write (error_unit, '(a,i0,a)') 'fortran-test: rank ', world_rank(), ': FAILED: ' // what
  end subroutine expect

  ! HYMPI_ERR_USAGE (or `expected`) on every rank, with the same message ("hympi: ...")
  ! everywhere.
  subroutine expect_everywhere(code, what, expected)
    integer, intent(in) :: code
    character(*), intent(in) :: what
    integer, intent(in), optional :: expected
    character(:), allocatable :: message
    integer(int64) :: digest(2), low(2), high(2)
    integer :: i
    message = hympi_last_error_message()
    if (present(expected)) then
      call expect(code == expected, what // ': ' // hympi_error_string(expected))
    else
      call expect(code == HYMPI_ERR_USAGE, what // ': HYMPI_ERR_USAGE')
    end if
    call expect(index(message, 'hympi: ') == 1, what // ': message "' // message // '"')
    digest = [int(len(message), int64), 0_int64]
    do i = 1, len(message)
      digest(2) = modulo(digest(2) * 131 + ichar(message(i:i)), 1000000007_int64)
    end do
    call MPI_Allreduce(digest, low, 2, MPI_INTEGER8, MPI_MIN, MPI_COMM_WORLD)
    call MPI_Allreduce(digest, high, 2, MPI_INTEGER8, MPI_MAX, MPI_COMM_WORLD)
    call expect(all(low == high), what // ': the same message on every rank')
  end subroutine expect_everywhere

  ! Collective, at the end of a test (before MPI_Finalize).
  subroutine test_done(name)
    character(*), intent(in) :: name
    integer :: total
    call MPI_Allreduce(failures, total, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    if (total > 0) then
      if (world_rank() == 0) write (error_unit, '(a,i0,a)') 'fortran-test ' // name // ': ', total, ' checks failed'
      error stop 1
    end if
    if (world_rank() == 0) write (output_unit, '(a,i0,a)') 'fortran-test ' // name // ': passed on ', world_size(), &
                                                            ' ranks'
    flush (output_unit)
  end subroutine test_done
end module fortran_test
