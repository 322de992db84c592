// SPDX-License-Identifier: BSD-3-Clause
#include "petsc/sf_exchange.hpp"

#include <algorithm>

#include "halo/copy_plan.hpp"

namespace hympi::petsc {

struct SfExchange::PerUnit {
  Unit unit;
  Pattern pattern;
  Halo halo;
  halo::CopyPlan self;  // own edges, in units of this size
  const void* root = nullptr;  // of the last broadcast through hympi
  void* leaf = nullptr;
  int outstanding = 0;         // broadcasts of this unit begun and not ended, on either path
  // The last one through hympi: in flight (then the only one outstanding), or completed
  // early with its End still to come.
  enum class Hympi { none, in_flight, completed } hympi = Hympi::none;

  PerUnit(const Pattern& lists, const SfGraph& g, Unit u, Strategy strategy)
      : unit(u),
        pattern(lists.with_unit(u.count, u.type)),
        halo(pattern, strategy),
        self(g.self_roots, g.self_leaves, g.self_roots.size(), std::size_t(u.count) * size_of(u.type)) {}

  void start(const void* r, void* l) {
    root = r;
    leaf = l;
    halo.begin(std::span<const void* const>(&root, 1), std::span<void* const>(&leaf, 1));
    hympi = Hympi::in_flight;
    // Own edges while the neighbours' data is on its way.
    self.run(static_cast<const std::byte*>(r), static_cast<std::byte*>(l));
  }

  /// Ends the update in flight; `then` is the state it leaves, set first: a failed end()
  /// leaves nothing in flight.
  void finish(Hympi then) {
    hympi = then;
    halo.end(std::span<const void* const>(&root, 1), std::span<void* const>(&leaf, 1));
  }
};

SfExchange::SfExchange(Context& context, SfGraph graph, Strategy strategy)
    : context_(context), graph_(std::move(graph)), strategy_(strategy) {}

SfExchange::~SfExchange() = default;

SfExchange::PerUnit* SfExchange::find(Unit unit) {
  auto it = std::find_if(units_.begin(), units_.end(), [&](const auto& u) { return u->unit == unit; });
  return it == units_.end() ? nullptr : it->get();
}

bool SfExchange::begin(Unit unit, const void* root, void* leaf, bool host) {
  PerUnit* u = find(unit);
  if (!u) {
    if (!lists_)
      lists_ = Pattern::from_lists_apart(context_, graph_.roots, graph_.leaf_points, graph_.neighbors, unit.count, unit.type);
    u = units_.emplace_back(std::make_unique<PerUnit>(*lists_, graph_, unit, strategy_)).get();
  }
  // Counted once nothing here can throw: a failed call (a PETSc error) leaves no count.
  if (u->outstanding > 0) {
    if (u->hympi == PerUnit::Hympi::in_flight) u->finish(PerUnit::Hympi::completed);
    ++u->outstanding;
    return false;
  }
  u->hympi = PerUnit::Hympi::none;
  if (host) u->start(root, leaf);
  ++u->outstanding;
  return host;
}

bool SfExchange::end(Unit unit, const void* root, const void* leaf) {
  PerUnit* u = find(unit);
  if (!u) return false;  // never broadcast here: the caller reports it
  if (u->outstanding == 0) {
    // Ended without a begin: the Halo's own call-order check throws here and refuses the
    // update, so the neighbours that wait in theirs for this rank fail with the error too
    // (halo/call_sequence.hpp), not at the watchdog.
    u->finish(PerUnit::Hympi::none);
    return false;
  }
  const bool mine = u->root == root && u->leaf == leaf;
  if (u->hympi == PerUnit::Hympi::in_flight) {
    if (!mine) return false;  // the only one outstanding, begun with other arrays: the caller reports it
    --u->outstanding;
    u->finish(PerUnit::Hympi::none);
    return true;
  }
  --u->outstanding;
  if (u->hympi != PerUnit::Hympi::completed || !mine) return false;
  u->hympi = PerUnit::Hympi::none;
  return true;
}

bool SfExchange::busy() const {
  return std::any_of(units_.begin(), units_.end(), [](const auto& u) { return u->outstanding > 0; });
}

}  // namespace hympi::petsc
