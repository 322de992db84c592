#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Tables across node counts from bench/cluster/run.sh's results: for every benchmark and
case (message size, mesh, grid), one Markdown table with a row per implementation and a
column per node count; a cell is the median time in µs over the samples of that launch,
its ratio to the benchmark's reference (MPI_Barrier, MPI_Allreduce, flat_mpi: the run's own
ratio_to_* median) and, where the launch saw any, the number of extreme samples (more than
ten times the minimum, Quaranta & Maddegedara (2021), Fig. 19). Standard library only.

    bench/cluster/collect.py bench-results/cluster [--out tables.md]
"""
import argparse
import glob
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from report import case_text, load, machine_line, timed  # noqa: E402


def cell(result):
    text = f"{result['median_us']:.3g}"
    ratios = [v for k, v in result.items() if k.startswith("ratio_to_")]
    if ratios:
        text += f" ({ratios[0]['median']:.2f}x)"
    if result.get("extremes"):
        text += f" [{result['extremes']} extreme]"
    return text


def tables(runs):
    """{(benchmark, bytes, case): {implementation: {nodes: cell}}}, node counts, machines."""
    out, counts, machines = {}, set(), {}
    for _, run in runs:
        nodes = run["machine"].get("nodes", 0)
        counts.add(nodes)
        machines.setdefault(nodes, machine_line(run))
        for rec in run["benchmarks"]:
            if "results" not in rec:  # a dry run's tables (stats), not timings
                continue
            rows = out.setdefault((rec["benchmark"], rec.get("bytes") or 0, case_text(rec)), {})
            for result in timed(rec):
                rows.setdefault(result["implementation"], {})[nodes] = cell(result)
    return out, sorted(counts), machines


def markdown(runs):
    out, counts, machines = tables(runs)
    lines = ["Median µs per call (ratio to the benchmark's MPI reference) by node count.", ""]
    lines += [f"- {n} node(s): {machines[n]}" for n in counts]
    for (benchmark, _, case), rows in sorted(out.items()):
        lines += ["", f"### {benchmark}" + (f", {case}" if case else ""), ""]
        lines.append("| implementation | " + " | ".join(f"{n} node(s)" for n in counts) + " |")
        lines.append("|---|" + "---|" * len(counts))
        for implementation, cells in rows.items():
            lines.append(f"| {implementation} | " + " | ".join(cells.get(n, "") for n in counts) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", help="run.sh's OUT folder (one <nodes>n<tasks> folder per job)")
    parser.add_argument("--out", help="write the tables here instead of stdout")
    args = parser.parse_args()
    paths = sorted(glob.glob(os.path.join(args.results, "*", "*.json")))
    if not paths:
        sys.exit(f"collect.py: no <nodes>n<tasks>/*.json under {args.results}")
    text = markdown(load(paths))
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
