// SPDX-License-Identifier: BSD-3-Clause
// map_ranks on a rank graph (hympi/mapping.hpp), MPI-free: the levels (nodes, then
// domains) cut one after the other with split_exact, parts matched to groups of processes
// keeping vertices in place, and the comparison with the current order.
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "hympi/mapping.hpp"
#include "mapping/exact_split.hpp"
#include "mapping/rank_graph.hpp"

namespace hympi {
namespace {

using mapping::RankGraph;

/// Places `vertices` on `processes` (as many, both ascending): at each level of `keys`
/// (a key per process: its node, then its domain) the processes are grouped by key, the
/// vertices cut into parts of the groups' sizes, each part given to a group; below the last
/// level a vertex that is one of the processes stays there, the others fill the rest in
/// order. process_of[v] is the result.
class Placer {
 public:
  Placer(const RankGraph& graph, std::vector<const std::vector<int>*> keys)
      : graph_(graph), keys_(std::move(keys)), group_of_(std::size_t(graph.vertices()), -1),
        process_of_(std::size_t(graph.vertices()), -1) {}

  std::vector<int> place(const std::vector<int>& vertices, const std::vector<int>& processes) {
    place(vertices, processes, 0);
    return process_of_;
  }

 private:
  void place(const std::vector<int>& vertices, const std::vector<int>& processes, std::size_t level) {
    if (level == keys_.size()) return keep_or_fill(vertices, processes);
    std::map<int, std::vector<int>> by_key;  // ascending processes per key
    for (int p : processes) by_key[(*keys_[level])[std::size_t(p)]].push_back(p);
    if (by_key.size() == 1) return place(vertices, processes, level + 1);
    std::vector<std::vector<int>> groups;
    std::vector<int> sizes;
    for (auto& [key, members] : by_key) {
      sizes.push_back(int(members.size()));
      groups.push_back(std::move(members));
    }
    const std::vector<int> part = mapping::split_exact(graph_, vertices, sizes);
    std::vector<std::vector<int>> parts(groups.size());
    for (std::size_t i = 0; i < vertices.size(); ++i) parts[std::size_t(part[i])].push_back(vertices[i]);
    const std::vector<int> group = match(parts, groups);
    for (std::size_t q = 0; q < parts.size(); ++q) place(parts[q], groups[std::size_t(group[q])], level + 1);
  }

  /// The group each part goes to: one of the part's size (split_exact made part q of group
  /// q's size), greedily the pair with the most vertices already in the group first.
  std::vector<int> match(const std::vector<std::vector<int>>& parts, const std::vector<std::vector<int>>& groups) {
    for (std::size_t g = 0; g < groups.size(); ++g)
      for (int p : groups[g]) group_of_[std::size_t(p)] = int(g);
    struct Pair {
      int overlap, part, group;
    };
    std::vector<Pair> pairs;
    for (std::size_t q = 0; q < parts.size(); ++q) {
      std::map<int, int> overlap;  // group -> vertices of part q that are one of its processes
      for (int v : parts[q])
        if (const int g = group_of_[std::size_t(v)]; g >= 0 && groups[std::size_t(g)].size() == parts[q].size()) ++overlap[g];
      for (std::size_t g = 0; g < groups.size(); ++g)
        if (groups[g].size() == parts[q].size()) pairs.push_back({overlap.count(int(g)) ? overlap[int(g)] : 0, int(q), int(g)});
    }
    std::stable_sort(pairs.begin(), pairs.end(), [](const Pair& a, const Pair& b) { return a.overlap > b.overlap; });
    std::vector<int> group(parts.size(), -1);
    std::vector<bool> taken(groups.size(), false);
    for (const Pair& pr : pairs)
      if (group[std::size_t(pr.part)] < 0 && !taken[std::size_t(pr.group)]) {
        group[std::size_t(pr.part)] = pr.group;
        taken[std::size_t(pr.group)] = true;
      }
    for (const auto& members : groups)
      for (int p : members) group_of_[std::size_t(p)] = -1;
    return group;
  }

  void keep_or_fill(const std::vector<int>& vertices, const std::vector<int>& processes) {
    std::vector<bool> used(processes.size(), false);
    std::vector<int> movers;
    for (int v : vertices) {
      const auto at = std::lower_bound(processes.begin(), processes.end(), v);
      if (at != processes.end() && *at == v) {
        process_of_[std::size_t(v)] = v;
        used[std::size_t(at - processes.begin())] = true;
      } else {
        movers.push_back(v);
      }
    }
    std::size_t next = 0;
    for (int v : movers) {
      while (used[next]) ++next;
      process_of_[std::size_t(v)] = processes[next];
      used[next] = true;
    }
  }

