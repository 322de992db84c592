#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Plots and a summary table from hympi-bench JSON files (one per MPI library or launch),
in the style of the figures of Quaranta & Maddegedara (2021):

  collectives.png  barrier and allreduce: median latency per implementation vs size,
                   bars from the fastest to the slowest sample
  dot.png          FP32 dot product MFLOP/s per core vs vector length (hympi, MPI, no comm.)
  halo.png         ghost update per strategy vs bytes per neighbour: median, min-max band
                   (titles say "cached data" for --cached-data runs: the cache-resident
                   best case; contenders found wrong in the warm-up are left out)
  speedup.png      flat_mpi time / strategy time vs bytes per neighbour (> 1: faster)
  patterns.png     ghost update of the structured grid and the cube mesh (halo-grid,
                   halo-mesh): median per implementation, bars from min to max
  apps.png         applications: ghost-update and reduction time per iteration and the
                   communication share, per strategy (hympi-bench apps records, and
                   bench/scripts/apps_split.py --json files)
  summary.md       hympi against every peer and floor: median ratio of interleaved pairs,
                   and the ratios of communication parts (median minus write_read's)

Every plot's title says what is measured, in which unit, which way is better, and the MPI,
ranks, nodes and CPU of its run.

    bench/scripts/report.py RUN.json [RUN.json ...] [--apps APPS.json ...] [--out DIR] [--brief]

--brief prints the headline ratios instead of the whole table, then the verdict per run.

--verdict prints, and writes nothing, five lines per run (per MPI in scripts/demo.sh), from
hympi's default implementation against the way a program does the same without hympi (the
MPI library's own collective, a flat MPI ghost update, PETSc's basic PetscSF), one case per
record, median of interleaved pairs: the machine and the cases; where hympi was faster, by
how much; where it was slower or tied (a tie: 1 within the pairs' 25-75 % range); the
applications' communication share of an iteration, flat_mpi against shm, and their iteration
times over the rounds; and what that means for an application. Standard library only:

    bench/scripts/report.py --verdict RUN.json [RUN.json ...]

--headline prints, and writes nothing, the headline tables for each run: per
benchmark in the file, hympi's default implementations (hympi, shm, shm_direct, aggregated,
sf_hympi, context) against every peer the run timed them with (the MPI library's own
operation, flat_mpi, neighbor, PetscSF, the RMA baselines, sf_basic; no floors, no hympi
variants), median ratio of interleaved pairs (25-75 %), < 1: hympi faster; with the
machine line (MPI, ranks, CPU). Standard library only (matplotlib is needed for the plots):

    bench/scripts/report.py --headline RUN.json [RUN.json ...]
"""
import argparse
import json
import os

plt = None  # matplotlib.pyplot, imported by pyplot() when plots are made


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    return matplotlib.pyplot


def load(paths):
    runs = []
    for path in paths:
        with open(path) as f:
            run = json.load(f)
        mpi = " ".join(run["machine"]["mpi"].split(",")[0].replace(" Version:", " ").split())[:24]
        runs.append((f"{mpi} ({os.path.basename(path)})", run))
    return runs


# One look per implementation in every plot: hympi solid, MPI and PETSc dashed, floors dotted.
HYMPI_STRATEGIES = ("hympi", "shm", "shm_direct", "aggregated", "aggregated_odm", "automatic")
FLOORS = ("write_read", "one_copy", "two_copies", "bare_mpi")
OLD_FLOORS = ("bare_copy+barrier", "bare_isend_irecv")  # files from before fresh data
COLORS = {"hympi": "tab:blue", "shm": "tab:blue", "hympi-seq_cst": "lightsteelblue", "shm_direct": "tab:green",
          "aggregated": "tab:olive", "aggregated_odm": "tab:cyan", "automatic": "navy",
          "MPI_Barrier": "tab:red", "MPI_Allreduce": "tab:red", "flat_mpi": "tab:red", "neighbor": "tab:orange",
          "rma_fence": "tab:purple", "rma_pscw": "tab:pink", "rma_lock": "tab:brown", "rma_lock_target": "peru", "petsc_sf": "black",
          "write_read": "silver", "one_copy": "tab:gray", "two_copies": "dimgray", "bare_mpi": "salmon",
          "bare_copy+barrier": "tab:gray", "bare_isend_irecv": "salmon"}


def look(name):
    dash = "-" if name in HYMPI_STRATEGIES else ":" if name in FLOORS + OLD_FLOORS else "--"
    color = COLORS.get(name, "lightsteelblue" if name.startswith("hympi") else "darkgray")  # hympi's variants light
    return {"color": color, "linestyle": dash, "marker": "o", "label": name}


def records(run, kind):
    return [b for b in run["benchmarks"] if b["benchmark"] == kind]


def timed(rec):
    """The results that were timed (not found wrong in the warm-up)."""
    return [r for r in rec["results"] if r.get("valid", True) and "median_us" in r]


def data_note(recs):
    """How the ghost-update records' data was made: "" for fresh data (and old files)."""
    return " — cached data (cache-resident best case)" if any(r.get("data") == "cached" for r in recs) else ""


