/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi's C API: the whole of the C++ API (include/hympi/hympi.hpp) for C, and the layer
 * the Fortran module and the Python package are built on.
 *
 *   hympi_context ctx;
 *   if (hympi_context_create(MPI_COMM_WORLD, NULL, &ctx) != HYMPI_SUCCESS)   // collective
 *     fprintf(stderr, "%s\n", hympi_last_error_message());
 *   double local = 1.0, sum;
 *   hympi_allreduce(ctx, &local, &sum, 1, HYMPI_FLOAT64, HYMPI_SUM);
 *   hympi_halo halo;  hympi_halo_create(pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &halo);
 *   void* fields[1] = {u};
 *   hympi_halo_update(halo, 1, fields);          // or hympi_halo_begin(...); work; hympi_halo_end(...)
 *   hympi_halo_free(&halo);  hympi_context_free(&ctx);
 *
 * Errors: every function returns HYMPI_SUCCESS (0) or an error code; the message of the
 * last error of the calling thread is hympi_last_error_message(). No C++ exception crosses
 * this API and it never aborts on its own (the watchdog, HYMPI_TIMEOUT, still ends a job
 * whose peer stopped calling). Errors of collective calls (arguments that differ between
 * ranks, bad input some rank saw) are returned on every rank with the same message, as
 * the C++ API throws them. An argument only this rank can see is wrong (a NULL pointer, an
 * unknown enum value or name): HYMPI_ERR_ARGUMENT. In the collective set-ups
 * (hympi_context_create*, hympi_pattern_from_*, hympi_halo_create*, hympi_grid_create*,
 * hympi_node_shared_create)
 * it is returned on every rank of the set-up, with every such rank's reason ("hympi: Halo
 * set-up refused on rank 3: hympi_halo_create: argument 'strategy' is 10; ..."), so no rank
 * waits for one that gave up, and the collectives' buffers, types and ops fail on every
 * rank too (HYMPI_ERR_USAGE, see hympi_allreduce); elsewhere, and for a NULL handle (which
 * names no communicator), on this rank alone, before any communication. After MPI_Finalize (which releases the objects of live handles), in a
 * program that made any hympi object, every function but the hympi_*_free ones returns
 * HYMPI_ERR_USAGE and touches nothing.
 *
 * Handles are opaque pointers; *_free(&h) is collective where the C++ destructor is, sets
 * h to NULL and accepts a NULL h. Objects alive at MPI_Finalize are released inside it,
 * and freeing them afterwards makes no MPI call. A pattern, halo, grid or node-shared
 * array must be freed before the context it was made from. Ids are 0-based (local point ids, neighbour
 * indices, ranks, fields).
 */
#ifndef HYMPI_H
#define HYMPI_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "hympi/version.h" /* HYMPI_VERSION_MAJOR, _MINOR, _PATCH, _STRING, HYMPI_VERSION_GE() */
#include "hympi/names.h"   /* the enumerations' names and values, the options' fields */

/* --- errors ------------------------------------------------------------------------- */
enum {
  HYMPI_SUCCESS = 0,
  HYMPI_ERR_USAGE = 1,     /* hympi::Error: misuse or bad input, the message says what */
  HYMPI_ERR_ARGUMENT = 2,  /* a NULL handle or pointer, an unknown enum value or name */
  HYMPI_ERR_NO_MEMORY = 3, /* an allocation failed */
  HYMPI_ERR_INTERNAL = 4   /* any other failure (a bug in hympi: please report it) */
};
/* A static string naming the code ("HYMPI_ERR_USAGE: ..."); unknown codes are named so. */
const char* hympi_error_string(int code);
/* The message of the calling thread's last error ("" when none); valid until its next
 * hympi call. */
const char* hympi_last_error_message(void);
/* The library's version (may differ from the header's HYMPI_VERSION_*); a NULL pointer is
 * skipped. */
void hympi_version(int* major, int* minor, int* patch);
/* What this library is, in lines: "hympi 0.2.0 (git <commit at configure time>, <build
 * type>)", its components, the MPI it was built with and the one it runs with, the
 * compiler, its C++ flags and the HYMPI_* CMake options. A static string; callable before MPI_Init and after MPI_Finalize. */
