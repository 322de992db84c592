// SPDX-License-Identifier: BSD-3-Clause
#include "hympi/detail/finalize_guard.hpp"

#include "core/messages.hpp"

#include <mpi.h>

#include <atomic>
#include <string>
#include <exception>
#include <mutex>
#include <utility>
#include <vector>

namespace hympi::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::vector<std::pair<const FinalizeGuard*, std::function<void()>>> guarded;  // oldest first
  bool attached = false;  // the MPI_COMM_SELF attribute is set
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: guards may outlive static destructors
  return *r;
}

// Set once, at the start of the releases; read without the registry's lock by finalizing().
std::atomic<bool> g_finalizing{false};

int release_all(MPI_Comm, int, void*, void*) {
  g_finalizing.store(true, std::memory_order_relaxed);  // a flag for later calls on this thread or any
  Registry& r = registry();
  for (;;) {
    std::function<void()> release;
    {
      std::lock_guard lock(r.mutex);
      if (r.guarded.empty()) break;
      release = std::move(r.guarded.back().second);
      r.guarded.pop_back();
    }
    try {
      release();
    } catch (const std::exception& e) {
      core::emit_message(std::string("hympi: while releasing an object at MPI_Finalize: ") + e.what());
    }
  }
  std::lock_guard lock(r.mutex);
  r.attached = false;
  return MPI_SUCCESS;
}

}  // namespace

FinalizeGuard::FinalizeGuard(std::function<void()> release) {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  if (!r.attached) {
    int keyval = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, &release_all, &keyval, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, keyval, nullptr);
    MPI_Comm_free_keyval(&keyval);  // the attribute keeps it until MPI_Finalize
    r.attached = true;
  }
  r.guarded.emplace_back(this, std::move(release));
}

bool FinalizeGuard::finalizing() noexcept { return g_finalizing.load(std::memory_order_relaxed); }

FinalizeGuard::~FinalizeGuard() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  for (auto it = r.guarded.begin(); it != r.guarded.end(); ++it)
    if (it->first == this) {
      r.guarded.erase(it);
      return;
    }
}

}  // namespace hympi::detail
