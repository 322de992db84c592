// SPDX-License-Identifier: BSD-3-Clause
// libhympi_pmpi: MPI's profiling interface. Preloaded (LD_PRELOAD) or linked before libmpi,
// these definitions of MPI_Barrier, MPI_Bcast, MPI_Reduce, MPI_Allreduce,
// MPI_Neighbor_alltoall and MPI_Neighbor_alltoallv (the last two with their MPI-4
// persistent forms; each call with a count also in its large-count form MPI_..._c where MPI
// has it: mpi4py 4 calls those) serve a call through its communicator's hympi Context
// (and, for the neighbourhood calls, its Halo: neighbor.hpp) when they can do so exactly,
// and hand every other call to PMPI unchanged. exports.map makes these the only symbols the
// library exports: the hympi inside it stays private, beside any hympi the program links
// itself.
//
// Invariants:
//  - The choice depends only on what every rank of a correct MPI program passes alike
//    (communicator, operation, a reduction's type and op, a broadcast's bytes, whatever type
//    signature spells them: datatypes.hpp; MPI_IN_PLACE changes no choice) and on the
//    settings, so all ranks of a call take the same path; settings that differ between
//    ranks stop the job at MPI_Init (agree_settings). What the arguments decide comes first:
//    a call they leave to MPI never makes a Context. Until MPI_Init has gone through the
//    library (never, in a program of MPI sessions only: no MPI_COMM_WORLD to agree over),
//    and once a rank or an MPI session runs at MPI_THREAD_MULTIPLE, every call goes to MPI
//    (process_path; this assumes every rank initializes MPI and its sessions at the same
//    point of its sequence of collective calls, as SPMD programs do). Counts that
//    differ between ranks are reported on every rank when all of them lie within the
//    operation's bounds (HYMPI_PMPI_MIN_BYTES to HYMPI_PMPI_MAX_BYTES, or kMeasured's row:
//    hympi checks them); across either bound the ranks split between hympi and MPI, and
//    what happens is MPI's.
//  - A hympi error (counts, roots, types or ops that differ between ranks) is raised on
//    every rank through the communicator's error handler; the Context stays usable.
//  - While hympi runs, its own MPI calls on this thread go to PMPI (Inside).
#include <mpi.h>

#include <cstdint>
#include <exception>
#include <optional>
#include <vector>

#include "pmpi/comm_state.hpp"
#include "pmpi/datatypes.hpp"
#include "pmpi/errors.hpp"
#include "pmpi/inside.hpp"
#include "pmpi/mpi_features.hpp"
#include "pmpi/neighbor.hpp"
#include "pmpi/persistent.hpp"
#include "pmpi/report.hpp"
#include "pmpi/settings.hpp"

