#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/scripts/report.py on the stored samples (a quick hympi-bench run, an apps_split run):
--headline prints BENCHMARKS.md's headline tables (hympi against each peer) from the run with
the standard library alone (matplotlib blocked), one table per benchmark that compares hympi
with a peer, every ratio as the JSON has it and no floor or hympi variant among them; then
the report writes every plot as a PNG and the summary table. Exits non-zero otherwise."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "bench", "scripts", "report.py")
SAMPLE = os.path.join(HERE, "sample-bench.json")


def check_headline():
    # matplotlib blocked: the headline must need nothing but the standard library.
    blocked = ("import runpy, sys; sys.modules['matplotlib'] = None; "
               f"sys.argv = [{REPORT!r}, '--headline', {SAMPLE!r}]; runpy.run_path({REPORT!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("report.py --headline failed:\n" + result.stdout + result.stderr)
    text = result.stdout

    for needed in ("Open MPI v4.1.4", "2 ranks", "AMD EPYC", "< 1: hympi faster"):
        if needed not in text:
            sys.exit(f"headline lacks {needed!r}:\n{text}")

    # The tables: "### kind", then a header "| case | hympi | / peer | ... |", a rule and rows.
    tables, current = {}, None
    for line in text.splitlines():
        if line.startswith("### "):
            current = line[4:]
            tables[current] = []
        elif current and line.startswith("|") and not line.startswith("|---"):
            tables[current].append([c.strip() for c in line.strip("|").split("|")])
    expected_kinds = ["barrier", "allreduce", "halo-contiguous", "halo-gathered", "halo-grid"]
    if list(tables) != expected_kinds:
        sys.exit(f"headline tables {list(tables)}, expected {expected_kinds}:\n{text}")

    # Every ratio of hympi's default implementations to a peer, from the JSON, in its cell.
    mine = ("hympi", "shm", "shm_direct", "aggregated")
    peers = ("MPI_Barrier", "MPI_Allreduce", "flat_mpi", "neighbor", "petsc_sf", "rma_fence", "rma_pscw", "rma_lock")
    sizes = {0: "0 B", 8: "8 B", 64: "64 B", 512: "512 B", 4096: "4 KiB", 32768: "32 KiB", 65536: "64 KiB",
             262144: "256 KiB", 1048576: "1 MiB"}
    with open(SAMPLE) as f:
        run = json.load(f)
    cells = 0
    for rec in run["benchmarks"]:
        if rec["benchmark"] not in tables:
            continue
        header, *rows = tables[rec["benchmark"]]
        if header[:2] != ["case", "hympi"]:
            sys.exit(f"{rec['benchmark']}: header {header}")
        columns = header[2:]
        for bad in ("write_read", "one_copy", "two_copies", "bare_mpi", "cma_copy"):
            if f"/ {bad}" in columns:
                sys.exit(f"{rec['benchmark']}: the floor {bad} is a column")
        case = (f"grid {'x'.join(str(g) for g in rec['grid'])} {rec['stencil']}" if "grid" in rec
                else sizes[rec["bytes"]])
        for r in rec["results"]:
            ratios = {p: r[f"ratio_to_{p}"] for p in peers if f"ratio_to_{p}" in r}
            row = [x for x in rows if x[:2] == [case, r["implementation"]]]
            if r["implementation"] not in mine or not ratios:
                if row:
                    sys.exit(f"{rec['benchmark']} {case}: {r['implementation']} has a row")
                continue
            if len(row) != 1:
                sys.exit(f"{rec['benchmark']} {case}: {len(row)} rows for {r['implementation']}")
            for peer, ratio in ratios.items():
                want = f"{ratio['median']:.2f} ({ratio['q25']:.2f}-{ratio['q75']:.2f})"
                got = row[0][2 + columns.index(f"/ {peer}")] if f"/ {peer}" in columns else None
                if got != want:
                    sys.exit(f"{rec['benchmark']} {case} {r['implementation']} / {peer}: {got!r}, "
                             f"the JSON says {want!r}")
                cells += 1
    # Spot checks against figures read off the sample by hand.
    if ["0 B", "hympi", "0.77 (0.76-0.80)"] not in tables["barrier"]:
        sys.exit(f"barrier: no row '0 B | hympi | 0.77 (0.76-0.80)':\n{text}")
    if ["1 MiB", "hympi", "1.07 (1.06-1.09)"] not in tables["allreduce"]:
        sys.exit(f"allreduce: no row '1 MiB | hympi | 1.07 (1.06-1.09)':\n{text}")
    if len(tables["allreduce"]) != 1 + 7:  # header and the 7 sizes, no hympi-seq_cst row
        sys.exit(f"allreduce: {len(tables['allreduce']) - 1} rows, expected 7")
    return cells


cells = check_headline()

with tempfile.TemporaryDirectory() as out:
    result = subprocess.run([sys.executable, REPORT, SAMPLE, "--apps",
                             os.path.join(HERE, "sample-apps.json"), "--out", out, "--brief"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("report.py failed:\n" + result.stdout + result.stderr)
    for name in ("collectives.png", "dot.png", "halo.png", "speedup.png", "patterns.png", "apps.png"):
        path = os.path.join(out, name)
        with open(path, "rb") as f:
            head = f.read(8)
        if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(path) < 10000:
            sys.exit(f"{name}: not a plot ({os.path.getsize(path)} bytes)")
    table = open(os.path.join(out, "summary.md")).read()
    for needed in ("| barrier |", "| allreduce |", "MPI_Barrier", "MPI_Allreduce", "| halo-contiguous |", "flat_mpi"):
        if needed not in table:
            sys.exit(f"summary.md lacks {needed}")
    if "| barrier |" not in result.stdout:
        sys.exit("the brief table was not printed")
print(f"report: the headline ({cells} ratios as in the JSON), 6 plots and the summary table written")
