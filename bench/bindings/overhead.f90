! SPDX-License-Identifier: BSD-3-Clause
! What the Fortran module adds to a ghost update over the C API (hympi-bench bindings
! measures the C API over C++): one Halo (strategy shm, a ring with 1 KiB of doubles per
! neighbour) updated through the module's hympi_halo_update (its checks of contiguity, size
! and type, then the C call) and through the C function itself (hympi_c_handle), in
! alternating rounds of `inner` calls, one launch. A round's figure is the slowest rank's
! mean per call; printed: each layer's median over the rounds and the median of the
! per-round differences. The data is not rewritten between calls (only the call differs):
! absolute times are cache-resident.
!   mpiexec -n 2 hympi-bench-fortran [rounds inner]      (100 100)
program overhead
  use mpi_f08
  use hympi
  use, intrinsic :: iso_c_binding
  implicit none
  interface
    integer(c_int) function c_halo_update(halo, count, vectors) bind(C, name='hympi_halo_update')
      import :: c_ptr, c_int
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: vectors(*)
    end function c_halo_update
  end interface
  integer, parameter :: n = 128                          ! 1 KiB of real(8) per neighbour
  type(hympi_context) :: ctx
  type(hympi_pattern) :: pattern
  type(hympi_halo) :: halo
  real(8), allocatable, target :: u(:)
  real(8), allocatable :: times(:, :)
  type(c_ptr) :: vectors(1)
  integer, allocatable :: nbr(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
  integer :: rank, nranks, peers, i, k, round, layer, rounds = 100, inner = 100
  character(16) :: arg
  real(8) :: start, mine

  call MPI_Init()
  if (command_argument_count() > 1) then
    call get_command_argument(1, arg); read (arg, *) rounds
    call get_command_argument(2, arg); read (arg, *) inner
  end if
  call MPI_Comm_rank(MPI_COMM_WORLD, rank)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks)
  ! The ring of hympi-bench: right neighbour, and left from 3 ranks on; n owned points per
  ! neighbour, then its n ghosts.
  peers = min(nranks - 1, 2)
  nbr = [integer ::]
  if (peers >= 1) nbr = [modulo(rank + 1, nranks)]
  if (peers == 2) nbr = [nbr, modulo(rank - 1, nranks)]
  send_ptr = [(1 + k * n, k = 0, peers)]
  recv_ptr = send_ptr
  send_ids = [(i, i = 1, peers * n)]
  recv_ids = [(peers * n + i, i = 1, peers * n)]
  allocate (u(2 * peers * n), times(rounds, 2))
  u = 1
  call hympi_context_create(MPI_COMM_WORLD, ctx)
  call hympi_pattern_from_lists(ctx, 2 * peers * n, nbr, send_ptr, send_ids, recv_ptr, recv_ids, pattern)
  call hympi_halo_create(pattern, 'shm', halo)
  vectors(1) = c_loc(u)

  do round = 1, rounds
    do layer = 1, 2
      call hympi_barrier(ctx)
      start = MPI_Wtime()
      do k = 1, inner
        if (layer == 1) then
          call hympi_halo_update(halo, u)
        else if (c_halo_update(hympi_c_handle(halo), 1_c_int, vectors) /= HYMPI_SUCCESS) then
          error stop 'hympi_halo_update failed'
        end if
      end do
      mine = (MPI_Wtime() - start) / inner
      call MPI_Allreduce(mine, times(round, layer), 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD)
    end do
  end do
  if (rank == 0) then
    print '(a, i0, a, i0, a)', '# bindings-fortran 1024 B, ', rounds, ' rounds of ', inner, &
      ' calls, call overhead, unchanged data (cache-resident)'
    print '(a, f10.3, a)', 'fortran hympi_halo_update (module)  median ', median(times(:, 1)) * 1d6, ' us'
    print '(a, f10.3, a)', 'c hympi_halo_update                 median ', median(times(:, 2)) * 1d6, ' us'
    print '(a, f8.1, a)', '# bindings: Fortran module over C API per update: median ', &
      median(times(:, 1) - times(:, 2)) * 1d9, ' ns (per-round differences)'
  end if
  call hympi_halo_free(halo); call hympi_pattern_free(pattern); call hympi_context_free(ctx)
  call MPI_Finalize()

contains

  real(8) function median(values)
    real(8), intent(in) :: values(:)
    real(8) :: sorted(size(values)), v
    integer :: a, b
    sorted = values
    do a = 2, size(sorted)                               ! insertion sort: a few hundred values
      v = sorted(a)
      b = a - 1
      do while (b >= 1)
        if (sorted(b) <= v) exit
        sorted(b + 1) = sorted(b)
        b = b - 1
      end do
      sorted(b + 1) = v
    end do
    median = sorted((size(sorted) + 1) / 2)
  end function median
end program overhead
