// Among node leaders: did every node call the same collective with the same arguments,
// and did any node find a mismatch inside? One MPI_Allreduce of 5 integers on the fast
// path; a gather of everyone's record only when something is wrong, so that every
// leader builds the same Status (and every rank then throws the same message).
#pragma once

#include <mpi.h>

#include "core/call_check.hpp"
#include "mpi/leader_comm.hpp"

namespace hympi::mpi {

void leaders_agree(const LeaderComm& leaders, const core::CallDesc& mine, core::Status& status);

}  // namespace hympi::mpi
