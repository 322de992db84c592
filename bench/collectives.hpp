// Barrier and allreduce: hympi's variants against the MPI library's own, interleaved.
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "method.hpp"

namespace hympi::bench {

nlohmann::json bench_barrier(Context& ctx, const Method& method);
/// Allreduce of `sizes` bytes of doubles (sum).
nlohmann::json bench_allreduce(Context& ctx, const Method& method, const std::vector<std::size_t>& sizes);

}  // namespace hympi::bench
