// SPDX-License-Identifier: BSD-3-Clause
// hympi.Pattern (pattern.hpp): from neighbour lists or from owners, its lists, and
// hympi.order_local_ids.
#include "pattern.hpp"

#include <nanobind/stl/vector.h>

#include <vector>

#include "bindings.hpp"

namespace hympy {

using namespace nb::literals;

hympi_pattern Pattern::handle() const {
  if (!handle_) throw Error("hympi: this Pattern is closed (its Context was closed)");
  return handle_;
}

namespace {

struct Info {
  int local_points, chunk, neighbor_count;
  hympi_datatype type;
};

Info info(const Pattern& p) {
  Info i;
  check(hympi_pattern_info(p.handle(), &i.local_points, &i.chunk, &i.type, &i.neighbor_count));
  return i;
}

}  // namespace

hympi_datatype Pattern::type() const { return info(*this).type; }

std::pair<int, int> Pattern::array_points() const {
  int sends = 0, recvs = 0, apart = 0;
  check(hympi_pattern_points(handle(), &sends, &recvs, &apart));
  return {sends, recvs};
}

std::pair<std::size_t, std::size_t> Pattern::array_elements() const {
  const auto [sends, recvs] = array_points();
  const auto c = static_cast<std::size_t>(info(*this).chunk);
  return {static_cast<std::size_t>(sends) * c, static_cast<std::size_t>(recvs) * c};
}

bool Pattern::apart() const { return info(*this).local_points < 0; }

namespace {

/// The neighbour lists of from_lists / from_lists_apart: (rank, send_ids, recv_ids) each,
/// kept alive with the C views of them.
struct Lists {
  std::vector<int> ranks;
  std::vector<std::vector<int>> sends, recvs;
  std::vector<hympi_neighbor_lists> c;