const char* hympi_configuration(void);
/* Where hympi's own messages go: its warnings and its last words before it ends the job
 * (errors are returned, never printed). handler(message, user_data) for each, message
 * without a trailing newline; NULL silences them; hympi_default_message_handler (stderr)
 * is the default. Process-wide: set it before making objects. */
typedef void (*hympi_message_handler)(const char* message, void* user_data);
void hympi_set_message_handler(hympi_message_handler handler, void* user_data);
void hympi_default_message_handler(const char* message, void* user_data);
/* Passes `message` to the handler set now (nothing when silenced): for bindings and
 * programs whose own messages should go where hympi's go. */
void hympi_emit_message(const char* message);

/* --- enums (their names and values: hympi/names.h, shared with C++, Fortran and Python) -- */
typedef enum { HYMPI_DATATYPES(HYMPI_C_ENUMERATOR) } hympi_datatype;
typedef enum { HYMPI_OPS(HYMPI_C_ENUMERATOR) } hympi_op;
typedef enum { HYMPI_STRATEGIES(HYMPI_C_ENUMERATOR) } hympi_strategy;
typedef enum { HYMPI_HALO_MODES(HYMPI_C_ENUMERATOR) } hympi_halo_mode;
typedef enum { HYMPI_STENCILS(HYMPI_C_ENUMERATOR) } hympi_stencil;
typedef enum { HYMPI_WAIT_POLICIES(HYMPI_C_ENUMERATOR) } hympi_wait;
typedef enum { HYMPI_TREE_SHAPES(HYMPI_C_ENUMERATOR) } hympi_tree;
typedef enum { HYMPI_BARRIER_ALGORITHMS(HYMPI_C_ENUMERATOR) } hympi_barrier_algorithm;
typedef enum { HYMPI_MEMORY_ORDERS(HYMPI_C_ENUMERATOR) } hympi_orders;

/* Names as the C++ API and HYMPI_* variables spell them ("shm", "star19", ...); an unknown
 * value gives "unknown", an unknown name HYMPI_ERR_ARGUMENT listing the valid ones. */
const char* hympi_strategy_name(hympi_strategy strategy);
int hympi_strategy_from_name(const char* name, hympi_strategy* strategy);
const char* hympi_stencil_name(hympi_stencil stencil);
int hympi_stencil_from_name(const char* name, hympi_stencil* stencil);
const char* hympi_datatype_name(hympi_datatype type);
const char* hympi_op_name(hympi_op op);

/* --- options (hympi::Options; docs/settings.md) -------------------------------------- */
/* Its fields, their types and variables: HYMPI_OPTIONS in hympi/names.h. An enumeration's
 * field holds its value as an int (hympi_wait, ...), a flag 0 or 1. */
typedef struct hympi_options {
  HYMPI_OPTIONS(HYMPI_C_OPTION_FIELD)
} hympi_options;
/* The built-in defaults. */
int hympi_options_default(hympi_options* options);
/* The defaults overridden by the HYMPI_* environment variables (a malformed one is
 * HYMPI_ERR_USAGE naming it). */
int hympi_options_from_env(hympi_options* options);
/* One line describing `options`, written into text[0 .. size-1] (NUL-terminated,
 * truncated to fit); *length (may be NULL) gets the full length without the NUL. */
int hympi_options_describe(const hympi_options* options, char* text, size_t size, size_t* length);

/* --- context: topology and collectives ----------------------------------------------- */
typedef struct hympi_context_s* hympi_context;

/* Collective over comm. options NULL: hympi_options_from_env(). */
int hympi_context_create(MPI_Comm comm, const hympi_options* options, hympi_context* context);
/* The same from a Fortran communicator handle (MPI_Comm_f2c). */
int hympi_context_create_f(MPI_Fint comm, const hympi_options* options, hympi_context* context);
/* Collective. */
int hympi_context_free(hympi_context* context);
int hympi_context_options(hympi_context context, hympi_options* options);

