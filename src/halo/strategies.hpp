// SPDX-License-Identifier: BSD-3-Clause
// Every ghost-update strategy in one table: what it supports and how its parts are made
// (its name and number: HYMPI_STRATEGIES in hympi/names.h). all_strategies(), the Halo's
// argument checks, automatic's candidates and the Halo's construction read it.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "halo/exchange.hpp"
#include "hympi/halo.hpp"

namespace hympi::halo {

/// A strategy's parts: begin() runs in this order, end() in reverse.
using Parts = std::vector<std::unique_ptr<Exchange>>;

struct StrategyInfo {
  Strategy value;
  bool zero_copy;            // HaloMode::buffers: send and receive arrays of its own
  bool private_vectors;      // moves any array; else only the Halo's shared_field() vectors
  bool automatic_candidate;  // timed by `automatic`, in table order
  bool mpi_everywhere;       // intranode data through MPI too (else only internode messages)
  /// Collective: the parts over the pattern; nullptr for `automatic`, which picks another.
  Parts (*make)(const ExchangeSetup& setup);
};

/// In declaration order of Strategy.
std::span<const StrategyInfo> strategy_table();
const StrategyInfo& info(Strategy strategy);

}  // namespace hympi::halo
