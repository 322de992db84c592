// Ghost update: every strategy side by side, per message size per neighbour, contiguous and
// index-gathered, against flat MPI (the reference of the ratios) and a bare one-copy
// exchange (a memcpy from the neighbour's shared window plus one hympi barrier: the floor
// for shared memory); then the split-phase overlap, OSU style.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

/// Neighbours: the ranks left and right on a ring (one at 2 ranks). `sizes`: bytes of
/// doubles per neighbour.
nlohmann::json bench_halo(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes);

}  // namespace hympi::bench
