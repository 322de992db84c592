! SPDX-License-Identifier: BSD-3-Clause
! The smallest Fortran code on an installed hympi: prints the sum of rank + 1 and the
! build system named on its command line.
program consumer
  use mpi_f08
  use hympi
  implicit none
  type(hympi_context) :: ctx
  type(hympi_topology_info) :: info
  integer :: total
  character(32) :: how
  call MPI_Init()
  call get_command_argument(1, how)
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call hympi_context_topology(ctx, info)
  call hympi_allreduce(ctx, info%world_rank + 1, total, HYMPI_SUM)
  if (info%world_rank == 0) print '(a,i0,a,i0,a)', 'fortran-consumer: ', info%world_size, ' ranks, allreduce ', total, &
                                                   ' (' // trim(how) // ')'
  call hympi_context_free(ctx)
  call MPI_Finalize()
end program consumer
