// SPDX-License-Identifier: BSD-3-Clause
#include "halo/strategies.hpp"

#include <array>
#include <exception>
#include <string>
#include <utility>

#include "core/name_table.hpp"
#include "halo/aggregated_exchange.hpp"
#include "halo/mpi_exchange.hpp"
#include "halo/neighbor_exchange.hpp"
#include "halo/rma_exchange.hpp"
#include "halo/shm_exchange.hpp"
#include "mpi/support/collective_error.hpp"

namespace hympi::halo {
namespace {

using MakePart = std::unique_ptr<Exchange> (*)(std::vector<PeerPlan>, const ExchangeSetup&);

/// A part made on every rank, or the same hympi::Error on every rank of the Halo: a rank
/// whose part failed after the set-up's agreement (a local MPI call such as MPI_Send_init,
/// memory for its buffers) meets the others here, instead of leaving them in the next
/// part's collective calls or in the first update. One MPI_Allreduce per part and set-up.
std::unique_ptr<Exchange> made(MakePart make, Where where, const ExchangeSetup& setup) {
  std::unique_ptr<Exchange> part;
  std::string error;
  try {
    part = make(peer_plans(setup.pattern, where), setup);
  } catch (const std::exception& e) {
    error = "hympi: Halo: rank " + std::to_string(setup.topology.world_rank()) +
            " could not set up its part of the ghost update (" + e.what() + "); the set-up failed on every rank";
  }
  mpi::throw_if_any(setup.comm, error);
  return part;
}

/// One part for every neighbour (flat_mpi, neighbor).
template <MakePart make>
Parts everywhere(const ExchangeSetup& setup) {
  Parts parts;
  parts.push_back(made(make, Where::everywhere, setup));
  return parts;
}

/// An internode part, started first and finished last, and an intranode part. Every rank
/// builds the intranode part, even without intranode neighbours: its setup is collective
/// on the node.
template <MakePart internode, MakePart intranode>
Parts split(const ExchangeSetup& setup) {
  Parts parts;
  parts.push_back(made(internode, Where::internode, setup));
  parts.push_back(made(intranode, Where::intranode, setup));
  return parts;
}

/// MASHM writes the intranode data first and reads the internode data first; ODM (and
/// every other strategy) starts the internode messages first.
Parts mashm(const ExchangeSetup& setup) {
  Parts parts = split<make_aggregated_exchange, make_shm_exchange>(setup);
  std::swap(parts[0], parts[1]);
  return parts;
}

constexpr StrategyInfo kStrategies[] = {
    // strategy                 zero-copy private automatic all-MPI make
    {Strategy::shm,             true,     true,   true,     false,  &split<make_mpi_exchange, make_shm_exchange>},
    {Strategy::shm_direct,      false,    false,  false,    false,  &split<make_mpi_exchange, make_direct_exchange>},
    {Strategy::flat_mpi,        true,     true,   false,    true,   &everywhere<make_mpi_exchange>},
    {Strategy::neighbor,        false,    true,   false,    true,   &everywhere<make_neighbor_exchange>},
    {Strategy::rma_fence,       false,    true,   false,    false,  &split<make_mpi_exchange, make_rma_fence_exchange>},
    {Strategy::rma_pscw,        false,    true,   false,    false,  &split<make_mpi_exchange, make_rma_pscw_exchange>},
    {Strategy::rma_lock,        false,    true,   false,    false,  &split<make_mpi_exchange, make_rma_lock_exchange>},
    {Strategy::rma_lock_target, false,    true,   false,    false,  &split<make_mpi_exchange, make_rma_lock_target_exchange>},
    {Strategy::aggregated,      true,     true,   true,     false,  &mashm},
    {Strategy::aggregated_odm,  true,     true,   true,     false,  &split<make_aggregated_exchange, make_shm_exchange>},
    {Strategy::automatic,       true,     true,   false,    false,  nullptr},
};

/// The names, from hympi/names.h.
constexpr auto kNames = core::name_table<Strategy>({HYMPI_STRATEGIES(HYMPI_ROW)});

constexpr auto kAll = [] {
  std::array<Strategy, std::size(kStrategies)> all{};
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = kStrategies[i].value;
  return all;
}();

constexpr bool declaration_order() {
  for (std::size_t i = 0; i < kAll.size(); ++i)
    if (std::size_t(kAll[i]) != i) return false;
  return true;
}
static_assert(declaration_order() && kAll.size() == kNames.size(),
              "kStrategies lists every Strategy of hympi/names.h in declaration order");

}  // namespace

std::span<const StrategyInfo> strategy_table() { return kStrategies; }

const StrategyInfo& info(Strategy strategy) {
  if (std::size_t(strategy) >= std::size(kStrategies))
    throw Error("hympi: unknown ghost-update strategy " + std::to_string(int(strategy)));
  return kStrategies[std::size_t(strategy)];
}

}  // namespace hympi::halo

namespace hympi {

const char* name_of(Strategy strategy) { return core::name_in(halo::kNames, strategy); }

std::span<const Strategy> all_strategies() { return halo::kAll; }

Strategy strategy_from_name(std::string_view name) {
  if (auto strategy = core::value_in(halo::kNames, name)) return *strategy;
  throw Error("hympi: unknown ghost-update strategy '" + std::string(name) +
              "'; valid: " + core::names_in(halo::kNames));
}

}  // namespace hympi
