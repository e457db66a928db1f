"""``pytest --cpu-times=FILE``: each test's CPU seconds (pytest's own and every process it waited for) appended to
FILE as ``<seconds>\t<node id>``. Wall durations (``--durations``) swell when other jobs share the machine; CPU
seconds do not, so this is what tests/README.md's time table is measured with."""

from __future__ import annotations

import os
import resource
from typing import Iterator

import pytest


def cpu_seconds() -> float:
    """User + system seconds of this process and of its waited-for children so far."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def add_option(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-times", metavar="FILE", default=None,
                     help="append each test's CPU seconds (with its subprocesses') to FILE")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem) -> Iterator[None]:
    """Time set-up, call and tear-down of ``item`` together (a module fixture's cost lands on its first test)."""
    path = item.config.getoption("--cpu-times")
    t0 = cpu_seconds()
    yield
    if path:
        line = f"{cpu_seconds() - t0:.3f}\t{item.nodeid}\n"
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)  # one write per line: xdist workers share it
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)
