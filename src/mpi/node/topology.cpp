// SPDX-License-Identifier: BSD-3-Clause
#include "hympi/topology.hpp"

#include <sched.h>

#include <vector>

#include "mpi/support/internal_comm.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi {
namespace {

using mpi::check;
using mpi::name_internal;

/// CPUs the ranks of `domain` may run on: the union of their affinity masks (a cgroup
/// cpuset or a launcher's binding restricts them; the online CPU count does not).
int usable_cpus(MPI_Comm domain) {
  cpu_set_t mine;
  CPU_ZERO(&mine);
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return CPU_SETSIZE;
  cpu_set_t all;
  CPU_ZERO(&all);
  check(MPI_Allreduce(&mine, &all, int(sizeof mine), MPI_BYTE, MPI_BOR, domain), "MPI_Allreduce (CPU masks)");
  return CPU_COUNT(&all);
}

}  // namespace

Topology::Topology(MPI_Comm comm, int node_size) {
  try {
    build(comm, node_size);
  } catch (...) {
    free_comms();
    throw;
  }
}

void Topology::build(MPI_Comm comm, int node_size) {
  // MPI refusing a communicator (MPICH has 2,046 ids per process) is a hympi::Error, not
  // the caller's handler (fatal by default): MPI refuses it on every rank at once.
  MPI_Errhandler callers;
  MPI_Comm_get_errhandler(comm, &callers);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  const int refused = MPI_Comm_dup(comm, &world_);
  MPI_Comm_set_errhandler(comm, callers);
  MPI_Errhandler_free(&callers);
  check(refused, "MPI_Comm_dup");
  // hympi checks every MPI return code and reports it; the communicators derived
  // below inherit this handler.
  MPI_Comm_set_errhandler(world_, MPI_ERRORS_RETURN);
  name_internal(world_, "context");
  MPI_Comm_rank(world_, &world_rank_);
  MPI_Comm_size(world_, &world_size_);

  // The physical shared-memory domain (with MPICH's MPIR_CVAR_NUM_CLIQUES, a clique).
  check(MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, world_rank_, MPI_INFO_NULL, &node_),
        "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  // Named before its first collective call (usable_cpus): a libhympi_pmpi loaded beside
  // this copy of hympi leaves the calls on a named communicator to MPI, and decides so at
  // the first call it sees there.
  name_internal(node_, "node");
  int domain_rank;
  MPI_Comm_rank(node_, &domain_rank);
  MPI_Comm_size(node_, &domain_size_);
  oversubscribed_ = domain_size_ > usable_cpus(node_);

  if (node_size > 0 && node_size < domain_size_) {
    emulated_ = true;
    MPI_Comm domain = node_;
    node_ = MPI_COMM_NULL;
    const int code = MPI_Comm_split(domain, domain_rank / node_size, domain_rank, &node_);
    MPI_Comm_free(&domain);
    check(code, "MPI_Comm_split (emulated nodes)");
    name_internal(node_, "node");
  }
  MPI_Comm_rank(node_, &node_rank_);
  MPI_Comm_size(node_, &node_size_);

  // Every rank gets a communicator of this split (the other ranks one of their own, kept
  // unused): so every rank's communicator ids advance alike. Open MPI 4.1 gave a later
  // MPI_Comm_idup of the program different ids on ranks whose used ids differed, and its
  // collectives then hung (MPICH's test comm/comm_idup_iallreduce, served).
  MPI_Comm& mine = is_leader() ? leaders_ : non_leaders_;
  check(MPI_Comm_split(world_, is_leader() ? 0 : 1, world_rank_, &mine), "MPI_Comm_split (node leaders)");
  if (is_leader()) {
    name_internal(leaders_, "node leaders");
    MPI_Comm_rank(leaders_, &node_index_);
    MPI_Comm_size(leaders_, &node_count_);
  }
  int counts[2] = {node_index_, node_count_};
  check(MPI_Bcast(counts, 2, MPI_INT, 0, node_), "MPI_Bcast (node index)");
  node_index_ = counts[0];
  node_count_ = counts[1];

  node_members_.resize(node_size_);
  check(MPI_Allgather(&world_rank_, 1, MPI_INT, node_members_.data(), 1, MPI_INT, node_),
        "MPI_Allgather (node members)");
  node_of_.resize(world_size_);
  check(MPI_Allgather(&node_index_, 1, MPI_INT, node_of_.data(), 1, MPI_INT, world_),
        "MPI_Allgather (node of each rank)");
}

Topology::~Topology() { free_comms(); }

void Topology::free_comms() {
  for (MPI_Comm* c : {&leaders_, &non_leaders_, &node_, &world_})
    if (*c != MPI_COMM_NULL) MPI_Comm_free(c);
}

}  // namespace hympi
