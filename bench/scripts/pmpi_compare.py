#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""An unmodified MPI program with and without libhympi_pmpi: launches hympi-osu-probe (plain
MPI, OSU's method: MPI_Barrier, MPI_Allreduce, MPI_Bcast, MPI_Reduce of doubles, 8 B - 1 MiB,
MPI_Neighbor_alltoallv on a ring, 8 B - 256 KiB per neighbour, and on a 3-D grid's 27-point
stencil, 8 B - 64 KiB per neighbour; unchanged buffers) in turn
without the library, with it, and with it but HYMPI_PMPI=none (every call falls through: the
library's own overhead), and prints per operation and size the median over launches of each
(lowest-highest) and the ratios to MPI alone. The library runs with HYMPI_PMPI=all (the
neighbourhood calls too) and the settings of pmpi_served.env beside this script (a Context
from the first call, every size through hympi, to find the bounds) unless set. With --from it launches nothing and tabulates the probe outputs that
bench/scripts/node_sweep.sh wrote with SWEEP_PMPI or bench/cluster/run.sh's pmpi step
(probe-npN-{mpi,pmpi,none}-K.txt). With --against OTHER.so the third launch of each round preloads
that library (an earlier build) instead of HYMPI_PMPI=none, with the same settings, and a last
column divides the two: what a change to the library costs, launch by launch beside it.
Standard library only.

    bench/scripts/pmpi_compare.py --build build/openmpi [--np 2] [--launches 5] [--iterations 10000]
    bench/scripts/pmpi_compare.py --build build/openmpi --python build/python-openmpi/bin/python
    bench/scripts/pmpi_compare.py --build build/openmpi --against old/src/pmpi/libhympi_pmpi.so
    bench/scripts/pmpi_compare.py --from SWEEP_DIR --np 16
    bench/scripts/pmpi_compare.py --from bench-results/cluster/4n36 --np 144
"""
import argparse
import glob
import os
import statistics
import sys

from osu_check import launcher, probe, probe_rows


def saved(directory, np):
    """The saved launches: (plain, preloaded, none, the launch's description)."""
    runs = {}
    for variant in ("mpi", "pmpi", "none"):
        paths = sorted(glob.glob(os.path.join(directory, f"probe-np{np}-{variant}-*.txt")))
        if not paths:
            sys.exit(f"pmpi_compare: no {directory}/probe-np{np}-{variant}-*.txt (node_sweep.sh with SWEEP_PMPI, "
                     "or bench/cluster/run.sh's pmpi step)")
        runs[variant] = []
        for path in paths:
            with open(path) as f:
                rows = probe_rows(f.read())
            if not rows:
                sys.exit(f"pmpi_compare: {path} holds no probe rows (a launch that failed: see it)")
            runs[variant].append(rows)
    return runs["mpi"], runs["pmpi"], runs["none"], f"{directory}, {np} ranks"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--build", help="a hympi build tree (with bench/ and src/pmpi/)")
    source.add_argument("--from", dest="directory", help="tabulate a node_sweep.sh directory instead")
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--iterations", type=int, default=0, help="calls per size (0: OSU's defaults)")
    parser.add_argument("--against", help="another libhympi_pmpi.so, launched in place of HYMPI_PMPI=none")
    parser.add_argument("--python", help="time bench/bindings/osu_probe.py (mpi4py) under this interpreter "
                        "instead of hympi-osu-probe, at MPI4PY_RC_THREAD_LEVEL=funneled unless set")
    args = parser.parse_args()
    if args.directory:
        plain, preloaded, none, how = saved(args.directory, args.np)
        what = "hympi-osu-probe"
    else:
        plain, preloaded, none, how, what = measure(args)
    print(f"{how} [env LD_PRELOAD=libhympi_pmpi.so] {what}, {len(plain)} launches of "
          f"each, interleaved; µs, median over launches (lowest-highest); unchanged buffers (OSU's method)\n")
    against = args.against
    third = f"MPI + {against}" if against else "HYMPI_PMPI=none"
    print(f"| operation | bytes | MPI | MPI + libhympi_pmpi | ratio | {third} | ratio |"
          + (" libhympi_pmpi / other |" if against else ""))
    print("|---|---|---|---|---|---|---|" + ("---|" if against else ""))
    for key in sorted(plain[0], key=lambda k: (k[0] != "barrier", k[0], k[1])):
        if key[0] == "exchange":
            continue  # not intercepted
        if not all(key in r for r in plain + preloaded + none):
            continue  # a launch cut short (a sweep's time limit)
        a = [r[key] for r in plain]
        cells = [f"{statistics.median(a):.3f} ({min(a):.3f}-{max(a):.3f})"]
        for runs in (preloaded, none):
            b = [r[key] for r in runs]
            cells += [f"{statistics.median(b):.3f} ({min(b):.3f}-{max(b):.3f})",
                      f"{statistics.median(b) / statistics.median(a):.2f}"]
        if against:
            cells.append(f"{statistics.median(r[key] for r in preloaded) / statistics.median(r[key] for r in none):.2f}")
        print(f"| {key[0]} | {key[1]} | " + " | ".join(cells) + " |")
    return 0


def measure(args):
    """Launches the probe alone, preloaded and preloaded with HYMPI_PMPI=none, interleaved."""
    library = os.path.abspath(os.path.join(args.build, "src", "pmpi", "libhympi_pmpi.so"))
    if not os.path.exists(library):
        sys.exit(f"pmpi_compare: no {library} (build the target hympi_pmpi)")
    mpiexec = launcher(args.build, args.np)
    extra = ["--iterations", str(args.iterations)] if args.iterations else []
    plain, preloaded, none = [], [], []
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "pmpi_served.env")) as served:
        for line in served:
            if line.strip() and not line.lstrip().startswith("#"):
                if "=" not in line:
                    sys.exit(f"pmpi_compare: pmpi_served.env: '{line.strip()}' is not KEY=VALUE")
                os.environ.setdefault(*line.strip().split("=", 1))
    os.environ.setdefault("HYMPI_PMPI", "all")  # the neighbourhood calls too
    preload = ["env", f"LD_PRELOAD={library}"]
    program = None
    if args.python:  # mpi4py at MPI_THREAD_MULTIPLE, its default, would leave every call to MPI
        os.environ.setdefault("MPI4PY_RC_THREAD_LEVEL", "funneled")
        here = os.path.dirname(os.path.abspath(__file__))
        program = [args.python, os.path.join(here, "..", "bindings", "osu_probe.py")]
    if args.against and not os.path.exists(args.against):
        sys.exit(f"pmpi_compare: no {args.against}")
    for k in range(args.launches):  # interleaved: plain, preloaded, none (or the other), plain, ...
        print(f"pmpi_compare: launch {k + 1}/{args.launches}", file=sys.stderr)
        plain.append(probe(mpiexec, args.build, extra, program))
        preloaded.append(probe(mpiexec + preload, args.build, extra, program))
        third = ["env", f"LD_PRELOAD={os.path.abspath(args.against)}"] if args.against else preload + ["HYMPI_PMPI=none"]
        none.append(probe(mpiexec + third, args.build, extra, program))
    what = "osu_probe.py (mpi4py)" if args.python else "hympi-osu-probe"
    return plain, preloaded, none, " ".join(mpiexec), what


if __name__ == "__main__":
    sys.exit(main())
