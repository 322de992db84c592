# SPDX-License-Identifier: BSD-3-Clause
"""hympi-osu-probe's collectives from an mpi4py program (no hympi in it): MPI_Barrier, and
MPI_Allreduce (sum), MPI_Bcast and MPI_Reduce (sum, to rank 0) of float64 numpy arrays,
8 B - 1 MiB, OSU's method (warm-up calls, then each call timed alone and followed by an
untimed barrier; the rank's mean, reported as the average, min and max over ranks), in
hympi-osu-probe's output format. Preloaded with libhympi_pmpi it times the same calls
through hympi: bench/scripts/pmpi_compare.py --python PYTHON runs it with and without.

    mpiexec -n 2 env MPI4PY_RC_THREAD_LEVEL=funneled python bench/bindings/osu_probe.py [--iterations N]
"""

import argparse

import numpy as np
from mpi4py import MPI

SIZES = [8, 64, 128, 256, 512, 4096, 32768, 262144, 1048576]


def timed(comm, call, iterations, skip):
    total = 0.0
    for k in range(skip + iterations):
        start = MPI.Wtime()
        call()
        if k >= skip:
            total += MPI.Wtime() - start
        comm.Barrier()
    mean = total / iterations * 1e6
    return comm.allreduce(mean) / comm.size, comm.allreduce(mean, op=MPI.MIN), comm.allreduce(mean, op=MPI.MAX)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=0, help="calls per size (0: OSU's counts)")
    args = parser.parse_args()
    comm = MPI.COMM_WORLD
    rows = []

    def run(test, size, call, small=True):
        iterations = args.iterations or (10000 if small else 1000)
        skip = 1000 if small else 100
        rows.append((test, size, *timed(comm, call, iterations, min(skip, iterations)), iterations))

    run("barrier", 0, comm.Barrier)
    for size in SIZES:
        data, result = np.ones(size // 8), np.empty(size // 8)
        small = size <= 8192
        run("allreduce", size, lambda: comm.Allreduce(data, result, op=MPI.SUM), small)
        run("bcast", size, lambda: comm.Bcast(data, root=0), small)
        run("reduce", size, lambda: comm.Reduce(data, result, op=MPI.SUM, root=0), small)
    if comm.rank == 0:
        print(f"# mpi4py osu_probe.py: OSU's method, {comm.size} ranks (thread level {MPI.Query_thread()})")
        print("# Test           Size   Avg Latency(us)   Min Latency(us)   Max Latency(us)   Iterations")
        for test, size, avg, low, high, iterations in rows:
            print(f"{test:<12}{size:>9}{avg:>18.3f}{low:>18.3f}{high:>18.3f}{iterations:>13}")


if __name__ == "__main__":
    main()
