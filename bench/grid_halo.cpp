#include "grid_halo.hpp"

#include <fmt/core.h>
#include <mpi.h>

#include <memory>

#include "hympi/grid.hpp"
#include "hympi/halo.hpp"
#include "links.hpp"
#include "petsc_peer.hpp"

namespace hympi::bench {

nlohmann::json bench_halo_pattern(Context& ctx, const Method& method, const Pattern& pattern, const std::string& label) {
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
  std::vector<std::unique_ptr<Halo>> halos;
  std::vector<std::vector<double>> vectors;
  std::vector<Contender> contenders;
  for (Strategy s : {Strategy::shm, Strategy::aggregated, Strategy::aggregated_odm, Strategy::neighbor, Strategy::flat_mpi}) {
    halos.push_back(std::make_unique<Halo>(pattern, s));
    vectors.emplace_back(points, 1.0);
    Halo* h = halos.back().get();
    double* v = vectors.back().data();
    if (s == Strategy::flat_mpi) {  // PETSc next to it; the reference stays last
      vectors.emplace_back(points, 1.0);
      if (auto petsc = petsc_contender(pattern, vectors.back().data())) contenders.push_back(std::move(*petsc));
    }
    contenders.push_back({name_of(s), [h, v] { h->update(v); }});
  }
  auto samples = measure(ctx, contenders, method);
  nlohmann::json record = report(label, points * sizeof(double), contenders, samples, method);
  report_peer_ratios(record, contenders, samples, 3);
  record["statistics"] = statistics_json(st);
  record["links"] = links;
  record["automatic"] = name_of(automatic.strategy());
  return record;
}

nlohmann::json bench_halo_grid(Context& ctx, const Method& method, const GridSpec& spec) {
  CartesianGrid grid(ctx, spec.global, stencil_from_name(spec.stencil), spec.width);
  const Block& b = grid.block();
  std::string extents;
  for (int n : spec.global) extents += (extents.empty() ? "" : "x") + std::to_string(n);
  nlohmann::json record = bench_halo_pattern(
      ctx, method, grid.pattern(),
      "halo-grid " + extents + " " + spec.stencil + ", process grid " + std::to_string(b.dims[0]) + "x" +
          std::to_string(b.dims[1]) + "x" + std::to_string(b.dims[2]));
  record["benchmark"] = "halo-grid";
  record["grid"] = spec.global;
  record["stencil"] = spec.stencil;
  return record;
}

}  // namespace hympi::bench
