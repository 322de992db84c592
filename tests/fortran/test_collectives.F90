! SPDX-License-Identifier: BSD-3-Clause
! The collectives of the Fortran binding against plain MPI on the same data, changing at
! every call: allreduce (arrays, scalars, rank 2, in place), reduce and bcast for the four
! element types and every op; a context from a type(MPI_Comm) and one from an integer
! handle; the topology and communicators against MPI's; options and version.
program test_collectives
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi_f08
  use hympi
  use fortran_test
  implicit none
  integer :: updates  ! consecutive calls per case
  type(hympi_context) :: ctx, from_integer
  integer :: t

  call MPI_Init()
  updates = iterations(40)
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call check_topology(ctx)
  do t = 1, updates
    call check_real64(ctx, t)
    call check_real32(ctx, t)
    call check_int32(ctx, t)
    call check_int64(ctx, t)
  end do
  call hympi_context_create(MPI_COMM_WORLD%MPI_VAL, from_integer)  ! the handle `use mpi` has
  call check_topology(from_integer)
  do t = 1, max(updates / 4, 1)
    call check_int64(from_integer, t)
  end do
  call hympi_context_free(from_integer)
  call hympi_barrier(ctx)
  call hympi_context_free(ctx)
  call test_done('collectives')
  call MPI_Finalize()

contains

  ! Values every op gives exactly in every type (products of 1 and 2 only).
  integer function input(rank, i, t, op)
    integer, intent(in) :: rank, i, t, op
    if (op == HYMPI_PROD) then
      input = 1 + modulo(rank + i + t, 2)
    else
      input = rank * 100 - 3 * i + t
    end if
  end function input

  type(MPI_Op) function reference_op(op)
    integer, intent(in) :: op
    select case (op)
    case (HYMPI_SUM)
      reference_op = MPI_SUM
    case (HYMPI_PROD)
      reference_op = MPI_PROD
    case (HYMPI_MIN)
      reference_op = MPI_MIN
    case default
      reference_op = MPI_MAX
    end select
  end function reference_op

  subroutine check_topology(ctx)
    type(hympi_context), intent(in) :: ctx
    type(hympi_topology_info) :: info
    type(hympi_options) :: options, from_env
    type(MPI_Comm) :: world, node, leaders
    integer :: world_handle, compared, node_size, node_rank, leading, nodes, major, minor, patch
    character(:), allocatable :: text
    call hympi_context_topology(ctx, info)
    call expect(info%world_rank == world_rank() .and. info%world_size == world_size(), 'topology: world rank and size')
    call hympi_context_comm(ctx, HYMPI_COMM_WORLD, world)
    call hympi_context_comm(ctx, HYMPI_COMM_WORLD, world_handle)
    call expect(world_handle == world%MPI_VAL, 'the communicator as an integer handle is the type(MPI_Comm) one')
    call MPI_Comm_compare(world, MPI_COMM_WORLD, compared)
    call expect(compared == MPI_IDENT .or. compared == MPI_CONGRUENT, 'world communicator has the group of MPI_COMM_WORLD')
    call hympi_context_comm(ctx, HYMPI_COMM_NODE, node)
    call MPI_Comm_size(node, node_size)
    call MPI_Comm_rank(node, node_rank)
    call expect(node_size == info%node_size .and. node_rank == info%node_rank, 'node communicator')
    call hympi_context_comm(ctx, HYMPI_COMM_LEADERS, leaders)
    call expect((leaders /= MPI_COMM_NULL) .eqv. (info%node_rank == 0), 'leaders communicator on leaders only')
    leading = merge(1, 0, info%node_rank == 0)
    call MPI_Allreduce(leading, nodes, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD)
    call expect(nodes == info%node_count, 'node count')
    call hympi_options_from_env(from_env)
    call hympi_context_options(ctx, options)
    call expect(options%node_size == from_env%node_size, 'options from HYMPI_NODE_SIZE')
    call expect((info%emulated == 1) .eqv. (from_env%node_size > 0), 'emulated nodes with HYMPI_NODE_SIZE')
    call hympi_options_describe(options, text)
    call expect(len(text) > 0, 'options described')
    call hympi_version(major, minor, patch)
    call expect(major == HYMPI_VERSION_MAJOR .and. minor == HYMPI_VERSION_MINOR .and. patch == HYMPI_VERSION_PATCH, &
                'version')
  end subroutine check_topology

#define CASE_T real(real64)
#define CASE_MPI MPI_DOUBLE_PRECISION
#define CASE_NAME 'real(real64)'
#define CASE_CHECK check_real64
#include "collectives_case.inc"
#undef CASE_T
#undef CASE_MPI
#undef CASE_NAME
#undef CASE_CHECK
#define CASE_T real(real32)
#define CASE_MPI MPI_REAL
#define CASE_NAME 'real(real32)'
#define CASE_CHECK check_real32
#include "collectives_case.inc"
#undef CASE_T
#undef CASE_MPI
#undef CASE_NAME
#undef CASE_CHECK
#define CASE_T integer(int32)
#define CASE_MPI MPI_INTEGER
#define CASE_NAME 'integer(int32)'
#define CASE_CHECK check_int32
#include "collectives_case.inc"
#undef CASE_T
#undef CASE_MPI
#undef CASE_NAME
#undef CASE_CHECK
#define CASE_T integer(int64)
#define CASE_MPI MPI_INTEGER8
#define CASE_NAME 'integer(int64)'
#define CASE_CHECK check_int64
#include "collectives_case.inc"
end program test_collectives
