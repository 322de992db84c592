// SPDX-License-Identifier: BSD-3-Clause
// The leaders' argument check (HYMPI_VERIFY), one MPI_Allreduce of a fixed-size packet
// [CheckHeader | payload] with a user-defined op, for every collective:
//  - the packet has the same size on every leader, whatever collective or count each
//    believes it is in: a mismatch must reach the header, not trip MPI on differing
//    message sizes (MPI_ERR_TRUNCATE) or leave leaders in different calls;
//  - an allreduce whose whole data fits kFusedBytes rides in the payload: check and data
//    in one latency-bound call. The op combines payloads only when both headers agree,
//    so differing counts or types never mix.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "core/coll/call_check.hpp"
#include "mpi/coll/leader_comm.hpp"

namespace hympi::mpi {

class LeaderCheck {
 public:
  static constexpr std::size_t kFusedBytes = 256;

  LeaderCheck();
  ~LeaderCheck();
  LeaderCheck(const LeaderCheck&) = delete;
  LeaderCheck& operator=(const LeaderCheck&) = delete;

  /// Checks `desc` among the leaders and merges any failure into `status` (the same on
  /// every leader). For an allreduce pass its `data` (`count` elements, this sweep's):
  /// returns true when they were reduced in the same call.
  bool run(const LeaderComm& leaders, const core::CallDesc& desc, core::Status& status,
           std::byte* data = nullptr, std::size_t count = 0);

 private:
  MPI_Op op_ = MPI_OP_NULL;
  MPI_Datatype packet_type_ = MPI_DATATYPE_NULL;
  std::vector<std::byte> packet_;
};

}  // namespace hympi::mpi
