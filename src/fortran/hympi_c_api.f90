! SPDX-License-Identifier: BSD-3-Clause
! Over 500 lines: one binding per declaration of include/hympi.h, in one file as the header is, to compare the two.
! hympi_c_api: include/hympi.h in Fortran, for the hympi module's own use (Fortran codes
! `use hympi`, which re-exports the constants). The constants mirror the header's enums
! (those of include/hympi/names.h, and hympi_options, generated from it: hympi_names.inc)
! and the bind(C) types its structs; the interfaces bind its functions under the names
! c_hympi_* (the Fortran procedures of the hympi module take the C names). Ids in this
! layer are 0-based, as in C; the hympi module converts them.
!
! Invariant: every declaration here matches include/hympi.h exactly (order of struct
! components, value/reference arguments); a change to the header is mirrored here.
module hympi_c_api
  use, intrinsic :: iso_c_binding, only: c_int, c_double, c_size_t, c_int64_t, c_ptr, c_char, c_funptr
  implicit none
  private

  include 'hympi_version.inc'  ! HYMPI_VERSION_MAJOR, _MINOR, _PATCH: generated from CMake's project(VERSION)

  ! Error codes.
  enum, bind(c)
    enumerator :: HYMPI_SUCCESS = 0, HYMPI_ERR_USAGE = 1, HYMPI_ERR_ARGUMENT = 2, HYMPI_ERR_NO_MEMORY = 3, &
                  HYMPI_ERR_INTERNAL = 4
  end enum
  ! The enumerations of include/hympi/names.h (hympi_datatype ... hympi_writers), the type
  ! hympi_options and their public statements: generated from that table.
  include 'hympi_names.inc'
  ! hympi_comm_kind
  enum, bind(c)
    enumerator :: HYMPI_COMM_WORLD = 0, HYMPI_COMM_NODE = 1, HYMPI_COMM_LEADERS = 2
  end enum

  public :: HYMPI_SUCCESS, HYMPI_ERR_USAGE, HYMPI_ERR_ARGUMENT, HYMPI_ERR_NO_MEMORY, HYMPI_ERR_INTERNAL
  public :: HYMPI_COMM_WORLD, HYMPI_COMM_NODE, HYMPI_COMM_LEADERS

  ! hympi_topology_info: ranks and node numbers 0-based, as in MPI.
  type, bind(c), public :: hympi_topology_info
    integer(c_int) :: world_rank = 0, world_size = 0
    integer(c_int) :: node_index = 0, node_count = 0
    integer(c_int) :: node_rank = 0, node_size = 0
    integer(c_int) :: domain_size = 0
    integer(c_int) :: emulated = 0
    integer(c_int) :: oversubscribed = 0
  end type hympi_topology_info

  ! hympi_halo_stats
  type, bind(c), public :: hympi_halo_stats
    integer(c_int) :: internode_messages = 0
    integer(c_size_t) :: internode_bytes = 0
    integer(c_int) :: intranode_messages = 0
    integer(c_size_t) :: intranode_bytes = 0
    integer(c_int) :: single_copy_messages = 0
  end type hympi_halo_stats

  ! hympi_neighbor_lists (0-based ids)
  type, bind(c), public :: c_hympi_neighbor_lists
    integer(c_int) :: rank
    integer(c_int) :: send_count
    type(c_ptr) :: send
    integer(c_int) :: recv_count
    type(c_ptr) :: recv
  end type c_hympi_neighbor_lists

  ! hympi_block (0-based begin and coords)
  type, bind(c), public :: c_hympi_block
    integer(c_int) :: global(3), dims(3), coords(3), begin(3), size(3), halo(3)
    integer(c_int) :: local_points
    integer(c_int) :: owned_points
  end type c_hympi_block

  public :: c_strlen
  public :: c_hympi_error_string, c_hympi_last_error_message, c_hympi_version
  public :: hympi_set_message_handler, hympi_default_message_handler, c_hympi_emit_message
  public :: c_hympi_strategy_name, c_hympi_strategy_from_name, c_hympi_stencil_name, c_hympi_stencil_from_name, &
            c_hympi_datatype_name, c_hympi_op_name
  public :: c_hympi_options_default, c_hympi_options_from_env, c_hympi_options_describe
  public :: c_hympi_context_create_f, c_hympi_context_free, c_hympi_context_options, c_hympi_context_topology, &
            c_hympi_context_comm_f
  public :: c_hympi_barrier, c_hympi_allreduce, c_hympi_reduce, c_hympi_bcast
  public :: c_hympi_pattern_from_lists, c_hympi_pattern_from_lists_apart, c_hympi_pattern_from_owners, &
            c_hympi_pattern_free, c_hympi_pattern_info, c_hympi_pattern_points, c_hympi_pattern_neighbor, &
            c_hympi_order_local_ids
  public :: c_hympi_halo_create, c_hympi_halo_create_named, c_hympi_halo_free, c_hympi_halo_strategy, c_hympi_halo_fields, &
            c_hympi_halo_stats_get, c_hympi_halo_trials, c_hympi_halo_begin, c_hympi_halo_end, c_hympi_halo_update, &
            c_hympi_halo_begin_apart, c_hympi_halo_end_apart, c_hympi_halo_update_apart, &
            c_hympi_halo_refuse, c_hympi_halo_acquire, c_hympi_halo_begin_buffers, c_hympi_halo_end_buffers, &
            c_hympi_halo_send_buffer, c_hympi_halo_recv_buffer, c_hympi_halo_shared_field
  public :: c_hympi_grid_create, c_hympi_grid_create_named, c_hympi_grid_free, c_hympi_grid_block, c_hympi_grid_pattern, &
            c_hympi_grid_cart_f
  public :: c_hympi_node_shared_create, c_hympi_node_shared_free, c_hympi_node_shared_data, &
            c_hympi_node_shared_begin_write, c_hympi_node_shared_end_write

  interface
    ! C's strlen, to read the library's NUL-terminated strings.
    pure function c_strlen(s) bind(c, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen

    ! --- errors and version
    function c_hympi_error_string(code) bind(c, name="hympi_error_string") result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: code
      type(c_ptr) :: s
    end function c_hympi_error_string
    function c_hympi_last_error_message() bind(c, name="hympi_last_error_message") result(s)
      import :: c_ptr
      type(c_ptr) :: s
    end function c_hympi_last_error_message
    subroutine c_hympi_version(major, minor, patch) bind(c, name="hympi_version")
      import :: c_int
      integer(c_int), intent(out) :: major, minor, patch
    end subroutine c_hympi_version
    ! Where hympi's messages go (hympi.h): c_funloc of a bind(c) subroutine(message,
    ! user_data), both type(c_ptr), value (message: a NUL-terminated C string);
    ! c_null_funptr silences them; c_funloc(hympi_default_message_handler) restores stderr.
    subroutine hympi_set_message_handler(handler, user_data) bind(c, name="hympi_set_message_handler")
      import :: c_funptr, c_ptr
      type(c_funptr), value :: handler
      type(c_ptr), value :: user_data
    end subroutine hympi_set_message_handler
    subroutine hympi_default_message_handler(message, user_data) bind(c, name="hympi_default_message_handler")
      import :: c_ptr
      type(c_ptr), value :: message, user_data
    end subroutine hympi_default_message_handler
    ! To the handler set now (a NUL-terminated message).
    subroutine c_hympi_emit_message(message) bind(c, name="hympi_emit_message")
      import :: c_char
      character(kind=c_char), intent(in) :: message(*)
    end subroutine c_hympi_emit_message

    ! --- names
    function c_hympi_strategy_name(strategy) bind(c, name="hympi_strategy_name") result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: strategy
      type(c_ptr) :: s
    end function c_hympi_strategy_name
    function c_hympi_strategy_from_name(name, strategy) bind(c, name="hympi_strategy_from_name") result(code)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: strategy
      integer(c_int) :: code
    end function c_hympi_strategy_from_name
    function c_hympi_stencil_name(stencil) bind(c, name="hympi_stencil_name") result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: stencil
      type(c_ptr) :: s
    end function c_hympi_stencil_name
    function c_hympi_stencil_from_name(name, stencil) bind(c, name="hympi_stencil_from_name") result(code)
      import :: c_int, c_char
      character(kind=c_char), intent(in) :: name(*)
      integer(c_int), intent(out) :: stencil
      integer(c_int) :: code
    end function c_hympi_stencil_from_name
    function c_hympi_datatype_name(datatype) bind(c, name="hympi_datatype_name") result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: datatype
      type(c_ptr) :: s
    end function c_hympi_datatype_name
    function c_hympi_op_name(op) bind(c, name="hympi_op_name") result(s)
      import :: c_int, c_ptr
      integer(c_int), value :: op
      type(c_ptr) :: s
    end function c_hympi_op_name

    ! --- options
    function c_hympi_options_default(options) bind(c, name="hympi_options_default") result(code)
      import :: c_int, hympi_options
      type(hympi_options), intent(out) :: options
      integer(c_int) :: code
    end function c_hympi_options_default
    function c_hympi_options_from_env(options) bind(c, name="hympi_options_from_env") result(code)
      import :: c_int, hympi_options
      type(hympi_options), intent(out) :: options
      integer(c_int) :: code
    end function c_hympi_options_from_env
    function c_hympi_options_describe(options, text, size, length) bind(c, name="hympi_options_describe") result(code)
      import :: c_int, c_size_t, c_ptr, hympi_options
      type(hympi_options), intent(in) :: options
      type(c_ptr), value :: text
      integer(c_size_t), value :: size
      integer(c_size_t), intent(out) :: length
      integer(c_int) :: code
    end function c_hympi_options_describe

    ! --- context
    function c_hympi_context_create_f(comm, options, context) bind(c, name="hympi_context_create_f") result(code)
      import :: c_int, c_ptr
      integer(c_int), value :: comm
      type(c_ptr), value :: options
      type(c_ptr), intent(out) :: context
      integer(c_int) :: code
    end function c_hympi_context_create_f
    function c_hympi_context_free(context) bind(c, name="hympi_context_free") result(code)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: context
      integer(c_int) :: code
    end function c_hympi_context_free
    function c_hympi_context_options(context, options) bind(c, name="hympi_context_options") result(code)
      import :: c_int, c_ptr, hympi_options
      type(c_ptr), value :: context
      type(hympi_options), intent(out) :: options
      integer(c_int) :: code
    end function c_hympi_context_options
    function c_hympi_context_topology(context, info) bind(c, name="hympi_context_topology") result(code)
      import :: c_int, c_ptr, hympi_topology_info
      type(c_ptr), value :: context
      type(hympi_topology_info), intent(out) :: info
      integer(c_int) :: code
    end function c_hympi_context_topology
    function c_hympi_context_comm_f(context, kind, comm) bind(c, name="hympi_context_comm_f") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: context
      integer(c_int), value :: kind
      integer(c_int), intent(out) :: comm
      integer(c_int) :: code
    end function c_hympi_context_comm_f

    ! --- collectives
    function c_hympi_barrier(context) bind(c, name="hympi_barrier") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: context
      integer(c_int) :: code
    end function c_hympi_barrier
    function c_hympi_allreduce(context, in, out, count, datatype, op) bind(c, name="hympi_allreduce") result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: context, in, out
      integer(c_size_t), value :: count
      integer(c_int), value :: datatype, op
      integer(c_int) :: code
    end function c_hympi_allreduce
    function c_hympi_reduce(context, in, out, count, datatype, op, root) bind(c, name="hympi_reduce") result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: context, in, out
      integer(c_size_t), value :: count
      integer(c_int), value :: datatype, op, root
      integer(c_int) :: code
    end function c_hympi_reduce
    function c_hympi_bcast(context, data, count, datatype, root) bind(c, name="hympi_bcast") result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: context, data
      integer(c_size_t), value :: count
      integer(c_int), value :: datatype, root
      integer(c_int) :: code
    end function c_hympi_bcast

    ! --- pattern
    function c_hympi_pattern_from_lists(context, local_points, neighbor_count, neighbors, chunk, datatype, pattern) &
        bind(c, name="hympi_pattern_from_lists") result(code)
      import :: c_int, c_ptr, c_hympi_neighbor_lists
      type(c_ptr), value :: context
      integer(c_int), value :: local_points, neighbor_count
      type(c_hympi_neighbor_lists), intent(in) :: neighbors(*)
      integer(c_int), value :: chunk, datatype
      type(c_ptr), intent(out) :: pattern
      integer(c_int) :: code
    end function c_hympi_pattern_from_lists
    function c_hympi_pattern_from_lists_apart(context, send_points, recv_points, neighbor_count, neighbors, chunk, &
                                              datatype, pattern) bind(c, name="hympi_pattern_from_lists_apart") result(code)
      import :: c_int, c_ptr, c_hympi_neighbor_lists
      type(c_ptr), value :: context
      integer(c_int), value :: send_points, recv_points, neighbor_count
      type(c_hympi_neighbor_lists), intent(in) :: neighbors(*)
      integer(c_int), value :: chunk, datatype
      type(c_ptr), intent(out) :: pattern
      integer(c_int) :: code
    end function c_hympi_pattern_from_lists_apart
    function c_hympi_pattern_points(pattern, send_points, recv_points, apart) &
        bind(c, name="hympi_pattern_points") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: pattern
      integer(c_int), intent(out) :: send_points, recv_points, apart
      integer(c_int) :: code
    end function c_hympi_pattern_points
    function c_hympi_pattern_from_owners(context, local_points, global_ids, owners, chunk, datatype, pattern) &
        bind(c, name="hympi_pattern_from_owners") result(code)
      import :: c_int, c_int64_t, c_ptr
      type(c_ptr), value :: context
      integer(c_int), value :: local_points
      integer(c_int64_t), intent(in) :: global_ids(*)
      integer(c_int), intent(in) :: owners(*)
      integer(c_int), value :: chunk, datatype
      type(c_ptr), intent(out) :: pattern
      integer(c_int) :: code
    end function c_hympi_pattern_from_owners
    function c_hympi_pattern_free(pattern) bind(c, name="hympi_pattern_free") result(code)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: pattern
      integer(c_int) :: code
    end function c_hympi_pattern_free
    function c_hympi_pattern_info(pattern, local_points, chunk, datatype, neighbor_count) &
        bind(c, name="hympi_pattern_info") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: pattern
      integer(c_int), intent(out) :: local_points, chunk, datatype, neighbor_count
      integer(c_int) :: code
    end function c_hympi_pattern_info
    function c_hympi_pattern_neighbor(pattern, n, lists) bind(c, name="hympi_pattern_neighbor") result(code)
      import :: c_int, c_ptr, c_hympi_neighbor_lists
      type(c_ptr), value :: pattern
      integer(c_int), value :: n
      type(c_hympi_neighbor_lists), intent(out) :: lists
      integer(c_int) :: code
    end function c_hympi_pattern_neighbor
    function c_hympi_order_local_ids(pattern, new_id, inner, boundary, ghosts, ordered) &
        bind(c, name="hympi_order_local_ids") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: pattern
      integer(c_int), intent(out) :: new_id(*)
      integer(c_int), intent(out) :: inner, boundary, ghosts
      type(c_ptr), intent(out) :: ordered
      integer(c_int) :: code
    end function c_hympi_order_local_ids

    ! --- halo
    function c_hympi_halo_create(pattern, strategy, fields, mode, halo) bind(c, name="hympi_halo_create") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: pattern
      integer(c_int), value :: strategy, fields, mode
      type(c_ptr), intent(out) :: halo
      integer(c_int) :: code
    end function c_hympi_halo_create
    function c_hympi_halo_create_named(pattern, strategy, fields, mode, halo) bind(c, name="hympi_halo_create_named") &
        result(code)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: pattern
      character(kind=c_char), intent(in) :: strategy(*)
      integer(c_int), value :: fields, mode
      type(c_ptr), intent(out) :: halo
      integer(c_int) :: code
    end function c_hympi_halo_create_named
    function c_hympi_halo_free(halo) bind(c, name="hympi_halo_free") result(code)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: halo
      integer(c_int) :: code
    end function c_hympi_halo_free
    function c_hympi_halo_strategy(halo, running, requested) bind(c, name="hympi_halo_strategy") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), intent(out) :: running, requested
      integer(c_int) :: code
    end function c_hympi_halo_strategy
    function c_hympi_halo_fields(halo, fields) bind(c, name="hympi_halo_fields") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), intent(out) :: fields
      integer(c_int) :: code
    end function c_hympi_halo_fields
    function c_hympi_halo_stats_get(halo, stats) bind(c, name="hympi_halo_stats_get") result(code)
      import :: c_int, c_ptr, hympi_halo_stats
      type(c_ptr), value :: halo
      type(hympi_halo_stats), intent(out) :: stats
      integer(c_int) :: code
    end function c_hympi_halo_stats_get
    function c_hympi_halo_trials(halo, capacity, strategies, seconds, count) bind(c, name="hympi_halo_trials") &
        result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: capacity
      type(c_ptr), value :: strategies, seconds
      integer(c_int), intent(out) :: count
      integer(c_int) :: code
    end function c_hympi_halo_trials
    function c_hympi_halo_begin(halo, count, vectors) bind(c, name="hympi_halo_begin") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: vectors(*)
      integer(c_int) :: code
    end function c_hympi_halo_begin
    function c_hympi_halo_end(halo, count, vectors) bind(c, name="hympi_halo_end") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: vectors(*)
      integer(c_int) :: code
    end function c_hympi_halo_end
    function c_hympi_halo_update(halo, count, vectors) bind(c, name="hympi_halo_update") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: vectors(*)
      integer(c_int) :: code
    end function c_hympi_halo_update
    function c_hympi_halo_begin_apart(halo, count, send, recv) bind(c, name="hympi_halo_begin_apart") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: send(*), recv(*)
      integer(c_int) :: code
    end function c_hympi_halo_begin_apart
    function c_hympi_halo_end_apart(halo, count, send, recv) bind(c, name="hympi_halo_end_apart") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: send(*), recv(*)
      integer(c_int) :: code
    end function c_hympi_halo_end_apart
    function c_hympi_halo_update_apart(halo, count, send, recv) bind(c, name="hympi_halo_update_apart") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: count
      type(c_ptr), intent(in) :: send(*), recv(*)
      integer(c_int) :: code
    end function c_hympi_halo_update_apart
    function c_hympi_halo_refuse(halo, reason) bind(c, name="hympi_halo_refuse") result(code)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: halo
      character(kind=c_char), intent(in) :: reason(*)
      integer(c_int) :: code
    end function c_hympi_halo_refuse
    function c_hympi_halo_acquire(halo) bind(c, name="hympi_halo_acquire") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: code
    end function c_hympi_halo_acquire
    function c_hympi_halo_begin_buffers(halo) bind(c, name="hympi_halo_begin_buffers") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: code
    end function c_hympi_halo_begin_buffers
    function c_hympi_halo_end_buffers(halo) bind(c, name="hympi_halo_end_buffers") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int) :: code
    end function c_hympi_halo_end_buffers
    function c_hympi_halo_send_buffer(halo, neighbor, data, elements) bind(c, name="hympi_halo_send_buffer") &
        result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: halo
      integer(c_int), value :: neighbor
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: elements
      integer(c_int) :: code
    end function c_hympi_halo_send_buffer
    function c_hympi_halo_recv_buffer(halo, neighbor, data, elements) bind(c, name="hympi_halo_recv_buffer") &
        result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: halo
      integer(c_int), value :: neighbor
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: elements
      integer(c_int) :: code
    end function c_hympi_halo_recv_buffer
    function c_hympi_halo_shared_field(halo, field, data) bind(c, name="hympi_halo_shared_field") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: halo
      integer(c_int), value :: field
      type(c_ptr), intent(out) :: data
      integer(c_int) :: code
    end function c_hympi_halo_shared_field

    ! --- grid
    function c_hympi_grid_create(context, ndims, global, stencil, width, reorder, chunk, datatype, grid) &
        bind(c, name="hympi_grid_create") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: context
      integer(c_int), value :: ndims
      integer(c_int), intent(in) :: global(*)
      integer(c_int), value :: stencil, width, reorder, chunk, datatype
      type(c_ptr), intent(out) :: grid
      integer(c_int) :: code
    end function c_hympi_grid_create
    function c_hympi_grid_create_named(context, ndims, global, stencil, width, reorder, chunk, datatype, grid) &
        bind(c, name="hympi_grid_create_named") result(code)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: context
      integer(c_int), value :: ndims
      integer(c_int), intent(in) :: global(*)
      character(kind=c_char), intent(in) :: stencil(*)
      integer(c_int), value :: width, reorder, chunk, datatype
      type(c_ptr), intent(out) :: grid
      integer(c_int) :: code
    end function c_hympi_grid_create_named
    function c_hympi_grid_free(grid) bind(c, name="hympi_grid_free") result(code)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: grid
      integer(c_int) :: code
    end function c_hympi_grid_free
    function c_hympi_grid_block(grid, block) bind(c, name="hympi_grid_block") result(code)
      import :: c_int, c_ptr, c_hympi_block
      type(c_ptr), value :: grid
      type(c_hympi_block), intent(out) :: block
      integer(c_int) :: code
    end function c_hympi_grid_block
    function c_hympi_grid_pattern(grid, pattern) bind(c, name="hympi_grid_pattern") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: grid
      type(c_ptr), intent(out) :: pattern
      integer(c_int) :: code
    end function c_hympi_grid_pattern
    function c_hympi_grid_cart_f(grid, cart) bind(c, name="hympi_grid_cart_f") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: grid
      integer(c_int), intent(out) :: cart
      integer(c_int) :: code
    end function c_hympi_grid_cart_f

    ! --- node-shared arrays
    function c_hympi_node_shared_create(context, count, datatype, table) bind(c, name="hympi_node_shared_create") &
        result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: context
      integer(c_size_t), value :: count
      integer(c_int), value :: datatype
      type(c_ptr), intent(out) :: table
      integer(c_int) :: code
    end function c_hympi_node_shared_create
    function c_hympi_node_shared_free(table) bind(c, name="hympi_node_shared_free") result(code)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: table
      integer(c_int) :: code
    end function c_hympi_node_shared_free
    function c_hympi_node_shared_data(table, data, count, datatype) bind(c, name="hympi_node_shared_data") result(code)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: table
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: count
      integer(c_int), intent(out) :: datatype
      integer(c_int) :: code
    end function c_hympi_node_shared_data
    ! part, first and count by address (type(c_ptr), value): c_null_ptr is how a rank that
    ! refuses its own arguments still joins the refresh, failing it everywhere.
    function c_hympi_node_shared_begin_write(table, writers, part, first, count) &
        bind(c, name="hympi_node_shared_begin_write") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: table
      integer(c_int), value :: writers
      type(c_ptr), value :: part, first, count
      integer(c_int) :: code
    end function c_hympi_node_shared_begin_write
    function c_hympi_node_shared_end_write(table, error) bind(c, name="hympi_node_shared_end_write") result(code)
      import :: c_int, c_ptr
      type(c_ptr), value :: table, error
      integer(c_int) :: code
    end function c_hympi_node_shared_end_write
  end interface
end module hympi_c_api
