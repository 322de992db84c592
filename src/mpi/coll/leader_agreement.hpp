// SPDX-License-Identifier: BSD-3-Clause
// Among node leaders: did every node call the same collective with the same arguments,
// and did any node find a mismatch inside? A header of 5 integers, reduced with MAX
// (LeaderCheck sends it): (failed, desc, -desc) agrees iff no node failed and
// max(desc) == min(desc). Only when it does not agree do the leaders gather everyone's
// record, so that every leader builds the same Status (and every rank then throws the
// same message).
#pragma once

#include <cstdint>

#include "core/coll/call_check.hpp"
#include "mpi/coll/leader_comm.hpp"

namespace hympi::mpi {

struct CheckHeader {
  static constexpr int kWords = 5;
  int64_t words[kWords];

  static CheckHeader of(const core::CallDesc& desc, const core::Status& status);
  bool agrees() const;
  void max_with(const CheckHeader& other);
};

/// After a header reduction that did not agree: gathers every leader's record and sets
/// the same Status on every leader.
void leaders_explain(const LeaderComm& leaders, const core::CallDesc& mine, core::Status& status);

}  // namespace hympi::mpi
