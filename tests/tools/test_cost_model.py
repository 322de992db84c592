#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/scripts/cost_model.py recovers known parameters from synthetic halo-grid records (made
by the model itself with noise-free times), and its prediction table runs on a stats
record. Exits non-zero on any mismatch."""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "bench", "scripts"))
import cost_model  # noqa: E402

TRUE = {"flat_mpi": [1 / 0.3, 1 / 0.5], "aggregated": [1 / 0.6, 1 / 0.4, 7.5], "aggregated_odm": [1 / 0.7, 1 / 0.45, 5.0]}


def statistics(rng):
    ranks = rng.choice([8, 16, 32])
    nodes = rng.choice([2, 4])
    return {"ranks": ranks, "nodes": nodes,
            "internode_messages": rng.randint(4, 200), "avg_internode_message": rng.uniform(100, 50000),
            "intranode_messages": rng.randint(4, 200), "avg_intranode_message": rng.uniform(100, 50000),
            "node_pair_messages": rng.randint(2, 12), "avg_node_pair_message": rng.uniform(1000, 500000)}


def main():
    rng = random.Random(5)
    links = {"inter": {"latency_us": 4.0, "bandwidth_Bps": 1.2e9}, "intra": {"latency_us": 0.5, "bandwidth_Bps": 6e9},
             "memcpy_Bps": 9e9}
    benchmarks = []
    for _ in range(12):
        st = statistics(rng)
        rows = cost_model.rows_of(links, st)
        results = []
        for s, params in TRUE.items():
            known, cols = rows[cost_model.MODELS[s][0]]
            results.append({"implementation": s, "median_us": known + sum(c * p for c, p in zip(cols, params))})
        benchmarks.append({"benchmark": "halo-grid", "links": links, "statistics": st, "results": results})
    with tempfile.TemporaryDirectory() as tmp:
        run = os.path.join(tmp, "run.json")
        with open(run, "w") as f:
            json.dump({"machine": {}, "benchmarks": benchmarks}, f)
        fitted = cost_model.fit([run])
        for s, params in TRUE.items():
            got = [v for k, v in fitted[s].items() if k not in ("rms_relative", "samples")]
            for g, t in zip(got, params):
                if abs(g - t) > 1e-6 * max(1.0, abs(t)):
                    sys.exit(f"{s}: fitted {got}, expected {params}")
        stats = os.path.join(tmp, "stats.json")
        row = dict(statistics(rng), process_grid=[2, 2, 2])
        with open(stats, "w") as f:
            json.dump({"machine": {}, "benchmarks": [{"benchmark": "stats", "stencil": "star19", "grid": [96, 96, 96],
                                                      "ranks_per_node": 16, "results": [row]}]}, f)
        out = subprocess.run([sys.executable, os.path.join(HERE, "..", "..", "bench", "scripts", "cost_model.py"), "predict", run,
                              "--stats", stats], capture_output=True, text=True, check=True).stdout
        if "| aggregated / flat |" not in out or f"| {row['nodes']} | {row['ranks']} |" not in out:
            sys.exit("prediction table missing:\n" + out)
    print("cost model: parameters recovered, prediction table written")


if __name__ == "__main__":
    main()
