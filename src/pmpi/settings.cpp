// SPDX-License-Identifier: BSD-3-Clause
#include "pmpi/settings.hpp"

#include <mpi.h>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "pmpi/report.hpp"  // print_unprinted_report

namespace hympi::pmpi {
namespace {

// Stops the job with `message`: from each rank that calls it ("rank R: ..."), or, when every
// rank calls it with the same message, from rank 0 alone ("every rank: ...").
// A process of MPI sessions only (no MPI_Init: no MPI_COMM_WORLD) names no rank and exits
// with 1, which ends the job as any rank's exit without finalizing does.
[[noreturn]] void refuse(const std::string& message, bool every_rank = false) {
  int rank = -1, world = 0;  // the settings may differ between ranks: say whose
  PMPI_Initialized(&world);
  if (world) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (!world)
    std::fprintf(stderr, "hympi_pmpi: %s; stopping the job\n", message.c_str());
  else if (!every_rank)
    std::fprintf(stderr, "hympi_pmpi: rank %d: %s; stopping the job\n", rank, message.c_str());
  else if (rank == 0)
    std::fprintf(stderr, "hympi_pmpi: every rank: %s; stopping the job\n", message.c_str());
  std::fflush(stderr);
  // MPI_Abort tears the job down at once: give the launcher time to forward the message
  // (MPICH 5's hydra lost it in CI, as it did once in 60 runs of hympi's watchdog), and
  // rank 0 time to print it first where it alone does.
  std::this_thread::sleep_for(std::chrono::milliseconds(every_rank && rank != 0 ? 2000 : 300));
  if (world) PMPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

void parse_operations(const char* value, Settings& s) {
  const std::string text = value;
  if (text.empty()) return;
  s.intercepted.fill(text == "all");
  if (text == "all") return;
  if (text == "none") return;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, end - start);
    std::size_t op = 0;
    while (op < kOperationNames.size() && name != kOperationNames[op]) ++op;
    if (op == kOperationNames.size()) {
      std::string valid;
      for (const char* known : kOperationNames) valid += std::string(valid.empty() ? "" : ", ") + known;
      refuse("HYMPI_PMPI='" + text + "': unknown operation '" + name +
             "' (use all, none, or a comma-separated list of " + valid + ")");
    }
    s.intercepted[op] = true;
    start = end + 1;
  }
}

/// `value` of variable `name` as a count >= 0; else stops the job: "<name>='<value>': expected <expected>".
long long count_of(const char* name, const char* value, const char* expected) {
  char* end = nullptr;
  const long long n = std::strtoll(value, &end, 10);
  if (end == value || *end != '\0' || n < 0) refuse(std::string(name) + "='" + value + "': expected " + expected);
  return n;
}

}  // namespace

Settings read_settings() {
  Settings s;
  if (const char* v = std::getenv("HYMPI_PMPI")) parse_operations(v, s);
  if (const char* v = std::getenv("HYMPI_PMPI_AFTER"))
    s.after = long(count_of("HYMPI_PMPI_AFTER", v, "a count of calls >= 0 (0: from the first call)"));
  char version[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int length = 0;
  PMPI_Get_library_version(version, &length);
  s.measured = measured_for(version);
  if (s.measured) s.bounds = s.measured->bounds;
  const char* max = std::getenv("HYMPI_PMPI_MAX_BYTES");
  const char* min = std::getenv("HYMPI_PMPI_MIN_BYTES");
  if (max || min) {  // either replaces the table: one range for every operation
    s.measured = nullptr;
    s.bounds_set = true;
    const Bounds set{min ? std::size_t(count_of("HYMPI_PMPI_MIN_BYTES", min,
                                                "bytes per rank >= 0 (0: every size through hympi)"))
                         : 0,
                     !max || std::strcmp(max, "unlimited") == 0
                         ? kUnlimited
                         : std::size_t(count_of("HYMPI_PMPI_MAX_BYTES", max, "bytes per rank >= 0, or unlimited"))};
    s.bounds.fill(set);
  }
  if (const char* v = std::getenv("HYMPI_PMPI_REPORT")) {
    if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0)
      refuse(std::string("HYMPI_PMPI_REPORT='") + v + "': expected 1 (print at MPI_Finalize) or 0");
    s.report = v[0] == '1';
    if (s.report) std::atexit(print_unprinted_report);
  }
  return s;
}

