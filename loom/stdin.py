"""``-`` as an input path means standard input (mlir-opt's habit): read once, named ``<stdin>`` in locations.

The bytes are read on first use and kept, so every reader of ``-`` in one run (and every process forked after
the first read) sees the same text; errors in it are located at ``<stdin>:line:col``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Optional

STDIN = "-"  # the path that names standard input
STDIN_NAME = "<stdin>"  # how locations and reports name it
STDIN_STEM = "stdin"  # the stem of what is written for it (``-o DIR``: DIR/stdin.dfg.mlir)

_DATA: Optional[bytes] = None


def is_stdin(path: str | Path) -> bool:
    """Whether ``path`` names standard input."""
    return str(path) == STDIN


def display_name(path: str | Path) -> str:
    """``path`` as locations name it (``<stdin>`` for ``-``)."""
    return STDIN_NAME if is_stdin(path) else str(path)


def read_stdin() -> bytes:
    """Standard input's bytes, read once per process (later calls return the same bytes)."""
    global _DATA
    if _DATA is None:
        if sys.stdin is None:  # the process was started with standard input closed
            raise OSError("standard input is closed")
        _DATA = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read().encode("utf-8")
    return _DATA


def forget() -> None:
    """Drop the bytes read (a new ``loom`` run in the same process reads standard input afresh)."""
    global _DATA
    _DATA = None


def is_input_file(path: str | Path) -> bool:
    """Whether ``path`` can be read as an input: standard input, or an existing regular file."""
    return is_stdin(path) or Path(path).is_file()
