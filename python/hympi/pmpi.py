# SPDX-License-Identifier: BSD-3-Clause
"""libhympi_pmpi.so, built with this package: preloaded under an unchanged MPI program
(mpi4py's too), it serves the program's MPI_Barrier, MPI_Bcast, MPI_Reduce and
MPI_Allreduce (and, when asked, its neighbourhood exchanges) through hympi:

    mpiexec -n 4 env LD_PRELOAD=$(python -m hympi.pmpi) ./app
    mpiexec -n 4 env LD_PRELOAD=$(python -m hympi.pmpi) MPI4PY_RC_THREAD_LEVEL=funneled python app.py

(mpi4py asks for MPI_THREAD_MULTIPLE unless told otherwise, and at that level the library
leaves every call to MPI.) docs/pmpi.md has its settings (HYMPI_PMPI, HYMPI_PMPI_REPORT=1).
"""

import sys
from pathlib import Path


def library() -> str:
    """The path of the package's libhympi_pmpi.so, for LD_PRELOAD."""
    path = Path(__file__).with_name("libhympi_pmpi.so")
    if not path.is_file():
        raise FileNotFoundError(f"{path} does not exist: this hympi was built without libhympi_pmpi "
                                "(HYMPI_BUILD_PMPI=OFF); rebuild it with the default")
    return str(path)


if __name__ == "__main__":
    try:
        print(library())
    except FileNotFoundError as error:
        sys.exit(f"hympi.pmpi: {error}")
