# SPDX-License-Identifier: BSD-3-Clause
"""hympi.map_ranks, map_ranks_traffic and reordered_comm (built with METIS): the C++ result
of a known case (tests/package's: 3 1 2 0); on a live pattern where each rank's heavy
partner is half the communicator away, a permutation that is the same on every rank and
puts each heavy pair on one node; the reordered mpi4py communicator gives each process
its new rank and carries messages; errors on every rank."""

import numpy as np
import pytest
from mpi4py import MPI

import hympi
from conftest import raises_everywhere, raises_here

pytestmark = pytest.mark.skipif(not hasattr(hympi, "map_ranks"), reason="hympi built without METIS")


def test_known_traffic():
    pairs = [(0, 2, 1000), (2, 0, 1000), (1, 3, 1000), (3, 1, 1000)]
    assert hympi.map_ranks_traffic(pairs, [0, 0, 1, 1]).tolist() == [3, 1, 2, 0]
    assert hympi.map_ranks_traffic(pairs, [0, 1, 0, 1]).tolist() == [0, 1, 2, 3]  # already paired
    raises_here(lambda: hympi.map_ranks_traffic([(0, 9, 10)], [0, 0, 1, 1]), "hympi: ")


def heavy_pairs(ctx):
    r, n = ctx.rank, ctx.size
    partner = (r + n // 2) % n
    points = {}
    for rank, count in ((partner, 64), ((r - n // 2) % n, 64), ((r + 1) % n, 1), ((r - 1) % n, 1)):
        if rank != r:
            points[rank] = points.get(rank, 0) + count
    lists, ghost = [], 130
    for rank, count in sorted(points.items()):
        lists.append((rank, list(range(count)), list(range(ghost, ghost + count))))
        ghost += count
    return hympi.Pattern.from_lists(ctx, ghost, lists)


def test_map_ranks_and_reordered_comm(ctx):
    n = ctx.size
    pattern = heavy_pairs(ctx)
    new_rank = hympi.map_ranks(pattern)
    assert sorted(new_rank.tolist()) == list(range(n))
    assert len({tuple(x) for x in MPI.COMM_WORLD.allgather(new_rank.tolist())}) == 1
    topo = ctx.topology
    node_of = MPI.COMM_WORLD.allgather(topo.node_index)
    node_after = [0] * n
    for p in range(n):
        node_after[new_rank[p]] = node_of[p]
    if topo.node_count > 1 and n % 2 == 0 and topo.node_size % 2 == 0:
        assert all(node_after[v] == node_after[(v + n // 2) % n] for v in range(n))
    comm = hympi.reordered_comm(MPI.COMM_WORLD, new_rank)
    assert comm.rank == new_rank[ctx.rank]
    assert comm.sendrecv(1000 + comm.rank, dest=(comm.rank + n // 2) % n,
                         source=(comm.rank - n // 2) % n) == 1000 + (comm.rank - n // 2) % n
    comm.Free()
    last = ctx.rank == n - 1
    if n > 1:
        raises_everywhere(lambda: hympi.map_ranks(pattern, 2 if last else 1), "ranks passed different fields")
        mine = list(range(n))
        if ctx.rank == 0:
            mine[0], mine[1] = 1, 0
        raises_everywhere(lambda: hympi.reordered_comm(MPI.COMM_WORLD, mine), "different permutation")
    raises_everywhere(lambda: hympi.map_ranks(pattern, 0 if last else 1), r"argument 'fields' is 0")
