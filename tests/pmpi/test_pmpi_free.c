// SPDX-License-Identifier: BSD-3-Clause
// A plain MPI program (no hympi in its source) that frees communicators the way programs
// and garbage-collected bindings do, run with libhympi_pmpi preloaded or linked before libmpi
// (every call served from the first). MPI_Comm_free is local in MPI: none of these may hang.
//   test_pmpi_free order  on each of 20 rounds, four communicators with Contexts (a
//       duplicate of MPI_COMM_WORLD, one with the ranks in reverse order, another
//       duplicate, a split by parity), each checked by an MPI_Allreduce, freed in an order
//       that differs between ranks (even ranks first to last, odd ranks last to first);
//       then MPI_Finalize, which releases what the frees kept, alike on every rank
//   test_pmpi_free finalize  once: a duplicate, one in reverse order, another duplicate,
//       freed first to last on even ranks and last to first on odd ones, then MPI_Finalize
//       (the frees keep a different duplicate's Context on each: it hung there before the
//       kept ones were released by engine)
//   test_pmpi_free many   2,000 short-lived duplicates, each with a Context (three calls),
//       freed at once; and 200 reversed-order communicators (another group order: their
//       own engine) made and freed likewise. The shared-memory files of /dev/shm and the
//       results are checked (the count after may not exceed the count during)
//   test_pmpi_free kept   the Contexts a free keeps are released at the next blocking
//       creation on a communicator that holds their ranks: on each of 2 x size rounds, a
//       split of MPI_COMM_WORLD in another rank order (another group: its own engine each
//       round), checked by an MPI_Allreduce and freed; the memory mappings of the process
//       (/proc/self/maps: the engines' shared-memory windows) may not grow from round to
//       round. Then, as MPICH's test comm/comm_idup_isend does, a parity split freed (its
//       Contexts kept on each half only) and four MPI_Comm_idup of MPI_COMM_WORLD
//       overlapped with point-to-point messages: Open MPI 4.1 gave one duplicate different
//       ids on different ranks there while the kept Contexts held ids on some ranks only.
// Each rank counts its failures; every rank exits 1 when any rank failed.
#include <dirent.h>
#include <string.h>

#include "check.h"

static int sum_check(MPI_Comm comm, int salt) {
  int rank, size, in, out = -1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  in = rank + salt;
  if (MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_SUM, comm) != MPI_SUCCESS) return 0;
  return out == size * (size - 1) / 2 + size * salt;
}

static void order_mode(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  for (int round = 0; round < 20; ++round) {
    MPI_Comm comms[4];
    // Two duplicates (one engine) with a communicator of its own engine between them, so
    // that the Contexts left when the frees end differ between the ranks.
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
    MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &comms[1]);  // reverse order
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[2]);
    MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &comms[3]);
    for (int c = 0; c < 4; ++c) CHECK(sum_check(comms[c], round + c), "round %d, communicator %d: wrong sum", round, c);
    for (int c = 0; c < 4; ++c) MPI_Comm_free(&comms[world_rank % 2 ? 3 - c : c]);
  }
}

static void finalize_mode(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm comms[3];
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[0]);
  MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &comms[1]);
  MPI_Comm_dup(MPI_COMM_WORLD, &comms[2]);
  for (int c = 0; c < 3; ++c) CHECK(sum_check(comms[c], c), "communicator %d: wrong sum", c);
  for (int c = 0; c < 3; ++c) MPI_Comm_free(&comms[world_rank % 2 ? 2 - c : c]);
}

// Files in /dev/shm (the MPIs' shared-memory segments), or -1 where there is none.
static int shm_files(void) {
  DIR* dir = opendir("/dev/shm");
  if (!dir) return -1;
  int n = 0;
  for (struct dirent* e; (e = readdir(dir));) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
}

static void many_mode(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int peak = 0;
  for (int i = 0; i < 2200; ++i) {
    MPI_Comm comm;
    if (i < 2000)
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    else
      MPI_Comm_split(MPI_COMM_WORLD, 0, size - world_rank, &comm);
    for (int call = 0; call < 3; ++call) CHECK(sum_check(comm, i + call), "communicator %d: wrong sum", i);
    const int files = shm_files();
    if (files > peak) peak = files;
    MPI_Comm_free(&comm);
  }
  const int after = shm_files();
  CHECK(after <= peak, "/dev/shm holds %d files after the frees, at most %d while the communicators lived", after,
        peak);
}

// Lines of /proc/self/maps (the process's memory mappings), or -1 where there is none.
static int mappings(void) {
  FILE* maps = fopen("/proc/self/maps", "r");
  if (!maps) return -1;
  int n = 0;
  for (int c; (c = fgetc(maps)) != EOF;) n += c == '\n';
  fclose(maps);
  return n;
}

static void kept_mode(void) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int first = -1;
  for (int round = 0; round < 2 * size; ++round) {
    // Rank order: rotated by the round, reversed on the second half of the rounds (distinct
    // orders from 3 ranks on; at 2 the rounds repeat two, which the engines then share).
    const int position = (world_rank + round) % size;
    MPI_Comm comm;
    MPI_Comm_split(MPI_COMM_WORLD, 0, round < size ? position : size - 1 - position, &comm);
    const int now = mappings();  // after the split, which released the round before's Context
    if (round == 1) first = now;
    CHECK(round < 1 || now <= first + 2, "round %d: %d memory mappings, %d at round 1: freed Contexts not released",
          round, now, first);
    CHECK(sum_check(comm, round), "round %d: wrong sum", round);
    MPI_Comm_free(&comm);
  }
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, world_rank % 2, world_rank, &half);
  CHECK(sum_check(half, 1), "parity split: wrong sum");
  MPI_Comm_free(&half);
  enum { kDuplicates = 4 };
  MPI_Comm duplicates[kDuplicates];
  MPI_Request requests[kDuplicates * 64];
  MPI_Status statuses[kDuplicates * 64];  // not MPI_STATUSES_IGNORE: gcc 12 takes MPICH's for an array
  int in[kDuplicates], out[kDuplicates], count = 0;
  for (int d = 0; d < kDuplicates; ++d) {
    in[d] = -1;
    out[d] = 815 + d;
    if (world_rank == 0)
      for (int peer = 1; peer < size && peer < 64; ++peer)
        MPI_Isend(&out[d], 1, MPI_INT, peer, d, MPI_COMM_WORLD, &requests[count++]);
    MPI_Comm_idup(MPI_COMM_WORLD, &duplicates[d], &requests[count++]);
    if (world_rank > 0 && world_rank < 64) MPI_Irecv(&in[d], 1, MPI_INT, 0, d, MPI_COMM_WORLD, &requests[count++]);
  }
  CHECK(MPI_Waitall(count, requests, statuses) == MPI_SUCCESS, "MPI_Waitall of the duplicates and messages");
  for (int d = 0; d < kDuplicates; ++d) {
    CHECK(world_rank == 0 || world_rank >= 64 || in[d] == 815 + d, "duplicate %d: received %d", d, in[d]);
    CHECK(sum_check(duplicates[d], d), "duplicate %d: wrong sum", d);
    MPI_Comm_free(&duplicates[d]);
  }
}

int main(int argc, char** argv) {
  const char* mode = begin_test(&argc, &argv);
  if (strcmp(mode, "order") == 0) order_mode();
  else if (strcmp(mode, "finalize") == 0) finalize_mode();
  else if (strcmp(mode, "many") == 0) many_mode();
  else if (strcmp(mode, "kept") == 0) kept_mode();
  else CHECK(0, "unknown mode '%s'", mode);
  return end_test("test_pmpi_free", mode);
}
