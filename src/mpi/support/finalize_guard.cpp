// SPDX-License-Identifier: BSD-3-Clause
#include "hympi/detail/finalize_guard.hpp"

#include "core/messages.hpp"

#include <mpi.h>

#include <atomic>
#include <string>
#include <exception>
#include <map>
#include <mutex>
#include <utility>

namespace hympi::detail {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<unsigned long long, std::function<void()>> guarded;  // by number: oldest first
  unsigned long long made = 0;  // the next guard's number
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
      const auto newest = std::prev(r.guarded.end());
      release = std::move(newest->second);
      r.guarded.erase(newest);
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
  number_ = r.made++;
  r.guarded.emplace(number_, std::move(release));
}

bool FinalizeGuard::finalizing() noexcept { return g_finalizing.load(std::memory_order_relaxed); }

FinalizeGuard::~FinalizeGuard() {
  Registry& r = registry();
  std::lock_guard lock(r.mutex);
  r.guarded.erase(number_);  // already gone when MPI_Finalize released it
}

}  // namespace hympi::detail
