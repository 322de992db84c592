#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""In cache against off cache (hympi-bench --off-cache; Hager & Wellein (2010), 10.5), or
any two groups of launches (--a/--b: e.g. two builds, with --labels): for one
implementation of every benchmark, size and buffer layout (--page-offset), its median µs
and its median ratio to each peer, the median over launches (lowest-highest launch) of
the per-launch figures, the first group's launches beside the second's. Standard library
only.

    bench/scripts/cache_compare.py --in bench-results/offcache/*-in-*.json \\
        --off bench-results/offcache/*-off-*.json [--implementation shm] [--peers flat_mpi,bare_mpi]
    bench/scripts/cache_compare.py --a OLD/*.json --b NEW/*.json --labels "before,after"

allreduce, bcast and reduce are shown for the implementation "hympi" against MPI's own
call; the ghost updates for --implementation against --peers.
"""
import argparse
import collections
import json
import statistics


MPI_CALL = {"allreduce": "MPI_Allreduce", "bcast": "MPI_Bcast", "reduce": "MPI_Reduce"}


def load(paths):
    """(benchmark, bytes, page offset or -1, implementation) -> [result of each launch]"""
    out = collections.defaultdict(list)
    for path in paths:
        with open(path) as f:
            for bench in json.load(f)["benchmarks"]:
                if isinstance(bench.get("results"), list) and "bytes" in bench:
                    for result in bench["results"]:
                        key = (bench["benchmark"], bench["bytes"], bench.get("page_offset", -1))
                        out[key + (result["implementation"],)].append(result)
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
    ap.add_argument("--in", "--a", dest="first", nargs="+", required=True,
                    help="hympi-bench JSON files without --off-cache (or the first group)")
    ap.add_argument("--off", "--b", dest="second", nargs="+", required=True,
                    help="the same benchmarks with --off-cache (or the second group)")
    ap.add_argument("--labels", default="in cache,off cache", help="the two groups' names in the columns")
    ap.add_argument("--implementation", default="shm", help="the ghost-update implementation shown")
    ap.add_argument("--peers", default="flat_mpi,bare_mpi", help="its ratios to these")
    args = ap.parse_args()
    first, second = load(args.first), load(args.second)
    label_a, label_b = args.labels.split(",")
    for benchmark in sorted({k[0] for k in first}):
        implementation, peers = ("hympi", [MPI_CALL[benchmark]]) if benchmark in MPI_CALL else \
            (args.implementation, args.peers.split(","))
        layouts = any(k[2] >= 0 for k in first if k[0] == benchmark)
        header = [f"{benchmark}: bytes"] + (["buffers at"] if layouts else [])
        header += [f"{implementation} µs {label_a}", label_b]
        for peer in peers:
            header += [f"{implementation} / {peer} {label_a}", label_b]
        print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
        for key in sorted(k for k in first if k[0] == benchmark and k[3] == implementation):
            row = [str(key[1])] + ([f"+{key[2]} B" if key[2] >= 0 else "allocator's"] if layouts else [])
            row += [cell(first[key]), cell(second.get(key, []))]
            for peer in peers:
                row += [cell(first[key], peer), cell(second.get(key, []), peer)]
            print("| " + " | ".join(row) + " |")
        print()


if __name__ == "__main__":
    main()
