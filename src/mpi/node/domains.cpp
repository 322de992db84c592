// SPDX-License-Identifier: BSD-3-Clause
#include "mpi/node/domains.hpp"

#include <hwloc.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>

#include "core/name_table.hpp"
#include "hympi/types.hpp"
#include "mpi/support/mpi_check.hpp"

namespace hympi::mpi {
namespace {

/// The machine's L3 caches and packages from hwloc, loaded once per process (loading it is
/// what made a Context cost tens of milliseconds; the hardware does not change while a job
/// runs), or null when hwloc cannot load it. Thread-safe: a function-local static.
/// Only what my_domain() reads is discovered: every other object type is filtered out, and
/// the x86 backend (cpuid on every core, each time bound there) is left out: Linux's sysfs
/// gives caches and packages: a process's first Context took 5.4-8.1 ms without this
/// filter, 4.8-5.3 ms with it, at np 2 on this VM (hwloc 2.9; a Context's set-up loaded it
/// then, its first collective call does now); what remains is mostly hwloc loading its
/// plugins.
hwloc_topology_t machine() {
  struct Loaded {
    hwloc_topology_t topology = nullptr;
    Loaded() {
      if (hwloc_topology_init(&topology) != 0) {
        topology = nullptr;
        return;
      }
      hwloc_topology_set_all_types_filter(topology, HWLOC_TYPE_FILTER_KEEP_NONE);
      for (hwloc_obj_type_t type : {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_PACKAGE})
        hwloc_topology_set_type_filter(topology, type, HWLOC_TYPE_FILTER_KEEP_ALL);
#if HWLOC_API_VERSION >= 0x00020100
      hwloc_topology_set_components(topology, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
      if (hwloc_topology_load(topology) != 0) {
        hwloc_topology_destroy(topology);
        topology = nullptr;
      }
    }
    ~Loaded() {
      if (topology) hwloc_topology_destroy(topology);
    }
  };
  static const Loaded loaded;
  return loaded.topology;
}

/// This thread may run on every online CPU: not bound (MPICH's launcher binds nothing
/// unless asked). Its binding then spans every L3 cache, so my_domain() needs no hwloc:
/// -1 groups the node as one domain, as the one domain of a machine with one L3 would.
bool unbound() {
  cpu_set_t set;
  CPU_ZERO(&set);
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  return sched_getaffinity(0, sizeof set, &set) == 0 && online > 0 && CPU_COUNT(&set) >= online;
}

/// Logical index of the L3 cache (or, lacking one, the package) that holds this
/// process's whole CPU binding; -1 when the binding spans several, or is unknown. The
/// binding is read at each call: a program may rebind between Contexts.
int my_domain() {
  if (unbound()) return -1;  // without loading hwloc (~4 ms at a process's first Context collective)
  hwloc_topology_t topology = machine();
  if (!topology) return -1;
  int domain = -1;
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(topology, bound, HWLOC_CPUBIND_PROCESS) == 0) {
    for (hwloc_obj_type_t type : {HWLOC_OBJ_L3CACHE, HWLOC_OBJ_PACKAGE}) {
      if (hwloc_get_nbobjs_by_type(topology, type) < 1) continue;
      hwloc_obj_t obj = hwloc_get_next_obj_covering_cpuset_by_type(topology, bound, type, nullptr);
      if (obj && hwloc_bitmap_isincluded(bound, obj->cpuset)) domain = int(obj->logical_index);
      break;
    }
  }
  hwloc_bitmap_free(bound);
  return domain;
}

enum class Placement { bunch, scatter };
constexpr core::Named<Placement> kPlacements[] = {{Placement::bunch, "bunch"}, {Placement::scatter, "scatter"}};

/// This rank's emulated domain (HYMPI_EMULATE_SOCKETS), nullopt when it is not set; a
/// malformed value sets `error`.
std::optional<int> emulated_domain(int node_rank, int node_size, std::string& error) {
  const char* value = std::getenv("HYMPI_EMULATE_SOCKETS");
  if (!value || !*value) return std::nullopt;
  char* end = nullptr;
  errno = 0;
  const long sockets = std::strtol(value, &end, 10);
  std::optional<Placement> placement = Placement::bunch;
  if (*end == ':') placement = core::value_in(kPlacements, end + 1);
  else if (*end != '\0') placement.reset();
  if (errno != 0 || end == value || sockets < 1 || !placement) {
    error = std::string("hympi: environment variable HYMPI_EMULATE_SOCKETS='") + value +
            "' is not valid: it takes a number of sockets per node S >= 1, optionally followed by :" +
            core::names_in(kPlacements, " or :") + ", e.g. 2:scatter (or unset it for hwloc's)";
    return std::nullopt;
  }
  const long s = std::min<long>(sockets, node_size);
  return int(*placement == Placement::bunch ? long(node_rank) * s / node_size : node_rank % s);
}

}  // namespace

std::vector<std::vector<int>> domain_groups(MPI_Comm node) {
  int size = 0, rank = 0;
  MPI_Comm_size(node, &size);
  MPI_Comm_rank(node, &rank);
  // Per rank: where its domain comes from (kHwloc, kEmulated, kBad) and the domain.
  enum Source { kHwloc, kEmulated, kBad };
  std::string error;
  const std::optional<int> emulated = emulated_domain(rank, size, error);
  const int mine[2] = {!error.empty() ? kBad : emulated ? kEmulated : kHwloc,
                       emulated ? *emulated : size > 1 ? my_domain() : -1};
  std::vector<int> both(2 * std::size_t(size));
  check(MPI_Allgather(mine, 2, MPI_INT, both.data(), 2, MPI_INT, node), "MPI_Allgather (domains)");
  std::vector<int> domains(size);
  for (int r = 0; r < size; ++r) {  // the same verdict on every rank of the node
    const int source = both[2 * std::size_t(r)];
    if (source == kBad)
      throw Error(r == rank ? error
                            : "hympi: HYMPI_EMULATE_SOCKETS is not valid on node rank " + std::to_string(r) +
                                  " (see its message)");
    if (source != both[0])
      throw Error("hympi: HYMPI_EMULATE_SOCKETS is set on some ranks of a node and not on others (node ranks 0 and " +
                  std::to_string(r) + "): set it alike for every rank, or nowhere");
    domains[std::size_t(r)] = both[2 * std::size_t(r) + 1];
  }

  std::vector<int> everyone(size);
  for (int r = 0; r < size; ++r) everyone[r] = r;
  if (std::count(domains.begin(), domains.end(), -1) > 0) return {everyone};

  std::map<int, std::vector<int>> by_domain;
  for (int r = 0; r < size; ++r) by_domain[domains[r]].push_back(r);
  std::vector<std::vector<int>> groups{by_domain[domains[0]]};  // rank 0's domain first
  for (auto& [domain, ranks] : by_domain)
    if (domain != domains[0]) groups.push_back(ranks);
  return groups;
}

}  // namespace hympi::mpi
