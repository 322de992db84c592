#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""An unmodified MPI application with and without libhympi_pmpi: launches jacobi_flat
(apps/flat/jacobi_flat.c: the jacobi2d, jacobi3d and laplace19 problems as a flat MPI code, its
field changing every iteration and read by the next) or cg_flat (apps/flat/cg_flat.cpp: CG on
the cube mesh, a distributed graph's ghost update and two dot products per iteration, solved
--repeat times to its tolerance) in turn without the library and preloaded, per exchange
(MPI_Neighbor_alltoallv, a persistent request where the MPI has one, MPI_Isend/MPI_Irecv), and
prints per exchange the median over launches (lowest-highest) of the loop, ghost-update and
reduction times (max over ranks) and the ratios preloaded / alone. The library runs with
HYMPI_PMPI=all (the neighbourhood calls too) and its defaults otherwise (HYMPI_PMPI_AFTER,
the sizes of src/pmpi/settings.hpp, HYMPI_PMPI_MAX_BYTES 16 KiB per message) unless set; each
preloaded launch's report says what hympi served. Standard library only.

    bench/scripts/flat_app_compare.py --build build/openmpi [--np 2] [--launches 5]
        [--problem jacobi2d] [--grid 1024] [--iterations 200] [--exchange neighbor,isend]
    bench/scripts/flat_app_compare.py --build build/openmpi --problem cg [--size 0.05] [--repeat 20] ...
"""
import argparse
import os
import re
import statistics
import sys

from osu_check import launcher, run

TIMES = re.compile(r"loop ([0-9.]+) s, ghost update ([0-9.]+) s, reductions ([0-9.]+) s")
SERVED = re.compile(r"^\s+(MPI_\w+)\s+(<= [0-9]+ \w+)\s+hympi\s+([0-9]+)$", re.M)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="a hympi build tree (with apps/flat/ and src/pmpi/)")
    parser.add_argument("--np", type=int, default=2)
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--problem", default="jacobi2d", choices=["jacobi2d", "jacobi3d", "laplace19", "cg"])
    parser.add_argument("--grid", type=int, default=0, help="points per dimension (0: jacobi_flat's default)")
    parser.add_argument("--size", type=float, default=0.05, help="cg: the cube mesh's element size")
    parser.add_argument("--repeat", type=int, default=20, help="cg: solves per launch")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--exchange", default="neighbor,persistent,isend")
    args = parser.parse_args()
    library = os.path.abspath(os.path.join(args.build, "src", "pmpi", "libhympi_pmpi.so"))
    name = "cg_flat" if args.problem == "cg" else "jacobi_flat"
    program = os.path.abspath(os.path.join(args.build, "apps", "flat", name))
    for path, target in ((library, "hympi_pmpi"), (program, name)):
        if not os.path.exists(path):
            sys.exit(f"flat_app_compare: no {path} (build the target {target})")
    mpiexec = launcher(args.build, args.np)
    os.environ.setdefault("HYMPI_PMPI", "all")
    preload = ["env", f"LD_PRELOAD={library}", "HYMPI_PMPI_REPORT=1"]
    if args.problem == "cg":
        common = ["--size", str(args.size), "--repeat", str(args.repeat)]
    else:
        common = ["--problem", args.problem, "--iterations", str(args.iterations)]
        common += ["--grid", str(args.grid)] if args.grid else []
    print(f"{' '.join(mpiexec)} [env LD_PRELOAD=libhympi_pmpi.so] {name} {' '.join(common)} --exchange E, "
          f"{args.launches} launches of each, interleaved; s, max over ranks, median over launches (lowest-highest)\n")
    print("| exchange | phase | MPI | MPI + libhympi_pmpi | ratio |")
    print("|---|---|---|---|---|")
    served = {}
    for exchange in args.exchange.split(","):
        alone, preloaded = [], []
        for k in range(args.launches):  # interleaved: alone, preloaded, alone, ...
            print(f"flat_app_compare: {exchange} launch {k + 1}/{args.launches}", file=sys.stderr)
            command = [program] + common + ["--exchange", exchange]
            alone.append([float(t) for t in TIMES.search(run(mpiexec + command)).groups()])
            out = run(mpiexec + preload + command)
            preloaded.append([float(t) for t in TIMES.search(out).groups()])
            served[exchange] = SERVED.findall(out)
        for phase, name in enumerate(("loop", "ghost update", "reductions")):
            a, b = [t[phase] for t in alone], [t[phase] for t in preloaded]
            print(f"| {exchange} | {name} | {statistics.median(a):.4f} ({min(a):.4f}-{max(a):.4f}) | "
                  f"{statistics.median(b):.4f} ({min(b):.4f}-{max(b):.4f}) | "
                  f"{statistics.median(b) / statistics.median(a):.2f} |")
    print()
    for exchange, rows in served.items():
        print(f"served by hympi ({exchange}, last launch, calls of all ranks): "
              + ("; ".join(f"{op} {size}: {calls}" for op, size, calls in rows) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
