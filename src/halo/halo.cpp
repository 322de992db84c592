// A Halo: the parts of one strategy (halo/exchange.hpp) over a validated pattern.
//  - flat_mpi, neighbor: one MPI part for every neighbour;
//  - shm, shm_direct, rma_*: an internode MPI part (started first, finished last) and an
//    intranode part. Every rank builds the intranode part, even without intranode
//    neighbours: its setup is collective on the node.
#include "hympi/halo.hpp"

#include <array>

#include "halo/aggregated_exchange.hpp"
#include "halo/exchange.hpp"
#include "halo/mpi_exchange.hpp"
#include "halo/neighbor_exchange.hpp"
#include "halo/rma_exchange.hpp"
#include "halo/shm_exchange.hpp"
#include "mpi/collective_error.hpp"
#include "mpi/context_access.hpp"
#include "mpi/mpi_check.hpp"

namespace hympi {
namespace {

constexpr std::array kStrategies = {Strategy::shm,      Strategy::shm_direct, Strategy::flat_mpi,
                                    Strategy::neighbor, Strategy::rma_fence,  Strategy::rma_pscw,
                                    Strategy::rma_lock, Strategy::aggregated};

}  // namespace

const char* name_of(Strategy strategy) {
  switch (strategy) {
    case Strategy::shm: return "shm";
    case Strategy::shm_direct: return "shm_direct";
    case Strategy::flat_mpi: return "flat_mpi";
    case Strategy::neighbor: return "neighbor";
    case Strategy::rma_fence: return "rma_fence";
    case Strategy::rma_pscw: return "rma_pscw";
    case Strategy::rma_lock: return "rma_lock";
    case Strategy::aggregated: return "aggregated";
  }
  return "?";
}

std::span<const Strategy> all_strategies() { return kStrategies; }

Strategy strategy_from_name(std::string_view name) {
  std::string valid;
  for (Strategy s : kStrategies) {
    if (name == name_of(s)) return s;
    valid += (valid.empty() ? "" : ", ") + std::string(name_of(s));
  }
  throw Error("hympi: unknown ghost-update strategy '" + std::string(name) + "'; valid: " + valid);
}

struct Halo::Impl {
  Pattern pattern;
  Strategy strategy;
  int fields;
  MPI_Comm comm = MPI_COMM_NULL;             // the Halo's own: its messages match nothing else
  std::vector<mpi::SharedRegion> vectors;    // shared_field(f), every node rank's
  std::vector<std::unique_ptr<halo::Exchange>> parts;  // begin in order, end in reverse
  HaloStats stats;

  Impl(const Pattern& p, Strategy s, int f) : pattern(p), strategy(s), fields(f) {
    const Pattern::Data& d = pattern.data();
    Context& context = *d.context;
    const Topology& topo = context.topology();
    int all_fields[2] = {f, -f}, extremes[2] = {0, 0};
    mpi::check(MPI_Allreduce(all_fields, extremes, 2, MPI_INT, MPI_MAX, topo.world()), "MPI_Allreduce (Halo)");
    std::string error;
    if (extremes[0] != -extremes[1])
      error = "hympi: Halo: ranks passed different field counts (from " + std::to_string(-extremes[1]) + " to " +
              std::to_string(extremes[0]) + ")";
    else if (f < 1)
      error = "hympi: Halo: fields must be >= 1, got " + std::to_string(f);
    mpi::throw_if_any(topo.world(), error);

    mpi::check(MPI_Comm_dup(topo.world(), &comm), "MPI_Comm_dup (Halo)");
    const core::WaitConfig wait = detail::ContextAccess::wait(context);
    mpi::SharedArena& arena = detail::ContextAccess::arena(context);
    const std::size_t vector_bytes = std::size_t(d.local_points) * d.point_bytes;
    if (s == Strategy::shm_direct)
      for (int i = 0; i < fields; ++i) vectors.push_back(arena.allocate(vector_bytes, 4096));

    using halo::Where;
    const int rank = topo.world_rank();
    // Messages per neighbour, except the internode ones of `aggregated` (it counts its own).
    for (const halo::PeerPlan& peer : halo::peer_plans(d, Where::everywhere)) {
      const std::size_t bytes = peer.send_bytes(fields);
      const bool intranode = peer.node_rank >= 0;
      if (bytes == 0 || (!intranode && s == Strategy::aggregated)) continue;
      (intranode ? stats.intranode_messages : stats.internode_messages) += 1;
      (intranode ? stats.intranode_bytes : stats.internode_bytes) += bytes;
    }
    if (s == Strategy::flat_mpi) {
      parts.push_back(halo::make_mpi_exchange(halo::peer_plans(d, Where::everywhere), comm, fields, wait, rank));
      return;
    }
    if (s == Strategy::neighbor) {
      parts.push_back(halo::make_neighbor_exchange(halo::peer_plans(d, Where::everywhere), comm, fields, wait, rank));
      return;
    }
    halo::ShmSetup setup{topo, arena, wait, context.options().orders, fields};
    if (s == Strategy::aggregated) {
      parts.push_back(halo::make_aggregated_exchange(halo::peer_plans(d, Where::internode), comm, setup, stats));
    } else {
      parts.push_back(halo::make_mpi_exchange(halo::peer_plans(d, Where::internode), comm, fields, wait, rank));
    }
    std::vector<halo::PeerPlan> intranode = halo::peer_plans(d, Where::intranode);
    if (s == Strategy::shm || s == Strategy::aggregated)
      parts.push_back(halo::make_shm_exchange(std::move(intranode), setup));
    else if (s == Strategy::shm_direct)
      parts.push_back(halo::make_direct_exchange(std::move(intranode), d, vectors, setup));
    else parts.push_back(halo::make_rma_exchange(s, std::move(intranode), setup));
  }

  ~Impl() {
    parts.clear();
    MPI_Comm_free(&comm);
  }

  void check_count(std::span<void* const> v) const {
    if (v.size() != std::size_t(fields))
      throw Error("hympi: Halo was set up for " + std::to_string(fields) + " field(s), got " +
                  std::to_string(v.size()));
  }
};

Halo::Halo(const Pattern& pattern, Strategy strategy, int fields)
    : impl_(std::make_unique<Impl>(pattern, strategy, fields)) {}
Halo::~Halo() = default;

Strategy Halo::strategy() const { return impl_->strategy; }
int Halo::fields() const { return impl_->fields; }
const HaloStats& Halo::stats() const { return impl_->stats; }

void Halo::begin(std::span<void* const> vectors) {
  impl_->check_count(vectors);
  for (auto& part : impl_->parts) part->begin(vectors);
}

void Halo::end(std::span<void* const> vectors) {
  impl_->check_count(vectors);
  for (auto it = impl_->parts.rbegin(); it != impl_->parts.rend(); ++it) (*it)->end(vectors);
}

void Halo::check_type(Datatype type) const {
  if (type != impl_->pattern.type())
    throw Error(std::string("hympi: Halo: the pattern moves ") + name_of(impl_->pattern.type()) +
                ", the vectors passed hold " + name_of(type));
}

void* Halo::shared_field_bytes(int f) {
  if (impl_->strategy != Strategy::shm_direct)
    throw Error(std::string("hympi: Halo::shared_field() is for shm_direct; this Halo uses ") +
                name_of(impl_->strategy) + ", which moves any array");
  if (f < 0 || f >= impl_->fields)
    throw Error("hympi: Halo::shared_field(" + std::to_string(f) + "): the Halo has " +
                std::to_string(impl_->fields) + " field(s)");
  return impl_->vectors[std::size_t(f)].local;
}

}  // namespace hympi
