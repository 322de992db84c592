# SPDX-License-Identifier: BSD-3-Clause
"""hympi.NodeShared: every rank reads what the writers wrote, for every dtype, through
refresh(write) and `with table.write(...)`, by the leader and by slices, with new values
each time; the array is a read-only view; one copy per node, measured in /proc/self/smaps
(the Pss of a node's ranks add up to one table); and the errors: a Python exception in a
writer on one rank, a count or writers that differ between ranks, an unknown writers name
on one rank, close() with a live view: hympi.Error on every rank, no hang."""

import numpy as np
import pytest
from mpi4py import MPI

import hympi
from conftest import DTYPES, raises_everywhere, raises_here

COUNT = 1000 + 17  # not a multiple of any node size here


def expected(ctx, generation, count=COUNT):
    """Every element's value after refresh `generation` on my node (exact in every dtype)."""
    return np.arange(count) % 100000 * 16 + ctx.topology.node_index * 4 + generation % 4


@pytest.mark.parametrize("dtype", DTYPES)
def test_every_rank_reads_what_the_writers_wrote(ctx, dtype):
    with hympi.NodeShared(ctx, COUNT, dtype) as table:
        assert len(table) == COUNT and table.dtype == hympi.Datatype[np.dtype(dtype).name]
        array = table.array
        assert array.dtype == dtype and array.shape == (COUNT,) and not array.flags.writeable
        assert not array.any()  # zero until written
        for g in range(1, 7):
            writers = "leader" if g % 2 else hympi.Writers.slices
            if g % 3:
                def write(part, first, g=g):
                    part[:] = expected(ctx, g)[first:first + len(part)]
                table.refresh(write, writers)
            else:
                with table.write(writers) as (part, first):
                    assert part.flags.writeable
                    part[:] = expected(ctx, g)[first:first + len(part)]
                assert not part.flags.writeable  # the write is over
                if writers == "leader":
                    assert len(part) == (COUNT if ctx.topology.node_rank == 0 else 0)
            assert np.array_equal(array, expected(ctx, g).astype(dtype))
        del array, part  # views of the table: close() refuses while they live


def test_a_writer_at_construction_and_an_empty_table(ctx):
    def write(part, first):
        part[:] = np.arange(first, first + len(part))
    with hympi.NodeShared(ctx, 100, "int64", write, "slices") as table:
        assert np.array_equal(table.array, np.arange(100))
    with hympi.NodeShared(ctx, 0, np.float32, write) as empty:
        assert len(empty.array) == 0


def resident(address):
    """(Rss, Pss) in kB of the mapping that holds `address`, from /proc/self/smaps."""
    inside, rss, pss = False, -1, -1
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()
            if "-" in head[0] and not head[0].endswith(":"):
                begin, end = (int(x, 16) for x in head[0].split("-"))
                inside = begin <= address < end
            elif inside and head[0] == "Rss:":
                rss = int(head[1])
            elif inside and head[0] == "Pss:":
                pss = int(head[1])
    return rss, pss


def test_one_copy_per_node(ctx):
    topo = ctx.topology
    if topo.node_count == ctx.size:
        pytest.skip("every node has one rank: nothing is shared")
    mib = 8
    with hympi.NodeShared(ctx, mib << 17, "int64", lambda part, first: part.__setitem__(
            slice(None), np.arange(first, first + len(part)))) as table:
        array = table.array
        assert np.array_equal(array, np.arange(mib << 17))  # every rank reads every page
        MPI.COMM_WORLD.Barrier()
        rss, pss = resident(array.__array_interface__["data"][0])
        assert mib << 10 <= rss <= (mib << 10) + 2048
        per_rank = MPI.COMM_WORLD.allgather((topo.node_index, pss))
        node_pss = sum(p for node, p in per_rank if node == topo.node_index)
        assert (mib << 10) - 1024 <= node_pss <= (mib << 10) + 2048, per_rank
        del array


def test_a_writer_that_raises_on_one_rank_is_an_error_everywhere(ctx):
    last = ctx.rank == ctx.size - 1
    with hympi.NodeShared(ctx, 64, "int32") as table:
        def write(part, first):
            if last:
                raise ValueError("no data for the table")
            part[:] = 1
        raises_everywhere(lambda: table.refresh(write, "slices"),
                          r"^hympi: NodeShared: a writer failed: ValueError: no data for the table$")

        def block():
            with table.write("slices") as (part, first):
                if last:
                    raise KeyError("missing")
                part[:] = 2
        raises_everywhere(block, r"a writer failed: KeyError: 'missing'")
        table.refresh(lambda part, first: part.__setitem__(slice(None), 3))  # still usable
        assert (table.array == 3).all()


def test_misuse_is_an_error_everywhere(ctx):
    last = ctx.rank == ctx.size - 1
    with hympi.NodeShared(ctx, 10) as table:
        if ctx.size > 1:
            raises_everywhere(lambda: hympi.NodeShared(ctx, 10 if ctx.rank == 0 else 11),
                              r"hympi: NodeShared: ranks passed different count: 10 on rank 0, 11 on rank")
            raises_everywhere(lambda: table.refresh(lambda p, f: None, "slices" if last else "leader"),
                              r"ranks named different writers \(leader and slices\)")
        # An unknown name on the last rank: its own reason there, that rank's argument at
        # the others' end of the refresh.
        if last:
            raises_here(lambda: table.refresh(lambda p, f: None, "all"), r"unknown writers 'all'")
        else:
            raises_here(lambda: table.refresh(lambda p, f: None), r"argument 'writers' is -1")
        raises_here(lambda: table.array.__setitem__(0, 1.0), "read-only", ValueError)
        view = table.array
        raises_everywhere(table.close, r"NodeShared.close: \d+ numpy view\(s\)")
        del view
    assert table.closed
    raises_here(lambda: table.array, "this NodeShared is closed")
