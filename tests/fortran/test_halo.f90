! SPDX-License-Identifier: BSD-3-Clause
! The ghost update of the Fortran binding on a ring (ring.f90) with 1-based ids, every
! update with fresh values checked against the exact ones: strategies by value and by
! name, split phase, two fields (one array's last dimension and a list of arrays), the
! four element types with chunks, patterns from owners, the local numbering, buffers mode,
! shm_direct's shared field, separate send and receive arrays, stats against the pattern,
! and automatic's trials.
program test_halo
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64
  use mpi_f08
  use hympi
  use fortran_test
  use ring
  implicit none
  integer, parameter :: n = 5
  integer :: updates  ! consecutive calls per case
  type(hympi_context) :: ctx
  type(hympi_pattern) :: pattern
  integer :: rank, ranks, local_points
  integer, allocatable :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:), owners(:)
  integer(int64), allocatable :: global_ids(:)

  call MPI_Init()
  updates = iterations(30)
  rank = world_rank()
  ranks = world_size()
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call ring_lists(rank, ranks, n, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids)
  call ring_points(rank, ranks, n, global_ids, owners)
  call hympi_pattern_from_lists(ctx, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, pattern)
  call check_pattern(pattern)

  call one_field('shm', by_value=.true.)
  call one_field('flat_mpi', by_value=.false.)
  call one_field('aggregated_odm', by_value=.true.)
  call one_field('automatic', by_value=.false.)
  call two_fields('shm')
  call two_fields('aggregated')
  call element_types()
  call ordered()
  call buffers('shm')
  call buffers('aggregated')
  call shared_field()
  call apart('shm', 1)
  call apart('flat_mpi', 2)
  call apart('aggregated', 2)

  call hympi_pattern_free(pattern)
  call hympi_context_free(ctx)
  call test_done('halo')
  call MPI_Finalize()

