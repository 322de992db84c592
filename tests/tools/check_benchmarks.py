#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""BENCHMARKS.md holds only figures a reader can reproduce and trust to describe the code.

A section is a `##` or `###` heading and the text up to the next such heading; a `###`
section takes the lines below from its `##` section when it has none of its own. Every
section that holds a table (outside code blocks) must have:
  - `Measured: <commit> · <date> · <machine> · <MPI>`: the commit the figures were
    measured on (its committer date is <date>);
  - `Files: <path> ...`: the files and folders whose change makes the figures stale (each
    must exist);
  - a command: a line starting `Command:`/`Commands:` or a fenced code block.
A summary section says `Measured: per row` instead: every row of its tables links
(`](#anchor)`) to a section of this file that has a Measured line, and says "stale" where
that section is marked stale.

Staleness, where git history is there: the commits after the Measured commit that touch the
Files (`git rev-list HEAD --not <measured> <re-checked> -- <files>`) make a section stale
unless it carries
  - `Still current after: <commit> (<reason>)`: re-read at that commit (commits up to it are
    accepted for the reason given; there may be several such lines), or
  - a line starting `**Stale: re-measure**` (or `> **Stale: re-measure**`), visible to the
    reader, naming what changed.
A stale marker on a section that nothing made stale is an error too. Without git history
(a tarball) the staleness part is skipped with a message; in a shallow clone a Measured
commit that is not in it is reported and skipped.

    tests/tools/check_benchmarks.py [source root] [--file BENCHMARKS.md]

