# SPDX-License-Identifier: BSD-3-Clause
"""A petsc4py program that knows nothing of hympi, run with PETSC_OPTIONS naming the plugin
(-dll_append <libhympi_petsc_plugin.so> -sf_type hympi): a ghosted vector whose owned
values change before every forward update (INSERT_VALUES: through hympi) and whose ghost
copies are then added back to their owners (ADD_VALUES reverse: on PetscSF's basic type),
each result checked against what it must be. Then the test reads this process's counts
from the plugin (HympiPetscGetCounts through ctypes, on the path in HYMPI_TEST_PLUGIN) to
show that hympi moved every forward update. Needs 2 ranks or more. Prints
"petsc4py-ghost: ok" on every rank and exits 0 only when every check passed."""
import ctypes
import os
import sys

import petsc4py

petsc4py.init(sys.argv)
from petsc4py import PETSc  # noqa: E402

UPDATES = 20
comm = PETSc.COMM_WORLD
rank, size = comm.getRank(), comm.getSize()
starts = [sum(5 + q for q in range(r)) for r in range(size + 1)]  # rank r owns 5 + r points
n = starts[rank + 1] - starts[rank]


def ghosts_of(r):
    """Every other rank's first and last point, and the middle of the next rank's."""
    gs = [g for q in range(size) if q != r for g in (starts[q], starts[q + 1] - 1)]
    return gs + [starts[(r + 1) % size] + 2]


def value(global_index, update):
    return 1000.0 * update + global_index


ghosts = ghosts_of(rank)
v = PETSc.Vec().createGhost(ghosts, (n, None), comm=comm)
for update in range(UPDATES):
    with v.localForm() as local:
        a = local.getArray()
        a[:n] = [value(starts[rank] + i, update) for i in range(n)]
        a[n:] = -1.0
    v.ghostUpdate(PETSc.InsertMode.INSERT_VALUES, PETSc.ScatterMode.FORWARD)
    with v.localForm() as local:
        got = list(local.getArray()[n:])
    want = [value(g, update) for g in ghosts]
    if got != want:
        sys.exit(f"petsc4py-ghost: rank {rank}, update {update}: ghosts {got}, expected {want}")

with v.localForm() as local:
    a = local.getArray()
    a[:n] = 0.0
    a[n:] = 1.0
v.ghostUpdate(PETSc.InsertMode.ADD_VALUES, PETSc.ScatterMode.REVERSE)
every_ghost = [g for r in range(size) for g in ghosts_of(r)]
want = [float(every_ghost.count(starts[rank] + i)) for i in range(n)]
if list(v.getArray()) != want:
    sys.exit(f"petsc4py-ghost: rank {rank}: reverse ADD_VALUES gave {list(v.getArray())}, expected {want}")


class Counts(ctypes.Structure):
    _fields_ = [("bcasts_hympi", ctypes.c_int64), ("bcasts_basic", ctypes.c_int64),
                ("reduces_basic", ctypes.c_int64), ("fetch_and_ops_basic", ctypes.c_int64),
                ("contexts", ctypes.c_int64)]


plugin = ctypes.CDLL(os.environ["HYMPI_TEST_PLUGIN"])  # already loaded by PETSc: the same module
counts = Counts()
if plugin.HympiPetscGetCounts(ctypes.byref(counts)) != 0:
    sys.exit(f"petsc4py-ghost: rank {rank}: HympiPetscGetCounts failed")
if counts.bcasts_hympi < UPDATES or counts.reduces_basic < 1:
    sys.exit(f"petsc4py-ghost: rank {rank}: {counts.bcasts_hympi} broadcasts through hympi (expected >= {UPDATES}), "
             f"{counts.reduces_basic} reductions on basic (expected >= 1): is -sf_type hympi set?")
v.destroy()
print(f"petsc4py-ghost: ok on rank {rank}: {counts.bcasts_hympi} updates through hympi, "
      f"{counts.reduces_basic} reductions on basic")
