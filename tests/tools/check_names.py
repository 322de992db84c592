#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""One table per name: every enumeration of the C++ API (include/hympi/*.hpp, the source of
truth: names in declaration order, values 0, 1, ...) against its spellings elsewhere, which
must hold exactly the same names with the same values (none missing, none extra):
  - the C header's typedef enum (include/hympi.h): HYMPI_<PREFIX><NAME>
  - the Fortran module's enumerators (src/fortran/hympi_c_api.f90) and public list (hympi.f90)
  - the Python module's nb::enum_ values (python/src/*.cpp): the C++ names
Standard library only; prints each difference and exits 1 on any.

    tests/tools/check_names.py [source root]
"""
import os
import re
import sys

# C++ enum (header, name) -> C typedef, C prefix. One row per enumeration of the API.
GROUPS = [
    ("types.hpp", "Datatype", "hympi_datatype", "HYMPI_"),
    ("types.hpp", "Op", "hympi_op", "HYMPI_"),
    ("halo.hpp", "Strategy", "hympi_strategy", "HYMPI_STRATEGY_"),
    ("halo.hpp", "HaloMode", "hympi_halo_mode", "HYMPI_MODE_"),
    ("block.hpp", "Stencil", "hympi_stencil", "HYMPI_STENCIL_"),
    ("options.hpp", "WaitPolicy", "hympi_wait", "HYMPI_WAIT_"),
    ("options.hpp", "TreeShape", "hympi_tree", "HYMPI_TREE_"),
    ("options.hpp", "BarrierAlgorithm", "hympi_barrier_algorithm", "HYMPI_BARRIER_"),
    ("options.hpp", "MemoryOrders", "hympi_orders", "HYMPI_ORDERS_"),
    ("node_shared.hpp", "Writers", "hympi_writers", "HYMPI_WRITERS_"),
]


def read(root, *path):
    with open(os.path.join(root, *path)) as f:
        return f.read()


def uncomment(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def cpp_names(root, header, name):
    text = uncomment(read(root, "include", "hympi", header))
    m = re.search(r"enum class %s\b[^{]*\{([^}]*)\}" % name, text)
    if not m:
        return None
    return [n.strip() for n in m.group(1).split(",") if n.strip()]


def c_constants(root, typedef):
    text = uncomment(read(root, "include", "hympi.h"))
    m = re.search(r"typedef enum\s*\{([^}]*)\}\s*%s\s*;" % typedef, text)
    if not m:
        return None
    return {k: int(v) for k, v in re.findall(r"(HYMPI_\w+)\s*=\s*(-?\d+)", m.group(1))}


def fortran_enums(root):
    """The Fortran module's enum, bind(c) blocks, each as {name: value}."""
    text = re.sub(r"!.*", "", read(root, "src", "fortran", "hympi_c_api.f90"))
    text = re.sub(r"&\s*\n\s*&?", " ", text)
    return [{k: int(v) for k, v in re.findall(r"(HYMPI_\w+)\s*=\s*(-?\d+)", block)}
            for block in re.findall(r"enum\s*,\s*bind\s*\(\s*c\s*\)(.*?)end\s+enum", text, flags=re.S | re.I)]


def fortran_public(root):
    text = re.sub(r"!.*", "", read(root, "src", "fortran", "hympi.f90"))
    text = re.sub(r"&\s*\n\s*&?", " ", text)
    return set(re.findall(r"\b(HYMPI_[A-Z0-9_]+)\b", " ".join(re.findall(r"public\s*::([^\n]*)", text))))


def python_values(root):
    """{C typedef: {python name: C constant}} from the nb::enum_ definitions."""
    found = {}
    folder = os.path.join(root, "python", "src")
    for file in sorted(os.listdir(folder)):
        if not file.endswith(".cpp"):
            continue
        text = uncomment(read(root, "python", "src", file))
        for m in re.finditer(r"nb::enum_<(\w+)>\((.*?);\s*\n", text, flags=re.S):
            # A Python keyword gets a trailing underscore (WaitPolicy.yield_).
            found[m.group(1)] = {n.rstrip("_"): c for n, c in re.findall(r'\.value\("(\w+)",\s*(HYMPI_\w+)\)', m.group(2))}
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    errors = []
    fortran, public, python = fortran_enums(root), fortran_public(root), python_values(root)
    checked = 0
    for header, name, typedef, prefix in GROUPS:
        names = cpp_names(root, header, name)
        c = c_constants(root, typedef)
        if names is None or c is None:
            errors.append(f"{name}: no 'enum class {name}' in include/hympi/{header} or no '{typedef}' in hympi.h")
            continue
        want = {prefix + n.upper(): i for i, n in enumerate(names)}
        if c != want:
            errors.append(f"{name}: C++ {want} but hympi.h {typedef} {c}")
        f = next((block for block in fortran if set(block) & set(want)), {})
        if f != want:
            errors.append(f"{name}: C++ {want} but the Fortran enum {f}")
        if not set(want) <= public:
            errors.append(f"{name}: not public in the Fortran module: {sorted(set(want) - public)}")
        py = python.get(typedef)
        if py is None:
            errors.append(f"{name}: no nb::enum_<{typedef}> in python/src")
        elif py != {n: prefix + n.upper() for n in names}:
            errors.append(f"{name}: C++ {names} but Python {py}")
        checked += len(names)
    for e in errors:
        print("check_names:", e)
    print(f"check_names: {len(GROUPS)} enumerations, {checked} names: "
          + ("C, Fortran and Python agree with C++" if not errors else f"{len(errors)} differences"))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
