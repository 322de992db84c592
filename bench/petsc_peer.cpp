#include "petsc_peer.hpp"

#ifdef HYMPI_BENCH_PETSC

#include <mpi.h>
#include <petscsf.h>

#include <memory>
#include <string>
#include <vector>

namespace hympi::bench {
namespace {

void check(PetscErrorCode code, const char* what) {
  if (code != 0) throw Error(std::string("hympi-bench: PETSc ") + what + " failed with error " + std::to_string(code));
}

/// One PetscSF and its unit (chunk doubles), freed together.
struct Forest {
  PetscSF sf = nullptr;
  MPI_Datatype unit = MPI_DATATYPE_NULL;
  ~Forest() {
    PetscSFDestroy(&sf);
    if (unit != MPI_DATATYPE_NULL) MPI_Type_free(&unit);
  }
};

/// Leaf k (ghost recv[j] of neighbour n) is the root its sender lists at send[j]: each rank
/// tells its neighbours its send lists.
std::vector<PetscSFNode> remote_roots(const Pattern& pattern, MPI_Comm comm) {
  const auto& neighbors = pattern.neighbors();
  std::vector<std::vector<int>> their_send(neighbors.size());
  std::vector<MPI_Request> requests;
  for (std::size_t n = 0; n < neighbors.size(); ++n) {
    their_send[n].resize(neighbors[n].recv.size());
    requests.emplace_back();
    MPI_Irecv(their_send[n].data(), int(their_send[n].size()), MPI_INT, neighbors[n].rank, 0, comm, &requests.back());
    requests.emplace_back();
    MPI_Isend(neighbors[n].send.data(), int(neighbors[n].send.size()), MPI_INT, neighbors[n].rank, 0, comm,
              &requests.back());
  }
  MPI_Waitall(int(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
  std::vector<PetscSFNode> roots;
  for (std::size_t n = 0; n < neighbors.size(); ++n)
    for (int id : their_send[n]) roots.push_back({PetscInt(neighbors[n].rank), PetscInt(id)});
  return roots;
}

/// A peer that moves the wrong values would time nothing: its result must equal hympi's
/// flat_mpi update on distinct values, bit for bit, on every rank.
template <class Update>
void check_against_hympi(const Pattern& pattern, Update& update) {
  const std::size_t n = std::size_t(pattern.local_points()) * std::size_t(pattern.chunk());
  const int rank = pattern.context().topology().world_rank();
  std::vector<double> theirs(n), ours(n);
  for (std::size_t i = 0; i < n; ++i) theirs[i] = ours[i] = double(rank) * 1e6 + double(i);
  update(theirs.data());
  Halo(pattern, Strategy::flat_mpi).update(ours.data());
  int wrong = theirs != ours, any = 0;
  MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_LOR, pattern.context().topology().world());
  if (any) throw Error("hympi-bench: the PetscSF ghost update differs from hympi's flat_mpi update");
}

}  // namespace

PetscScope::PetscScope() { check(PetscInitializeNoArguments(), "PetscInitialize"); }
PetscScope::~PetscScope() { PetscFinalize(); }

std::string PetscScope::describe() const {
  char type[64] = "basic";
  PetscOptionsGetString(nullptr, nullptr, "-sf_type", type, sizeof type, nullptr);
  return "PETSc " + std::to_string(PETSC_VERSION_MAJOR) + "." + std::to_string(PETSC_VERSION_MINOR) + "." +
         std::to_string(PETSC_VERSION_SUBMINOR) + " PetscSF type " + type;
}

std::optional<Contender> petsc_contender(const Pattern& pattern, double* v) {
  if (pattern.type() != Datatype::float64) return std::nullopt;
  const MPI_Comm comm = pattern.context().topology().world();
  std::vector<PetscSFNode> roots = remote_roots(pattern, comm);
  std::vector<PetscInt> leaves;
  for (const NeighborLists& n : pattern.neighbors()) leaves.insert(leaves.end(), n.recv.begin(), n.recv.end());
  auto forest = std::make_shared<Forest>();
  MPI_Type_contiguous(pattern.chunk(), MPIU_SCALAR, &forest->unit);
  MPI_Type_commit(&forest->unit);
  check(PetscSFCreate(comm, &forest->sf), "PetscSFCreate");
  check(PetscSFSetGraph(forest->sf, pattern.local_points(), PetscInt(leaves.size()), leaves.data(), PETSC_COPY_VALUES,
                        roots.data(), PETSC_COPY_VALUES),
        "PetscSFSetGraph");
  check(PetscSFSetFromOptions(forest->sf), "PetscSFSetFromOptions");
  check(PetscSFSetUp(forest->sf), "PetscSFSetUp");
  auto update = [forest](double* x) {
    // Roots (points sent) and leaves (ghosts) are disjoint: one array serves both.
    PetscSFBcastBegin(forest->sf, forest->unit, x, x, MPI_REPLACE);
    PetscSFBcastEnd(forest->sf, forest->unit, x, x, MPI_REPLACE);
  };
  check_against_hympi(pattern, update);
  return Contender{"petsc_sf", [update, v] { update(v); }};
}

}  // namespace hympi::bench

#else

namespace hympi::bench {

PetscScope::PetscScope() = default;
PetscScope::~PetscScope() = default;
std::string PetscScope::describe() const { return {}; }
std::optional<Contender> petsc_contender(const Pattern&, double*) { return std::nullopt; }

}  // namespace hympi::bench

#endif