namespace hympi::pmpi {
namespace {

// The path of a call on `comm`: `by_arguments` is what the call's arguments decide
// (datatypes.hpp's rule and the size bounds, which every rank of a correct program meets
// alike); only a call they let through is counted on `comm` and may make its Context.
Path first_path(Operation op, MPI_Comm comm, Context*& context, Path by_arguments = Path::hympi, bool now = false) {
  context = nullptr;
  const Settings& s = settings();
  if (!s.intercepted[std::size_t(op)]) return Path::disabled;
  if (const Path p = process_path(); p != Path::hympi) return p;
  if (by_arguments != Path::hympi) return by_arguments;
  return route(comm, context, now);
}

// Path::size / Path::small when the call moves more / fewer bytes than the bounds of
// `which`, else Path::hympi.
Path within_bound(Operation which, std::size_t bytes) {
  const Bounds& b = settings().bounds[std::size_t(which)];
  return bytes > b.max ? Path::size : bytes < b.min ? Path::small : Path::hympi;
}

// The path of a reduction and, on Path::hympi, its hympi type and op; counts the call.
struct ReductionPath {
  Path path;
  Reduction as;
};
ReductionPath reduction(Operation which, MPI_Comm comm, MPI_Datatype datatype, MPI_Op op, std::int64_t count,
                        Context*& context) {
  Path why = Path::hympi;
  const std::optional<Reduction> r = count < 0 ? std::nullopt : reduction_of(datatype, op, why);
  const Path by_arguments = count < 0 ? Path::invalid
                            : !r      ? why
                                      : within_bound(which, size_of(r->type) * std::size_t(count));
  const ReductionPath result{first_path(which, comm, context, by_arguments), r.value_or(Reduction{})};
  count_call(which, result.path, datatype, count);
  return result;
}

// Runs `serve` (a call on the Context) inside hympi; a hympi error goes to comm's handler.
template <class Serve>
int run(MPI_Comm comm, Serve serve) {
  try {
    Inside inside;
    serve();
    return MPI_SUCCESS;
  } catch (const std::exception& e) {
    return raise_error(comm, e.what());
  }
}

// MPI_Bcast, MPI_Reduce, MPI_Allreduce and (MPI-4) their large-count forms MPI_Bcast_c, ...:
// `mpi` is the PMPI call of the same form, for every call hympi does not serve.
template <class Count>
int bcast(void* buffer, Count count, MPI_Datatype datatype, int root, MPI_Comm comm,
          int (*mpi)(void*, Count, MPI_Datatype, int, MPI_Comm)) {
  if (Inside::now() || straight_to_mpi(Operation::bcast)) return mpi(buffer, count, datatype, root, comm);
  const std::size_t bytes = bytes_of(datatype, count);
  const std::optional<Words> fits = count < 0 ? std::nullopt : broadcast_words(bytes);
  const Words words = fits.value_or(Words{Datatype::int64, 0});
  Context* context;
  const Path path = first_path(Operation::bcast, comm, context,
                               count < 0 || datatype == MPI_DATATYPE_NULL ? Path::invalid
                               : !fits                                    ? Path::datatype
                                                                          : within_bound(Operation::bcast, bytes));
  count_call(Operation::bcast, path, datatype, count);
  if (path != Path::hympi) return mpi(buffer, count, datatype, root, comm);
  // A plain type, or no data at all (a type of size 0: nothing to pack), as it is.
  if (plain(datatype) || words.count == 0)
    return run(comm, [&] { context->bcast(buffer, words.count, words.type, root); });
  // Any other type travels in its packed form (datatypes.hpp), which is its data's bytes.
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  return run(comm, [&] {
    std::vector<std::byte> packed(words.count * size_of(words.type));
    if (rank == root) pack(buffer, count, datatype, packed.data(), bytes, comm);
    context->bcast(packed.data(), words.count, words.type, root);
    if (rank != root) unpack(packed.data(), bytes, buffer, count, datatype, comm);
  });
}

template <class Count>
int reduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, int root,
           MPI_Comm comm, int (*mpi)(const void*, void*, Count, MPI_Datatype, MPI_Op, int, MPI_Comm)) {
  if (Inside::now() || straight_to_mpi(Operation::reduce))
    return mpi(sendbuf, recvbuf, count, datatype, op, root, comm);
  Context* context;
  const ReductionPath r = reduction(Operation::reduce, comm, datatype, op, count, context);
  if (r.path != Path::hympi) return mpi(sendbuf, recvbuf, count, datatype, op, root, comm);
  int rank = 0;
  PMPI_Comm_rank(comm, &rank);
  const void* in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;  // MPI_IN_PLACE: at the root only
  void* out = rank == root ? recvbuf : nullptr;
  return run(comm, [&] { context->reduce(in, out, std::size_t(count), r.as.type, r.as.op, root); });
}

template <class Count>
int allreduce(const void* sendbuf, void* recvbuf, Count count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
              int (*mpi)(const void*, void*, Count, MPI_Datatype, MPI_Op, MPI_Comm)) {
  if (Inside::now() || straight_to_mpi(Operation::allreduce)) return mpi(sendbuf, recvbuf, count, datatype, op, comm);
  Context* context;
  const ReductionPath r = reduction(Operation::allreduce, comm, datatype, op, count, context);
  if (r.path != Path::hympi) return mpi(sendbuf, recvbuf, count, datatype, op, comm);
  const void* in = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  return run(comm, [&] { context->allreduce(in, recvbuf, std::size_t(count), r.as.type, r.as.op); });
}

// A neighbourhood call: the communicator's exchange, made (collectively: every rank of a
// correct program reaches this call with the same path) at its first served call.
int neighbor_alltoall(Operation which, const Blocks& send, const Blocks& recv, MPI_Comm comm,
                      int (*fall_through)(const Blocks&, const Blocks&, MPI_Comm)) {
  if (Inside::now()) return fall_through(send, recv, comm);
  Context* context;
  Path path = first_path(which, comm, context, NeighborExchange::topological(comm) ? Path::hympi : Path::topology);
  NeighborSlot* slot = nullptr;
  if (path == Path::hympi) {
    slot = &neighbor_slot(comm);
    if (!slot->exchange && slot->blocked == Path::hympi) {
      Inside inside;
      slot->blocked = NeighborExchange::eligible(comm, send, recv, settings().bounds[std::size_t(which)].max);
    }
    path = slot->blocked;
  }
  if (counting()) count_bytes(which, path, NeighborExchange::send_bytes(comm, send));
  if (path != Path::hympi) return fall_through(send, recv, comm);
  return run(comm, [&] {
    if (!slot->exchange)
      slot->exchange = std::make_unique<NeighborExchange>(
          *context, comm, send, recv, settings().bounds[std::size_t(which)].max, slot->side(comm), slot->next_tag());
    slot->exchange->exchange(send, recv);
  });
}

#ifdef HYMPI_PMPI_PERSISTENT
// A persistent neighbourhood request (persistent.hpp): hympi's when the communicator can
// be served, decided collectively at its init (inits are collective), its Context made
// there at once (no warming up: the request promises many calls); else MPI's own. A
// served request is counted at each start, one left to MPI once, here.
int neighbor_init(Operation which, const Blocks& send, const Blocks& recv, MPI_Comm comm, MPI_Info info,
                  MPI_Request* request,
                  int (*fall_through)(const Blocks&, const Blocks&, MPI_Comm, MPI_Info, MPI_Request*)) {
  if (Inside::now()) return fall_through(send, recv, comm, info, request);
  Context* context;
  Path path =
      first_path(which, comm, context, NeighborExchange::topological(comm) ? Path::hympi : Path::topology, true);
  NeighborSlot* slot = nullptr;
  const std::size_t max_bytes = settings().bounds[std::size_t(which)].max;
  if (path == Path::hympi) {
    slot = &neighbor_slot(comm);
    Inside inside;
    reclaim_freed(comm, *slot);
    path = slot->blocked == Path::topology ? Path::topology : NeighborExchange::eligible(comm, send, recv, max_bytes);
  }
  if (path != Path::hympi) {
    if (counting()) count_bytes(which, path, NeighborExchange::send_bytes(comm, send));
    return fall_through(send, recv, comm, info, request);
  }
  *request = MPI_REQUEST_NULL;  // until made: a failed set-up leaves no request
  return run(comm, [&] {
    slot->persistent.push_back(
        std::make_unique<PersistentNeighbor>(which, *context, *slot, comm, send, recv, max_bytes, request));
  });
}
#endif

// MPI_Neighbor_alltoall, MPI_Neighbor_alltoall_c and their _init forms: one count for every
// neighbour, of `Count`; `mpi` is the PMPI call of the same form.
template <auto mpi, class Count>
int uniform_alltoall(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                     MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_alltoall(Operation::neighbor_alltoall, {sendbuf, nullptr, nullptr, sendcount, sendtype},
                           {recvbuf, nullptr, nullptr, recvcount, recvtype}, comm,
                           [](const Blocks& s, const Blocks& r, MPI_Comm c) {
                             return mpi(s.buffer, Count(s.count), s.type, const_cast<void*>(r.buffer), Count(r.count),
                                        r.type, c);
                           });
}

// MPI_Neighbor_alltoallv, MPI_Neighbor_alltoallv_c and their _init forms: counts of `Count`
// and displacements of `Displacement` per neighbour.
template <auto mpi, class Count, class Displacement>
int varying_alltoall(const void* sendbuf, const Count sendcounts[], const Displacement sdispls[],
                     MPI_Datatype sendtype, void* recvbuf, const Count recvcounts[], const Displacement rdispls[],
                     MPI_Datatype recvtype, MPI_Comm comm) {
  return neighbor_alltoall(Operation::neighbor_alltoallv, Blocks::varying(sendbuf, sendcounts, sdispls, sendtype),
                           Blocks::varying(recvbuf, recvcounts, rdispls, recvtype), comm,
                           [](const Blocks& s, const Blocks& r, MPI_Comm c) {
                             return mpi(s.buffer, s.given_counts<Count>(), s.given_displs<Displacement>(), s.type,
                                        const_cast<void*>(r.buffer), r.given_counts<Count>(),
                                        r.given_displs<Displacement>(), r.type, c);
                           });
}

#ifdef HYMPI_PMPI_PERSISTENT
template <auto mpi, class Count, class Displacement>
int varying_alltoall_init(const void* sendbuf, const Count sendcounts[], const Displacement sdispls[],
                          MPI_Datatype sendtype, void* recvbuf, const Count recvcounts[],
                          const Displacement rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                          MPI_Request* request) {
  return neighbor_init(Operation::neighbor_alltoallv, Blocks::varying(sendbuf, sendcounts, sdispls, sendtype),
                       Blocks::varying(recvbuf, recvcounts, rdispls, recvtype), comm, info, request,
                       [](const Blocks& s, const Blocks& r, MPI_Comm c, MPI_Info i, MPI_Request* q) {
                         return mpi(s.buffer, s.given_counts<Count>(), s.given_displs<Displacement>(), s.type,
                                    const_cast<void*>(r.buffer), r.given_counts<Count>(),
                                    r.given_displs<Displacement>(), r.type, c, i, q);
                       });
}

template <auto mpi, class Count>
int uniform_alltoall_init(const void* sendbuf, Count sendcount, MPI_Datatype sendtype, void* recvbuf, Count recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return neighbor_init(Operation::neighbor_alltoall, {sendbuf, nullptr, nullptr, sendcount, sendtype},
                       {recvbuf, nullptr, nullptr, recvcount, recvtype}, comm, info, request,
                       [](const Blocks& s, const Blocks& r, MPI_Comm c, MPI_Info i, MPI_Request* q) {
                         return mpi(s.buffer, Count(s.count), s.type, const_cast<void*>(r.buffer), Count(r.count),
                                    r.type, c, i, q);
                       });
}
#endif

}  // namespace
}  // namespace hympi::pmpi

