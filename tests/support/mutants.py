"""Mutants matched to SymbiYosys: classify each verifier mutant, run SBY on it, judge the match (one copy).

Shared by ``tests/rtl/test_hdl_mutants.py`` (a fast sample) and ``tools/rtl_mutants.py`` (every mutant of every
example, a CI step). Each mutant from ``loom.verify.mutate.mutants(..., per_operator=1)`` (as in
``tests/unit/verify/test_verify_mutation.py``) is verified by Z3 and emitted as RTL; its RTL properties come from
``props.json`` (their ``obligation`` fields), so the classes grow by themselves as more obligation
families get an RTL form. A mutant Z3 refutes is

* ``matched``: Z3 refutes an ID that has an RTL property, and a run at its counterexample's arguments fits
  the depth cap: SBY must fail with a property whose obligation is one of Z3's refuted IDs (and leave a VCD);
* ``beyond``: every such refutation needs a longer run than the cap, is a graph fact with no run to replay
  (no arguments in its counterexample) or gives per-loop trip counts only (``balance``/``class``/``len``);
* ``no RTL form``: refuted by ``refine.*`` only (the source program is not in the RTL);
* ``not in RTL yet``: refuted only by families with no RTL property in this build.

Speed, without weakening the match: one SBY task per mutant, the task of ``<stem>_live.sby`` that carries the
replayed ``bmc.K<k>.deadlock``/``residual`` (Z3's whole-run BMC is the one family whose counterexample is a
run: arguments and loop bound). The
arguments are pinned to Z3's counterexample (an assumption per integer argument and memref size; those it
leaves open are in ``[0, FREE_BOUND]``), and the depth is the cycles a run needs at those values (the token
simulator's firings over ``loom.hdl.formal.depth.FILLS``, plus margin: every cycle before a run ends fires a
rule). A bounded model check stops at its first failing step, so the depth only caps a run that would
disagree.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional

from loom.hdl.formal.depth import FILLS, inputs_at
from loom.hdl.emit import emit, write_all
from loom.hdl.formal.liveness import run_live
from loom.hdl.netlist import Design
from loom.hdl.datapath.expr import bits
from loom.ir.core import Operation
from loom.ir.types import IndexType, IntegerType, MemRefType
from loom.mlir import parse_text, print_module
from loom.runtime import function_arg_names
from loom.verify.driver import verify_function
from loom.verify.ids import ObligationId
from loom.verify.lemmas.check import LemmaCache
from loom.verify.mutate import mutants
from support.examples import MUTATION_CTX as CTX, example_lowered as lowered, example_source as source

MAX_DEPTH = 60  # cycles: a longer counterexample run is "beyond" (CI budget; --max-depth 256 runs more)
MIN_DEPTH = 12  # a few cycles past reset and the argument hand-over, whatever the simulator counted
FREE_BOUND = 1  # integer arguments and memref sizes the counterexample leaves open: [0, FREE_BOUND]
CAPACITY_FIFO_DEPTHS = (4, 8)  # a stall with a full FIFO before the deadlock: rerun with deeper FIFOs
TIMEOUT = 900.0  # seconds per SBY task; a timeout is reported as unknown, never as agreement
KINDS = ("matched", "beyond", "no RTL form", "not in RTL yet")


@dataclass
class Row:
    """One refuted mutant: Z3's verdict, its class and, when matched, what SBY runs (task, pins, depth)."""

    example: str
    operator: str
    site: str
    kind: str
    refuted: list[str]
    rtl: list[str]  # refuted IDs that have an RTL property
    target: Optional[str] = None  # the refuted ID whose counterexample SBY replays
    task: Optional[str] = None  # deadlock | residual (<stem>_live.sby)
    pinned: dict[str, int] = field(default_factory=dict)  # argument or "<memref>.dim<k>" -> cex value
    depth: Optional[int] = None
    files: dict[str, str] = field(default_factory=dict)
    z3_seconds: float = 0.0
    why: str = ""  # beyond: why no refutation is replayed
    sim_error: Optional[str] = None  # matched: the runtime error the simulator's runs at the pins stop at
    dfg_text: str = ""  # matched: the mutant's printed module (re-emitted on a capacity stall)

    @property
    def name(self) -> str:
        return f"{self.example} {self.operator}"


@dataclass
class Outcome:
    """SBY's verdict on one matched mutant and whether it agrees with Z3."""

    row: Row
    status: str  # pass | fail | unknown | error (SBY's)
    failed: list[tuple[str, Optional[str]]]  # (label, obligation) of every failed property
    traces: list[str]
    seconds: float
    problem: Optional[str]  # None: SBY failed with one of Z3's refuted IDs and left its VCD
    fifo_depth: int = 2  # the channel FIFOs of the verdict's run (deeper after a capacity stall)

    @property
    def agrees(self) -> bool:
        return self.problem is None


