#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Does hympi-bench time the MPI library's own operations as OSU does? Launches, in turn,
hympi-osu-probe (plain MPI, OSU's method) and hympi-bench (the method of Quaranta &
Maddegedara (2021)) several times, and compares per operation the median over launches of
the probe's average latency with that of hympi-bench's median: MPI_Barrier, MPI_Allreduce
8 B - 1 MiB, and the bare ring exchange (Irecv/Isend/Waitall, hympi-bench's `bare_mpi`
floor) at 4-256 KiB; hympi-bench with --cached-data (OSU's probe reuses unchanged buffers:
hympi-bench's default, fresh data written and read around every call, times that work too).
Standard library only.

    bench/scripts/osu_check.py --build build/openmpi [--np 2] [--launches 3] [--outer 30] [--tolerance 0.2]

Prints a Markdown table; exits 1 when an operation differs by more than the tolerance.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

EXCHANGE_SIZES = (4096, 65536, 262144)


def launcher(build, np, bind=True):
    """The tree's mpiexec for np ranks, bound to cores; bind=False: unbound, and oversubscribing
    where it must (Open MPI refuses more ranks than cores)."""
    with open(os.path.join(build, "CMakeCache.txt")) as f:
        cache = dict(line.strip().split("=", 1) for line in f if "=" in line and not line.startswith(("#", "//")))
    exe = cache["MPIEXEC_EXECUTABLE:FILEPATH"]
    version = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
    openmpi = "OpenRTE" in version or "Open MPI" in version
    if not bind:
        return [exe] + (["--oversubscribe"] if openmpi else []) + ["-n", str(np)]
    pin = ["--bind-to", "core"] if openmpi else ["-bind-to", "core"]
    return [exe, "-n", str(np)] + pin


def run(command):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    out = subprocess.run(command, capture_output=True, text=True, env=env)
    if out.returncode != 0:
        sys.exit(f"osu_check: {' '.join(command)} failed:\n{out.stdout}\n{out.stderr}")
    return out.stdout


def probe_rows(text):
    """{(test, bytes): average latency in µs} from a probe's output."""
    rows = {}
    for line in text.splitlines():
        fields = line.split()
        if line.startswith("#") or len(fields) != 6:
            continue
        rows[(fields[0], int(fields[1]))] = float(fields[2])
    return rows


def probe(mpiexec, build, extra=(), program=None):
    """probe_rows of one probe launch (program: another command in the probe's output format)."""
    return probe_rows(run(mpiexec + (program or [os.path.join(build, "bench", "hympi-osu-probe")]) + list(extra)))


def bench(mpiexec, build, outer):
    """The same keys from hympi-bench's medians (barrier; allreduce and halo on cached data, as
    the probe's: three launches)."""
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for sub, extra in (("barrier", []), ("allreduce", ["--cached-data"]), ("halo", ["--cached-data"])):
            path = os.path.join(tmp, sub + ".json")
            run(mpiexec + [os.path.join(build, "bench", "hympi-bench"), sub, "--outer", str(outer), "--json", path]
                + extra)
            with open(path) as f:
                for rec in json.load(f)["benchmarks"]:
                    for r in rec.get("results", []):
                        name = r.get("implementation")
                        if rec["benchmark"] == "barrier" and name == "MPI_Barrier":
                            rows[("barrier", 0)] = r["median_us"]
                        elif rec["benchmark"] == "allreduce" and name == "MPI_Allreduce":
                            rows[("allreduce", rec["bytes"])] = r["median_us"]
                        elif rec["benchmark"] == "halo-contiguous" and name == "bare_mpi" \
                                and rec["bytes"] in EXCHANGE_SIZES:
                            rows[("exchange", rec["bytes"])] = r["median_us"]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build/openmpi")
    ap.add_argument("--np", type=int, default=2)
    ap.add_argument("--launches", type=int, default=3)
    ap.add_argument("--outer", type=int, default=30, help="hympi-bench samples per contender")
    ap.add_argument("--tolerance", type=float, default=0.2)
    args = ap.parse_args()
    mpiexec = launcher(args.build, args.np)
    probes, benches = [], []
    for k in range(args.launches):  # interleaved: probe, bench, probe, bench, ...
        print(f"osu_check: launch {k + 1}/{args.launches}", file=sys.stderr)
        probes.append(probe(mpiexec, args.build))
        benches.append(bench(mpiexec, args.build, args.outer))
    print(f"{' '.join(mpiexec)}, {args.launches} launches of each; µs, median over launches (lowest-highest)\n")
    print("| operation | bytes | OSU-style probe (avg) | hympi-bench (median) | hympi-bench / probe |")
    print("|---|---|---|---|---|")
    worst = 0.0
    for key in sorted(probes[0], key=lambda k: (k[0] != "barrier", k[0], k[1])):
        p = [run_[key] for run_ in probes if key in run_]
        b = [run_[key] for run_ in benches if key in run_]
        if not b:
            continue
        ratio = statistics.median(b) / statistics.median(p)
        worst = max(worst, abs(ratio - 1))
        print(f"| {key[0]} | {key[1]} | {statistics.median(p):.3f} ({min(p):.3f}-{max(p):.3f}) | "
              f"{statistics.median(b):.3f} ({min(b):.3f}-{max(b):.3f}) | {ratio:.2f} |")
    verdict = "within" if worst <= args.tolerance else "NOT within"
    print(f"\nlargest difference {100 * worst:.0f} %: {verdict} {100 * args.tolerance:.0f} %")
    return 0 if worst <= args.tolerance else 1


if __name__ == "__main__":
    sys.exit(main())
