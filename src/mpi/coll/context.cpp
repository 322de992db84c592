// SPDX-License-Identifier: BSD-3-Clause
// The Context: its collectives on the engine it shares with Contexts on congruent
// communicators (context_engine.hpp), and the internode part of each collective as a
// leader step (Algorithms 9 and 10 of Quaranta & Maddegedara (2021)): the
// node's tree root runs it between the up and the down sweep, with MPI among node leaders.
#include "hympi/context.hpp"

#include <cstdlib>
#include <cstring>
#include <string>
#include <chrono>
#include <thread>
#include <functional>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/messages.hpp"
#include "core/wait.hpp"
#include "hympi/detail/finalize_guard.hpp"
#include "mpi/coll/context_access.hpp"
#include "mpi/coll/context_engine.hpp"
#include "mpi/support/mpi_types.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi {
namespace {

using mpi::mpi_op;
using mpi::mpi_type;

// The thread that created the latest Context, taken for the one that makes the MPI calls:
// at MPI_THREAD_SINGLE or FUNNELED every Context is made on it; at SERIALIZED (which
// libhympi_pmpi serves too) another thread may make a call, and a watchdog that fires there
// ends the process with std::abort, as from the watchdog's helper thread, which must not
// call MPI_Abort.
std::thread::id g_mpi_thread;

void abort_job(const std::string& message) {
  core::emit_message(message);
  // MPI_Abort tears the job down at once: give the launcher time to forward the message
  // (with MPICH's hydra it was lost once in about 60 runs of a watchdog test).
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  if (std::this_thread::get_id() == g_mpi_thread) MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();  // from the helper thread: the launcher ends the other ranks
}

/// Options::from_env() on this rank; when a variable is malformed here, this rank takes
/// part in the Context's set-up agreement as a refusal, so every rank throws, not this one
/// alone (the others would wait in the agreement).
Options options_from_env(MPI_Comm comm) {
  try {
    return Options::from_env();
  } catch (const Error& e) {
    if (comm == MPI_COMM_NULL) throw;  // no communicator: no set-up for the others to wait in
    mpi::refuse_setup(comm, "Context", e.what());
  }
}

}  // namespace

struct Context::Impl {
  std::shared_ptr<mpi::ContextEngine> engine;  // shared with Contexts on congruent communicators
  const uint8_t number;                        // this Context's among them (CallDesc::context)
  const Options& options;
  Topology& topology;
  mpi::LeaderComm& leaders;
  detail::FinalizeGuard guard;  // last: destroyed first

  Impl(MPI_Comm comm, const Options& o, std::function<void()> release)
      : engine(mpi::ContextEngine::join_or_make(comm, o)),
        number(engine->number_next()),
        options(engine->options),
        topology(engine->topology),
        leaders(engine->leaders),
        guard(std::move(release)) {
    g_mpi_thread = std::this_thread::get_id();
    core::set_watchdog_handler(&abort_job);
  }

  /// The node collectives, for a call of this Context (made at the engine's first call).
  mpi::NodeCollectives& node() {
    mpi::NodeCollectives& collectives = engine->node_collectives();
    collectives.set_caller(number);
    return collectives;
  }

  /// The leader step of a call, or none when the whole job is one node.
  template <class Step>
  core::LeaderStep step_if_internode(Step& step) const {
    return topology.node_count() > 1 ? core::LeaderStep(step) : core::LeaderStep();
  }

  /// Before the leaders' own MPI call: agree on the arguments (HYMPI_VERIFY). For an
  /// allreduce pass its data: returns true when they were reduced with the check.
  bool agree(const core::CallDesc& desc, core::Status& status, std::byte* data = nullptr,
             std::size_t count = 0) {
    return options.verify && engine->leader_check.run(leaders, desc, status, data, count);
  }

  /// Where a rooted call's root is: its node rank if it is on my node (else -1), the
  /// leaders' rank of its node, and this rank's own failure when `root` is no rank (the
  /// call then fails on every rank: see TreeCollective).
  struct Root {
    int node_rank = -1, leader = 0;
    core::Status own;
  };
  /// This rank's own failure in `desc`'s type and op (enumerations a cast or a binding may
  /// have filled with anything) and in the buffers it must read or write (null with a
  /// nonzero count), or none; the call then fails on every rank (see TreeCollective).
  core::Status own_failure(const core::CallDesc& desc,
                           std::initializer_list<std::pair<const void*, core::Argument>> buffers) const {
    const int64_t me = topology.world_rank();
    if (size_of(desc.type) == 0) return core::Status::invalid_argument(me, desc, core::Argument::type);
    if (desc.kind != core::CallKind::bcast && uint8_t(desc.op) > uint8_t(Op::max))
      return core::Status::invalid_argument(me, desc, core::Argument::op);
    for (const auto& [pointer, argument] : buffers)
      if (desc.count > 0 && pointer == nullptr) return core::Status::invalid_argument(me, desc, argument);
    return {};
  }

  Root locate(int root, const core::CallDesc& desc) const {
    if (root < 0 || root >= topology.world_size())
      return {-1, 0, core::Status::invalid_root(topology.world_rank(), desc, topology.world_size())};
    return {node_rank_of(root), topology.node_of()[root], {}};
  }

  /// With HYMPI_VERIFY=0 a failure found on this node cannot reach the other nodes, whose
  /// leaders are already in the MPI call: end the job with the message instead of a hang.
  void unless_unchecked(const core::Status& status) const {
    if (!options.verify && status.failed() && topology.node_count() > 1)
      abort_job(status.message() + " (HYMPI_VERIFY=0: the other nodes cannot be told, so the job is aborted; "
                "unset HYMPI_VERIFY to get this error on every rank)");
  }

