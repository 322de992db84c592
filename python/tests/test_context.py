# SPDX-License-Identifier: BSD-3-Clause
"""hympi.Context: versions, topology and options against mpi4py, the collectives on numpy
arrays and Python scalars against mpi4py's Allreduce/Reduce/Bcast (every dtype and op,
in place, chunked counts, data that changes between calls), argument errors, collective
mismatches (the same hympi.Error on every rank) and closing."""

import os
import re

import numpy as np
import pytest
from mpi4py import MPI

import hympi
from conftest import DTYPES, error_of, raises_everywhere, raises_here

MPI_OPS = {"sum": MPI.SUM, "prod": MPI.PROD, "min": MPI.MIN, "max": MPI.MAX}


def data(count, dtype, call, rank):
    """Small integers (exact in every dtype, products of 4 ranks fit), new per call and rank."""
    rng = np.random.default_rng(1000 * call + rank)
    return rng.integers(1, 4, count).astype(dtype)


def test_versions():
    assert hympi.version() == tuple(int(v) for v in hympi.__version__.split("."))
    assert hympi.mpi_library_version().strip() == MPI.Get_library_version().rstrip("\x00").strip()  # Open MPI counts its NUL


def test_topology(ctx, comm):
    t = ctx.topology
    assert (t.world_rank, t.world_size) == (comm.rank, comm.size) == (ctx.rank, ctx.size)
    node_size = int(os.environ.get("HYMPI_NODE_SIZE", "0"))
    assert t.emulated == (node_size > 0)
    if node_size:
        assert t.node_size <= node_size and t.node_rank == comm.rank % node_size
    node = ctx.comm("node")
    assert node.size == t.node_size and node.rank == t.node_rank
    assert sum(comm.allgather(t.node_rank == 0)) == t.node_count
    leaders = ctx.comm("leaders")
    if t.node_rank == 0:
        assert leaders.size == t.node_count and leaders.rank == t.node_index
    else:
        assert leaders == MPI.COMM_NULL
    assert MPI.Comm.Compare(ctx.comm("world"), comm) == MPI.CONGRUENT
    raises_here(lambda: ctx.comm("galaxy"), "unknown kind 'galaxy'")


def test_options(comm):
    defaults = hympi.Options()
    assert defaults.node_size == 0 and defaults.verify and defaults.single_copy_bytes == 1 << 20
    assert defaults.wait == hympi.WaitPolicy.adaptive
    options = hympi.Options(node_size=1, timeout_s=30.0, wait=hympi.WaitPolicy.yield_, verify=False,
                            single_copy_bytes=65536)
    assert (options.node_size, options.timeout_s, options.verify, options.single_copy_bytes) == (1, 30.0, False, 65536)
    assert options != defaults and "yield" in repr(options)
    raises_here(lambda: hympi.Options(colour=1), "no field 'colour'", TypeError)
    assert hympi.Options.from_env().node_size == int(os.environ.get("HYMPI_NODE_SIZE", "0"))
    with hympi.Context(comm, options) as single:  # every rank a node of its own
        assert single.options == options
        t = single.topology
        assert (t.node_size, t.node_count, t.emulated) == (1, comm.size, comm.size > 1)
        assert single.allreduce(float(comm.rank), "sum") == comm.size * (comm.size - 1) / 2


@pytest.mark.parametrize("dtype", DTYPES)
def test_allreduce_arrays(ctx, comm, dtype):
    for call, (op, count) in enumerate([("sum", 0), ("sum", 1), ("prod", 7), ("min", 1000), ("max", 1000)]):
        a = data(count, dtype, call, comm.rank)
        expected = np.empty_like(a)
        comm.Allreduce(a, expected, op=MPI_OPS[op])
        result = ctx.allreduce(a, op)
        assert result.dtype == a.dtype and result.shape == a.shape
        np.testing.assert_array_equal(result, expected)
        out = np.empty_like(a)
        assert ctx.allreduce(a, hympi.Op.__members__[op], out=out) is out
        np.testing.assert_array_equal(out, expected)
        assert ctx.allreduce(a, op, out=a) is a  # in place
        np.testing.assert_array_equal(a, expected)


def test_allreduce_chunked_2d(ctx, comm):
    """2.4 MB, chunks of the collective buffer (by default 256 KiB), and any C-contiguous shape."""
    a = data(3 * 100_000, np.float64, 7, comm.rank).reshape(3, 100_000)
    expected = np.empty_like(a)
    comm.Allreduce(a, expected, op=MPI.SUM)
    np.testing.assert_array_equal(ctx.allreduce(a), expected)


def test_scalars(ctx, comm):
    for call in range(3):
        x = float(comm.rank + call) + 0.5
        total = ctx.allreduce(x, "sum")
        assert type(total) is float and total == comm.allreduce(x, MPI.SUM)
        assert ctx.allreduce(comm.rank * 10 + call, "max") == (comm.size - 1) * 10 + call
        assert type(ctx.allreduce(3, "sum")) is int
    small = ctx.allreduce(np.float32(comm.rank), "max")
    assert type(small) is np.float32 and small == comm.size - 1
    reduced = ctx.reduce(comm.rank + 1, "prod", root=comm.size - 1)
    assert reduced == (np.prod(np.arange(1, comm.size + 1)) if comm.rank == comm.size - 1 else None)
    assert ctx.bcast(float(comm.rank), root=comm.size - 1) == comm.size - 1
    assert ctx.bcast(np.int32(comm.rank) + 7, root=0) == 7
    raises_here(lambda: ctx.allreduce(2**70), "does not fit int64", OverflowError)
    raises_here(lambda: ctx.allreduce(1.0, out=np.zeros(1)), "out is for arrays", TypeError)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reduce_and_bcast(ctx, comm, dtype):
    for root in range(comm.size):
        a = data(500, dtype, root, comm.rank)
        expected = np.empty_like(a)
        comm.Reduce(a, expected, op=MPI.MAX, root=root)
        result = ctx.reduce(a, "max", root=root)
        if comm.rank == root:
            np.testing.assert_array_equal(result, expected)
        else:
            assert result is None
        b = data(300, dtype, 50 + root, comm.rank)
        expected = comm.bcast(b.copy(), root=root)
        assert ctx.bcast(b, root=root) is b
        np.testing.assert_array_equal(b, expected)
    c = np.arange(4, dtype=dtype)
    if comm.rank == 0:
        c.flags.writeable = False  # the root's data is only read
    np.testing.assert_array_equal(ctx.bcast(c), np.arange(4))


