# SPDX-License-Identifier: BSD-3-Clause
"""hympi.pmpi: the package's libhympi_pmpi.so, found beside the extension, and `python -m
hympi.pmpi` printing its path for LD_PRELOAD (python.pmpi.* preload it under a plain
mpi4py program)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

import hympi
import hympi.pmpi
from hympi import _built_for

built = pytest.mark.skipif(not _built_for.pmpi, reason="built without libhympi_pmpi (HYMPI_BUILD_PMPI=OFF)")


@built
def test_library_is_beside_the_extension():
    path = Path(hympi.pmpi.library())
    assert path.is_file() and path.name == "libhympi_pmpi.so"
    assert path.parent == Path(hympi.__file__).parent


@built
def test_module_prints_the_path():
    run = subprocess.run([sys.executable, "-m", "hympi.pmpi"], capture_output=True, text=True, env=os.environ,
                         check=True)
    assert run.stdout.strip() == hympi.pmpi.library()


def test_missing_library_says_what_to_do(tmp_path, monkeypatch):
    monkeypatch.setattr(hympi.pmpi, "__file__", str(tmp_path / "pmpi.py"))
    try:
        hympi.pmpi.library()
    except FileNotFoundError as error:
        assert "built without libhympi_pmpi" in str(error) and "HYMPI_BUILD_PMPI" in str(error)
    else:
        raise AssertionError("no error for a package without the library")
