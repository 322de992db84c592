// SPDX-License-Identifier: BSD-3-Clause
#include "machine.hpp"

#include <mpi.h>
#include <sched.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

namespace hympi::bench {
namespace {

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown";
}

std::string my_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return "?";
  std::string cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set)) cpus += (cpus.empty() ? "" : ",") + std::to_string(c);
  return cpus;
}

}  // namespace

nlohmann::json describe_machine(const Context& ctx) {
  const Topology& topo = ctx.topology();
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  int length = 0;
  MPI_Get_library_version(library, &length);
  std::string mpi(library, length);
  mpi = mpi.substr(0, mpi.find_first_of("\n,"));  // "Open MPI v4.1.4", "MPICH Version:\t4.0.2"
  if (const auto at = mpi.find(" Version:"); at != std::string::npos)
    mpi = mpi.substr(0, at) + " " + mpi.substr(mpi.find_first_not_of(" \t", at + 9));

  // Binding of every rank, gathered as fixed-size strings.
  constexpr int kWidth = 64;
  std::string mine = my_cpus();
  mine.resize(kWidth, '\0');
  std::vector<char> all(std::size_t(kWidth) * topo.world_size());
  MPI_Gather(mine.data(), kWidth, MPI_CHAR, all.data(), kWidth, MPI_CHAR, 0, topo.world());
  nlohmann::json binding = nlohmann::json::array();
  for (int r = 0; r < topo.world_size(); ++r) binding.push_back(std::string(all.data() + r * kWidth));

  return {{"cpu", cpu_model()},
          {"online_cpus", sysconf(_SC_NPROCESSORS_ONLN)},
          {"mpi", mpi},
          {"ranks", topo.world_size()},
          {"nodes", topo.node_count()},
          {"emulated_nodes", topo.emulated()},
          {"oversubscribed", topo.oversubscribed()},
          {"binding", binding},
          {"options", describe(ctx.options())}};
}

}  // namespace hympi::bench
