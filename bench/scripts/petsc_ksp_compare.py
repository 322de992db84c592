#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""A plain PETSc KSP solve with hympi added from outside: launches hympi-petsc-ksp (CG +
Jacobi on an N^3 DMDA, a fixed number of iterations; it links PETSc alone) in turn as is
(PETSc's basic SF, MPI's own allreduce), with the SF type from the plugin (-dll_append
libhympi_petsc_plugin.so -sf_type hympi), with libhympi_pmpi preloaded (the dot products'
and norms' MPI_Allreduce), and with both; interleaved launches. Prints per variant the
median over launches of each launch's median time per iteration, (lowest-highest), the
median of the per-launch ratios to the plain run, and the largest relative difference of
its residual norms from the plain run's (the sums' order differs, nothing else). Standard
library only.

    bench/scripts/petsc_ksp_compare.py --build build/openmpi [--np 2] [--launches 5] [--max-drift X] [-- PETSc options]
"""
import argparse
import os
import statistics
import sys

from osu_check import launcher, run

VARIANTS = ("basic", "sf hympi", "basic + pmpi", "sf hympi + pmpi")


def launch(mpiexec, build, variant, extra):
    command = list(mpiexec)
    if variant.endswith("pmpi"):
        command += ["env", "LD_PRELOAD=" + os.path.join(build, "src", "pmpi", "libhympi_pmpi.so")]
    command += [os.path.join(build, "bench", "hympi-petsc-ksp")] + extra
    if variant.startswith("sf hympi"):
        command += ["-dll_append", os.path.join(build, "src", "petsc", "libhympi_petsc_plugin.so"), "-sf_type", "hympi"]
    out = run(command)
    median = norms = None
    for line in out.splitlines():
        if line.startswith("median us per iteration:"):
            median = float(line.split(":")[1])
        elif line.startswith("residual norms:"):
            norms = [float(v) for v in line.split(":")[1].split()]
    if median is None or norms is None:
        sys.exit(f"petsc_ksp_compare: no result from {' '.join(command)}:\n{out}")
    return median, norms


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="a hympi build tree with PETSc (bench/, src/pmpi/, src/petsc/)")
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--max-drift", type=float, default=None,
                        help="exit 1 when a variant's residual norms differ more than this (relative) from basic's")
    parser.add_argument("petsc", nargs="*", help="options for hympi-petsc-ksp (after --), e.g. -n 24 -its 400")
    args = parser.parse_args()
    mpiexec = launcher(args.build, args.np)
    times = {v: [] for v in VARIANTS}
    ratios = {v: [] for v in VARIANTS}
    drift = {v: 0.0 for v in VARIANTS}
    for k in range(args.launches):
        print(f"petsc_ksp_compare: launch {k + 1}/{args.launches}", file=sys.stderr)
        results = {v: launch(mpiexec, args.build, v, args.petsc) for v in VARIANTS}
        plain, plain_norms = results["basic"]
        for v, (median, norms) in results.items():
            times[v].append(median)
            ratios[v].append(median / plain)
            if len(norms) != len(plain_norms):
                sys.exit(f"petsc_ksp_compare: {v}: {len(norms)} residual norms, basic {len(plain_norms)}")
            drift[v] = max([drift[v]] + [abs(a - b) / b for a, b in zip(norms, plain_norms) if b != 0])
    print(f"{' '.join(mpiexec)} hympi-petsc-ksp {' '.join(args.petsc)}; {args.launches} launches of each variant, "
          "interleaved; µs per iteration, median of the launches' medians (lowest-highest)\n")
    print("| variant | µs per iteration | ratio to basic | residual norms, largest relative difference from basic |")
    print("|---|---|---|---|")
    for v in VARIANTS:
        t = times[v]
        print(f"| {v} | {statistics.median(t):.1f} ({min(t):.1f}-{max(t):.1f}) | {statistics.median(ratios[v]):.2f} "
              f"({min(ratios[v]):.2f}-{max(ratios[v]):.2f}) | {drift[v]:.1e} |")
    if args.max_drift is not None and max(drift.values()) > args.max_drift:
        print(f"petsc_ksp_compare: residual norms differ from basic's by {max(drift.values()):.1e} "
              f"(more than --max-drift {args.max_drift:.1e})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
