#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""In cache against off cache (hympi-bench --off-cache; Hager & Wellein (2010), 10.5): for
one implementation of every benchmark and size, its median µs and its median ratio to each
peer, the median over launches (lowest-highest launch) of the per-launch figures, the
in-cache launches beside the off-cache ones. Standard library only.

    bench/scripts/cache_compare.py --in bench-results/offcache/*-in-*.json \\
        --off bench-results/offcache/*-off-*.json [--implementation shm] [--peers flat_mpi,bare_mpi]

allreduce is shown for the implementation "hympi" against MPI_Allreduce; the ghost
updates for --implementation against --peers.
"""
import argparse
import collections
import json
import statistics


def load(paths):
    """(benchmark, bytes, implementation) -> [result of each launch]"""
    out = collections.defaultdict(list)
    for path in paths:
        with open(path) as f:
            for bench in json.load(f)["benchmarks"]:
                if isinstance(bench.get("results"), list) and "bytes" in bench:
                    for result in bench["results"]:
                        out[(bench["benchmark"], bench["bytes"], result["implementation"])].append(result)
    return out


def cell(results, peer=None):
    values = [r[f"ratio_to_{peer}"]["median"] for r in results if f"ratio_to_{peer}" in r] if peer else \
        [r["median_us"] for r in results]
    if not values:
        return "-"
    if peer:
        return f"{statistics.median(values):.2f} ({min(values):.2f}-{max(values):.2f})"
    return f"{statistics.median(values):.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--in", dest="cached", nargs="+", required=True, help="hympi-bench JSON files without --off-cache")
    ap.add_argument("--off", nargs="+", required=True, help="the same benchmarks with --off-cache")
    ap.add_argument("--implementation", default="shm", help="the ghost-update implementation shown")
    ap.add_argument("--peers", default="flat_mpi,bare_mpi", help="its ratios to these")
    args = ap.parse_args()
    cached, off = load(args.cached), load(args.off)
    for benchmark in sorted({k[0] for k in cached}):
        implementation, peers = ("hympi", ["MPI_Allreduce"]) if benchmark == "allreduce" else \
            (args.implementation, args.peers.split(","))
        header = [f"{benchmark}: bytes", f"{implementation} µs in cache", "off cache"]
        for peer in peers:
            header += [f"{implementation} / {peer} in cache", "off cache"]
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for key in sorted(k for k in cached if k[0] == benchmark and k[2] == implementation):
            row = [str(key[1]), cell(cached[key]), cell(off.get(key, []))]
            for peer in peers:
                row += [cell(cached[key], peer), cell(off.get(key, []), peer)]
            print("| " + " | ".join(row) + " |")
        print()


if __name__ == "__main__":
    main()
