# SPDX-License-Identifier: BSD-3-Clause
"""Lifetimes: numpy views keep their Halo alive, close() refuses on every rank while views
of the memory it would free exist, Context.close() closes what was made from it, closed
objects raise hympi.Error, and objects Python drops are freed (collectively, at the same
point on every rank). Exit and MPI_Finalize: exit_paths.py."""

import gc

import numpy as np
from mpi4py import MPI

import hympi
from conftest import raises_everywhere, raises_here


def ring(ctx, chunk=1):
    """Two owned points and two ghosts per rank: from the left and the right neighbour."""
    r, n = ctx.rank, ctx.size
    if n == 1:
        return hympi.Pattern.from_lists(ctx, 4, [], chunk)
    left, right = (r - 1) % n, (r + 1) % n
    lists = [(left, [0, 1], [2, 3])] if left == right else [(left, [0], [2]), (right, [1], [3])]
    return hympi.Pattern.from_lists(ctx, 4, lists, chunk)


def expected_ring(ctx, before):
    """`before` (owned values 10 rank + 1, + 2) after an update of ring()."""
    r, n = ctx.rank, ctx.size
    owned = list(before[:2])
    if n == 1:
        return list(before)
    value = lambda rank, i: 10.0 * rank + i + 1  # noqa: E731
    left, right = (r - 1) % n, (r + 1) % n
    if left == right:
        return owned + [value(left, 0), value(left, 1)]
    return owned + [value(left, 1), value(right, 0)]


def test_view_keeps_halo_alive(ctx):
    u = hympi.Halo(ring(ctx), "shm_direct").shared_field()  # the view is the Halo's only owner
    gc.collect()
    assert u.size == 4 and not u.any()
    u[:] = [10.0 * ctx.rank + 1, 10.0 * ctx.rank + 2, 3, 4]  # in shared memory, still mapped
    assert list(u) == [10.0 * ctx.rank + 1, 10.0 * ctx.rank + 2, 3, 4]
    del u  # the Halo goes with its last view: collective, at the same point on every rank
    gc.collect()


def test_close_with_views(ctx):
    halo = hympi.Halo(ring(ctx), "shm_direct")
    u = halo.shared_field()
    u[:2] = [10.0 * ctx.rank + 1, 10.0 * ctx.rank + 2]
    before = u.copy()
    halo.update(u)
    assert list(u) == expected_ring(ctx, before)
    slice_of_u = u[1:]
    del u
    raises_everywhere(halo.close, "numpy view")  # slice_of_u still points into it
    raises_everywhere(ctx.close, "numpy view")
    assert not halo.closed and not ctx.closed
    del slice_of_u
    halo.close()
    assert halo.closed
    raises_here(lambda: halo.update(np.zeros(4)), "Halo is closed")
    raises_here(lambda: halo.shared_field(), "Halo is closed")
    raises_here(lambda: halo.stats, "Halo is closed")
    halo.close()  # a second close does nothing


def test_buffer_views_block_close(ctx):
    with hympi.Halo(ring(ctx), "shm", mode="buffers") as halo:
        halo.acquire()
        views = [halo.send_buffer(n) for n in range(len(halo.pattern.neighbors))]
        halo.begin_buffers()
        halo.end_buffers()
        views += [halo.recv_buffer(n) for n in range(len(halo.pattern.neighbors))]
        has_views = MPI.COMM_WORLD.allreduce(len(views))
        if has_views:
            raises_everywhere(halo.close, "numpy view")
        del views


def test_context_close_closes_children(comm):
    context = hympi.Context(comm)
    pattern = ring(context)
    halo = hympi.Halo(pattern, "flat_mpi")
    grid = hympi.CartesianGrid(context, [6, 6], "box9")
    grid_pattern = grid.pattern
    with context:
        v = np.array([10.0 * context.rank + 1, 10.0 * context.rank + 2, -1, -1])
        before = v.copy()
        halo.update(v)
        assert list(v) == expected_ring(context, before)
    assert context.closed and halo.closed and grid.closed
    raises_here(lambda: pattern.local_points, "Pattern is closed")
    raises_here(lambda: grid_pattern.neighbors, "Pattern is closed")
    raises_here(lambda: hympi.Halo(pattern), "Pattern is closed")
    raises_here(lambda: halo.update(v), "Halo is closed")
    raises_here(lambda: grid.pattern.chunk, "Pattern is closed")
    halo.close()
    grid.close()


def test_dropped_objects_are_freed(ctx, comm):
    """Dropping a Context first and its objects after frees them in a valid order (the
    objects keep the Context alive), with no hang or crash."""
    context = hympi.Context(comm)
    halo = hympi.Halo(ring(context), "shm")
    grid = hympi.CartesianGrid(context, [5, 5, 5], "star7")
    halo.update(np.zeros(4))
    del context, halo, grid
    gc.collect()
    assert ctx.allreduce(1) == comm.size  # the other Context still works


def test_messages_redirected_then_silenced(ctx, comm):
    """hympi's messages go where set_message_handler says (xSDK M11): a Halo closed between
    begin and end warns through a Python callable, then None silences it. On a Context of
    this node's ranks only: nothing of the abandoned update is left in MPI."""
    node_comm = comm.Split(ctx.topology.node_index, ctx.rank)
    heard = []
    try:
        with hympi.Context(node_comm) as own:
            own_rank = own.rank
            pattern = ring(own)
            for handler in (heard.append, None):
                hympi.set_message_handler(handler)
                halo = hympi.Halo(pattern, "shm")
                halo.begin(np.ones(4))
                halo.close()  # in flight, on every rank of the node
                own.barrier()
    finally:
        hympi.set_message_handler(hympi.default_message_handler)
        node_comm.Free()
    assert len(heard) == 1, heard
    assert f"rank {own_rank} destroys a Halo between begin() and end()" in heard[0], heard[0]
    raises_here(lambda: hympi.set_message_handler(42), "takes a callable")
