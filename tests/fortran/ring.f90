! SPDX-License-Identifier: BSD-3-Clause
! The ring the halo tests exchange on, as CSR lists (1-based ids) and as owners: every
! rank owns points 1..n with global ids rank*n + 1 .. rank*n + n; with more than one rank,
! ghost n+1 is the last point of the left rank and ghost n+2 the first of the right one.
! value() is what a point holds in update t: integers exact in every element type.
module ring
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  private
  public :: ring_lists, ring_points, value

contains

  ! The CSR lists of this rank's neighbours (two, or one when the left rank is the right
  ! one, or none on one rank) and its local point count.
  subroutine ring_lists(rank, size, n, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, recv_ids)
    integer, intent(in) :: rank, size, n
    integer, intent(out) :: local_points
    integer, allocatable, intent(out) :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
    integer :: left, right
    left = modulo(rank - 1, size)
    right = modulo(rank + 1, size)
    if (size == 1) then
      local_points = n
      allocate (nbr_ranks(0), send_ids(0), recv_ids(0))
      send_ptr = [1]
      recv_ptr = [1]
    else if (left == right) then
      ! My last point fills its left ghost, my first its right ghost.
      local_points = n + 2
      nbr_ranks = [left]
      send_ptr = [1, 3]
      send_ids = [n, 1]
      recv_ptr = [1, 3]
      recv_ids = [n + 1, n + 2]
    else
      local_points = n + 2
      nbr_ranks = [left, right]
      send_ptr = [1, 2, 3]
      send_ids = [1, n]
      recv_ptr = [1, 2, 3]
      recv_ids = [n + 1, n + 2]
    end if
  end subroutine ring_lists

  ! Global id and owner of every local point.
  subroutine ring_points(rank, size, n, global_ids, owners)
    integer, intent(in) :: rank, size, n
    integer(int64), allocatable, intent(out) :: global_ids(:)
    integer, allocatable, intent(out) :: owners(:)
    integer :: p, left, right
    left = modulo(rank - 1, size)
    right = modulo(rank + 1, size)
    global_ids = [(int(rank, int64) * n + p, p = 1, n)]
    owners = [(rank, p = 1, n)]
    if (size > 1) then
      global_ids = [global_ids, int(left, int64) * n + n, int(right, int64) * n + 1]
      owners = [owners, left, right]
    end if
  end subroutine ring_points

  ! Component (or field) k of point `global` in update t.
  elemental integer(int64) function value(global, k, t)
    integer(int64), intent(in) :: global
    integer, intent(in) :: k, t
    value = global * 256 + k * 32 + modulo(t, 32)
  end function value
end module ring
