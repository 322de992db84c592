#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Summarize hympi-bench JSON files of several launches: for every benchmark, size and
hympi variant, the median over launches of the per-launch median ratio to the MPI
library's own operation and to every peer and floor, with the lowest and highest launch;
for ghost updates on fresh data also the ratio of communication parts (median minus the
write_read floor's), "vs X comm"; for the PETSc KSP solve also the whole solve per
iteration, "vs sf_basic solve". Ghost-update records of --cached-data runs are marked
"(cached)": the cache-resident best case. Standard library only.

    bench/scripts/summarize.py bench-results/openmpi-*.json
"""
import json
import statistics
import sys
from collections import defaultdict


# Record keys of ratios, and what the table adds to the peer's name: {median, q25, q75}
# against a peer, the whole solve of petsc-ksp, and the communication part (a number).
RATIO_KEYS = (("ratio_to_", ""), ("solve_ratio_to_", " solve"), ("comm_ratio_to_", " comm"))


def ratios_by_launch(paths):
    table = defaultdict(list)  # (benchmark, bytes, implementation, peer) -> [median per launch]
    machine = None
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        machine = machine or run["machine"]
        for bench in run["benchmarks"]:
            if isinstance(bench.get("results"), list):
                name = bench["benchmark"] + (" (cached)" if bench.get("data") == "cached" else "")
                for result in bench["results"]:
                    for key, ratio in result.items():
                        for prefix, label in RATIO_KEYS:
                            if key.startswith(prefix):
                                peer = key[len(prefix):] + label
                                value = ratio["median"] if isinstance(ratio, dict) else ratio
                                table[(name, bench.get("bytes", 0), result["implementation"], peer)].append(value)
            elif bench["benchmark"] == "dot":
                for row in bench["rows"]:
                    table[("dot MFLOP/s", row["n"], "hympi", "MPI (inverse: >1 = hympi faster)")].append(
                        row["hympi_mflops"] / row["MPI_mflops"])
            elif bench["benchmark"] == "sync":
                for who in ("hympi", "mpi"):
                    spread = statistics.median(bench[who]["exit_spread_us"])
                    table[("sync exit spread (us)", 0, who, "absolute")].append(spread)
    return machine, table


def main(paths):
    machine, table = ratios_by_launch(paths)
    print(f"# {machine['mpi']}, {machine['ranks']} ranks, {machine['cpu']}, {len(paths)} launches")
    print(f"# {'benchmark':<22}{'bytes/n':>10}  {'implementation':<26}{'median':>8}{'lowest':>8}{'highest':>8}  vs")
    for (bench, size, impl, peer), values in sorted(table.items()):
        print(f"{bench:<24}{size:>10}  {impl:<26}{statistics.median(values):>8.3f}{min(values):>8.3f}{max(values):>8.3f}  {peer}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
