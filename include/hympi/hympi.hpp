// hympi: hybrid MPI+MPI communication for mesh codes on multicore nodes. The message
// statistics (hympi/statistics.hpp) are a separate include.
#pragma once

#include "hympi/context.hpp"
#include "hympi/grid.hpp"
#include "hympi/halo.hpp"
#include "hympi/options.hpp"
#include "hympi/shared_window.hpp"
#include "hympi/topology.hpp"
#include "hympi/types.hpp"
