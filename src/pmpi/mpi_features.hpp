// SPDX-License-Identifier: BSD-3-Clause
// Which MPI-4 and MPI-4.1 calls the MPI the library is built with has, so which of their
// entry points the library defines. MPI-4, and Open MPI 5, which says MPI 3.1 but has the persistent
// collectives and MPI sessions (not the large-count forms: those follow MPI_VERSION).
#pragma once

#include <mpi.h>

#if MPI_VERSION >= 4 || (defined(OMPI_MAJOR_VERSION) && OMPI_MAJOR_VERSION >= 5)
#define HYMPI_PMPI_PERSISTENT 1  // MPI_Neighbor_alltoall(v)_init (persistent.hpp, requests.cpp)
#define HYMPI_PMPI_SESSIONS 1    // MPI_Session_init (interpose.cpp: a session's thread level)
#endif
#if MPI_VERSION > 4 || (MPI_VERSION == 4 && MPI_SUBVERSION >= 1)
#define HYMPI_PMPI_STATUS_ARRAYS 1  // MPI-4.1's MPI_Request_get_status_all/any/some (requests.cpp)
#endif
