! SPDX-License-Identifier: BSD-3-Clause
! map_ranks from Fortran (module hympi_mapping): the C++ result of a known case on given
! traffic (tests/package's: 3 1 2 0); on a live pattern where each rank's heavy partner is
! half the communicator away, a permutation that is the same on every rank and puts each
! heavy pair on one node; the reordered communicator (type(MPI_Comm) and integer) gives
! each process its new rank; and errors: a permutation that differs between ranks on
! every rank, arrays of the wrong size here.
program test_mapping
  use, intrinsic :: iso_fortran_env, only: int64
  use mpi_f08
  use hympi
  use hympi_mapping
  use fortran_test
  implicit none
  type(hympi_context) :: ctx
  type(hympi_topology_info) :: topo
  type(hympi_pattern) :: pattern
  type(MPI_Comm) :: comm
  integer :: rank, ranks, ierr, new, v, handle
  integer, allocatable :: new_rank(:), low(:), high(:), node_of(:), node_after(:), mine(:)
  integer :: known(4)

  call MPI_Init()
  rank = world_rank()
  ranks = world_size()
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call hympi_context_topology(ctx, topo)

  ! Known case, no MPI.
  call hympi_map_ranks_traffic([0, 0, 1, 1], [0, 2, 1, 3], [2, 0, 3, 1], [1000_int64, 1000_int64, 1000_int64, &
                               1000_int64], known)
  call expect(all(known == [3, 1, 2, 0]), 'the known case gives the C++ result')
  call hympi_map_ranks_traffic([0, 1, 0, 1], [0, 2], [2, 0], [10_int64, 10_int64], known)
  call expect(all(known == [0, 1, 2, 3]), 'pairs already on one node: the identity')
  call hympi_map_ranks_traffic([0, 0, 1, 1], [0, 2], [2, 0], [10_int64], known, ierr=ierr)
  call expect(ierr == HYMPI_ERR_ARGUMENT .and. index(hympi_last_error_message(), 'one entry per message') > 0, &
              'sizes that do not fit: ' // hympi_last_error_message())

  ! A live pattern.
  call heavy_pairs(pattern)
  allocate (new_rank(0:ranks - 1), low(0:ranks - 1), high(0:ranks - 1), node_of(0:ranks - 1), node_after(0:ranks - 1))
  call hympi_map_ranks(pattern, new_rank)
  call MPI_Allreduce(new_rank, low, ranks, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD)
  call MPI_Allreduce(new_rank, high, ranks, MPI_INTEGER, MPI_MAX, MPI_COMM_WORLD)
  call expect(all(low == new_rank) .and. all(high == new_rank), 'the same permutation on every rank')
  do v = 0, ranks - 1
    call expect(count(new_rank == v) == 1, 'a permutation')
  end do
  call MPI_Allgather(topo%node_index, 1, MPI_INTEGER, node_of, 1, MPI_INTEGER, MPI_COMM_WORLD)
  node_after(new_rank) = node_of
  if (topo%node_count > 1 .and. mod(ranks, 2) == 0 .and. mod(topo%node_size, 2) == 0) then
    do v = 0, ranks - 1
      call expect(node_after(v) == node_after(partner(v)), 'heavy pairs share a node')
    end do
  end if
  call hympi_map_ranks(pattern, new_rank(1:), ierr=ierr)
  call expect_everywhere(ierr, 'new_rank of the wrong size on every rank', HYMPI_ERR_ARGUMENT)

  ! The reordered communicator.
  call hympi_reordered_comm(MPI_COMM_WORLD, new_rank, comm)
  call MPI_Comm_rank(comm, new)
  call expect(new == new_rank(rank), 'my new rank (type(MPI_Comm))')
  call MPI_Comm_free(comm)
  call hympi_reordered_comm(MPI_COMM_WORLD%MPI_VAL, new_rank, handle)
  comm%MPI_VAL = handle
  call MPI_Comm_rank(comm, new)
  call expect(new == new_rank(rank), 'my new rank (integer)')
  call MPI_Comm_free(comm)
  if (ranks > 1) then
    mine = [(v, v = 0, ranks - 1)]
    if (rank == 0) mine(1:2) = [1, 0]
    call hympi_reordered_comm(MPI_COMM_WORLD, mine, comm, ierr)
    call expect_everywhere(ierr, 'a permutation that differs between ranks')
    call expect(index(hympi_last_error_message(), 'ranks passed different permutation (hash)') > 0, &
                'permutation message: ' // hympi_last_error_message())
  end if

  call hympi_pattern_free(pattern)
  call hympi_context_free(ctx)
  call test_done('mapping')
  call MPI_Finalize()

contains

  integer function partner(r)
    integer, intent(in) :: r
    partner = mod(r + ranks / 2, ranks)
  end function partner

  ! Each rank exchanges 64 points with its partner (both ways) and one with each ring
  ! neighbour; local points 1 .. 130 owned, ghosts after them.
  subroutine heavy_pairs(pattern)
    type(hympi_pattern), intent(out) :: pattern
    integer :: candidates(4), points(4), nbrs(4), counts(4), c, k, nn, p, ghost
    integer, allocatable :: send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
    candidates = [partner(rank), mod(rank - ranks / 2 + ranks, ranks), mod(rank + 1, ranks), mod(rank + ranks - 1, ranks)]
    points = [64, 64, 1, 1]
    nn = 0
    do c = 1, 4
      if (candidates(c) == rank) cycle
      k = findloc(nbrs(1:nn), candidates(c), 1)
      if (k == 0) then
        nn = nn + 1
        nbrs(nn) = candidates(c)
        counts(nn) = 0
        k = nn
      end if
      counts(k) = counts(k) + points(c)
    end do
    allocate (send_ptr(nn + 1), recv_ptr(nn + 1), send_ids(sum(counts(1:nn))), recv_ids(sum(counts(1:nn))))
    send_ptr(1) = 1
    ghost = 130
    do k = 1, nn
      send_ptr(k + 1) = send_ptr(k) + counts(k)
      do p = 1, counts(k)
        send_ids(send_ptr(k) + p - 1) = p
        ghost = ghost + 1
        recv_ids(send_ptr(k) + p - 1) = ghost
      end do
    end do
    recv_ptr = send_ptr
    call hympi_pattern_from_lists(ctx, ghost, nbrs(1:nn), send_ptr, send_ids, recv_ptr, recv_ids, pattern)
  end subroutine heavy_pairs
end program test_mapping
