#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs PETSc's own tests (the examples of PETSc's source tree with their /*TEST*/ blocks,
built by tests/suites/petsc/build.sh) plainly and through hympi, and tables what matched.

Each test of the chosen folders' examples that was built, whose requirements this PETSc
meets, runs under the launcher with its rank count and each combination of its arguments'
{{...}} loops, plainly and once per other mode (--modes):
  plain     the program alone
  sf        every PetscSF that takes its type from the options is of type hympi, moving
            through hympi from its first broadcast (the plugin from -dll_append)
  served    libhympi_pmpi preloaded, every call it can serve served from the first
A mode matches ("same") when it exits as the plain run did and prints what the plain run
printed (stdout; in mode sf the type's name is read as basic and the view's hympi line is
left out); "close" and "known" are explained at verdict(). The exit status is 1 when a
test that ran plainly (exit 0) did not match in another mode, or when no test ran, else 0;
the table (Markdown) goes to stdout and to --table, and each difference's output beside it
(<table>.diffs).

  run.py --petsc SRC --build DIR --launcher 'mpirun.openmpi' --plugin PLUGIN --preload LIB
         [--dirs vec/is/sf/tests,...] [--only ex1,vec/vec/tests/ex2] [--max-ranks N]
         [--modes sf,served] [--timeout S] [--table FILE]
