#include "mpi/support/setup_agreement.hpp"

#include <map>
#include <string_view>
#include <vector>

#include "hympi/types.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {
namespace {

/// A set-up's name as a number (FNV-1a), the first value of its record.
int64_t site_id(std::string_view what) {
  uint64_t h = 1469598103934665603ull;
  for (char c : what) h = (h ^ uint8_t(c)) * 1099511628211ull;
  return int64_t(h >> 1);
}

/// The set-ups that call agree_on_setup, to name another rank's from its number.
constexpr std::string_view kSetups[] = {"Context", "Pattern", "Halo", "CartesianGrid", "SharedWindow",
                                         "NodeShared", "reordered_comm"};

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

}  // namespace

void agree_on_setup(MPI_Comm comm, const char* what, std::initializer_list<SetupArgument> arguments) {
  if (arguments.size() >= std::size_t(kSetupValues))
    throw Error(std::string("hympi: internal: too many set-up arguments for ") + what);
  int size = 0;
  MPI_Comm_size(comm, &size);
  int64_t mine[kSetupValues] = {site_id(what)};
  int column = 1;
  for (const SetupArgument& a : arguments) mine[column++] = a.value;
  std::vector<int64_t> all(std::size_t(size) * kSetupValues);
  check(MPI_Allgather(mine, kSetupValues, MPI_INT64_T, all.data(), kSetupValues, MPI_INT64_T, comm),
        "MPI_Allgather (set-up arguments)");
  for (int r = 1; r < size; ++r)
    if (all[std::size_t(r) * kSetupValues] != all[0])
      throw Error("hympi: ranks are in different collective set-ups: " + by_value(all, 0, size, &setup_name) +
                  ". Construct hympi objects in the same order on every rank.");
  column = 1;
  for (const SetupArgument& a : arguments) {
    for (int r = 1; r < size; ++r)
      if (all[std::size_t(r) * kSetupValues + std::size_t(column)] != all[std::size_t(column)])
        throw Error(std::string("hympi: ") + what + ": ranks passed different " + a.name + ": " +
                    by_value(all, column, size, a.show) + ". Every rank must construct it with the same " +
                    a.name + " (and hympi objects in the same order).");
    ++column;
  }
}

}  // namespace hympi::mpi
