# SPDX-License-Identifier: BSD-3-Clause
"""The MPI a hympi build needs (hympi._built_for, in mpi4py's ABI names) and what it says
when the process has another: the recorded library is the one the extension runs on, and
an extension that cannot load its MPI library raises an ImportError that names the MPI it
was built for and what to do (shown for real: the library hidden in a mount namespace)."""

import os
import re
import shutil
import subprocess
import sys

import pytest
from mpi4py import MPI

import hympi
from hympi import _abi, _built_for


def test_built_for_names_the_library_it_runs_on():
    runtime = hympi.mpi_library_version().splitlines()[0].strip()
    assert _built_for.library.strip() == runtime
    family = {"openmpi": "Open MPI", "mpich": "MPICH", "impi": "Intel"}.get(_built_for.abi)
    assert family is not None and family in runtime, (_built_for.abi, runtime)


def test_load_error_says_what_to_do():
    explained = _abi.load_error(ImportError("libmpi.so.40: cannot open shared object file: No such file"))
    assert isinstance(explained, ImportError)
    text = str(explained)
    assert f"built for {_built_for.library}" in text and f"ABI {_built_for.abi}" in text
    assert "libmpi.so.40: cannot open shared object file" in text
    assert "pip install --no-binary hympi --force-reinstall hympi" in text
    assert _abi.load_error(ImportError("No module named 'numpy'")) is None


def mpi_library_of_extension():
    """The MPI library file the extension loads (ldd), or None."""
    if not shutil.which("ldd"):
        return None
    out = subprocess.run(["ldd", hympi._hympi.__file__], capture_output=True, text=True).stdout
    found = re.search(r"^\s*(libmpi\S*\.so\S*) => (\S+)", out, re.M)
    return found.group(2) if found else None


def test_extension_without_its_mpi_says_what_it_needs():
    if MPI.COMM_WORLD.Get_rank() != 0:
        pytest.skip("one rank is enough: a process of its own")
    library = mpi_library_of_extension()
    if library is None or os.geteuid() != 0 or not shutil.which("unshare"):
        pytest.skip("needs ldd, root and unshare (a mount namespace hides the MPI library)")
    if subprocess.run(["unshare", "--mount", "true"], capture_output=True).returncode != 0:
        pytest.skip("this kernel or sandbox does not allow mount namespaces")
    package = os.path.dirname(os.path.dirname(hympi.__file__))
    script = f'mount --bind /dev/null "{library}" && exec "{sys.executable}" -c "import hympi"'
    env = dict(os.environ, PYTHONPATH=package + os.pathsep + os.environ.get("PYTHONPATH", ""))
    done = subprocess.run(["unshare", "--mount", "sh", "-c", script], capture_output=True, text=True, env=env,
                          timeout=60)
    assert done.returncode != 0
    assert f"ImportError: hympi: this hympi was built for {_built_for.library}" in done.stderr, done.stderr
    assert "pip install --no-binary hympi" in done.stderr
