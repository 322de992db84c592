#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/suites/petsc/run.py's verdicts, requirements and loops on planted cases: a run
that prints what a plain run printed is "same"; a floating-point number off in its last
printed digit is "close", an integer off by one or a number far off is "DIFF"; a rerun of
plain that prints the mode's output makes it "same"; plain runs that differ among
themselves beyond that make it "varies"; a KNOWN difference of mode sf is "known", of
another mode "DIFF"; requirements this PETSc lacks leave a test out; {{a b}} loops expand.
Exits non-zero on any mismatch."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "suites", "petsc"))
import run  # noqa: E402

failures = []


def expect(what, got, want):
    if got != want:
        failures.append(f"{what}: got {got!r}, want {want!r}")


def verdict(mode, outcome, plains, reruns=(), label="x/ex1_1"):
    queue = list(reruns)
    return run.verdict(mode, label, outcome, list(plains), lambda: queue.pop(0) if queue else plains[0])


norm = " 20 KSP Residual norm 6.0726e-05\n"
expect("same output", verdict("served", (0, norm), [(0, norm)]), "same")
expect("last digit, served", verdict("served", (0, " 20 KSP Residual norm 6.07259e-05\n"), [(0, norm)]), "close")
expect("last digit, sf", verdict("sf", (0, " 20 KSP Residual norm 6.07259e-05\n"), [(0, norm)]), "close")
expect("far off, plain varies",
       verdict("sf", (0, " 20 KSP Residual norm 6.1726e-05\n"), [(0, norm)], [(0, " 20 KSP Residual norm 6.2726e-05\n")]),
       "varies")
expect("iteration count", verdict("served", (0, " 21 KSP Residual norm 6.0726e-05\n"), [(0, norm)]), "DIFF")
expect("far off", verdict("served", (0, " 20 KSP Residual norm 6.1726e-05\n"), [(0, norm)]), "DIFF")
expect("other exit", verdict("served", (1, norm), [(0, norm)]), "DIFF")
expect("time", verdict("served", ("TIME", ""), [(0, norm)]), "TIME")
expect("a rerun prints it", verdict("sf", (0, "b\n"), [(0, "a\n")], [(0, "b\n")]), "same")
known = next(iter(run.KNOWN))
expect("known, sf", verdict("sf", (0, "b\n"), [(0, "a\n")], label=known), "known")
expect("known, served", verdict("served", (0, "b\n"), [(0, "a\n")], label=known), "DIFF")
expect("view of type hympi", run.normalize("sf", "  type: hympi\n  hympi strategy shm, after 0 ...\nscatter type hympi\n"),
       "  type: basic\nscatter type basic\n")

macros = {"PETSC_USE_REAL_DOUBLE", "PETSC_HAVE_MPI_ONE_SIDED"}
expect("met", run.meets("double defined(PETSC_HAVE_MPI_ONE_SIDED) !complex", macros), True)
expect("a package not here", run.meets("hdf5", macros), False)
expect("negated, present", run.meets("!defined(PETSC_HAVE_MPI_ONE_SIDED)", macros), False)
expect("data files", run.meets("datafilespath", macros), False)
expect("loops", list(run.expand("-a {{1 2}} -b {{x y}separate output}")),
       ["-a 1 -b x", "-a 1 -b y", "-a 2 -b x", "-a 2 -b y"])
expect("no loop", list(run.expand("")), [""])

for f in failures:
    print("test_petsc_suite:", f)
print(f"test_petsc_suite: {len(failures)} failures")
sys.exit(1 if failures else 0)
