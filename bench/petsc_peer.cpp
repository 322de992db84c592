// SPDX-License-Identifier: BSD-3-Clause
#include "petsc_peer.hpp"

#ifdef HYMPI_BENCH_PETSC

#include <mpi.h>
#include <petscsf.h>

#include "hympi_petsc.h"

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

/// Leaf k (ghost recv[j] of neighbour n) is the root its sender lists at send[j].
std::vector<PetscSFNode> remote_roots(const AppData& data) {
  const Pattern& pattern = data.pattern();
  const std::vector<std::vector<int>>& their_send = data.their_send();
  std::vector<PetscSFNode> roots;
  for (std::size_t n = 0; n < their_send.size(); ++n)
    for (int id : their_send[n]) roots.push_back({PetscInt(pattern.neighbors()[n].rank), PetscInt(id)});
  return roots;
}

}  // namespace

PetscScope::PetscScope() {
  check(PetscInitializeNoArguments(), "PetscInitialize");
  check(HympiPetscInitialize(), "HympiPetscInitialize");  // PETSC_OPTIONS="-sf_type hympi" works too
}
PetscScope::~PetscScope() { PetscFinalize(); }

std::string PetscScope::describe() const {
  char type[64] = "basic";
  PetscOptionsGetString(nullptr, nullptr, "-sf_type", type, sizeof type, nullptr);
  return "PETSc " + std::to_string(PETSC_VERSION_MAJOR) + "." + std::to_string(PETSC_VERSION_MINOR) + "." +
         std::to_string(PETSC_VERSION_SUBMINOR) + " PetscSF type " + type;
}

std::optional<AppData::Exchange> petsc_exchange(const AppData& data) {
  const Pattern& pattern = data.pattern();
  if (pattern.type() != Datatype::float64) return std::nullopt;
  const MPI_Comm comm = pattern.context().topology().world();
  std::vector<PetscSFNode> roots = remote_roots(data);
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
  return [forest](double* x, std::uint32_t) {
    // Roots (points sent) and leaves (ghosts) are disjoint: one array serves both.
    PetscSFBcastBegin(forest->sf, forest->unit, x, x, MPI_REPLACE);
    PetscSFBcastEnd(forest->sf, forest->unit, x, x, MPI_REPLACE);
  };
}

}  // namespace hympi::bench

#else

namespace hympi::bench {

PetscScope::PetscScope() = default;
PetscScope::~PetscScope() = default;
std::string PetscScope::describe() const { return {}; }
std::optional<AppData::Exchange> petsc_exchange(const AppData&) { return std::nullopt; }

}  // namespace hympi::bench

#endif
