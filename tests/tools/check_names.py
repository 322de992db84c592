#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One table for every name: include/hympi/names.h, whose lists (X-macros) the C header, the
C++ enums and their name tables, the C API and the Python module expand, and from which the
build generates the Fortran constants and type hympi_options (cmake/HympiNames.cmake). The
compilers hold the expansions to the table; this holds the rest to it:
  - the table: each list numbered 0, 1, 2, ... in order, each constant its list's prefix
    and the name in capitals, no name twice;
  - each enumeration's list expanded where it is declared: the C typedef (include/hympi.h),
    the C++ enum class (include/hympi/*.hpp) and the Python enum (python/src/*.cpp);
  - the generated Fortran (with a build folder): every constant with its value, public, and
    hympi_options's components the fields of HYMPI_OPTIONS, of their C types;
  - the options: the fields of HYMPI_OPTIONS are hympi::Options's members, in order, and
    src/c/options.cpp checks each one coming from C;
  - the docs' lists: the strategies of docs/usage.md's table, the values docs/settings.md
    gives HYMPI_WAIT, HYMPI_TREE, HYMPI_BARRIER and HYMPI_ORDERS.
Standard library only; prints each difference and exits 1 on any.

    tests/tools/check_names.py [source root [build folder]]
"""
import os
import re
import sys

# One row per enumeration: its list in names.h, C typedef, constants' prefix, C++ header
# and enum, Python enum, and the variable of docs/settings.md that takes its names.
GROUPS = [
    ("HYMPI_DATATYPES", "hympi_datatype", "HYMPI_", "types.hpp", "Datatype", None),
    ("HYMPI_OPS", "hympi_op", "HYMPI_", "types.hpp", "Op", None),
    ("HYMPI_STRATEGIES", "hympi_strategy", "HYMPI_STRATEGY_", "halo.hpp", "Strategy", None),
    ("HYMPI_HALO_MODES", "hympi_halo_mode", "HYMPI_MODE_", "halo.hpp", "HaloMode", None),
    ("HYMPI_STENCILS", "hympi_stencil", "HYMPI_STENCIL_", "block.hpp", "Stencil", None),
    ("HYMPI_WAIT_POLICIES", "hympi_wait", "HYMPI_WAIT_", "options.hpp", "WaitPolicy", "HYMPI_WAIT"),
    ("HYMPI_TREE_SHAPES", "hympi_tree", "HYMPI_TREE_", "options.hpp", "TreeShape", "HYMPI_TREE"),
    ("HYMPI_BARRIER_ALGORITHMS", "hympi_barrier_algorithm", "HYMPI_BARRIER_", "options.hpp", "BarrierAlgorithm",
     "HYMPI_BARRIER"),
    ("HYMPI_MEMORY_ORDERS", "hympi_orders", "HYMPI_ORDERS_", "options.hpp", "MemoryOrders", "HYMPI_ORDERS"),
    ("HYMPI_WRITERS", "hympi_writers", "HYMPI_WRITERS_", "node_shared.hpp", "Writers", None),
]
FORTRAN_KINDS = {"int": "integer(c_int)", "double": "real(c_double)", "size_t": "integer(c_size_t)"}


def read(root, *path):
    with open(os.path.join(root, *path)) as f:
        return f.read()


def uncomment(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def table(root):
    """{list: rows} of names.h: (name, constant, value) for enumerations, (field, c_type,
    type, doc) for HYMPI_OPTIONS."""
    lists = {}
    for m in re.finditer(r"#define (HYMPI_\w+)\(X\)((?:[^\n]*\\\n)*[^\n]*)", read(root, "include", "hympi", "names.h")):
        rows = re.findall(r"X\(([^\n]*)\)", m.group(2))
        lists[m.group(1)] = [tuple(c.strip() for c in row.split(",", 3)) for row in rows]
    return lists


def check_table(lists, errors):
    for name, _, prefix, *_ in GROUPS:
        rows = lists.get(name)
        if not rows:
            errors.append(f"names.h: no list {name}")
            continue
        for i, (n, constant, value) in enumerate(rows):
            if value != str(i):
                errors.append(f"{name}: {n} is numbered {value}, but is row {i} (numbers run 0, 1, 2, ... in order)")
            if constant != prefix + n.upper():
                errors.append(f"{name}: {n}'s constant is {constant}, not {prefix + n.upper()}")
        if len({r[0] for r in rows}) != len(rows):
            errors.append(f"{name}: a name twice")


def check_expansions(root, errors):
    c = uncomment(read(root, "include", "hympi.h"))
    python = "".join(uncomment(read(root, "python", "src", f))
                     for f in sorted(os.listdir(os.path.join(root, "python", "src"))) if f.endswith(".cpp"))
    for name, typedef, _, header, cxx, _ in GROUPS:
        if not re.search(r"typedef enum\s*\{\s*%s\(HYMPI_C_ENUMERATOR\)\s*\}\s*%s\s*;" % (name, typedef), c):
            errors.append(f"{name}: include/hympi.h has no 'typedef enum {{ {name}(HYMPI_C_ENUMERATOR) }} {typedef};'")
        cpp = uncomment(read(root, "include", "hympi", header))
        if not re.search(r"enum class %s\b[^{;]*\{\s*%s\(HYMPI_CXX_ENUMERATOR\)\s*\}" % (cxx, name), cpp):
            errors.append(f"{name}: include/hympi/{header} has no 'enum class {cxx} {{ {name}(HYMPI_CXX_ENUMERATOR) }}'")
        if not re.search(r'bind_enum<%s>\(m,\s*"%s",(?:(?!bind_enum).)*?\{%s\(HYMPY_MEMBER\)\}\)' % (typedef, cxx, name),
                         python, re.S):
            errors.append(f"{name}: python/src binds no bind_enum<{typedef}>(m, \"{cxx}\", ..., {{{name}(HYMPY_MEMBER)}})")


def check_fortran(build, lists, errors):
    folder = os.path.join(build, "src", "fortran", "include")
    try:
        names, public = (re.sub(r"!.*", "", read(folder, f)) for f in ("hympi_names.inc", "hympi_names_public.inc"))
    except FileNotFoundError:
        return "no Fortran module in this build"
    want = {constant: int(value) for name, *_ in GROUPS for _, constant, value in lists.get(name, [])}
    got = {k: int(v) for k, v in re.findall(r"enumerator\s*::\s*(HYMPI_\w+)\s*=\s*(-?\d+)", names)}
    for constant in sorted(set(got) | set(want)):
        if got.get(constant) != want.get(constant):
            errors.append(f"Fortran hympi_names.inc: {constant} = {got.get(constant)}, names.h {want.get(constant)}")
    for file, text in (("hympi_names.inc", names), ("hympi_names_public.inc", public)):
        published = set(re.findall(r"public\s*::\s*(HYMPI_\w+)", text))
        if published != set(want):
            errors.append(f"Fortran {file}: public {sorted(published ^ set(want))} differ from names.h")
    fields = re.findall(r"^\s*([\w()]+)\s*::\s*(\w+)\s*=", names.split("type, bind(c), public :: hympi_options")[-1],
                        flags=re.M)
    options = [(FORTRAN_KINDS.get(c_type, c_type), field) for field, c_type, *_ in lists.get("HYMPI_OPTIONS", [])]
    if fields != options:
        errors.append(f"Fortran hympi_options {fields} but HYMPI_OPTIONS {options}")
    return "the generated Fortran read"


def check_options(root, lists, errors):
    fields = [row[0] for row in lists.get("HYMPI_OPTIONS", [])]
    if not fields:
        errors.append("names.h: no list HYMPI_OPTIONS")
    struct = re.search(r"struct Options \{(.*?)\n\};", uncomment(read(root, "include", "hympi", "options.hpp")), re.S)
    members = re.findall(r"^\s*[\w:]+\s+(\w+)\s*=[^;(]*;", struct.group(1), flags=re.M) if struct else []
    if members != fields:
        errors.append(f"HYMPI_OPTIONS {fields} but hympi::Options has {members}")
    to_options = re.search(r"Options to_options\(.*?\n\}", read(root, "src", "c", "options.cpp"), re.S)
    checked = set(re.findall(r"options\.(\w+) =", to_options.group(0))) if to_options else set()
    if set(fields) - checked:
        errors.append(f"src/c/options.cpp: to_options() takes no {sorted(set(fields) - checked)} from C")


def check_docs(root, lists, errors):
    names = {name: [row[0] for row in lists.get(name, [])] for name, *_ in GROUPS}
    usage = read(root, "docs", "usage.md")
    m = re.search(r"^\| strategy \| intranode \| internode \|\n\|[-|]+\|\n((?:\|[^\n]*\n)+)", usage, re.M)
    documented = [n for row in (m.group(1).splitlines() if m else []) for n in re.findall(r"`(\w+)`", row.split("|")[1])]
    if sorted(documented) != sorted(names["HYMPI_STRATEGIES"]):
        errors.append(f"docs/usage.md: the strategy table lists {documented}, names.h {names['HYMPI_STRATEGIES']}")
    settings = read(root, "docs", "settings.md")
    for name, *_, variable in GROUPS:
        if not variable:
            continue
        row = re.search(r"^\| `%s` \| ([^|]*) \|" % variable, settings, re.M)
        values = {v.split(":")[0] for v in re.findall(r"`([\w:]+)`", row.group(1))} if row else set()
        if values != set(names[name]):
            errors.append(f"docs/settings.md: {variable} takes {sorted(values)}, names.h {sorted(names[name])}")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    errors = []
    lists = table(root)
    check_table(lists, errors)
    check_expansions(root, errors)
    fortran = check_fortran(sys.argv[2], lists, errors) if len(sys.argv) > 2 else "no build folder given"
    check_options(root, lists, errors)
    check_docs(root, lists, errors)
    for e in errors:
        print("check_names:", e)
    count = sum(len(lists.get(name, [])) for name, *_ in GROUPS)
    print(f"check_names: {len(GROUPS)} enumerations, {count} names, {len(lists.get('HYMPI_OPTIONS', []))} options "
          f"({fortran}): " + ("C, C++, Python and the docs follow names.h" if not errors else f"{len(errors)} differences"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
