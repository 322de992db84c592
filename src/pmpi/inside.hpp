// SPDX-License-Identifier: BSD-3-Clause
// While the PMPI library runs hympi (a collective, a Context's set-up or release), the MPI
// calls hympi makes on this thread go straight to PMPI: the library never re-enters itself.
#pragma once

namespace hympi::pmpi {

class Inside {
 public:
  Inside() { ++depth_; }
  ~Inside() { --depth_; }
  Inside(const Inside&) = delete;
  Inside& operator=(const Inside&) = delete;
  static bool now() { return depth_ > 0; }

 private:
  // initial-exec: the library is preloaded or linked, never opened later, so its thread-local
  // word sits at a fixed offset from the thread pointer (no __tls_get_addr call per MPI call).
  [[gnu::tls_model("initial-exec")]] static inline thread_local int depth_ = 0;
};

}  // namespace hympi::pmpi
