// The hympi side of a PetscSF of type "hympi": the SF's graph as a hympi pattern of
// separate arrays (roots are the send array, leaves the receive array:
// Pattern::from_lists_apart), the rank's own edges (a leaf whose root is on the same rank)
// as a local copy, and per unit (element type and count) a Pattern and a Halo, made at the
// unit's first broadcast. At most one broadcast per unit is in flight here; the SF
// delegates another one begun meanwhile to PetscSF's basic type.
#pragma once

#include <memory>
#include <vector>

#include "hympi/halo.hpp"
#include "petsc/unit.hpp"

namespace hympi::petsc {

/// A PetscSF graph in hympi's terms, on one rank.
struct SfGraph {
  int roots = 0;        // the root (send) array's units: nroots
  int leaf_points = 0;  // the leaf (receive) array's units: largest leaf index + 1
  std::vector<NeighborLists> neighbors;      // other ranks: my roots they read, my leaves they fill
  std::vector<int> self_roots, self_leaves;  // own edges: root self_roots[i] -> leaf self_leaves[i]
};

class SfExchange {
 public:
  SfExchange(Context& context, SfGraph graph, Strategy strategy);
  ~SfExchange();
  SfExchange(const SfExchange&) = delete;
  SfExchange& operator=(const SfExchange&) = delete;

  /// Starts root -> leaf for `unit`. Collective on the SF's communicator (the first time for
  /// `unit` it builds the unit's Pattern and Halo). False, with nothing done, when an update
  /// of this unit is already in flight: the caller moves this one otherwise.
  bool begin(Unit unit, const void* root, void* leaf);
  /// Ends the update begun with these arguments; false when none is in flight here.
  bool end(Unit unit, const void* root, const void* leaf);
  /// An update begun and not ended.
  bool busy() const;
  Strategy strategy() const { return strategy_; }

 private:
  struct PerUnit;
  PerUnit* find(Unit unit);

  Context& context_;
  SfGraph graph_;
  Strategy strategy_;
  std::vector<std::unique_ptr<PerUnit>> units_;
};

}  // namespace hympi::petsc
