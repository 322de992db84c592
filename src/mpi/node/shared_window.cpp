// SPDX-License-Identifier: BSD-3-Clause
#include "hympi/shared_window.hpp"

#include <sys/mman.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <string>

#include "mpi/support/collective_error.hpp"
#include "mpi/support/mpi_check.hpp"
#include "mpi/support/setup_agreement.hpp"

#if MPI_VERSION < 3
#error "hympi needs MPI-3 shared-memory windows (MPI_Win_allocate_shared): use Open MPI >= 1.8 or MPICH >= 3.0"
#endif

namespace hympi {
namespace {

using mpi::check;

std::size_t align_up(std::size_t value, std::size_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

unsigned long long shm_free_bytes() {
  struct statvfs fs{};
  if (statvfs("/dev/shm", &fs) != 0) return ~0ull;  // no /dev/shm: nothing to check
  return static_cast<unsigned long long>(fs.f_bavail) * fs.f_frsize;
}

std::string shm_advice(unsigned long long needed) {
  return "the node needs " + std::to_string(needed >> 20) + " MiB of shared memory but /dev/shm has " +
         std::to_string(shm_free_bytes() >> 20) +
         " MiB free. Give the job more shared memory (docker run --shm-size=2g, or as root "
         "`mount -o remount,size=4G /dev/shm`) or use fewer ranks per node.";
}

// First touch: a window whose backing file cannot grow fails to populate, or faults on first
// write where populating is not available (then under a SIGBUS guard); either becomes an
// error instead of a crash. The memset stays after the pages are populated: MPI does not
// promise a new window zeroed memory.
thread_local sigjmp_buf* touch_escape = nullptr;

void on_sigbus(int signal) {
  if (touch_escape) siglongjmp(*touch_escape, 1);
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}

// Every page that holds a byte of [memory, memory + bytes) backed in one call
// (MADV_POPULATE_WRITE, Linux 5.14): faster than faulting them in one by one, and a backing
// that fails is an error code, not a SIGBUS. The pages at either end may hold a peer's bytes
// too: populating writes no data, and a page that holds one of ours is mapped whole.
// `unknown`: a kernel or mapping without it (EINVAL), or an interrupted call; the memset
// finds out, under the SIGBUS guard.
enum class Backing { all, failed, unknown };
Backing populate(std::byte* memory, std::size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  const auto page = uintptr_t(sysconf(_SC_PAGESIZE));
  const uintptr_t first = uintptr_t(memory) & ~(page - 1), end = (uintptr_t(memory) + bytes + page - 1) & ~(page - 1);
  if (madvise(reinterpret_cast<void*>(first), end - first, MADV_POPULATE_WRITE) == 0) return Backing::all;
  return errno == EFAULT || errno == ENOMEM ? Backing::failed : Backing::unknown;
#else
  (void)memory, (void)bytes;
  return Backing::unknown;
#endif
}

bool first_touch(std::byte* memory, std::size_t bytes) {
  if (bytes == 0) return true;
  const Backing backing = populate(memory, bytes);
  if (backing == Backing::failed) return false;
  if (backing == Backing::all) {  // nothing can fault: the process's SIGBUS handler stays as it is
    std::memset(memory, 0, bytes);
    return true;
  }
  struct sigaction guard{}, previous{};
  guard.sa_handler = &on_sigbus;
  sigemptyset(&guard.sa_mask);
  sigaction(SIGBUS, &guard, &previous);
  sigjmp_buf escape;
  bool touched = false;
  if (sigsetjmp(escape, 1) == 0) {
    touch_escape = &escape;
    std::memset(memory, 0, bytes);
    touched = true;
  }
  touch_escape = nullptr;
  sigaction(SIGBUS, &previous, nullptr);
  return touched;
}

}  // namespace

SharedWindow::SharedWindow(MPI_Comm comm, std::size_t bytes, std::size_t alignment) {
  // A segment's offset inside its pages is the same in every process that maps it, its
  // place beyond a page is not: a peer's view can be aligned to at most a page.
  const auto page = std::size_t(sysconf(_SC_PAGESIZE));
  const bool valid = alignment >= 64 && alignment <= page && (alignment & (alignment - 1)) == 0;
  mpi::agree_on_setup(comm, "SharedWindow", {{"alignment", int64_t(alignment)}});
  if (!valid)
    throw Error("hympi: SharedWindow alignment must be a power of two from 64 to the page size (" +
                std::to_string(page) + "), got " + std::to_string(alignment));
  MPI_Comm_rank(comm, &rank_);

  // Too little /dev/shm: decided by rank 0 for everyone, before anything is mapped (counting
  // the padding of the fallback below: the most this may map).
  const std::size_t padded = bytes == 0 ? 0 : bytes + alignment;
  unsigned long long node_total = 0, my_request = padded;
  check(MPI_Allreduce(&my_request, &node_total, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm),
        "MPI_Allreduce (window size)");
  int enough = node_total <= shm_free_bytes();
  check(MPI_Bcast(&enough, 1, MPI_INT, 0, comm), "MPI_Bcast (window size check)");
  if (!enough) throw Error("hympi: cannot allocate a shared window: " + shm_advice(node_total));

  // An MPI-4 library places every segment on `alignment` itself when the window asks for it
  // (info key mpi_minimum_memory_alignment): no padding. An MPI-3 library (Open MPI 4.1
  // guarantees 8 bytes), or one that did not honour the key on some rank, gets a window
  // with `alignment` bytes of padding per segment, aligned by hympi (map_segments).
  bool aligned = false;
#if MPI_VERSION >= 4
  aligned = allocate(comm, bytes, alignment, true);
  if (!aligned) free();
#endif
  if (!aligned) allocate(comm, padded, alignment, false);
  // Windows return error codes, so that the checks around window calls see them.
  MPI_Win_set_errhandler(win_, MPI_ERRORS_RETURN);
  try {
    map_segments(comm, bytes, alignment, node_total);
  } catch (...) {
    free();
    throw;
  }
}

bool SharedWindow::allocate(MPI_Comm comm, std::size_t request, std::size_t alignment, bool ask_alignment) {
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
#if MPI_VERSION >= 4
  if (ask_alignment) MPI_Info_set(info, "mpi_minimum_memory_alignment", std::to_string(alignment).c_str());
#else
  (void)ask_alignment;
#endif
  void* base = nullptr;
  int code = MPI_Win_allocate_shared(static_cast<MPI_Aint>(request), 1, info, comm, &base, &win_);
  MPI_Info_free(&info);
  // Every rank learns whether every rank got its segment: one failure must not leave the
  // others in a window that half the node never joined.
  const bool on_boundary = request == 0 || reinterpret_cast<std::uintptr_t>(base) % alignment == 0;
  int mine[2] = {code == MPI_SUCCESS, code == MPI_SUCCESS && on_boundary}, all[2] = {0, 0};
  check(MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MIN, comm), "MPI_Allreduce (window allocation)");
  if (!all[0]) {
    free();
    if (code == MPI_SUCCESS)
      throw Error("hympi: MPI_Win_allocate_shared failed on another rank of this node (see its message)");
    check(code, "MPI_Win_allocate_shared (does this MPI support MPI-3 shared memory on this node?)");
  }
  return all[1] != 0;
}

void SharedWindow::map_segments(MPI_Comm comm, std::size_t bytes, std::size_t alignment,
                                unsigned long long node_total) {
  // Align my segment myself, then tell the others where it starts.
  int size = 0;
  MPI_Comm_size(comm, &size);
  MPI_Aint my_size = 0;
  int unit = 0;
  void* base = nullptr;
  check(MPI_Win_shared_query(win_, rank_, &my_size, &unit, &base), "MPI_Win_shared_query");
  const auto address = reinterpret_cast<std::uintptr_t>(base);
  unsigned long long mine[2] = {bytes == 0 ? 0 : align_up(address, alignment) - address, bytes};
  std::vector<unsigned long long> all(2 * size);
  check(MPI_Allgather(mine, 2, MPI_UNSIGNED_LONG_LONG, all.data(), 2, MPI_UNSIGNED_LONG_LONG, comm),
        "MPI_Allgather (window layout)");
  segments_.resize(size);
  sizes_.resize(size);
  bases_.resize(size);
  std::string error;
  for (int r = 0; r < size; ++r) {
    MPI_Aint peer_size = 0;
    void* peer_base = nullptr;
    check(MPI_Win_shared_query(win_, r, &peer_size, &unit, &peer_base), "MPI_Win_shared_query");
    sizes_[r] = all[2 * r + 1];
    bases_[r] = static_cast<std::byte*>(peer_base);
    segments_[r] = sizes_[r] == 0 ? nullptr : bases_[r] + all[2 * r];
    if (error.empty() && sizes_[r] > 0 && static_cast<unsigned long long>(peer_size) < all[2 * r] + sizes_[r])
      error = "hympi: MPI_Win_shared_query reports " + std::to_string(peer_size) + " bytes for rank " +
              std::to_string(r) + ", less than it allocated";
  }
  mpi::throw_if_any(comm, error);

  const bool touched = first_touch(local(), bytes);
  mpi::throw_if_any(comm, touched ? "" : "hympi: shared window memory could not be backed (SIGBUS on first touch): " +
                                             shm_advice(node_total));
  // Everyone's segment is zeroed before anyone reads a peer's.
  check(MPI_Barrier(comm), "MPI_Barrier (window ready)");
}

void SharedWindow::free() {
  if (win_ != MPI_WIN_NULL) MPI_Win_free(&win_);
}

SharedWindow::SharedWindow(SharedWindow&& other) noexcept
    : win_(other.win_), rank_(other.rank_), segments_(std::move(other.segments_)),
      sizes_(std::move(other.sizes_)), bases_(std::move(other.bases_)) {
  other.win_ = MPI_WIN_NULL;
}

SharedWindow::~SharedWindow() { free(); }

}  // namespace hympi
