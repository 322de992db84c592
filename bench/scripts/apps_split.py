#!/usr/bin/env python3
"""The applications' time split per strategy (and placement): each app is launched several
times per variant (interleaved: shm, flat_mpi, shm, flat_mpi, ...), and the per-iteration
compute, ghost-update and reduction times and the communication share are reported as
medians with their lowest and highest launch. Standard library only.

    bench/scripts/apps_split.py --build build/openmpi --np 2 [--launches 5] [--apps cg,jacobi3d]
        [--strategies shm,flat_mpi,shm_direct,aggregated] [--placements first-touch,shared,rank0]
        [--json out.json] [-- extra app args]

With several placements a variant is "strategy placement" (Hoefler et al. (2012): where
the arrays live changes the compute time).
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"compute ([0-9.]+)\s+ghost update ([0-9.]+)\s+reductions ([0-9.]+)\s+communication share ([0-9.]+) %")
DEFAULT_ARGS = {"cg": ["--size", "0.03"], "jacobi3d": ["--iterations", "200"], "jacobi2d": ["--iterations", "200"],
                "laplace19": ["--iterations", "100"]}


def mpiexec_of(build):
    with open(f"{build}/CMakeCache.txt") as f:
        cache = dict(line.strip().split("=", 1) for line in f if "=" in line and not line.startswith(("#", "//")))
    exe = cache["MPIEXEC_EXECUTABLE:FILEPATH"]
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    extra = ["--oversubscribe"] if ("OpenRTE" in version or "Open MPI" in version) else []
    return [exe] + extra


def run(command):
    out = subprocess.run(command, capture_output=True, text=True)
    m = LINE.search(out.stdout)
    if out.returncode != 0 or not m:
        sys.exit(f"apps_split: {' '.join(command)} failed:\n{out.stdout}\n{out.stderr}")
    return dict(zip(("compute_us", "ghost_us", "reduce_us", "share_percent"), map(float, m.groups())))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build/openmpi")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--launches", type=int, default=5)
    ap.add_argument("--apps", default="cg,jacobi3d")
    ap.add_argument("--strategies", default="shm,flat_mpi,shm_direct,aggregated")
    ap.add_argument("--placements", default="first-touch", help="--placement values of the apps")
    ap.add_argument("--json")
    ap.add_argument("extra", nargs="*", help="arguments for every app, after --")
    args = ap.parse_args()
    launcher = mpiexec_of(args.build)
    results = {}
    placements = args.placements.split(",")
    variants = {(f"{s} {p}" if len(placements) > 1 else s): (s, p)
                for s in args.strategies.split(",") for p in placements}
    for app in args.apps.split(","):
        samples = {v: [] for v in variants}
        for _ in range(args.launches):
            for v, (s, p) in variants.items():
                command = launcher + ["-n", str(args.np), f"{args.build}/apps/{app}", "--strategy", s,
                                      "--placement", p] + DEFAULT_ARGS.get(app, []) + args.extra
                samples[v].append(run(command))
        results[app] = samples
    print(f"np {args.np}, {args.launches} launches per variant; per iteration, median (lowest-highest launch)\n")
    print("| app | strategy | compute (µs) | ghost update (µs) | reductions (µs) | communication share (%) |")
    print("|---|---|---|---|---|---|")
    for app, samples in results.items():
        for s, runs in samples.items():
            cells = []
            for key in ("compute_us", "ghost_us", "reduce_us", "share_percent"):
                values = [r[key] for r in runs]
                cells.append(f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})")
            print(f"| {app} | {s} | " + " | ".join(cells) + " |")
    print()
    for app, samples in results.items():
        if "shm" in samples and "flat_mpi" in samples:
            ratios = sorted(a["share_percent"] / b["share_percent"] for a, b in zip(samples["shm"], samples["flat_mpi"]))
            print(f"{app}: communication share shm / flat_mpi, per launch pair: median {statistics.median(ratios):.2f} "
                  f"({ratios[0]:.2f}-{ratios[-1]:.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"np": args.np, "launches": args.launches, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
