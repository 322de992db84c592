# SPDX-License-Identifier: BSD-3-Clause
"""Jacobi 2D through hympi's Python package: the heat relaxation of the C++ jacobi2d
(apps/stencil.cpp), u <- u + (f - A u) / 4 with A the 5-point Laplacian, u = 1 on the
x = -1 face; same result, bit for bit (numpy does the same operations in the same order;
np.cumsum sums sequentially, as the C++ loop does).
    mpiexec -n 4 python jacobi2d.py [nx ny iterations strategy]    (1024 1024 200 shm)
"""
import math
import struct
import sys

import numpy as np
import hympi

args = sys.argv[1:]
nx, ny = (int(args[0]), int(args[1])) if len(args) > 1 else (1024, 1024)
iterations = int(args[2]) if len(args) > 2 else 200
strategy = args[3] if len(args) > 3 else "shm"


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", x))[0]


with hympi.Context() as ctx:
    grid = hympi.CartesianGrid(ctx, [nx, ny], "star5")
    b = grid.block
    with hympi.Halo(grid.pattern, strategy) as halo:
        u = np.zeros(b.local_points)        # one ghost layer each side, x fastest
        nxt = np.zeros(b.local_points)
        for v in (u, nxt):                  # the boundary value, never overwritten
            if b.begin[0] == 0:
                v.reshape(b.size[1] + 2, b.size[0] + 2)[:, 0] = 1.0
        for it in range(iterations):
            halo.update(u)
            g = u.reshape(b.size[1] + 2, b.size[0] + 2)
            au = 4.0 * g[1:-1, 1:-1]
            au += -1.0 * g[:-2, 1:-1]
            au += -1.0 * g[1:-1, :-2]
            au += -1.0 * g[1:-1, 2:]
            au += -1.0 * g[2:, 1:-1]
            r = 0.0 - au
            squares = np.cumsum((r * r).ravel())[-1] if r.size else 0.0
            nxt.reshape(g.shape)[1:-1, 1:-1] = g[1:-1, 1:-1] + (1.0 / 4.0) * r
            u, nxt = nxt, u
        owned = u.reshape(b.size[1] + 2, b.size[0] + 2)[1:-1, 1:-1].ravel()
        total = np.cumsum(owned)[-1] if owned.size else 0.0
        residual = math.sqrt(ctx.allreduce(float(squares), "sum"))
        checksum = ctx.allreduce(float(total), "sum")
        if ctx.rank == 0:
            print(f"jacobi2d (Python): {nx} x {ny}, {iterations} iterations, {strategy}")
            print(f"residual {residual:.12e}\nchecksum {checksum:.15e}")
            print(f"bits residual {bits(residual):016X} checksum {bits(checksum):016X}")
    grid.close()