# ---------------------------------------------------------------------------- classification
def rtl_obligations(files: dict[str, str], stem: str) -> set[str]:
    """The obligation IDs that have an RTL property in an emitted design (its props.json)."""
    return {p["obligation"] for p in json.loads(files[f"{stem}.props.json"])["properties"] if p["obligation"]}


def _scalar_args(func: Operation) -> dict[str, Any]:
    body = func.regions[0].entry
    return {n: a.type for n, a in zip(function_arg_names(func), body.args)}


def _pins(func: Operation, ob) -> Optional[dict[str, int]]:
    """The counterexample's integer arguments and memref sizes (None: it has no arguments)."""
    cex = ob.counterexample or {}
    args = cex.get("arguments")  # none: a graph fact (structure, memory order) with no run to replay
    if not isinstance(args, dict):
        return None
    types = _scalar_args(func)
    out = {}
    for key, val in args.items():
        mem, _, dim = key.partition(".dim")
        if isinstance(val, bool) or not isinstance(val, int):
            continue
        if dim and isinstance(types.get(mem), MemRefType):
            out[key] = val
        elif isinstance(types.get(key), (IntegerType, IndexType)):
            out[key] = val
    return out


def _inputs(func: Operation, pins: dict[str, int], kind: str) -> dict[str, Any]:
    """Simulator inputs: the pinned values, every other integer argument and memref size ``FREE_BOUND``."""
    types = _scalar_args(func)
    sizes = {k: v for k, v in pins.items() if ".dim" in k}
    n = max([FREE_BOUND] + list(sizes.values()))
    out = inputs_at(func, n, kind)
    for name, t in types.items():
        if isinstance(t, MemRefType):
            shape = [d if isinstance(d, int) and d >= 0 else sizes.get(f"{name}.dim{k}", FREE_BOUND)
                     for k, d in enumerate(t.shape)]
            out[name] = _cut(out[name], shape)
        elif name in pins:
            out[name] = pins[name]
        elif isinstance(t, (IntegerType, IndexType)) and not (isinstance(t, IntegerType) and t.width == 1):
            out[name] = FREE_BOUND
    return out


def _cut(value: Any, shape: list[int]) -> Any:
    if not shape:
        return value
    return [_cut(v, shape[1:]) for v in value[: shape[0]]]


@dataclass(frozen=True)
class RunAt:
    """The token simulator's runs of a mutant at pinned arguments: the depth that covers them, and the runtime
    error code every fill ends in (None when some fill completes or stalls)."""

    depth: int
    error: Optional[str]


