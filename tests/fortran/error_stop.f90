! SPDX-License-Identifier: BSD-3-Clause
! A call that fails without ierr must give "hympi: <message>" to the message handler and
! stop the program with a nonzero exit (ctest checks both). Argument: "name" (an unknown
! strategy name, this rank's argument), "collective" (an allreduce whose count differs on
! rank 0), or "redirected" ("name" with the program's own handler, which prefixes
! "redirected: ").
module error_stop_handler
  use, intrinsic :: iso_c_binding
  use, intrinsic :: iso_fortran_env, only: error_unit
  implicit none
contains
  subroutine redirect(message, user_data) bind(c)
    type(c_ptr), value :: message, user_data
    character(kind=c_char), pointer :: text(:)
    integer :: n
    if (c_associated(user_data)) error stop 'redirect: user_data is not the null pointer set with it'
    call c_f_pointer(message, text, [4096])
    n = 0
    do while (text(n + 1) /= c_null_char)
      n = n + 1
    end do
    write (error_unit, '(a, *(a))') 'redirected: ', text(1:n)
    flush (error_unit)
  end subroutine redirect
end module error_stop_handler

program error_stop
  use mpi_f08
  use hympi
  use error_stop_handler
  implicit none
  type(hympi_context) :: ctx
  type(hympi_pattern) :: pattern
  type(hympi_halo) :: halo
  character(16) :: which
  integer :: rank
  real :: in(3), out(3)

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call get_command_argument(1, which)
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  in = 1
  if (which == 'redirected') call hympi_set_message_handler(c_funloc(redirect), c_null_ptr)
  select case (which)
  case ('name', 'redirected')
    call hympi_pattern_from_lists(ctx, 1, [integer ::], [1], [integer ::], [1], [integer ::], pattern)
    call hympi_halo_create(pattern, 'fast', halo)
  case ('collective')
    call hympi_allreduce(ctx, in(1:merge(3, 2, rank == 0)), out(1:merge(3, 2, rank == 0)), HYMPI_SUM)
  end select
  print '(a)', 'error-stop: NOT REACHED'
  call MPI_Finalize()
end program error_stop
