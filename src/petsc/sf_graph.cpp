// SPDX-License-Identifier: BSD-3-Clause
#include "petsc/sf_graph.hpp"

#include <climits>
#include <map>
#include <vector>

namespace hympi::petsc {

PetscErrorCode read_graph(PetscSF sf, PetscSF inner, SfGraph* graph, PetscBool* usable) {
  PetscInt nroots, nleaves, maxleaf, nranks, niranks;
  const PetscInt* ilocal;
  const PetscMPIInt *ranks, *iranks;
  const PetscInt *roffset, *rmine, *rremote, *ioffset, *irootloc;
  PetscMPIInt me;

  PetscFunctionBegin;
  PetscCallMPI(MPI_Comm_rank(PetscObjectComm((PetscObject)sf), &me));
  PetscCall(PetscSFGetGraph(sf, &nroots, &nleaves, &ilocal, nullptr));
  PetscCall(PetscSFGetLeafRange(sf, nullptr, &maxleaf));
  *usable = PetscBool(nroots <= PetscInt(INT_MAX) && maxleaf < PetscInt(INT_MAX));
  if (!*usable) PetscFunctionReturn(0);
  graph->roots = int(nroots);
  graph->leaf_points = int(maxleaf + 1);
  if (ilocal) {  // no leaf twice
    std::vector<bool> seen(std::size_t(graph->leaf_points), false);
    for (PetscInt i = 0; i < nleaves; ++i) {
      if (seen[std::size_t(ilocal[i])]) {
        *usable = PETSC_FALSE;
        PetscFunctionReturn(0);
      }
      seen[std::size_t(ilocal[i])] = true;
    }
  }

  std::map<int, NeighborLists> by_rank;
  // My leaves, grouped by the rank of their roots: I receive them.
  PetscCall(PetscSFGetRootRanks(inner, &nranks, &ranks, &roffset, &rmine, &rremote));
  for (PetscInt i = 0; i < nranks; ++i)
    for (PetscInt k = roffset[i]; k < roffset[i + 1]; ++k) {
      if (ranks[i] == me) {
        graph->self_roots.push_back(int(rremote[k]));
        graph->self_leaves.push_back(int(rmine[k]));
      } else {
        by_rank[ranks[i]].recv.push_back(int(rmine[k]));
      }
    }
  // My roots, grouped by the rank of the leaves that read them, in that rank's order: I send them.
  PetscCall(PetscSFGetLeafRanks(inner, &niranks, &iranks, &ioffset, &irootloc));
  for (PetscInt j = 0; j < niranks; ++j)
    if (iranks[j] != me)
      for (PetscInt k = ioffset[j]; k < ioffset[j + 1]; ++k) by_rank[iranks[j]].send.push_back(int(irootloc[k]));
  for (auto& [rank, lists] : by_rank) {
    lists.rank = rank;
    graph->neighbors.push_back(std::move(lists));
  }
  PetscFunctionReturn(0);
}

}  // namespace hympi::petsc