using hympi::Context;
using hympi::pmpi::Inside;
using hympi::pmpi::Operation;
using hympi::pmpi::Path;

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  if (Inside::now() || hympi::pmpi::straight_to_mpi(Operation::barrier)) return PMPI_Barrier(comm);
  Context* context;
  const Path path = hympi::pmpi::first_path(Operation::barrier, comm, context);
  hympi::pmpi::count_call(Operation::barrier, path);
  if (path != Path::hympi) return PMPI_Barrier(comm);
  return hympi::pmpi::run(comm, [&] { context->barrier(); });
}

int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return hympi::pmpi::bcast(buffer, count, datatype, root, comm, PMPI_Bcast);
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
               MPI_Comm comm) {
  return hympi::pmpi::reduce(sendbuf, recvbuf, count, datatype, op, root, comm, PMPI_Reduce);
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return hympi::pmpi::allreduce(sendbuf, recvbuf, count, datatype, op, comm, PMPI_Allreduce);
}

#if MPI_VERSION >= 4  // the large-count forms (MPICH 4 and 5; Open MPI 5.0 has none)
int MPI_Bcast_c(void* buffer, MPI_Count count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  return hympi::pmpi::bcast(buffer, count, datatype, root, comm, PMPI_Bcast_c);
}

int MPI_Reduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op, int root,
                 MPI_Comm comm) {
  return hympi::pmpi::reduce(sendbuf, recvbuf, count, datatype, op, root, comm, PMPI_Reduce_c);
}

