#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""check_docs.py fails on each planted drift: a copy of the repository's text files gets one
change (an undocumented variable read in C, through the sources' env() helper, in Python
and in a shell script; a documented variable no longer read; a wrong default in the code,
in docs/settings.md, in prose and in a comment; a removed file that a doc names; a new CMake option, a
changed option default, a new pkg-config file and CMake component; a cited section, an
anchor and a symbol that do not exist; a longer example; another CI budget; another Spack
minimum; a HYMPI_* name nothing has), and the checker must exit 1 with a new problem
saying so. Exits 1 naming each drift it missed (or could not plant).

    tests/tools/test_check_docs.py [repository root]
"""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_docs  # noqa: E402

CHECKER = os.path.join(HERE, "check_docs.py")


class NotPlanted(Exception):
    pass


def edit(root, path, old, new, count=1):
    """Replaces `old` with `new` in `path`, the first `count` times (-1: every time)."""
    file = os.path.join(root, path)
    with open(file) as f:
        text = f.read()
    if old not in text:
        raise NotPlanted(f"'{old}' is not in {path}")
    with open(file, "w") as f:
        f.write(text.replace(old, new, count))


def append(root, path, text):
    if not os.path.isfile(os.path.join(root, path)):
        raise NotPlanted(f"no {path}")
    with open(os.path.join(root, path), "a") as f:
        f.write(text)


def remove(root, path):
    if not os.path.isfile(os.path.join(root, path)):
        raise NotPlanted(f"no {path}")
    os.remove(os.path.join(root, path))


def create(root, path, text):
    with open(os.path.join(root, path), "w") as f:
        f.write(text)


# (what is planted, how, a text the checker's new problem must contain)
PLANTS = [
    ("a variable read with getenv, undocumented",
     lambda r: append(r, "src/mpi/coll/options.cpp", '\nconst char* planted() { return std::getenv("HYMPI_PLANTED_C"); }\n'),
     "HYMPI_PLANTED_C is read in src/mpi/coll/options.cpp"),
    ("a variable read with the options' env() helper, undocumented",
     lambda r: edit(r, "src/mpi/coll/options.cpp", 'if (const char* v = env("HYMPI_VERIFY"))',
                    'if (const char* p = env("HYMPI_PLANTED_HELPER")) o.verify = *p == 1;\n'
                    '  if (const char* v = env("HYMPI_VERIFY"))'),
     "HYMPI_PLANTED_HELPER is read in src/mpi/coll/options.cpp"),
    ("a variable read in Python, undocumented",
     lambda r: append(r, "bench/scripts/report.py", '\nPLANTED = os.environ.get("HYMPI_PLANTED_PY")\n'),
     "HYMPI_PLANTED_PY is read in bench/scripts/report.py"),
    ("a variable read in a shell script, undocumented",
     lambda r: append(r, "scripts/test.sh", '\n: "${HYMPI_PLANTED_SH:-x}"\n'),
     "HYMPI_PLANTED_SH is read in scripts/test.sh"),
    ("a documented variable no longer read",
     lambda r: edit(r, "mesh/cube_mesh.cpp", 'std::getenv("HYMPI_MESH_DIR")', 'std::getenv("HYMPI_MESH_FOLDER")'),
     "documents HYMPI_MESH_DIR, which nothing reads"),
    ("a default changed in the code",
     lambda r: edit(r, "include/hympi/options.hpp", "collective_buffer_bytes = 256 * 1024;",
                    "collective_buffer_bytes = 512 * 1024;"),
     "HYMPI_COLL_BUFFER default '262144', the code's is 524288"),
    ("a wrong default in docs/settings.md",
     lambda r: edit(r, "docs/settings.md", "after this many seconds; 0 = never | 600 |",
                    "after this many seconds; 0 = never | 60 |"),
     "HYMPI_TIMEOUT default '60', the code's is 600"),
    ("a wrong default of a script in docs/settings.md",
     lambda r: edit(r, "docs/settings.md", "| `/run/hympi-hosts` |", "| `/run/hympi` |"),
     "HYMPI_HOSTS_DIR default '`/run/hympi`', the scripts' is '/run/hympi-hosts'"),
    ("a wrong default in prose",
     lambda r: append(r, "docs/usage.md", "\nThe collective buffer is 1 MiB by default.\n"),
     "docs/usage.md: says 1 MiB is the default of HYMPI_COLL_BUFFER"),
    ("a wrong default in a source comment",
     lambda r: append(r, "src/core/wait.cpp", "\n// The collective buffer: 1 MiB by default.\n"),
     "src/core/wait.cpp: says 1 MiB is the default of HYMPI_COLL_BUFFER"),
    ("a removed file that a doc names",
     lambda r: remove(r, "src/core/messages.cpp"),
     "names src/core/messages.cpp, which does not exist"),
    ("an undocumented CMake option",
     lambda r: append(r, "CMakeLists.txt", '\noption(HYMPI_PLANTED_OPTION "planted" OFF)\n'),
     "CMake option HYMPI_PLANTED_OPTION (CMakeLists.txt) is not in docs/settings.md"),
    ("a CMake option's default changed",
     lambda r: edit(r, "CMakeLists.txt", 'option(HYMPI_WERROR "Treat warnings as errors" OFF)',
                    'option(HYMPI_WERROR "Treat warnings as errors" ON)'),
     "option HYMPI_WERROR default 'OFF', CMakeLists.txt says ON"),
    ("an undocumented pkg-config file",
     lambda r: create(r, "cmake/hympi-planted.pc.in", "Name: hympi-planted\n"),
     "pkg-config module hympi-planted (cmake/hympi-planted.pc.in) is not named"),
    ("an undocumented CMake component",
     lambda r: append(r, "cmake/hympiConfig.cmake.in", "\nset(hympi_planted_FOUND FALSE)\n"),
     "CMake component planted of hympi"),
    ("a cited section that does not exist",
     lambda r: append(r, "src/core/wait.cpp", '\n// Measured: BENCHMARKS.md, "A planted section".\n'),
     'src/core/wait.cpp: cites BENCHMARKS.md, "A planted section": no such section'),
    ("a link to an anchor that does not exist",
     lambda r: append(r, "docs/usage.md", "\nSee [the settings](pmpi.md#a-planted-anchor).\n"),
     "docs/usage.md: links to pmpi.md#a-planted-anchor: no such heading"),
    ("a symbol moved out of the file a doc places it in",
     lambda r: edit(r, "src/mpi/node/shared_window.cpp", "first_touch", "first_write", -1),
     "places first_touch in src/mpi/node/shared_window.cpp"),
    ("an example longer than examples/README.md says",
     lambda r: append(r, "examples/jacobi2d.py", "#\n" * 100),
     "but jacobi2d.py has"),
    ("another CI budget",
     lambda r: edit(r, "CONTRIBUTING.md", "CI's 60 minutes", "CI's 45 minutes"),
     "CONTRIBUTING.md: CI's 45 minutes; scripts/test.sh plans for 60"),
    ("another minimum version in the Spack recipe",
     lambda r: edit(r, "packaging/spack/spack_repo/hympi/packages/hympi/package.py", 'depends_on("hwloc@2:")',
                    'depends_on("hwloc@3:")'),
     "hwloc@2:, but the Spack recipe depends on hwloc@3:"),
    ("a HYMPI_* name that nothing has",
     lambda r: append(r, "README.md", "\n`HYMPI_PLANTED_NAME=1` does nothing.\n"),
     "README.md names HYMPI_PLANTED_NAME"),
]


def problems(root):
    run = subprocess.run([sys.executable, CHECKER, root], capture_output=True, text=True)
    lines = [line for line in run.stdout.split("\n") if line.startswith("check_docs: ")]
    return run.returncode, lines


def main():
    source = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", ".."))
    files = check_docs.listing(source)
    missed = []
    with tempfile.TemporaryDirectory() as scratch:
        def copy(name):
            root = os.path.join(scratch, name)
            for path in files:
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                shutil.copy(os.path.join(source, path), os.path.join(root, path))
            return root

        _, baseline = problems(copy("baseline"))
        print(f"test_check_docs: the unchanged copy: {len(baseline) - 1} problems")
        for number, (what, plant, expected) in enumerate(PLANTS):
            root = copy(f"plant{number}")
            try:
                plant(root)
            except NotPlanted as e:
                missed.append(f"{what}: could not plant it ({e})")
                continue
            code, found = problems(root)
            new = [line for line in found if line not in baseline]
            if code != 1 or not any(expected in line for line in new):
                missed.append(f"{what}: exit {code}, no new problem with \"{expected}\" in {new}")
            else:
                print(f"test_check_docs: caught {what}")
            shutil.rmtree(root)
    for m in missed:
        print("test_check_docs: MISSED", m)
    print(f"test_check_docs: {len(PLANTS)} planted drifts, " + (f"{len(missed)} missed" if missed else "each caught"))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
