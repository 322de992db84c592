// SPDX-License-Identifier: BSD-3-Clause
#include "halo/local_numbering.hpp"

#include <algorithm>
#include <cstddef>

namespace hympi::halo {

PointNumbering number_points(int local_points, std::span<const NeighborIds> neighbors) {
  const std::size_t n = std::size_t(local_points);

  // Neighbours in the order their groups are laid out: intranode first, then by list order.
  std::vector<std::size_t> by_place(neighbors.size());
  for (std::size_t i = 0; i < by_place.size(); ++i) by_place[i] = i;
  std::stable_sort(by_place.begin(), by_place.end(),
                   [&](std::size_t a, std::size_t b) { return neighbors[a].intranode > neighbors[b].intranode; });

  constexpr int kNone = -1, kSeveral = -2;
  std::vector<int> sent_to(n, kNone);  // the one neighbour (index) a point goes to, or kSeveral
  std::vector<char> ghost(n, 0);
  for (std::size_t i = 0; i < neighbors.size(); ++i) {
    for (int id : neighbors[i].send) {
      int& s = sent_to[std::size_t(id)];
      s = (s == kNone || s == int(i)) ? int(i) : kSeveral;
    }
    for (int id : neighbors[i].recv) ghost[std::size_t(id)] = 1;
  }

  PointNumbering result{std::vector<int>(n, -1)};
  int next = 0;
  auto place = [&](int id) {
    if (result.new_id[std::size_t(id)] < 0) result.new_id[std::size_t(id)] = next++;
  };
  for (std::size_t id = 0; id < n; ++id)
    if (!ghost[id] && sent_to[id] == kNone) place(int(id));
  result.inner = next;
  for (std::size_t i : by_place)  // in send-list order: each list becomes one range
    for (int id : neighbors[i].send)
      if (sent_to[std::size_t(id)] == int(i)) place(id);
  for (std::size_t i : by_place)
    for (int id : neighbors[i].send)
      if (sent_to[std::size_t(id)] == kSeveral) place(id);
  result.boundary = next - result.inner;
  for (std::size_t i : by_place)
    for (int id : neighbors[i].recv) place(id);
  result.ghosts = next - result.inner - result.boundary;
  return result;
}

}  // namespace hympi::halo
