# SPDX-License-Identifier: BSD-3-Clause
"""What the Python package adds to a ghost update over the C API (hympi-bench bindings
measures the C API over C++): one Halo (strategy shm, a ring with 1 KiB of doubles per
neighbour) updated by `halo.update(u)` in a Python loop and by the same C API call in a C++
loop (the hidden Halo._time_c_updates), in alternating rounds of `inner` calls, one launch.
A round's figure is the slowest rank's mean per call; printed: each layer's median over the
rounds and the median of the per-round differences. The data is not rewritten between
calls (only the call differs): absolute times are cache-resident.
    mpiexec -n 2 python overhead.py [rounds inner]      (100 100)
"""
import statistics
import sys
import time

import numpy as np
from mpi4py import MPI

import hympi

N = 128  # 1 KiB of float64 per neighbour
rounds, inner = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (100, 100)
comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
# The ring of hympi-bench: right neighbour, and left from 3 ranks on; N owned points per
# neighbour, then its N ghosts.
peers = [(rank + 1) % size, (rank - 1) % size][: min(size - 1, 2)]
neighbors = [(p, np.arange(k * N, (k + 1) * N), len(peers) * N + np.arange(k * N, (k + 1) * N))
             for k, p in enumerate(peers)]

with hympi.Context(comm) as ctx:
    pattern = hympi.Pattern.from_lists(ctx, 2 * len(peers) * N, neighbors)
    with hympi.Halo(pattern, "shm") as halo:
        u = np.ones(2 * len(peers) * N)
        times = {"python": [], "c": []}
        for _ in range(rounds):
            for layer in times:
                ctx.barrier()
                if layer == "python":
                    start = time.perf_counter()
                    for _ in range(inner):
                        halo.update(u)
                    seconds = time.perf_counter() - start
                else:
                    seconds = halo._time_c_updates(u, inner)
                times[layer].append(comm.allreduce(seconds / inner, op=MPI.MAX))

if rank == 0:
    print(f"# bindings-python 1024 B, {rounds} rounds of {inner} calls, call overhead, unchanged data (cache-resident)")
    for layer, name in (("python", "python Halo.update"), ("c", "c hympi_halo_update")):
        print(f"{name:<36}median {statistics.median(times[layer]) * 1e6:10.3f} us")
    diff = statistics.median(p - c for p, c in zip(times["python"], times["c"]))
    print(f"# bindings: Python package over C API per update: median {diff * 1e9:.1f} ns (per-round differences)")
