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
  static inline thread_local int depth_ = 0;
};

}  // namespace hympi::pmpi
