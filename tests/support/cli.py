"""``loom ARGS`` run in the test's own process, shaped like ``subprocess.run``'s result.

For the deterministic commands a test runs many times (``loom sim``, ``loom compile``): a fresh interpreter costs
~0.4 s of CPU to start and import loom, more than a small simulation. ``loom verify`` stays a subprocess in the
tests that read its verdicts: Z3's work on a query depends on the terms the process made before it.
"""

from __future__ import annotations

import subprocess

from loom.testing.c_native import run_cli


def loom_here(*args: str) -> subprocess.CompletedProcess:
    """``loom ARGS`` in this process: the exit code, stdout and stderr a subprocess would give."""
    code, out, err = run_cli([str(a) for a in args])
    return subprocess.CompletedProcess(["loom", *args], code, out, err)
