#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""bench/scripts/report.py on the stored samples (a quick hympi-bench run, an apps_split run):
--headline prints the headline tables (hympi against each peer) from the run with
the standard library alone (matplotlib blocked), one table per benchmark that compares hympi
with a peer, every ratio as the JSON has it and no floor or hympi variant among them;
--verdict prints five lines per run, also with the standard library alone, whose counts and
figures are those read off the samples by hand (the run alone, with the apps_split results
as the run's apps record, and with one ratio's range moved over 1, which must turn a slower
case into a tie); then the report writes every plot as a PNG, each with a title that says
which way is better and axes titles that name the run's MPI and ranks, and the summary
table, and --brief ends with the verdict. Exits non-zero otherwise."""
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


def run_verdict(path):
    blocked = ("import runpy, sys; sys.modules['matplotlib'] = None; "
               f"sys.argv = [{REPORT!r}, '--verdict', {path!r}]; runpy.run_path({REPORT!r}, run_name='__main__')")
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("report.py --verdict failed:\n" + result.stdout + result.stderr)
    lines = result.stdout.splitlines()
    if len(lines) != 5:
        sys.exit(f"verdict of {os.path.basename(path)}: {len(lines)} lines, expected 5:\n{result.stdout}")
    return lines


def expect(lines, number, wanted, exact=True):
    got = lines[number - 1]
    if (got != wanted) if exact else (wanted not in got):
        sys.exit(f"verdict line {number}: {got!r}\n{'expected' if exact else 'lacks'} {wanted!r}")


def check_verdict(tmp):
    """The verdict's counts and figures, read off the samples by hand."""
    lines = run_verdict(SAMPLE)
    # 13 cases: barrier, allreduce at 7 sizes, ghost update contiguous and gathered at 2 sizes, the grid.
    expect(lines, 1, "Open MPI v4.1.4, 2 ranks on 1 node(s), AMD EPYC (2 online CPUs), PETSc 3.18.5 PetscSF type "
           "basic: one launch, 13 cases of hympi's time / the peer's (MPI's own collective, flat MPI Isend/Irecv "
           "ghost update), median of interleaved pairs; a tie where 1 lies within the pairs' 25-75 % range")
    expect(lines, 2, "  faster in 12 of 13: median 0.70x, from 0.23x (ghost update 4 KiB) to 0.81x (allreduce 4 KiB)")
    expect(lines, 3, "  slower in 1: allreduce 1 MiB 1.07x; tie in 0")  # 1.07 (1.06-1.09)
    expect(lines, 4, "  applications: none in this run (hympi-bench apps times them)")
    expect(lines, 5, "which this run did not measure", exact=False)

    with open(SAMPLE) as f:
        run = json.load(f)
    with open(os.path.join(HERE, "sample-apps.json")) as f:
        run["benchmarks"].append({"benchmark": "apps", **json.load(f)})  # as hympi-bench all records them
    with_apps = os.path.join(tmp, "with-apps.json")
    with open(with_apps, "w") as f:
        json.dump(run, f)
    lines = run_verdict(with_apps)
    expect(lines, 2, "  faster in 12 of 13: median 0.70x, from 0.23x (ghost update 4 KiB) to 0.81x (allreduce 4 KiB)")
    # Communication share flat_mpi -> shm (medians of 3 rounds), iteration time shm / flat_mpi per round.
    expect(lines, 4, "  applications, shm against flat_mpi, communication share of the iteration: "
           "cg 2.4% -> 1.4%, iteration 1.00x (rounds 0.76-1.03: tie); "
           "jacobi3d 1.8% -> 0.6%, iteration 0.93x (rounds 0.92-1.08: tie); "
           "jacobi2d 1.2% -> 0.2%, iteration 0.98x (rounds 0.77-1.09: tie); "
           "laplace19 1.3% -> 0.3%, iteration 0.96x (rounds 0.68-1.04: tie)")
    # Saved: (median communication of flat_mpi - of shm) / flat_mpi's median iteration: laplace19
    # (63.61 - 16.66) / 5179.86 = 0.91 %, jacobi3d (76.01 - 23.80) / 4251.03 = 1.23 %.
    expect(lines, 5, "  for an application: hympi shortens only its communication, here 1.2-2.4 % of an iteration "
           "with flat MPI: it saved 0.9-1.2 % of the iteration (laplace19 least, jacobi3d most); the iteration times "
           "measured are ties, their rounds differ by more than that; a code gains at most its communication share "
           "times (1 - the ratios above)")

    # A range over 1 is a tie, whatever the median: allreduce 1 MiB's 25 % moved below 1.
    for rec in run["benchmarks"]:
        if rec["benchmark"] == "allreduce" and rec["bytes"] == 1048576:
            rec["results"][0]["ratio_to_MPI_Allreduce"]["q25"] = 0.99
    planted = os.path.join(tmp, "tie.json")
    with open(planted, "w") as f:
        json.dump(run, f)
    expect(run_verdict(planted), 3, "  slower in 0; tie in 1: allreduce 1 MiB 1.07x")
    return run_verdict(SAMPLE)


