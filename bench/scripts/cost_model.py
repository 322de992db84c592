#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The MASHM cost model (Jamroz & Dennis (2016); Hager & Wellein (2010), 9.3.2 and
10.4.2), fitted by least squares to measured ghost updates, and its prediction of flat vs
aggregated at node counts that were not run.

Per update and rank, with averages over ranks (N messages of s bytes; f latency and b
bandwidth from the ping-pong measured in the same launch, m the memcpy bandwidth):

  flat        C   = N_inter (f_inter + s_inter / (b_inter B_inter)) + N_intra (f_intra + s_intra / (b_intra B_intra))
  aggregated  C_M = N_M (f_inter + s_M / (b_inter B_M)) + N_intra s_intra / (m B_m) + S

The fit gives 1/B (B: the achieved fraction of the ping-pong bandwidth) and S (the
intranode synchronization cost, us); the model is linear in them, and the fit minimizes
the relative error (each run weighted by 1 / its time).

    bench/scripts/cost_model.py fit RUN.json [RUN.json ...]               # halo-grid records
    bench/scripts/cost_model.py predict RUN.json [...] --stats STATS.json  # + hympi-bench stats record

numpy only.
"""
import argparse
import json
import sys

import numpy as np


def records(paths, kind):
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        for bench in run["benchmarks"]:
            if bench["benchmark"] == kind:
                yield path, bench


def per_rank(st):
    """Per-rank averages of a statistics record (bench/stats.cpp)."""
    ranks = max(st["ranks"], 1)
    return {
        "N_inter": st["internode_messages"] / ranks,
        "s_inter": st["avg_internode_message"],
        "N_intra": st["intranode_messages"] / ranks,
        "s_intra": st["avg_intranode_message"],
        "N_M": st["node_pair_messages"] / ranks,
        "s_M": st["avg_node_pair_message"],
    }


def link(links, where, fallback=None):
    if where in links:
        return links[where]["latency_us"], links[where]["bandwidth_Bps"]
    return fallback if fallback else (0.0, 1.0)


def rows_of(links, st):
    """The known terms and the columns multiplying the unknowns, per model (times in us)."""
    p = per_rank(st)
    f_e, b_e = link(links, "inter")
    f_a, b_a = link(links, "intra", (f_e, b_e))
    m = links["memcpy_Bps"]
    flat_known = p["N_inter"] * f_e + p["N_intra"] * f_a
    flat_cols = [p["N_inter"] * p["s_inter"] / b_e * 1e6, p["N_intra"] * p["s_intra"] / b_a * 1e6]
    agg_known = p["N_M"] * f_e
    agg_cols = [p["N_M"] * p["s_M"] / b_e * 1e6, p["N_intra"] * p["s_intra"] / m * 1e6, 1.0]
    return (flat_known, flat_cols), (agg_known, agg_cols)


MODELS = {
    "flat_mpi": (0, ["1/B_inter", "1/B_intra"]),
    "aggregated": (1, ["1/B_M", "1/B_m", "S_us"]),
    "aggregated_odm": (1, ["1/B_M", "1/B_m", "S_us"]),
}


def fit(paths):
    """{strategy: {parameter: value, 'rms_relative': r, 'samples': n}} from halo-grid records."""
    data = {s: ([], [], []) for s in MODELS}  # known, columns, measured
    for _, rec in records(paths, "halo-grid"):
        rows = rows_of(rec["links"], rec["statistics"])
        for result in rec["results"]:
            s = result["implementation"]
            if s in MODELS:
                known, cols = rows[MODELS[s][0]]
                data[s][0].append(known)
                data[s][1].append(cols)
                data[s][2].append(result["median_us"])
    fitted = {}
    for s, (known, cols, measured) in data.items():
        names = MODELS[s][1]
        if not measured:
            continue
        A = np.array(cols, dtype=float)
        y = np.array(measured, dtype=float) - np.array(known, dtype=float)
        used = [j for j in range(A.shape[1]) if np.any(A[:, j] != 0)]
        if len(measured) < len(used):
            sys.exit(f"cost_model: {s}: {len(measured)} measured configurations for {len(used)} parameters; "
                     "run hympi-bench halo-grid on more grids or node sizes")
        # Relative least squares: runs of 2 us and of 600 us count alike.
        weight = 1.0 / np.array(measured, dtype=float)
        x = np.zeros(A.shape[1])
        x[used] = np.linalg.lstsq(A[:, used] * weight[:, None], y * weight, rcond=None)[0]
        predicted = A @ x + np.array(known)
        rel = (predicted - np.array(measured)) / np.array(measured)
        fitted[s] = {n: (float(x[j]) if j in used else None) for j, n in enumerate(names)}
        fitted[s]["rms_relative"] = float(np.sqrt(np.mean(rel ** 2)))
        fitted[s]["samples"] = len(measured)
    return fitted


def merged_links(paths):
    """The median of each link measurement over the runs (runs on one node have no
    internode link, runs with one rank per node no intranode link)."""
    found = {"inter": [], "intra": [], "memcpy_Bps": []}
    for _, rec in records(paths, "halo-grid"):
        for key in found:
            if key in rec["links"]:
                found[key].append(rec["links"][key])
    links = {"memcpy_Bps": float(np.median(found["memcpy_Bps"]))}
    for key in ("inter", "intra"):
        if found[key]:
            links[key] = {m: float(np.median([l[m] for l in found[key]])) for m in ("latency_us", "bandwidth_Bps")}
    return links


def predict(fitted, links, st, strategy):
    known, cols = rows_of(links, st)[MODELS[strategy][0]]
    params = [v if v is not None else 0.0 for k, v in fitted[strategy].items() if k not in ("rms_relative", "samples")]
    return known + float(np.dot(cols, params))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["fit", "predict"])
    ap.add_argument("runs", nargs="+", help="hympi-bench --json files holding halo-grid records")
    ap.add_argument("--stats", help="a hympi-bench --json file holding a stats record (predict)")
    args = ap.parse_args()
    fitted = fit(args.runs)
    if not fitted:
        sys.exit("cost_model: no halo-grid record in " + ", ".join(args.runs))
    print("| strategy | parameters (1/B: inverse achieved fraction of ping-pong bandwidth; S: us) | rms rel. error | runs |")
    print("|---|---|---|---|")
    for s, p in fitted.items():
        values = ", ".join(f"{k} = {v:.3g}" for k, v in p.items() if k not in ("rms_relative", "samples") and v is not None)
        print(f"| {s} | {values} | {p['rms_relative']:.2f} | {p['samples']} |")
    if args.command == "predict":
        if not args.stats:
            sys.exit("cost_model: predict needs --stats STATS.json (hympi-bench stats --json ...)")
        links = merged_links(args.runs)
        _, stats = next(records([args.stats], "stats"))
        print(f"\nPredicted us per update ({stats['stencil']} on {'x'.join(map(str, stats['grid']))}, "
              f"{stats['ranks_per_node']} ranks per node; links, median of the runs: " +
              "; ".join(f"{k} {v['latency_us']:.2f} us {v['bandwidth_Bps'] / 1e9:.2f} GB/s" for k, v in links.items() if k != "memcpy_Bps") +
              f"; memcpy {links['memcpy_Bps'] / 1e9:.1f} GB/s):\n")
        print("| nodes | ranks | flat_mpi | aggregated | aggregated_odm | aggregated / flat |")
        print("|---|---|---|---|---|---|")
        for row in stats["results"]:
            t = {s: predict(fitted, links, row, s) for s in MODELS if s in fitted}
            ratio = t["aggregated"] / t["flat_mpi"] if "aggregated" in t and "flat_mpi" in t else float("nan")
            cells = " | ".join(f"{t[s]:.1f}" if s in t else "-" for s in MODELS)
            print(f"| {row['nodes']} | {row['ranks']} | {cells} | {ratio:.2f} |")


if __name__ == "__main__":
    main()
