! SPDX-License-Identifier: BSD-3-Clause
! A call that fails without ierr must print "hympi: <message>" and stop the program with a
! nonzero exit (ctest checks both). Argument: "name" (an unknown strategy name, this
! rank's argument) or "collective" (an allreduce whose count differs on rank 0).
program error_stop
  use mpi_f08
  use hympi
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
  select case (which)
  case ('name')
    call hympi_pattern_from_lists(ctx, 1, [integer ::], [1], [integer ::], [1], [integer ::], pattern)
    call hympi_halo_create(pattern, 'fast', halo)
  case ('collective')
    call hympi_allreduce(ctx, in(1:merge(3, 2, rank == 0)), out(1:merge(3, 2, rank == 0)), HYMPI_SUM)
  end select
  print '(a)', 'error-stop: NOT REACHED'
  call MPI_Finalize()
end program error_stop