TITLES = """
import json, runpy, sys
import matplotlib
matplotlib.use("Agg")
from matplotlib.figure import Figure
titles, save = {}, Figure.savefig
def recording(fig, path, *args, **kwargs):
    titles[path.rsplit("/", 1)[-1]] = [fig._suptitle.get_text() if fig._suptitle else "",
                                       [ax.get_title() for ax in fig.axes]]
    return save(fig, path, *args, **kwargs)
Figure.savefig = recording
out, sys.argv = sys.argv[1], sys.argv[2:]
runpy.run_path(sys.argv[0], run_name="__main__")
with open(out, "w") as f:
    json.dump(titles, f)
"""


cells = check_headline()

with tempfile.TemporaryDirectory() as out:
    verdict = check_verdict(out)
    titles_file = os.path.join(out, "titles.json")
    result = subprocess.run([sys.executable, "-c", TITLES, titles_file, REPORT, SAMPLE, "--apps",
                             os.path.join(HERE, "sample-apps.json"), "--out", out, "--brief"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("report.py failed:\n" + result.stdout + result.stderr)
    with open(titles_file) as f:
        titles = json.load(f)
    for name in ("collectives.png", "dot.png", "halo.png", "speedup.png", "patterns.png", "apps.png"):
        path = os.path.join(out, name)
        with open(path, "rb") as f:
            head = f.read(8)
        if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(path) < 10000:
            sys.exit(f"{name}: not a plot ({os.path.getsize(path)} bytes)")
        title, panels = titles.get(name, ["", []])
        if not any(way in title for way in ("lower is better", "higher is better", "above 1: faster")):
            sys.exit(f"{name}: the title does not say which way is better: {title!r}")
        # Every panel names the run (its MPI and ranks) but the apps_split file's, which names its file.
        runs = ("Open MPI v4.1.4, 2 ranks on 1 node(s), AMD EPYC", "sample-apps.json, 2 ranks")
        for panel in panels:
            if not any(run in panel for run in runs):
                sys.exit(f"{name}: a panel's title names no run: {panel!r}")
    table = open(os.path.join(out, "summary.md")).read()
    for needed in ("| barrier |", "| allreduce |", "MPI_Barrier", "MPI_Allreduce", "| halo-contiguous |", "flat_mpi"):
        if needed not in table:
            sys.exit(f"summary.md lacks {needed}")
    if "| barrier |" not in result.stdout:
        sys.exit("the brief table was not printed")
    if result.stdout.splitlines()[-5:] != verdict:
        sys.exit("--brief does not end with the verdict:\n" + "\n".join(result.stdout.splitlines()[-7:]))
print(f"report: the headline ({cells} ratios as in the JSON), the verdict (3 runs), 6 plots with titles and the "
      "summary table written")
