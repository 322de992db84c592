// SPDX-License-Identifier: BSD-3-Clause
// The PMPI library's settings, from the environment, read once per process:
//   HYMPI_PMPI=all | none | a comma-separated list of barrier,bcast,reduce,allreduce,
//              neighbor_alltoall,neighbor_alltoallv (default: the four collectives; the
//              neighbourhood calls beat the MPI's own only in part of the cases measured,
//              BENCHMARKS.md: a program opts in)
//   HYMPI_PMPI_AFTER=N  a communicator's Context is made at its (N+1)-th intercepted call
//                       (default 1000: about what a Context's set-up costs in calls saved)
//   HYMPI_PMPI_MAX_BYTES=N  calls moving more than N bytes per rank go to MPI ("unlimited"
//                       for none); for a neighbourhood call, each message above N bytes
//                       goes by MPI, the others through hympi
//   HYMPI_PMPI_MIN_BYTES=N  bcast, reduce and allreduce calls moving fewer than N bytes per
//                       rank go to MPI (0 for none)
//                       Without either, each operation is served at the sizes where hympi
//                       was measured faster than this MPI library (kMeasured below; another
//                       library: kUnmeasured); with
//                       one or both, every operation is served from MIN (0) to MAX (unlimited)
//   HYMPI_PMPI_REPORT=1 rank 0 prints, at MPI_Finalize, where the calls went (a process
//                       whose MPI_Init the library did not see: its own, at exit)
// A malformed value stops the job (MPI_Abort) with a message that names it.
#pragma once

#include <mpi.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <limits>

#include "pmpi/mpi_features.hpp"
#include "pmpi/paths.hpp"

namespace hympi::pmpi {

inline constexpr std::size_t kUnlimited = std::numeric_limits<std::size_t>::max();

/// Bytes per rank (per message for the neighbourhood calls) served through hympi.
struct Bounds {
  std::size_t min = 0, max = kUnlimited;  // served when min <= bytes <= max
};
inline constexpr Bounds kAll{}, kNone{kUnlimited, 0}, k512To16K{512, 16384}, kTo16K{0, 16384};

/// Where hympi was measured faster than the MPI's own call, per MPI library and Operation
/// (barrier, bcast, reduce, allreduce, neighbor_alltoall, neighbor_alltoallv): 2 ranks,
/// hympi-osu-probe preloaded against plain, 5 launches, in both four-MPI runs of
/// BENCHMARKS.md ("Small and large broadcasts and reductions per MPI": 2026-11-27 and
/// 2026-11-29); a bound between two probe sizes (8 B, 64 B - 512 B by powers of 2, then
/// x8 up to 1 MiB) lies between the last size faster in both and the first one not (Open
/// MPI 4's bcast, faster at 32 KiB in those, was 1.50 there in "After the cheaper call
/// path": capped at 16 KiB); one interval per operation. MPICH 5's row is from the two
/// runs of 2026-12-07, where its bcast was faster in both at no size and its reduce at
/// 8-512 B only (from 32 KiB, served before: 0.90-1.16). A library not in the table gets
/// kUnmeasured: barrier, allreduce and the neighbourhood calls at the sizes where every
/// measured library was faster, bcast at none, reduce at 512 B - 16 KiB (Open MPI 4's row:
/// no size was faster with all four).
struct Measured {
  const char* family;  // MPI_Get_library_version begins "Open MPI v<major>" or "MPICH Version: <major>"
  int major;
  std::array<Bounds, kOperations> bounds;
};
inline constexpr Measured kMeasured[] = {
    {"Open MPI", 4, {kAll, k512To16K, k512To16K, kAll, kTo16K, kTo16K}},
    {"Open MPI", 5, {kAll, k512To16K, Bounds{512, 2048}, kAll, kTo16K, kTo16K}},
    {"MPICH", 4, {kAll, kNone, kAll, kAll, kTo16K, kTo16K}},
    {"MPICH", 5, {kAll, kNone, Bounds{0, 512}, kAll, kTo16K, kTo16K}},
};
inline constexpr std::array<Bounds, kOperations> kUnmeasured = {kAll, kNone, k512To16K, kAll, kTo16K, kTo16K};

/// The row of kMeasured for an MPI_Get_library_version text, or null.
const Measured* measured_for(const char* library_version);

// What is intercepted without HYMPI_PMPI, by Operation.
inline constexpr std::array<bool, kOperations> kDefaultOperations = {true, true, true, true, false, false};

struct Settings {
  std::array<bool, kOperations> intercepted = kDefaultOperations;  // by Operation
  long after = 1000;
  std::array<Bounds, kOperations> bounds = kUnmeasured;  // by Operation
  const Measured* measured = nullptr;  // the row bounds came from, if neither variable is set
  bool bounds_set = false;             // HYMPI_PMPI_MIN_BYTES / _MAX_BYTES replaced the table
  bool report = false;
};

// What the library learns of MPI after reading the settings. Atomics: a program of MPI
// sessions may call MPI from other threads while MPI_Init or MPI_Session_init runs (which
// makes no data race, but may make ranks take different paths: such a program must not).
/// Set at the end of agree_settings: MPI_Init went through the library and the ranks
/// compared their settings. Until then (a program of MPI sessions only, or another PMPI
/// library in front of this one) every call goes to MPI.
inline std::atomic<bool> g_init_seen{false};
/// A rank's MPI_Init, or an MPI session of this process, at MPI_THREAD_MULTIPLE: every
/// call goes to MPI.
inline std::atomic<bool> g_thread_multiple{false};

/// Reads the environment (once: settings() keeps the result).
Settings read_settings();

/// Stops the job, from every rank with one message, when the settings that decide a call's
/// path differ between ranks (each rank would serve some calls the others hand to MPI: a
/// hang or garbage); a rank at MPI_THREAD_MULTIPLE makes every rank hand every call to MPI.
/// Collective over MPI_COMM_WORLD: called at the end of MPI_Init and MPI_Init_thread (the
/// Fortran entries reach those), where every rank is.
void agree_settings();

/// Read at the end of MPI_Init (agree_settings), else at the first call.
/// Inline: every intercepted call reads it, a falling-through one first of all.
inline Settings& stored_settings() {
  static Settings s = read_settings();
  return s;
}
inline const Settings& settings() { return stored_settings(); }

#ifdef HYMPI_PMPI_SESSIONS
/// After MPI_Session_init: a session at MPI_THREAD_MULTIPLE, or whose info does not say its
/// level ("thread_level"), sends every later call of this process to MPI (g_thread_multiple).
void note_session_thread_level(MPI_Session session);
#endif

/// Why every call goes to MPI before its arguments are looked at, if it does.
inline Path process_path() {
  // acquire: pairs with agree_settings' release, after which g_thread_multiple is the agreed one
  if (!g_init_seen.load(std::memory_order_acquire)) return Path::no_mpi_init;
  // relaxed: a flag read on its own; a session sets it before it makes its communicators
  return g_thread_multiple.load(std::memory_order_relaxed) ? Path::thread_multiple : Path::hympi;
}

/// A call of `op` that goes to MPI at once: not intercepted, or every call goes to MPI
/// (process_path), and no report to count it in.
inline bool straight_to_mpi(Operation op) {
  const Settings& s = settings();
  return !s.report && (!s.intercepted[std::size_t(op)] || process_path() != Path::hympi);
}

}  // namespace hympi::pmpi
