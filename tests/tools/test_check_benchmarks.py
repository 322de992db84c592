#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_benchmarks.py fails on what it exists to catch. Each plant is BENCHMARKS.md with one
section appended, checked with --file against the source tree; the check must exit 1 and
name the plant:
  - a table with no command next to it;
  - a table in a section with no Measured line;
  - a section measured on the repository's first commit whose Files (src/core/) changed
    since, with no Still current line and no stale marker (needs git history: without it
    this plant is skipped, saying so);
  - the same section with a stale marker must pass (the marker is the way out), and a
    marker on a section nothing made stale must fail.
The unplanted file must pass. Standard library only; exits 1 on any plant that passes.

    tests/tools/test_check_benchmarks.py [source root]
"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "check_benchmarks.py")


def run(root, path):
    r = subprocess.run([sys.executable, CHECK, root, "--file", path], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def section(title, measured, extra=""):
    return ("\n## %s\n\n%s\n\nFiles: src/core/\n\nCommand: `hympi-bench barrier`\n\n%s"
            "| a | b |\n|---|---|\n| 1 | 2 |\n" % (title, measured, extra))


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(HERE, "..", ".."))
    with open(os.path.join(root, "BENCHMARKS.md")) as f:
        text = f.read()
    head = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    has_git = head.returncode == 0 and os.path.realpath(head.stdout.strip()) == os.path.realpath(root)
    first = last = None
    if has_git:
        first = subprocess.run(["git", "-C", root, "rev-list", "--max-parents=0", "HEAD"],
                               capture_output=True, text=True).stdout.split()
        last = subprocess.run(["git", "-C", root, "log", "-1", "--format=%h %cd", "--date=short", "--", "src/core/"],
                              capture_output=True, text=True).stdout.split()
        shallow = subprocess.run(["git", "-C", root, "rev-parse", "--is-shallow-repository"],
                                 capture_output=True, text=True).stdout.strip() == "true"
        if not first or not last or shallow:
            has_git = False
    failures = 0

    def expect(name, planted, code, words):
        nonlocal failures
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "BENCHMARKS.md")
            with open(path, "w") as f:
                f.write(text + planted)
            got, out = run(root, path)
        if got != code or not all(w in out for w in words):
            failures += 1
            print("FAIL %s: exit %d (want %d), output:\n%s" % (name, got, code, out))
        else:
            print("ok   %s: exit %d" % (name, got))

    expect("unplanted", "", 0, ["0 problems"])
    measured_now = "Measured: %s · %s · 2-core VM · Open MPI 4.1.4" % (last[0], last[1]) if has_git else \
        "Measured: 0000000 · 2026-01-01 · 2-core VM · Open MPI 4.1.4"
    no_command = "\n## Planted without a command\n\n%s\n\nFiles: src/core/\n\n| a | b |\n|---|---|\n| 1 | 2 |\n" % measured_now
    expect("table without a command", no_command, 1, ["Planted without a command", "no command next to it"])
    expect("table without Measured", "\n## Planted unmeasured\n\nCommand: `x`\n\n| a |\n|---|\n| 1 |\n", 1,
           ["Planted unmeasured", "no 'Measured:"])
    if not has_git:
        print("skip stale plants: no full git history at %s" % root)
    else:
        date = subprocess.run(["git", "-C", root, "show", "-s", "--format=%cd", "--date=short", first[0]],
                              capture_output=True, text=True).stdout.strip()
        old = "Measured: %s · %s · 2-core VM · Open MPI 4.1.4" % (first[0][:7], date)
        expect("stale section", section("Planted stale", old), 1, ["Planted stale", "stale:"])
        expect("stale section, marked", section("Planted stale", old, "**Stale: re-measure.** planted.\n\n"), 0,
               ["0 problems"])
        expect("marker on a current section", section("Planted current", measured_now,
                                                       "**Stale: re-measure.** planted.\n\n"), 1,
               ["Planted current", "drop the marker"])
    print("%d plants failed to be caught" % failures if failures else "every plant caught")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
