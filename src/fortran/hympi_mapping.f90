! SPDX-License-Identifier: BSD-3-Clause
! Module hympi_mapping: map_ranks for Fortran (include/hympi_mapping.h, library
! hympi_mapping, built with METIS): ranks mapped to nodes and domains by their traffic,
! and the reordered communicator. In the library hympi_mapping_fortran (CMake:
! hympi::hympi_mapping_fortran), apart from module hympi, so that only programs that map
! ranks link METIS.
!
!   use hympi
!   use hympi_mapping
!   integer :: new_rank(0:ranks-1)            ! one entry per rank of the pattern's context
!   type(MPI_Comm) :: comm                     ! or an integer communicator
!   call hympi_map_ranks(pattern, new_rank)   ! collective
!   call hympi_reordered_comm(MPI_COMM_WORLD, new_rank, comm)   ! free it with MPI_Comm_free
!
! new_rank(p) is the rank (0-based, as MPI's) that process p takes in the reordered
! communicator, and with it the work it does. Errors as in module hympi (optional ierr).
module hympi_mapping
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm
  use hympi_c_api, only: HYMPI_SUCCESS
  use hympi_core, only: hympi_pattern, hympi_c_handle, finish, c_code, argument_error
  implicit none
  private
  public :: hympi_map_ranks, hympi_map_ranks_traffic, hympi_reordered_comm

  ! hympi_rank_message
  type, bind(c) :: c_rank_message
    integer(c_int) :: from, to
    integer(c_size_t) :: bytes
  end type c_rank_message

  interface
    function c_hympi_map_ranks(pattern, fields, count, new_rank) bind(c, name="hympi_map_ranks") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: pattern
      integer(c_int), value :: fields, count
      integer(c_int), intent(out) :: new_rank(*)
      integer(c_int) :: code
    end function c_hympi_map_ranks
    function c_hympi_map_ranks_traffic(ranks, node_of, domain_of, messages, traffic, new_rank) &
        bind(c, name="hympi_map_ranks_traffic") result(code)
      import :: c_int, c_ptr, c_size_t, c_rank_message
      integer(c_int), value :: ranks
      integer(c_int), intent(in) :: node_of(*)
      type(c_ptr), value :: domain_of
      integer(c_size_t), value :: messages
      type(c_rank_message), intent(in) :: traffic(*)
      integer(c_int), intent(out) :: new_rank(*)
      integer(c_int) :: code
    end function c_hympi_map_ranks_traffic
    function c_hympi_reordered_comm_f(comm, count, new_rank, reordered) bind(c, name="hympi_reordered_comm_f") &
        result(code)
      import :: c_int
      integer(c_int), value :: comm, count
      integer(c_int), intent(in) :: new_rank(*)
      integer(c_int), intent(out) :: reordered
      integer(c_int) :: code
    end function c_hympi_reordered_comm_f
  end interface

  ! Collective over comm: MPI_Comm_split with new_rank(my rank) as key; new_rank has one
  ! entry per rank of comm, the same permutation on every rank. type(MPI_Comm) or integer.
  interface hympi_reordered_comm
    module procedure reordered_comm_f08, reordered_comm_integer
  end interface hympi_reordered_comm

contains

  ! Collective over the pattern's context: its traffic (fields vectors per update, default
  ! 1), nodes from its topology, domains from hwloc; new_rank has one entry per rank of the
  ! context; left as it was after an error. The same permutation on every rank.
  subroutine hympi_map_ranks(pattern, new_rank, fields, ierr)
    type(hympi_pattern), intent(in) :: pattern
    integer, intent(out) :: new_rank(:)
    integer, intent(in), optional :: fields
    integer, intent(out), optional :: ierr
    integer(c_int) :: result(size(new_rank)), f
    integer :: code
    f = 1
    if (present(fields)) f = fields
    result = -1
    code = c_code(c_hympi_map_ranks(hympi_c_handle(pattern), f, size(new_rank, kind=c_int), result))
    if (code == HYMPI_SUCCESS) new_rank = result
    call finish(code, ierr)
  end subroutine hympi_map_ranks

  ! No MPI: the permutation of size(node_of) processes, process p (0-based) on node
  ! node_of(p+1) and domain domain_of(p+1) (absent: one per node), for the messages
  ! from(m) -> to(m) (0-based ranks) of bytes(m) bytes. Deterministic.
  subroutine hympi_map_ranks_traffic(node_of, from, to, bytes, new_rank, domain_of, ierr)
    integer, intent(in) :: node_of(:), from(:), to(:)
    integer(c_int64_t), intent(in) :: bytes(:)
    integer, intent(out) :: new_rank(:)
    integer, intent(in), optional :: domain_of(:)
    integer, intent(out), optional :: ierr
    type(c_rank_message) :: traffic(size(from))
    integer(c_int) :: nodes(size(node_of)), result(size(node_of))
    integer(c_int), allocatable, target :: domains(:)
    type(c_ptr) :: domains_at
    integer :: m, code
    logical :: fits
    fits = size(to) == size(from) .and. size(bytes) == size(from) .and. size(new_rank) == size(node_of)
    if (present(domain_of)) fits = fits .and. size(domain_of) == size(node_of)
    if (.not. fits) then
      call finish(argument_error('hympi_map_ranks_traffic: from, to and bytes need one entry per message, ' // &
                                 'new_rank (and domain_of) one per process (as node_of)'), ierr)
      return
    end if
    do m = 1, size(from)
      traffic(m) = c_rank_message(from(m), to(m), int(bytes(m), c_size_t))
    end do
    nodes = node_of
    domains_at = c_null_ptr
    if (present(domain_of)) then
      domains = domain_of
      domains_at = c_loc(domains)
    end if
    result = -1
    code = c_code(c_hympi_map_ranks_traffic(size(node_of, kind=c_int), nodes, domains_at, &
                                            size(from, kind=c_size_t), traffic, result))
    if (code == HYMPI_SUCCESS) new_rank = result
    call finish(code, ierr)
  end subroutine hympi_map_ranks_traffic

  subroutine reordered_comm_f08(comm, new_rank, reordered, ierr)
    type(MPI_Comm), intent(in) :: comm
    integer, intent(in) :: new_rank(:)
    type(MPI_Comm), intent(out) :: reordered
    integer, intent(out), optional :: ierr
    call reordered_comm_integer(comm%MPI_VAL, new_rank, reordered%MPI_VAL, ierr)
  end subroutine reordered_comm_f08

  subroutine reordered_comm_integer(comm, new_rank, reordered, ierr)
    integer, intent(in) :: comm
    integer, intent(in) :: new_rank(:)
    integer, intent(out) :: reordered
    integer, intent(out), optional :: ierr
    integer(c_int) :: ranks(size(new_rank)), handle
    ranks = new_rank
    handle = 0
    call finish(c_code(c_hympi_reordered_comm_f(int(comm, c_int), size(new_rank, kind=c_int), ranks, handle)), ierr)
    reordered = handle
  end subroutine reordered_comm_integer
end module hympi_mapping
