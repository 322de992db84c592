# SPDX-License-Identifier: BSD-3-Clause
"""hympi for Python: hybrid MPI+MPI communication for mesh codes (shared memory inside a
node, MPI between nodes), on numpy arrays and mpi4py communicators.

    import numpy as np
    import hympi

    with hympi.Context() as ctx:                    # MPI.COMM_WORLD; collective
        total = ctx.allreduce(1.0, "sum")           # a float; arrays: a new array or out=
        pattern = hympi.Pattern.from_lists(ctx, local_points,
                                           [(rank, send_ids, recv_ids), ...])
        with hympi.Halo(pattern, "shm") as halo:
            u = np.zeros(local_points)
            halo.update(u)                          # u's ghosts now hold their owners' values
        table = hympi.NodeShared(ctx, n, np.float64)  # one read-only array per node
        with table.write("slices") as (part, first):
            part[:] = np.arange(first, first + len(part))
        new_rank = hympi.map_ranks(pattern)         # with METIS: ranks mapped by traffic

Every call that communicates is collective and checked: a mismatch between ranks raises
hympi.Error on every rank with the same message. Arrays are used in place (zero copy):
they must have the pattern's dtype, be C-contiguous and writable (hympi.Error or
TypeError otherwise). hympi and mpi4py must use the same MPI library (checked when a
Context is made). docs/usage.md, section Python, says more.
"""

try:
    from ._hympi import (
        BarrierAlgorithm,
        Block,
        CartesianGrid,
        Context,
        Datatype,
        Error,
        Halo,
        HaloMode,
        HaloStats,
        LocalOrdering,
        MemoryOrders,
        NodeShared,
        NodeSharedWrite,
        Op,
        Options,
        Pattern,
        Stencil,
        Strategy,
        Topology,
        TreeShape,
        WaitPolicy,
        Writers,
        configuration,
        default_message_handler,
        mpi_library_version,
        order_local_ids,
        set_message_handler,
        version,
    )
except ImportError as error:  # a hympi built for another MPI than this process has
    from ._abi import load_error

    explained = load_error(error)
    if explained is None:
        raise
    raise explained from error

try:  # built with METIS (hympi_mapping)
    from ._hympi import map_ranks, map_ranks_traffic, reordered_comm
except ImportError:
    pass

__version__ = "{}.{}.{}".format(*version())

__all__ = [
    "BarrierAlgorithm", "Block", "CartesianGrid", "Context", "Datatype", "Error", "Halo", "HaloMode",
    "HaloStats", "LocalOrdering", "MemoryOrders", "NodeShared", "NodeSharedWrite", "Op", "Options", "Pattern",
    "Stencil", "Strategy", "Topology", "TreeShape", "WaitPolicy", "Writers", "configuration",
    "default_message_handler", "mpi_library_version", "order_local_ids", "set_message_handler", "version",
] + [name for name in ("map_ranks", "map_ranks_traffic", "reordered_comm") if name in globals()]