  const RankGraph& graph_;
  std::vector<const std::vector<int>*> keys_;
  std::vector<int> group_of_;  // scratch of match(): group index of each process, -1 elsewhere
  std::vector<int> process_of_;
};

/// Cost of vertex v running on process process_of[v]: bytes between nodes, then bytes
/// between domains of a node (compared in that order).
std::pair<std::uint64_t, std::uint64_t> cost(const RankGraph& graph, const std::vector<int>& process_of,
                                             const ProcessPlacement& placement) {
  std::vector<int> node(process_of.size()), domain(process_of.size());
  for (std::size_t v = 0; v < process_of.size(); ++v) {
    const std::size_t p = std::size_t(process_of[v]);
    node[v] = placement.node_of[p];
    domain[v] = placement.domain_of.empty() ? 0 : placement.domain_of[p];
  }
  const std::uint64_t internode = mapping::cut_bytes(graph, node);
  // Domains count only inside a node: a key that differs when either differs.
  std::map<std::pair<int, int>, int> ids;
  for (std::size_t v = 0; v < node.size(); ++v) domain[v] = ids.try_emplace({node[v], domain[v]}, int(ids.size())).first->second;
  return {internode, mapping::cut_bytes(graph, domain) - internode};
}

void check_placement(const ProcessPlacement& placement) {
  const std::size_t ranks = placement.node_of.size();
  if (!placement.domain_of.empty() && placement.domain_of.size() != ranks)
    throw Error("hympi: map_ranks: the placement has " + std::to_string(placement.domain_of.size()) + " domains for " +
                std::to_string(ranks) + " processes; give one per process or none");
  for (const std::vector<int>* ids : {&placement.node_of, &placement.domain_of})
    for (std::size_t p = 0; p < ids->size(); ++p)
      if ((*ids)[p] < 0)
        throw Error(std::string("hympi: map_ranks: process ") + std::to_string(p) + " has the negative " +
                    (ids == &placement.node_of ? "node" : "domain") + " id " + std::to_string((*ids)[p]));
}

}  // namespace

ProcessPlacement ProcessPlacement::consecutive(int ranks, int ranks_per_node, int domains_per_node) {
  if (ranks < 0 || ranks_per_node < 1 || domains_per_node < 1)
    throw Error("hympi: ProcessPlacement::consecutive: " + std::to_string(ranks) + " ranks, " +
                std::to_string(ranks_per_node) + " per node, " + std::to_string(domains_per_node) +
                " domains per node: ranks must be >= 0, the others >= 1");
  ProcessPlacement placement{consecutive_nodes(ranks, ranks_per_node), {}};
  if (domains_per_node > 1) {
    // Domain d of a node: its ranks [d * size / domains, (d + 1) * size / domains).
    for (int r = 0; r < ranks; ++r) {
      const int first = r - r % ranks_per_node, size = std::min(ranks_per_node, ranks - first);
      const long in_node = r - first;
      placement.domain_of.push_back(int(in_node * domains_per_node / size));
    }
  }
  return placement;
}

std::vector<int> map_ranks(std::span<const RankMessage> traffic, const ProcessPlacement& placement) {
  check_placement(placement);
  const int ranks = int(placement.node_of.size());
  const RankGraph graph = mapping::rank_graph(traffic, ranks);
  std::vector<int> everyone(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) everyone[std::size_t(r)] = r;
  std::vector<const std::vector<int>*> keys{&placement.node_of};
  if (!placement.domain_of.empty()) keys.push_back(&placement.domain_of);
  const std::vector<int> process_of = Placer(graph, keys).place(everyone, everyone);
  if (cost(graph, everyone, placement) <= cost(graph, process_of, placement)) return everyone;  // never worse
  std::vector<int> new_rank(static_cast<std::size_t>(ranks));
  for (int v = 0; v < ranks; ++v) new_rank[std::size_t(process_of[std::size_t(v)])] = v;
  return new_rank;
}

std::vector<int> node_of_new_ranks(std::span<const int> new_rank, std::span<const int> node_of) {
  if (new_rank.size() != node_of.size())
    throw Error("hympi: node_of_new_ranks: " + std::to_string(new_rank.size()) + " new ranks for " +
                std::to_string(node_of.size()) + " processes");
  std::vector<int> result(node_of.size(), -1);
  for (std::size_t p = 0; p < new_rank.size(); ++p) {
    const int r = new_rank[p];
    if (r < 0 || std::size_t(r) >= result.size() || result[std::size_t(r)] >= 0)
      throw Error("hympi: node_of_new_ranks: new_rank is not a permutation of 0.." + std::to_string(result.size() - 1) +
                  " (rank " + std::to_string(r) + " at process " + std::to_string(p) + ")");
    result[std::size_t(r)] = node_of[p];
  }
  return result;
}

}  // namespace hympi
