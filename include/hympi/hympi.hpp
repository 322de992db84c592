// SPDX-License-Identifier: BSD-3-Clause
// hympi: hybrid MPI+MPI communication for mesh codes on multicore nodes. The message
// statistics (hympi/statistics.hpp) and the mapping of ranks by traffic (hympi/mapping.hpp,
// library hympi::mapping) are separate includes.
#pragma once

#include "hympi/version.h"  // HYMPI_VERSION_*, HYMPI_VERSION_GE()
#include "hympi/context.hpp"
#include "hympi/grid.hpp"
#include "hympi/halo.hpp"
#include "hympi/messages.hpp"
#include "hympi/node_shared.hpp"
#include "hympi/options.hpp"
#include "hympi/shared_window.hpp"
#include "hympi/topology.hpp"
#include "hympi/types.hpp"

namespace hympi {
/// The library's version and build: see hympi_configuration() in hympi.h.
const char* configuration();
}  // namespace hympi