Standard library only; prints every problem and exits 1 on any.
"""
import os
import re
import subprocess
import sys

HEADING = re.compile(r"^(#{2,3}) (.+?)\s*$")
MEASURED = re.compile(r"^Measured: (.+)$")
STILL = re.compile(r"^Still current after: ([0-9a-f]{7,40}) \((.+)\)\s*$")
STALE = re.compile(r"^(> )?\*\*Stale: re-measure\.?\*\*")
COMMAND = re.compile(r"(^|\s)(\*\*)?Commands?:(\*\*)?(\s+`|$)")
LINK = re.compile(r"\]\(#([^)\s]+)\)")
SEPARATOR = re.compile(r"^\|(\s*:?-+:?\s*\|)+\s*$")


def anchor(title):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*]", "", title.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


class Section:
    def __init__(self, level, title, line, parent):
        self.level, self.title, self.line, self.parent = level, title, line, parent
        self.measured = None      # the Measured line's text
        self.files = None         # list of paths
        self.still = []           # (commit, reason)
        self.stale_marked = False
        self.command = False
        self.tables = []          # (line number, [body rows])

    def own_or_parent(self, attr):
        value = getattr(self, attr)
        if value or self.parent is None:
            return value
        return getattr(self.parent, attr)


def parse(lines):
    sections, current, h2 = [], None, None
    fence = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        text = raw.strip()
        if text.startswith("```"):
            fence = not fence
            if fence and current:
                current.command = True
            i += 1
            continue
        if fence:
            i += 1
            continue
        m = HEADING.match(raw)
        if m:
            level = len(m.group(1))
            current = Section(level, m.group(2), i + 1, h2 if level == 3 else None)
            if level == 2:
                h2 = current
            sections.append(current)
            i += 1
            continue
        if current is None:
            i += 1
            continue
        if MEASURED.match(text):
            current.measured = MEASURED.match(text).group(1)
        elif text.startswith("Files:"):
            current.files = text[len("Files:"):].split()
        elif STILL.match(text):
            current.still.append(STILL.match(text).groups())
        elif text.startswith("Still current after:"):
            current.still.append((None, text))
        elif STALE.match(text):
            current.stale_marked = True
        elif COMMAND.search(text):
            current.command = True
        elif text.startswith("|") and i + 1 < len(lines) and SEPARATOR.match(lines[i + 1].strip()):
            start, rows = i + 1, []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i].strip())
                i += 1
            current.tables.append((start, rows))
            continue
        i += 1
    return sections


def git(root, *args):
    return subprocess.run(["git", "-C", root, *args], capture_output=True, text=True)


class History:
    """What git can say about the repository, or why it cannot."""

    def __init__(self, root):
        self.root, self.why_not = root, None
        try:
            top = git(root, "rev-parse", "--show-toplevel")
        except OSError:
            self.why_not = "git is not installed"
            return
        if top.returncode != 0:
            self.why_not = "not a git repository (a tarball?)"
            return
        if os.path.realpath(top.stdout.strip()) != os.path.realpath(root):
            self.why_not = "the source root is not the top of its git repository"
            return
        self.shallow = git(root, "rev-parse", "--is-shallow-repository").stdout.strip() == "true"

    def commit_date(self, commit):
        r = git(self.root, "show", "-s", "--format=%cd", "--date=short", commit + "^{commit}")
        return r.stdout.strip() if r.returncode == 0 else None

    def changed_since(self, commits, files):
        r = git(self.root, "rev-list", "--abbrev-commit", "--format=%h %cd %s", "--date=short",
                "HEAD", "--not", *commits, "--", *files)
        if r.returncode != 0:
            return None
        return [l for l in r.stdout.splitlines() if not l.startswith("commit ")]


def check(root, path):
    with open(path) as f:
        lines = f.read().split("\n")
    sections = parse(lines)
    by_anchor = {anchor(s.title): s for s in sections}
    history = History(root)
    problems, stale_listed = [], []

    def where(s):
        return "%s:%d (%s)" % (os.path.basename(path), s.line, s.title)

    stale_sections = {}
    if history.why_not:
        print("check_benchmarks: staleness not checked: " + history.why_not)
    for s in sections:
        if not s.tables:
            if s.stale_marked and not s.own_or_parent("measured"):
                problems.append("%s: a stale marker on a section without a Measured line" % where(s))
            continue
        measured = s.own_or_parent("measured")
        if measured is None:
            problems.append("%s: a table but no 'Measured: <commit> · <date> · <machine> · <MPI>' line"
                            % where(s))
            continue
        if measured.startswith("per row"):
            continue
        if not s.own_or_parent("command"):
            problems.append("%s: a table but no command next to it (a 'Command:' line or a code block)"
                            % where(s))
        fields = [x.strip() for x in measured.split("·")]
        if (len(fields) != 4 or not re.fullmatch(r"[0-9a-f]{7,40}", fields[0])
                or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", fields[1]) or not all(fields)):
            problems.append("%s: 'Measured: %s' is not '<commit> · <YYYY-MM-DD> · <machine> · <MPI>'"
                            % (where(s), measured))
            continue
        files = s.own_or_parent("files")
        if not files:
            problems.append("%s: no 'Files:' line (the sources whose change makes it stale)" % where(s))
            continue
        missing = [f for f in files if not os.path.exists(os.path.join(root, f))]
        if missing:
            problems.append("%s: Files names what does not exist: %s" % (where(s), " ".join(missing)))
            continue
        still = s.still or (s.parent.still if s.parent and not s.measured else [])
        marked = s.stale_marked or bool(s.parent and not s.measured and s.parent.stale_marked)
        for commit, reason in still:
            if commit is None:
                problems.append("%s: '%s' is not 'Still current after: <commit> (<reason>)'"
                                % (where(s), reason))
        if history.why_not:
            continue
        commit, date = fields[0], fields[1]
        actual = history.commit_date(commit)
        if actual is None:
            if history.shallow:
                print("check_benchmarks: %s: commit %s is not in this shallow clone: staleness not checked"
                      % (where(s), commit))
            else:
                problems.append("%s: Measured commit %s is not in the history" % (where(s), commit))
            continue
        if actual != date:
            problems.append("%s: Measured says %s, commit %s is of %s" % (where(s), date, commit, actual))
        rechecked = [c for c, _ in still if c]
        unknown = [c for c in rechecked if history.commit_date(c) is None]
        if unknown:
            problems.append("%s: Still current after names an unknown commit: %s" % (where(s), " ".join(unknown)))
            continue
        changed = history.changed_since([commit] + rechecked, files)
        if changed is None:
            problems.append("%s: git rev-list failed for %s" % (where(s), " ".join(files)))
            continue
        stale_sections[anchor(s.title)] = bool(changed)
        if changed and not marked:
            problems.append("%s: stale: %s changed since %s and no 'Still current after' covers it:\n    %s"
                            % (where(s), " ".join(files), commit, "\n    ".join(changed)))
        elif changed:
            stale_listed.append("%s (%d commits since %s)" % (where(s), len(changed), commit))
        elif s.stale_marked:
            problems.append("%s: marked stale, but nothing in its Files changed since %s: drop the marker"
                            % (where(s), commit))
    for s in sections:
        if not s.tables or not (s.own_or_parent("measured") or "").startswith("per row"):
            continue
        for start, rows in s.tables:
            for n, row in enumerate(rows):
                targets = LINK.findall(row)
                if not targets:
                    problems.append("%s: summary row %d links to no section" % (where(s), start + 2 + n))
                for t in targets:
                    target = by_anchor.get(t)
                    if target is None:
                        problems.append("%s: summary row %d links to #%s, no such section"
                                        % (where(s), start + 2 + n, t))
                    elif not target.own_or_parent("measured"):
                        problems.append("%s: summary row %d links to #%s, which has no Measured line"
                                        % (where(s), start + 2 + n, t))
                    elif stale_sections.get(t) and "stale" not in row.lower():
                        problems.append("%s: summary row %d quotes stale #%s without saying 'stale'"
                                        % (where(s), start + 2 + n, t))
    for line in stale_listed:
        print("check_benchmarks: marked stale, to re-measure: " + line)
    for p in problems:
        print("check_benchmarks: " + p)
    print("check_benchmarks: %d sections, %d with tables, %d marked stale, %d problems"
          % (len(sections), sum(1 for s in sections if s.tables), len(stale_listed), len(problems)))
    return 1 if problems else 0


def main(argv):
    args, path = [], None
    it = iter(argv[1:])
    for a in it:
        if a == "--file":
            path = next(it, None)
        elif a.startswith("-"):
            print(__doc__)
            return 2
        else:
            args.append(a)
    root = os.path.abspath(args[0] if args else os.path.join(os.path.dirname(__file__), "..", ".."))
    return check(root, path or os.path.join(root, "BENCHMARKS.md"))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
