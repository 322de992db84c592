! What the Fortran tests share: expect() records a failed check on this rank (and says
! which), test_done() ends a test collectively, printing "fortran-test NAME: passed on N
! ranks" on rank 0 (ctest's pass expression) or stopping with the number of failures;
! iterations() is how many consecutive calls a test makes (HYMPI_TEST_ITERATIONS).
module fortran_test
  use, intrinsic :: iso_fortran_env, only: error_unit, output_unit
  use mpi_f08, only: MPI_COMM_WORLD, MPI_Comm_rank, MPI_Comm_size, MPI_Allreduce, MPI_INTEGER, MPI_SUM
  implicit none
  private
  public :: expect, test_done, world_rank, world_size, iterations

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