def series(recs):
    """{implementation: [(bytes, median, min, max)]} over the records of one kind."""
    out = {}
    for rec in recs:
        for r in timed(rec):
            out.setdefault(r["implementation"], []).append((rec["bytes"], r["median_us"], r["min_us"], r["max_us"]))
    return {k: sorted(v) for k, v in out.items()}


def where(run):
    """A plot's machine: MPI, ranks, nodes, CPU (machine_line without the online CPUs and PETSc)."""
    m = run.get("machine", {})
    flags = [f.replace("_", " ") for f in ("emulated_nodes", "oversubscribed") if m.get(f)]
    return ", ".join([f"{m.get('mpi', '?')}, {m.get('ranks', '?')} ranks on {m.get('nodes', '?')} node(s)",
                      m.get("cpu", "?")] + flags)


def size_axis(ax, sizes):
    """A log2 x axis labelled with the sizes measured (8 B, 4 KiB, 1 MiB)."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(sorted(sizes), [size_text(n) for n in sorted(sizes)], fontsize=8)
    ax.minorticks_off()


def save(fig, out, name, title):
    fig.suptitle(title, fontsize=11)
    fig.savefig(os.path.join(out, name), dpi=110)
    plt.close(fig)


def plot_collectives(runs, out):
    fig, axes = plt.subplots(len(runs), 2, figsize=(12, 4.2 * len(runs) + 0.8), squeeze=False, layout="constrained")
    for row, (_, run) in enumerate(runs):
        barrier = records(run, "barrier")
        ax = axes[row][0]
        if barrier:
            results = timed(barrier[0])
            names = [r["implementation"] for r in results]
            med = [r["median_us"] for r in results]
            ax.bar(range(len(names)), med, color=[look(n)["color"] for n in names], capsize=4,
                   yerr=[[m - r["min_us"] for m, r in zip(med, results)],
                         [r["max_us"] - m for m, r in zip(med, results)]])
            ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("µs per barrier")
        ax.set_title(f"barrier\n{where(run)}", fontsize=9)
        ax = axes[row][1]
        data = series(records(run, "allreduce"))
        for name, points in data.items():
            x = [p[0] for p in points]
            ax.errorbar(x, [p[1] for p in points], yerr=[[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]],
                        capsize=3, **look(name))
        size_axis(ax, {p[0] for points in data.values() for p in points})
        ax.set_yscale("log")
        ax.set_xlabel("message size per rank")
        ax.set_ylabel("µs per allreduce")
        ax.set_title(f"allreduce of doubles (sum)\n{where(run)}", fontsize=9)
        ax.legend(fontsize=8)
    save(fig, out, "collectives.png", "Barrier and allreduce: time per call, lower is better (hympi blue, solid; "
         "the MPI library's own call red, dashed)\nmedian over samples, bars from the fastest to the slowest sample")


def plot_dot(runs, out):
    fig, ax = plt.subplots(figsize=(8, 5.5), layout="constrained")
    for label, run in runs:
        for rec in records(run, "dot"):
            n = [row["n"] for row in rec["rows"]]
            for who, style in (("hympi", "-o"), ("MPI", "--s"), ("no-comm", ":")):
                ax.plot(n, [row[f"{who}_mflops"] for row in rec["rows"]], style, label=f"{who} — {label}")
    ax.set_title("\n".join(where(run) for _, run in runs if records(run, "dot")), fontsize=9)
    ax.set_xscale("log")
    ax.set_xlabel("vector length per rank (floats)")
    ax.set_ylabel("MFLOP/s per core")
    ax.legend(fontsize=7)
    save(fig, out, "dot.png", "FP32 dot product with its allreduce: MFLOP/s per core, higher is better\n"
         "allreduce by hympi or by MPI; no-comm: the local dot alone (Quaranta & Maddegedara 2021, Fig. 14)")


def plot_halo(runs, out):
    (fig, axes), (fig2, axes2) = [plt.subplots(len(runs), 2, figsize=(13, 4.5 * len(runs) + 0.9), squeeze=False,
                                               layout="constrained") for _ in range(2)]
    for row, (_, run) in enumerate(runs):
        for col, kind in enumerate(("halo-contiguous", "halo-gathered")):
            ax, ax2 = axes[row][col], axes2[row][col]
            data = series(records(run, kind))
            flat = {p[0]: p[1] for p in data.get("flat_mpi", [])}
            for name, points in data.items():
                x = [p[0] for p in points]
                ax.plot(x, [p[1] for p in points], **look(name))
                ax.fill_between(x, [p[2] for p in points], [p[3] for p in points], alpha=0.12, color=look(name)["color"])
                if name != "flat_mpi" and flat:
                    ax2.plot(x, [flat[p[0]] / p[1] for p in points if p[0] in flat], **look(name))
            for a in (ax, ax2):
                size_axis(a, {p[0] for points in data.values() for p in points})
                a.set_xlabel("bytes per neighbour")
                a.legend(fontsize=7, ncol=2)
                what = "contiguous points" if kind == "halo-contiguous" else "points gathered by index"
                a.set_title(f"ring, {what}{data_note(records(run, kind))}\n{where(run)}", fontsize=9)
            ax.set_yscale("log")
            ax.set_ylabel("µs per update")
            ax2.axhline(1.0, color="grey", lw=0.8)
            ax2.set_ylabel("flat_mpi's time / this one's")
    save(fig, out, "halo.png", "Ghost update on application data: time per update, lower is better (hympi solid, "
         "MPI and PETSc dashed, copy floors dotted)\nline: median over samples; band: fastest to slowest sample")
    save(fig2, out, "speedup.png", "Ghost update: speed-up over flat MPI (flat_mpi's median time / this one's), "
         "above 1: faster than flat MPI\nhympi solid, MPI and PETSc dashed, copy floors dotted")


def plot_patterns(runs, out):
    panels = [(run, rec) for _, run in runs for rec in run["benchmarks"]
              if rec["benchmark"] in ("halo-grid", "halo-mesh")]
    fig, axes = plt.subplots(len(panels), 1, figsize=(9, 3.9 * len(panels) + 0.8), squeeze=False, layout="constrained")
    for (run, rec), ax in zip(panels, axes[:, 0]):
        results = timed(rec)
        names = [r["implementation"] for r in results]
        med = [r["median_us"] for r in results]
        ax.bar(range(len(names)), med, color=[look(n)["color"] for n in names],
               yerr=[[m - r["min_us"] for m, r in zip(med, results)],
                     [r["max_us"] - m for m, r in zip(med, results)]], capsize=4)
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right", fontsize=8)
        ax.set_ylabel("µs per update")
        what = f"{rec.get('mesh') or 'cube mesh ' + str(rec.get('mesh_size'))}, chunk {rec.get('chunk')}" \
            if rec["benchmark"] == "halo-mesh" else \
            f"grid {'x'.join(map(str, rec.get('grid', [])))} {rec.get('stencil', '')}"
        ax.set_title(f"{what}{data_note([rec])} (hympi: {', '.join(n for n in names if n in HYMPI_STRATEGIES)})"
                     f"\n{where(run)}", fontsize=9)
    save(fig, out, "patterns.png", "Ghost update of a structured grid and of the cube mesh: time per update, lower "
         "is better\nmedian over samples, bars from the fastest to the slowest sample; flat_mpi and neighbor: "
         "MPI, petsc_sf: PETSc, grey: copy floors")


def apps_sets(runs, paths):
    """(title, {np, results}) from the runs' `apps` records and from bench/scripts/apps_split.py files."""
    sets = [(where(run), rec) for _, run in runs for rec in records(run, "apps")]
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        sets.append((f"{os.path.basename(path)}, {data['np']} ranks", data))
    return sets


