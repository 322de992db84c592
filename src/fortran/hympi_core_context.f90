! SPDX-License-Identifier: BSD-3-Clause
! The context of the hympi module: creation from a type(MPI_Comm) or an integer handle,
! topology, communicators, and the kind-free collectives behind hympi_allreduce,
! hympi_reduce and hympi_bcast (hympi_typed.inc).
submodule (hympi_core) hympi_core_context
  implicit none

contains

  module procedure context_create_f08
    call context_create_integer(comm%MPI_VAL, context, options, ierr)
  end procedure context_create_f08

  module procedure context_create_integer
    type(hympi_options), target :: copy
    type(hympi_topology_info) :: info
    type(c_ptr) :: chosen
    integer :: code
    chosen = c_null_ptr
    if (present(options)) then
      copy = options
      chosen = c_loc(copy)
    end if
    code = c_code(c_hympi_context_create_f(int(comm, c_int), chosen, context%ptr))
    if (code == HYMPI_SUCCESS) code = c_code(c_hympi_context_topology(context%ptr, info))
    if (code == HYMPI_SUCCESS) context%rank = info%world_rank
    call finish(code, ierr)
  end procedure context_create_integer

  module procedure hympi_context_free
    call finish(c_code(c_hympi_context_free(context%ptr)), ierr)
    context%rank = -1
  end procedure hympi_context_free

  module procedure hympi_context_options
    call finish(c_code(c_hympi_context_options(context%ptr, options)), ierr)
  end procedure hympi_context_options

  module procedure hympi_context_topology
    call finish(c_code(c_hympi_context_topology(context%ptr, info)), ierr)
  end procedure hympi_context_topology

  module procedure context_comm_f08
    call context_comm_integer(context, kind, comm%MPI_VAL, ierr)
  end procedure context_comm_f08

  module procedure context_comm_integer
    integer(c_int) :: handle
    handle = 0
    call finish(c_code(c_hympi_context_comm_f(context%ptr, int(kind, c_int), handle)), ierr)
    comm = handle
  end procedure context_comm_integer

  module procedure hympi_barrier
    call finish(c_code(c_hympi_barrier(context%ptr)), ierr)
  end procedure hympi_barrier

  ! A rank whose own arguments fail a check here (a non-contiguous array, sizes that differ)
  ! still joins the collective, passing the refused buffer as null: every rank then fails at
  ! once, the others naming this rank, and this rank returns its own message. Returning
  ! alone would leave the other ranks waiting in the call.
  module procedure any_allreduce
    type(c_ptr) :: in_at, out_at
    integer(c_size_t) :: count, out_count
    code = locate(in, 'in', 'hympi_allreduce', in_at, count)
    if (code /= HYMPI_SUCCESS) then
      call join_refused(c_hympi_allreduce(context%ptr, c_null_ptr, no_data(), 1_c_size_t, HYMPI_FLOAT64, HYMPI_SUM))
      return
    end if
    code = locate(out, 'out', 'hympi_allreduce', out_at, out_count)
    if (code == HYMPI_SUCCESS .and. out_count /= count) &
      code = argument_error('hympi_allreduce: out has ' // str(int(out_count, c_int64_t)) // ' elements, in ' // &
                            str(int(count, c_int64_t)) // '; pass arrays of the same size')
    if (code /= HYMPI_SUCCESS) then
      call join_refused(c_hympi_allreduce(context%ptr, no_data(), c_null_ptr, 1_c_size_t, HYMPI_FLOAT64, HYMPI_SUM))
      return
    end if
    code = c_code(c_hympi_allreduce(context%ptr, in_at, out_at, count, int(datatype, c_int), int(op, c_int)))
  end procedure any_allreduce

  module procedure any_allreduce_in_place
    type(c_ptr) :: at
    integer(c_size_t) :: count
    code = locate(x, 'x', 'hympi_allreduce_in_place', at, count)
    if (code /= HYMPI_SUCCESS) then
      call join_refused(c_hympi_allreduce(context%ptr, c_null_ptr, no_data(), 1_c_size_t, HYMPI_FLOAT64, HYMPI_SUM))
      return
    end if
    code = c_code(c_hympi_allreduce(context%ptr, at, at, count, int(datatype, c_int), int(op, c_int)))
  end procedure any_allreduce_in_place

  module procedure any_reduce
    type(c_ptr) :: in_at, out_at
    integer(c_size_t) :: count, out_count
    code = locate(in, 'in', 'hympi_reduce', in_at, count)
    if (code /= HYMPI_SUCCESS) then
      call join_refused(c_hympi_reduce(context%ptr, c_null_ptr, no_data(), 1_c_size_t, HYMPI_FLOAT64, HYMPI_SUM, &
                                       int(root, c_int)))
      return
    end if
    out_at = c_null_ptr  ! only the root receives
    if (context%rank == root) then
      code = locate(out, 'out', 'hympi_reduce', out_at, out_count)
      if (code == HYMPI_SUCCESS .and. out_count /= count) &
        code = argument_error('hympi_reduce: out has ' // str(int(out_count, c_int64_t)) // ' elements on the ' // &
                              'root, in ' // str(int(count, c_int64_t)) // '; pass arrays of the same size')
      if (code /= HYMPI_SUCCESS) then
        call join_refused(c_hympi_reduce(context%ptr, no_data(), c_null_ptr, 1_c_size_t, HYMPI_FLOAT64, HYMPI_SUM, &
                                         int(root, c_int)))
        return
      end if
    end if
    code = c_code(c_hympi_reduce(context%ptr, in_at, out_at, count, int(datatype, c_int), int(op, c_int), &
                                 int(root, c_int)))
  end procedure any_reduce

  module procedure any_bcast
    type(c_ptr) :: at
    integer(c_size_t) :: count
    code = locate(x, 'x', 'hympi_bcast', at, count)
    if (code /= HYMPI_SUCCESS) then
      call join_refused(c_hympi_bcast(context%ptr, c_null_ptr, 1_c_size_t, HYMPI_FLOAT64, int(root, c_int)))
      return
    end if
    code = c_code(c_hympi_bcast(context%ptr, at, count, int(datatype, c_int), int(root, c_int)))
  end procedure any_bcast

  ! The C API's code of a collective joined only to fail everywhere: this rank reports its
  ! own argument error instead (the message argument_error kept), so the code is dropped.
  subroutine join_refused(code)
    integer(c_int), intent(in) :: code
    if (code == HYMPI_SUCCESS) error stop 'hympi: internal error: a refused collective succeeded'
  end subroutine join_refused
end submodule hympi_core_context
