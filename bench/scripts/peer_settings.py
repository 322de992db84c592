#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Each MPI at its best: launches hympi-bench barrier and allreduce (hympi beside the MPI
library's own operation, in one launch) under each of that MPI's own collective settings
(the table below), several launches each, interleaved, and prints per operation and size
the MPI's median time under every setting, the fastest setting, and hympi's ratio to the
MPI under that fastest setting (median over launches of each launch's median ratio, lowest
and highest launch). Standard library only.

    bench/scripts/peer_settings.py --build build/openmpi5 [--launches 3] [--outer 30] [--out DIR]

The tree's name (the build folder's last part) picks its settings: openmpi, openmpi5,
mpich, mpich5. JSON files of every launch go to DIR (default bench-results/peers/<tree>).
"""
import argparse
import json
import os
import statistics
import sys

from osu_check import launcher, run

RELEASE_GATHER = {f"MPIR_CVAR_{op}_POSIX_INTRA_ALGORITHM": "release_gather"
                  for op in ("BARRIER", "ALLREDUCE", "BCAST", "REDUCE")}
# The settings each MPI documents for its intranode collectives, as environment variables
# (both launchers pass their environment to the ranks they start on this machine).
# "default": the installation as it comes.
SETTINGS = {
    "openmpi": {  # Open MPI 4.1: coll/tuned (point-to-point algorithms over btl/vader) by default
        "default": {},
        "coll sm": {"OMPI_MCA_coll_sm_priority": "100"},  # one shared segment per communicator
        "coll han": {"OMPI_MCA_coll_han_priority": "100"},  # hierarchical, tuned inside the node
    },
    "openmpi5": {  # Open MPI 5.0: coll/han above coll/tuned by default; btl/sm with smsc/cma single copy
        "default": {},
        "coll tuned": {"OMPI_MCA_coll": "^han"},
        "coll sm": {"OMPI_MCA_coll_sm_priority": "100"},
        "no single copy": {"OMPI_MCA_smsc": "^cma"},
    },
    "mpich": {  # MPICH 4.0 and 5.0: CH4's POSIX shared-memory collectives, default or release_gather
        "default": {},
        "release_gather": RELEASE_GATHER,
    },
}
SETTINGS["mpich5"] = SETTINGS["mpich"]
MPI_OPERATION = {"barrier": "MPI_Barrier", "allreduce": "MPI_Allreduce"}


def launch(mpiexec, build, bench, outer, setting, path):
    """One hympi-bench launch under one setting: {bytes: (hympi median, MPI median, ratio)}."""
    saved = dict(os.environ)
    os.environ.update(setting)
    try:
        run(mpiexec + [os.path.join(build, "bench", "hympi-bench"), bench, "--outer", str(outer), "--json", path])
    finally:
        os.environ.clear()
        os.environ.update(saved)
    rows = {}
    with open(path) as f:
        for record in json.load(f)["benchmarks"]:
            results = {r["implementation"]: r for r in record.get("results", []) if r.get("valid")}
            hympi, mpi = results.get("hympi"), results.get(MPI_OPERATION[bench])
            if hympi and mpi:
                rows[record["bytes"]] = (hympi["median_us"], mpi["median_us"],
                                         hympi["ratio_to_" + MPI_OPERATION[bench]]["median"])
    return rows


def spread(values, digits):
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}-{max(values):.{digits}f})"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", required=True)
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--launches", type=int, default=3)
    ap.add_argument("--outer", type=int, default=30, help="hympi-bench samples per contender")
    ap.add_argument("--out")
    args = ap.parse_args()
    tree = os.path.basename(os.path.normpath(args.build))
    if tree not in SETTINGS:
        sys.exit(f"peer_settings: no settings for tree '{tree}' (one of {', '.join(SETTINGS)})")
    out = args.out or os.path.join("bench-results", "peers", tree)
    os.makedirs(out, exist_ok=True)
    mpiexec = launcher(args.build, args.np)
    settings = SETTINGS[tree]
    found = {}  # (bench, bytes, setting) -> [(hympi, mpi, ratio) per launch]
    for k in range(args.launches):  # interleaved: every setting once per round
        for name, setting in settings.items():
            for bench in MPI_OPERATION:
                print(f"peer_settings: {tree} round {k + 1}/{args.launches}, {name}, {bench}", file=sys.stderr)
                path = os.path.join(out, f"{name.replace(' ', '_')}.{bench}.{k + 1}.json")
                for size, row in launch(mpiexec, args.build, bench, args.outer, setting, path).items():
                    found.setdefault((bench, size, name), []).append(row)
    print(f"{tree}: {' '.join(mpiexec)} hympi-bench barrier|allreduce --outer {args.outer}, {args.launches} "
          f"launches per setting, interleaved. MPI's median µs per setting (median over launches); "
          f"hympi / MPI under the MPI's fastest setting: median (lowest-highest launch).\n")
    for name, setting in settings.items():
        print(f"- {name}: {' '.join(f'{k}={v}' for k, v in setting.items()) or 'nothing set'}")
    print("\n| operation | bytes | " + " | ".join(f"MPI, {n}" for n in settings) +
          " | fastest | hympi µs | hympi / fastest MPI |")
    print("|---|---|" + "---|" * len(settings) + "---|---|---|")
    for bench in MPI_OPERATION:
        for size in sorted({s for (b, s, _) in found if b == bench}):
            mpi = {n: statistics.median(r[1] for r in found[(bench, size, n)]) for n in settings
                   if (bench, size, n) in found}
            best = min(mpi, key=mpi.get)
            rows = found[(bench, size, best)]
            cells = " | ".join(f"{mpi[n]:.3f}" if n in mpi else "-" for n in settings)
            print(f"| {bench} | {size} | {cells} | {best} | {spread([r[0] for r in rows], 3)} | "
                  f"**{spread([r[2] for r in rows], 2)}** |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
