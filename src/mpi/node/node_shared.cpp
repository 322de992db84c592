// SPDX-License-Identifier: BSD-3-Clause
// The untyped part of hympi::NodeShared (include/hympi/node_shared.hpp, whose invariants
// this follows): the leader's segment of a node window, the object's passive-target
// epoch, and the two synchronizations of a refresh.
#include "hympi/node_shared.hpp"

#include <cstdint>
#include <limits>

#include "core/name_table.hpp"
#include "hympi/shared_window.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi::detail {

using mpi::check;

struct NodeSharedMemory::Impl {
  MPI_Comm world;
  std::size_t count;
  int node_rank, node_size;
  SharedWindow window;  // the whole array in the leader's segment (zeroed, first touched by it: rule 6)
  bool locked = false;  // inside the MPI_Win_lock_all epoch
  FinalizeGuard guard;  // after the window's: released before it at MPI_Finalize

  Impl(const Topology& topo, std::size_t bytes, std::size_t elements)
      : world(topo.world()), count(elements), node_rank(topo.node_rank()), node_size(topo.node_size()),
        window(topo.node(), topo.is_leader() ? bytes : 0, 4096), guard([this] { close_epoch(); }) {
    check(MPI_Win_lock_all(MPI_MODE_NOCHECK, window.win()), "MPI_Win_lock_all (NodeShared)");
    locked = true;
  }
  ~Impl() { close_epoch(); }
  void close_epoch() {
    if (locked) MPI_Win_unlock_all(window.win());
    locked = false;
  }
  void sync() { check(MPI_Win_sync(window.win()), "MPI_Win_sync (NodeShared)"); }
};

namespace {

/// FNV-1a of a type's name: the same type gives the same number on every rank.
int64_t type_id(const char* name) {
  uint64_t h = 1469598103934665603ull;
  for (const char* c = name; *c; ++c) h = (h ^ uint8_t(*c)) * 1099511628211ull;
  return int64_t(h >> 1);
}

constexpr auto kWriters = core::name_table<Writers>({HYMPI_WRITERS(HYMPI_ROW)});

std::string show_writers(int64_t w) { return core::name_in(kWriters, Writers(w)); }

}  // namespace

NodeSharedMemory::NodeSharedMemory(const Context& context, std::size_t count, std::size_t element_size,
                                   std::size_t alignment, const char* type_name) {
  const Topology& topo = context.topology();
  mpi::agree_on_setup(topo.world(), "NodeShared",
                      {{"count", int64_t(count)}, {"element size", int64_t(element_size)},
                       {"element type (a hash of its name)", type_id(type_name)}});
  if (alignment > 4096 || count > std::numeric_limits<std::size_t>::max() / element_size)
    throw Error("hympi: NodeShared: " + std::to_string(count) + " elements of " + std::to_string(element_size) +
                " bytes aligned to " + std::to_string(alignment) + " do not fit one shared window");
  impl_ = std::make_unique<Impl>(topo, count * element_size, count);
}

NodeSharedMemory::~NodeSharedMemory() = default;
NodeSharedMemory::NodeSharedMemory(NodeSharedMemory&&) noexcept = default;

std::byte* NodeSharedMemory::data() const { return impl_->window.segment(0); }
std::size_t NodeSharedMemory::count() const { return impl_->count; }

std::pair<std::size_t, std::size_t> NodeSharedMemory::written_by_me(Writers writers) const {
  const Impl& m = *impl_;
  if (writers == Writers::leader) return {0, m.node_rank == 0 ? m.count : 0};
  const std::size_t ranks = std::size_t(m.node_size);
  // floor(count * k / ranks) without overflow
  const auto bound = [&](int k) { return m.count / ranks * std::size_t(k) + m.count % ranks * std::size_t(k) / ranks; };
  return {bound(m.node_rank), bound(m.node_rank + 1) - bound(m.node_rank)};
}

void NodeSharedMemory::begin_write(Writers writers) {
  impl_->sync();  // my reads of the old contents before anyone's writes
  // Synchronization 1, and the writers agreed on: the lowest and highest value named.
  int mine[2] = {int(writers), -int(writers)}, all[2] = {0, 0};
  check(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, impl_->world), "MPI_Allreduce (NodeShared refresh)");
  if (all[0] != -all[1])
    throw Error("hympi: NodeShared::refresh: ranks named different writers (" + show_writers(all[0]) + " and " +
                show_writers(-all[1]) + "); every rank must pass the same Writers");
}

void NodeSharedMemory::end_write(const std::string& error) {
  impl_->sync();                          // my writes visible before synchronization 2
  mpi::throw_if_any(impl_->world, error);  // synchronization 2: its first call is an MPI_Allreduce
  impl_->sync();                          // my later reads after everyone's writes
}

}  // namespace hympi::detail
