// SPDX-License-Identifier: BSD-3-Clause
// Bad input must give a clear error on every rank, never a hang or a crash. One program,
// one mode per case; ctest checks the printed text (PASS_REGULAR_EXPRESSION).
//   env     HYMPI_* variable with a bad value (set by the test): Context throws
//   sockets_on_rank1 VALUE  rank 1 alone sets HYMPI_EMULATE_SOCKETS=VALUE (read at the
//           first collective, where the tree is built): that call throws on every rank
//   shm     a window larger than /dev/shm: SharedWindow throws, saying how to fix it
//   root    a root outside the communicator: bcast throws
//   unchecked  HYMPI_VERIFY=0 and two ranks of one node pass different counts: that node
//           cannot tell the other nodes, so the job ends with the message (no hang)
//   never   rank 0 never arrives at a barrier (after a first one): the others' watchdog
//           aborts the job
//   never_first  rank 0 never makes the Context's first collective call, in which the
//           collectives' shared memory is made: the same, from that set-up's wait
//   never_setup  rank 0 never constructs the Context: the others' watchdog names its set-up
//           agreement
//   halo_never  rank 0 never joins a ghost update (argv[2]: the strategy): the watchdog of
//           its neighbours names the operation and the rank
//   halo_killed  rank 0 is killed (SIGKILL) in the middle of ghost updates: the job ends
//           (watchdog or launcher), and tests/mpi/no_leftovers.sh checks /dev/shm after it
// Prints "bad-input: every rank reported: <message>" when every rank caught the error.
#include <mpi.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "hympi/hympi.hpp"

namespace {

void expect_error_everywhere(const std::function<void()>& body) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::string message;
  try {
    body();
  } catch (const hympi::Error& e) {
    message = e.what();
  }
  int caught = !message.empty(), total = 0;
  MPI_Allreduce(&caught, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (total == size) std::printf("bad-input: every rank reported: %s\n", message.c_str());
    else std::printf("bad-input: only %d of %d ranks reported an error\n", total, size);
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "env") {
    expect_error_everywhere([] { hympi::Context ctx(MPI_COMM_WORLD); });
  } else if (mode == "sockets_on_rank1" && argc > 2) {
    hympi::Context ctx(MPI_COMM_WORLD);
    if (ctx.topology().world_rank() == 1) setenv("HYMPI_EMULATE_SOCKETS", argv[2], 1);
    expect_error_everywhere([&] { ctx.barrier(); });
  } else if (mode == "shm") {
    hympi::Topology topo(MPI_COMM_WORLD);
    struct statvfs fs{};
    statvfs("/dev/shm", &fs);
    const std::size_t too_much = std::size_t(fs.f_blocks) * fs.f_frsize / topo.node_size() + (1 << 20);
    expect_error_everywhere([&] { hympi::SharedWindow window(topo.node(), too_much); });
  } else if (mode == "root") {
    hympi::Context ctx(MPI_COMM_WORLD);
    double x = 1;
    expect_error_everywhere([&] { ctx.bcast(&x, 1, ctx.topology().world_size()); });
  } else if (mode == "unchecked") {
    hympi::Context ctx(MPI_COMM_WORLD);
    std::vector<double> x(4, 1.0);
    ctx.allreduce(x.data(), x.data(), ctx.topology().world_rank() == 1 ? 4 : 2, hympi::Op::sum);
    std::printf("bad-input: the mismatched allreduce completed\n");
  } else if (mode == "never" || mode == "never_first") {
    hympi::Context ctx(MPI_COMM_WORLD);
    if (mode == "never") ctx.barrier();
    if (ctx.topology().world_rank() == 0) {
      for (;;) sleep(1);  // never arrives; the watchdog of the others ends the job
    }
    ctx.barrier();
    std::printf("bad-input: the barrier completed without rank 0\n");
  } else if (mode == "never_setup") {
    int me = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    if (me == 0) {
      for (;;) sleep(1);  // never comes; the watchdog of the others ends the job
    }
    hympi::Context ctx(MPI_COMM_WORLD);
    std::printf("bad-input: the Context was made without rank 0\n");
  } else if ((mode == "halo_never" || mode == "halo_killed") && argc > 2) {
    hympi::Context ctx(MPI_COMM_WORLD);
    const int me = ctx.topology().world_rank(), size = ctx.topology().world_size();
    std::vector<hympi::NeighborLists> ring;  // two points to each neighbour on a ring
    for (int peer : {(me + 1) % size, (me + size - 1) % size})
      if (peer != me && (ring.empty() || ring[0].rank != peer)) ring.push_back({peer, {0, 1}, {}});
    for (std::size_t i = 0; i < ring.size(); ++i) ring[i].recv = {2 + 2 * int(i), 3 + 2 * int(i)};
    hympi::Pattern pattern = hympi::Pattern::from_lists(ctx, 6, ring);
    hympi::Halo halo(pattern, hympi::strategy_from_name(argv[2]));
    std::vector<double> storage(6, 1.0);
    double* v = halo.strategy() == hympi::Strategy::shm_direct ? halo.shared_field<double>() : storage.data();
    if (me == 0 && mode == "halo_never") {
      for (;;) sleep(1);  // never updates; its neighbours' watchdog ends the job
    }
    for (long update = 0; update < 100000000; ++update) {
      if (me == 0 && update == 100) raise(SIGKILL);
      halo.update(v);
    }
    std::printf("bad-input: the ghost updates completed without rank 0\n");
  } else {
    std::fprintf(stderr, "usage: bad_input env|sockets_on_rank1 VALUE|shm|root|unchecked|never|never_first|never_setup|"
                 "halo_never STRATEGY|halo_killed STRATEGY\n");
  }
  MPI_Finalize();
  return 0;
}
