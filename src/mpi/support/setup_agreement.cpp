// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/support/setup_agreement.hpp"

#include <map>
#include <string_view>
#include <vector>

#include "hympi/options.hpp"
#include "hympi/types.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/requests.hpp"

namespace hympi::mpi {
namespace {

/// A set-up's name as a number (FNV-1a), the first value of its record.
int64_t site_id(std::string_view what) {
  uint64_t h = 1469598103934665603ull;
  for (char c : what) h = (h ^ uint8_t(c)) * 1099511628211ull;
  return int64_t(h >> 1);
}

/// The set-ups that call agree_on_setup, to name another rank's from its number.
constexpr std::string_view kSetups[] = {"Context", "Context's first collective call", "Pattern", "Halo",
                                         "CartesianGrid", "SharedWindow", "NodeShared", "reordered_comm"};

std::string setup_name(int64_t id) {
  for (std::string_view s : kSetups)
    if (site_id(s) == id) return "a " + std::string(s);
  return "another collective";
}

/// "rank 3", "ranks 0-2, 5"
std::string rank_list(const std::vector<int>& ranks) {
  std::string text = ranks.size() == 1 ? "rank " : "ranks ";
  for (std::size_t i = 0; i < ranks.size();) {
    std::size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (i > 0) text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i) text += "-" + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

/// "a on ranks 0-2, b on rank 3": values in order of their first rank.
std::string by_value(const std::vector<int64_t>& all, int column, int size,
                     std::string (*show)(int64_t)) {
  std::vector<int64_t> order;
  std::map<int64_t, std::vector<int>> ranks;
  for (int r = 0; r < size; ++r) {
    const int64_t v = all[std::size_t(r) * kSetupValues + std::size_t(column)];
    if (ranks[v].empty()) order.push_back(v);
    ranks[v].push_back(r);
  }
  std::string text;
  for (int64_t v : order) {
    if (!text.empty()) text += ", ";
    text += (show ? show(v) : std::to_string(v)) + " on " + rank_list(ranks[v]);
  }
  return text;
}

/// The refusal flag: the last value of a record.
constexpr std::size_t kRefused = kSetupValues - 1;

/// Collective: when any rank's record has the refusal flag, every rank gathers the reasons
/// (`reason`: this rank's, empty when it has none) and throws the same SetupRefused.
void throw_if_refused(MPI_Comm comm, const char* what, const std::vector<int64_t>& all, int size,
                      const std::string& reason) {
  bool any = false;
  for (int r = 0; r < size; ++r) any = any || all[std::size_t(r) * kSetupValues + kRefused] != 0;
  if (!any) return;
  const int length = int(reason.size());
  const auto n = std::size_t(size);
  std::vector<int> lengths(n), offsets(n, 0);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather (set-up refusals)");
  for (int r = 1; r < size; ++r) offsets[std::size_t(r)] = offsets[std::size_t(r) - 1] + lengths[std::size_t(r) - 1];
  std::string text(std::size_t(offsets.back() + lengths.back()), '\0');
  check(MPI_Allgatherv(reason.data(), length, MPI_CHAR, text.data(), lengths.data(), offsets.data(), MPI_CHAR, comm),
        "MPI_Allgatherv (set-up refusals)");
  std::vector<std::string> order;
  std::map<std::string, std::vector<int>> ranks;
  for (int r = 0; r < size; ++r) {
    if (all[std::size_t(r) * kSetupValues + kRefused] == 0) continue;
    std::string one = text.substr(std::size_t(offsets[std::size_t(r)]), std::size_t(lengths[std::size_t(r)]));
    if (ranks[one].empty()) order.push_back(one);
    ranks[one].push_back(r);
  }
  std::string message = std::string("hympi: ") + what + " set-up refused";
  for (std::size_t i = 0; i < order.size(); ++i)
    message += (i ? "; on " : " on ") + rank_list(ranks[order[i]]) + ": " + order[i];
  throw SetupRefused(message);
}

/// The options of a set-up whose caller passes no wait settings. A malformed variable is
/// reported by the set-up that reads it.
Options environment_options() {
  try {
    return Options::from_env();
  } catch (const Error&) {
    return {};
  }
}

/// This rank in the watchdog's messages: its world rank, as in every other wait's.
int world_rank(MPI_Comm comm) {
  int initialized = 0, rank = 0;
  MPI_Initialized(&initialized);
  MPI_Comm_rank(initialized ? MPI_COMM_WORLD : comm, &rank);
  return rank;
}

/// The set-up's allgather, watched (`wait`, or environment_wait()): this rank's record (`refused`: with the flag and `reason`), the
/// refusals first, then every rank's record.
std::vector<int64_t> gather(MPI_Comm comm, const char* what, std::initializer_list<SetupArgument> arguments,
                            std::initializer_list<int64_t> gathered, bool refused, const std::string& reason,
                            const core::WaitConfig* wait, int& size) {
  if (arguments.size() + gathered.size() > std::size_t(kSetupValues) - 2)
    throw Error(std::string("hympi: internal: too many set-up arguments for ") + what);
  MPI_Comm_size(comm, &size);
  int64_t mine[kSetupValues] = {site_id(what)};
  int column = 1;
  for (const SetupArgument& a : arguments) mine[column++] = a.value;
  for (int64_t value : gathered) mine[column++] = value;
  mine[kRefused] = refused;
  std::vector<int64_t> all(std::size_t(size) * kSetupValues);
  MPI_Request request = MPI_REQUEST_NULL;
  check(MPI_Iallgather(mine, kSetupValues, MPI_INT64_T, all.data(), kSetupValues, MPI_INT64_T, comm, &request),
        "MPI_Iallgather (set-up arguments)");
  const std::string operation = std::string("the set-up agreement of a ") + what + " (MPI_Iallgather)";
  wait_all({&request, 1}, wait ? *wait : setup_wait(environment_options()), {operation.c_str(), world_rank(comm), core::kEveryRankPeer},
           "not every rank of the communicator came to it");
  throw_if_refused(comm, what, all, size, reason);
  return all;
}

}  // namespace

core::WaitConfig setup_wait(const Options& options) {
  core::WaitConfig config{core::WaitPolicy(options.wait), true, options.timeout_s};
  config.mpi_call = true;  // its poll is MPI_Test: MPI's progress, which a nap would throttle
  return config;
}

void refuse_setup(MPI_Comm comm, const char* what, const std::string& reason) {
  int size = 0;
  gather(comm, what, {}, {}, true, reason, nullptr, size);
  throw SetupRefused(reason);  // not reached: gather threw it with every rank's reasons
}

std::vector<int64_t> agree_on_setup(MPI_Comm comm, const char* what, std::initializer_list<SetupArgument> arguments,
                                    std::initializer_list<int64_t> gathered, const core::WaitConfig* wait) {
  int size = 0;
  const std::vector<int64_t> all = gather(comm, what, arguments, gathered, false, {}, wait, size);
  for (int r = 1; r < size; ++r)
    if (all[std::size_t(r) * kSetupValues] != all[0])
      throw Error("hympi: ranks are in different collective set-ups: " + by_value(all, 0, size, &setup_name) +
                  ". Construct hympi objects in the same order on every rank.");
  int column = 1;
  for (const SetupArgument& a : arguments) {
    for (int r = 1; r < size; ++r)
      if (all[std::size_t(r) * kSetupValues + std::size_t(column)] != all[std::size_t(column)])
        throw Error(std::string("hympi: ") + what + ": ranks passed different " + a.name + ": " +
                    by_value(all, column, size, a.show) + ". Every rank must construct it with the same " +
                    a.name + " (and hympi objects in the same order).");
    ++column;
  }
  std::vector<int64_t> values;
  for (int r = 0; r < size; ++r)
    for (std::size_t g = 0; g < gathered.size(); ++g)
      values.push_back(all[std::size_t(r) * kSetupValues + std::size_t(column) + g]);
  return values;
}

}  // namespace hympi::mpi
