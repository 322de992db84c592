# SPDX-License-Identifier: BSD-3-Clause
"""Run as a program under mpiexec (ctest python.exit.*), not by pytest:
    exit_paths.py at_exit         objects (and numpy views) left alive at interpreter exit,
                                  where mpi4py finalizes MPI
    exit_paths.py after_finalize  MPI.Finalize() first, then use (hympi.Error), close() and
                                  drop everything
Neither may raise, print an error, or make an MPI call after MPI_Finalize (Open MPI and
MPICH abort on one, so the exit status catches it; ctest also fails on their messages)."""

import sys

import numpy as np
from mpi4py import MPI

import hympi

mode = sys.argv[1]
assert mode in ("at_exit", "after_finalize"), mode
ctx = hympi.Context()
r, n = ctx.rank, ctx.size
lists = [((r + 1) % n, [0, 1], [2, 3])] if n == 2 else []
pattern = hympi.Pattern.from_lists(ctx, 4, lists)
halo = hympi.Halo(pattern, "shm")
halo.update(np.zeros(4))
direct = hympi.Halo(pattern, "shm_direct")
view = direct.shared_field()
grid = hympi.CartesianGrid(ctx, [6, 6], "star5")
grid_pattern = grid.pattern
table = hympi.NodeShared(ctx, 10, "float64", lambda part, first: part.fill(1.0), "slices")
table_view = table.array
begun = np.zeros(4)
halo.begin(begun)
halo.end(begun)
if mode == "after_finalize":
    MPI.Finalize()
    for use in (lambda: ctx.allreduce(1.0), lambda: halo.update(begun), lambda: grid.block, ctx.barrier,
                lambda: table.array, lambda: table.refresh(print)):
        try:
            use()
            raise AssertionError("an object was usable after MPI_Finalize")
        except hympi.Error as e:
            assert "MPI is finalized" in str(e), e
    halo.close()
    grid.close()
    ctx.close()  # closes direct too: after MPI_Finalize hympi already released its memory
    del view, direct, halo, grid, grid_pattern, pattern, table_view, table, ctx
print(f"exit_paths {mode}: ok on rank {r}")