def test_argument_errors(ctx):
    a = np.arange(10.0)
    raises_here(lambda: ctx.allreduce([1.0, 2.0]), "must be a numpy array", TypeError)
    raises_here(lambda: ctx.allreduce(np.arange(3, dtype=np.uint8)), "uint8", TypeError)
    raises_here(lambda: ctx.allreduce(np.zeros(3, np.complex128)), "complex128", TypeError)
    raises_here(lambda: ctx.allreduce(a, out=np.zeros(10, np.float32)), "float32 but data's dtype is float64", TypeError)
    raises_here(lambda: ctx.allreduce(a[::2]), "not C-contiguous")
    raises_here(lambda: ctx.allreduce(np.zeros((4, 4)).T), "not C-contiguous")
    raises_here(lambda: ctx.allreduce(a, out=np.zeros(9)), "has 9 elements; expected 10")
    readonly = np.zeros(10)
    readonly.flags.writeable = False
    raises_here(lambda: ctx.allreduce(a, out=readonly), "read-only")
    raises_here(lambda: ctx.allreduce(a[:8], out=a[2:]), "overlaps data in part")
    raises_here(lambda: ctx.allreduce(a, "avg"), "unknown op 'avg'.*sum, prod, min, max")
    assert ctx.allreduce(1.0) == ctx.size  # nothing was sent: the next call still matches


def test_argument_errors_on_one_rank(ctx, comm):
    """One rank's bad argument: that rank raises its own reason, every other rank a
    hympi.Error naming it, and nobody is left waiting in the collective."""
    if comm.size == 1:
        pytest.skip("needs two ranks")
    last = comm.size - 1
    bad = comm.rank == last
    a = np.arange(10.0)
    readonly = np.zeros(10)
    readonly.flags.writeable = False
    cases = [  # call, error on the bad rank, its message, the others' message
        (lambda: ctx.allreduce(np.zeros(10, np.complex128) if bad else a), TypeError, "complex128",
         "allreduce.* with a null input buffer .*binding refused"),
        (lambda: ctx.allreduce(a[::2] if bad else a), hympi.Error, "not C-contiguous", "with a null input buffer"),
        (lambda: ctx.allreduce(a, "avg" if bad else "sum"), hympi.Error, "unknown op 'avg'",
         "with an op that is none of sum"),
        (lambda: ctx.allreduce(a, out=np.zeros(9) if bad else None), hympi.Error, "has 9 elements",
         "with a null output buffer"),
        (lambda: ctx.allreduce(2**70 if bad else 1), OverflowError, "does not fit int64",
         "with a type that is none of float64"),
        (lambda: ctx.reduce(a, root=last, out=readonly if bad else None), hympi.Error, "read-only",
         "reduce.* with a null output buffer"),
        (lambda: ctx.bcast(readonly if bad else np.zeros(10)), hympi.Error, "read-only",
         "bcast.* with a null buffer \\('data'\\)"),
    ]
    for call, error, here, others in cases:
        message = error_of(call, error if bad else hympi.Error)
        raised = comm.allgather(message is not None)
        assert all(raised), f"{here}: no error on ranks {[r for r, x in enumerate(raised) if not x]}"
        assert re.search(here if bad else f"rank {last} called .*{others}", message), message
    assert ctx.allreduce(1.0) == ctx.size  # still usable: the failed calls moved nothing


def test_collective_mismatch(ctx, comm):
    if comm.size == 1:
        pytest.skip("needs two ranks")
    count = 2 if comm.rank == 0 else 3
    raises_everywhere(lambda: ctx.allreduce(np.ones(count)), "count")
    raises_everywhere(lambda: ctx.allreduce(1.0, "sum" if comm.rank else "max"), "op")
    raises_everywhere(lambda: ctx.allreduce(1.0 if comm.rank else 1), "type")
    raises_everywhere(lambda: ctx.bcast(np.ones(2), root=comm.size), "root")
    raises_everywhere(lambda: ctx.reduce(np.ones(2), root=comm.rank % 2), "root")
    assert ctx.allreduce(comm.rank + 1, "sum") == comm.size * (comm.size + 1) // 2  # still usable


def test_close(comm):
    with hympi.Context(comm) as context:
        assert not context.closed and "rank" in repr(context)
        context.barrier()
    assert context.closed and repr(context) == "Context(closed)"
    context.close()  # a second close does nothing
    for call in (context.barrier, lambda: context.allreduce(1.0), lambda: context.topology,
                 lambda: hympi.Pattern.from_lists(context, 1, [])):
        raises_here(call, "Context is closed")


def test_bad_comm():
    raises_here(lambda: hympi.Context(MPI.COMM_NULL), "COMM_NULL")
    raises_here(lambda: hympi.Context(42), "mpi4py communicator", TypeError)
