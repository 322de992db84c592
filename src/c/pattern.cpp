// SPDX-License-Identifier: BSD-3-Clause
// The C API of hympi::Pattern: made from neighbour lists (one array or separate send and
// receive arrays) or from owners, inspected, and renumbered (hympi::order_local_ids).
#include <algorithm>
#include <span>
#include <string>
#include <vector>

#include "c/c_api.hpp"

using hympi::c::ArgumentError;
using hympi::c::guard;
using hympi::c::require;
using hympi::c::require_array;

namespace {

const hympi::Pattern& pattern_of(hympi_pattern pattern) { return require(pattern, "pattern").pattern; }

/// A count from C: >= 0, else an argument error naming it.
std::size_t count_of(int count, const char* argument) {
  return std::size_t(hympi::c::checked_range(count, 0, INT32_MAX, argument, "a count >= 0"));
}

/// The C++ copy of one C neighbour list; `index` names it in errors.
hympi::NeighborLists copy_lists(const hympi_neighbor_lists& n, int index) {
  const std::string name = "neighbors[" + std::to_string(index) + "]";
  const std::size_t sends = count_of(n.send_count, (name + ".send_count").c_str());
  const std::size_t recvs = count_of(n.recv_count, (name + ".recv_count").c_str());
  const int* send = require_array(n.send, sends, (name + ".send").c_str());
  const int* recv = require_array(n.recv, recvs, (name + ".recv").c_str());
  return {n.rank, std::vector<int>(send, send + sends), std::vector<int>(recv, recv + recvs)};
}

/// A new handle holding `pattern`.
void give(hympi::Pattern pattern, hympi_pattern& out) { out = new hympi_pattern_s{std::move(pattern)}; }

/// The C++ copies of `neighbor_count` C neighbour lists.
std::vector<hympi::NeighborLists> copy_all(int neighbor_count, const hympi_neighbor_lists* neighbors) {
  const std::size_t count = count_of(neighbor_count, "neighbor_count");
  require_array(neighbors, count, "neighbors");
  std::vector<hympi::NeighborLists> lists;
  for (std::size_t i = 0; i < count; ++i) lists.push_back(copy_lists(neighbors[i], int(i)));
  return lists;
}

/// Collective: the handle out (NULL until made), the context, then `checks()` (the
/// arguments; their errors reach every rank of the context: check_collectively), then
/// `make(context)`.
template <class Checks, class Make>
int create(const char* function, hympi_context context, hympi_pattern* pattern, Checks checks, Make make) {
  return guard(function, [&] {
    if (pattern) *pattern = nullptr;
    hympi::Context& ctx = require(context, "context").context;
    hympi::c::check_collectively(function, ctx.topology().world(), "Pattern", [&] {
      require(pattern, "pattern");
      checks();
    });
    give(make(ctx), *pattern);
  });
}

/// Either form of lists: the copied lists and the element type checked, then
/// `make(context, lists, type)`.
template <class Make>
int from_lists(const char* function, hympi_context context, int neighbor_count, const hympi_neighbor_lists* neighbors,
               const hympi_datatype& type, hympi_pattern* pattern, Make make) {
  std::vector<hympi::NeighborLists> lists;
  hympi::Datatype t{};
  return create(function, context, pattern, [&] {
    lists = copy_all(neighbor_count, neighbors);
    t = hympi::c::to_datatype(type);
  }, [&](hympi::Context& ctx) { return make(ctx, std::move(lists), t); });
}

}  // namespace

