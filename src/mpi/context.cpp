// The Context: topology, arena, intranode engine, and the internode part of each
// collective as a leader step (seed Alg. 9 and 10): the node's tree root runs it between
// the up and the down sweep, with MPI among node leaders.
#include "hympi/context.hpp"

#include <cstdio>
#include <string>

#include "core/wait.hpp"
#include "mpi/leader_agreement.hpp"
#include "mpi/leader_comm.hpp"
#include "mpi/mpi_check.hpp"
#include "mpi/mpi_types.hpp"
#include "mpi/node_collectives.hpp"

namespace hympi {
namespace {

using mpi::mpi_op;
using mpi::mpi_type;

void abort_job(const std::string& message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

/// `comm`, once the MPI library is known to have MPI-3 shared-memory windows.
MPI_Comm with_mpi3(MPI_Comm comm) {
  int version = 0, subversion = 0;
  MPI_Get_version(&version, &subversion);
  if (version < 3)
    throw Error("hympi: the MPI library reports version " + std::to_string(version) + "." +
                std::to_string(subversion) +
                "; hympi needs MPI-3 shared-memory windows (Open MPI >= 1.8, MPICH >= 3.0)");
  return comm;
}

}  // namespace

struct Context::Impl {
  Options options;
  Topology topology;
  mpi::SharedArena arena;
  std::unique_ptr<mpi::NodeCollectives> node;
  mpi::LeaderComm leaders;
  uint64_t seq = 0;  // sweeps so far: the same on every rank of the node

  Impl(MPI_Comm comm, Options o)
      : options(o), topology(with_mpi3(comm), o.node_size), arena(topology.node()),
        leaders{topology.leaders(), topology.world_rank(), mpi::wait_config(options, topology)} {
    core::set_watchdog_handler(&abort_job);
    node = mpi::make_node_collectives(topology, options, arena);
  }

  bool internode() const { return topology.node_count() > 1; }

  /// Before the leaders' own MPI call: agree on the arguments (HYMPI_VERIFY).
  void agree(const core::CallDesc& desc, core::Status& status) const {
    if (options.verify) mpi::leaders_agree(leaders, desc, status);
  }

  /// The node rank of world rank `root` if it is on my node, else -1.
  int node_rank_of(int root) const {
    if (root < 0 || root >= topology.world_size())
      throw Error("hympi: root " + std::to_string(root) + " is not a rank of the communicator (size " +
                  std::to_string(topology.world_size()) + ")");
    if (topology.node_of()[root] != topology.node_index()) return -1;
    const auto& members = topology.node_members();
    for (std::size_t r = 0; r < members.size(); ++r)
      if (members[r] == root) return int(r);
    return -1;
  }
};

Context::Context(MPI_Comm comm, Options options)
    : impl_(std::make_unique<Impl>(comm, options)) {}
Context::~Context() = default;

const Topology& Context::topology() const { return impl_->topology; }
const Options& Context::options() const { return impl_->options; }

void Context::barrier() {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::barrier, Datatype::float64, Op::sum, -1, 0};
  auto step = [&](std::byte*, std::size_t, core::Status& status) {
    // The leaders' argument check is itself an allreduce: it synchronizes the leaders.
    if (im.options.verify) {
      im.agree(desc, status);
      return;
    }
    MPI_Request request;
    mpi::check(MPI_Ibarrier(im.leaders.comm, &request), "MPI_Ibarrier (leaders)");
    im.leaders.complete(request, "barrier among node leaders (MPI_Ibarrier)");
  };
  im.node->barrier(im.seq, im.internode() ? core::LeaderStep(step) : core::LeaderStep());
}

void Context::allreduce(const void* in, void* out, std::size_t count, Datatype type, Op op) {
  Impl& im = *impl_;
  core::CallDesc desc{core::CallKind::allreduce, type, op, -1, count};
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.agree(desc, status);
    if (status.failed() || n == 0) return;
    MPI_Request request;
    mpi::check(MPI_Iallreduce(MPI_IN_PLACE, buffer, int(n), mpi_type(type), mpi_op(op),
                              im.leaders.comm, &request),
               "MPI_Iallreduce (leaders)");
    im.leaders.complete(request, "allreduce among node leaders (MPI_Iallreduce)");
  };
  im.node->allreduce(im.seq, in, out, count, type, op,
                     im.internode() ? core::LeaderStep(step) : core::LeaderStep());
}

void Context::reduce(const void* in, void* out, std::size_t count, Datatype type, Op op, int root) {
  Impl& im = *impl_;
  const int node_root = im.node_rank_of(root);
  const int root_leader = im.topology.node_of()[root];  // leaders are ranked by node index
  core::CallDesc desc{core::CallKind::reduce, type, op, root, count};
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.agree(desc, status);
    if (status.failed() || n == 0) return;
    const bool mine = im.topology.node_index() == root_leader;
    MPI_Request request;
    mpi::check(MPI_Ireduce(mine ? MPI_IN_PLACE : buffer, mine ? buffer : nullptr, int(n),
                           mpi_type(type), mpi_op(op), root_leader, im.leaders.comm, &request),
               "MPI_Ireduce (leaders)");
    im.leaders.complete(request, "reduce among node leaders (MPI_Ireduce)");
  };
  im.node->reduce(im.seq, in, out, count, type, op, root, node_root,
                  im.internode() ? core::LeaderStep(step) : core::LeaderStep());
}

void Context::bcast(void* data, std::size_t count, Datatype type, int root) {
  Impl& im = *impl_;
  const int node_root = im.node_rank_of(root);
  const int root_leader = im.topology.node_of()[root];
  core::CallDesc desc{core::CallKind::bcast, type, Op::sum, root, count};
  auto step = [&](std::byte* buffer, std::size_t n, core::Status& status) {
    im.agree(desc, status);
    if (status.failed() || n == 0) return;
    MPI_Request request;
    mpi::check(MPI_Ibcast(buffer, int(n), mpi_type(type), root_leader, im.leaders.comm, &request),
               "MPI_Ibcast (leaders)");
    im.leaders.complete(request, "bcast among node leaders (MPI_Ibcast)");
  };
  im.node->bcast(im.seq, data, count, type, root, node_root,
                 im.internode() ? core::LeaderStep(step) : core::LeaderStep());
}

}  // namespace hympi
