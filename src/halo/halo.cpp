// A Halo: the parts of one strategy (halo/exchange.hpp) over a validated pattern.
//  - flat_mpi, neighbor: one MPI part for every neighbour;
//  - shm, shm_direct, rma_*, aggregated*: an internode part (MPI per neighbour, or per node
//    pair) started first and finished last, and an intranode part (aggregated: the other
//    way round). Every rank builds the intranode part, even without intranode neighbours:
//    its setup is collective on the node.
// Each Halo has its own communicator and shared memory, both freed with it.
#include "hympi/halo.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <functional>
#include <array>
#include <limits>

#include "halo/aggregated_exchange.hpp"
#include "halo/exchange.hpp"
#include "halo/mpi_exchange.hpp"
#include "halo/neighbor_exchange.hpp"
#include "halo/rma_exchange.hpp"
#include "halo/shm_exchange.hpp"
#include "mpi/collective_error.hpp"
#include "mpi/context_access.hpp"
#include "mpi/mpi_check.hpp"
#include "mpi/setup_agreement.hpp"
#include "mpi/shared_arena.hpp"
#include "hympi/detail/finalize_guard.hpp"

namespace hympi {
namespace {

constexpr std::array kStrategies = {Strategy::shm,      Strategy::shm_direct, Strategy::flat_mpi,
                                    Strategy::neighbor, Strategy::rma_fence,  Strategy::rma_pscw,
                                    Strategy::rma_lock, Strategy::aggregated, Strategy::aggregated_odm,
                                    Strategy::automatic};

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
    case Strategy::aggregated_odm: return "aggregated_odm";
    case Strategy::automatic: return "automatic";
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
  Strategy requested, strategy;              // strategy: what runs (automatic's choice)
  int fields;
  HaloMode mode;
  // Call order. Vectors: idle -> begin(v) -> in_flight -> end(v) -> idle. Zero-copy:
  // acquire -> filling (write) -> begin_buffers -> in_flight -> end_buffers -> received (read) -> acquire ...
  enum class Phase { idle, filling, in_flight, received } phase = Phase::idle;
  MPI_Comm comm = MPI_COMM_NULL;             // the Halo's own: its messages match nothing else
  std::unique_ptr<mpi::SharedArena> arena;   // the Halo's own: freed with it
  std::vector<mpi::SharedRegion> vectors;    // shared_field(f), every node rank's
  std::vector<std::unique_ptr<halo::Exchange>> parts;  // begin in order, end in reverse
  HaloStats stats;
  std::vector<HaloTrial> trials;
  detail::FinalizeGuard guard;  // last: destroyed first

  Impl(const Pattern& p, Strategy s, int f, HaloMode m, std::function<void()> release)
      : pattern(p), requested(s), strategy(s), fields(f), mode(m), guard(std::move(release)) {
    const Topology& topo = pattern.data().context->topology();
    // Every argument agrees on every rank first, so the checks below throw everywhere or nowhere.
    mpi::agree_on_setup(
        topo.world(), "Halo",
        {{"strategy", int64_t(s), [](int64_t v) { return std::string(name_of(Strategy(v))); }},
         {"mode", int64_t(m), [](int64_t v) { return std::string(HaloMode(v) == HaloMode::buffers ? "buffers" : "vectors"); }},
         {"field count", f},
         {"pattern", int64_t(pattern.data().fingerprint >> 1),
          [](int64_t v) { return "the pattern with fingerprint " + std::to_string(v); }}});
    if (f < 1) throw Error("hympi: Halo: fields must be >= 1, got " + std::to_string(f));
    if (m == HaloMode::buffers && !zero_copy_capable(s))
      throw Error(std::string("hympi: Halo: zero-copy buffers need shm, aggregated, aggregated_odm, flat_mpi or automatic, not ") +
                  name_of(s));
    mpi::throw_if_any(topo.world(), oversized_message(s));
    try {
      mpi::check(MPI_Comm_dup(topo.world(), &comm), "MPI_Comm_dup (Halo)");
      if (s == Strategy::automatic) strategy = choose();
      build(strategy);
    } catch (...) {
      free();
      throw;
    }
    if (mode == HaloMode::buffers)
      for (auto& part : parts) part->defer_release();
  }

  /// MPI counts are int: a message that MPI would carry must fit one (checked on every
  /// rank before anything is set up; "" when all fit).
  std::string oversized_message(Strategy s) const {
    constexpr std::size_t kMaxBytes = std::size_t(std::numeric_limits<int>::max());
    const bool all_mpi = s == Strategy::flat_mpi || s == Strategy::neighbor;
    for (const halo::PeerPlan& peer : halo::peer_plans(pattern.data(), halo::Where::everywhere)) {
      const std::size_t bytes = std::max(peer.send_bytes(fields), peer.recv_bytes(fields));
      if ((all_mpi || peer.node_rank < 0) && bytes > kMaxBytes)
        return "hympi: Halo: rank " + std::to_string(pattern.data().context->topology().world_rank()) +
               " exchanges " + std::to_string(bytes) + " bytes with rank " + std::to_string(peer.rank) +
               " in one MPI message; MPI counts are int (at most " + std::to_string(kMaxBytes) +
               " bytes): use fewer fields per Halo, a smaller chunk, or a shared-memory strategy inside a node";
    }
    return "";
  }

