# SPDX-License-Identifier: BSD-3-Clause
"""Shared pieces of the hympi tests. pytest runs under mpiexec: every rank runs every test
in the same order, so a test's collective calls match across ranks. A test that expects
an error catches it itself and then compares the messages of all ranks with mpi4py (no
rank waits in a collective the others skipped). Results are checked against mpi4py or
hand-computed values, with data that changes between calls."""

import re

import numpy as np
import pytest
from mpi4py import MPI

import hympi

DTYPES = [np.float64, np.float32, np.int32, np.int64]


@pytest.fixture(scope="session")
def ctx():
    """One Context for the tests that need no other (HYMPI_* from the environment, as ctest
    sets it): making one takes about a second at four oversubscribed ranks."""
    with hympi.Context() as context:
        yield context


@pytest.fixture
def comm():
    return MPI.COMM_WORLD


def error_of(call, error=hympi.Error):
    """The message of the `error` that call() raises on this rank, None if none."""
    try:
        call()
    except error as e:
        return str(e)
    return None


def raises_everywhere(call, match, error=hympi.Error):
    """call() raises `error` on every rank with the same message, matching `match`."""
    messages = MPI.COMM_WORLD.allgather(error_of(call, error))
    assert all(m is not None for m in messages), f"no error on some ranks: {messages}"
    assert len(set(messages)) == 1, f"messages differ between ranks: {messages}"
    assert re.search(match, messages[0]), messages[0]


def raises_here(call, match, error=hympi.Error):
    """call() raises `error` on this rank (a local error: no communication)."""
    message = error_of(call, error)
    assert message is not None, f"no {error.__name__}"
    assert re.search(match, message), message


def pytest_runtest_logreport(report):
    """A failure is printed at once, with its rank: the summary at the end of the session
    never comes if the failure then makes the other ranks wait (the watchdog, HYMPI_TIMEOUT,
    ends the job)."""
    if report.failed:
        print(f"\n[rank {MPI.COMM_WORLD.rank}] {report.nodeid} {report.when} failed:\n{report.longreprtext}",
              flush=True)
