// SPDX-License-Identifier: BSD-3-Clause
// Fortran callers (mpif.h, use mpi, use mpi_f08). Each MPI's Fortran layer reaches C its
// own way (gfortran 12, checked by disassembly and by preloaded probes at 2 ranks):
//  - Open MPI (4.1; 5.0's wrappers are built alike): every binding converts its arguments
//    and calls C PMPI_* directly, so a C-level interposer sees none of it. Defined here:
//    mpi_<op>_ (mpif.h and use mpi) and mpi_<op>_f08_ (use mpi_f08, the same arguments:
//    TYPE(MPI_Comm) and the other handles are one INTEGER, an omitted ierror is NULL).
//  - MPICH (4.0 and 4.2): mpif.h, use mpi and the f08 routines with a buffer call C MPI_*,
//    which the C entry points already serve; mpi_barrier_f08_, mpi_finalize_f08_,
//    mpi_session_init_f08_ and the f08 request calls (MPI_Start, MPI_Wait*, MPI_Test*,
//    MPI_Request_get_status*, ...) call PMPI_* directly: those are defined here (the request
//    calls where the persistent requests are served).
// MPI_INIT and MPI_INIT_THREAD call C PMPI_Init* directly in Open MPI's bindings and in
// MPICH's mpi_f08 (its mpif.h and use mpi call C MPI_Init*): defined here alike (no
// arguments, the ierror), they reach this library's MPI_Init*, where the ranks agree on the
// settings. MPI_SESSION_INIT likewise (Open MPI 5: every binding; MPICH: mpi_f08), so that
// the library sees a session's thread level.
// Each entry converts handles (PMPI_*_f2c) and Open MPI's MPI_IN_PLACE / MPI_BOTTOM (the
// addresses of its common blocks, defined by libmpi) and calls this library's C MPI_*,
// never a Fortran PMPI entry: nothing is counted twice or re-entered.
#include <mpi.h>

#include "pmpi/mpi_features.hpp"  // HYMPI_PMPI_PERSISTENT, _SESSIONS, _STATUS_ARRAYS

namespace {

// The MPI call's code into ierr, when the caller gave one (optional in mpi_f08).
void set(MPI_Fint* ierr, int code) {
  if (ierr) *ierr = MPI_Fint(code);
}

static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran INTEGER count arrays are passed on as C int arrays");

int init() { return MPI_Init(nullptr, nullptr); }
int init_thread(MPI_Fint* required, MPI_Fint* provided) {
  return MPI_Init_thread(nullptr, nullptr, int(*required), provided);
}

}  // namespace