contains

  ! The pattern reads back as made: sizes, and each neighbour's lists (sorted by rank).
  subroutine check_pattern(p)
    type(hympi_pattern), intent(in) :: p
    integer :: points, chunk, datatype, neighbors, k, j, nbr, last
    integer, allocatable :: sends(:), recvs(:)
    call hympi_pattern_info(p, points, chunk, datatype, neighbors)
    call expect(points == local_points .and. chunk == 1 .and. datatype == HYMPI_FLOAT64, 'pattern info')
    call expect(neighbors == size(nbr_ranks), 'pattern neighbour count')
    last = -1
    do k = 1, neighbors
      call hympi_pattern_neighbor(p, k, nbr, sends, recvs)
      call expect(nbr > last, 'neighbours sorted by rank')
      last = nbr
      j = findloc(nbr_ranks, nbr, dim=1)
      call expect(j > 0, 'neighbour rank is one given')
      if (j == 0) cycle
      call expect(all(sends == send_ids(send_ptr(j):send_ptr(j + 1) - 1)), 'send list read back 1-based')
      call expect(all(recvs == recv_ids(recv_ptr(j):recv_ptr(j + 1) - 1)), 'recv list read back 1-based')
    end do
  end subroutine check_pattern

  ! Owned points of update t set, ghosts -1; the exact values after the update.
  subroutine check_ring(u, t, what)
    real(real64), intent(in) :: u(:)
    integer, intent(in) :: t
    character(*), intent(in) :: what
    call expect(all(int(u, int64) == value(global_ids, 1, t)), what)
  end subroutine check_ring

  subroutine one_field(name, by_value)
    character(*), intent(in) :: name
    logical, intent(in) :: by_value
    type(hympi_halo) :: halo
    real(real64), allocatable :: u(:)
    integer :: t, strategy, running, requested, fields
    integer, allocatable :: tried(:)
    real(real64), allocatable :: seconds(:)
    type(hympi_topology_info) :: info
    call hympi_strategy_from_name(name, strategy)
    call expect(hympi_strategy_name(strategy) == name, 'strategy name round trip: ' // name)
    if (by_value) then
      call hympi_halo_create(pattern, strategy, halo)
    else
      call hympi_halo_create(pattern, name, halo)
    end if
    call hympi_halo_strategy(halo, running, requested)
    call hympi_halo_fields(halo, fields)
    call expect(requested == strategy .and. fields == 1, 'halo strategy and fields: ' // name)
    allocate (u(local_points))
    do t = 1, updates
      u = -1
      u(1:n) = real(value(global_ids(1:n), 1, t), real64)
      if (modulo(t, 2) == 0) then
        call hympi_halo_update(halo, u)
      else
        call hympi_halo_begin(halo, u)
        call hympi_halo_end(halo, u)
      end if
      call check_ring(u, t, 'one field, ' // name)
    end do
    if (strategy == HYMPI_STRATEGY_SHM .or. strategy == HYMPI_STRATEGY_FLAT_MPI) call check_stats(halo, name)
    if (strategy == HYMPI_STRATEGY_AUTOMATIC) then
      ! One node: shm without trials; else shm, aggregated and aggregated_odm timed.
      call hympi_context_topology(ctx, info)
      call hympi_halo_trials(halo, tried, seconds)
      if (info%node_count == 1) then
        call expect(size(tried) == 0 .and. running == HYMPI_STRATEGY_SHM, 'automatic on one node')
      else
        call expect(size(tried) == 3 .and. size(seconds) == 3, 'automatic made 3 trials')
        call expect(any(tried == running) .and. all(seconds > 0), 'automatic runs a strategy it timed')
      end if
    end if
    call hympi_halo_free(halo)
  end subroutine one_field

  ! One update's messages and bytes (one real64 per point sent), split by node.
  subroutine check_stats(halo, name)
    type(hympi_halo), intent(in) :: halo
    character(*), intent(in) :: name
    type(hympi_halo_stats) :: stats
    type(MPI_Comm) :: node
    type(MPI_Group) :: world_group, node_group
    integer :: k, sends, in_node(1), intra_messages, inter_messages, intra_bytes, inter_bytes
    call hympi_halo_stats_get(halo, stats)
    call hympi_context_comm(ctx, HYMPI_COMM_NODE, node)
    call MPI_Comm_group(MPI_COMM_WORLD, world_group)
    call MPI_Comm_group(node, node_group)
    intra_messages = 0
    inter_messages = 0
    intra_bytes = 0
    inter_bytes = 0
    do k = 1, size(nbr_ranks)
      sends = send_ptr(k + 1) - send_ptr(k)
      call MPI_Group_translate_ranks(world_group, 1, [nbr_ranks(k)], node_group, in_node)
      if (in_node(1) /= MPI_UNDEFINED) then
        intra_messages = intra_messages + 1
        intra_bytes = intra_bytes + 8 * sends
      else
        inter_messages = inter_messages + 1
        inter_bytes = inter_bytes + 8 * sends
      end if
    end do
    call expect(stats%intranode_messages == intra_messages .and. stats%intranode_bytes == intra_bytes, &
                'intranode stats, ' // name)
    call expect(stats%internode_messages == inter_messages .and. stats%internode_bytes == inter_bytes, &
                'internode stats, ' // name)
    call MPI_Group_free(world_group)
    call MPI_Group_free(node_group)
  end subroutine check_stats

  ! Two fields: along the last dimension of one array, and as a list of two arrays.
  subroutine two_fields(name)
    character(*), intent(in) :: name
    type(hympi_halo) :: halo
    real(real64), allocatable :: w(:, :)
    real(real64), allocatable, target :: a(:), b(:)
    integer :: t, f
    call hympi_halo_create(pattern, name, halo, fields=2)
    allocate (w(local_points, 2), a(local_points), b(local_points))
    do t = 1, updates
      w = -1
      do f = 1, 2
        w(1:n, f) = real(value(global_ids(1:n), f, t), real64)
      end do
      call hympi_halo_update(halo, w)
      do f = 1, 2
        call expect(all(int(w(:, f), int64) == value(global_ids, f, t)), 'two fields in one array, ' // name)
      end do
      a = -1
      b = -1
      a(1:n) = real(value(global_ids(1:n), 1, t), real64)
      b(1:n) = real(value(global_ids(1:n), 2, t), real64)
      if (modulo(t, 2) == 0) then
        call hympi_halo_update(halo, [hympi_field_of(a), hympi_field_of(b)])
      else
        call hympi_halo_begin(halo, [hympi_field_of(a), hympi_field_of(b)])
        call hympi_halo_end(halo, [hympi_field_of(a), hympi_field_of(b)])
      end if
      call expect(all(int(a, int64) == value(global_ids, 1, t)) .and. all(int(b, int64) == value(global_ids, 2, t)), &
                  'two fields as a list, ' // name)
    end do
    call hympi_halo_free(halo)
  end subroutine two_fields

  ! integer(int64) with 2 values per point (lists), real(real32) and integer(int32) (owners,
  ! with integer(int64) and integer global ids).
  subroutine element_types()
    type(hympi_pattern) :: p_i8, p_r4, p_i4
    type(hympi_halo) :: h_i8, h_r4, h_i4
    integer(int64), allocatable :: v8(:, :)
    real(real32), allocatable :: r4(:)
    integer(int32), allocatable :: i4(:)
    integer :: t, k
    call hympi_pattern_from_lists(ctx, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids, p_i8, &
                                  chunk=2, datatype=HYMPI_INT64)
    call hympi_pattern_from_owners(ctx, global_ids, owners, p_r4, datatype=HYMPI_FLOAT32)
    call hympi_pattern_from_owners(ctx, int(global_ids), owners, p_i4, datatype=HYMPI_INT32)
    call hympi_halo_create(p_i8, HYMPI_STRATEGY_SHM, h_i8)
    call hympi_halo_create(p_r4, HYMPI_STRATEGY_FLAT_MPI, h_r4)
    call hympi_halo_create(p_i4, HYMPI_STRATEGY_AGGREGATED, h_i4)
    allocate (v8(2, local_points), r4(local_points), i4(local_points))
    do t = 1, updates
      v8 = -1
      r4 = -1
      i4 = -1
      do k = 1, 2
        v8(k, 1:n) = value(global_ids(1:n), k, t)
      end do
      r4(1:n) = real(value(global_ids(1:n), 1, t), real32)
      i4(1:n) = int(value(global_ids(1:n), 1, t), int32)
      call hympi_halo_update(h_i8, v8)
      call hympi_halo_begin(h_r4, r4)
      call hympi_halo_begin(h_i4, i4)
      call hympi_halo_end(h_r4, r4)
      call hympi_halo_end(h_i4, i4)
      do k = 1, 2
        call expect(all(v8(k, :) == value(global_ids, k, t)), 'integer(int64), chunk 2')
      end do
      call expect(all(int(r4, int64) == value(global_ids, 1, t)), 'real(real32) from owners')
      call expect(all(int(i4, int64) == value(global_ids, 1, t)), 'integer(int32) from owners (integer ids)')
    end do
    call hympi_halo_free(h_i8)
    call hympi_halo_free(h_r4)
    call hympi_halo_free(h_i4)
    call hympi_pattern_free(p_i8)
    call hympi_pattern_free(p_r4)
    call hympi_pattern_free(p_i4)
  end subroutine element_types

  ! The local numbering: a 1-based permutation, and the renumbered exchange moves the
  ! same values to the renumbered ghosts.
  subroutine ordered()
    type(hympi_pattern) :: renumbered
    type(hympi_halo) :: halo
    integer, allocatable :: new_id(:)
    real(real64), allocatable :: u(:)
    integer :: inner, boundary, ghosts, t, p
    logical :: seen(local_points)
    call hympi_order_local_ids(pattern, new_id, inner, boundary, ghosts, renumbered)
    call expect(size(new_id) == local_points .and. all(new_id >= 1 .and. new_id <= local_points), &
                'new ids 1-based, in range')
    seen = .false.
    do p = 1, size(new_id)
      if (new_id(p) >= 1 .and. new_id(p) <= local_points) seen(new_id(p)) = .true.
    end do
    call expect(all(seen), 'new ids a permutation')
    call expect(inner + boundary + ghosts == local_points .and. ghosts == local_points - n, 'numbering parts')
    call hympi_halo_create(renumbered, 'shm', halo)
    allocate (u(local_points))
    do t = 1, updates
      u = -1
      do p = 1, n
        u(new_id(p)) = real(value(global_ids(p), 1, t), real64)
      end do
      call hympi_halo_update(halo, u)
      call expect(all(int(u(new_id), int64) == value(global_ids, 1, t)), 'ordered pattern')
    end do
    call hympi_halo_free(halo)
    call hympi_pattern_free(renumbered)
  end subroutine ordered

  ! Buffers mode: neighbour k's send buffer holds its send list's values, its receive
  ! buffer the values of my ghosts in its recv list.
  subroutine buffers(name)
    character(*), intent(in) :: name
    type(hympi_halo) :: halo
    real(real64), pointer :: buffer(:)
    integer, allocatable :: sends(:), recvs(:)
    integer :: t, k, nbr, neighbors
    call hympi_halo_create(pattern, name, halo, mode=HYMPI_MODE_BUFFERS)
    call hympi_pattern_info(pattern, neighbor_count=neighbors)
    do t = 1, updates
      call hympi_halo_acquire(halo)
      do k = 1, neighbors
        call hympi_pattern_neighbor(pattern, k, nbr, sends, recvs)
        call hympi_halo_send_buffer(halo, k, buffer)
        call expect(size(buffer) == size(sends), 'send buffer size, ' // name)
        if (size(buffer) == size(sends)) buffer = real(value(global_ids(sends), 1, t), real64)
      end do
      call hympi_halo_begin_buffers(halo)
      call hympi_halo_end_buffers(halo)
      do k = 1, neighbors
        call hympi_pattern_neighbor(pattern, k, nbr, sends, recvs)
        call hympi_halo_recv_buffer(halo, k, buffer)
        call expect(size(buffer) == size(recvs), 'receive buffer size, ' // name)
        if (size(buffer) == size(recvs)) &
          call expect(all(int(buffer, int64) == value(global_ids(recvs), 1, t)), 'receive buffer values, ' // name)
      end do
    end do
    call hympi_halo_free(halo)
  end subroutine buffers

  ! shm_direct: the vector comes from the halo (zeroed), updated in place.
  subroutine shared_field()
    type(hympi_halo) :: halo
    real(real64), pointer :: u(:)
    integer :: t
    call hympi_halo_create(pattern, HYMPI_STRATEGY_SHM_DIRECT, halo)
    call hympi_halo_shared_field(halo, 1, u)
    call expect(size(u) == local_points, 'shared field size')
    call expect(all(u == 0), 'shared field zeroed')
    do t = 1, updates
      u = -1
      u(1:n) = real(value(global_ids(1:n), 1, t), real64)
      call hympi_halo_update(halo, u)
      call check_ring(u, t, 'shared field, shm_direct')
    end do
    call hympi_halo_free(halo)
  end subroutine shared_field

  ! Separate arrays: the owned points sent from send(n, fields), ghost g of the ring
  ! received at slot 2 g of recv(2 G + 1, fields), whose odd slots keep -1.
  subroutine apart(name, fields)
    character(*), intent(in) :: name
    integer, intent(in) :: fields
    type(hympi_pattern) :: p
    type(hympi_halo) :: halo
    real(real64), allocatable :: send(:, :), recv(:, :)
    integer :: ghosts, recv_points, sends, recvs, points, t, f, code
    logical :: separate
    ghosts = local_points - n
    recv_points = 2 * ghosts + 1
    call hympi_pattern_from_lists_apart(ctx, n, recv_points, nbr_ranks, send_ptr, send_ids, recv_ptr, &
                                        2 * (recv_ids - n), p)
    call hympi_pattern_points(p, sends, recvs, separate)
    call hympi_pattern_info(p, local_points=points)
    call expect(sends == n .and. recvs == recv_points .and. separate .and. points == -1, 'apart pattern points')
    allocate (send(n, fields), recv(recv_points, fields))
    call hympi_halo_create(p, name, halo, fields=fields)  ! the one-array form is refused, then every update
    call hympi_halo_update(halo, recv, ierr=code)
    call expect(code == HYMPI_ERR_USAGE, 'one-array update refused on separate arrays: ' // name)
    call hympi_halo_update_apart(halo, send, recv, ierr=code)
    call expect(code == HYMPI_ERR_USAGE .and. index(hympi_last_error_message(), &
                'could not take part in a ghost update') > 0, 'a refused halo refuses every update: ' // name)
    call hympi_halo_free(halo)
    call hympi_halo_create(p, name, halo, fields=fields)
    do t = 1, updates
      do f = 1, fields
        send(:, f) = real(value(global_ids(1:n), f, t), real64)
      end do
      recv = -1
      if (modulo(t, 2) == 0) then
        call hympi_halo_update_apart(halo, send, recv)
      else
        call hympi_halo_begin_apart(halo, send, recv)
        call hympi_halo_end_apart(halo, send, recv)
      end if
      do f = 1, fields
        call expect(all(int(recv(2:recv_points:2, f), int64) == value(global_ids(n + 1:), f, t)), &
                    'apart: received slots, ' // name)
        call expect(all(recv(1:recv_points:2, f) == -1), 'apart: other slots untouched, ' // name)
      end do
    end do
    call hympi_halo_free(halo)
    call hympi_pattern_free(p)
  end subroutine apart
end program test_halo
