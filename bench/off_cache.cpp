// SPDX-License-Identifier: BSD-3-Clause
#include "off_cache.hpp"

#include <fmt/core.h>
#include <hwloc.h>

#include <algorithm>

namespace hympi::bench {

std::size_t last_level_cache_bytes() {
  hwloc_topology_t topology;
  std::size_t largest = 0;
  if (hwloc_topology_init(&topology) == 0) {
    if (hwloc_topology_load(topology) == 0)
      for (hwloc_obj_type_t type :
           {HWLOC_OBJ_L1CACHE, HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L5CACHE})
        for (hwloc_obj_t o = hwloc_get_next_obj_by_type(topology, type, nullptr); o;
             o = hwloc_get_next_obj_by_type(topology, type, o))
          largest = std::max<std::size_t>(largest, o->attr->cache.size);
    hwloc_topology_destroy(topology);
  }
  return largest ? largest : std::size_t(32) << 20;
}

std::string OffCache::describe() const {
  if (!on()) return "";
  return fmt::format("OFF-CACHE: buffers rotated through {} MiB (2 x the {} MiB last-level cache)", region_bytes() >> 20,
                     llc_bytes >> 20);
}

void OffCache::annotate(nlohmann::json& record) const {
  record["cache"] = on() ? "off-cache" : "in-cache";
  if (on()) {
    record["llc_bytes"] = llc_bytes;
    record["region_bytes"] = region_bytes();
  }
}

Rotation::Rotation(std::size_t bytes, std::size_t region) {
  const std::size_t line = 64;
  stride_ = (std::max<std::size_t>(bytes, 1) + line - 1) / line * line / sizeof(double);
  places_ = std::max<std::size_t>(2, (region + stride_ * sizeof(double) - 1) / (stride_ * sizeof(double)));
  storage_.assign(places_ * stride_, 0.0);
}

}  // namespace hympi::bench
