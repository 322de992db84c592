// Ghost update: every strategy side by side, per message size per neighbour, contiguous and
// index-gathered, against flat MPI (the reference of the ratios), PETSc's PetscSF (when
// built with it) and two floors: a bare one-copy exchange (a memcpy from the neighbour's
// shared window plus one hympi barrier) for shared memory, and a bare Irecv/Isend/Waitall
// of the blocks (no packing) for MPI; then the split-phase overlap, OSU style.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

/// Neighbours: the ranks left and right on a ring (one at 2 ranks). `sizes`: bytes of
/// doubles per neighbour.
nlohmann::json bench_halo(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes);

}  // namespace hympi::bench