typedef struct hympi_topology_info {
  int world_rank, world_size;  /* in the context's communicator */
  int node_index, node_count;  /* nodes (real or emulated), numbered by leader rank */
  int node_rank, node_size;    /* my place on my node; node_rank 0 is the leader */
  int domain_size;             /* ranks on my physical shared-memory domain */
  int emulated;                /* 1 with HYMPI_NODE_SIZE */
  int oversubscribed;          /* 1 when more ranks than CPUs share the domain */
} hympi_topology_info;
int hympi_context_topology(hympi_context context, hympi_topology_info* info);
typedef enum { HYMPI_COMM_WORLD = 0, HYMPI_COMM_NODE = 1, HYMPI_COMM_LEADERS = 2 } hympi_comm_kind;
/* The context's communicators (owned by it: do not free); LEADERS is MPI_COMM_NULL on
 * ranks that lead no node. _f: as a Fortran handle (MPI_Comm_c2f). */
int hympi_context_comm(hympi_context context, hympi_comm_kind kind, MPI_Comm* comm);
int hympi_context_comm_f(hympi_context context, hympi_comm_kind kind, MPI_Fint* comm);

/* Collective; same count, type, op and root on every rank (else HYMPI_ERR_USAGE
 * everywhere). A NULL buffer with a nonzero count, or a type, op or root that is none,
 * even on one rank only: HYMPI_ERR_USAGE on every rank, naming that rank, no data moved.
 * in == out is allowed (in place). Any count, including 0. */
int hympi_barrier(hympi_context context);
int hympi_allreduce(hympi_context context, const void* in, void* out, size_t count, hympi_datatype type,
                    hympi_op op);
/* Only root receives the result in out (out may be NULL elsewhere). */
int hympi_reduce(hympi_context context, const void* in, void* out, size_t count, hympi_datatype type,
                 hympi_op op, int root);
int hympi_bcast(hympi_context context, void* data, size_t count, hympi_datatype type, int root);

/* --- pattern: who sends which points to whom ----------------------------------------- */
typedef struct hympi_pattern_s* hympi_pattern;

/* What this rank exchanges with one neighbour (hympi::NeighborLists). */
typedef struct hympi_neighbor_lists {
  int rank;          /* the neighbour, in the context's communicator */
  int send_count;
  const int* send;   /* my local points it receives, in the order of its recv list */
  int recv_count;
  const int* recv;   /* my ghost points it fills, in the order of its send list */
} hympi_neighbor_lists;

/* Collective, validated on every rank (see hympi::Pattern::from_lists). The lists are copied. */
int hympi_pattern_from_lists(hympi_context context, int local_points, int neighbor_count,
                             const hympi_neighbor_lists* neighbors, int chunk, hympi_datatype type,
                             hympi_pattern* pattern);
/* Collective: local point p has global id global_ids[p] and owner rank owners[p]. */
int hympi_pattern_from_owners(hympi_context context, int local_points, const int64_t* global_ids,
                              const int* owners, int chunk, hympi_datatype type, hympi_pattern* pattern);
/* Collective: separate send and receive arrays (PetscSF's roots and leaves, MPI's sendbuf
 * and recvbuf; see hympi::Pattern::from_lists_apart): send ids index an array of
 * send_points points, recv ids one of recv_points points. A point may be sent to several
 * neighbours, or twice to one; none is received twice. Validated as from_lists; every
 * rank calls this one or from_lists. Its Halos move data with hympi_halo_*_apart only. */
int hympi_pattern_from_lists_apart(hympi_context context, int send_points, int recv_points, int neighbor_count,
                                   const hympi_neighbor_lists* neighbors, int chunk, hympi_datatype type,
                                   hympi_pattern* pattern);
/* Local (a pattern holds no MPI resource). */
int hympi_pattern_free(hympi_pattern* pattern);
/* *local_points is -1 for a pattern of separate arrays (hympi_pattern_points gives both). */
int hympi_pattern_info(hympi_pattern pattern, int* local_points, int* chunk, hympi_datatype* type,
                       int* neighbor_count);
/* Points of the send and of the receive array (both local_points for one array), and
 * *apart = 1 for a pattern of separate arrays. */
int hympi_pattern_points(hympi_pattern pattern, int* send_points, int* recv_points, int* apart);
/* Neighbour n (0 .. neighbor_count-1, sorted by rank): its lists, valid while the pattern
 * lives (NULL when a count is 0). */