int MPI_Allreduce_c(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype datatype, MPI_Op op,
                    MPI_Comm comm) {
  return hympi::pmpi::allreduce(sendbuf, recvbuf, count, datatype, op, comm, PMPI_Allreduce_c);
}
#endif

// The neighbourhood calls: each names its PMPI call for what hympi does not serve (the
// large-count forms: MPI-4, MPICH 4 and 5).
int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, MPI_Comm comm) {
  return hympi::pmpi::uniform_alltoall<PMPI_Neighbor_alltoall>(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                               recvtype, comm);
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                           void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                           MPI_Comm comm) {
  return hympi::pmpi::varying_alltoall<PMPI_Neighbor_alltoallv>(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                                recvcounts, rdispls, recvtype, comm);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_alltoall_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                            MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  return hympi::pmpi::uniform_alltoall<PMPI_Neighbor_alltoall_c>(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                                                 recvtype, comm);
}

int MPI_Neighbor_alltoallv_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                             MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                             const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  return hympi::pmpi::varying_alltoall<PMPI_Neighbor_alltoallv_c>(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                                                                  recvcounts, rdispls, recvtype, comm);
}
#endif

#ifdef HYMPI_PMPI_PERSISTENT
int MPI_Neighbor_alltoall_init(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                               int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                               MPI_Request* request) {
  return hympi::pmpi::uniform_alltoall_init<PMPI_Neighbor_alltoall_init>(sendbuf, sendcount, sendtype, recvbuf,
                                                                         recvcount, recvtype, comm, info, request);
}

