# SPDX-License-Identifier: BSD-3-Clause
"""hympi.CartesianGrid: blocks cover the grid, Block.index/local_shape/owned agree, and the
ghost update of every stencil fills exactly the ghosts the stencil reads (faces; edges
for star19; everything for box stencils) with the owners' values, which change between
updates; the Cartesian communicator; closing."""

import numpy as np
import pytest
from mpi4py import MPI

import hympi
from conftest import raises_everywhere, raises_here

REACH = {"star5": 1, "star7": 1, "star19": 2, "box9": 3, "box27": 3}  # ghost dimensions a stencil reads


def expected_values(block, stencil, call, chunk):
    """The whole padded local array after an update: owned and read ghosts hold f(global
    point), other ghosts keep -1."""
    z, y, x = np.meshgrid(*(np.arange(n) for n in block.local_shape), indexing="ij")
    local = [x - block.halo[0], y - block.halo[1], z - block.halo[2]]
    outside = sum(((c < 0) | (c >= n)).astype(int) for c, n in zip(local, block.size))
    g = [c + b for c, b in zip(local, block.begin)]
    inside = np.logical_and.reduce([(c >= 0) & (c < n) for c, n in zip(g, block.global_)])
    G = block.global_
    f = g[0] + G[0] * (g[1] + G[1] * g[2]) + 10_000 * call
    filled = (outside == 0) | ((outside <= REACH[stencil]) & inside)
    return np.where(filled[..., None], f[..., None] * 10 + np.arange(chunk), -1)


@pytest.mark.parametrize("stencil,global_,width,chunk", [
    ("star5", (13, 9), 1, 1), ("box9", (10, 7), 2, 2), ("star7", (6, 5, 7), 1, 1),
    ("star19", (6, 5, 4), 1, 1), ("box27", (8, 7, 9), 2, 1)])
def test_grid(ctx, comm, stencil, global_, width, chunk):
    with hympi.CartesianGrid(ctx, global_, stencil, width=width, chunk=chunk, dtype=np.int32) as grid:
        b = grid.block
        nd = len(global_)
        assert grid.stencil.name == stencil and b.global_ == tuple(global_) + (1,) * (3 - nd)
        assert np.prod(b.dims) == comm.size and b.halo == (width,) * nd + (0,) * (3 - nd)
        assert comm.allreduce(b.owned_points) == np.prod(global_)
        assert b.local_points == np.prod(b.local_shape) and b.owned_points == np.prod(b.size)
        assert b.index(0, 0) == np.ravel_multi_index((b.halo[2], b.halo[1], b.halo[0]), b.local_shape)
        last = [n - 1 for n in b.size]
        assert b.index(*last) == np.ravel_multi_index(
            tuple(n + h for n, h in zip(reversed(last), reversed(b.halo))), b.local_shape)
        raises_here(lambda: b.index(b.size[0] + width, 0), "outside", IndexError)
        cart = grid.cart
        assert isinstance(cart, MPI.Cartcomm) and cart.size == comm.size
        assert np.prod(cart.Get_topo()[0]) == comm.size
        pattern = grid.pattern
        assert grid.pattern is pattern and pattern.local_points == b.local_points and pattern.chunk == chunk
        with hympi.Halo(pattern, "shm") as halo:
            for call in range(2):
                expected = expected_values(b, stencil, call, chunk).astype(np.int32)
                u = np.full(b.local_points * chunk, -1, np.int32)
                u.reshape(b.local_shape + (chunk,))[b.owned] = expected[b.owned]
                halo.update(u)
                np.testing.assert_array_equal(u.reshape(expected.shape), expected)
    assert grid.closed
    raises_here(lambda: grid.block, "CartesianGrid is closed")
    with hympi.Halo(pattern, "flat_mpi") as halo:  # the pattern outlives its grid
        halo.update(np.zeros(b.local_points * chunk, np.int32))


def test_grid_errors(ctx):
    raises_here(lambda: hympi.CartesianGrid(ctx, [8, 8], "star11"), "unknown stencil 'star11'")
    last = ctx.size - 1  # a stencil name only it got wrong: the error on every rank, naming it
    raises_everywhere(lambda: hympi.CartesianGrid(ctx, [8, 8], "star11" if ctx.rank == last else "star5"),
                      f"^hympi: CartesianGrid set-up refused on rank {last}: hympi_grid_create_named: hympi: unknown stencil 'star11'")
    raises_here(lambda: hympi.CartesianGrid(ctx, [8, 8], "star5", dtype=np.float16), "float16", TypeError)
