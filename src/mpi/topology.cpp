#include "hympi/topology.hpp"

#include <unistd.h>

#include "mpi/mpi_check.hpp"

namespace hympi {

using mpi::check;

Topology::Topology(MPI_Comm comm, int node_size) {
  check(MPI_Comm_dup(comm, &world_), "MPI_Comm_dup");
  // hympi checks every MPI return code and reports it; the communicators derived
  // below inherit this handler.
  MPI_Comm_set_errhandler(world_, MPI_ERRORS_RETURN);
  MPI_Comm_rank(world_, &world_rank_);
  MPI_Comm_size(world_, &world_size_);

  // The physical shared-memory domain (with MPICH's MPIR_CVAR_NUM_CLIQUES, a clique).
  MPI_Comm domain;
  check(MPI_Comm_split_type(world_, MPI_COMM_TYPE_SHARED, world_rank_, MPI_INFO_NULL, &domain),
        "MPI_Comm_split_type(MPI_COMM_TYPE_SHARED)");
  int domain_rank;
  MPI_Comm_rank(domain, &domain_rank);
  MPI_Comm_size(domain, &domain_size_);
  const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  oversubscribed_ = cpus > 0 && domain_size_ > cpus;

  if (node_size > 0 && node_size < domain_size_) {
    emulated_ = true;
    check(MPI_Comm_split(domain, domain_rank / node_size, domain_rank, &node_),
          "MPI_Comm_split (emulated nodes)");
    MPI_Comm_free(&domain);
  } else {
    node_ = domain;
  }
  MPI_Comm_rank(node_, &node_rank_);
  MPI_Comm_size(node_, &node_size_);

  check(MPI_Comm_split(world_, is_leader() ? 0 : MPI_UNDEFINED, world_rank_, &leaders_),
        "MPI_Comm_split (node leaders)");
  if (is_leader()) {
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

Topology::~Topology() {
  if (leaders_ != MPI_COMM_NULL) MPI_Comm_free(&leaders_);
  if (node_ != MPI_COMM_NULL) MPI_Comm_free(&node_);
  if (world_ != MPI_COMM_NULL) MPI_Comm_free(&world_);
}

}  // namespace hympi
