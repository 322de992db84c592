// SPDX-License-Identifier: BSD-3-Clause
// hympi::order_local_ids: the local numbering of halo/local_numbering.hpp, and the pattern
// renumbered with it (collective: validated again). For patterns of one array.
#include "halo/local_numbering.hpp"
#include "halo/pattern_data.hpp"

namespace hympi {

LocalOrdering order_local_ids(const Pattern& pattern) {
  const Pattern::Data& d = pattern.data();
  if (d.apart)  // the same on every rank (agreed at construction): thrown everywhere
    throw Error("hympi: order_local_ids renumbers the one array of a pattern from from_lists or from_owners; "
                "this one has separate send and receive arrays (from_lists_apart)");
  std::vector<halo::NeighborIds> lists;
  for (std::size_t i = 0; i < d.neighbors.size(); ++i)
    lists.push_back({d.neighbors[i].send, d.neighbors[i].recv, d.intranode(i)});
  halo::PointNumbering numbering = halo::number_points(d.recv_points, lists);

  std::vector<NeighborLists> renumbered = d.neighbors;
  for (NeighborLists& n : renumbered) {
    for (int& id : n.send) id = numbering.new_id[std::size_t(id)];
    for (int& id : n.recv) id = numbering.new_id[std::size_t(id)];
  }
  return {std::move(numbering.new_id), numbering.inner, numbering.boundary, numbering.ghosts,
          Pattern::from_lists(*d.context, d.recv_points, std::move(renumbered), d.chunk, d.type)};
}

}  // namespace hympi
