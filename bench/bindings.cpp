// SPDX-License-Identifier: BSD-3-Clause
#include "bindings.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <vector>

#include "c/c_api.hpp"  // the C handle's Halo, so both layers update the same object
#include "halo.hpp"

namespace hympi::bench {

nlohmann::json bench_bindings(Context& ctx, const Method& method) {
  constexpr std::size_t bytes = 1024;
  hympi_pattern_s pattern{ring_pattern(ctx, bytes, false)};
  hympi_halo handle = nullptr;
  if (hympi_halo_create(&pattern, HYMPI_STRATEGY_SHM, 1, HYMPI_MODE_VECTORS, &handle) != HYMPI_SUCCESS)
    throw Error(hympi_last_error_message());
  std::vector<double> v(std::size_t(pattern.pattern.local_points()), 1.0);
  void* fields[1] = {v.data()};
  const std::vector<Contender> contenders{
      {"c hympi_halo_update",
       [&] {
         if (hympi_halo_update(handle, 1, fields) != HYMPI_SUCCESS) throw Error(hympi_last_error_message());
       }},
      {"cxx Halo::update", [&] { handle->halo.update(v.data()); }}};
  const auto samples = measure(ctx, contenders, method);
  nlohmann::json record =
      report("bindings", bytes, contenders, samples, method, "call overhead, unchanged data (cache-resident)");
  std::vector<double> ns;
  for (std::size_t k = 0; k < samples[0].size() && k < samples[1].size(); ++k)
    ns.push_back((samples[0][k] - samples[1][k]) * 1e3);
  if (!ns.empty()) {
    std::nth_element(ns.begin(), ns.begin() + std::ptrdiff_t(ns.size() / 2), ns.end());
    const double median = ns[ns.size() / 2];
    record["c_over_cxx_ns"] = median;
    if (ctx.topology().world_rank() == 0)
      fmt::print("# bindings: C API over C++ per update: median {:.1f} ns (per-sample differences)\n\n", median);
  }
  hympi_halo_free(&handle);
  return record;
}

}  // namespace hympi::bench
