// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/coll/context_engine.hpp"

#include <algorithm>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "core/name_table.hpp"
#include "mpi/coll/core_config.hpp"
#include "mpi/support/collective_error.hpp"
#include "mpi/support/setup_agreement.hpp"

namespace hympi::mpi {
namespace {

/// The engines this process made that are still alive, oldest first.
std::vector<std::weak_ptr<ContextEngine>> g_engines;
/// Larger than every key this process has made or taken part in.
int64_t g_next_key = 0;

void require_mpi3() {
  int version = 0, subversion = 0;
  MPI_Get_version(&version, &subversion);
  if (version < 3)
    throw Error("hympi: the MPI library reports version " + std::to_string(version) + "." +
                std::to_string(subversion) +
                "; hympi needs MPI-3 shared-memory windows (Open MPI >= 1.8, MPICH >= 3.0)");
}

/// This rank's newest live engine that a Context on `comm` with `options` may join, or null.
std::shared_ptr<ContextEngine> proposal(MPI_Comm comm, const Options& options) {
  std::erase_if(g_engines, [](const std::weak_ptr<ContextEngine>& e) { return e.expired(); });
  if (comm == MPI_COMM_NULL) return nullptr;  // the agreement reports it
  for (auto it = g_engines.rbegin(); it != g_engines.rend(); ++it) {
    std::shared_ptr<ContextEngine> engine = it->lock();
    if (!(engine->options == options) || engine->broken()) continue;
    int relation = MPI_UNEQUAL;
    MPI_Comm_compare(comm, engine->topology.world(), &relation);
    if (relation == MPI_IDENT || relation == MPI_CONGRUENT) return engine;
  }
  return nullptr;
}

/// What hympi holds in this process, for an error when MPI refuses it more.
std::string resources_held() {
  std::size_t contexts = 0, engines = 0, halos = 0, comms = 0;
  for (const auto& e : g_engines)
    if (const auto engine = e.lock()) {
      contexts += std::size_t(engine.use_count()) - 1;  // each Context holds one reference
      ++engines;
      halos += std::size_t(engine->halo_tags.in_use());
      comms += 3 + std::size_t(engine->halo_tags.communicators());  // world, node, leaders
    }
  const auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  return "hympi holds " + count(comms, "communicator") + " in this process for " + count(contexts, "Context") + " (" +
         count(engines, "engine") + ") and " + count(halos, "ghost-update object") +
         " alive; Contexts on one communicator and its duplicates share theirs. Free the hympi objects and "
         "communicators no longer needed";
}

}  // namespace

ContextEngine::ContextEngine(MPI_Comm comm, const Options& o, int64_t agreed_key)
    : options(o),
      topology(comm, o.node_size),
      // One window for the collectives' blocks and buffer, with room for the first Halos:
      // each further window costs a creation and the population of its pages.
      arena(topology.node(), o.collective_buffer_bytes + (64 << 10)),
      halo_tags(topology.world()),
      leaders(topology, wait_config(options, topology)),
      key(agreed_key) {}

NodeCollectives& ContextEngine::node_collectives() {
  if (node) return *node;
  agree_on_setup(topology.world(), "Context's first collective call", {}, {}, &leaders.wait());
  std::string error;
  std::optional<core::Tree> tree;
  try {
    tree = node_tree(topology, options);
  } catch (const Error& e) {  // a malformed setting (HYMPI_EMULATE_SOCKETS): its message alone
    error = e.what();
  }
  if (tree) {
    try {
      node = make_node_collectives(topology, options, *tree, arena);
    } catch (const std::exception& e) {  // MPI refused a window, /dev/shm is full, no memory
      error = std::string(e.what()) + ". " + resources_held() + ".";
    }
  }
  try {
    throw_if_any(topology.world(), error);
  } catch (const Error&) {
    node.reset();  // where it was made: its regions go back to the arena
    throw;
  }
  return *node;
}

std::shared_ptr<ContextEngine> ContextEngine::join_or_make(MPI_Comm comm, const Options& o) {
  require_mpi3();
  const std::shared_ptr<ContextEngine> candidate = proposal(comm, o);
  const int64_t mine = candidate ? candidate->key : -1;
  // The options that shape the protocols must agree (an environment variable set on one
  // host only, say); the wait policy and the watchdog may differ per rank (no sharing then).
  const core::WaitConfig wait = setup_wait(o);
  const std::vector<int64_t> gathered = agree_on_setup(
      comm, "Context",
      {{"HYMPI_NODE_SIZE", o.node_size},
       {"HYMPI_TREE", int64_t(o.tree) << 32 | o.tree_arity,
        [](int64_t v) { return v >> 32 ? std::string("binomial") : "kary:" + std::to_string(v & 0xffffffff); }},
       {"HYMPI_TOPO_AWARE", o.topology_aware},
       {"HYMPI_BARRIER", int64_t(o.barrier), &core::show_name<BarrierAlgorithm>},
       {"HYMPI_ORDERS", int64_t(o.orders), &core::show_name<MemoryOrders>},
       {"HYMPI_COLL_BUFFER", int64_t(o.collective_buffer_bytes)},
       {"HYMPI_VERIFY", o.verify},
       {"HYMPI_SINGLE_COPY", int64_t(o.single_copy_bytes)}},
      {mine, g_next_key}, &wait);
  bool join = mine >= 0;
  int64_t key = 0;
  for (std::size_t r = 0; r < gathered.size(); r += 2) {
    join = join && gathered[r] == mine;
    key = std::max(key, gathered[r + 1]);
  }
  if (join) return candidate;
  g_next_key = key + 1;  // on every rank, also where the making fails half way
  std::shared_ptr<ContextEngine> engine;
  try {
    engine = std::make_shared<ContextEngine>(comm, o, key);
  } catch (const SetupRefused&) {
    throw;
  } catch (const Error& e) {  // MPI refused a communicator or a window, or /dev/shm is full
    throw Error(std::string(e.what()) + ". " + resources_held() + ".");
  }
  g_engines.push_back(engine);
  return engine;
}

}  // namespace hympi::mpi