int hympi_pattern_neighbor(hympi_pattern pattern, int n, hympi_neighbor_lists* lists);
/* Collective: the renumbering inner | boundary | ghost (hympi::order_local_ids). new_id
 * has local_points entries (new_id[old id]); *ordered is the same exchange renumbered. */
int hympi_order_local_ids(hympi_pattern pattern, int* new_id, int* inner, int* boundary, int* ghosts,
                          hympi_pattern* ordered);

/* --- halo: the ghost update ---------------------------------------------------------- */
typedef struct hympi_halo_s* hympi_halo;

typedef struct hympi_halo_stats {
  int internode_messages;
  size_t internode_bytes;
  int intranode_messages;
  size_t intranode_bytes;
  int single_copy_messages; /* of the intranode ones: read straight from this rank's array */
} hympi_halo_stats;

/* Collective; same strategy, fields, mode and pattern on every rank. _named: the strategy
 * by name ("shm", ...; as HYMPI_* variables and the C++ API spell it). */
int hympi_halo_create(hympi_pattern pattern, hympi_strategy strategy, int fields, hympi_halo_mode mode,
                      hympi_halo* halo);
int hympi_halo_create_named(hympi_pattern pattern, const char* strategy, int fields, hympi_halo_mode mode,
                            hympi_halo* halo);
/* Collective. */
int hympi_halo_free(hympi_halo* halo);
/* What runs (automatic's choice) and what was asked for. */
int hympi_halo_strategy(hympi_halo halo, hympi_strategy* running, hympi_strategy* requested);
int hympi_halo_fields(hympi_halo halo, int* fields);
int hympi_halo_stats_get(hympi_halo halo, hympi_halo_stats* stats);
/* automatic's trials: *count of them; the first min(capacity, count) written (either
 * array may be NULL with capacity 0). */
int hympi_halo_trials(hympi_halo halo, int capacity, hympi_strategy* strategies, double* seconds, int* count);

/* Vectors mode: `count` must equal the halo's fields; vectors[f] holds local_points *
 * chunk elements of the pattern's type. Rules of hympi::Halo (halo.hpp): begin, then end
 * with the same vectors; nothing sent is written and no ghost read in between. */
int hympi_halo_begin(hympi_halo halo, int count, void* const* vectors);
int hympi_halo_end(hympi_halo halo, int count, void* const* vectors);
int hympi_halo_update(hympi_halo halo, int count, void* const* vectors);

/* Separate arrays (a pattern from hympi_pattern_from_lists_apart): send[f] holds
 * send_points * chunk elements and is only read; recv[f] holds recv_points * chunk and
 * only its received points are written. end takes the arrays begin took; with shm_direct,
 * send[f] is hympi_halo_shared_field(f). A one-array pattern takes send == recv. */
int hympi_halo_begin_apart(hympi_halo halo, int count, const void* const* send, void* const* recv);
int hympi_halo_end_apart(hympi_halo halo, int count, const void* const* send, void* const* recv);
int hympi_halo_update_apart(hympi_halo halo, int count, const void* const* send, void* const* recv);

/* An update whose arrays fail the checks on one rank (their count, a NULL list, the
 * element type, shm_direct's shared fields) returns the error there and HYMPI_ERR_USAGE
 * naming that rank on every rank that waits for it ("hympi: Halo: rank R could not take
 * part in a ghost update (...)"), instead of a wait until the watchdog; every later call
 * of the halo returns that error: free it on every rank. hympi_halo_refuse does the same
 * for a wrapper's own checks that failed on this rank (local; `reason` in the message). */
int hympi_halo_refuse(hympi_halo halo, const char* reason);

/* Buffers mode (zero copy): acquire, fill send buffers, begin_buffers, end_buffers, read
 * receive buffers. Buffer n belongs to neighbour n; *elements counts elements of the
 * pattern's type (all fields). */