"""
import argparse
import difflib
import itertools
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from runner import Tally, absolute_launcher  # noqa: E402

SERVED = {"HYMPI_PMPI": "all", "HYMPI_PMPI_AFTER": "0", "HYMPI_PMPI_MIN_BYTES": "0",
          "HYMPI_PMPI_MAX_BYTES": "unlimited"}
# The differences of mode sf that are the type's by design (docs/usage.md, "PETSc's own
# tests"): test -> why.
KNOWN = {
    "vec/is/sf/tests/ex14_1": "it prints the MPI messages PETSc logged; hympi's moves inside a node are none",
    "vec/is/sf/tests/ex15_1": "VecScatterRemap, which PETSc allows on the types basic and neighbor only",
}
# How far apart the numbers of a "close" run may be from the plain run's (relative), and
# how many plain runs are made before a difference is believed.
RTOL = 1e-6
PLAIN_RUNS = 6
# Options every mode gets: unused options (the sf mode's, where no SF reads them) are no
# output of the test's.
COMMON = "-options_left no"


def petsc_macros(include):
    """The macros petscconf.h defines (requirements are tested against them)."""
    macros = set()
    for line in open(os.path.join(include, "petscconf.h")):
        m = re.match(r"#define\s+(\w+)", line)
        if m:
            macros.add(m.group(1))
    return macros


def meets(requires, macros):
    """Whether this PETSc meets a test's `requires:` (defined(X), packages, precisions);
    anything not known here counts as not met, so its test is left out."""
    for token in requires.split():
        negated = token.startswith("!")
        token = token.lstrip("!")
        m = re.fullmatch(r"defined\((\w+)\)", token)
        if m:
            have = m.group(1) in macros
        elif token in ("double", "single", "__float128", "__fp16"):
            have = f"PETSC_USE_REAL_{token.strip('_').upper()}" in macros
        elif token == "complex":
            have = "PETSC_USE_COMPLEX" in macros
        elif token == "real":
            have = "PETSC_USE_COMPLEX" not in macros
        elif token in ("datafilespath", "x", "cuda", "hip", "kokkos", "sycl"):
            have = False  # data files, displays and devices this harness does not have
        else:
            have = f"PETSC_HAVE_{token.upper()}" in macros
        if have == negated:
            return False
    return True


def expand(args):
    """Each combination of the {{a b c}} loops left in `args` (separate-output loops were
    split by PETSc's parser already)."""
    loops = re.findall(r"\{\{(.*?)\}(?:[^}]*)\}", args)
    parts = re.split(r"\{\{.*?\}(?:[^}]*)\}", args)
    for values in itertools.product(*[loop.split() for loop in loops]):
        out = parts[0]
        for value, part in zip(values, parts[1:]):
            out += value + part
        yield " ".join(out.split())


def tests_of(petsc, build, folder, only, max_ranks, macros):
    """(label, example, ranks, arguments, environment, output filter) of each run of the
    folder's built examples, in file order."""
    if os.path.join(petsc, "config") not in sys.path:
        sys.path.insert(0, os.path.join(petsc, "config"))
    import testparse  # PETSc's own parser of the TEST blocks, from its source tree
    found = []
    source = os.path.join(petsc, "src", folder)
    for name in sorted(os.listdir(source), key=lambda n: [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", n)]):
        example, ext = os.path.splitext(name)
        if ext != ".c" or (only and example not in only and f"{folder}/{example}" not in only):
            continue
        if not os.access(os.path.join(build, folder, example), os.X_OK):
            continue  # not built here (a package this PETSc lacks)
        try:
            parsed = testparse.parseTestFile(os.path.join(source, name), 0)[name]
        except Exception as e:  # a block this parser version does not read
            print(f"petsc-suite: {folder}/{name}: {e}", file=sys.stderr)
            continue
        if not meets(parsed.get("requires", ""), macros):
            continue
        for key, test in parsed.items():
            if not isinstance(test, dict) or "TODO" in test or "SKIP" in test or "command" in test:
                continue
            if not meets(test.get("requires", ""), macros):
                continue
            env = dict(e.split("=", 1) for e in shlex.split(test.get("env", "")) if "=" in e)
            for nsize in expand(test.get("nsize", "1")):
                ranks = int(nsize)
                if ranks > max_ranks:
                    continue
                for args in expand(test.get("args", "")):
                    label = f"{folder}/{key[3:]} {args}".strip()
                    found.append((label, example, ranks, args, env, test.get("filter", "")))
    return found


def normalize(mode, text):
    """What the plain run's output should be, from a mode's: the sf mode's views name
    another type."""
    if mode != "sf":
        return text
    lines = [re.sub(r"\btype(:?) hympi\b", r"type\1 basic", line) for line in text.splitlines(keepends=True)]
    return "".join(line for line in lines if not re.match(r"\s*hympi strategy ", line))


def run_one(petsc, build, folder, test, launcher, mode, o):
    """(exit code or 'TIME', stdout after the test's filter)."""
    label, example, ranks, args, env, filt = test
    options = COMMON
    command = shlex.split(launcher) + ["-n", str(ranks), "env"]
    command += [f"{k}={v}" for k, v in env.items()]
    if mode == "sf":
        options += f" -dll_append {o.plugin} -sf_type hympi -sf_hympi_after 0"
    if mode == "served":
        command += [f"LD_PRELOAD={o.preload}"] + [f"{k}={v}" for k, v in SERVED.items()]
    command += [f"PETSC_OPTIONS={options}", os.path.join(build, folder, example)] + shlex.split(args)
    try:
        done = subprocess.run(command, cwd=os.path.join(petsc, "src", folder), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=o.timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "TIME", ""
    out = done.stdout
    if filt:
        out = subprocess.run(filt, shell=True, input=out, stdout=subprocess.PIPE, text=True,
                             errors="replace", cwd=os.path.join(petsc, "src", folder)).stdout
    return done.returncode, out + ("" if done.returncode == 0 else done.stderr[-2000:])


def last_place(token):
    """The value of one unit in the last printed digit of a number (6.0726e-05: 1e-09)."""
    m = re.fullmatch(r"[-+]?\d*(?:\.(\d*))?(?:[eE]([-+]?\d+))?", token)
    return 10.0 ** (int(m.group(2) or 0) - len(m.group(1) or "")) if m else 0.0


def close(a, b):
    """Whether two outputs differ only in floating-point numbers, each within RTOL of the
    other or one unit in its last printed digit (a rounding that flips the last digit of a short print,
    -ksp_monitor_short's 6.0726e-05 against 6.07259e-05)."""
    ta, tb = a.split(), b.split()
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        x, y = x.rstrip(",;"), y.rstrip(",;")
        if not re.search(r"[.eE]", x + y):
            return False  # integers (iteration counts, sizes) are equal or not
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if abs(fx - fy) > RTOL * max(abs(fx), abs(fy)) + max(last_place(x), last_place(y)):
            return False
    return True


def verdict(mode, label, outcome, plains, rerun):
    """'same' when a mode's run exits and prints as a plain run did; 'close' when it differs
    from one only in floating-point numbers, within RTOL or the last printed digit (the
    served mode's sums may add in another order than MPI's: docs/pmpi.md, "Semantics"; and
    PETSc's matrix assembly adds values in their order of arrival, which timing changes
    plainly too: its KSP residuals then move in their last digits). The plain run is
    repeated, up to PLAIN_RUNS runs, before a difference is believed; when those runs print
    differently beyond that themselves, the test cannot judge: 'varies'. 'known' for a
    KNOWN difference of mode sf; else 'DIFF' or 'TIME'."""
    code, out = outcome[0], normalize(mode, outcome[1])
    if code == "TIME":
        return "TIME"
    if mode == "sf" and label in KNOWN:
        return "same" if (code, out) == plains[0] else "known"
    while True:
        if any((code, out) == plain for plain in plains):
            return "same"
        if any(code == c and close(out, text) for c, text in plains):
            return "close"
        if len(plains) >= PLAIN_RUNS:
            return "varies" if len({text for _, text in plains}) > 1 else "DIFF"
        plains.append(rerun())


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--petsc", required=True, help="PETSc's source tree (petsc-3.18.5)")
    p.add_argument("--build", required=True, help="where build.sh put the examples")
    p.add_argument("--launcher", required=True, help="the launcher and its options, before -n")
    p.add_argument("--plugin", required=True, help="libhympi_petsc_plugin.so")
    p.add_argument("--preload", required=True, help="libhympi_pmpi.so")
    p.add_argument("--include", default="", help="PETSc's include folder (default: pkg-config's)")
    p.add_argument("--dirs", default="vec/is/sf/tests,vec/is/sf/tutorials")
    p.add_argument("--only", default="", help="comma-separated examples (ex1: in every folder; vec/vec/tests/ex2: in one)")
    p.add_argument("--modes", default="sf,served", help="the modes beside plain, which always runs")
    p.add_argument("--max-ranks", type=int, default=1 << 30, help="leave out tests of more ranks")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--table", help="write the table here too")
    o = p.parse_args()
    o.plugin, o.preload = os.path.abspath(o.plugin), os.path.abspath(o.preload)
    o.petsc, o.build, o.launcher = os.path.abspath(o.petsc), os.path.abspath(o.build), absolute_launcher(o.launcher)
    include = o.include or subprocess.run(["pkg-config", "--variable=includedir", "PETSc"],
                                          stdout=subprocess.PIPE, text=True).stdout.strip()
    macros = petsc_macros(include)
    modes = ["plain"] + [m for m in o.modes.split(",") if m != "plain"]
    only = set(filter(None, o.only.split(",")))
    tally = Tally("petsc-suite", modes, {"pass", "same", "close", "known", "varies"},
                  ("matched", "ran plainly, differed through hympi"))
    diffs = []
    for folder in o.dirs.split(","):
        for test in tests_of(o.petsc, o.build, folder, only, o.max_ranks, macros):
            run = lambda m: run_one(o.petsc, o.build, folder, test, o.launcher, m, o)  # noqa: E731
            plains = [run("plain")]
            code = plains[0][0]
            results = {"plain": "pass" if code == 0 else ("TIME" if code == "TIME" else f"exit {code}")}
            for m in modes[1:]:
                outcome = run(m)
                results[m] = verdict(m, test[0], outcome, plains, lambda: run("plain"))
                if results[m] in ("DIFF", "known", "varies"):
                    diffs.append(f"== {test[0]} np {test[2]}: {m} (exit {outcome[0]}) against plain (exit {code})\n" +
                                 "".join(difflib.unified_diff(plains[0][1].splitlines(True),
                                                              normalize(m, outcome[1]).splitlines(True), "plain", m, n=2)))
            tally.add(test[0], test[2], results)
    notes = []
    known = [f"{label} ({KNOWN[label]})" for label, _, r in tally.rows if "known" in r.values()]
    if known:
        notes.append("known differences: " + "; ".join(known))
    inexact = [label for label, _, r in tally.rows if "close" in r.values()]
    if inexact:
        notes.append(f"matched within {RTOL:g} or the last printed digit: " + ", ".join(inexact))
    varies = [label for label, _, r in tally.rows if "varies" in r.values()]
    if varies:
        notes.append(f"not judged, their {PLAIN_RUNS} plain runs printing differently: " + ", ".join(varies))
    if o.table:
        open(o.table + ".diffs", "w").write("\n".join(diffs))
    return tally.report(o.table, notes)


if __name__ == "__main__":
    sys.exit(main())