  /// The node rank of world rank `root` (a valid rank) if it is on my node, else -1.
  int node_rank_of(int root) const {
    if (topology.node_of()[root] != topology.node_index()) return -1;
    const auto& members = topology.node_members();
    for (std::size_t r = 0; r < members.size(); ++r)
      if (members[r] == root) return int(r);
    return -1;
  }
};


core::WaitConfig detail::ContextAccess::wait(const Context& context) {
  return context.impl_->leaders.wait();
}
mpi::SharedArena& detail::ContextAccess::arena(Context& context) { return context.impl_->engine->arena; }
mpi::TagRanges& detail::ContextAccess::tag_ranges(Context& context) { return context.impl_->engine->halo_tags; }
int64_t detail::ContextAccess::engine_key(const Context& context) { return context.impl_->engine->key; }
bool detail::ContextAccess::release_is_local(const Context& context) {
  return !context.impl_ || context.impl_->engine.use_count() > 1;
}

Context::Context(MPI_Comm comm) : Context(comm, options_from_env(comm)) {}
Context::Context(MPI_Comm comm, Options options)
    : impl_(std::make_unique<Impl>(comm, options, [this] { impl_.reset(); })) {}
Context::~Context() = default;

const Topology& Context::topology() const { return impl_->topology; }
const Options& Context::options() const { return impl_->options; }

void Context::barrier() {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::barrier, Datatype::float64, Op::sum, -1, 0, im.number};
  auto step = [&](std::byte*, std::size_t, core::Status& status) {
    // The leaders' argument check is itself an allreduce: it synchronizes the leaders.
    if (im.options.verify) return (void)im.agree(desc, status);
    im.unless_unchecked(status);
    MPI_Comm comm = im.leaders.comm();
    im.leaders.run(
        "barrier among node leaders (MPI_Barrier)", [&] { return MPI_Barrier(comm); },
        [&](MPI_Request* r) { return MPI_Ibarrier(comm, r); });
  };
  im.node().barrier(im.step_if_internode(step));
}

void Context::allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op) {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::allreduce, type, op, -1, count, im.number};
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.unless_unchecked(status);
    if (im.agree(desc, status, buffer, n) || status.failed() || n == 0) return;
    MPI_Comm comm = im.leaders.comm();
    im.leaders.run(
        "allreduce among node leaders (MPI_Allreduce)",
        [&] { return MPI_Allreduce(MPI_IN_PLACE, buffer, int(n), mpi_type(type), mpi_op(op), comm); },
        [&](MPI_Request* r) {
          return MPI_Iallreduce(MPI_IN_PLACE, buffer, int(n), mpi_type(type), mpi_op(op), comm, r);
        });
  };
  im.node().allreduce(in, out, count, type, op, im.step_if_internode(step),
                     im.own_failure(desc, {{in, core::Argument::in}, {out, core::Argument::out}}));
}

void Context::reduce(const void* in, void* out, std::size_t count, Datatype type, Op op, int root) {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::reduce, type, op, root, count, im.number};
  const Impl::Root where = im.locate(root, desc);
  const int root_leader = where.leader;  // leaders are ranked by node index
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.unless_unchecked(status);
    im.agree(desc, status);
    if (status.failed() || n == 0) return;
    // No MPI_IN_PLACE: MPICH 4.0.2's blocking MPI_Reduce segfaults with it at a root
    // other than 0 from 512 doubles on (measured). The root reduces a copy into the
    // buffer; the others give a scratch receive buffer (only the root's is significant).
    const bool mine = im.topology.node_index() == root_leader;
    std::vector<std::byte> scratch(n * size_of(type));
    if (mine) std::memcpy(scratch.data(), buffer, scratch.size());
    const void* send = mine ? static_cast<const void*>(scratch.data()) : buffer;
    void* receive = mine ? buffer : scratch.data();
    MPI_Comm comm = im.leaders.comm();
    im.leaders.run(
        "reduce among node leaders (MPI_Reduce)",
        [&] { return MPI_Reduce(send, receive, int(n), mpi_type(type), mpi_op(op), root_leader, comm); },
        [&](MPI_Request* r) {
          return MPI_Ireduce(send, receive, int(n), mpi_type(type), mpi_op(op), root_leader, comm, r);
        });
  };
  core::Status own = where.own;  // an invalid root first; `out` matters at the root only
  if (!own.failed())
    own = root == im.topology.world_rank()
              ? im.own_failure(desc, {{in, core::Argument::in}, {out, core::Argument::out}})
              : im.own_failure(desc, {{in, core::Argument::in}});
  im.node().reduce(in, out, count, type, op, root, where.node_rank, im.step_if_internode(step), own);
}

void Context::bcast(void* data, std::size_t count, Datatype type, int root) {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::bcast, type, Op::sum, root, count, im.number};
  const Impl::Root where = im.locate(root, desc);
  const int root_leader = where.leader;
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.unless_unchecked(status);
    im.agree(desc, status);
    if (status.failed() || n == 0) return;
    MPI_Comm comm = im.leaders.comm();
    im.leaders.run(
        "bcast among node leaders (MPI_Bcast)",
        [&] { return MPI_Bcast(buffer, int(n), mpi_type(type), root_leader, comm); },
        [&](MPI_Request* r) { return MPI_Ibcast(buffer, int(n), mpi_type(type), root_leader, comm, r); });
  };
  const core::Status own = where.own.failed() ? where.own : im.own_failure(desc, {{data, core::Argument::data}});
  im.node().bcast(data, count, type, root, where.node_rank, im.step_if_internode(step), own);
}

}  // namespace hympi
