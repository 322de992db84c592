! SPDX-License-Identifier: BSD-3-Clause
! Module hympi: the Fortran binding of hympi (Fortran 2008 with TS 29113's assumed-type and
! assumed-rank arrays, as mpi_f08), over the C API (include/hympi.h) through iso_c_binding.
!
!   use mpi_f08
!   use hympi
!   type(hympi_context) :: ctx
!   call hympi_context_create(MPI_COMM_WORLD, ctx)          ! or an integer comm (use mpi)
!   call hympi_allreduce(ctx, local, total, HYMPI_SUM)       ! real(8|4), integer(4|8), scalars or arrays
!   call hympi_pattern_from_lists(ctx, n, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, pattern)
!   call hympi_halo_create(pattern, 'shm', halo)            ! or HYMPI_STRATEGY_SHM
!   call hympi_halo_update(halo, u)                         ! or hympi_halo_begin(halo, u); ...; _end
!   call hympi_halo_free(halo); call hympi_pattern_free(pattern); call hympi_context_free(ctx)
!   call hympi_node_shared_create(ctx, n, table, HYMPI_FLOAT64)   ! one array per node
!   call hympi_node_shared_begin_write(table, HYMPI_WRITERS_SLICES, part)  ! part(i) = ..., then
!   call hympi_node_shared_end_write(table);  call hympi_node_shared_data(table, values)
!
! Conventions: local point ids, neighbour indices and field numbers are 1-based; ranks,
! node numbers and process coordinates 0-based (as MPI); every procedure takes an optional
! ierr (absent: an error prints "hympi: <message>" and stops the program). docs/usage.md,
! section Fortran, says more; the procedures are declared and described in hympi_core.f90
! and hympi_typed.inc. This module only publishes them.
module hympi
  use hympi_c_api
  use hympi_core
  use hympi_typed_r8
  use hympi_typed_r4
  use hympi_typed_i4
  use hympi_typed_i8
  implicit none
  private

  ! constants (hympi.h)
  public :: HYMPI_VERSION_MAJOR, HYMPI_VERSION_MINOR, HYMPI_VERSION_PATCH
  public :: HYMPI_SUCCESS, HYMPI_ERR_USAGE, HYMPI_ERR_ARGUMENT, HYMPI_ERR_NO_MEMORY, HYMPI_ERR_INTERNAL
  include 'hympi_names_public.inc'  ! those of include/hympi/names.h, generated from it
  public :: HYMPI_COMM_WORLD, HYMPI_COMM_NODE, HYMPI_COMM_LEADERS
  ! types
  public :: hympi_context, hympi_pattern, hympi_halo, hympi_grid, hympi_options, hympi_topology_info, &
            hympi_halo_stats, hympi_block, hympi_field, hympi_node_shared
  ! errors, version, names, options
  public :: hympi_version, hympi_error_string, hympi_last_error_message
  public :: hympi_set_message_handler, hympi_default_message_handler
  public :: hympi_strategy_name, hympi_strategy_from_name, hympi_stencil_name, hympi_stencil_from_name, &
            hympi_datatype_name, hympi_op_name
  public :: hympi_options_default, hympi_options_from_env, hympi_options_describe
  ! context and collectives
  public :: hympi_context_create, hympi_context_free, hympi_context_options, hympi_context_topology, &
            hympi_context_comm, hympi_barrier, hympi_allreduce, hympi_allreduce_in_place, hympi_reduce, hympi_bcast
  ! patterns
  public :: hympi_pattern_from_lists, hympi_pattern_from_lists_apart, hympi_pattern_from_owners, &
            hympi_pattern_free, hympi_pattern_info, hympi_pattern_points, hympi_pattern_neighbor, hympi_order_local_ids
  ! halos
  public :: hympi_halo_create, hympi_halo_free, hympi_halo_strategy, hympi_halo_fields, hympi_halo_stats_get, &
            hympi_halo_trials, hympi_halo_begin, hympi_halo_end, hympi_halo_update, hympi_field_of, &
            hympi_halo_begin_apart, hympi_halo_end_apart, hympi_halo_update_apart, &
            hympi_halo_acquire, hympi_halo_begin_buffers, hympi_halo_end_buffers, hympi_halo_send_buffer, &
            hympi_halo_recv_buffer, hympi_halo_shared_field
  ! structured grids
  public :: hympi_grid_create, hympi_grid_free, hympi_grid_block, hympi_grid_pattern, hympi_grid_cart, &
            hympi_block_index
  ! node-shared arrays
  public :: hympi_node_shared_create, hympi_node_shared_free, hympi_node_shared_data, &
            hympi_node_shared_begin_write, hympi_node_shared_end_write
  ! the C API's handles, for C code called from Fortran
  public :: hympi_c_handle
end module hympi
