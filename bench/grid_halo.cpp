// SPDX-License-Identifier: BSD-3-Clause
#include "grid_halo.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include "hympi/grid.hpp"
#include "hympi/halo.hpp"
#include "hympi/statistics.hpp"
#include "links.hpp"

namespace hympi::bench {

const Lineup kGridLineup{{Strategy::shm, Strategy::shm_direct, Strategy::aggregated, Strategy::aggregated_odm},
                         {Strategy::neighbor}};

nlohmann::json bench_halo_pattern(Context& ctx, const Method& method, const Pattern& pattern, const std::string& label,
                                  const DataOptions& data, const Lineup& lineup) {
  const bool root = ctx.topology().world_rank() == 0;
  const MessageStatistics st = message_statistics(pattern_messages(pattern), ctx.topology().node_of());
  if (root)
    fmt::print("# {}: {} nodes; per update: flat {} internode messages (avg {:.0f} B), aggregated {} (avg {:.0f} B), "
               "{} intranode (avg {:.0f} B)\n",
               label, st.nodes, st.internode_messages, st.average_internode_message(), st.node_pair_messages,
               st.average_node_pair_message(), st.intranode_messages,
               st.intranode_messages ? double(st.intranode_bytes) / double(st.intranode_messages) : 0.0);
  nlohmann::json links = measure_links(ctx);

  Halo automatic(pattern, Strategy::automatic);
  if (root) {
    fmt::print("# automatic chose {}", name_of(automatic.strategy()));
    for (const HaloTrial& t : automatic.trials()) fmt::print(" ({} {:.2f} us)", name_of(t.strategy), t.seconds * 1e6);
    fmt::print("\n");
  }
  const std::size_t points = std::size_t(pattern.local_points()) * std::size_t(pattern.chunk());
  nlohmann::json record = compare_ghost_updates(ctx, method, pattern, lineup, data, label, points * sizeof(double));
  record["statistics"] = statistics_json(st);
  record["links"] = links;
  record["automatic"] = name_of(automatic.strategy());
  return record;
}

nlohmann::json bench_halo_grid(Context& ctx, const Method& method, const GridSpec& spec, const DataOptions& data) {
  CartesianGrid grid(ctx, spec.global, stencil_from_name(spec.stencil), spec.width);
  const Block& b = grid.block();
  std::string extents;
  for (int n : spec.global) extents += (extents.empty() ? "" : "x") + std::to_string(n);
  nlohmann::json record = bench_halo_pattern(
      ctx, method, grid.pattern(),
      "halo-grid " + extents + " " + spec.stencil + ", process grid " + std::to_string(b.dims[0]) + "x" +
          std::to_string(b.dims[1]) + "x" + std::to_string(b.dims[2]),
      data);
  record["benchmark"] = "halo-grid";
  record["grid"] = spec.global;
  record["stencil"] = spec.stencil;
  return record;
}

}  // namespace hympi::bench
