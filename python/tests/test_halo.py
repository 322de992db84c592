# SPDX-License-Identifier: BSD-3-Clause
"""hympi.Pattern and hympi.Halo: every strategy on a random graph (asymmetric, ranks that
own nothing, one-way edges, scattered and shuffled ghost ids) against the exact values,
with data that changes between updates, split begin/end, several fields, every dtype,
chunk 3; separate send and receive arrays; from_owners, order_local_ids, buffers mode, shm_direct's shared fields,
statistics, automatic's trials; and the errors: bad arrays, call order, set-up
mismatches on every rank."""

import sys

import numpy as np
import pytest
from mpi4py import MPI

import hympi
from conftest import DTYPES, error_of, raises_everywhere, raises_here

STRATEGIES = [s.name for s in hympi.Strategy]
BUFFER_STRATEGIES = ["shm", "flat_mpi", "aggregated", "aggregated_odm", "automatic"]


class Graph:
    """A partition every rank builds alike (same seed): points owned per rank and each
    rank's ghosts as (owner, owner's local id), in the rank's ghost order."""

    def __init__(self, seed, size, max_points=12, max_ghosts=5, p_edge=0.7):
        rng = np.random.default_rng(seed)
        self.owned = [0 if rng.integers(5) == 0 else int(rng.integers(1, max_points + 1)) for _ in range(size)]
        self.first = np.concatenate([[0], np.cumsum(self.owned)[:-1]]).astype(int)
        self.ghosts = []
        for r in range(size):
            ghosts = []
            for s in range(size):
                if s != r and self.owned[s] and rng.random() < p_edge:
                    count = int(rng.integers(1, min(max_ghosts, self.owned[s]) + 1))
                    ghosts += [(s, int(i)) for i in rng.choice(self.owned[s], count, replace=False)]
            self.ghosts.append([ghosts[i] for i in rng.permutation(len(ghosts))])

    def local_points(self, r):
        return self.owned[r] + len(self.ghosts[r])

    def global_ids(self, r):
        owned = [self.first[r] + p for p in range(self.owned[r])]
        return np.array(owned + [self.first[o] + i for o, i in self.ghosts[r]], dtype=np.int64)

    def owners(self, r):
        return np.array([r] * self.owned[r] + [o for o, _ in self.ghosts[r]], dtype=np.int32)

    def lists(self, r):
        """(rank, send_ids, recv_ids) of rank r, in the orders both sides agree on."""
        pairs = {}
        for g, (owner, _) in enumerate(self.ghosts[r]):
            pairs.setdefault(owner, ([], []))[1].append(self.owned[r] + g)
        for s, ghosts in enumerate(self.ghosts):
            for owner, i in ghosts:
                if owner == r:
                    pairs.setdefault(s, ([], []))[0].append(i)
        return [(s, send, recv) for s, (send, recv) in sorted(pairs.items())]


def values(gids, call, field, chunk, dtype):
    """The value of each point's components: exact in every dtype, new per call and field."""
    base = (gids.astype(np.int64) + 1) * 7 + call * 1000 + field * 100
    return (base[:, None] * 10 + np.arange(chunk)).ravel().astype(dtype)


def fresh(gids, owned, call, field, chunk, dtype, out=None):
    """An array with the owned values of `call` and -1 in the ghosts."""
    v = values(gids, call, field, chunk, dtype)
    v[owned * chunk:] = -1
    if out is None:
        return v
    out[:] = v
    return out


@pytest.fixture(scope="module")
def graph():
    return Graph(17, MPI.COMM_WORLD.size)


def make_pattern(ctx, graph, chunk=1, dtype=np.float64):
    r = ctx.rank
    return hympi.Pattern.from_lists(ctx, graph.local_points(r), graph.lists(r), chunk, dtype)


def check_updates(halo, graph, rank, fields, chunk, dtype, calls=3, arrays=None):
    gids, owned = graph.global_ids(rank), graph.owned[rank]
    for call in range(calls):
        vs = [fresh(gids, owned, call, f, chunk, dtype, None if arrays is None else arrays[f]) for f in range(fields)]
        arg = vs[0] if fields == 1 and call % 2 else vs
        if call % 2:
            halo.update(arg)
        else:
            halo.begin(arg)
            vs[0][:owned * chunk] += 0  # work on owned points between begin and end
            halo.end(arg)
        for f in range(fields):
            np.testing.assert_array_equal(vs[f], values(gids, call, f, chunk, dtype))


