#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/scripts/report.py on the stored samples (a quick hympi-bench run, an apps_split run)
writes every plot as a PNG and the summary table. Exits non-zero otherwise."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPORT = os.path.join(HERE, "..", "..", "bench", "scripts", "report.py")

with tempfile.TemporaryDirectory() as out:
    result = subprocess.run([sys.executable, REPORT, os.path.join(HERE, "sample-bench.json"), "--apps",
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
print("report: 6 plots and the summary table written")
