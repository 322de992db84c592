# SPDX-License-Identifier: BSD-3-Clause
"""What the runs of other projects' suites (tests/suites/*/run.py) share: the launcher's
path, and the tally (each test's verdict per mode, printed as it comes; at the end a
Markdown table, the totals, the notes, the tests that did right plainly and not through
hympi, and the exit status: 1 when there are any, or no test ran)."""
import os
import shlex
import sys
import time


def absolute_launcher(launcher):
    """The launcher and its options, its program's path made absolute when relative: each
    test runs in a folder of its own."""
    words = shlex.split(launcher)
    if os.sep in words[0]:
        words[0] = os.path.abspath(words[0])
    return shlex.join(words)


class Tally:
    def __init__(self, name, modes, good, words):
        """`good`: the verdicts that count as passing; `words`: what passing and breaking
        read as ("passed", "passed plainly, failed preloaded")."""
        self.name, self.modes, self.good, self.words = name, modes, good, words
        self.rows, self.broken = [], []
        self.totals = {m: [0, 0] for m in modes}
        self.started = time.monotonic()

    def add(self, label, ranks, results):
        """One test's verdicts; broken when it did right plainly and not in another mode."""
        for m in self.modes:
            self.totals[m][0] += results[m] in self.good
            self.totals[m][1] += 1
        self.rows.append((label, ranks, results))
        if results.get("plain") in self.good and any(results[m] not in self.good for m in self.modes):
            self.broken.append(label)
        print(f"{self.name}: {label} np {ranks}: " + ", ".join(f"{m} {results[m]}" for m in self.modes),
              file=sys.stderr, flush=True)

    def report(self, table, notes=()):
        """Prints the table (and writes it to `table`, when given); the exit status."""
        modes = self.modes
        out = ["| test | ranks | " + " | ".join(modes) + " |", "|---|---|" + "---|" * len(modes)]
        out += [f"| {label} | {ranks} | " + " | ".join(r[m] for m in modes) + " |" for label, ranks, r in self.rows]
        out += ["", f"{self.words[0]}: " + ", ".join(f"{m} {self.totals[m][0]} of {self.totals[m][1]}" for m in modes) +
                f" ({time.monotonic() - self.started:.0f} s)"]
        out += list(notes)
        if self.broken:
            out.append(f"{self.words[1]}: " + ", ".join(self.broken))
        text = "\n".join(out) + "\n"
        if table:
            open(table, "w").write(text)
        sys.stdout.write(text)
        print(f"{len(self.rows) - len(self.broken)} {self.words[0]}, {len(self.broken)} broken", flush=True)
        if not self.rows:
            print(f"{self.name}: no test ran (none built, or --only named none)", file=sys.stderr)
        return 1 if self.broken or not self.rows else 0
