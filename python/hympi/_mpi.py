# SPDX-License-Identifier: BSD-3-Clause
"""hympi and mpi4py: communicators cross as Fortran handles (``Comm.py2f`` and
``Comm.f2py``), which mpi4py 3.1 and 4.x both provide and which need no mpi4py headers or
C API at build time. The one condition is that hympi and mpi4py use the same MPI
library, checked before the first handle crosses (two MPI libraries in one process would
otherwise fail in obscure ways)."""

from . import _abi, _hympi

_checked = False


def _mpi():
    """mpi4py.MPI (its import initializes MPI), once checked to be hympi's MPI library."""
    global _checked
    from mpi4py import MPI

    if not _checked:
        ours = _hympi.mpi_library_version().strip()
        theirs = MPI.Get_library_version().rstrip("\x00").strip()  # Open MPI's counts its NUL
        if ours != theirs:
            raise _hympi.Error(_abi.mismatch(ours, theirs))
        _checked = True
    return MPI


def fortran_handle(comm):
    """The Fortran handle of an mpi4py communicator (None: MPI.COMM_WORLD)."""
    MPI = _mpi()
    if comm is None:
        comm = MPI.COMM_WORLD
    if not isinstance(comm, MPI.Comm):
        raise TypeError(f"hympi: Context: comm must be an mpi4py communicator (got {type(comm).__name__})")
    if comm == MPI.COMM_NULL:
        raise _hympi.Error("hympi: Context: comm is MPI.COMM_NULL")
    if not isinstance(comm, MPI.Intracomm):
        raise TypeError(f"hympi: Context: comm must be an intracommunicator (got {type(comm).__name__})")
    return comm.py2f()


def comm_from_fortran(handle, kind):
    """An mpi4py communicator for a Fortran handle: kind 'intra' or 'cart'."""
    MPI = _mpi()
    return (MPI.Cartcomm if kind == "cart" else MPI.Intracomm).f2py(handle)
