// SPDX-License-Identifier: BSD-3-Clause
// Groups the ranks of a node by the socket / L3 domain they are bound to (hwloc), so the
// intranode tree keeps most parent-child pairs inside one domain (Quaranta & Maddegedara
// (2021), Sections 3.1 and 4.4).
#pragma once

#include <mpi.h>

#include <vector>

namespace hympi::mpi {

/// Collective on `node`. Returns groups of node ranks, rank 0's group first and rank 0
/// first in it. One group when any rank is unbound or spans several domains, or when
/// hwloc sees a single domain.
/// Emulated sockets (HYMPI_EMULATE_SOCKETS=S[:bunch|:scatter], for machines with one socket,
/// as HYMPI_NODE_SIZE emulates nodes): S domains per node instead of hwloc's, node rank r in
/// domain r * S / n ("bunch": consecutive ranks together, the default) or r % S ("scatter":
/// ranks dealt round the sockets); S is capped at the node's size. A malformed value, or a
/// value on some of the node's ranks only, throws hympi::Error on every rank of the node.
std::vector<std::vector<int>> domain_groups(MPI_Comm node);

}  // namespace hympi::mpi