void agree_settings() {
  Settings& s = stored_settings();
  // What decides a call's path (or, the report, a collective call in MPI_Finalize), a value
  // per row, 0 where it decides nothing (the bounds of an operation not intercepted, the
  // barrier's, the neighbourhood calls' least); `count`: a number worth printing (bytes:
  // unlimited as -1).
  struct Row {
    std::string name;
    long long value;
    bool count;
  };
  std::vector<Row> rows;
  long long mask = 0;
  for (std::size_t op = 0; op < kOperations; ++op) mask |= (s.intercepted[op] ? 1LL : 0LL) << op;
  int level = MPI_THREAD_SINGLE;
  PMPI_Query_thread(&level);
  // relaxed: set by a session made before MPI_Init on this thread, or compared below anyway
  const bool multiple = level == MPI_THREAD_MULTIPLE || g_thread_multiple.load(std::memory_order_relaxed);
  rows.push_back({"the thread level", multiple, false});  // first: see below
  rows.push_back({"HYMPI_PMPI_REPORT", s.report, false});
  rows.push_back({"HYMPI_PMPI", mask, false});
  rows.push_back({"HYMPI_PMPI_AFTER", mask ? s.after : 0, true});
  for (std::size_t op = 0; op < kOperations; ++op) {
    const bool bounded = s.intercepted[op] && Operation(op) != Operation::barrier;
    const bool floored = s.intercepted[op] && (Operation(op) == Operation::bcast || Operation(op) == Operation::reduce ||
                                               Operation(op) == Operation::allreduce);  // within_bound's callers
    const std::string which = std::string(" for ") + kOperationNames[op];
    rows.push_back({"HYMPI_PMPI_MIN_BYTES" + which, floored ? (long long)(s.bounds[op].min) : 0, true});
    rows.push_back({"HYMPI_PMPI_MAX_BYTES" + which, bounded ? (long long)(s.bounds[op].max) : 0, true});
  }
  // The least of each value and of its negation: every rank learns the least and the most.
  const std::size_t n = rows.size();
  std::vector<long long> values(2 * n);
  for (std::size_t i = 0; i < n; ++i) values[i] = rows[i].value, values[n + i] = -rows[i].value;
  PMPI_Allreduce(MPI_IN_PLACE, values.data(), int(values.size()), MPI_LONG_LONG, MPI_MIN, MPI_COMM_WORLD);
  // Ranks may ask for different thread levels: one at MPI_THREAD_MULTIPLE sends every call to
  // MPI, so every rank does (and the other paths decide nothing).
  const bool every_call_to_mpi = -values[n] != 0;  // a rank at MPI_THREAD_MULTIPLE
  // relaxed: published by g_init_seen's release below
  if (every_call_to_mpi) g_thread_multiple.store(true, std::memory_order_relaxed);
  auto shown = [](long long v) { return v == -1 ? std::string("unlimited") : std::to_string(v); };
  for (std::size_t i = 1; i < (every_call_to_mpi ? 2 : n); ++i) {
    const long long least = values[i], most = -values[n + i];
    if (least == most) continue;
    refuse(rows[i].name + " differs between ranks" +
               (rows[i].count ? " (" + shown(least) + " on some, " + shown(most) + " on others)" : "") +
               ": the ranks would take different paths for the same call (a size bound "
               "unset is the MPI's measured one). Give every rank the same settings, e.g. mpiexec -n N env "
               "LD_PRELOAD=... HYMPI_PMPI_...=... ./app (Open MPI passes its environment to the ranks on "
               "other hosts only with -x)",
           true);
  }
  // release: the thread level stored above reaches every thread that sees the flag set
  g_init_seen.store(true, std::memory_order_release);
}

#ifdef HYMPI_PMPI_SESSIONS
void note_session_thread_level(MPI_Session session) {
  MPI_Info info = MPI_INFO_NULL;
  char level[64] = {};
  int length = int(sizeof level) - 1, known = 0;
  if (PMPI_Session_get_info(session, &info) == MPI_SUCCESS && info != MPI_INFO_NULL) {
    // "thread_level": the key Open MPI 5 and MPICH 4-5 act on and answer with (MPICH always
    // answers; Open MPI only echoes what the program asked)
    PMPI_Info_get_string(info, "thread_level", &length, level, &known);
    PMPI_Info_free(&info);
  }
  // relaxed: a flag read on its own (process_path). A level not told is taken for the highest.
  if (!known || std::strcmp(level, "MPI_THREAD_MULTIPLE") == 0)
    g_thread_multiple.store(true, std::memory_order_relaxed);
}
#endif

const Measured* measured_for(const char* library_version) {
  for (const Measured& m : kMeasured) {
    const std::size_t n = std::strlen(m.family);
    if (std::strncmp(library_version, m.family, n) != 0) continue;
    const char* p = library_version + n;  // " v4.1.4, ..." or " Version:\t4.0.2 ..."
    while (*p && !std::isdigit(static_cast<unsigned char>(*p))) ++p;
    if (std::atoi(p) == m.major) return &m;
  }
  return nullptr;
}


}  // namespace hympi::pmpi
