#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The applications' time split per strategy (and placement): each app is launched several
times per variant (interleaved: shm, flat_mpi, shm, flat_mpi, ...), and the per-iteration
compute, ghost-update and reduction times and the communication share are reported as
medians with their lowest and highest launch. Standard library only.

    bench/scripts/apps_split.py --build build/openmpi --np 2 [--launches 5] [--apps cg,jacobi3d]
        [--strategies shm,flat_mpi,shm_direct,aggregated] [--placements first-touch,shared,rank0]
        [--openmp K] [--json out.json] [-- extra app args]

With several placements a variant is "strategy placement" (Hoefler et al. (2012): where
the arrays live changes the compute time).

--openmp K: the MPI+OpenMP baseline (Hager & Wellein (2010), chapter 11). Nodes of K cores
(emulated with HYMPI_NODE_SIZE when np > K): every strategy runs np ranks, K per node, one
per core; the variant "MPI+OpenMP" runs np/K ranks, one per node, each bound to K cores and
running its loops on K threads (--threads K, OMP_PLACES=cores, OMP_PROC_BIND=close), its
ghost updates by flat_mpi (every neighbour is on another node). With K >= 2 the variant
"MPI+OpenMP task" is the same in task mode (--task-mode, Hager & Wellein (2010), 11.1.2:
thread 0 updates the ghosts while the others compute; the stencil apps, not cg), whose
"compute" is the whole overlapped region. Same problem, same result: the table also gives
each variant's residual and iterations.
"""
import argparse
import json
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"compute ([0-9.]+)\s+ghost update ([0-9.]+)\s+reductions ([0-9.]+)\s+communication share ([0-9.]+) %"
                  r"\s+whole iteration ([0-9.]+)")
DEFAULT_ARGS = {"cg": ["--size", "0.03"], "jacobi3d": ["--iterations", "200"], "jacobi2d": ["--iterations", "200"],
                "laplace19": ["--iterations", "100"]}


TASK = "MPI+OpenMP task"
RESULT = re.compile(r"^iterations (\d+)\nresidual (\S+)", re.M)


def mpiexec_of(build):
    """The tree's launcher and its flavour ("openmpi" or "hydra")."""
    with open(f"{build}/CMakeCache.txt") as f:
        cache = dict(line.strip().split("=", 1) for line in f if "=" in line and not line.startswith(("#", "//")))
    exe = cache["MPIEXEC_EXECUTABLE:FILEPATH"]
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    return exe, "openmpi" if ("OpenRTE" in version or "Open MPI" in version) else "hydra"


def launch(launcher, ranks, cores_per_rank, env):
    """The launch of `ranks` ranks, each bound to `cores_per_rank` cores (None: the
    launcher's default binding), with environment variables `env`."""
    exe, flavour = launcher
    command = [exe]
    if flavour == "openmpi":
        command += ["--oversubscribe"]
        if cores_per_rank:
            command += ["--map-by", f"slot:PE={cores_per_rank}", "--bind-to", "core"]
        for key, value in env.items():
            command += ["-x", f"{key}={value}"]
    else:
        if cores_per_rank:
            command += ["-bind-to", f"core:{cores_per_rank}"]
        for key, value in env.items():
            command += ["-genv", key, value]
    return command + ["-n", str(ranks)]


def run(command):
    out = subprocess.run(command, capture_output=True, text=True)
    m, r = LINE.search(out.stdout), RESULT.search(out.stdout)
    if out.returncode != 0 or not m or not r:
        sys.exit(f"apps_split: {' '.join(command)} failed:\n{out.stdout}\n{out.stderr}")
    times = dict(zip(("compute_us", "ghost_us", "reduce_us", "share_percent", "iteration_us"), map(float, m.groups())))
    return times | {"iterations": int(r.group(1)), "residual": float(r.group(2))}


