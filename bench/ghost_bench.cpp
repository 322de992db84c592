// SPDX-License-Identifier: BSD-3-Clause
#include "ghost_bench.hpp"

#include <fmt/core.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>

#include "floors.hpp"
#include "petsc_peer.hpp"

namespace hympi::bench {
namespace {

/// Each valid contender's median minus write_read's (its communication part) and that part
/// over flat_mpi's (the last contender) and each floor's (from `first_floor` on): printed
/// (rank 0) and added to `record`. Nothing without a valid write_read (cached data).
void report_communication_part(nlohmann::json& record, const std::vector<Contender>& contenders,
                               const std::vector<std::vector<double>>& samples, std::size_t first_floor,
                               bool root) {
  const auto is_base = [](const Contender& c) { return c.name == "write_read"; };
  const auto base = std::find_if(contenders.begin(), contenders.end(), is_base);
  if (base == contenders.end() || samples[std::size_t(base - contenders.begin())].empty()) return;
  const auto median = [&](std::size_t c) { return stats_of(samples[c]).median_us; };
  const double base_us = median(std::size_t(base - contenders.begin()));
  std::vector<std::size_t> references;
  for (std::size_t c = first_floor; c < contenders.size(); ++c)
    if (!is_base(contenders[c]) && !samples[c].empty()) references.push_back(c);
  if (!references.empty()) std::rotate(references.begin(), references.end() - 1, references.end());  // flat_mpi first
  if (root) {
    fmt::print("# communication part: median minus write_read's ({:.3f} us), and its ratio to each reference's\n"
               "# {:<26}{:>10}",
               base_us, "Implementation", "Comm(us)");
    for (std::size_t r : references) fmt::print("{:>13}", "/" + contenders[r].name);
    fmt::print("\n");
  }
  for (std::size_t c = 0; c < contenders.size(); ++c) {
    if (is_base(contenders[c]) || samples[c].empty()) continue;
    const double part = median(c) - base_us;
    record["results"][c]["comm_us"] = part;
    if (root) fmt::print("{:<28}{:>10.3f}", contenders[c].name, part);
    for (std::size_t r : references) {
      const double reference = median(r) - base_us;
      if (reference > 0) record["results"][c]["comm_ratio_to_" + contenders[r].name] = part / reference;
      if (root) fmt::print("{:>13}", reference > 0 ? fmt::format("{:.3f}", part / reference) : "-");
    }
    if (root) fmt::print("\n");
  }
  if (root) fmt::print("\n");
}

}  // namespace

void annotate_ghost_record(nlohmann::json& record, const AppData& app, const DataOptions& data,
                           const std::vector<Wrong>& wrong) {
  record["data"] = name_of(data.mode);
  data.off_cache.annotate(record);
  for (std::size_t c = 0; c < wrong.size(); ++c)
    if (wrong[c].any()) record["results"][c]["wrong"] = {{"rank", wrong[c].rank}, {"index", wrong[c].index}};
  const std::string checksum = fmt::format("{:#x}", app.checksum());
  if (app.pattern().context().topology().world_rank() == 0 && data.mode == DataMode::fresh)
    fmt::print("# every ghost read: checksum {}\n\n", checksum);
  record["checksum"] = checksum;
}

nlohmann::json compare_ghost_updates(Context& ctx, const Method& method, const Pattern& pattern, const Lineup& lineup,
                                     const DataOptions& data, const std::string& benchmark, std::size_t bytes) {
  const bool root = ctx.topology().world_rank() == 0;
  AppData app(pattern, data);
  const std::size_t elements = std::size_t(pattern.local_points()) * std::size_t(pattern.chunk());
  std::unique_ptr<Context> two_copy_context;  // outlives its Halo, in `halos`
  std::optional<Pattern> two_copy_pattern;
  std::vector<std::unique_ptr<Halo>> halos;
  std::deque<std::vector<double>> vectors;
  std::vector<Contender> contenders;
  const auto add_halo = [&](Strategy s) {
    if (s == Strategy::shm_direct && app.off_cache()) return;  // its vector is the Halo's own: cannot rotate
    Halo& h = *halos.emplace_back(std::make_unique<Halo>(pattern, s));
    double* v = s == Strategy::shm_direct ? h.shared_field<double>() : vectors.emplace_back(elements).data();
    contenders.push_back(app.contender(name_of(s), v, [&h](double* x, std::uint32_t) { h.update(x); }));
  };
  for (Strategy s : lineup.hympi) add_halo(s);
  // Where shm reads some messages with one copy (HYMPI_SINGLE_COPY), shm with its two
  // copies too (a Context without the single copy), first of the peers: every hympi
  // contender gets its ratio to it.
  int single_copy = 0;
  for (const auto& h : halos) single_copy += h->strategy() == Strategy::shm ? h->stats().single_copy_messages : 0;
  MPI_Allreduce(MPI_IN_PLACE, &single_copy, 1, MPI_INT, MPI_SUM, ctx.topology().world());
  if (single_copy > 0) {
    Options two_copies = ctx.options();
    two_copies.single_copy_bytes = 0;
    two_copy_context = std::make_unique<Context>(ctx.topology().world(), two_copies);
    two_copy_pattern = Pattern::from_lists(*two_copy_context, pattern.local_points(), pattern.neighbors(),
                                           pattern.chunk(), pattern.type());
    Halo& h = *halos.emplace_back(std::make_unique<Halo>(*two_copy_pattern, Strategy::shm));
    contenders.push_back(app.contender("shm-two_copies", vectors.emplace_back(elements).data(),
                                       [&h](double* x, std::uint32_t) { h.update(x); }));
  }
  for (Strategy s : lineup.peers) add_halo(s);
  if (auto petsc = petsc_exchange(app))
    contenders.push_back(app.contender("petsc_sf", vectors.emplace_back(elements).data(), *petsc));
  const std::size_t first_floor = contenders.size();
  for (Contender& f : floor_contenders(ctx, app)) contenders.push_back(std::move(f));
  add_halo(Strategy::flat_mpi);  // the reference, last

  std::vector<Wrong> wrong;
  const auto samples = measure(ctx, contenders, method, &wrong);
  nlohmann::json record = report(benchmark, bytes, contenders, samples, method, describe(data));
  std::size_t hympi_count = 0;  // hympi's strategies in the table (off-cache: without shm_direct)
  for (Strategy s : lineup.hympi) hympi_count += !(s == Strategy::shm_direct && app.off_cache());
  std::vector<std::size_t> peers;  // every peer and floor but write_read (flat_mpi's ratios are in the table)
  for (std::size_t c = hympi_count; c + 1 < contenders.size(); ++c)
    if (contenders[c].name != "write_read") peers.push_back(c);
  report_peer_ratios(record, contenders, samples, hympi_count, peers);
  report_communication_part(record, contenders, samples, first_floor, root);
  annotate_ghost_record(record, app, data, wrong);
  return record;
}

}  // namespace hympi::bench
