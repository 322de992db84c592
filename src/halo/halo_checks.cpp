// SPDX-License-Identifier: BSD-3-Clause
#include "halo/halo_checks.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "core/name_table.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi::halo {
namespace {

/// MPI counts are int: a message MPI would carry must fit one ("" when all fit).
std::string oversized_message(const Pattern::Data& pattern, Strategy strategy, int fields) {
  constexpr std::size_t kMaxBytes = std::size_t(std::numeric_limits<int>::max());
  for (const PeerPlan& peer : peer_plans(pattern, Where::everywhere)) {
    const std::size_t bytes = std::max(peer.send_bytes(fields), peer.recv_bytes(fields));
    if ((info(strategy).mpi_everywhere || peer.node_rank < 0) && bytes > kMaxBytes)
      return "hympi: Halo: rank " + std::to_string(pattern.context->topology().world_rank()) + " exchanges " +
             std::to_string(bytes) + " bytes with rank " + std::to_string(peer.rank) +
             " in one MPI message; MPI counts are int (at most " + std::to_string(kMaxBytes) +
             " bytes): use fewer fields per Halo, a smaller chunk, or a shared-memory strategy inside a node";
  }
  return "";
}

constexpr auto kModes = core::name_table<HaloMode>({HYMPI_HALO_MODES(HYMPI_ROW)});

std::string show_mode(int64_t mode) { return core::name_in(kModes, HaloMode(mode)); }

}  // namespace

Strategy check_setup(const Pattern::Data& pattern, Strategy strategy, int fields, HaloMode mode) {
  // Every argument agrees on every rank first, so the checks below throw everywhere or nowhere.
  mpi::agree_on_setup(pattern.context->topology().world(), "Halo",
                      {{"strategy", int64_t(strategy), &core::show_name<Strategy>},
                       {"mode", int64_t(mode), &show_mode},
                       {"field count", fields},
                       {"chunk", pattern.chunk},
                       {"element type", int64_t(pattern.type), &core::show_name<Datatype>},
                       {"pattern", int64_t(pattern.fingerprint >> 1),
                        [](int64_t v) { return "the pattern with fingerprint " + std::to_string(v); }}});
  if (fields < 1) throw Error("hympi: Halo: fields must be >= 1, got " + std::to_string(fields));
  // The message names the table's zero-copy strategies in the order the documentation does.
  if (mode == HaloMode::buffers && !info(strategy).zero_copy)
    throw Error(std::string("hympi: Halo: zero-copy buffers need shm, aggregated, aggregated_odm, flat_mpi or automatic, not ") +
                name_of(strategy));
  mpi::throw_if_any(pattern.context->topology().world(), oversized_message(pattern, strategy, fields));
  return strategy;
}

void check_arrays(Arrays arrays, bool one_array, Strategy strategy, const HaloParts& parts) {
  if (one_array && parts.pattern().apart)
    throw Error("hympi: Halo: the pattern has separate send and receive arrays (Pattern::from_lists_apart): "
                "call begin/end/update(send, recv)");
  const std::size_t fields = std::size_t(parts.fields());
  if (arrays.send.size() != fields || arrays.recv.size() != fields)
    throw Error("hympi: Halo was set up for " + std::to_string(fields) + " field(s), got " +
                (one_array ? std::to_string(arrays.recv.size())
                           : std::to_string(arrays.send.size()) + " send and " + std::to_string(arrays.recv.size()) +
                                 " receive array(s)"));
  // An empty shared field has no memory to share: any (empty) array stands for it.
  if (!info(strategy).private_vectors && parts.pattern().send_points > 0)
    for (std::size_t f = 0; f < fields; ++f)
      if (arrays.send[f] != parts.shared_field(f))
        throw Error(std::string("hympi: Halo(") + name_of(strategy) + ") moves the vectors of Halo::shared_field(); " +
                    (one_array ? "field " : "the send array of field ") + std::to_string(f) + " is another array");
}

void check_type(Datatype pattern, Datatype passed) {
  if (passed != pattern)
    throw Error(std::string("hympi: Halo: the pattern moves ") + name_of(pattern) + ", the vectors passed hold " +
                name_of(passed));
}

void check_neighbor(int neighbor, std::size_t count) {
  if (neighbor < 0 || std::size_t(neighbor) >= count)
    throw Error("hympi: Halo buffer of neighbour " + std::to_string(neighbor) + ": the pattern has " +
                std::to_string(count) + " neighbour(s) (indices into pattern.neighbors())");
}

void check_shared_field(Strategy strategy, int f, int fields) {
  if (info(strategy).private_vectors)
    throw Error(std::string("hympi: Halo::shared_field() is for shm_direct; this Halo uses ") + name_of(strategy) +
                ", which moves any array");
  if (f < 0 || f >= fields)
    throw Error("hympi: Halo::shared_field(" + std::to_string(f) + "): the Halo has " + std::to_string(fields) +
                " field(s)");
}

}  // namespace hympi::halo
