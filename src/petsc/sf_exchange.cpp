#include "petsc/sf_exchange.hpp"

#include <algorithm>

#include "halo/copy_plan.hpp"

namespace hympi::petsc {

struct SfExchange::PerUnit {
  Unit unit;
  Pattern pattern;
  Halo halo;
  halo::CopyPlan self;  // own edges, in units of this size
  const void* root = nullptr;
  void* leaf = nullptr;
  bool in_flight = false;

  PerUnit(Context& context, const SfGraph& g, Unit u, Strategy strategy)
      : unit(u),
        pattern(Pattern::from_lists_apart(context, g.roots, g.leaf_points, g.neighbors, u.count, u.type)),
        halo(pattern, strategy),
        self(g.self_roots, g.self_leaves, g.self_roots.size(), std::size_t(u.count) * size_of(u.type)) {}
};

SfExchange::SfExchange(Context& context, SfGraph graph, Strategy strategy)
    : context_(context), graph_(std::move(graph)), strategy_(strategy) {}

SfExchange::~SfExchange() = default;

SfExchange::PerUnit* SfExchange::find(Unit unit) {
  auto it = std::find_if(units_.begin(), units_.end(), [&](const auto& u) { return u->unit == unit; });
  return it == units_.end() ? nullptr : it->get();
}

bool SfExchange::begin(Unit unit, const void* root, void* leaf) {
  PerUnit* u = find(unit);
  if (!u) u = units_.emplace_back(std::make_unique<PerUnit>(context_, graph_, unit, strategy_)).get();
  if (u->in_flight) return false;
  u->root = root;
  u->leaf = leaf;
  u->halo.begin(std::span<const void* const>(&u->root, 1), std::span<void* const>(&u->leaf, 1));
  u->in_flight = true;
  // Own edges while the neighbours' data is on its way.
  u->self.run(static_cast<const std::byte*>(root), static_cast<std::byte*>(leaf));
  return true;
}

bool SfExchange::end(Unit unit, const void* root, const void* leaf) {
  PerUnit* u = find(unit);
  if (!u || !u->in_flight || u->root != root || u->leaf != leaf) return false;
  u->halo.end(std::span<const void* const>(&u->root, 1), std::span<void* const>(&u->leaf, 1));
  u->in_flight = false;
  return true;
}

bool SfExchange::busy() const {
  return std::any_of(units_.begin(), units_.end(), [](const auto& u) { return u->in_flight; });
}

}  // namespace hympi::petsc
