// SPDX-License-Identifier: BSD-3-Clause
// hympi-bench bindings: what the C API (include/hympi.h) adds to a ghost update over the
// C++ call. The Fortran module and the Python package are measured over the C API by their
// own programs (bench/bindings/), so each layer's cost is a difference taken in one launch.
#pragma once

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

/// One Halo (a C handle, strategy shm, the ring with 1 KiB per neighbour) updated through
/// Halo::update and through hympi_halo_update, interleaved; the data is not rewritten
/// between calls (only the call differs): absolute times are cache-resident, labelled so.
/// Rank 0 prints the table and the median of the per-sample differences in ns.
nlohmann::json bench_bindings(Context& ctx, const Method& method);

}  // namespace hympi::bench
