// The ghost update on the cube mesh of Quaranta & Maddegedara (2021), Section 4.6: Gmsh
// mesh, METIS partition over the launch's ranks (two levels on several nodes), scalar or
// 3-vector values per point.
#pragma once

#include <nlohmann/json.hpp>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

nlohmann::json bench_halo_mesh(Context& ctx, const Method& method, double size, int chunk, const DataOptions& data);

}  // namespace hympi::bench
