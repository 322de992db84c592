// hympi::order_local_ids: the local ordering of halo/local_order.hpp, and the pattern
// renumbered with it (collective: validated again).
#include "halo/local_order.hpp"
#include "halo/pattern_data.hpp"

namespace hympi {

LocalOrdering order_local_ids(const Pattern& pattern) {
  const Pattern::Data& d = pattern.data();
  std::vector<halo::NeighborIds> lists;
  for (std::size_t i = 0; i < d.neighbors.size(); ++i)
    lists.push_back({d.neighbors[i].send, d.neighbors[i].recv, d.intranode(i)});
  halo::PointOrder order = halo::order_points(d.local_points, lists);

  std::vector<NeighborLists> renumbered = d.neighbors;
  for (NeighborLists& n : renumbered) {
    for (int& id : n.send) id = order.new_id[std::size_t(id)];
    for (int& id : n.recv) id = order.new_id[std::size_t(id)];
  }
  return {std::move(order.new_id), order.inner, order.boundary, order.ghosts,
          Pattern::from_lists(*d.context, d.local_points, std::move(renumbered), d.chunk, d.type)};
}

}  // namespace hympi
