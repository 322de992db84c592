# SPDX-License-Identifier: BSD-3-Clause
"""Which MPI this hympi needs, and what to do when the process has another. The extension
links the MPI library hympi was built with; hympi._built_for (generated at build time)
names it, in mpi4py's ABI names (openmpi, mpich, impi), so a wheel carried to a machine or
environment with another MPI says what it needs instead of failing in the loader or in
MPI."""

from . import _built_for

ADVICE = ("run it with that MPI, or build hympi for yours: with your MPI's mpicc and mpicxx on "
          "PATH, 'pip install --no-binary hympi --force-reinstall hympi' (from a checkout: "
          "'pip install .'), and mpi4py on the same MPI (docs/usage.md, section Python)")


def built_for():
    """The MPI library hympi was built with (its MPI_Get_library_version, first line)."""
    return f"{_built_for.library} (ABI {_built_for.abi})"


def load_error(error):
    """An ImportError saying what to do when the extension could not load its MPI library
    (None: the import failed for another reason)."""
    text = str(error)
    if "libmpi" not in text and "libmpich" not in text:
        return None
    return ImportError(f"hympi: this hympi was built for {built_for()}, whose library this process "
                       f"cannot load ({text}): {ADVICE}")


def mismatch(ours, theirs):
    """The message when mpi4py runs another MPI library than hympi's extension."""
    return ("hympi: hympi and mpi4py use different MPI libraries:\n"
            f"  hympi:  {ours.splitlines()[0]} (built for {built_for()})\n"
            f"  mpi4py: {theirs.splitlines()[0]}\n{ADVICE}")
