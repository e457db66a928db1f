"""Library entry points behind ``loom hdl`` and ``loom sim --rtl`` (the CLI only parses and prints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Optional

from loom.hdl.buffers import DEFAULT_POLICY
from loom.hdl.emit import Emitted, emit, write_all
from loom.hdl.rtlsim import run
from loom.ir.core import Module, Operation
from loom.sim.result import SimResult


def write_design(func: Operation, stem: str, outdir: Path, *, sva: str = "yosys", fifo_depth: int = 2,
                 source: Optional[Operation] = None, buffers: str = DEFAULT_POLICY) -> Emitted:
    """Emit every file of ``func``'s RTL into ``outdir`` (all or nothing; ``source``: its SCF func.func)."""
    e = emit(func, stem, sva=sva, fifo_depth=fifo_depth, source=source, buffers=buffers)
    write_all(outdir, e.files)
    return e


def simulate_rtl(func: Operation, stem: str, inputs: dict[str, Any], module: Optional[Module], *,
                 stall: Optional[int] = None, fifo_depth: int = 2, simulator: Optional[str] = None,
                 source: Optional[Operation] = None, info: Optional[dict[str, Any]] = None,
                 vcd: Optional[Path] = None, progress: Optional[Callable[[str], None]] = None,
                 buffers: str = DEFAULT_POLICY) -> SimResult:
    """Emit ``func``'s RTL and co-simulate it on decoded ``inputs``; the result reads like the token simulator's
    (``source``: its SCF func.func, which names the safety monitors' ops, loom.hdl.monitors.safety). ``info``
    receives the simulator, its version and the cycles (``loom.hdl.rtlsim.run``); ``vcd``: write the waveform."""
    # co-simulation never compiles the DFG-level monitors; the safety monitors are always there
    e = emit(func, stem, fifo_depth=fifo_depth, monitors=False, source=source, buffers=buffers)
    return run(e, inputs, module, stall=stall, simulator=simulator, info=info, vcd=vcd, progress=progress)
