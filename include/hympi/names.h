/* SPDX-License-Identifier: BSD-3-Clause */
/* Every name of hympi's public enumerations and options, in one table: each list below is
 * an X-macro, HYMPI_<LIST>(X), that calls X once per row, in order.
 *
 * Enumerations: X(name, constant, value)
 *   name      the C++ enumerator (hympi::Strategy::shm), the Python member (hympi.Strategy.shm;
 *             a Python keyword gets a trailing underscore: WaitPolicy.yield_) and the name
 *             name_of() prints and the *_from_name() functions and HYMPI_* variables parse
 *             (but Datatype, printed as its C type: "double", "float", "int32", "int64")
 *   constant  the C and Fortran constant (HYMPI_STRATEGY_SHM)
 *   value     its number: part of the ABI, so a value never changes; a new row goes last,
 *             numbered one up (every list is numbered 0, 1, 2, ... in order)
 * Options: X(field, c_type, type, doc): the fields of struct hympi_options, in order (a new
 * one also needs its member, default and variable in hympi::Options and its check in
 * src/c/options.cpp's to_options)
 *   field     the member of hympi_options, hympi::Options and Python's hympi.Options
 *   c_type    its C type in hympi_options (int, double or size_t)
 *   type      what it holds: c_type itself, bool (0 or 1), or an enumeration's C typedef
 *   doc       its environment variable and meaning (docs/settings.md says more)
 *
 * Who expands them: include/hympi.h (the C constants and hympi_options), the C++ enums
 * (include/hympi/types.hpp, halo.hpp, block.hpp, options.hpp, node_shared.hpp, with
 * HYMPI_CXX_ENUMERATOR below), their name tables (src/core/name_table.hpp, HYMPI_ROW),
 * the C API's conversions (src/c/enums.cpp, src/c/options.cpp), the Python module
 * (python/src/module.cpp, options.cpp, common.cpp); the Fortran constants and the type
 * hympi_options are generated from this file at configure time
 * (cmake/HympiNames.cmake); tests/tools/check_names.py (test tools.names) checks the rows,
 * the generated Fortran, the C++ Options' members and the docs' lists against it.
 */
#ifndef HYMPI_NAMES_H
#define HYMPI_NAMES_H

/* hympi_datatype, hympi::Datatype: element types of collectives and ghost updates */
#define HYMPI_DATATYPES(X) \
  X(float64, HYMPI_FLOAT64, 0) \
  X(float32, HYMPI_FLOAT32, 1) \
  X(int32, HYMPI_INT32, 2) \
  X(int64, HYMPI_INT64, 3)

/* hympi_op, hympi::Op: reduction operations (MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX) */
#define HYMPI_OPS(X) \
  X(sum, HYMPI_SUM, 0) \
  X(prod, HYMPI_PROD, 1) \
  X(min, HYMPI_MIN, 2) \
  X(max, HYMPI_MAX, 3)

/* hympi_strategy, hympi::Strategy: ghost-update strategies (docs/usage.md; what each
 * supports and how it is made: src/halo/strategies.cpp) */
#define HYMPI_STRATEGIES(X) \
  X(shm, HYMPI_STRATEGY_SHM, 0) \
  X(shm_direct, HYMPI_STRATEGY_SHM_DIRECT, 1) \
  X(flat_mpi, HYMPI_STRATEGY_FLAT_MPI, 2) \
  X(neighbor, HYMPI_STRATEGY_NEIGHBOR, 3) \
  X(rma_fence, HYMPI_STRATEGY_RMA_FENCE, 4) \
  X(rma_pscw, HYMPI_STRATEGY_RMA_PSCW, 5) \
  X(rma_lock, HYMPI_STRATEGY_RMA_LOCK, 6) \
  X(rma_lock_target, HYMPI_STRATEGY_RMA_LOCK_TARGET, 7) \
  X(aggregated, HYMPI_STRATEGY_AGGREGATED, 8) \
  X(aggregated_odm, HYMPI_STRATEGY_AGGREGATED_ODM, 9) \
  X(automatic, HYMPI_STRATEGY_AUTOMATIC, 10)

/* hympi_halo_mode, hympi::HaloMode: where a Halo's data comes from */
#define HYMPI_HALO_MODES(X) \
  X(vectors, HYMPI_MODE_VECTORS, 0) \
  X(buffers, HYMPI_MODE_BUFFERS, 1)