def variants_of(args):
    """name -> (ranks, cores per rank, environment, app arguments)."""
    placements = args.placements.split(",")
    variants = {}
    k = args.openmp
    nodes = {"HYMPI_NODE_SIZE": str(k)} if k and args.np > k else {}
    for s in args.strategies.split(","):
        for p in placements:
            name = f"{s} {p}" if len(placements) > 1 else s
            variants[name] = (args.np, 1 if k else None, nodes, ["--strategy", s, "--placement", p])
    if k:
        if args.np % k:
            sys.exit(f"apps_split: --np {args.np} is not a multiple of --openmp {k}")
        env = {"OMP_PLACES": "cores", "OMP_PROC_BIND": "close"} | ({"HYMPI_NODE_SIZE": "1"} if args.np > k else {})
        variants["MPI+OpenMP"] = (args.np // k, k, env, ["--strategy", "flat_mpi", "--threads", str(k)])
        if k >= 2:  # task mode: thread 0 updates the ghosts while the others compute (stencil apps)
            variants[TASK] = (args.np // k, k, env, ["--strategy", "flat_mpi", "--threads", str(k), "--task-mode"])
    return variants


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build/openmpi")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--launches", type=int, default=5)
    ap.add_argument("--apps", default="cg,jacobi3d")
    ap.add_argument("--strategies", default="shm,flat_mpi,shm_direct,aggregated")
    ap.add_argument("--placements", default="first-touch", help="--placement values of the apps")
    ap.add_argument("--openmp", type=int, default=0, metavar="K",
                    help="nodes of K cores, and the MPI+OpenMP variant: one rank per node, K threads")
    ap.add_argument("--json")
    ap.add_argument("extra", nargs="*", help="arguments for every app, after --")
    args = ap.parse_args()
    launcher = mpiexec_of(args.build)
    variants = variants_of(args)
    results = {}
    for app in args.apps.split(","):
        mine = {v: spec for v, spec in variants.items() if not (v == TASK and app == "cg")}  # cg: vector mode only
        samples = {v: [] for v in mine}
        for _ in range(args.launches):
            for v, (ranks, cores, env, app_args) in mine.items():
                command = launch(launcher, ranks, cores, env) + [f"{args.build}/apps/{app}"] + app_args
                samples[v].append(run(command + DEFAULT_ARGS.get(app, []) + args.extra))
        results[app] = samples
    layout = f", nodes of {args.openmp} cores" if args.openmp else ""
    print(f"np {args.np}{layout}, {args.launches} launches per variant; per iteration, median (lowest-highest launch)\n")
    print("| app | variant | compute (µs) | ghost update (µs) | reductions (µs) | whole iteration (µs) | communication share (%) "
          "| iterations, residual |")
    print("|---|---|---|---|---|---|---|---|")
    for app, samples in results.items():
        for v, runs in samples.items():
            cells = []
            for key in ("compute_us", "ghost_us", "reduce_us", "iteration_us", "share_percent"):
                values = [r[key] for r in runs]
                cells.append(f"{statistics.median(values):.1f} ({min(values):.1f}-{max(values):.1f})")
            outcome = sorted({(r["iterations"], r["residual"]) for r in runs})
            cells.append(", ".join(f"{i}, {res:.6e}" for i, res in outcome))
            print(f"| {app} | {v} | " + " | ".join(cells) + " |")
    print()
    for app, samples in results.items():
        for a, b, key in (("shm", "flat_mpi", "share_percent"), ("shm", "MPI+OpenMP", "iteration_us"),
                          (TASK, "MPI+OpenMP", "iteration_us"), ("shm", TASK, "iteration_us")):
            if a in samples and b in samples:
                ratios = sorted(x[key] / y[key] for x, y in zip(samples[a], samples[b]))
                what = "communication share" if key == "share_percent" else "whole iteration"
                print(f"{app}: {what} {a} / {b}, per launch pair: median {statistics.median(ratios):.2f} "
                      f"({ratios[0]:.2f}-{ratios[-1]:.2f})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"np": args.np, "openmp": args.openmp, "launches": args.launches, "results": results}, f,
                      indent=1)


if __name__ == "__main__":
    main()
