// SPDX-License-Identifier: BSD-3-Clause
// Strategy::automatic: at set-up, times the candidates of the strategy table
// (halo/strategies.hpp) on scratch vectors and keeps the fastest. Every rank gets the same
// choice: the fastest by the slowest rank's time. On a single node the internode
// strategies are moot and it is shm.
#pragma once

#include <vector>

#include "halo/halo_parts.hpp"

namespace hympi::halo {

/// Collective. Builds each candidate in `parts` in turn, appends its time to `trials` and
/// returns the choice (`parts` then holds the last candidate's parts).
Strategy choose_automatic(HaloParts& parts, std::vector<HaloTrial>& trials);

}  // namespace hympi::halo