/* hympi_stencil, hympi::Stencil: stencils of CartesianGrid */
#define HYMPI_STENCILS(X) \
  X(star5, HYMPI_STENCIL_STAR5, 0) \
  X(box9, HYMPI_STENCIL_BOX9, 1) \
  X(star7, HYMPI_STENCIL_STAR7, 2) \
  X(star19, HYMPI_STENCIL_STAR19, 3) \
  X(box27, HYMPI_STENCIL_BOX27, 4)

/* hympi_wait, hympi::WaitPolicy: how a rank waits for a peer (HYMPI_WAIT) */
#define HYMPI_WAIT_POLICIES(X) \
  X(adaptive, HYMPI_WAIT_ADAPTIVE, 0) \
  X(spin, HYMPI_WAIT_SPIN, 1) \
  X(yield, HYMPI_WAIT_YIELD, 2) \
  X(sleep, HYMPI_WAIT_SLEEP, 3)

/* hympi_tree, hympi::TreeShape: shape of the intranode tree (HYMPI_TREE=kary:K | binomial) */
#define HYMPI_TREE_SHAPES(X) \
  X(kary, HYMPI_TREE_KARY, 0) \
  X(binomial, HYMPI_TREE_BINOMIAL, 1)

/* hympi_barrier_algorithm, hympi::BarrierAlgorithm: the barrier inside a node (HYMPI_BARRIER):
 *   combining      tree of arrival words carrying each call's description, tree release
 *   counter_tree   one arrival counter at the leader, tree release (Quaranta &
 *                  Maddegedara (2021), Algorithm 2)
 *   counter_flat   one arrival counter, the leader releases everyone (their Algorithm 1)
 *   dissemination  log2(n) rounds of pairwise flags (Hensgen, Finkel & Manber (1988)); default */
#define HYMPI_BARRIER_ALGORITHMS(X) \
  X(combining, HYMPI_BARRIER_COMBINING, 0) \
  X(counter_tree, HYMPI_BARRIER_COUNTER_TREE, 1) \
  X(counter_flat, HYMPI_BARRIER_COUNTER_FLAT, 2) \
  X(dissemination, HYMPI_BARRIER_DISSEMINATION, 3)

/* hympi_orders, hympi::MemoryOrders: memory orders of the protocols (HYMPI_ORDERS); seq_cst
 * is the ablation baseline of Quaranta & Maddegedara (2021), Section 4.4 */
#define HYMPI_MEMORY_ORDERS(X) \
  X(tuned, HYMPI_ORDERS_TUNED, 0) \
  X(seq_cst, HYMPI_ORDERS_SEQ_CST, 1)

/* hympi_writers, hympi::Writers: who writes in a node-shared refresh */
#define HYMPI_WRITERS(X) \
  X(leader, HYMPI_WRITERS_LEADER, 0) \
  X(slices, HYMPI_WRITERS_SLICES, 1)

/* struct hympi_options, hympi::Options (whose defaults and environment parsing are in
 * include/hympi/options.hpp and src/mpi/coll/options.cpp) */
#define HYMPI_OPTIONS(X) \
  X(node_size, int, int, "HYMPI_NODE_SIZE: emulated nodes of this many consecutive ranks; 0: real nodes") \
  X(wait, int, hympi_wait, "HYMPI_WAIT: how a rank waits for a peer") \
  X(timeout_s, double, double, "HYMPI_TIMEOUT: watchdog seconds; 0 disables it") \
  X(tree, int, hympi_tree, "HYMPI_TREE: shape of the intranode tree") \
  X(tree_arity, int, int, "K of HYMPI_TREE=kary:K") \
  X(topology_aware, int, bool, "HYMPI_TOPO_AWARE: order the tree by socket / L3 domain") \
  X(barrier, int, hympi_barrier_algorithm, "HYMPI_BARRIER: the barrier inside a node") \
  X(orders, int, hympi_orders, "HYMPI_ORDERS: memory orders of the protocols") \
  X(collective_buffer_bytes, size_t, size_t, "HYMPI_COLL_BUFFER: per-rank shared buffer of the collectives") \
  X(verify, int, bool, "HYMPI_VERIFY: cross-node argument check") \
  X(single_copy_bytes, size_t, size_t, "HYMPI_SINGLE_COPY: smallest ghost-update message read with one copy; 0: never")

/* A row as a C constant and as a field of hympi_options (include/hympi.h), and as a C++
 * enumerator (the C++ headers). */
#define HYMPI_C_ENUMERATOR(name, constant, value) constant = value,
#define HYMPI_C_OPTION_FIELD(field, c_type, type, doc) c_type field;
#define HYMPI_CXX_ENUMERATOR(name, constant, value) name = value,

#endif /* HYMPI_NAMES_H */
