// SPDX-License-Identifier: BSD-3-Clause
// The hympi side of a PetscSF of type "hympi": the SF's graph as a hympi pattern of
// separate arrays (roots are the send array, leaves the receive array:
// Pattern::from_lists_apart), the rank's own edges (a leaf whose root is on the same rank)
// as a local copy, and per unit (element type and count) a Halo, made at the unit's first
// broadcast on the graph's one validated Pattern (Pattern::with_unit: units that differ
// only in element size or count share its validation). At most one broadcast per unit is
// in flight here.
//
// Which broadcast goes where, the same on every rank when ranks interleave a unit's
// broadcasts alike (SPMD order; a rank may pass other arrays, or none):
//  - a unit's broadcast runs through hympi only when no other broadcast of that unit is
//    outstanding (begun and not ended, on either path); the count is the same on every
//    rank, whatever the arrays;
//  - one begun while another is outstanding runs on PetscSF's basic type, and an update
//    of that unit in flight through hympi is completed right then (its End finds it done).
// So a BcastEnd that matches, by its arrays, both the hympi one and a basic one (a rank
// with no roots and no leaves passes NULL for every broadcast) calls no hympi update,
// whichever it picks: every hympi update begins and ends on the same call on every rank.
#pragma once

#include <memory>
#include <optional>
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

  /// Counts a broadcast of `unit` and starts it through hympi when it may (see above) and
  /// `host` (both arrays in host memory). Collective on the SF's communicator (the first
  /// time for `unit` it builds the unit's Pattern and Halo). False: the caller moves it.
  bool begin(Unit unit, const void* root, void* leaf, bool host);
  /// Counts the end of a broadcast of `unit` begun with these arrays; true when it was
  /// hympi's (ended now, or already completed), false when the caller's.
  bool end(Unit unit, const void* root, const void* leaf);
  /// A broadcast begun and not ended.
  bool busy() const;
  Strategy strategy() const { return strategy_; }

 private:
  struct PerUnit;
  PerUnit* find(Unit unit);

  Context& context_;
  SfGraph graph_;
  Strategy strategy_;
  std::optional<Pattern> lists_;  // validated at the first unit's broadcast, with its unit
  std::vector<std::unique_ptr<PerUnit>> units_;
};

}  // namespace hympi::petsc
