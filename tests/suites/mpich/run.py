#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Runs MPICH's MPI test suite (built by tests/suites/mpich/build.sh) plainly and under
libhympi_pmpi, and tables what passed each way.

Each test of the chosen directories' testlists whose program was built runs under the
launcher with its rank count and arguments, once per mode:
  plain     the program alone
  served    libhympi_pmpi preloaded, every call it can serve served from the first
            (HYMPI_PMPI=all, HYMPI_PMPI_AFTER=0, no size bounds)
  defaults  libhympi_pmpi preloaded with its default settings
A test passes when it exits 0 and prints MPICH's "No Errors". The exit status is 1 when a
test that passed plainly failed in a preloaded mode (the library broke a correct program)
or when no test ran, else 0; the table (Markdown) goes to stdout and to --table.

  run.py --suite DIR --launcher 'mpirun.openmpi --oversubscribe' --preload LIB
         [--dirs coll,comm] [--only NAME,NAME] [--max-ranks N]
         [--modes plain,served,defaults] [--timeout S] [--table FILE]
"""
import argparse
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from runner import Tally, absolute_launcher  # noqa: E402

MODES = {
    "plain": None,
    "served": {"HYMPI_PMPI": "all", "HYMPI_PMPI_AFTER": "0", "HYMPI_PMPI_MIN_BYTES": "0",
               "HYMPI_PMPI_MAX_BYTES": "unlimited"},
    "defaults": {},
}


def testlist(folder):
    """The folder's testlist: made by configure where the source has a testlist.in, else the
    source folder's (the srcdir of its Makefile); None when neither is there."""
    if os.path.exists(os.path.join(folder, "testlist")):
        return os.path.join(folder, "testlist")
    try:
        for line in open(os.path.join(folder, "Makefile")):
            if line.startswith("srcdir = "):
                source = os.path.join(folder, line.split("=", 1)[1].strip(), "testlist")
                return source if os.path.exists(source) else None
    except OSError:
        pass
    return None


def tests_of(suite, directory, only, max_ranks):
    """(name, ranks, arguments, environment) of each built test of a testlist, in its order."""
    path = testlist(os.path.join(suite, directory))
    if not path:
        print(f"mpich-suite: {directory}: no testlist (not configured?)", file=sys.stderr)
        return []
    found = []
    for line in open(path):
        fields = line.split()
        if not fields or fields[0].startswith("#") or len(fields) < 2 or not fields[1].isdigit():
            continue
        name, ranks = fields[0], int(fields[1])
        if (only and name not in only) or ranks > max_ranks:
            continue
        if not os.access(os.path.join(suite, directory, name), os.X_OK):
            continue  # not built against this MPI (an MPI-4 call it lacks, say)
        args, env = [], {}
        for option in fields[2:]:
            key, _, value = option.partition("=")
            if key == "arg":
                args.append(value)
            elif key == "env":
                k, _, v = value.partition("=")
                env[k] = v
        found.append((name, ranks, args, env))
    return found


def run_one(suite, directory, test, launcher, preload, mode, timeout):
    """'pass', 'FAIL' or 'TIME'."""
    name, ranks, args, env = test
    command = shlex.split(launcher) + ["-n", str(ranks), "env"]
    command += [f"{k}={v}" for k, v in env.items()]
    if MODES[mode] is not None:
        command += [f"LD_PRELOAD={preload}"] + [f"{k}={v}" for k, v in MODES[mode].items()]
    command += ["./" + name] + args
    try:
        done = subprocess.run(command, cwd=os.path.join(suite, directory), stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, timeout=timeout, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return "TIME"
    passed = done.returncode == 0 and re.search(r"No Errors", done.stdout)
    return "pass" if passed else "FAIL"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--suite", required=True, help="the configured and built test/mpi folder")
    p.add_argument("--launcher", required=True, help="the launcher and its options, before -n")
    p.add_argument("--preload", required=True, help="libhympi_pmpi.so")
    p.add_argument("--dirs", default="coll,comm,topo,init,pt2pt,rma,attr")
    p.add_argument("--only", default="", help="comma-separated test names (default: every built one)")
    p.add_argument("--modes", default="plain,served,defaults")
    p.add_argument("--max-ranks", type=int, default=1 << 30, help="leave out tests of more ranks")
    p.add_argument("--timeout", type=float, default=120)
    p.add_argument("--table", help="write the table here too")
    o = p.parse_args()
    o.launcher, o.preload = absolute_launcher(o.launcher), os.path.abspath(o.preload)
    modes = o.modes.split(",")
    only = set(filter(None, o.only.split(",")))
    tally = Tally("mpich-suite", modes, {"pass"}, ("passed", "passed plainly, failed preloaded"))
    for directory in o.dirs.split(","):
        for test in tests_of(o.suite, directory, only, o.max_ranks):
            results = {mode: run_one(o.suite, directory, test, o.launcher, o.preload, mode, o.timeout)
                       for mode in modes}
            tally.add(f"{directory}/{test[0]} {' '.join(test[2])}".strip(), test[1], results)
    return tally.report(o.table)


if __name__ == "__main__":
    sys.exit(main())
