#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/cluster/collect.py on run.sh's layout made from the stored sample run: the sample as
a 1-node job and, with its times doubled and its node count set to 4, as a 4-node job. Every
timed result must appear in its benchmark's table with both cells: the sample's median and
ratio in the 1-node column, twice the median in the 4-node column; the extreme samples of a
result are counted. Exits non-zero otherwise."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
COLLECT = os.path.join(HERE, "..", "..", "bench", "cluster", "collect.py")
SAMPLE = os.path.join(HERE, "sample-bench.json")


def write(path, run):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        json.dump(run, f)


def main():
    with open(SAMPLE) as f:
        one = json.load(f)
    four = json.loads(json.dumps(one))
    four["machine"]["nodes"] = 4
    for rec in four["benchmarks"]:
        for r in rec.get("results", []):
            if "median_us" in r:
                r["median_us"] *= 2
            r["extremes"] = 3
    with tempfile.TemporaryDirectory() as out:
        write(os.path.join(out, "1n2", "all.json"), one)
        write(os.path.join(out, "4n2", "all.json"), four)
        result = subprocess.run([sys.executable, COLLECT, out], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("collect.py failed:\n" + result.stdout + result.stderr)
    rows = {}
    for line in result.stdout.splitlines():
        if line.startswith("### "):
            table = line[4:]
        elif line.startswith("| ") and not line.startswith("| implementation"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[(table, cells[0])] = cells[1:]
    checked = 0
    for rec in one["benchmarks"]:
        for r in rec.get("results", []):
            if not (r.get("valid", True) and "median_us" in r):
                continue
            candidates = [c for (t, i), c in rows.items() if t.startswith(rec["benchmark"]) and i == r["implementation"]]
            if not candidates:
                sys.exit(f"no row for {rec['benchmark']} {r['implementation']}:\n{result.stdout}")
            first = f"{r['median_us']:.3g}"
            ratio = next((v["median"] for k, v in r.items() if k.startswith("ratio_to_")), None)
            if ratio is not None:
                first += f" ({ratio:.2f}x)"
            if not any(c[0] == first and c[1].startswith(f"{2 * r['median_us']:.3g}") and c[1].endswith("[3 extreme]")
                       for c in candidates):
                sys.exit(f"{rec['benchmark']} {r['implementation']}: no row with '{first}' at 1 node and twice the "
                         f"median, 3 extremes, at 4 nodes; rows: {candidates}")
            checked += 1
    if checked < 50:
        sys.exit(f"only {checked} results checked")
    print(f"collect.py: {checked} results in their tables, both node counts")
    return 0


if __name__ == "__main__":
    sys.exit(main())
