"""``loom hdl``: every output file of one design, built in memory first, then written all at once.

Files: ``<stem>.sv`` (top), ``loom_fifo.sv``, ``loom_props.svh``, one
``loom_<kind>_<hash>.sv`` per distinct operator table, ``<stem>.f`` (file
list), ``<stem>.sby`` (SymbiYosys project) and ``<stem>.props.json``. The text
depends only on the input, so output is deterministic.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Optional
from pathlib import Path

from loom.diagnostics import LoomError
from loom.hdl import buffers as bufs
from loom.hdl.formal import invariants, liveness, refenv
from loom.hdl.datapath import libm_c
from loom.hdl.netlist import Design, build_design
from loom.hdl.properties import LIB, manifest
from loom.hdl.formal.depth import DEFAULT_N
from loom.hdl.formal.sby import DFG_DEPTH, bundle, project
from loom.ir.core import Operation
from loom.outputs import write_into

SVA_BACKENDS = ("full", "yosys")


@dataclass
class Emitted:
    """A design and its output files (name -> text), in write order."""

    design: Design
    files: dict[str, str]
    stem: str
    invariants: Optional[invariants.Invariants] = None  # helpers of the unbounded monitor proof (<stem>_prove.sby)

    @property
    def sv_files(self) -> list[str]:
        """The SV sources in compilation order (library first, top last)."""
        return [n for n in self.files if n.endswith(".sv") and n != f"{self.stem}_formal.sv"]

    @property
    def c_files(self) -> list[str]:
        """The C sources the float models call (``loom_libm.c``, loom.hdl.datapath.libm_c), compiled with the design."""
        return [n for n in self.files if n.endswith(".c")]


def emit(func: Operation, stem: str, *, sva: str = "yosys", fifo_depth: int = 2,
         rtl_bound: Optional[int] = None, dfg_depth: int = DFG_DEPTH, monitors: bool = True,
         bmc_k: int = liveness.DEFAULT_K, live_depth: int = liveness.DEFAULT_DEPTH,
         source: Optional[Operation] = None, buffers: str = bufs.DEFAULT_POLICY,
         free_depth: Optional[int] = None, mem_n: int = DEFAULT_N, stalls: Optional[int] = None) -> Emitted:
    """Build every output file of ``func`` in memory (raises ``LoomError`` for bad or unsupported input).

    ``monitors=False`` leaves out the DFG-level monitors (they need the verifier's analyses, ~0.3 s a function;
    co-simulation never compiles them); the whole-run deadlock/residual monitor (``loom.hdl.formal.liveness``, under
    ``LOOM_LIVENESS``) is always there, checked by ``<stem>_live.sby``. ``source``: the SCF func.func ``func``
    was lowered from (the order monitors then require its program order, as ``loom verify`` does). ``buffers``:
    the policy placing the channel FIFOs (loom.hdl.buffers). ``free_depth``: the depth of task ``dfg`` (any memory
    timing) when it is less than ``dfg_depth`` (``loom.hdl.formal.sby.project``). ``mem_n``: without ``rtl_bound``,
    task ``dfg_mem`` assumes every integer argument and memref size in [0, mem_n] (``depth.mem_bound``).
    ``stalls``: task ``dfg_mem``'s stall budget, default ``sby.STALLS`` (tests raise it to show what 1 misses)."""
    if sva not in SVA_BACKENDS:
        raise LoomError(f"--sva must be one of {', '.join(SVA_BACKENDS)}, got {sva!r}")
    if fifo_depth < 1:
        raise LoomError(f"--fifo-depth must be at least 1, got {fifo_depth}")
    d = build_design(func, fifo_depth, rtl_bound, monitors, source, buffers)
    liveness.insert_monitor(d, bmc_k, rtl_bound)
    inv = invariants.build_invariants(d)
    invariants.insert(d, inv)
    ref = rtl_bound is not None and d.monitors is not None  # a bound makes whole runs finite: task dfg_ref
    if d.monitors is not None:  # co-simulation's memory: task dfg_mem, and dfg_ref with a bound
        refenv.insert(d)
    files: dict[str, str] = {
        "loom_props.svh": (LIB / "loom_props.svh").read_text(),
        "loom_fifo.sv": (LIB / "loom_fifo.sv").read_text(),
    }
    for name in sorted(d.components):
        files[f"{name}.sv"] = d.components[name].text
    files[f"{stem}.sv"] = d.text
    files.update(libm_c.files_for({f for c in d.components.values() for f in c.c_files}))
    sv = [n for n in files if n.endswith(".sv")]
    flist = ["+incdir+."] + (["+define+LOOM_SVA_FULL"] if sva == "full" else []) + sv
    files[f"{stem}.f"] = "\n".join(flist) + "\n"
    files[f"{stem}_formal.sv"] = bundle(d)
    files[f"{stem}.sby"] = project(d, ["loom_props.svh"] + sv + [f"{stem}_formal.sv"], dfg_depth=dfg_depth,
                                    ref=ref, free_depth=free_depth, **({} if stalls is None else {"stalls": stalls}),
                                    mem_bound=None if rtl_bound is not None else mem_n)
    files[f"{stem}_live.sby"] = liveness.project(d, stem, ["loom_props.svh"] + sv, live_depth)
    if inv.props:
        files[f"{stem}_prove.sby"] = invariants.project(d, inv, ["loom_props.svh"] + sv)
    files[f"{stem}.props.json"] = json.dumps(manifest(d, stem, sva, bmc_k), indent=2) + "\n"
    return Emitted(d, files, stem, inv)


def write_all(outdir: Path, files: dict[str, str]) -> None:
    """Write every file into ``outdir`` or none, reporting a bad path as every other output (loom.outputs)."""
    write_into(outdir, files)