def plot_apps(sets, out):
    """Per app, grouped by strategy: ghost update and reductions (µs per iteration, log) and
    the communication share of the iteration (%); medians over launches or rounds."""
    fig, axes = plt.subplots(len(sets), 2, figsize=(14, 4.6 * len(sets) + 0.8), squeeze=False, layout="constrained")
    for row, (title, data) in enumerate(sets):
        apps = list(data["results"])
        strategies = list(next(iter(data["results"].values())))
        width = 0.8 / len(strategies)
        median = lambda runs, key: sorted(r[key] for r in runs)[len(runs) // 2]  # noqa: E731
        for k, strategy in enumerate(strategies):
            x = [a + k * width for a in range(len(apps))]
            runs = [data["results"][app][strategy] for app in apps]
            color = COLORS.get(strategy.split()[0])
            axes[row][0].bar(x, [median(r, "ghost_us") for r in runs], width, label=f"{strategy}: ghost update",
                             color=color)
            axes[row][0].scatter(x, [median(r, "reduce_us") for r in runs], marker="_", s=200, color="black",
                                 label="reductions" if k == 0 else None)
            axes[row][1].bar(x, [median(r, "share_percent") for r in runs], width, label=strategy, color=color)
        for ax in axes[row]:
            ax.set_xticks([a + 0.4 - width / 2 for a in range(len(apps))], apps)
            ax.legend(fontsize=7)
        axes[row][0].set_yscale("log")
        axes[row][0].set_ylabel("µs per iteration")
        axes[row][0].set_title(f"ghost update (bars), reductions (marks)\n{title}", fontsize=9)
        axes[row][1].set_ylabel("% of the iteration")
        axes[row][1].set_title(f"communication share: (ghost + reductions) / iteration\n{title}", fontsize=9)
    save(fig, out, "apps.png", "Applications per ghost-update strategy (flat_mpi: plain MPI): time per iteration in "
         "communication, lower is better\nmedian over rounds or launches; left µs (log scale), right % of the "
         "iteration")


BRIEF = {"barrier": None, "allreduce": {8, 4096, 1048576}, "halo-contiguous": {4096, 262144},
         "halo-gathered": {4096}, "halo-mesh": None, "halo-grid": None}


def apps_rows(label, rec):
    """Communication share of each app's iteration, shm / flat_mpi, median over rounds."""
    rows = []
    for app, by_strategy in rec["results"].items():
        pairs = zip(by_strategy.get("shm", []), by_strategy.get("flat_mpi", []))
        ratios = sorted(a["share_percent"] / b["share_percent"] for a, b in pairs if b["share_percent"] > 0)
        if ratios:
            rows.append(f"| {label} | apps: {app} communication share | | shm | flat_mpi | "
                        f"{ratios[len(ratios) // 2]:.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f}, rounds) |")
    return rows


def summary(runs, brief=False):
    """Markdown rows: every ratio_to_* (but hympi's variants'), median of interleaved pairs,
    and every comm_ratio_to_* (ratio of the communication parts, medians minus write_read's);
    "(cached)" marks records of cache-resident data (brief: hympi's default variants against
    the peers on the sizes of BRIEF)."""
    lines = ["| MPI | benchmark | size (B) | hympi | peer | hympi / peer (median, 25-75 %) |", "|---|---|---|---|---|---|"]
    for label, run in runs:
        for rec in run["benchmarks"]:
            if rec["benchmark"] == "apps":
                lines += apps_rows(label, rec)
                continue
            bench = rec["benchmark"] + (" (cached)" if rec.get("data") == "cached" else "")
            for r in rec.get("results", []):
                if "implementation" not in r or not r.get("valid", True):
                    continue
                mine = r["implementation"]
                if mine.startswith("hympi-"):
                    continue  # variants are in the JSON
                for key, ratio in r.items():
                    if key.startswith("ratio_to_"):
                        peer = key[len("ratio_to_"):]
                        if peer in OLD_FLOORS or (brief and peer in FLOORS):
                            continue
                        cell = f"{ratio['median']:.2f} ({ratio['q25']:.2f}-{ratio['q75']:.2f})"
                    elif key.startswith("comm_ratio_to_") and not brief:
                        peer = key[len("comm_ratio_to_"):] + ", communication parts"
                        cell = f"{ratio:.2f}"
                    else:
                        continue
                    if brief and (rec["benchmark"] not in BRIEF or mine not in ("hympi", "shm")
                                  or (BRIEF[rec["benchmark"]] and rec.get("bytes") not in BRIEF[rec["benchmark"]])):
                        continue
                    lines.append(f"| {label} | {bench} | {rec.get('bytes', '')} | {mine} | {peer} | {cell} |")
    return "\n".join(lines) + "\n"


# --headline: hympi's default implementations, and the peers (not floors, not hympi's variants).
HEADLINE_MINE = ("hympi", "shm", "shm_direct", "aggregated", "sf_hympi", "context")
NOT_PEERS = set(FLOORS + OLD_FLOORS + HYMPI_STRATEGIES) | {"cma_copy", "shm-two_copies", "halo_shm", "pattern"}


def size_text(n):
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    if n >= 1 << 10 and n % (1 << 10) == 0:
        return f"{n >> 10} KiB"
    return f"{n} B"


def case_text(rec):
    """What one record measured: the size per neighbour or per call, or the grid / mesh / solve."""
    if rec["benchmark"] == "petsc-ksp":
        return f"CG on a {rec.get('points')}^3 DMDA, per iteration"
    parts = []
    if "grid" in rec:
        grid = "x".join(str(g) for g in rec["grid"])
        parts.append(f"grid {grid} {rec['stencil']}" if "stencil" in rec else f"grid {grid}")
    if "mesh_size" in rec:
        parts.append(f"mesh {rec['mesh_size']}, chunk {rec.get('chunk', 1)}")
    elif "mesh" in rec:  # a partition saved by hympi-mesh partition: its description
        parts.append(f"{rec['mesh']}, chunk {rec.get('chunk', 1)}")
    if "bytes" in rec and not parts:  # a grid's or mesh's "bytes" is the rank's vector, not a message
        parts.append(size_text(rec["bytes"]))
    return ", ".join(parts)


def machine_line(run):
    m = run.get("machine", {})
    line = f"{m.get('mpi', '?')}, {m.get('ranks', '?')} ranks on {m.get('nodes', '?')} node(s), {m.get('cpu', '?')}"
    if m.get("online_cpus"):
        line += f" ({m['online_cpus']} online CPUs)"
    for flag in ("emulated_nodes", "oversubscribed"):
        if m.get(flag):
            line += f", {flag.replace('_', ' ')}"
    if m.get("petsc"):
        line += f", {m['petsc']}"
    return line


def headline(label, run):
    """Markdown: per benchmark kind (and data / cache mode) one table, rows (case, hympi
    implementation), columns the peers, cells median (q25-q75) of hympi / peer."""
    tables = {}  # title -> (peers in order of appearance, rows)
    for rec in run["benchmarks"]:
        title = rec["benchmark"]
        modes = [m for m in (rec.get("data") == "cached" and "cached data",
                             rec.get("cache") == "off-cache" and "off cache") if m]
        if modes:
            title += f" ({', '.join(modes)})"
        for r in rec.get("results", []) if isinstance(rec.get("results"), list) else []:
            if not isinstance(r, dict) or r.get("implementation") not in HEADLINE_MINE or not r.get("valid", True):
                continue
            cells = {}
            for key, ratio in r.items():
                for prefix, suffix in (("ratio_to_", ""), ("solve_ratio_to_", ", whole solve")):
                    if key.startswith(prefix) and isinstance(ratio, dict) and "median" in ratio:
                        peer = key[len(prefix):]
                        if peer not in NOT_PEERS and not peer.startswith("hympi"):
                            cells[peer + suffix] = f"{ratio['median']:.2f} ({ratio['q25']:.2f}-{ratio['q75']:.2f})"
            if cells:
                peers, rows = tables.setdefault(title, ([], []))
                peers += [p for p in cells if p not in peers]
                rows.append((case_text(rec), r["implementation"], cells))
    lines = [f"## hympi against each peer: {label}", "", f"Machine: {machine_line(run)}.", "",
             "hympi / peer, median of this launch's interleaved pairs (25-75 %); < 1: hympi faster.", ""]
    for title, (peers, rows) in tables.items():
        lines += [f"### {title}", "", "| case | hympi | " + " | ".join(f"/ {p}" for p in peers) + " |",
                  "|---|---|" + "---|" * len(peers)]
        for case, mine, cells in rows:
            lines.append(f"| {case} | {mine} | " + " | ".join(cells.get(p, "") for p in peers) + " |")
        lines.append("")
    if not tables:
        lines.append("(no record of this run compares hympi with a peer)")
    return "\n".join(lines) + "\n"


# --verdict (and the end of --brief): per run, five lines. Each case is one record of a kind
# below, hympi's default implementation against the way a program does it without hympi.
VERDICT_PAIRS = {"barrier": ("hympi", "MPI_Barrier"), "allreduce": ("hympi", "MPI_Allreduce"),
                 "bcast": ("hympi", "MPI_Bcast"), "reduce": ("hympi", "MPI_Reduce"),
                 "halo-contiguous": ("shm", "flat_mpi"), "halo-gathered": ("shm", "flat_mpi"),
                 "halo-grid": ("shm", "flat_mpi"), "halo-mesh": ("shm", "flat_mpi"),
                 "petsc-ring": ("sf_hympi", "sf_basic"), "petsc-grid": ("sf_hympi", "sf_basic"),
                 "petsc-mesh": ("sf_hympi", "sf_basic"), "petsc-ksp": ("sf_hympi", "sf_basic")}
VERDICT_NAMES = {"halo-contiguous": "ghost update", "halo-gathered": "ghost update", "halo-grid": "ghost update",
                 "halo-mesh": "ghost update", "petsc-ring": "VecScatter", "petsc-grid": "VecScatter",
                 "petsc-mesh": "VecScatter", "petsc-ksp": "VecScatter in CG on a"}
VERDICT_PEERS = (("MPI_", "MPI's own collective"), ("flat_mpi", "flat MPI Isend/Irecv ghost update"),
                 ("sf_basic", "PETSc's basic PetscSF"))


def median_of(values):
    values = sorted(values)
    half = len(values) // 2
    return values[half] if len(values) % 2 else (values[half - 1] + values[half]) / 2


def verdict_cases(run):
    """[(case, peer, ratio)]: hympi's time / the peer's, median of interleaved pairs and its 25-75 %."""
    cases = []
    for rec in run["benchmarks"]:
        pair = VERDICT_PAIRS.get(rec["benchmark"])
        results = rec.get("results") if isinstance(rec.get("results"), list) else []
        for r in results:
            if not pair or r.get("implementation") != pair[0] or not r.get("valid", True):
                continue
            ratio = r.get(f"ratio_to_{pair[1]}")
            if not isinstance(ratio, dict):
                continue
            what = {"barrier": "", "halo-gathered": case_text(rec) + " gathered",
                    "petsc-ksp": f"{rec.get('points')}^3 DMDA"}.get(rec["benchmark"], case_text(rec))
            modes = [m for m in (rec.get("data") == "cached" and "cached data",
                                 rec.get("cache") == "off-cache" and "off cache") if m]
            name = " ".join(x for x in (VERDICT_NAMES.get(rec["benchmark"], rec["benchmark"]), what) if x)
            cases.append((name + (f" ({', '.join(modes)})" if modes else ""), pair[1], ratio))
    return cases


def verdict_apps(run):
    """Per app of the run's `apps` records (shm against flat_mpi, rounds paired as interleaved):
    (app, flat_mpi's and shm's communication share in %, the communication saved in % of
    flat_mpi's iteration, shm's iteration time / flat_mpi's per round)."""
    rows = []
    for rec in records(run, "apps"):
        for app, by_strategy in rec["results"].items():
            shm, flat = by_strategy.get("shm", []), by_strategy.get("flat_mpi", [])
            if not shm or not flat:
                continue
            comm = lambda r: r["ghost_us"] + r["reduce_us"]  # noqa: E731
            whole = lambda r: r["compute_us"] + comm(r)  # noqa: E731
            saved = (median_of(map(comm, flat)) - median_of(map(comm, shm))) / median_of(map(whole, flat))
            rows.append((app, median_of(r["share_percent"] for r in flat), median_of(r["share_percent"] for r in shm),
                         100 * saved, [whole(a) / whole(b) for a, b in zip(shm, flat)]))
    return rows


def ratio_word(lowest, highest):
    """faster / slower / tie, from a range of ratios (a tie: 1 lies within it)."""
    return "faster" if highest < 1 else "slower" if lowest > 1 else "tie"


def listed(items, most):
    return ", ".join(items[:most]) + (f" and {len(items) - most} more" if len(items) > most else "")


def verdict(run):
    """Five lines: the machine and what was compared; where hympi was faster and by how much;
    where it was slower or tied; the applications; what that means for an application."""
    cases = verdict_cases(run)
    groups = {"faster": [], "slower": [], "tie": []}
    for name, _, ratio in cases:
        groups[ratio_word(ratio["q25"], ratio["q75"])].append((ratio["median"], name))
    faster, slower, tie = sorted(groups["faster"]), sorted(groups["slower"], reverse=True), groups["tie"]
    peers = [text for prefix, text in VERDICT_PEERS if any(peer.startswith(prefix) for _, peer, _ in cases)]
    lines = [f"{machine_line(run)}: one launch, {len(cases)} cases of hympi's time / the peer's "
             f"({', '.join(peers) or 'none'}), median of interleaved pairs; a tie where 1 lies within the "
             "pairs' 25-75 % range"]
    if faster:
        lines.append(f"  faster in {len(faster)} of {len(cases)}: median {median_of(m for m, _ in faster):.2f}x, "
                     f"from {faster[0][0]:.2f}x ({faster[0][1]}) to {faster[-1][0]:.2f}x ({faster[-1][1]})")
    else:
        lines.append(f"  faster in none of {len(cases)}" + ("" if cases else ": no record compares hympi with a peer"))
    slower_text = ": " + listed([f"{n} {m:.2f}x" for m, n in slower], 4) if slower else ""
    tie_text = ": " + listed([f"{n} {m:.2f}x" for m, n in tie], 3) if tie else ""
    lines.append(f"  slower in {len(slower)}{slower_text}; tie in {len(tie)}{tie_text}")
    apps = verdict_apps(run)
    solve = [r["solve_ratio_to_sf_basic"] for rec in records(run, "petsc-ksp") for r in rec["results"]
             if r.get("implementation") == "sf_hympi" and isinstance(r.get("solve_ratio_to_sf_basic"), dict)]
    parts = []
    for app, flat_share, shm_share, _, per_round in apps:
        spread = f" (rounds {min(per_round):.2f}-{max(per_round):.2f}: {ratio_word(min(per_round), max(per_round))})" \
            if len(per_round) > 1 else " (one round)"
        parts.append(f"{app} {flat_share:.1f}% -> {shm_share:.1f}%, iteration {median_of(per_round):.2f}x{spread}")
    line = ("  applications, shm against flat_mpi, communication share of the iteration: " + "; ".join(parts)
            if apps else "  applications: none in this run (hympi-bench apps times them)")
    if solve:
        line += f"; PETSc CG solve {solve[0]['median']:.2f}x of basic's per iteration " \
            f"({ratio_word(solve[0]['q25'], solve[0]['q75'])})"
    lines.append(line)
    if apps:
        least, most = min(apps, key=lambda a: a[3]), max(apps, key=lambda a: a[3])
        if least[3] >= 0:
            saved = f"it saved {least[3]:.1f}-{most[3]:.1f} % of the iteration ({least[0]} least, {most[0]} most)"
        elif most[3] < 0:
            saved = f"it added {-most[3]:.1f}-{-least[3]:.1f} % to the iteration ({most[0]} least, {least[0]} most)"
        else:
            saved = f"it saved up to {most[3]:.1f} % of the iteration ({most[0]}) and added up to {-least[3]:.1f} % " \
                f"({least[0]})"
        judged = {app: ratio_word(min(r), max(r)) for app, _, _, _, r in apps if len(r) > 1}
        if judged and set(judged.values()) == {"tie"}:
            measured = "; the iteration times measured are ties, their rounds differ by more than that"
        else:
            measured = "".join(f"; iteration {word} in {', '.join(a for a, w in judged.items() if w == word)}"
                               for word in ("faster", "slower") if word in judged.values())
        shares = sorted(a[1] for a in apps)
        lines.append(f"  for an application: hympi shortens only its communication, here {shares[0]:.1f}-"
                     f"{shares[-1]:.1f} % of an iteration with flat MPI: {saved}{measured}; a code gains at most "
                     "its communication share times (1 - the ratios above)")
    else:
        lines.append("  for an application: hympi shortens only the time spent in these calls, by (1 - ratio) of it; "
                     "a code gains that times the calls' share of its run time, which this run did not measure")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="hympi-bench --json files")
    ap.add_argument("--apps", nargs="*", default=[], help="bench/scripts/apps_split.py --json files")
    ap.add_argument("--out", default="bench-results/report")
    ap.add_argument("--brief", action="store_true", help="print only the headline ratios (summary.md has all)")
    ap.add_argument("--headline", action="store_true",
                    help="print the headline tables (hympi against each peer) per run; no plots, no files")
    ap.add_argument("--verdict", action="store_true",
                    help="print the five-line verdict per run (the end of --brief); no plots, no files")
    args = ap.parse_args()
    runs = load(args.runs)
    if args.headline:
        print("\n".join(headline(label, run) for label, run in runs), end="")
        return
    if args.verdict:
        print("\n".join(verdict(run) for _, run in runs), end="")
        return
    global plt
    plt = pyplot()
    os.makedirs(args.out, exist_ok=True)
    written = []
    if any(records(r, "barrier") or records(r, "allreduce") for _, r in runs):
        plot_collectives(runs, args.out)
        written.append("collectives.png")
    if any(records(r, "dot") for _, r in runs):
        plot_dot(runs, args.out)
        written.append("dot.png")
    if any(records(r, "halo-contiguous") for _, r in runs):
        plot_halo(runs, args.out)
        written += ["halo.png", "speedup.png"]
    if any(records(r, "halo-grid") or records(r, "halo-mesh") for _, r in runs):
        plot_patterns(runs, args.out)
        written.append("patterns.png")
    sets = apps_sets(runs, args.apps)
    if sets:
        plot_apps(sets, args.out)
        written.append("apps.png")
    with open(os.path.join(args.out, "summary.md"), "w") as f:
        f.write(summary(runs))
    written.append("summary.md")
    print(summary(runs, args.brief))
    print("report: wrote " + ", ".join(os.path.join(args.out, w) for w in written))
    if args.brief:
        print("\nVerdict per MPI (< 1: hympi faster):\n" + "\n".join(verdict(run) for _, run in runs), end="")


if __name__ == "__main__":
    main()