  Lists(nb::handle neighbors, const std::string& call) {
    for (nb::handle item : nb::iter(neighbors)) {
      const std::string what = call + ": neighbors[" + std::to_string(ranks.size()) + "]";
      int rank = 0;
      if (!PySequence_Check(item.ptr()) || PySequence_Size(item.ptr()) != 3 || !nb::try_cast(item[0], rank))
        throw nb::type_error(("hympi: " + what + " must be (rank, send_ids, recv_ids)").c_str());
      ranks.push_back(rank);
      sends.push_back(to_ints(item[1], what + " send ids"));
      recvs.push_back(to_ints(item[2], what + " recv ids"));
    }
    for (std::size_t n = 0; n < ranks.size(); ++n)
      c.push_back({ranks[n], static_cast<int>(sends[n].size()), sends[n].data(), static_cast<int>(recvs[n].size()),
                   recvs[n].data()});
  }
  int count() const { return static_cast<int>(c.size()); }
};

Pattern* from_lists(Context& ctx, int local_points, nb::handle neighbors, int chunk, nb::handle dtype) {
  const hympi_datatype type = to_datatype(dtype);
  const Lists lists(neighbors, "Pattern.from_lists");
  hympi_pattern handle = nullptr;
  blocking([&] {
    return hympi_pattern_from_lists(ctx.handle(), local_points, lists.count(), lists.c.data(), chunk, type, &handle);
  });
  return new Pattern(ctx, handle);
}

Pattern* from_lists_apart(Context& ctx, int send_points, int recv_points, nb::handle neighbors, int chunk,
                          nb::handle dtype) {
  const hympi_datatype type = to_datatype(dtype);
  const Lists lists(neighbors, "Pattern.from_lists_apart");
  hympi_pattern handle = nullptr;
  blocking([&] {
    return hympi_pattern_from_lists_apart(ctx.handle(), send_points, recv_points, lists.count(), lists.c.data(),
                                          chunk, type, &handle);
  });
  return new Pattern(ctx, handle);
}

/// One array's points; hympi.Error for a pattern of separate arrays.
int local_points(const Pattern& p) {
  const Info i = info(p);
  if (i.local_points < 0)
    throw Error("hympi: this Pattern has separate send and receive arrays (from_lists_apart): see send_points "
                "and recv_points");
  return i.local_points;
}

Pattern* from_owners(Context& ctx, nb::handle global_ids, nb::handle owners, int chunk, nb::handle dtype) {
  const hympi_datatype type = to_datatype(dtype);
  const std::vector<int64_t> ids = to_int64s(global_ids, "Pattern.from_owners: global_ids");
  const std::vector<int> ranks = to_ints(owners, "Pattern.from_owners: owners");
  if (ids.size() != ranks.size())
    throw Error("hympi: Pattern.from_owners: " + std::to_string(ids.size()) + " global_ids but " +
                std::to_string(ranks.size()) + " owners; give one owner per local point");
  hympi_pattern handle = nullptr;
  blocking([&] {
    return hympi_pattern_from_owners(ctx.handle(), static_cast<int>(ids.size()), ids.data(), ranks.data(), chunk,
                                     type, &handle);
  });
  return new Pattern(ctx, handle);
}

nb::list neighbors(const Pattern& p) {
  nb::list result;
  for (int n = 0; n < info(p).neighbor_count; ++n) {
    hympi_neighbor_lists lists;
    check(hympi_pattern_neighbor(p.handle(), n, &lists));
    result.append(nb::make_tuple(lists.rank, int_array(lists.send, static_cast<std::size_t>(lists.send_count)),
                                 int_array(lists.recv, static_cast<std::size_t>(lists.recv_count))));
  }
  return result;
}

/// hympi.order_local_ids's result (hympi::LocalOrdering).
struct LocalOrdering {
  nb::object new_id;
  int inner = 0, boundary = 0, ghosts = 0;
  nb::object pattern;
};

LocalOrdering order_local_ids(const Pattern& p) {
  std::vector<int> new_id(static_cast<std::size_t>(local_points(p)));
  LocalOrdering result;
  hympi_pattern ordered = nullptr;
  blocking([&] {
    return hympi_order_local_ids(p.handle(), new_id.data(), &result.inner, &result.boundary, &result.ghosts, &ordered);
  });
  result.pattern = nb::cast(new Pattern(p.context(), ordered), nb::rv_policy::take_ownership);
  result.new_id = int_array(new_id.data(), new_id.size());
  return result;
}

}  // namespace

void bind_pattern(nb::module_& m) {
  nb::class_<Pattern>(m, "Pattern",
                      "Who sends which points to whom: per neighbour rank, the local points it receives and the "
                      "ghost points it fills, `chunk` values per point of one dtype. Made collectively and "
                      "validated on every rank (hympi.Error on every rank naming the ranks and counts).")
      .def_static("from_lists", &from_lists, "context"_a, "local_points"_a, "neighbors"_a, "chunk"_a = 1,
                  "dtype"_a = HYMPI_FLOAT64, nb::rv_policy::take_ownership,
                  nb::sig("def from_lists(context: Context, local_points: int, "
                          "neighbors: collections.abc.Iterable[tuple[int, collections.abc.Sequence[int], "
                          "collections.abc.Sequence[int]]], chunk: int = 1, "
                          "dtype: Datatype | numpy.typing.DTypeLike = ...) -> Pattern"),
                  "Collective. `neighbors`: (rank, send_ids, recv_ids) per neighbour: my points it receives, "
                  "in the order of its recv_ids, and my ghost points it fills, in the order of its send_ids "
                  "(local ids 0 .. local_points-1).")
      .def_static("from_owners", &from_owners, "context"_a, "global_ids"_a, "owners"_a, "chunk"_a = 1,
                  "dtype"_a = HYMPI_FLOAT64, nb::rv_policy::take_ownership,
                  nb::sig("def from_owners(context: Context, global_ids: collections.abc.Sequence[int], "
                          "owners: collections.abc.Sequence[int], chunk: int = 1, "
                          "dtype: Datatype | numpy.typing.DTypeLike = ...) -> Pattern"),
                  "Collective. Local point p has global id global_ids[p] and owner rank owners[p]; points "
                  "owned by another rank are ghosts, filled from their owners.")
      .def_static("from_lists_apart", &from_lists_apart, "context"_a, "send_points"_a, "recv_points"_a,
                  "neighbors"_a, "chunk"_a = 1, "dtype"_a = HYMPI_FLOAT64, nb::rv_policy::take_ownership,
                  nb::sig("def from_lists_apart(context: Context, send_points: int, recv_points: int, "
                          "neighbors: collections.abc.Iterable[tuple[int, collections.abc.Sequence[int], "
                          "collections.abc.Sequence[int]]], chunk: int = 1, "
                          "dtype: Datatype | numpy.typing.DTypeLike = ...) -> Pattern"),
                  "Collective. Separate arrays (PetscSF's roots and leaves): send_ids index a send array of "
                  "send_points points, recv_ids a receive array of recv_points points; a point may be sent to "
                  "several neighbours or twice to one, none is received twice. Its Halos take "
                  "update(send, recv) (begin/end alike).")
      .def_prop_ro("local_points", &local_points, "The one array's points (hympi.Error when apart).")
      .def_prop_ro("send_points", [](const Pattern& p) { return p.array_points().first; },
                   "Points of the send array (local_points for one array).")
      .def_prop_ro("recv_points", [](const Pattern& p) { return p.array_points().second; },
                   "Points of the receive array (local_points for one array).")
      .def_prop_ro("apart", &Pattern::apart, "Built by from_lists_apart: separate send and receive arrays.")
      .def_prop_ro("chunk", [](const Pattern& p) { return info(p).chunk; })
      .def_prop_ro("dtype", &Pattern::type)
      .def_prop_ro("neighbors", &neighbors,
                   nb::sig("def neighbors(self) -> list[tuple[int, numpy.ndarray, numpy.ndarray]]"),
                   "(rank, send_ids, recv_ids) per neighbour, sorted by rank (copies, int32).")
      .def_prop_ro("context", &Pattern::context_object, nb::sig("def context(self) -> Context"))
      .def("__repr__", [](const Pattern& p) {
        const Info i = info(p);
        const auto [sends, recvs] = p.array_points();
        const std::string points = i.local_points < 0
                                       ? "send_points=" + std::to_string(sends) + ", recv_points=" + std::to_string(recvs)
                                       : "local_points=" + std::to_string(i.local_points);
        return "Pattern(" + points + ", chunk=" + std::to_string(i.chunk) +
               ", dtype=" + numpy_name(i.type) + ", " + std::to_string(i.neighbor_count) + " neighbour(s))";
      });

  nb::class_<LocalOrdering>(m, "LocalOrdering",
                            "A renumbering inner | boundary | ghost (order_local_ids): new_id[old id], the "
                            "part sizes, and the same exchange renumbered.")
      .def_prop_ro("new_id", [](const LocalOrdering& o) { return o.new_id; }, nb::sig("def new_id(self) -> numpy.ndarray"))
      .def_ro("inner", &LocalOrdering::inner)
      .def_ro("boundary", &LocalOrdering::boundary)
      .def_ro("ghosts", &LocalOrdering::ghosts)
      .def_prop_ro("pattern", [](const LocalOrdering& o) { return o.pattern; }, nb::sig("def pattern(self) -> Pattern"));

  m.def("order_local_ids", &order_local_ids, "pattern"_a,
        "Collective: renumbers the local points inner | boundary | ghost (each neighbour's ghosts "
        "contiguous, intranode neighbours first; Figs. 8 and 17 of Quaranta & Maddegedara (2021)), so most "
        "messages are one memcpy.");
}

}  // namespace hympy