extern "C" {

#if HYMPI_PMPI_SESSIONS
// MPI_SESSION_INIT(info, errhandler, session, ierror) from mpi_f08 (both MPIs) and, Open
// MPI 5, from every binding: the handles are INTEGERs there and in both MPIs' f08 types.
void mpi_session_init_f08_(MPI_Fint* info, MPI_Fint* errhandler, MPI_Fint* session, MPI_Fint* ierr) {
  MPI_Session s = MPI_SESSION_NULL;
  const int code = MPI_Session_init(PMPI_Info_f2c(*info), PMPI_Errhandler_f2c(*errhandler), &s);
  if (code == MPI_SUCCESS) *session = PMPI_Session_c2f(s);
  set(ierr, code);
}
#if defined(OPEN_MPI)
void mpi_session_init_(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_session_init_f08_")));
#endif
#endif

#if defined(OPEN_MPI)
extern char mpi_fortran_in_place_, mpi_fortran_bottom_;  // Open MPI's sentinels (libmpi)

static void* buffer(void* p) { return p == static_cast<void*>(&mpi_fortran_bottom_) ? MPI_BOTTOM : p; }
static const void* send_buffer(void* p) {
  return p == static_cast<void*>(&mpi_fortran_in_place_) ? MPI_IN_PLACE : buffer(p);
}

void mpi_barrier_(MPI_Fint* comm, MPI_Fint* ierr) { set(ierr, MPI_Barrier(PMPI_Comm_f2c(*comm))); }

void mpi_bcast_(void* data, MPI_Fint* count, MPI_Fint* type, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* ierr) {
  set(ierr, MPI_Bcast(buffer(data), int(*count), PMPI_Type_f2c(*type), int(*root), PMPI_Comm_f2c(*comm)));
}

void mpi_reduce_(void* in, void* out, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op, MPI_Fint* root, MPI_Fint* comm,
                 MPI_Fint* ierr) {
  set(ierr, MPI_Reduce(send_buffer(in), buffer(out), int(*count), PMPI_Type_f2c(*type), PMPI_Op_f2c(*op), int(*root),
                       PMPI_Comm_f2c(*comm)));
}

void mpi_allreduce_(void* in, void* out, MPI_Fint* count, MPI_Fint* type, MPI_Fint* op, MPI_Fint* comm,
                    MPI_Fint* ierr) {
  set(ierr, MPI_Allreduce(send_buffer(in), buffer(out), int(*count), PMPI_Type_f2c(*type), PMPI_Op_f2c(*op),
                          PMPI_Comm_f2c(*comm)));
}

void mpi_neighbor_alltoall_(void* in, MPI_Fint* in_count, MPI_Fint* in_type, void* out, MPI_Fint* out_count,
                            MPI_Fint* out_type, MPI_Fint* comm, MPI_Fint* ierr) {
  set(ierr, MPI_Neighbor_alltoall(buffer(in), int(*in_count), PMPI_Type_f2c(*in_type), buffer(out), int(*out_count),
                                  PMPI_Type_f2c(*out_type), PMPI_Comm_f2c(*comm)));
}

// INTEGER arrays are C int arrays in both MPIs (MPI_Fint is int).
void mpi_neighbor_alltoallv_(void* in, MPI_Fint* in_counts, MPI_Fint* in_displs, MPI_Fint* in_type, void* out,
                             MPI_Fint* out_counts, MPI_Fint* out_displs, MPI_Fint* out_type, MPI_Fint* comm,
                             MPI_Fint* ierr) {
  set(ierr, MPI_Neighbor_alltoallv(buffer(in), in_counts, in_displs, PMPI_Type_f2c(*in_type), buffer(out), out_counts,
                                   out_displs, PMPI_Type_f2c(*out_type), PMPI_Comm_f2c(*comm)));
}

void mpi_init_(MPI_Fint* ierr) { set(ierr, init()); }
void mpi_init_thread_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  set(ierr, init_thread(required, provided));
}
void mpi_finalize_(MPI_Fint* ierr) { set(ierr, MPI_Finalize()); }

void mpi_init_f08_(MPI_Fint*) __attribute__((alias("mpi_init_")));
void mpi_init_thread_f08_(MPI_Fint*, MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_init_thread_")));
void mpi_barrier_f08_(MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_barrier_")));
void mpi_bcast_f08_(void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_bcast_")));
void mpi_reduce_f08_(void*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*)
    __attribute__((alias("mpi_reduce_")));
void mpi_allreduce_f08_(void*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*)
    __attribute__((alias("mpi_allreduce_")));
void mpi_neighbor_alltoall_f08_(void*, MPI_Fint*, MPI_Fint*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*)
    __attribute__((alias("mpi_neighbor_alltoall_")));
void mpi_neighbor_alltoallv_f08_(void*, MPI_Fint*, MPI_Fint*, MPI_Fint*, void*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                                 MPI_Fint*, MPI_Fint*) __attribute__((alias("mpi_neighbor_alltoallv_")));
void mpi_finalize_f08_(MPI_Fint*) __attribute__((alias("mpi_finalize_")));

#elif defined(MPICH)
void mpi_init_f08_(MPI_Fint* ierr) { set(ierr, init()); }
void mpi_init_thread_f08_(MPI_Fint* required, MPI_Fint* provided, MPI_Fint* ierr) {
  set(ierr, init_thread(required, provided));
}
void mpi_barrier_f08_(MPI_Fint* comm, MPI_Fint* ierr) { set(ierr, MPI_Barrier(PMPI_Comm_f2c(*comm))); }
void mpi_finalize_f08_(MPI_Fint* ierr) { set(ierr, MPI_Finalize()); }

#if HYMPI_PMPI_PERSISTENT
// The request calls of mpi_f08 (MPICH 4.0: PMPI_* directly, every one), which start, complete
// or free a persistent neighbourhood request of hympi's (its init has buffers: it reaches C).
// Each passes its arguments on as MPICH's own routine does: TYPE(MPI_Request) is MPICH's C
// handle, TYPE(MPI_Status) its C MPI_Status, a LOGICAL flag a C int (0 or 1), and indices
// as that MPICH's mpi_f08 returns them: 0-based in 4.0 (as from C, unlike its mpif.h and use
// mpi), 1-based from 4.1 (pmodels/mpich#6270), MPI_UNDEFINED kept. Run here on MPICH 4.0;
// the 4.1 form is compiled (MPICH 5 tree) but no MPICH with Fortran from 4.1 on was at hand.
static_assert(sizeof(MPI_Request) == sizeof(MPI_Fint) && sizeof(MPI_F08_status) == sizeof(MPI_Status),
              "MPICH's mpi_f08 request and status are its C ones");
static MPI_Request* requests(MPI_Fint* r) { return reinterpret_cast<MPI_Request*>(r); }
// MPICH 4.0 defines these in libmpi, 4.1 on in its Fortran library, which this library does
// not link: weak references, resolved by the mpi_f08 caller's own Fortran library.
#pragma weak MPI_F08_STATUS_IGNORE
#pragma weak MPI_F08_STATUSES_IGNORE
#if MPICH_NUMVERSION >= 40100000
constexpr int kIndexBase = 1;
#else
constexpr int kIndexBase = 0;
#endif
// The first `n` indices (n = MPI_UNDEFINED: none) from C's base to the program's.
static void indices_out(MPI_Fint* index, int n) {
  for (int i = 0; i < n; ++i)
    if (index[i] != MPI_UNDEFINED) index[i] += kIndexBase;
}
static MPI_Status* status(MPI_F08_status* s) {
  return s == MPI_F08_STATUS_IGNORE ? MPI_STATUS_IGNORE : reinterpret_cast<MPI_Status*>(s);
}
static MPI_Status* statuses(MPI_F08_status* s) {
  return s == MPI_F08_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : reinterpret_cast<MPI_Status*>(s);
}

void mpi_start_f08_(MPI_Fint* r, MPI_Fint* ierr) { set(ierr, MPI_Start(requests(r))); }
void mpi_startall_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* ierr) { set(ierr, MPI_Startall(*n, requests(r))); }
void mpi_wait_f08_(MPI_Fint* r, MPI_F08_status* s, MPI_Fint* ierr) { set(ierr, MPI_Wait(requests(r), status(s))); }
void mpi_waitall_f08_(MPI_Fint* n, MPI_Fint* r, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Waitall(*n, requests(r), statuses(s)));
}
void mpi_waitany_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* index, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Waitany(*n, requests(r), index, status(s)));
  indices_out(index, 1);
}
void mpi_waitsome_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* done, MPI_Fint* indices, MPI_F08_status* s,
                       MPI_Fint* ierr) {
  set(ierr, MPI_Waitsome(*n, requests(r), done, indices, statuses(s)));
  indices_out(indices, *done);
}
void mpi_test_f08_(MPI_Fint* r, MPI_Fint* flag, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Test(requests(r), flag, status(s)));
}
void mpi_testall_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* flag, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Testall(*n, requests(r), flag, statuses(s)));
}
void mpi_testany_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* index, MPI_Fint* flag, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Testany(*n, requests(r), index, flag, status(s)));
  indices_out(index, 1);
}
void mpi_testsome_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* done, MPI_Fint* indices, MPI_F08_status* s,
                       MPI_Fint* ierr) {
  set(ierr, MPI_Testsome(*n, requests(r), done, indices, statuses(s)));
  indices_out(indices, *done);
}
void mpi_request_get_status_f08_(MPI_Fint* r, MPI_Fint* flag, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Request_get_status(*requests(r), flag, status(s)));
}
void mpi_request_free_f08_(MPI_Fint* r, MPI_Fint* ierr) { set(ierr, MPI_Request_free(requests(r))); }
#if HYMPI_PMPI_STATUS_ARRAYS
// MPI-4.1's status queries over arrays (MPICH 4.1 on: PMPI_* directly from mpi_f08, checked
// on MPICH 4.2.1 with gfortran 14).
void mpi_request_get_status_all_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* flag, MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Request_get_status_all(*n, requests(r), flag, statuses(s)));
}
void mpi_request_get_status_any_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* index, MPI_Fint* flag, MPI_F08_status* s,
                                     MPI_Fint* ierr) {
  set(ierr, MPI_Request_get_status_any(*n, requests(r), index, flag, status(s)));
  indices_out(index, 1);
}
void mpi_request_get_status_some_f08_(MPI_Fint* n, MPI_Fint* r, MPI_Fint* done, MPI_Fint* indices,
                                      MPI_F08_status* s, MPI_Fint* ierr) {
  set(ierr, MPI_Request_get_status_some(*n, requests(r), done, indices, statuses(s)));
  indices_out(indices, *done);
}
#endif
#endif
#endif

}  // extern "C"