  static bool zero_copy_capable(Strategy s) {
    return s == Strategy::shm || s == Strategy::aggregated || s == Strategy::aggregated_odm ||
           s == Strategy::flat_mpi || s == Strategy::automatic;
  }

  /// Throws on this rank, before anything is touched, when `call` is not allowed now.
  void expect(HaloMode m, Phase from, const char* call) const {
    if (mode != m)
      throw Error(std::string("hympi: Halo::") + call + " is for a Halo in " +
                  (m == HaloMode::buffers ? "HaloMode::buffers (zero-copy)" : "HaloMode::vectors") + "; this one uses " +
                  (mode == HaloMode::buffers ? "its buffers: call acquire, begin_buffers, end_buffers" : "vectors: call begin/end(v)"));
    if (phase == from) return;
    if (mode == HaloMode::buffers)
      throw Error(std::string("hympi: Halo::") + call + " out of order: one update is acquire(), writes to send_buffer, "
                  "begin_buffers(), end_buffers(), reads of recv_buffer");
    throw Error(std::string("hympi: Halo::") + call + " out of order: " +
                (phase == Phase::in_flight ? "an update is in flight: call end(v) before the next begin(v) or update(v)"
                                           : "no update is in flight: call begin(v) before end(v)"));
  }

  ~Impl() {
    if (phase == Phase::in_flight && std::uncaught_exceptions() == 0)
      std::fprintf(stderr, "hympi: warning: rank %d destroys a Halo between begin() and end(); its neighbours "
                   "may wait for this update (destruction is collective: finish the update on every rank first)\n",
                   pattern.data().context->topology().world_rank());
    free();
  }

  /// Frees the parts, the shared memory and the communicator (collective); idempotent.
  void free() {
    parts.clear();
    vectors.clear();
    arena.reset();
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }

  /// Collective. Replaces the parts (and the shared memory) by those of `s`.
  void build(Strategy s) {
    parts.clear();
    vectors.clear();
    stats = {};
    const Pattern::Data& d = pattern.data();
    Context& context = *d.context;
    const Topology& topo = context.topology();
    arena = std::make_unique<mpi::SharedArena>(topo.node(), kSlabBytes);
    const core::WaitConfig wait = detail::ContextAccess::wait(context);
    const std::size_t vector_bytes = std::size_t(d.local_points) * d.point_bytes;
    if (s == Strategy::shm_direct)
      for (int i = 0; i < fields; ++i) vectors.push_back(arena->allocate(vector_bytes, 4096));

    using halo::Where;
    const int rank = topo.world_rank();
    const bool aggregated = s == Strategy::aggregated || s == Strategy::aggregated_odm;
    // Messages per neighbour, except the internode ones of aggregation (it counts its own).
    for (const halo::PeerPlan& peer : halo::peer_plans(d, Where::everywhere)) {
      const std::size_t bytes = peer.send_bytes(fields);
      const bool intranode = peer.node_rank >= 0;
      if (bytes == 0 || (!intranode && aggregated)) continue;
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
    halo::ShmSetup setup{topo, *arena, wait, context.options().orders, fields};
    if (aggregated)
      parts.push_back(halo::make_aggregated_exchange(halo::peer_plans(d, Where::internode), comm, setup, stats));
    else
      parts.push_back(halo::make_mpi_exchange(halo::peer_plans(d, Where::internode), comm, fields, wait, rank));
    std::vector<halo::PeerPlan> intranode = halo::peer_plans(d, Where::intranode);
    if (s == Strategy::shm || aggregated)
      parts.push_back(halo::make_shm_exchange(std::move(intranode), setup));
    else if (s == Strategy::shm_direct)
      parts.push_back(halo::make_direct_exchange(std::move(intranode), d, vectors, setup));
    else parts.push_back(halo::make_rma_exchange(s, std::move(intranode), setup));
    // MASHM writes the intranode data first and reads the internode data first; ODM
    // (and every other strategy) starts the internode messages first.
    if (s == Strategy::aggregated) std::swap(parts[0], parts[1]);
  }

  /// Collective. Times each candidate on scratch vectors; every rank gets the same choice
  /// (the fastest by the slowest rank's time). One node: internode strategies are moot.
  Strategy choose() {
    const Pattern::Data& d = pattern.data();
    const Topology& topo = d.context->topology();
    if (topo.node_count() == 1) return Strategy::shm;
    std::vector<std::vector<std::byte>> scratch(std::size_t(fields),
                                                std::vector<std::byte>(std::size_t(d.local_points) * d.point_bytes));
    std::vector<void*> scratch_vectors;
    for (auto& v : scratch) scratch_vectors.push_back(v.data());
    Strategy best = Strategy::shm;
    double best_seconds = 0;
    for (Strategy candidate : {Strategy::shm, Strategy::aggregated, Strategy::aggregated_odm}) {
      build(candidate);
      const double seconds = time_updates(scratch_vectors, topo.world());
      trials.push_back({candidate, seconds});
      if (trials.size() == 1 || seconds < best_seconds) best = candidate, best_seconds = seconds;
    }
    return best;
  }

  /// Collective: seconds per update, the best of a few rounds on each rank, then the slowest rank's.
  double time_updates(std::span<void* const> v, MPI_Comm world) {
    constexpr int kWarmup = 3, kRounds = 5, kUpdates = 10;
    for (int i = 0; i < kWarmup; ++i) update(v);
    double best = std::numeric_limits<double>::max();
    for (int round = 0; round < kRounds; ++round) {
      mpi::check(MPI_Barrier(world), "MPI_Barrier (Halo automatic)");
      const double start = MPI_Wtime();
      for (int i = 0; i < kUpdates; ++i) update(v);
      best = std::min(best, (MPI_Wtime() - start) / kUpdates);
    }
    double slowest = 0;
    mpi::check(MPI_Allreduce(&best, &slowest, 1, MPI_DOUBLE, MPI_MAX, world), "MPI_Allreduce (Halo automatic)");
    return slowest;
  }

  void begin(std::span<void* const> v) {
    for (auto& part : parts) part->begin(v);
  }
  void end(std::span<void* const> v) {
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) (*it)->end(v);
  }
  void update(std::span<void* const> v) {
    begin(v);
    end(v);
  }

