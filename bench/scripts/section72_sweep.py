#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Section 7.2's rule against the timings: Quaranta & Maddegedara (2021) find that the hybrid
ghost update pays when a process's intranode data is at least about twice its internode data.
For each partition (ranks, emulated node size, grid) this runs `hympi-bench halo-grid` (19-point
stencil, application data: written before and read after every update) in interleaved launches
and prints, per partition, the intranode/internode byte ratio (the rule's input, from the
Pattern's message statistics), each hybrid strategy's communication time over flat MPI's
(median over launches, lowest-highest), what the rule predicts (hybrid from 2) and what
`automatic` chose in each launch. Standard library only.

    bench/scripts/section72_sweep.py --build build/openmpi [--launches 3]
        [--configs 4:1:64,4:2:64,4:4:64,8:1:96,8:2:96,8:4:96,8:8:96] [--outer 30] [--inner 20]

A config is ranks:node size:grid points per dimension (HYMPI_NODE_SIZE emulates the nodes:
"internode" MPI is shared memory on one machine; more ranks than cores are oversubscribed).
"""
import argparse
import collections
import json
import os
import statistics
import sys
import tempfile

from osu_check import launcher, run

HYBRID = ("shm", "aggregated", "aggregated_odm")


def launch(build, np, node, grid, outer, inner):
    """(intra/inter bytes or None, {strategy: communication time / flat_mpi's}, automatic's pick)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "run.json")
        run(["env", f"HYMPI_NODE_SIZE={node}"] + launcher(build, np, bind=False)
            + [os.path.join(build, "bench", "hympi-bench"), "halo-grid", "--grid", f"{grid},{grid},{grid}",
               "--stencil", "star19", "--outer", str(outer), "--inner", str(inner), "--json", path])
        with open(path) as f:
            record = next(r for r in json.load(f)["benchmarks"] if r["benchmark"] == "halo-grid")
    ratios = {r["implementation"]: r["comm_ratio_to_flat_mpi"] for r in record["results"]
              if r.get("implementation") in HYBRID and "comm_ratio_to_flat_mpi" in r}
    return record["statistics"]["intranode_to_internode_bytes"], ratios, record["automatic"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="a hympi build tree with bench/hympi-bench")
    parser.add_argument("--launches", type=int, default=3)
    parser.add_argument("--configs", default="4:1:64,4:2:64,4:4:64,8:1:96,8:2:96,8:4:96,8:8:96")
    parser.add_argument("--outer", type=int, default=30)
    parser.add_argument("--inner", type=int, default=20)
    args = parser.parse_args()
    configs = [tuple(int(x) for x in c.split(":")) for c in args.configs.split(",")]
    found = collections.defaultdict(list)
    for k in range(args.launches):  # interleaved: every config once per round
        for config in configs:
            print(f"section72_sweep: round {k + 1}/{args.launches}, ranks:node:grid {config}", file=sys.stderr)
            found[config].append(launch(args.build, *config, args.outer, args.inner))
    print(f"hympi-bench halo-grid --stencil star19 --outer {args.outer} --inner {args.inner}, {args.launches} "
          "launches per partition, interleaved; communication time / flat_mpi's, median over launches "
          "(lowest-highest)\n")
    print("| ranks, node size, grid | intra / inter bytes | rule (7.2) | "
          + " | ".join(f"{s} / flat" for s in HYBRID) + " | automatic chose |")
    print("|---" * (4 + len(HYBRID)) + "|")
    for (np, node, grid), runs in found.items():
        ratio = runs[0][0]
        cells = []
        for s in HYBRID:
            values = [r[1][s] for r in runs if s in r[1]]
            cells.append(f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})" if values else "-")
        rule = "hybrid" if ratio is None or ratio >= 2 else "flat"
        picks = ", ".join(f"{n} x {p}" for p, n in collections.Counter(r[2] for r in runs).most_common())
        print(f"| {np}, {node}, {grid}^3 | {'all intranode' if ratio is None else f'{ratio:.2f}'} | {rule} | "
              + " | ".join(cells) + f" | {picks} |")


if __name__ == "__main__":
    main()