int hympi_halo_acquire(hympi_halo halo);
int hympi_halo_begin_buffers(hympi_halo halo);
int hympi_halo_end_buffers(hympi_halo halo);
int hympi_halo_send_buffer(hympi_halo halo, int neighbor, void** data, size_t* elements);
int hympi_halo_recv_buffer(hympi_halo halo, int neighbor, const void** data, size_t* elements);
/* shm_direct: field f's vector in shared memory (local_points * chunk elements, zeroed),
 * valid while the halo lives. */
int hympi_halo_shared_field(hympi_halo halo, int field, void** data);

/* --- structured grids ---------------------------------------------------------------- */
typedef struct hympi_grid_s* hympi_grid;

/* hympi::Block: per dimension x, y, z (flat dimensions: 1 and no ghosts). The local id of
 * point (i, j, k), each from -halo to size + halo - 1, is
 * (i + halo[0]) + (size[0] + 2 halo[0]) * ((j + halo[1]) + (size[1] + 2 halo[1]) * (k + halo[2])). */
typedef struct hympi_block {
  int global[3], dims[3], coords[3], begin[3], size[3], halo[3];
  int local_points;  /* owned and ghost points */
  int owned_points;
} hympi_block;

/* Collective. ndims (2 or 3) extents in global, as the stencil needs. _named: the stencil
 * by name ("star5", "19", ...). */
int hympi_grid_create(hympi_context context, int ndims, const int* global, hympi_stencil stencil, int width,
                      int reorder, int chunk, hympi_datatype type, hympi_grid* grid);
int hympi_grid_create_named(hympi_context context, int ndims, const int* global, const char* stencil, int width,
                            int reorder, int chunk, hympi_datatype type, hympi_grid* grid);
/* Collective. */
int hympi_grid_free(hympi_grid* grid);
int hympi_grid_block(hympi_grid grid, hympi_block* block);
/* A new pattern handle for the grid's ghost update (free it with hympi_pattern_free). */
int hympi_grid_pattern(hympi_grid grid, hympi_pattern* pattern);
/* The Cartesian communicator (owned by the grid). */
int hympi_grid_cart(hympi_grid grid, MPI_Comm* cart);
int hympi_grid_cart_f(hympi_grid grid, MPI_Fint* cart);

/* --- node-shared arrays: one read-only array per node -------------------------------- */
typedef struct hympi_node_shared_s* hympi_node_shared;

/* Who writes in a refresh (hympi::Writers): the node's leader all of it, or node rank k of
 * K the elements [k*count/K, (k+1)*count/K). */
typedef enum { HYMPI_WRITERS(HYMPI_C_ENUMERATOR) } hympi_writers;

/* Collective (hympi::NodeShared, include/hympi/node_shared.hpp): `count` zeroed elements
 * of `type`, one copy per node in shared memory; the same count and type on every rank. */
int hympi_node_shared_create(hympi_context context, size_t count, hympi_datatype type, hympi_node_shared* table);
/* Collective; before the context's free. */
int hympi_node_shared_free(hympi_node_shared* table);
/* The node's array (*count elements of *type; either pointer may be NULL), valid while the
 * table lives; read it only outside a write. */
int hympi_node_shared_data(hympi_node_shared table, const void** data, size_t* count, hympi_datatype* type);
/* A refresh, collective: begin_write, then each writer writes its part, then end_write on
 * every rank. *part is the writable element *first of the array and *count elements follow
 * (none, and *part NULL, on a rank that writes nothing). A writers value that differs
 * between ranks fails begin_write on every rank; a bad argument of this rank (an unknown
 * writers value, a NULL pointer) fails it here (HYMPI_ERR_ARGUMENT) and the other ranks'
 * end_write with its message. begin_write twice, or end_write without it, is
 * HYMPI_ERR_USAGE on this rank alone. */
int hympi_node_shared_begin_write(hympi_node_shared table, hympi_writers writers, void** part, size_t* first,
                                  size_t* count);
/* `error` NULL or "": this rank's part is written; else what went wrong, and every rank's
 * end_write returns HYMPI_ERR_USAGE with "hympi: NodeShared: a writer failed: <error>" (the
 * lowest such rank's; the array is then unspecified until the next refresh). */
int hympi_node_shared_end_write(hympi_node_shared table, const char* error);

#ifdef __cplusplus
}
#endif

#endif /* HYMPI_H */