int MPI_Neighbor_alltoallv_init(const void* sendbuf, const int sendcounts[], const int sdispls[],
                                MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                                MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  return hympi::pmpi::varying_alltoall_init<PMPI_Neighbor_alltoallv_init>(
      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}

#if MPI_VERSION >= 4
int MPI_Neighbor_alltoall_init_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                                 MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                 MPI_Request* request) {
  return hympi::pmpi::uniform_alltoall_init<PMPI_Neighbor_alltoall_init_c>(sendbuf, sendcount, sendtype, recvbuf,
                                                                           recvcount, recvtype, comm, info, request);
}

int MPI_Neighbor_alltoallv_init_c(const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                                  MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                                  const MPI_Aint rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Info info,
                                  MPI_Request* request) {
  return hympi::pmpi::varying_alltoall_init<PMPI_Neighbor_alltoallv_init_c>(
      sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, info, request);
}
#endif
#endif

int MPI_Init(int* argc, char*** argv) {
  const int code = PMPI_Init(argc, argv);
  if (code == MPI_SUCCESS) hympi::pmpi::agree_settings();
  return code;
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
  const int code = PMPI_Init_thread(argc, argv, required, provided);
  if (code == MPI_SUCCESS) hympi::pmpi::agree_settings();
  return code;
}

int MPI_Finalize(void) {
  if (!Inside::now() && hympi::pmpi::settings().report) hympi::pmpi::print_report();
  if (!Inside::now()) hympi::pmpi::release_detached();
  Inside inside;  // what hympi releases inside MPI_Finalize calls MPI directly
  return PMPI_Finalize();
}

#ifdef HYMPI_PMPI_SESSIONS
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  const int code = PMPI_Session_init(info, errhandler, session);
  if (code == MPI_SUCCESS) hympi::pmpi::note_session_thread_level(*session);
  return code;
}
#endif

}  // extern "C"