extern "C" {

int hympi_pattern_from_lists(hympi_context context, int local_points, int neighbor_count,
                             const hympi_neighbor_lists* neighbors, int chunk, hympi_datatype type,
                             hympi_pattern* pattern) {
  return from_lists(__func__, context, neighbor_count, neighbors, type, pattern,
                    [&](hympi::Context& ctx, auto lists, hympi::Datatype t) {
                      return hympi::Pattern::from_lists(ctx, local_points, std::move(lists), chunk, t);
                    });
}

int hympi_pattern_from_lists_apart(hympi_context context, int send_points, int recv_points, int neighbor_count,
                                   const hympi_neighbor_lists* neighbors, int chunk, hympi_datatype type,
                                   hympi_pattern* pattern) {
  return from_lists(__func__, context, neighbor_count, neighbors, type, pattern,
                    [&](hympi::Context& ctx, auto lists, hympi::Datatype t) {
                      return hympi::Pattern::from_lists_apart(ctx, send_points, recv_points, std::move(lists), chunk, t);
                    });
}

int hympi_pattern_from_owners(hympi_context context, int local_points, const int64_t* global_ids,
                              const int* owners, int chunk, hympi_datatype type, hympi_pattern* pattern) {
  std::size_t points = 0;
  hympi::Datatype t{};
  return create(__func__, context, pattern, [&] {
    points = count_of(local_points, "local_points");
    require_array(global_ids, points, "global_ids");
    require_array(owners, points, "owners");
    t = hympi::c::to_datatype(type);
  }, [&](hympi::Context& ctx) {
    return hympi::Pattern::from_owners(ctx, std::span(global_ids, points), std::span(owners, points), chunk, t);
  });
}

int hympi_pattern_free(hympi_pattern* pattern) {
  return guard(__func__, [&] { hympi::c::free_handle(pattern, "pattern"); });
}

int hympi_pattern_info(hympi_pattern pattern, int* local_points, int* chunk, hympi_datatype* type,
                       int* neighbor_count) {
  return guard(__func__, [&] {
    const hympi::Pattern& p = pattern_of(pattern);
    int& points = require(local_points, "local_points");
    int& values = require(chunk, "chunk");
    hympi_datatype& element = require(type, "type");
    int& neighbors = require(neighbor_count, "neighbor_count");
    points = p.apart() ? -1 : p.local_points();
    values = p.chunk();
    element = hympi_datatype(p.type());
    neighbors = int(p.neighbors().size());
  });
}

int hympi_pattern_points(hympi_pattern pattern, int* send_points, int* recv_points, int* apart) {
  return guard(__func__, [&] {
    const hympi::Pattern& p = pattern_of(pattern);
    int& sends = require(send_points, "send_points");
    int& recvs = require(recv_points, "recv_points");
    require(apart, "apart") = p.apart() ? 1 : 0;
    sends = p.send_points();
    recvs = p.recv_points();
  });
}

int hympi_pattern_neighbor(hympi_pattern pattern, int n, hympi_neighbor_lists* lists) {
  return guard(__func__, [&] {
    const auto& neighbors = pattern_of(pattern).neighbors();
    hympi_neighbor_lists& out = require(lists, "lists");
    const auto& l = neighbors[std::size_t(hympi::c::checked_range(
        n, 0, int64_t(neighbors.size()) - 1, "n", "a neighbour index, 0 .. neighbor_count-1"))];
    out = {l.rank, int(l.send.size()), l.send.empty() ? nullptr : l.send.data(), int(l.recv.size()),
           l.recv.empty() ? nullptr : l.recv.data()};
  });
}

int hympi_order_local_ids(hympi_pattern pattern, int* new_id, int* inner, int* boundary, int* ghosts,
                          hympi_pattern* ordered) {
  return guard(__func__, [&] {
    const hympi::Pattern& p = pattern_of(pattern);
    hympi_pattern& out = require(ordered, "ordered");
    out = nullptr;
    require_array(new_id, std::size_t(p.local_points()), "new_id");
    int& inner_points = require(inner, "inner");
    int& boundary_points = require(boundary, "boundary");
    int& ghost_points = require(ghosts, "ghosts");
    hympi::LocalOrdering o = hympi::order_local_ids(p);
    std::copy(o.new_id.begin(), o.new_id.end(), new_id);
    inner_points = o.inner;
    boundary_points = o.boundary;
    ghost_points = o.ghosts;
    give(std::move(o.pattern), out);
  });
}

}  // extern "C"
