// The local ordering of Figs. 8 and 17 of Quaranta & Maddegedara (2021):
// inner | boundary | ghost, so that most messages are contiguous (one memcpy, see
// halo/copy_plan.hpp).
#include <algorithm>

#include "halo/pattern_data.hpp"

namespace hympi {

LocalOrdering order_local_ids(const Pattern& pattern) {
  const Pattern::Data& d = pattern.data();
  const std::size_t n = std::size_t(d.local_points);

  // Neighbours in the order their groups are laid out: intranode first, then by rank.
  std::vector<std::size_t> by_place(d.neighbors.size());
  for (std::size_t i = 0; i < by_place.size(); ++i) by_place[i] = i;
  std::stable_sort(by_place.begin(), by_place.end(),
                   [&](std::size_t a, std::size_t b) { return d.intranode(a) > d.intranode(b); });

  constexpr int kNone = -1, kSeveral = -2;
  std::vector<int> sent_to(n, kNone);  // the one neighbour (index) a point goes to, or kSeveral
  std::vector<char> ghost(n, 0);
  for (std::size_t i = 0; i < d.neighbors.size(); ++i) {
    for (int id : d.neighbors[i].send) {
      int& s = sent_to[std::size_t(id)];
      s = (s == kNone || s == int(i)) ? int(i) : kSeveral;
    }
    for (int id : d.neighbors[i].recv) ghost[std::size_t(id)] = 1;
  }

  LocalOrdering result{std::vector<int>(n, -1), 0, 0, 0, pattern};
  int next = 0;
  auto place = [&](int id) {
    if (result.new_id[std::size_t(id)] < 0) result.new_id[std::size_t(id)] = next++;
  };
  for (std::size_t id = 0; id < n; ++id)
    if (!ghost[id] && sent_to[id] == kNone) place(int(id));
  result.inner = next;
  for (std::size_t i : by_place)  // in send-list order: each list becomes one range
    for (int id : d.neighbors[i].send)
      if (sent_to[std::size_t(id)] == int(i)) place(id);
  for (std::size_t i : by_place)
    for (int id : d.neighbors[i].send)
      if (sent_to[std::size_t(id)] == kSeveral) place(id);
  result.boundary = next - result.inner;
  for (std::size_t i : by_place)
    for (int id : d.neighbors[i].recv) place(id);
  result.ghosts = next - result.inner - result.boundary;

  std::vector<NeighborLists> renumbered = d.neighbors;
  for (NeighborLists& lists : renumbered) {
    for (int& id : lists.send) id = result.new_id[std::size_t(id)];
    for (int& id : lists.recv) id = result.new_id[std::size_t(id)];
  }
  result.pattern = Pattern::from_lists(*d.context, d.local_points, std::move(renumbered), d.chunk, d.type);
  return result;
}

}  // namespace hympi
