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

/// Ghosts as leaves, in the order of the pattern's neighbours.
std::vector<PetscInt> leaves_of(const Pattern& pattern) {
  std::vector<PetscInt> leaves;
  for (const NeighborLists& n : pattern.neighbors()) leaves.insert(leaves.end(), n.recv.begin(), n.recv.end());
  return leaves;
}

/// Collective: an SF on the pattern's graph; `type` null: from PETSc's options.
PetscSF make_sf(const Pattern& pattern, const std::vector<PetscInt>& leaves, const std::vector<PetscSFNode>& roots,
                PetscSFType type) {
  PetscSF sf = nullptr;
  check(PetscSFCreate(pattern.context().topology().world(), &sf), "PetscSFCreate");
  // PETSc 3.18 takes non-const arrays; PETSC_COPY_VALUES only reads them.
  check(PetscSFSetGraph(sf, pattern.local_points(), PetscInt(leaves.size()), const_cast<PetscInt*>(leaves.data()),
                        PETSC_COPY_VALUES, const_cast<PetscSFNode*>(roots.data()), PETSC_COPY_VALUES),
        "PetscSFSetGraph");
  check(type ? PetscSFSetType(sf, type) : PetscSFSetFromOptions(sf), "PetscSFSetType");
  check(PetscSFSetUp(sf), "PetscSFSetUp");
  return sf;
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

std::optional<std::function<void()>> petsc_sf_setup(const AppData& data) {
  const Pattern& pattern = data.pattern();
  if (pattern.type() != Datatype::float64) return std::nullopt;
  return [&pattern, leaves = leaves_of(pattern), roots = remote_roots(data)] {
    PetscSF sf = make_sf(pattern, leaves, roots, PETSCSFBASIC);
    PetscSFDestroy(&sf);
  };
}

std::optional<AppData::Exchange> petsc_exchange(const AppData& data) {
  const Pattern& pattern = data.pattern();
  if (pattern.type() != Datatype::float64) return std::nullopt;
  auto forest = std::make_shared<Forest>();
  MPI_Type_contiguous(pattern.chunk(), MPIU_SCALAR, &forest->unit);
  MPI_Type_commit(&forest->unit);
  forest->sf = make_sf(pattern, leaves_of(pattern), remote_roots(data), nullptr);
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
std::optional<std::function<void()>> petsc_sf_setup(const AppData&) { return std::nullopt; }

}  // namespace hympi::bench

#endif