def sent(graph, rank):
    return [(len(send)) for _, send, _ in graph.lists(rank) if send]


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategies(ctx, graph, strategy):
    pattern = make_pattern(ctx, graph)
    with hympi.Halo(pattern, strategy, fields=2) as halo:
        assert halo.requested_strategy.name == strategy and halo.fields == 2
        assert halo.mode == hympi.HaloMode.vectors and halo.pattern is pattern
        arrays = None
        if halo.strategy == hympi.Strategy.shm_direct:
            arrays = [halo.shared_field(f) for f in range(2)]
            assert all(a.dtype == np.float64 and a.size == pattern.local_points and not a.any() for a in arrays)
        check_updates(halo, graph, ctx.rank, 2, 1, np.float64, arrays=arrays)
        stats = halo.stats
        if strategy in ("aggregated", "aggregated_odm", "automatic"):
            timed = strategy == "automatic" and ctx.topology.node_count > 1  # one node: shm, untimed
            assert [t.name for t, _ in halo.trials] == (["shm", "aggregated", "aggregated_odm"] if timed else [])
            assert all(seconds > 0 for _, seconds in halo.trials)
        else:
            assert halo.trials == []
            counts = sent(graph, ctx.rank)
            assert stats.internode_messages + stats.intranode_messages == len(counts)
            assert stats.internode_bytes + stats.intranode_bytes == 2 * 8 * sum(counts)
        del arrays


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("strategy", ["shm", "flat_mpi"])
def test_dtypes_and_chunk(ctx, graph, strategy, dtype):
    pattern = make_pattern(ctx, graph, chunk=3, dtype=dtype)
    assert pattern.dtype == hympi.Datatype.__members__[np.dtype(dtype).name] and pattern.chunk == 3
    with hympi.Halo(pattern, hympi.Strategy.__members__[strategy]) as halo:
        check_updates(halo, graph, ctx.rank, 1, 3, dtype)


def test_pattern_lists(ctx, graph):
    pattern = make_pattern(ctx, graph)
    expected = graph.lists(ctx.rank)
    assert pattern.local_points == graph.local_points(ctx.rank) and pattern.context is ctx
    assert len(pattern.neighbors) == len(expected)
    for (rank, send, recv), (rank2, send2, recv2) in zip(pattern.neighbors, expected):
        assert rank == rank2 and send.dtype == np.int32
        np.testing.assert_array_equal(send, np.array(send2, dtype=int))
        np.testing.assert_array_equal(recv, np.array(recv2, dtype=int))
    # numpy id arrays of any integer type, and the lists read back, make the same pattern
    again = hympi.Pattern.from_lists(ctx, pattern.local_points, pattern.neighbors, dtype="float64")
    with hympi.Halo(again, "shm") as halo:
        check_updates(halo, graph, ctx.rank, 1, 1, np.float64)


def test_from_owners(ctx, graph):
    r = ctx.rank
    pattern = hympi.Pattern.from_owners(ctx, graph.global_ids(r), graph.owners(r), chunk=2, dtype=np.int64)
    assert pattern.local_points == graph.local_points(r)
    with hympi.Halo(pattern, "shm") as halo:
        check_updates(halo, graph, r, 1, 2, np.int64)


