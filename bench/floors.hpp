// SPDX-License-Identifier: BSD-3-Clause
// The floors of a ghost update, on the same application data as the contenders (AppData),
// in the same launch:
//   write_read  the application's writes and reads alone, no communication (fresh data
//               only): what every contender's time minus this is its communication part
//   one_copy    each rank copies its ghosts straight out of its neighbours' vectors in a
//               shared window (two vectors by parity, so one hympi barrier per update is
//               enough): the floor of shm_direct
//   cma_copy    the same out of the neighbours' private vectors with process_vm_readv
//               (Linux cross-memory attach; where the kernel allows it): the floor of
//               shm's single copy (src/halo/single_copy.hpp)
//   two_copies  each rank packs what it sends into its shared slot (two by parity), one
//               barrier, unpacks its ghosts from its neighbours' slots: the floor of any
//               packing strategy (shm, aggregated, the RMA ones)
//   bare_mpi    Irecv/Isend/Waitall straight from the vector into the ghosts, no packing by
//               the user (a count for a range of ids, an MPI indexed type otherwise)
// The copies are hympi's own copy plans (one memcpy per run, point loops for scattered
// ids): a floor is the same copies without the synchronization protocol.
#pragma once

#include <vector>

#include "app_data.hpp"
#include "method.hpp"

namespace hympi::bench {

/// Collective. write_read only with fresh data; one_copy, cma_copy and two_copies only when
/// every rank's neighbours are all on its node, one_copy and cma_copy not off-cache (their
/// vectors are two slots of their own, which cannot rotate). The contenders own their windows and types.
std::vector<Contender> floor_contenders(Context& ctx, AppData& data);

}  // namespace hympi::bench
