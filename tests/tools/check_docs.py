#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The documentation against the code: what the docs restate from the sources must agree
with them. Standard library only; prints each problem and exits 1 on any.

    tests/tools/check_docs.py [repository root]

Checks (CHANGELOG.md is history and is not read; nor are this checker and its test):
  - environment: every HYMPI_* variable read by the library, bindings, programs or scripts
    (getenv and the sources' own helpers named *env*, os.environ / os.getenv, a shell's
    $HYMPI_X, CMake's $ENV{HYMPI_X}) is in a table of docs/settings.md whose first column
    is "variable"; every variable such a table names is read somewhere (tests included);
  - CMake options: every option(HYMPI_...) and set(HYMPI_... CACHE ...) of a CMakeLists.txt
    or *.cmake is in a table of docs/settings.md whose first column is "option", and every
    option such a table names exists;
  - packages: every pkg-config file (*.pc.in) and every component of the CMake package
    (hympi_<component>_FOUND in *Config.cmake.in) is named in a code span of
    docs/settings.md or docs/install.md, and the package file's own synopsis
    ("[COMPONENTS ...]") lists every component (case aside);
  - defaults: the "default" column of docs/settings.md against the code, where the code
    states one: the struct member a variable sets (Options, the PMPI library's Settings;
    a variable that sets several members, HYMPI_TREE, is written "kary:4"), a shell
    script's ${HYMPI_X:-default}, a CMake option's ON/OFF; and, in any Markdown file, a
    size said to be a byte-valued setting's default ("the default, 1 MiB", "256 KiB is the
    default", "by default 256 KiB"; not "its then default", "the former default") next
    to the setting's name, in any file;
  - names: a HYMPI_* name in Markdown exists in some source (a variable, option or constant);
  - paths: every repository path ("src/...", "docs/x.md", ...) in a Markdown file or a
    source file exists (relative to the root or to the naming file; a path in a build
    tree, a CMake target under its source folder, counts; so does a path with a
    placeholder, <mpi> or ${VAR}, and a path in a Markdown code block after "cd build...");
  - sections: a cited section (BENCHMARKS.md, "Title"; [docs/usage.md](...), section
    "Title") is in that file, as a heading or a paragraph's opening words (the citation
    may shorten them from the end), and a Markdown link's #anchor is a heading of its
    target (GitHub's anchor rule);
  - symbols: "`name` in `file`" and "`name` (`file`)" in Markdown: the file has the name;
  - repeated facts: "in under N lines" in examples/README.md against the examples' line
    counts; "CI's N minutes" in Markdown against scripts/test.sh; a minimum version
    "name@X:" in docs/ against the Spack recipe's depends_on.
"""
import glob
import os
import re
import subprocess
import sys

SKIP = {"CHANGELOG.md", "tests/tools/check_docs.py", "tests/tools/test_check_docs.py"}
SETTINGS = "docs/settings.md"
PACKAGE_DOCS = ("docs/settings.md", "docs/install.md")
TEST_FOLDERS = ("tests/", "python/tests/")
NAME = r"HYMPI_[A-Z0-9_]*[A-Z0-9]"

# Phrases that name a byte-valued setting in prose, beside its variable and member names.
PHRASES = {
    "HYMPI_COLL_BUFFER": ("collective buffer", "collectives' buffer", "collectives' shared buffer"),
    "HYMPI_SINGLE_COPY": ("single copy", "single-copy"),
}
PAST = re.compile(r"\b(?:then|former|old|previous|earlier|was)\b")
UNITS = {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
SIZE = r"\d+(?:\.\d+)? ?(?:KiB|MiB|GiB)"
SAID_DEFAULT = [
    re.compile(r"\bdefault(?: size| value)?(?:,| is| of|:| =)?\s+(?:now\s+)?(" + SIZE + r")"),
    re.compile(r"(" + SIZE + r")\)?,? is (?:now )?(?:the|its) default"),
    re.compile(r"(" + SIZE + r")\)? by default"),
    re.compile(r"(" + SIZE + r")[^;]{0,60}?\bwhich is (?:now )?the default"),
]


def listing(root):
    """Every file of the repository (git's view when the root is a checkout's: tracked, and
    untracked but not ignored), as paths relative to the root."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, text=True, check=True).stdout.split("\n")
        inside = subprocess.run(["git", "-C", root, "rev-parse", "--show-prefix"],
                                capture_output=True, text=True, check=True).stdout.strip()
        files = [f for f in out if f and not inside]
    except (OSError, subprocess.CalledProcessError):
        files = []
    if not files:
        for folder, dirs, names in os.walk(root):
            dirs[:] = [d for d in dirs if not d.startswith((".git", "build", ".deps", "__pycache__"))]
            files += [os.path.relpath(os.path.join(folder, n), root) for n in names]
    return sorted({f.replace(os.sep, "/") for f in files if os.path.isfile(os.path.join(root, f))})


def texts_of(root, files):
    """{path: text} of the text files among `files`, but SKIP's."""
    texts = {}
    for f in files:
        if f in SKIP:
            continue
        try:
            with open(os.path.join(root, f), encoding="utf-8", errors="replace") as handle:
                text = handle.read()
        except OSError:
            continue
        if "\0" not in text:
            texts[f] = text
    return texts


def is_shell(path, text):
    return path.endswith(".sh") or bool(re.match(r"#!.*\bsh\b|#!.*bash", text))


def is_c_like(path):
    return path.endswith((".c", ".cpp", ".cc", ".h", ".hpp", ".f90", ".F90", ".inc"))


def is_cmake(path):
    return path.endswith(("CMakeLists.txt", ".cmake", ".cmake.in"))


def in_tests(path):
    return path.startswith(TEST_FOLDERS)


# --- environment variables --------------------------------------------------------------

READ_C = re.compile(r"\b(\w*env\w*)\s*\(\s*\"(" + NAME + r")\"")
READ_FORTRAN = re.compile(r"get_environment_variable\s*\(\s*['\"](" + NAME + r")", re.I)
READ_PYTHON = re.compile(r"os\.(?:environ(?:\.get)?\s*[\[(]|getenv\s*\()\s*[\"'](" + NAME + r")")
READ_SHELL = re.compile(r"\$\{?(" + NAME + r")\b(?::-([^}]*)\})?")
READ_CMAKE = re.compile(r"\$ENV\{(" + NAME + r")\}")


def environment_reads(texts):
    """{variable: [files that read it]}, and {variable: set of shell defaults}."""
    reads, shell_defaults = {}, {}
    for path, text in texts.items():
        found = []
        if is_c_like(path):
            found += [v for fn, v in READ_C.findall(text) if fn not in ("setenv", "unsetenv", "putenv")]
            found += READ_FORTRAN.findall(text)
        elif path.endswith(".py"):
            found += READ_PYTHON.findall(text)
        elif is_cmake(path):
            found += READ_CMAKE.findall(text)
        elif is_shell(path, text):
            code = "\n".join(line for line in text.split("\n") if not line.lstrip().startswith("#"))
            for v, default in READ_SHELL.findall(code):
                found.append(v)
                shell_defaults.setdefault(v, set()).add(default)
        for v in found:
            reads.setdefault(v, []).append(path)
    return reads, shell_defaults


# --- Markdown tables and headings -------------------------------------------------------

def cells(line):
    parts = re.split(r"(?<!\\)\|", line.strip())
    return [p.strip() for p in parts[1:-1]]


def tables(text):
    """Each Markdown table as (header cells, rows of cells)."""
    found, block = [], []
    for line in text.split("\n") + [""]:
        if line.lstrip().startswith("|"):
            block.append(cells(line))
        else:
            if len(block) >= 2:
                found.append((block[0], [r for r in block[2:]]))
            block = []
    return found


def documented(text, first_column):
    """{name: default cell or None} of the HYMPI_* names in the first column of the tables
    whose first header is `first_column`."""
    names = {}
    for header, rows in tables(text):
        if not header or header[0].lower() != first_column:
            continue
        column = next((i for i, h in enumerate(header) if h.lower() == "default"), None)
        for row in rows:
            if not row:
                continue
            listed = re.findall(r"\b" + NAME + r"\b", row[0])
            default = row[column] if column is not None and column < len(row) and len(listed) == 1 else None
            for name in listed:
                names[name] = default
    return names


def without_fences(text):
    """Markdown text with fenced code blocks blanked (kept as empty lines)."""
    out, fenced = [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
        else:
            out.append("" if fenced else line)
    return "\n".join(out)


def headings(text):
    return [m.group(1).strip() for m in re.finditer(r"^#{1,6}\s+(.*?)\s*#*\s*$", without_fences(text), re.M)]


def slug(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(text):
    seen, found = {}, set()
    for h in headings(text):
        s = slug(h)
        n = seen.get(s, 0)
        found.add(s if n == 0 else f"{s}-{n}")
        seen[s] = n + 1
    return found


def normal(title):
    return re.sub(r"\s+", " ", title.replace("`", "").replace("*", "")).strip().lower()


# --- defaults in the sources -------------------------------------------------------------

def struct_members(texts, struct):
    """(header, {member: initializer}) of `struct <struct> {...}` in include/ or src/."""
    for path, text in texts.items():
        if not (path.startswith(("include/", "src/")) and path.endswith((".hpp", ".h"))):
            continue
        m = re.search(r"\bstruct\s+" + struct + r"\s*\{", text)
        if not m:
            continue
        body, depth, i = [], 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            body.append(text[i])
            i += 1
        body = re.sub(r"//[^\n]*|/\*.*?\*/", " ", "".join(body), flags=re.S)
        return path, dict(re.findall(r"[\w:<>,\s]*?\b(\w+)\s*=\s*([^;{}]+?)\s*;", body))
    return None, {}


def rendered(value):
    """An initializer as the docs write it, or None where it cannot be read."""
    value = value.strip()
    if value in ("true", "false"):
        return "1" if value == "true" else "0"
    if re.fullmatch(r"\d+(?:\.\d*)?(?:\s*\*\s*\d+(?:\.\d*)?)*", value):  # 600.0, 256 * 1024
        number = 1.0
        for factor in value.split("*"):
            number *= float(factor)
        return str(int(number)) if number.is_integer() else str(number)
    m = re.fullmatch(r"\w+::(\w+)", value)
    return m.group(1) if m else None


def code_defaults(texts, problems):
    """{variable: (default as the docs write it, header, member)} for the variables read as
    `if (const char* v = <...env>("HYMPI_X")) <statement>` into a struct's members."""
    found = {}
    for path, text in texts.items():
        if not path.startswith("src/") or not is_c_like(path):
            continue
        for m in re.finditer(r"if\s*\(\s*const\s+char\s*\*\s*\w+\s*=\s*[\w:]*env\s*\(\s*\"(" + NAME + r")\"\s*\)\s*\)",
                             text):
            rest = text[m.end():]
            if rest.lstrip().startswith("{"):
                depth, end = 0, 0
                for end, ch in enumerate(rest):
                    depth += {"{": 1, "}": -1}.get(ch, 0)
                    if ch == "}" and depth == 0:
                        break
                statement = rest[:end]
            else:
                statement = rest[:rest.find(";")]
            before = text[:m.start()]
            members = []
            for obj, member in re.findall(r"\b([a-z])\.(\w+)\s*=(?!=)", statement):
                if (obj, member) not in members:
                    members.append((obj, member))
            if not members:
                continue
            obj = members[0][0]
            declared = re.findall(r"\b([A-Z]\w*)\s+" + obj + r"\s*;", before)
            if not declared:
                continue
            struct = declared[-1]
            header, initial = struct_members(texts, struct)
            values = [rendered(initial[mem]) if mem in initial else None for _, mem in members]
            if None in values:
                problems.append(f"{path}: the default of {m.group(1)} ({struct}::"
                                + ", ".join(mem for _, mem in members) + ") cannot be read")
                continue
            found[m.group(1)] = (":".join(values), header, members[0][1])
    return found


def doc_value(cell):
    """A default cell's value: its first word, without code marks."""
    words = cell.replace("`", "").split()
    return words[0] if words else ""


def same_value(doc, code):
    try:
        return float(doc) == float(code)
    except ValueError:
        return doc.lower() == code.lower()


def size_of(text):
    number, unit = re.fullmatch(r"(\d+(?:\.\d+)?) ?(\w+)", text).groups()
    return float(number) * UNITS[unit]


def chunks(path, text):
    """Prose in sentences (a Markdown table row is one; in a source file, the sentences of
    each block of lines between blank lines, comment leaders removed)."""
    if not path.endswith(".md"):
        for block in re.split(r"\n\s*\n", text):
            yield from re.split(r"(?<=[.;])\s+(?=[A-Z`(*\[])", flattened(path, block))
        return
    for paragraph in re.split(r"\n\s*\n", without_fences(text)):
        lines = paragraph.split("\n")
        if all(line.lstrip().startswith("|") for line in lines if line.strip()):
            yield from lines
        else:
            yield from re.split(r"(?<=[.;])\s+(?=[A-Z`(*\[])", " ".join(line.strip() for line in lines))


# --- the checks ------------------------------------------------------------------------

def check_environment(texts, problems):
    settings = texts.get(SETTINGS)
    if settings is None:
        problems.append(f"{SETTINGS} does not exist")
        return {}
    reads, shell_defaults = environment_reads(texts)
    docs = documented(settings, "variable")
    if not docs:
        problems.append(f"{SETTINGS}: no table whose first column is 'variable'")
    for v, files in sorted(reads.items()):
        outside = [f for f in files if not in_tests(f)]
        if outside and v not in docs:
            problems.append(f"{v} is read in {', '.join(sorted(set(outside)))} but not in {SETTINGS}'s tables")
    for v in sorted(docs):
        if v not in reads:
            problems.append(f"{SETTINGS} documents {v}, which nothing reads")
    compared = 0
    defaults = code_defaults(texts, problems)
    for v, (value, path, member) in sorted(defaults.items()):
        if v not in docs:
            continue
        cell = docs[v]
        if not cell:
            problems.append(f"{SETTINGS}: {v} has no default in its row (the code's: {value}, {path})")
            continue
        compared += 1
        if not same_value(doc_value(cell), value):
            problems.append(f"{SETTINGS}: {v} default '{doc_value(cell)}', the code's is {value} ({path}, {member})")
    for v, values in sorted(shell_defaults.items()):
        values = {d for d in values if d}
        if v not in docs or len(values) != 1 or any("$" in d for d in values) or not docs[v]:
            continue
        value = values.pop()
        compared += 1
        if docs[v].replace("`", "").strip() != value:
            problems.append(f"{SETTINGS}: {v} default '{docs[v]}', the scripts' is '{value}'")
    if compared == 0:
        problems.append(f"{SETTINGS}: no default could be compared with the code")
    return defaults


def check_prose_defaults(texts, defaults, problems):
    """A size said to be a byte-valued setting's default, next to the setting's name, in
    Markdown or in a source file."""
    for v, (value, path, member) in sorted(defaults.items()):
        if not member.endswith("_bytes"):
            continue
        keys = (v.lower(), member.lower()) + PHRASES.get(v, ())
        for doc, text in texts.items():
            for chunk in chunks(doc, text):
                low = chunk.lower()
                if not any(k in low for k in keys):
                    continue
                for pattern in SAID_DEFAULT:
                    for m in pattern.finditer(chunk):
                        said = m.group(1)
                        if PAST.search(chunk[max(0, m.start() - 25):m.start() + 12]):
                            continue  # "its then default of 1 MiB", "the former default"
                        if size_of(said) != float(value):
                            problems.append(f"{doc}: says {said} is the default of {v}; the code's is {value} "
                                            f"({path}): \"{chunk.strip()[:160]}\"")


def check_cmake(texts, problems):
    settings = texts.get(SETTINGS, "")
    options = {}
    for path, text in texts.items():
        if not is_cmake(path) or path.endswith(".in"):
            continue
        for name, default in re.findall(r"\boption\s*\(\s*(" + NAME + r")\s+\"(?:[^\"\\]|\\.)*\"\s*([^)\s]*)\s*\)", text):
            options[name] = (default or "OFF", path)
        for name in re.findall(r"\bset\s*\(\s*(" + NAME + r")\s+(?:\"[^\"]*\"|[^\s)]+)\s+CACHE\b", text):
            options[name] = (None, path)
        for name, default in re.findall(r"\bcmake_dependent_option\s*\(\s*(" + NAME + r")\s+\"[^\"]*\"\s+(\S+)", text):
            options[name] = (default, path)
    docs = documented(settings, "option")
    for name, (default, path) in sorted(options.items()):
        if name not in docs:
            problems.append(f"CMake option {name} ({path}) is not in {SETTINGS}'s option table")
            continue
        truth = {"ON": "ON", "TRUE": "ON", "1": "ON", "OFF": "OFF", "FALSE": "OFF", "0": "OFF"}
        code = truth.get((default or "").upper())
        if code and docs[name] is not None and truth.get(doc_value(docs[name]).upper()) != code:
            problems.append(f"{SETTINGS}: option {name} default '{doc_value(docs[name])}', {path} says {code}")
    for name in sorted(set(docs) - set(options)):
        problems.append(f"{SETTINGS} lists the CMake option {name}, which no CMakeLists.txt or *.cmake defines")


def code_spans(text):
    return re.findall(r"`([^`\n]+)`", text)


def check_packages(texts, problems):
    docs = "\n".join(texts.get(d, "") for d in PACKAGE_DOCS)
    spans = code_spans(docs)
    words = {w for s in spans for w in re.split(r"[\s,()\[\]]+", s)}
    where = " or ".join(d for d in PACKAGE_DOCS)
    for path in sorted(p for p in texts if p.endswith(".pc.in")):
        name = os.path.basename(path)[:-len(".pc.in")]
        if name not in words and name + ".pc" not in words:
            problems.append(f"pkg-config module {name} ({path}) is not named in {where}")
    for path in sorted(p for p in texts if p.endswith("Config.cmake.in")):
        package = os.path.basename(path)[:-len("Config.cmake.in")]
        text = texts[path]
        components = sorted(set(re.findall(re.escape(package) + r"_(\w+?)_FOUND\b", text)))
        synopsis = re.search(r"\[COMPONENTS ([^\]]*)\]", text)
        if synopsis:  # case aside: an old name kept as an alias (Fortran for fortran) may stay out
            listed = synopsis.group(1).lower().split()
            for c in components:
                if c.lower() not in listed:
                    problems.append(f"{path}: its synopsis [COMPONENTS {synopsis.group(1)}] misses the component {c}")
        for c in components:
            if not any(re.search(r"\bCOMPONENTS\b[^`]*\b" + re.escape(c) + r"\b", s) or s == c for s in spans):
                problems.append(f"CMake component {c} of {package} ({path}) is not named in {where}")


def check_names(texts, problems):
    """A HYMPI_* name in Markdown that no other file has."""
    known = set()
    for path, text in texts.items():
        if not path.endswith(".md"):
            known.update(re.findall(r"\b" + NAME + r"\b", text))
    for path, text in sorted(texts.items()):
        if path.endswith(".md"):
            for name in sorted(set(re.findall(r"\b" + NAME + r"\b", text)) - known):
                problems.append(f"{path} names {name}, which no source file reads, defines or sets")


def cmake_targets(texts):
    """{folder: target names} of add_executable / add_library in each CMakeLists.txt (also
    as add_executable(${app} ...) in a foreach(app a b c))."""
    targets = {}
    for path, text in texts.items():
        if os.path.basename(path) == "CMakeLists.txt":
            folder = os.path.dirname(path)
            names = set(re.findall(r"\badd_(?:executable|library)\s*\(\s*([\w.-]+)", text))
            for var, items in re.findall(r"\bforeach\s*\(\s*(\w+)\s+(?:IN\s+ITEMS\s+)?([^)$]*)\)", text):
                if re.search(r"\badd_(?:executable|library)\s*\(\s*\$\{" + var + r"\}", text):
                    names.update(items.split())
            targets.setdefault(folder, set()).update(names)
    return targets


def exists(root, base, path):
    for start in (root, os.path.join(root, base)):
        if glob.glob(os.path.join(start, path)):
            return True
    return False


def built(targets, path):
    """A path in a build tree: a CMake target of the source folder it mirrors."""
    folder, name = os.path.split(path.rstrip("/"))
    name = re.sub(r"^lib(.*?)\.(?:so|a)$", r"\1", name)
    return name in targets.get(folder, set())


def check_paths(root, texts, problems):
    tops = sorted({p.split("/")[0] for p in texts if "/" in p} | {"docs"})
    # A placeholder (<mpi>, ${VAR}) stays in the token, which is then not checked.
    path_re = re.compile(r"(?<![\w./$}{<>~@=+-])((?:%s)/[\w.*/+<>{}$-]*[\w*/>}])" % "|".join(map(re.escape, tops)))
    cd_build = re.compile(r"\bcd\s+[^\s;&|]*build\b")
    targets = cmake_targets(texts)
    for path, text in sorted(texts.items()):
        markdown = path.endswith(".md")
        base = os.path.dirname(path)
        in_build = False  # a Markdown code block after "cd build/...": paths of the build tree
        for number, line in enumerate(text.split("\n"), 1):
            if markdown and line.lstrip().startswith("```"):
                in_build = False
                continue
            if in_build:
                continue
            if "/" not in line:
                continue
            m = cd_build.search(line)
            if m:
                line, in_build = line[:m.start()], markdown
            for found in path_re.findall(line):
                found = re.sub(r"[.:]+$", "", found)
                if any(c in found for c in "<>{}$") or exists(root, base, found) or built(targets, found):
                    continue
                problems.append(f"{path}:{number}: names {found}, which does not exist")


def flattened(path, text):
    """The text as one line, comment leaders removed (a citation may span comment lines)."""
    if path.endswith(".md"):
        lines = without_fences(text).split("\n")
    else:
        lines = re.sub(r"(?m)^[ \t]*(?://+|/?\*+/?|#+|!+|--)[ \t]?", "", text).split("\n")
    return re.sub(r"\s+", " ", " ".join(lines))


CITE = re.compile(r"(?<![\w/.-])((?:[\w.-]+/)*[\w.-]+\.md|BENCHMARKS|README)(?:\]\([^)\s]*\))?\)?(?:,\s*|\s+)"
                  r"(?:section\s+)?\(?\"([^\"\s][^\"]{1,159})\"")


def target_of(root, base, name):
    if name in ("BENCHMARKS", "README"):
        name += ".md"
    for start in ("", base, "docs"):
        candidate = os.path.normpath(os.path.join(start, name)).replace(os.sep, "/")
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def check_sections(root, texts, problems):
    cache = {}

    def titles(target):
        if target not in cache:
            text = texts.get(target)
            if text is None:
                with open(os.path.join(root, target), encoding="utf-8", errors="replace") as f:
                    text = f.read()
            # A section is a heading, or a paragraph's opening words ("**Medium allreduce.**").
            leads = [normal(p) for p in re.split(r"\n\s*\n", without_fences(text))]
            cache[target] = ([normal(h) for h in headings(text)] + leads, anchors(text))
        return cache[target]

    for path, text in sorted(texts.items()):
        base = os.path.dirname(path)
        cited = CITE.findall(flattened(path, text)) if re.search(r"\.md\b|BENCHMARKS|README", text) else []
        for name, title in sorted(set(cited)):
            target = target_of(root, base, name)
            if target is None:
                problems.append(f"{path}: cites {name}, \"{title}\", which does not exist")
                continue
            if not any(h.startswith(normal(title)) for h in titles(target)[0]):
                problems.append(f"{path}: cites {name}, \"{title}\": no such section in {target}")
        if not path.endswith(".md"):
            continue
        for link, anchor in re.findall(r"\]\(([^)\s#]*)#([^)\s]+)\)", without_fences(text)):
            if "://" in link:
                continue
            target = path if not link else os.path.normpath(os.path.join(base, link)).replace(os.sep, "/")
            if not target.endswith(".md") or not os.path.isfile(os.path.join(root, target)):
                continue
            if anchor not in titles(target)[1]:
                problems.append(f"{path}: links to {link or path}#{anchor}: no such heading")


SYMBOL_AT = re.compile(r"`([A-Za-z_][\w:]*)(?:\(\))?`(?: \w+)? (?:in `([\w./-]+\.\w+)`|\(`([\w./-]+\.\w+)`[),;])")


def check_symbols(texts, problems):
    """"`name` in `file`" and "`name` (`file`)" in Markdown: the file has the name."""
    for path, text in sorted(texts.items()):
        if not path.endswith(".md"):
            continue
        for symbol, at, at2 in sorted(set(SYMBOL_AT.findall(re.sub(r"\s+", " ", text)))):
            where = at or at2
            source = texts.get(where)
            if source is not None and symbol.split("::")[-1] not in source:
                problems.append(f"{path}: places {symbol} in {where}, which does not have it")


def check_repeated(texts, problems):
    examples = texts.get("examples/README.md")
    if examples:
        for limit in re.findall(r"\b(?:under|fewer than|less than) (\d+) lines", examples):
            for header, rows in tables(examples):
                for row in rows:
                    name = row[0].strip("`") if row else ""
                    text = texts.get("examples/" + name)
                    if text is not None and text.count("\n") >= int(limit):
                        problems.append(f"examples/README.md: 'under {limit} lines', but {name} has {text.count(chr(10))}")
    budget = re.search(r"CI's (\d+) minutes", texts.get("scripts/test.sh", ""))
    if budget:
        for path, text in sorted(texts.items()):
            if path.endswith(".md"):
                for said in re.findall(r"CI's (\d+) minutes", flattened(path, text)):
                    if said != budget.group(1):
                        problems.append(f"{path}: CI's {said} minutes; scripts/test.sh plans for {budget.group(1)}")
    recipes = [t for p, t in texts.items() if p.startswith("packaging/") and p.endswith("package.py")]
    declared = {}
    for recipe in recipes:
        for name, version in re.findall(r"depends_on\(\s*\"([\w-]+)@([\w.]+):", recipe):
            declared.setdefault(name, set()).add(version)
    for path, text in sorted(texts.items()):
        if path.startswith("docs/") and path.endswith(".md"):
            for name, version in re.findall(r"(?<![\w@-])([a-z][\w-]*)@(\d[\w.]*):", text):
                if version not in declared.get(name, ()):
                    problems.append(f"{path}: {name}@{version}:, but the Spack recipe depends on "
                                    + (", ".join(f"{name}@{v}:" for v in sorted(declared[name]))
                                       if name in declared else f"no {name}@...:"))


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
    texts = texts_of(root, listing(root))
    if not texts:
        print(f"check_docs: no files under {root}")
        return 2
    problems = []
    defaults = check_environment(texts, problems)
    check_prose_defaults(texts, defaults, problems)
    check_cmake(texts, problems)
    check_packages(texts, problems)
    check_names(texts, problems)
    check_paths(root, texts, problems)
    check_sections(root, texts, problems)
    check_symbols(texts, problems)
    check_repeated(texts, problems)
    for p in problems:
        print("check_docs:", p)
    print(f"check_docs: {len(texts)} files: " + (f"{len(problems)} problems" if problems else "the docs agree with the code"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