def test_order_local_ids(ctx, graph):
    r = ctx.rank
    ordering = hympi.order_local_ids(make_pattern(ctx, graph))
    n = graph.local_points(r)
    new_id = ordering.new_id
    assert sorted(new_id) == list(range(n))
    assert ordering.inner + ordering.boundary + ordering.ghosts == n and ordering.ghosts == len(graph.ghosts[r])
    assert all(new_id[p] >= n - ordering.ghosts for p in range(graph.owned[r], n))
    gids = graph.global_ids(r)
    with hympi.Halo(ordering.pattern, "shm") as halo:
        for call in range(2):
            v = np.empty(n)
            v[new_id] = fresh(gids, graph.owned[r], call, 0, 1, np.float64)
            halo.update(v)
            np.testing.assert_array_equal(v[new_id], values(gids, call, 0, 1, np.float64))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_apart(ctx, graph, strategy):
    """Separate send and receive arrays: the owned points are sent from a read-only send
    array; ghost g lands at slot recv_points - 1 - 2 g of a receive array whose other
    slots keep -1."""
    r, chunk, fields = ctx.rank, 2, 2
    owned, ghosts = graph.owned[r], len(graph.ghosts[r])
    recv_points = 2 * ghosts + 1
    slot = {owned + g: recv_points - 1 - 2 * g for g in range(ghosts)}
    lists = [(rank, send, [slot[i] for i in recv]) for rank, send, recv in graph.lists(r)]
    pattern = hympi.Pattern.from_lists_apart(ctx, owned, recv_points, lists, chunk, np.int32)
    assert pattern.apart and pattern.send_points == owned and pattern.recv_points == recv_points
    assert "send_points=" in repr(pattern)
    raises_here(lambda: pattern.local_points, "separate send and receive arrays")
    gids = graph.global_ids(r)
    with hympi.Halo(pattern, strategy, fields=fields) as halo:
        if halo.strategy == hympi.Strategy.shm_direct:
            sends = [halo.shared_field(f) for f in range(fields)]
        else:
            sends = [np.empty(owned * chunk, np.int32) for _ in range(fields)]
        recvs = [np.empty(recv_points * chunk, np.int32) for _ in range(fields)]
        for call in range(4):
            for f in range(fields):
                sends[f][:] = values(gids[:owned], call, f, chunk, np.int32)
                recvs[f][:] = -1
            if halo.strategy != hympi.Strategy.shm_direct:
                for f in range(fields):
                    sends[f].flags.writeable = False  # only read
            if call % 2:
                halo.update(sends, recvs)
            else:
                halo.begin(sends, recvs)
                raises_here(lambda: halo.end(sends, recvs[::-1]), "the same arrays")
                halo.end(sends, recvs)
            for f in range(fields):
                sends[f].flags.writeable = True
            for f in range(fields):
                expected = np.full((recv_points, chunk), -1, np.int32)
                for g in range(ghosts):
                    expected[slot[owned + g]] = values(gids[owned + g:owned + g + 1], call, f, chunk, np.int32)
                np.testing.assert_array_equal(recvs[f], expected.ravel())
        del sends
    if strategy != "shm_direct":  # the one-array form is refused: the Halo then refuses every call
        with hympi.Halo(pattern, strategy, fields=fields) as halo:
            raises_here(lambda: halo.update(recvs), "separate send and receive arrays")
            sends = [np.empty(owned * chunk, np.int32) for _ in range(fields)]
            raises_here(lambda: halo.update(sends, recvs), "could not take part in a ghost update")


@pytest.mark.parametrize("strategy", BUFFER_STRATEGIES)
def test_buffers(ctx, graph, strategy):
    r, fields, chunk = ctx.rank, 2, 2
    pattern = make_pattern(ctx, graph, chunk=chunk, dtype=np.float32)
    gids = graph.global_ids(r)
    with hympi.Halo(pattern, strategy, fields=fields, mode="buffers") as halo:
        for call in range(3):
            halo.acquire()
            raises_here(lambda: halo.send_buffer(len(pattern.neighbors)), "neighbour")
            for n, (_, send, _) in enumerate(pattern.neighbors):
                assert halo.send_buffer(n).flags.writeable
                halo.send_buffer(n)[:] = np.concatenate([values(gids[send], call, f, chunk, np.float32)
                                                         for f in range(fields)])
            halo.begin_buffers()
            halo.end_buffers()
            for n, (_, _, recv) in enumerate(pattern.neighbors):
                assert not halo.recv_buffer(n).flags.writeable and halo.recv_buffer(n).dtype == np.float32
                expected = np.concatenate([values(gids[recv], call, f, chunk, np.float32) for f in range(fields)])
                np.testing.assert_array_equal(halo.recv_buffer(n), expected)


def test_array_errors(ctx, graph):
    """Arrays that fail the checks raise on this rank and refuse the update (here on every
    rank): the Halo then raises on every call, so each case gets a Halo of its own."""
    pattern = make_pattern(ctx, graph)
    n = pattern.local_points
    good, other = np.zeros(n), np.zeros(n)
    readonly = np.zeros(n)
    readonly.flags.writeable = False
    cases = [([good, np.zeros(n, np.float32)], r"vectors\[1\] has dtype float32", TypeError),
             ([good, [0.0] * n], "must be a numpy array", TypeError),
             ([good, np.zeros(n + 1)], f"has {n + 1} elements; expected {n}", hympi.Error),
             ([good, readonly], "read-only", hympi.Error),
             (good, "field", hympi.Error)]  # one array for two fields
    if MPI.COMM_WORLD.allreduce(n, op=MPI.MIN) > 1:  # one element is contiguous with any stride
        cases.append(([good, np.zeros(2 * n)[::2]], "not C-contiguous", hympi.Error))
    for arrays, match, error in cases:
        with hympi.Halo(pattern, "shm", fields=2) as halo:
            raises_here(lambda: halo.update(arrays), match, error)
            raises_here(lambda: halo.update([good, other]), "could not take part in a ghost update")
    with hympi.Halo(pattern, "shm", fields=2) as halo:
        raises_here(lambda: halo.shared_field(), "shm_direct")  # this rank's own mistake: the Halo goes on
        refs = sys.getrefcount(good)
        halo.begin([good, other])
        assert sys.getrefcount(good) == refs + 1  # held until end
        raises_here(lambda: halo.end([other, good]), "the same arrays")  # checked before the call: goes on
        halo.end([good, other])
        assert sys.getrefcount(good) == refs
        halo.update([good, other])  # still in step with the other ranks
    # A call out of order (here on every rank) refuses the update: every later call fails
    # naming the rank (tests/mpi's misuse tests put the mistake on one rank).
    refused = "could not take part in a ghost update"
    mistakes = [(lambda h: h.acquire(), "buffers"),  # buffers-mode call on a vectors Halo
                (lambda h: h.end([good, other]), "begin"),
                (lambda h: (h.begin([good, other]), h.begin([good, other])), "in flight"),
                (lambda h: (h.begin([good, other]), h.update([good, other])), "in flight")]
    for mistake, match in mistakes:
        with hympi.Halo(pattern, "shm", fields=2) as halo:
            raises_here(lambda: mistake(halo), match)
            raises_here(lambda: halo.update([good, other]), refused)