  /// Before any part starts (a throw after MPI requests started would free their buffers).
  void check_vectors(std::span<void* const> v) const {
    if (v.size() != std::size_t(fields))
      throw Error("hympi: Halo was set up for " + std::to_string(fields) + " field(s), got " +
                  std::to_string(v.size()));
    if (strategy == Strategy::shm_direct)
      for (std::size_t f = 0; f < v.size(); ++f)
        if (v[f] != vectors[f].local)
          throw Error("hympi: Halo(shm_direct) moves the vectors of Halo::shared_field(); field " +
                      std::to_string(f) + " is another array");
  }

  static constexpr std::size_t kSlabBytes = 64 << 10;  // per rank; larger requests get their own
};

Halo::Halo(const Pattern& pattern, Strategy strategy, int fields, HaloMode mode)
    : impl_(std::make_unique<Impl>(pattern, strategy, fields, mode, [this] { impl_.reset(); })) {}
Halo::~Halo() = default;

Strategy Halo::strategy() const { return impl_->strategy; }
Strategy Halo::requested_strategy() const { return impl_->requested; }
std::span<const HaloTrial> Halo::trials() const { return impl_->trials; }
int Halo::fields() const { return impl_->fields; }
const HaloStats& Halo::stats() const { return impl_->stats; }

void Halo::begin(std::span<void* const> vectors) {
  impl_->expect(HaloMode::vectors, Impl::Phase::idle, "begin(vectors)");
  impl_->check_vectors(vectors);
  impl_->begin(vectors);
  impl_->phase = Impl::Phase::in_flight;
}

void Halo::end(std::span<void* const> vectors) {
  impl_->expect(HaloMode::vectors, Impl::Phase::in_flight, "end(vectors)");
  impl_->check_vectors(vectors);
  impl_->end(vectors);
  impl_->phase = Impl::Phase::idle;
}

void Halo::acquire() {
  impl_->expect(HaloMode::buffers, impl_->phase == Impl::Phase::idle ? Impl::Phase::idle : Impl::Phase::received,
                "acquire()");
  // Every part ends its reads before any waits for its own buffers: no wait depends on
  // another part of a rank that is itself waiting.
  for (auto& part : impl_->parts) part->release_received();
  for (auto& part : impl_->parts) part->wait_sendable();
  impl_->phase = Impl::Phase::filling;
}

void Halo::begin_buffers() {
  impl_->expect(HaloMode::buffers, Impl::Phase::filling, "begin_buffers()");
  impl_->begin({});
  impl_->phase = Impl::Phase::in_flight;
}

void Halo::end_buffers() {
  impl_->expect(HaloMode::buffers, Impl::Phase::in_flight, "end_buffers()");
  impl_->end({});
  impl_->phase = Impl::Phase::received;
}

std::span<std::byte> Halo::buffer_bytes(int neighbor, bool send) {
  impl_->expect(HaloMode::buffers, send ? Impl::Phase::filling : Impl::Phase::received,
                send ? "send_buffer()" : "recv_buffer()");
  const std::size_t count = impl_->pattern.neighbors().size();
  if (neighbor < 0 || std::size_t(neighbor) >= count)
    throw Error("hympi: Halo buffer of neighbour " + std::to_string(neighbor) + ": the pattern has " +
                std::to_string(count) + " neighbour(s) (indices into pattern.neighbors())");
  for (auto& part : impl_->parts)
    if (auto b = part->buffers(std::size_t(neighbor)))
      return send ? b->send : std::span<std::byte>(const_cast<std::byte*>(b->recv.data()), b->recv.size());
  throw Error("hympi: Halo: no part moves neighbour " + std::to_string(neighbor));
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
