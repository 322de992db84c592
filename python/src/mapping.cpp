// SPDX-License-Identifier: BSD-3-Clause
// hympi.map_ranks, hympi.map_ranks_traffic and hympi.reordered_comm (hympi_mapping.h):
// ranks mapped to nodes by their traffic, as numpy int32 arrays, and the reordered
// communicator as an mpi4py one. Built when hympi_mapping is (METIS found).
#include <hympi_mapping.h>

#include <vector>

#include "bindings.hpp"
#include "pattern.hpp"

namespace hympy {

using namespace nb::literals;

namespace {

nb::object map_ranks(Pattern& pattern, int fields) {
  hympi_topology_info topo;
  check(hympi_context_topology(pattern.context().handle(), &topo));
  std::vector<int> new_rank(static_cast<std::size_t>(topo.world_size));
  blocking([&] { return hympi_map_ranks(pattern.handle(), fields, topo.world_size, new_rank.data()); });
  return int_array(new_rank.data(), new_rank.size());
}

nb::object map_ranks_traffic(nb::handle traffic, nb::handle node_of, nb::handle domain_of) {
  const std::vector<int> nodes = to_ints(node_of, "map_ranks_traffic: node_of");
  std::vector<int> domains;
  if (!domain_of.is_none()) domains = to_ints(domain_of, "map_ranks_traffic: domain_of");
  if (!domains.empty() && domains.size() != nodes.size())
    throw Error("hympi: map_ranks_traffic: domain_of has " + std::to_string(domains.size()) + " entries, node_of " +
                std::to_string(nodes.size()) + "; give one per process");
  std::vector<hympi_rank_message> messages;
  for (nb::handle item : nb::iter(traffic)) {
    const std::vector<int64_t> m = to_int64s(item, "map_ranks_traffic: traffic[" + std::to_string(messages.size()) + "]");
    if (m.size() != 3 || m[0] < INT32_MIN || m[0] > INT32_MAX || m[1] < INT32_MIN || m[1] > INT32_MAX || m[2] < 0)
      throw nb::type_error("hympi: map_ranks_traffic: each message is (from, to, bytes), ranks int, bytes >= 0");
    messages.push_back({static_cast<int>(m[0]), static_cast<int>(m[1]), static_cast<std::size_t>(m[2])});
  }
  std::vector<int> new_rank(nodes.size());
  check(hympi_map_ranks_traffic(static_cast<int>(nodes.size()), nodes.data(), domains.empty() ? nullptr : domains.data(),
                                messages.size(), messages.data(), new_rank.data()));
  return int_array(new_rank.data(), new_rank.size());
}

nb::object reordered_comm(nb::handle comm, nb::handle new_rank) {
  const auto fortran = nb::cast<MPI_Fint>(nb::module_::import_("hympi._mpi").attr("fortran_handle")(comm));
  const std::vector<int> ranks = to_ints(new_rank, "reordered_comm: new_rank");
  MPI_Fint result = 0;
  blocking([&] { return hympi_reordered_comm_f(fortran, static_cast<int>(ranks.size()), ranks.data(), &result); });
  return mpi4py_comm(result, "intra");
}

}  // namespace

void bind_mapping(nb::module_& m) {
  m.def("map_ranks", &map_ranks, "pattern"_a, "fields"_a = 1,
        nb::sig("def map_ranks(pattern: Pattern, fields: int = 1) -> numpy.ndarray"),
        "Collective over the pattern's Context: new_rank[p], the rank process p takes in the reordered "
        "communicator (and the work it does), so that the ranks that exchange the most (the pattern's traffic, "
        "`fields` arrays per update) share a node, and inside it a domain. The same permutation on every rank.");
  m.def("map_ranks_traffic", &map_ranks_traffic, "traffic"_a, "node_of"_a, "domain_of"_a = nb::none(),
        nb::sig("def map_ranks_traffic(traffic: collections.abc.Iterable[tuple[int, int, int]], "
                "node_of: collections.abc.Sequence[int], domain_of: collections.abc.Sequence[int] | None = None) "
                "-> numpy.ndarray"),
        "No MPI: map_ranks for given traffic, (from, to, bytes) messages between processes 0 .. len(node_of)-1, "
        "process p on node node_of[p] and domain domain_of[p] (None: one per node). Deterministic.");
  m.def("reordered_comm", &reordered_comm, "comm"_a, "new_rank"_a,
        nb::sig("def reordered_comm(comm: mpi4py.MPI.Intracomm, new_rank: collections.abc.Sequence[int]) "
                "-> mpi4py.MPI.Intracomm"),
        "Collective over `comm`: a new communicator in which process p has rank new_rank[p] (the same "
        "permutation on every rank, else hympi.Error on every rank). Free it with its Free().");
}

}  // namespace hympy