@pytest.mark.parametrize("strategy", ["shm", "flat_mpi", "aggregated", "rma_fence", "rma_pscw"])
def test_array_error_on_one_rank(ctx, strategy):
    """The last rank passes an array of the wrong dtype: TypeError there, hympi.Error naming
    it on every other rank, in that update or a later one (a rank d neighbours away: by its
    d-th), never a wait until the watchdog; every later call raises it."""
    r, size = ctx.rank, ctx.size  # a ring: every rank waits for its neighbours' data
    peers = sorted({(r + 1) % size, (r - 1) % size} - {r})
    pattern = hympi.Pattern.from_lists(ctx, 8, [(p, [0, 1], [4 + 2 * i, 5 + 2 * i]) for i, p in enumerate(peers)])
    n, bad = pattern.local_points, size - 1
    naming = f"hympi: Halo: rank {bad} could not take part in a ghost update"
    with hympi.Halo(pattern, strategy) as halo:
        v = np.zeros(n)
        if ctx.rank == bad:
            halo.update(v)  # a good update first: the refusal meets links in use
            raises_here(lambda: halo.update(np.zeros(n, np.float32)), "has dtype float32", TypeError)
        else:  # a rank of the bad rank's node may stop in the good update already
            for _ in range(ctx.size):
                if error_of(lambda: halo.update(v)) is not None:
                    break
        raises_here(lambda: halo.update(v), naming + r" \(.*has dtype float32")


def test_setup_errors(ctx, graph, comm):
    r = ctx.rank
    raises_here(lambda: hympi.Pattern.from_lists(ctx, 3, [(0, [0])]), r"neighbors\[0\] must be", TypeError)
    raises_here(lambda: hympi.Pattern.from_lists(ctx, 3, [(0, [0.5], [1])]), "must hold integers", TypeError)
    raises_here(lambda: hympi.Pattern.from_lists(ctx, 3, [], dtype=np.uint16), "uint16", TypeError)
    raises_here(lambda: hympi.Pattern.from_owners(ctx, [1, 2], [0]), "2 global_ids but 1 owners")
    pattern = make_pattern(ctx, graph)
    raises_here(lambda: hympi.Halo(pattern, "fastest"), "fastest")
    raises_here(lambda: hympi.Halo(pattern, mode="zero_copy"), "unknown halo mode")
    if comm.size == 1:
        return
    # every rank sees the error of one: rank 1 expects one point more from rank 0
    lists = [(0, [], [0])] if r == 1 else ([(1, [], [])] if r == 0 else [])
    raises_everywhere(lambda: hympi.Pattern.from_lists(ctx, 2, lists), "")
    raises_everywhere(lambda: hympi.Halo(pattern, "shm" if r else "flat_mpi"), "strateg")
    last = comm.size - 1  # a strategy name only it got wrong: the error on every rank, naming it
    raises_everywhere(lambda: hympi.Halo(pattern, "fastest" if r == last else "shm"),
                      f"^hympi: Halo set-up refused on rank {last}: hympi_halo_create_named: hympi: unknown ghost-update strategy 'fastest'")
    raises_everywhere(lambda: hympi.Halo(pattern, "neighbor", mode="buffers"), "buffers")
    raises_everywhere(lambda: hympi.CartesianGrid(ctx, [8, 8, 8], "star5"), "")
    with hympi.Halo(pattern, "shm") as halo:  # the Context still works
        check_updates(halo, graph, r, 1, 1, np.float64, calls=1)
