! SPDX-License-Identifier: BSD-3-Clause
! Over 500 lines: Fortran declares a submodule procedure's interface in its parent module, so every one stands here.
! hympi_core: the handle types of the hympi module and the interfaces of its procedures
! that do not depend on an element type; their bodies are in the submodules
! hympi_core_{support,context,pattern,halo,grid,node_shared}.f90. The procedures generic over the four
! element types are in hympi_typed.inc, over the kind-free any_* procedures declared here.
! Fortran codes `use hympi` (hympi.f90), which publishes the API; this module is internal.
!
! Conventions of the Fortran binding (docs/usage.md, section Fortran):
!  - local point ids, neighbour indices and field numbers are 1-based; ranks, node numbers
!    and process-grid coordinates are 0-based, as in MPI; global grid indices are 1-based.
!  - every procedure takes an optional `ierr`: present, it gets the code (HYMPI_SUCCESS or
!    HYMPI_ERR_*); absent, an error gives "hympi: <message>" to the message handler
!    (stderr by default) and stops the program (error stop), as MPI's bindings do.
!  - an argument only the calling rank can see is wrong (a non-contiguous array, a size or
!    element type that does not fit, malformed CSR offsets) is HYMPI_ERR_ARGUMENT on that
!    rank alone, before any communication, as in the C API; errors of collective calls
!    come from the library, on every rank.
! Invariant: a handle's ptr is NULL or a live object of the C API; hympi_halo's elements,
! datatype and fields describe the pattern the halo was created from.
module hympi_core
  ! Everything the submodules use too (they see it by host association).
  use, intrinsic :: iso_c_binding
  use mpi_f08, only: MPI_Comm
  use hympi_c_api
  implicit none
  private

  ! --- handles: default-initialized to NULL (no object); *_free sets them back to NULL
  type, public :: hympi_context
    private
    type(c_ptr) :: ptr = c_null_ptr
    integer :: rank = -1            ! this rank in the context's communicator
  end type hympi_context

  type, public :: hympi_pattern
    private
    type(c_ptr) :: ptr = c_null_ptr
  end type hympi_pattern

  type, public :: hympi_halo
    private
    type(c_ptr) :: ptr = c_null_ptr
    integer(c_size_t) :: elements = 0       ! one field's elements: local_points (send_points) * chunk
    integer(c_size_t) :: recv_elements = 0  ! recv_points * chunk (= elements for one array)
    integer :: datatype = -1
    integer :: fields = 0
  end type hympi_halo

  type, public :: hympi_grid
    private
    type(c_ptr) :: ptr = c_null_ptr
  end type hympi_grid

  ! One array per node in shared memory (hympi_node_shared_create): `count` elements of
  ! `datatype`, read through hympi_node_shared_data, written between
  ! hympi_node_shared_begin_write and hympi_node_shared_end_write.
  type, public :: hympi_node_shared
    private
    type(c_ptr) :: ptr = c_null_ptr
    integer :: datatype = -1
  end type hympi_node_shared

  ! One rank's block of a structured grid, per dimension x, y, z (flat dimensions: 1 and no
  ! ghosts). begin is the global index (1-based) of its first owned point, coords its place
  ! in the process grid (0-based, as MPI_Cart_coords). Stored with its ghosts as
  ! u(1-halo(1):size(1)+halo(1), 1-halo(2):size(2)+halo(2), 1-halo(3):size(3)+halo(3)).
  type, public :: hympi_block
    integer :: global(3) = 1, dims(3) = 1, coords(3) = 0, begin(3) = 1, size(3) = 1, halo(3) = 0
    integer :: local_points = 0   ! owned and ghost points
    integer :: owned_points = 0
  end type hympi_block

  ! One field of a several-field update, made by hympi_field_of(u) (u: target or pointer).
  type, public :: hympi_field
    private
    type(c_ptr) :: ptr = c_null_ptr
    integer(c_size_t) :: elements = 0
    integer :: datatype = -1
    logical :: contiguous = .false.
  end type hympi_field

  ! --- public API (re-exported by module hympi) --------------------------------------
  public :: hympi_version, hympi_error_string, hympi_last_error_message
  public :: hympi_strategy_name, hympi_strategy_from_name, hympi_stencil_name, hympi_stencil_from_name, &
            hympi_datatype_name, hympi_op_name
  public :: hympi_options_default, hympi_options_from_env, hympi_options_describe
  public :: hympi_context_create, hympi_context_free, hympi_context_options, hympi_context_topology, &
            hympi_context_comm, hympi_barrier
  public :: hympi_pattern_from_lists, hympi_pattern_from_lists_apart, hympi_pattern_from_owners, &
            hympi_pattern_free, hympi_pattern_info, hympi_pattern_points, hympi_pattern_neighbor, hympi_order_local_ids
  public :: hympi_halo_create, hympi_halo_free, hympi_halo_strategy, hympi_halo_fields, hympi_halo_stats_get, &
            hympi_halo_trials, hympi_halo_begin, hympi_halo_end, hympi_halo_update, hympi_halo_acquire, &
            hympi_halo_begin_buffers, hympi_halo_end_buffers
  public :: hympi_grid_create, hympi_grid_free, hympi_grid_block, hympi_grid_pattern, hympi_grid_cart, &
            hympi_block_index
  public :: hympi_node_shared_create, hympi_node_shared_free, hympi_node_shared_end_write
  public :: hympi_c_handle
  ! --- for the typed procedures (hympi_typed.inc) only --------------------------------
  public :: finish, any_allreduce, any_allreduce_in_place, any_reduce, any_bcast, any_halo_vectors, &
            any_halo_apart, any_field, any_halo_buffer, any_halo_shared_field, any_node_shared_data, &
            any_node_shared_begin_write
  public :: HALO_BEGIN, HALO_END, HALO_UPDATE
  ! --- for module hympi_mapping (hympi_mapping.f90) only -------------------------------
  public :: c_code, argument_error

  ! The C API's handle of an object (hympi_context, hympi_pattern, hympi_halo, hympi_grid,
  ! hympi_node_shared of include/hympi.h; c_null_ptr for no object), for C code a Fortran program calls; the
  ! object stays the Fortran handle's: free it from Fortran.
  interface hympi_c_handle
    module procedure context_c_handle, pattern_c_handle, halo_c_handle, grid_c_handle, node_shared_c_handle
  end interface hympi_c_handle

  ! Phases of a vectors-mode call.
  integer, parameter :: HALO_BEGIN = 1, HALO_END = 2, HALO_UPDATE = 3

  ! --- errors, names, version, options (hympi_core_support.f90) -----------------------
  interface
    ! The library's version (may differ from HYMPI_VERSION_*, the module's).
    module subroutine hympi_version(major, minor, patch)
      integer, intent(out) :: major, minor, patch
    end subroutine hympi_version
    ! "HYMPI_ERR_USAGE: ..." for a code.
    module function hympi_error_string(code) result(text)
      integer, intent(in) :: code
      character(:), allocatable :: text
    end function hympi_error_string
    ! The message of the last error ("" when none): of the binding's own checks or of the library.
    module function hympi_last_error_message() result(text)
      character(:), allocatable :: text
    end function hympi_last_error_message
    module function hympi_strategy_name(strategy) result(name)
      integer, intent(in) :: strategy
      character(:), allocatable :: name
    end function hympi_strategy_name
    module subroutine hympi_strategy_from_name(name, strategy, ierr)
      character(*), intent(in) :: name
      integer, intent(out) :: strategy
      integer, intent(out), optional :: ierr
    end subroutine hympi_strategy_from_name
    module function hympi_stencil_name(stencil) result(name)
      integer, intent(in) :: stencil
      character(:), allocatable :: name
    end function hympi_stencil_name
    module subroutine hympi_stencil_from_name(name, stencil, ierr)
      character(*), intent(in) :: name
      integer, intent(out) :: stencil
      integer, intent(out), optional :: ierr
    end subroutine hympi_stencil_from_name
    module function hympi_datatype_name(datatype) result(name)
      integer, intent(in) :: datatype
      character(:), allocatable :: name
    end function hympi_datatype_name
    module function hympi_op_name(op) result(name)
      integer, intent(in) :: op
      character(:), allocatable :: name
    end function hympi_op_name
    module subroutine hympi_options_default(options, ierr)
      type(hympi_options), intent(out) :: options
      integer, intent(out), optional :: ierr
    end subroutine hympi_options_default
    ! The defaults overridden by the HYMPI_* environment variables.
    module subroutine hympi_options_from_env(options, ierr)
      type(hympi_options), intent(out) :: options
      integer, intent(out), optional :: ierr
    end subroutine hympi_options_from_env
    ! One line describing `options`.
    module subroutine hympi_options_describe(options, text, ierr)
      type(hympi_options), intent(in) :: options
      character(:), allocatable, intent(out) :: text
      integer, intent(out), optional :: ierr
    end subroutine hympi_options_describe

    ! ierr present: ierr = code. Absent and code /= HYMPI_SUCCESS: gives "hympi: <message>"
    ! to the message handler (stderr by default) and stops (error stop).
    module subroutine finish(code, ierr)
      integer, intent(in) :: code
      integer, intent(out), optional :: ierr
    end subroutine finish
  end interface

  ! Helpers of the submodules (private).
  interface
    ! A library call's code; forgets the binding's own last message.
    module function c_code(code) result(r)
      integer, intent(in) :: code
      integer :: r
    end function c_code
    ! Records `message` as the last error; returns HYMPI_ERR_ARGUMENT.
    module function argument_error(message) result(code)
      character(*), intent(in) :: message
      integer :: code
    end function argument_error
    ! x's address and elements; HYMPI_ERR_ARGUMENT (naming `what` in `where`) when x is not
    ! contiguous. A zero-size x gets a valid address to no data.
    module function locate(x, what, where, address, elements) result(code)
      type(*), dimension(..), intent(in), target :: x
      character(*), intent(in) :: what, where
      type(c_ptr), intent(out) :: address
      integer(c_size_t), intent(out) :: elements
      integer :: code
    end function locate
    ! Where a zero-size array points: a valid address with no data read or written.
    module function no_data() result(address)
      type(c_ptr) :: address
    end function no_data
    ! A NUL-terminated C string as a Fortran string ("" for NULL).
    module function from_c(s) result(text)
      type(c_ptr), intent(in) :: s
      character(:), allocatable :: text
    end function from_c
    ! "real(c_double)", ... for a datatype: how the messages name it.
    module function fortran_type_name(datatype) result(name)
      integer, intent(in) :: datatype
      character(:), allocatable :: name
    end function fortran_type_name
    ! Bytes per element of a datatype.
    module function element_bytes(datatype) result(bytes)
      integer, intent(in) :: datatype
      integer(c_size_t) :: bytes
    end function element_bytes
    ! `address` advanced by `bytes`.
    module function advance(address, bytes) result(moved)
      type(c_ptr), intent(in) :: address
      integer(c_size_t), intent(in) :: bytes
      type(c_ptr) :: moved
    end function advance
    ! x when present, else default.
    pure module function value_or(x, default) result(v)
      integer, intent(in), optional :: x
      integer, intent(in) :: default
      integer(c_int) :: v
    end function value_or
    ! The decimal text of an integer.
    module function str(value) result(text)
      integer(c_int64_t), intent(in) :: value
      character(:), allocatable :: text
    end function str
  end interface

  ! --- context and collectives (hympi_core_context.f90) --------------------------------
  ! Collective over comm: a type(MPI_Comm) (use mpi_f08) or an integer handle (use mpi).
  ! options absent: hympi_options_from_env().
  interface hympi_context_create
    module subroutine context_create_f08(comm, context, options, ierr)
      type(MPI_Comm), intent(in) :: comm
      type(hympi_context), intent(out) :: context
      type(hympi_options), intent(in), optional :: options
      integer, intent(out), optional :: ierr
    end subroutine context_create_f08
    module subroutine context_create_integer(comm, context, options, ierr)
      integer, intent(in) :: comm
      type(hympi_context), intent(out) :: context
      type(hympi_options), intent(in), optional :: options
      integer, intent(out), optional :: ierr
    end subroutine context_create_integer
  end interface hympi_context_create

  ! The context's communicators (owned by it: do not free): kind HYMPI_COMM_WORLD, _NODE or
  ! _LEADERS (MPI_COMM_NULL on ranks that lead no node), as type(MPI_Comm) or integer.
  interface hympi_context_comm
    module subroutine context_comm_f08(context, kind, comm, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: kind
      type(MPI_Comm), intent(out) :: comm
      integer, intent(out), optional :: ierr
    end subroutine context_comm_f08
    module subroutine context_comm_integer(context, kind, comm, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: kind
      integer, intent(out) :: comm
      integer, intent(out), optional :: ierr
    end subroutine context_comm_integer
  end interface hympi_context_comm

  interface
    ! Collective; sets context to no object. Patterns, halos and grids made from it first.
    module subroutine hympi_context_free(context, ierr)
      type(hympi_context), intent(inout) :: context
      integer, intent(out), optional :: ierr
    end subroutine hympi_context_free
    module subroutine hympi_context_options(context, options, ierr)
      type(hympi_context), intent(in) :: context
      type(hympi_options), intent(out) :: options
      integer, intent(out), optional :: ierr
    end subroutine hympi_context_options
    module subroutine hympi_context_topology(context, info, ierr)
      type(hympi_context), intent(in) :: context
      type(hympi_topology_info), intent(out) :: info
      integer, intent(out), optional :: ierr
    end subroutine hympi_context_topology
    module subroutine hympi_barrier(context, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(out), optional :: ierr
    end subroutine hympi_barrier

    ! Kind-free collectives: x's elements are of `datatype`.
    module subroutine any_allreduce(context, in, out, datatype, op, code)
      type(hympi_context), intent(in) :: context
      type(*), dimension(..), intent(in), target :: in
      type(*), dimension(..), intent(inout), target :: out
      integer, intent(in) :: datatype, op
      integer, intent(out) :: code
    end subroutine any_allreduce
    module subroutine any_allreduce_in_place(context, x, datatype, op, code)
      type(hympi_context), intent(in) :: context
      type(*), dimension(..), intent(inout), target :: x
      integer, intent(in) :: datatype, op
      integer, intent(out) :: code
    end subroutine any_allreduce_in_place
    module subroutine any_reduce(context, in, out, datatype, op, root, code)
      type(hympi_context), intent(in) :: context
      type(*), dimension(..), intent(in), target :: in
      type(*), dimension(..), intent(inout), target :: out
      integer, intent(in) :: datatype, op, root
      integer, intent(out) :: code
    end subroutine any_reduce
    module subroutine any_bcast(context, x, datatype, root, code)
      type(hympi_context), intent(in) :: context
      type(*), dimension(..), intent(inout), target :: x
      integer, intent(in) :: datatype, root
      integer, intent(out) :: code
    end subroutine any_bcast
  end interface

  ! --- patterns (hympi_core_pattern.f90) ---------------------------------------------
  ! Collective: local point p has global id global_ids(p) (any unique labels, integer(8)
  ! or integer) and owner rank owners(p) (0-based).
  interface hympi_pattern_from_owners
    module subroutine pattern_from_owners_i8(context, global_ids, owners, pattern, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer(c_int64_t), intent(in) :: global_ids(:)
      integer, intent(in) :: owners(:)
      type(hympi_pattern), intent(out) :: pattern
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine pattern_from_owners_i8
    module subroutine pattern_from_owners_i4(context, global_ids, owners, pattern, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: global_ids(:)
      integer, intent(in) :: owners(:)
      type(hympi_pattern), intent(out) :: pattern
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine pattern_from_owners_i4
  end interface hympi_pattern_from_owners

  interface
    ! Collective, validated on every rank. Neighbour n (1 .. size(nbr_ranks)) is rank
    ! nbr_ranks(n) (0-based); it receives my local points send_ids(send_ptr(n) :
    ! send_ptr(n+1)-1) and fills my ghosts recv_ids(recv_ptr(n) : recv_ptr(n+1)-1), ids
    ! 1-based (CSR: send_ptr(1) = 1, send_ptr(n+1) = size(send_ids) + 1). chunk values per
    ! point (default 1) of datatype (default HYMPI_FLOAT64).
    module subroutine hympi_pattern_from_lists(context, local_points, nbr_ranks, send_ptr, send_ids, recv_ptr, &
                                               recv_ids, pattern, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: local_points
      integer, intent(in) :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
      type(hympi_pattern), intent(out) :: pattern
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_from_lists
    ! Collective: separate arrays (PetscSF's roots and leaves): send_ids index a send array
    ! of send_points points, recv_ids a receive array of recv_points points; a point may be
    ! sent to several neighbours or twice to one, none is received twice. Lists as in
    ! hympi_pattern_from_lists; its halos move data with hympi_halo_*_apart only.
    module subroutine hympi_pattern_from_lists_apart(context, send_points, recv_points, nbr_ranks, send_ptr, &
                                                     send_ids, recv_ptr, recv_ids, pattern, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: send_points, recv_points
      integer, intent(in) :: nbr_ranks(:), send_ptr(:), send_ids(:), recv_ptr(:), recv_ids(:)
      type(hympi_pattern), intent(out) :: pattern
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_from_lists_apart
    ! Local; sets pattern to no object.
    module subroutine hympi_pattern_free(pattern, ierr)
      type(hympi_pattern), intent(inout) :: pattern
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_free
    module subroutine hympi_pattern_info(pattern, local_points, chunk, datatype, neighbor_count, ierr)
      type(hympi_pattern), intent(in) :: pattern
      integer, intent(out), optional :: local_points, chunk, datatype, neighbor_count
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_info
    ! Points of the send and of the receive array (both local_points for one array);
    ! apart: made by hympi_pattern_from_lists_apart (local_points of hympi_pattern_info is -1).
    module subroutine hympi_pattern_points(pattern, send_points, recv_points, apart, ierr)
      type(hympi_pattern), intent(in) :: pattern
      integer, intent(out), optional :: send_points, recv_points
      logical, intent(out), optional :: apart
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_points
    ! Neighbour n (1 .. neighbor_count, sorted by rank): its rank and lists (1-based ids).
    module subroutine hympi_pattern_neighbor(pattern, n, rank, send, recv, ierr)
      type(hympi_pattern), intent(in) :: pattern
      integer, intent(in) :: n
      integer, intent(out) :: rank
      integer, allocatable, intent(out) :: send(:), recv(:)
      integer, intent(out), optional :: ierr
    end subroutine hympi_pattern_neighbor
    ! Collective: the renumbering inner | boundary | ghost; new_id(old id) = new id (both
    ! 1-based); ordered is the same exchange renumbered.
    module subroutine hympi_order_local_ids(pattern, new_id, inner, boundary, ghosts, ordered, ierr)
      type(hympi_pattern), intent(in) :: pattern
      integer, allocatable, intent(out) :: new_id(:)
      integer, intent(out) :: inner, boundary, ghosts
      type(hympi_pattern), intent(out) :: ordered
      integer, intent(out), optional :: ierr
    end subroutine hympi_order_local_ids
  end interface

  ! --- halos (hympi_core_halo.f90) -----------------------------------------------------
  ! Collective: strategy HYMPI_STRATEGY_* or its name ("shm", "aggregated", ...); fields
  ! per update (default 1); mode HYMPI_MODE_VECTORS (default) or HYMPI_MODE_BUFFERS.
  interface hympi_halo_create
    module subroutine halo_create_enum(pattern, strategy, halo, fields, mode, ierr)
      type(hympi_pattern), intent(in) :: pattern
      integer, intent(in) :: strategy
      type(hympi_halo), intent(out) :: halo
      integer, intent(in), optional :: fields, mode
      integer, intent(out), optional :: ierr
    end subroutine halo_create_enum
    module subroutine halo_create_name(pattern, strategy, halo, fields, mode, ierr)
      type(hympi_pattern), intent(in) :: pattern
      character(*), intent(in) :: strategy
      type(hympi_halo), intent(out) :: halo
      integer, intent(in), optional :: fields, mode
      integer, intent(out), optional :: ierr
    end subroutine halo_create_name
  end interface hympi_halo_create

  ! Several fields, one array each: [hympi_field_of(u), hympi_field_of(v)]. The typed
  ! procedures (one array, any rank) extend these generics.
  interface hympi_halo_begin
    module subroutine halo_begin_fields(halo, fields, ierr)
      type(hympi_halo), intent(in) :: halo
      type(hympi_field), intent(in) :: fields(:)
      integer, intent(out), optional :: ierr
    end subroutine halo_begin_fields
  end interface hympi_halo_begin
  interface hympi_halo_end
    module subroutine halo_end_fields(halo, fields, ierr)
      type(hympi_halo), intent(in) :: halo
      type(hympi_field), intent(in) :: fields(:)
      integer, intent(out), optional :: ierr
    end subroutine halo_end_fields
  end interface hympi_halo_end
  interface hympi_halo_update
    module subroutine halo_update_fields(halo, fields, ierr)
      type(hympi_halo), intent(in) :: halo
      type(hympi_field), intent(in) :: fields(:)
      integer, intent(out), optional :: ierr
    end subroutine halo_update_fields
  end interface hympi_halo_update

  interface
    ! Collective; sets halo to no object.
    module subroutine hympi_halo_free(halo, ierr)
      type(hympi_halo), intent(inout) :: halo
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_free
    ! What runs (automatic's choice) and what was asked for.
    module subroutine hympi_halo_strategy(halo, running, requested, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, intent(out), optional :: running, requested
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_strategy
    module subroutine hympi_halo_fields(halo, fields, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, intent(out) :: fields
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_fields
    ! Messages and bytes one update sends from this rank.
    module subroutine hympi_halo_stats_get(halo, stats, ierr)
      type(hympi_halo), intent(in) :: halo
      type(hympi_halo_stats), intent(out) :: stats
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_stats_get
    ! automatic's trials: strategies tried and seconds per update (slowest rank).
    module subroutine hympi_halo_trials(halo, strategies, seconds, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, allocatable, intent(out) :: strategies(:)
      real(c_double), allocatable, intent(out) :: seconds(:)
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_trials
    ! Buffers mode: acquire, fill send buffers, begin_buffers, end_buffers, read receive buffers.
    module subroutine hympi_halo_acquire(halo, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_acquire
    module subroutine hympi_halo_begin_buffers(halo, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_begin_buffers
    module subroutine hympi_halo_end_buffers(halo, ierr)
      type(hympi_halo), intent(in) :: halo
      integer, intent(out), optional :: ierr
    end subroutine hympi_halo_end_buffers

    ! Kind-free halo calls: x holds the halo's fields (one: at least local_points * chunk
    ! elements; k > 1: along x's last dimension, of extent k).
    module subroutine any_halo_vectors(halo, x, datatype, phase, where, code)
      type(hympi_halo), intent(in) :: halo
      type(*), dimension(..), intent(inout), target :: x
      integer, intent(in) :: datatype, phase
      character(*), intent(in) :: where
      integer, intent(out) :: code
    end subroutine any_halo_vectors
    ! Separate arrays: send (send_points * chunk per field) read, recv (recv_points * chunk
    ! per field) written; fields along the last dimension as in any_halo_vectors.
    module subroutine any_halo_apart(halo, send, recv, datatype, phase, where, code)
      type(hympi_halo), intent(in) :: halo
      type(*), dimension(..), intent(in), target :: send
      type(*), dimension(..), intent(inout), target :: recv
      integer, intent(in) :: datatype, phase
      character(*), intent(in) :: where
      integer, intent(out) :: code
    end subroutine any_halo_apart
    module function any_field(x, datatype) result(field)
      type(*), dimension(..), intent(in), target :: x
      integer, intent(in) :: datatype
      type(hympi_field) :: field
    end function any_field
    ! Buffer of neighbour n (1-based), send or receive: its address and elements.
    module subroutine any_halo_buffer(halo, n, send, datatype, where, data, elements, code)
      type(hympi_halo), intent(in) :: halo
      integer, intent(in) :: n
      logical, intent(in) :: send
      integer, intent(in) :: datatype
      character(*), intent(in) :: where
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: elements
      integer, intent(out) :: code
    end subroutine any_halo_buffer
    ! Field f's (1-based) shared vector: its address and elements.
    module subroutine any_halo_shared_field(halo, f, datatype, where, data, elements, code)
      type(hympi_halo), intent(in) :: halo
      integer, intent(in) :: f
      integer, intent(in) :: datatype
      character(*), intent(in) :: where
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: elements
      integer, intent(out) :: code
    end subroutine any_halo_shared_field
  end interface

  ! --- structured grids (hympi_core_grid.f90) ------------------------------------------
  ! Collective. global: 2 or 3 extents, as the stencil (HYMPI_STENCIL_* or its name)
  ! needs; width ghost layers (default 1); reorder (default .false.) lets MPI_Cart_create
  ! place blocks; chunk (default 1) values per point of datatype (default HYMPI_FLOAT64).
  interface hympi_grid_create
    module subroutine grid_create_enum(context, global, stencil, grid, width, reorder, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: global(:)
      integer, intent(in) :: stencil
      type(hympi_grid), intent(out) :: grid
      integer, intent(in), optional :: width
      logical, intent(in), optional :: reorder
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine grid_create_enum
    module subroutine grid_create_name(context, global, stencil, grid, width, reorder, chunk, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer, intent(in) :: global(:)
      character(*), intent(in) :: stencil
      type(hympi_grid), intent(out) :: grid
      integer, intent(in), optional :: width
      logical, intent(in), optional :: reorder
      integer, intent(in), optional :: chunk, datatype
      integer, intent(out), optional :: ierr
    end subroutine grid_create_name
  end interface hympi_grid_create

  ! The Cartesian communicator (owned by the grid), as type(MPI_Comm) or integer.
  interface hympi_grid_cart
    module subroutine grid_cart_f08(grid, cart, ierr)
      type(hympi_grid), intent(in) :: grid
      type(MPI_Comm), intent(out) :: cart
      integer, intent(out), optional :: ierr
    end subroutine grid_cart_f08
    module subroutine grid_cart_integer(grid, cart, ierr)
      type(hympi_grid), intent(in) :: grid
      integer, intent(out) :: cart
      integer, intent(out), optional :: ierr
    end subroutine grid_cart_integer
  end interface hympi_grid_cart

  interface
    ! Collective; sets grid to no object.
    module subroutine hympi_grid_free(grid, ierr)
      type(hympi_grid), intent(inout) :: grid
      integer, intent(out), optional :: ierr
    end subroutine hympi_grid_free
    module subroutine hympi_grid_block(grid, block, ierr)
      type(hympi_grid), intent(in) :: grid
      type(hympi_block), intent(out) :: block
      integer, intent(out), optional :: ierr
    end subroutine hympi_grid_block
    ! A new pattern for the grid's ghost update (free it with hympi_pattern_free).
    module subroutine hympi_grid_pattern(grid, pattern, ierr)
      type(hympi_grid), intent(in) :: grid
      type(hympi_pattern), intent(out) :: pattern
      integer, intent(out), optional :: ierr
    end subroutine hympi_grid_pattern
    ! The local id (1-based) of point (i, j, k) of the block, each from 1 - halo to
    ! size + halo (k absent: 1).
    pure module function hympi_block_index(block, i, j, k) result(id)
      type(hympi_block), intent(in) :: block
      integer, intent(in) :: i, j
      integer, intent(in), optional :: k
      integer :: id
    end function hympi_block_index
  end interface

  ! --- node-shared arrays (hympi_core_node_shared.f90) ------------------------------------
  ! Collective: `count` zeroed elements of datatype (default HYMPI_FLOAT64) per node, the
  ! same count and datatype on every rank.
  interface hympi_node_shared_create
    module subroutine node_shared_create_i4(context, count, table, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer(c_int32_t), intent(in) :: count
      type(hympi_node_shared), intent(out) :: table
      integer, intent(in), optional :: datatype
      integer, intent(out), optional :: ierr
    end subroutine node_shared_create_i4
    module subroutine node_shared_create_i8(context, count, table, datatype, ierr)
      type(hympi_context), intent(in) :: context
      integer(c_int64_t), intent(in) :: count
      type(hympi_node_shared), intent(out) :: table
      integer, intent(in), optional :: datatype
      integer, intent(out), optional :: ierr
    end subroutine node_shared_create_i8
  end interface hympi_node_shared_create

  interface
    ! Collective; sets table to no object.
    module subroutine hympi_node_shared_free(table, ierr)
      type(hympi_node_shared), intent(inout) :: table
      integer, intent(out), optional :: ierr
    end subroutine hympi_node_shared_free
    ! Collective, after hympi_node_shared_begin_write and this rank's writes. error present
    ! and not blank: this rank's writes failed, and every rank gets HYMPI_ERR_USAGE with
    ! "hympi: NodeShared: a writer failed: <error>".
    module subroutine hympi_node_shared_end_write(table, error, ierr)
      type(hympi_node_shared), intent(in) :: table
      character(*), intent(in), optional :: error
      integer, intent(out), optional :: ierr
    end subroutine hympi_node_shared_end_write
    ! Kind-free parts of the typed procedures: the whole array, and the part this rank
    ! writes (elements first+1 .. first+elements of the array).
    module subroutine any_node_shared_data(table, datatype, where, data, elements, code)
      type(hympi_node_shared), intent(in) :: table
      integer, intent(in) :: datatype
      character(*), intent(in) :: where
      type(c_ptr), intent(out) :: data
      integer(c_size_t), intent(out) :: elements
      integer, intent(out) :: code
    end subroutine any_node_shared_data
    module subroutine any_node_shared_begin_write(table, writers, datatype, where, part, first, elements, code)
      type(hympi_node_shared), intent(in) :: table
      integer, intent(in) :: writers, datatype
      character(*), intent(in) :: where
      type(c_ptr), intent(out) :: part
      integer(c_size_t), intent(out) :: first, elements
      integer, intent(out) :: code
    end subroutine any_node_shared_begin_write
  end interface

contains

  type(c_ptr) pure function node_shared_c_handle(table) result(ptr)
    type(hympi_node_shared), intent(in) :: table
    ptr = table%ptr
  end function node_shared_c_handle
  type(c_ptr) pure function context_c_handle(context) result(ptr)
    type(hympi_context), intent(in) :: context
    ptr = context%ptr
  end function context_c_handle
  type(c_ptr) pure function pattern_c_handle(pattern) result(ptr)
    type(hympi_pattern), intent(in) :: pattern
    ptr = pattern%ptr
  end function pattern_c_handle
  type(c_ptr) pure function halo_c_handle(halo) result(ptr)
    type(hympi_halo), intent(in) :: halo
    ptr = halo%ptr
  end function halo_c_handle
  type(c_ptr) pure function grid_c_handle(grid) result(ptr)
    type(hympi_grid), intent(in) :: grid
    ptr = grid%ptr
  end function grid_c_handle
end module hympi_core
