"""RTL simulation with the DFG-level monitors live: Z3's witness replayed over its whole run, and whole runs of
kernels whose smallest run is longer than a bounded formal check can go (issue 26).

A bounded SymbiYosys check whose depth cannot contain Z3's witness run says nothing of that run. Simulating the
witness (its arguments, and its memory contents when Z3's replay gives them) in the emitted RTL, under
co-simulation's memory, with every monitor compiled in (``LOOM_SIM_MONITORS``, ``loom_props.svh``: a failing
always-property prints ``LOOM assert <scope> <cycle>``) decides it for that run: the monitor fires (RTL and Z3
agree), or the run completes and it does not (a disagreement, for the monitors whose verdict a run's schedule
cannot change), or the simulation could not be built or run (still ``not reached``). The cap is a cycle count,
never wall clock. iverilog builds in about a second where Verilator takes tens of seconds of CPU, so it is tried
first; both print the same lines.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Optional

from loom.diagnostics import LoomError
from loom.hdl.emit import Emitted
from loom.ir.core import Module, Operation

DEFINES = ("LOOM_DFG_MONITORS", "LOOM_SIM_MONITORS")
# LOOM_ASSERTIONS is defined in the top's file only (``_monitors_only``): its DFG-level monitors are live, the
# components' and the FIFOs' properties (proved by k-induction, tasks components and fifo) are not compiled -- on
# gemm.c they cost 1.5 of 2.6 CPU seconds of iverilog per whole run
CYCLES = 200_000  # a replay is cut after this many cycles (deterministic; a whole run of gemm.c is 1,609)
SEEDS = (1, 2)  # --stall seeds of the whole-run co-simulations (``whole_runs``), beside the stall-free run
FILLS = ("ramp",)  # memory fills of those runs (loom.hdl.formal.depth.FILLS): on gemm.c the data steer no branch
# monitor families whose verdict on a run does not depend on its schedule (token counts at the end of a run of a
# determinate network): a completed replay where such a monitor holds is a disagreement with Z3; the others (order,
# access, stream forms) may need another memory timing than co-simulation's
SCHEDULE_FREE = ("len", "balance", "class", "bmc")
# --stall seeds a witness of a schedule-dependent form (mem.*, done.*) is replayed under, in turn, when it held
# under co-simulation's memory: random response latency 1-32 and back-pressure per port, random FIFO gaps
# (loom.hdl.rtlsim); the first that shows the monitor failing settles it. Deterministic (seeded LFSRs), and run
# only where Z3 refutes such a form and the bounded checks held it (specs/hdl.md, "Later stalls")
SCHEDULE_SEEDS = tuple(range(1, 9))


def schedule_free(oid: str) -> bool:
    """Whether obligation ``oid``'s verdict on a run does not depend on the run's schedule (``SCHEDULE_FREE``)."""
    return oid.split(".", 1)[0] in SCHEDULE_FREE


@dataclass
class SimRun:
    """One RTL simulation with the monitors live: how it ended, its cycles and the monitors that failed."""

    status: str  # completed, deadlock, error (the run's own runtime error or its cycle cap), or "no run"
    cycles: Optional[int] = None
    fired: dict[str, int] = field(default_factory=dict)  # monitor label -> the first cycle it failed
    residual: int = 0
    simulator: str = ""
    why: str = ""  # "no run": why not (no simulator, the build failed, the witness cannot be decoded)


def simulator() -> Optional[str]:
    """The simulator of a replay: iverilog (builds in a second), else Verilator, else None."""
    from loom.hdl.rtlsim import find_simulator

    return find_simulator("iverilog") or find_simulator("verilator")


def _module(func: Operation) -> Optional[Module]:
    """The module ``func`` sits in (the globals of its on-chip memories), None when it has none."""
    top = next((a for a in func.ancestors() if a.name == "builtin.module"), None)
    return Module(top) if top is not None else None


def run(e: Emitted, func: Operation, inputs: dict[str, Any], stall: Optional[int] = None,
        max_cycles: int = CYCLES) -> SimRun:
    """Simulate design ``e`` (emitted with its monitors) on inputs-file values ``inputs``; never raises."""
    from loom.hdl import rtlsim
    from loom.runtime import decode_inputs, function_arg_names

    sim = simulator()
    if sim is None:
        return SimRun("no run", why="no RTL simulator (apt-get install iverilog)")
    if e.design.monitors is None:
        return SimRun("no run", simulator=sim, why="the design was emitted without its monitors")
    module = _module(func)
    try:
        names = function_arg_names(func)
        decoded = decode_inputs(names, [a.type for a in func.regions[0].entry.args], inputs, "<witness>", module)
    except LoomError as err:
        return SimRun("no run", simulator=sim, why=f"the witness's inputs do not decode ({err.message})")
    info: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="loom-replay-") as wd:
        try:
            got = rtlsim.run(_monitors_only(e), decoded, module, stall=stall, simulator=sim, max_cycles=max_cycles,
                             workdir=Path(wd), defines=DEFINES, info=info)
        except LoomError as err:
            return SimRun("no run", simulator=sim, why=f"the RTL simulation failed: {err.message}")
    return SimRun(got.status, info.get("cycles"), dict(info.get("monitors", {})), got.residual_tokens, sim)


def _monitors_only(e: Emitted) -> Emitted:
    """``e`` with ``LOOM_ASSERTIONS`` defined at the top of the top's file, which comes last (``Emitted.sv_files``):
    the macro is seen by the top's monitors and by no component (Verilator defines it everywhere anyway)."""
    top = f"{e.stem}.sv"
    files = dict(e.files)
    files[top] = "`define LOOM_ASSERTIONS  // the top's DFG-level monitors only (loom.hdl.formal.replay)\n" + files[top]
    return replace(e, files=files)