def run_at(func: Operation, pins: dict[str, int]) -> RunAt:
    """Cycles that cover a run of ``func`` at the pinned arguments: the most firings over the fills +25 % +2.

    Every cycle before a run ends (returns, deadlocks or settles) fires some rule, so the run's end, and the
    quiet cycle the whole-run monitors look for, come within this many cycles."""
    from loom.sim.engine import simulate

    most, errors = 0, set()
    for kind in FILLS:
        try:
            r = simulate(func, _inputs(func, pins, kind), max_steps=20_000)
        except Exception:  # noqa: BLE001 - a fill the program rejects says nothing about the depth
            continue
        most = max(most, r.steps)
        errors.add(r.error.code if r.status == "error" and r.error is not None else None)
    error = next(iter(errors)) if len(errors) == 1 else None
    return RunAt(max(MIN_DEPTH, most + most // 4 + 2), error)


def _family(ob_id: str) -> str:
    """The first word of an obligation's family (``bmc``, ``refine``, ...), read by ``ObligationId``."""
    oid = ObligationId.try_parse(ob_id)
    return oid.family.split(".", 1)[0] if oid is not None else ""


def _task(ob_id: str, k: int) -> str:
    """The task of ``<stem>_live.sby`` that carries ``bmc.K<k>.deadlock`` or ``bmc.K<k>.residual``."""
    oid = ObligationId.parse(ob_id)
    assert oid.family in ("bmc.deadlock", "bmc.residual") and oid.params == (str(k),), ob_id
    return oid.family.split(".", 1)[1]


@dataclass(frozen=True)
class Choice:
    """What SBY replays for a matched mutant, or (``target`` None) why no refutation can be replayed."""

    target: Optional[str]
    pins: dict[str, int]
    depth: int
    why: str
    sim_error: Optional[str] = None  # the error code every simulated run at the pins stops at, if any


def choose(func: Operation, refuted: dict, rtl: list[str], k: int, max_depth: int = MAX_DEPTH) -> Choice:
    """The refuted ``bmc.*`` ID to replay (the shallowest run), with its pinned arguments and depth.

    Only Z3's whole-run BMC gives a run's arguments; the other monitored families (``balance.*``, ``class.*``,
    ``len.*``) give per-loop trip counts, and their bounded task ``dfg`` keeps the datapath (minutes per
    mutant), so a mutant refuted by them alone is ``beyond``."""
    best, whys = None, []
    for ob_id in rtl:
        pins = _pins(func, refuted[ob_id])
        if pins is None:
            whys.append(f"{ob_id}: no counterexample run (a graph fact)")
            continue
        if refuted[ob_id].kind != "bmc":  # stencil2d gate_remove: class.* at sizes in [0, 1] passed task dfg
            whys.append(f"{ob_id}: its counterexample is no whole run (per-loop trip counts, operands)")
            continue
        run = run_at(func, pins)
        if run.depth > max_depth:
            whys.append(f"{ob_id}: a run at {pins} needs up to {run.depth} cycles (> {max_depth})")
            continue
        cost = (run.depth, ob_id)
        if best is None or cost < best[0]:
            best = (cost, Choice(ob_id, pins, run.depth, "", run.error))
    if best:
        return best[1]
    whys.sort(key=lambda w: _family(w.split(":", 1)[0]) != "bmc")  # the whole-run reason first: it is replayed
    return Choice(None, {}, 0, "; ".join(whys[:2]) + (f" (+{len(whys) - 2} more)" if len(whys) > 2 else ""))


def pin_arguments(d: Design, pins: dict[str, int]) -> list[str]:
    """Assumptions (formal only) pinning arguments and memref sizes, the others in [0, FREE_BOUND]."""
    lines = ["`ifdef FORMAL", "  // tests/support/mutants.py: arguments pinned to Z3's counterexample"]
    for name, t, p in d.args:
        if not isinstance(t, (IntegerType, IndexType)) or bits(t) < 2:
            continue
        w = bits(t)
        if name in pins:
            lines.append(f"  `LOOM_ASSUME_ALWAYS(a_cex_{p}, {p}_data == {w}'d{pins[name] % (1 << w)})")
        else:
            lines.append(f"  `LOOM_ASSUME_ALWAYS(a_cex_{p}, {p}_data <= {w}'d{FREE_BOUND})")
    for mb in d.mems:
        if any(i.name == mb.inst and i.component.mem.dims for i in d.instances):
            for j in range(mb.dims):
                v = pins.get(f"{mb.arg}.dim{j}")
                op = "==" if v is not None else "<="
                lines.append(f"  `LOOM_ASSUME_ALWAYS(a_cex_{mb.inst}_dim{j}, {mb.inst}_dim{j} {op} 64'd"
                             f"{FREE_BOUND if v is None else v})")
    return lines + ["`endif"]


def _with_pins(files: dict[str, str], stem: str, d: Design, pins: dict[str, int]) -> dict[str, str]:
    """The design's files with the pinning assumptions in its top.

    (The whole-run tasks keep smtbmc's presat: without it the satisfiable step of clamp_count's residual took
    yices minutes instead of 40 s.)"""
    top = files[f"{stem}.sv"]
    head, sep, tail = top.rpartition("endmodule")
    return {**files, f"{stem}.sv": head + "\n".join(pin_arguments(d, pins)) + "\n" + sep + tail}


def classify(name: str, cache: Optional[LemmaCache] = None, max_depth: int = MAX_DEPTH) -> list[Row]:
    """Verify every mutant of example ``name`` with Z3; emit and classify each refuted one (a counterexample
    whose run needs more than ``max_depth`` cycles is beyond)."""
    cache = cache or LemmaCache()
    _, src = source(name)
    rows = []
    for mu in mutants(lowered(name), name, per_operator=1):
        t0 = time.monotonic()
        rep = verify_function(mu.func, CTX, source=src, cache=cache)
        z3 = time.monotonic() - t0
        refuted = {o.id: o for o in rep.obligations if o.status == "refuted"}
        if not refuted:
            continue  # not behaviour-changing for Z3 (test_verify_mutation judges those)
        plain = emit(mu.func, name, bmc_k=CTX.bmc_k)
        rtl = sorted(i for i in refuted if i in rtl_obligations(plain.files, name))
        row = Row(name, mu.operator, mu.site, "", sorted(refuted), rtl, z3_seconds=z3)
        if not rtl:
            row.kind = "no RTL form" if all(_family(i) == "refine" for i in refuted) else "not in RTL yet"
        elif (pick := choose(mu.func, refuted, rtl, CTX.bmc_k, max_depth)).target is None:
            row.kind, row.why = "beyond", pick.why
        else:
            row.kind = "matched"
            row.target, row.pinned, row.depth = pick.target, pick.pins, pick.depth
            row.sim_error = pick.sim_error
            row.task = _task(row.target, CTX.bmc_k)
            e = emit(mu.func, name, bmc_k=CTX.bmc_k, live_depth=row.depth, dfg_depth=row.depth)
            row.files = _with_pins(e.files, name, e.design, row.pinned)
            row.dfg_text = print_module(mu.module)
        rows.append(row)
    return rows


def _classify_timed(name: str, max_depth: int) -> tuple[str, list[Row], float]:
    t0 = time.monotonic()
    rows = classify(name, max_depth=max_depth)
    return name, rows, time.monotonic() - t0


def classify_all(names: list[str], jobs: int = 2, max_depth: int = MAX_DEPTH
                 ) -> tuple[dict[str, list[Row]], dict[str, float]]:
    """``classify`` every example, ``jobs`` processes at a time (Z3 runs in-process: threads would share one
    core); the rows and the seconds each example took, in the order of ``names``."""
    from concurrent.futures import ProcessPoolExecutor

    if jobs <= 1:
        done = [_classify_timed(n, max_depth) for n in names]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as ex:
            done = list(ex.map(_classify_timed, names, [max_depth] * len(names)))
    return {n: rows for n, rows, _ in done}, {n: secs for n, _, secs in done}


# ---------------------------------------------------------------------------- SBY
def _files_with_fifos(row: Row, fifo_depth: int) -> dict[str, str]:
    """The matched mutant's files again, with ``fifo_depth``-slot channel FIFOs."""
    (func,) = [f for f in parse_text(row.dfg_text, "<mutant>").functions() if f.name == "handshake.func"]
    e = emit(func, row.example, fifo_depth=fifo_depth, bmc_k=CTX.bmc_k, live_depth=row.depth,
             dfg_depth=row.depth)
    return _with_pins(e.files, row.example, e.design, row.pinned)


def _run_task(row: Row, wd: Path, files: dict[str, str]) -> tuple[str, list[str], Optional[str]]:
    """Write ``files`` into ``wd`` and run the row's task: SBY's status, the failed labels, the trace."""
    write_all(wd, files)
    v = run_live(wd, row.example, CTX.bmc_k, (row.task,), TIMEOUT)[row.task]
    return ("unknown" if v.log == "timeout" else v.status), v.failed, v.trace


def run_sby(row: Row, wd: Path) -> Outcome:
    """Run the matched mutant's one SBY task in ``wd`` and judge it against Z3's refuted IDs.

    A failure of ``p_live_capacity`` alone (a stall with a full FIFO: bounded channels, not the DFG's
    deadlock) runs the task again with deeper FIFOs (``CAPACITY_FIFO_DEPTHS``); the last verdict counts."""
    t0 = time.monotonic()
    status, labels, trace = _run_task(row, wd, row.files)
    fifo_depth = 2
    for deeper in CAPACITY_FIFO_DEPTHS:
        if labels != ["p_live_capacity"]:
            break
        fifo_depth, wd = deeper, wd.with_name(f"{wd.name.split('_fifo')[0]}_fifo{deeper}")
        status, labels, trace = _run_task(row, wd, _files_with_fifos(row, deeper))
    props = json.loads((wd / f"{row.example}.props.json").read_text())["properties"]
    oblig = {p["id"].split(".")[-1]: p["obligation"] for p in props}
    failed = [(lbl, oblig.get(lbl)) for lbl in labels]
    traces = [trace] if labels and trace else []
    secs = time.monotonic() - t0
    return Outcome(row, status, failed, traces, secs, judge(row, status, failed, traces), fifo_depth)


def judge(row: Row, status: str, failed: list[tuple[str, Optional[str]]], traces: list[str]) -> Optional[str]:
    """Why SBY's verdict does not match Z3's refutation (None: it fails with one of Z3's IDs, VCD on disk)."""
    if status != "fail" or not failed:
        note = ""
        if row.sim_error:  # the formal environment's memory has no bounds: the RTL run goes on past it
            note = f"; the simulator's run at these arguments stops at {row.sim_error}"
        return f"SBY {status} within {row.depth} cycles (Z3 refutes {row.target}{note})"
    hits = {o for _, o in failed if o} & set(row.refuted)
    if not hits:
        return f"SBY fails {', '.join(lbl for lbl, _ in failed)}, none of Z3's refuted IDs"
    if not traces or not all(Path(t).exists() for t in traces):
        return "no counterexample VCD"
    return None


def run_all(rows: list[Row], workdir: Path, jobs: int = 2,
            report: Optional[Callable[[Outcome], None]] = None) -> list[Outcome]:
    """Run SBY on every matched row, ``jobs`` SymbiYosys processes at a time (each in its own directory)."""
    todo = [r for r in rows if r.kind == "matched"]

    def one(k_row: tuple[int, Row]) -> Outcome:
        k, r = k_row
        out = run_sby(r, workdir / f"{r.example}_{k}_{r.operator}")
        if report:
            report(out)
        return out

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        return list(ex.map(one, enumerate(todo)))
