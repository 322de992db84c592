# SPDX-License-Identifier: BSD-3-Clause
"""An unchanged mpi4py program (no hympi in it) for libhympi_pmpi preloaded under it
(python/CMakeLists.txt: python.pmpi.*): MPI_Barrier, MPI_Bcast and MPI_Reduce from every
root, MPI_Allreduce (three ops, MPI_IN_PLACE, doubles and 32/64-bit integers) at four
sizes, and MPI_Neighbor_alltoall on a distributed-graph ring, over many calls with data
that changes every call. Each result is checked against its closed form; a rank with a
wrong one exits 1. Run with MPI4PY_RC_THREAD_LEVEL below "multiple" (mpi4py's default,
at which the library leaves every call to MPI).
"""

import sys

import numpy as np
from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.rank, comm.size
ITERATIONS = 12
failures = []


def check(what, got, expected):
    if not np.array_equal(got, expected):
        failures.append(f"{what}: got {got[:4]}..., expected {expected[:4]}...")


for k in range(ITERATIONS):
    comm.Barrier()
    root = k % size
    for n in (1, 8, 100, 5000):  # 5000 doubles: above the library's default bounds
        i = np.arange(n, dtype=np.float64)
        data = root * 1000.0 + k + i if rank == root else np.zeros(n)
        comm.Bcast(data, root=root)
        check(f"Bcast n={n} root={root} call {k}", data, root * 1000.0 + k + i)

        mine = (rank + 1) * (k + 1) + i
        out = np.empty(n)
        comm.Reduce(mine, out if rank == root else None, op=MPI.SUM, root=root)
        if rank == root:
            check(f"Reduce n={n} root={root} call {k}", out, (k + 1) * size * (size + 1) / 2 + size * i)

        comm.Allreduce(mine, out, op=MPI.MAX)
        check(f"Allreduce MAX n={n} call {k}", out, size * (k + 1) + i)
        inplace = mine.copy()
        comm.Allreduce(MPI.IN_PLACE, inplace, op=MPI.MIN)
        check(f"Allreduce MIN in place n={n} call {k}", inplace, (k + 1) + i)
        for dtype in (np.int32, np.int64):
            ints = (rank + 1) * (k + 1) + np.arange(n, dtype=dtype)
            total = np.empty(n, dtype=dtype)
            comm.Allreduce(ints, total, op=MPI.SUM)
            check(f"Allreduce SUM {dtype.__name__} n={n} call {k}", total,
                  (k + 1) * size * (size + 1) // 2 + size * np.arange(n, dtype=dtype))

left, right = (rank - 1) % size, (rank + 1) % size
if size >= 3:  # distinct neighbours (at 2 ranks left == right: a multigraph, MPI's)
    ring = comm.Create_dist_graph_adjacent([left, right], [left, right])
    for k in range(ITERATIONS):
        for n in (1, 64, 3000):
            send = np.concatenate([rank * 100.0 + k + np.arange(n), rank * 100.0 + k + 0.5 + np.arange(n)])
            recv = np.empty(2 * n)
            ring.Neighbor_alltoall(send, recv)
            # from left: its block for its right neighbour (the second); from right: its first
            expected = np.concatenate([left * 100.0 + k + 0.5 + np.arange(n), right * 100.0 + k + np.arange(n)])
            check(f"Neighbor_alltoall n={n} call {k}", recv, expected)
    ring.Free()

for failure in failures[:5]:
    print(f"plain_mpi4py: rank {rank}: {failure}", flush=True)
worst = comm.allreduce(len(failures), op=MPI.MAX)
if rank == 0:
    print("plain_mpi4py: all ranks passed" if worst == 0 else "plain_mpi4py: failures (see above)", flush=True)
sys.exit(1 if failures else 0)