def witness_inputs(func: Operation, given: Optional[dict[str, Any]], args: Optional[dict[str, Any]]
                   ) -> Optional[dict[str, Any]]:
    """The inputs of Z3's witness run: its replay's inputs (``given``) when Z3 gives them, else its arguments with
    every memref sized by the largest of them and filled with a ramp (``depth.inputs_at``); None without either."""
    from loom.hdl.formal.depth import inputs_at

    if given:
        return dict(given)
    if not args:
        return None
    ints = [v for v in args.values() if isinstance(v, int) and not isinstance(v, bool)]
    out = inputs_at(func, max(ints) if ints else 1, "ramp")
    out.update({k: v for k, v in args.items() if k in out})
    return out


def fires(run_: SimRun, oid: str, labels: list[str]) -> Optional[int]:
    """The first cycle the run shows obligation ``oid`` failing (its monitor ``labels``; a ``bmc.*`` whole-run
    obligation: the run's deadlock or residual tokens, at its last cycle), None when it does not."""
    if oid.startswith("bmc."):
        kind = oid.rsplit(".", 1)[-1]
        bad = run_.status == "deadlock" if kind == "deadlock" else (run_.status == "completed" and run_.residual > 0)
        return run_.cycles if bad else None
    seen = [run_.fired[lbl] for lbl in labels if lbl in run_.fired]
    return min(seen) if seen else None


@dataclass
class WholeRuns:
    """Co-simulations of whole runs at a kernel's fixed sizes with every monitor live (``whole_runs``)."""

    n: int  # integer arguments (and unfixed memref sizes) of the runs
    runs: list[tuple[str, Optional[int], SimRun]] = field(default_factory=list)  # (fill, stall seed, run)

    @property
    def complete(self) -> list[SimRun]:
        return [r for _, _, r in self.runs if r.status == "completed"]

    @property
    def fired(self) -> dict[str, tuple[str, Optional[int], int]]:
        """Monitor label -> the first run (fill, seed) that shows it failing, and the cycle."""
        out: dict[str, tuple[str, Optional[int], int]] = {}
        for fill, seed, r in self.runs:
            for lbl, c in sorted(r.fired.items()):
                out.setdefault(lbl, (fill, seed, c))
        return out

    @property
    def why(self) -> str:
        """Why some run is not a whole run (the first's reason), '' when every run completed."""
        for fill, seed, r in self.runs:
            if r.status != "completed":
                return f"{fill}, {'no stalls' if seed is None else f'--stall {seed}'}: {r.why or r.status}"
        return ""

    def line(self) -> str:
        """``simulated: K whole runs held every monitor`` (or what failed), with sizes, memories and cycles."""
        done = self.complete
        cyc = sorted(r.cycles for r in done if r.cycles is not None)
        span = (f", {cyc[0]}-{cyc[-1]} cycles" if cyc and cyc[0] != cyc[-1] else f", {cyc[0]} cycles" if cyc else "")
        sim = self.runs[0][2].simulator if self.runs else ""
        scope = (f"integer arguments {self.n}, the kernel's fixed sizes, fills {'/'.join(FILLS)}, co-simulation's "
                 f"memory without stalls and with --stall {', '.join(map(str, SEEDS))}{span}; {sim}")
        if self.fired:
            return (f"simulated: {len(done)} of {len(self.runs)} whole runs completed, monitor(s) failing: "
                    + ", ".join(f"{lbl} ({f}, {'no stalls' if s is None else f'--stall {s}'}, cycle {c})"
                                for lbl, (f, s, c) in sorted(self.fired.items())) + f" ({scope})")
        if len(done) < len(self.runs):
            return f"simulated: {len(done)} of {len(self.runs)} runs whole ({self.why}) ({scope})"
        return f"simulated: {len(done)} whole runs held every monitor ({scope})"


def whole_runs(e: Emitted, func: Operation, n: int) -> WholeRuns:
    """Whole runs with every integer argument ``n`` (the chosen bound) at the sizes the kernel fixes, each memory
    fill of ``FILLS``, under co-simulation's memory without stalls and with each of ``SEEDS``: a handful of
    simulations of one to two thousand cycles, where the bounded formal check stops at ``depth.MEM_STEPS``."""
    from loom.hdl.formal.depth import inputs_at

    out = WholeRuns(n)
    for fill in FILLS:
        for seed in (None,) + SEEDS:
            out.runs.append((fill, seed, run(e, func, inputs_at(func, n, fill), stall=seed)))
            if out.runs[-1][2].status == "no run":
                return out  # no simulator, or the design does not build: the others would say the same
    return out
