/* SPDX-License-Identifier: BSD-3-Clause */
/* hympi's C API of map_ranks (include/hympi/mapping.hpp): ranks mapped to nodes, and inside
 * a node to domains (L3 caches or sockets), by their traffic, and the reordered
 * communicator. In the library hympi_mapping (built when METIS is found; CMake:
 * hympi::mapping, pkg-config: hympi-mapping), apart from hympi.h's, so that METIS is no
 * dependency of hympi itself. Errors as in hympi.h.
 *
 *   int* new_rank = malloc(world_size * sizeof(int));
 *   hympi_map_ranks(pattern, 1, world_size, new_rank);   // collective
 *   MPI_Comm comm;
 *   hympi_reordered_comm(MPI_COMM_WORLD, world_size, new_rank, &comm);
 *   // rank r of comm now does the work old rank r did: rebuild the context and data on it
 *
 * new_rank[p] is the rank process p (old rank p) takes in the reordered communicator, and
 * with it the work it does (MPI_Dist_graph_create's convention with reorder). Ranks are
 * 0-based.
 */
#ifndef HYMPI_MAPPING_H
#define HYMPI_MAPPING_H

#include "hympi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes sent between two ranks (hympi::RankMessage). */
typedef struct hympi_rank_message {
  int from, to;
  size_t bytes;
} hympi_rank_message;

/* Collective over the pattern's context: its traffic (`fields` vectors per update, >= 1),
 * nodes from its topology and domains from hwloc. new_rank has `count` entries, the
 * context's world_size; the same permutation on every rank. Argument errors (a NULL
 * new_rank, a wrong count, fields < 1 or that differ between ranks) fail on every rank. */
int hympi_map_ranks(hympi_pattern pattern, int fields, int count, int* new_rank);

/* No MPI: the permutation of `ranks` processes, process p on node node_of[p] and domain
 * domain_of[p] (any non-negative ids; domain_of NULL: one domain per node), for `messages`
 * messages between them (either direction; repeated pairs add up). new_rank has `ranks`
 * entries. Deterministic: the same input gives the same permutation everywhere. */
int hympi_map_ranks_traffic(int ranks, const int* node_of, const int* domain_of, size_t messages,
                            const hympi_rank_message* traffic, int* new_rank);

/* Collective over comm: MPI_Comm_split with new_rank[my rank] as key; new_rank has `count`
 * entries, the communicator's size, the same permutation on every rank (else an error on
 * every rank). The caller frees *reordered (MPI_Comm_free). _f: Fortran handles. */
int hympi_reordered_comm(MPI_Comm comm, int count, const int* new_rank, MPI_Comm* reordered);
int hympi_reordered_comm_f(MPI_Fint comm, int count, const int* new_rank, MPI_Fint* reordered);

#ifdef __cplusplus
}
#endif

#endif /* HYMPI_MAPPING_H */
