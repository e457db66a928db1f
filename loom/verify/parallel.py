"""``loom verify --jobs N``: a run's obligations spread over processes, one unit (function x checker) each.

The run is cut into units: every checker of the registry on every function of every file, in report order (a
checker with ``parts`` -- safety on a large function -- gives one unit per part, in order).
Each unit runs in a process of its own, forked from this one after parsing and lowering (which build no solver
terms), so what Z3 does for a unit -- and what its resource limit counts -- never depends on what else a process
did before: the verdicts are the same with any ``jobs``, and the same when ``shard`` (``--shard I/N``) runs only
every N-th unit and ``loom report merge`` joins the shards (``loom.verify.shard``). Results come back by unit
index, so the report's order never depends on which process finished first. (Each unit also runs in a Z3 context
of its own, ``loom.verify.isolation``, so the parent's solver state never reaches it: ``verify_file`` in one
process gives the same reports.)
"""

from __future__ import annotations

import dataclasses
import gc
import multiprocessing
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional, Union

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.verify import registry
from loom.verify.checkers.base import Facts
from loom.verify.collector import collector_paused
from loom.verify.driver import finish, func_name, functions_to_verify, parts, prepare, run_checker
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.report import VerifyReport


@dataclass(frozen=True)
class Unit:
    """One checker on one function: the smallest piece of a run a process (or a shard) takes."""

    index: int     # position in the run's canonical order (what ``--shard I/N`` selects by)
    function: int  # index into ``Plan.functions``
    checker: str
    part: Optional[int] = None  # which of the checker's parts (``driver.parts``), when it has more than one


@dataclass
class Planned:
    """One function to verify: where it came from, its context and shared facts (or why it cannot be)."""

    path: str
    func: Optional[Operation] = None
    ctx: Optional[VerifyContext] = None
    facts: Optional[Facts] = None
    error: Optional[LoomError] = None  # raised when the run reaches this function (file order, as sequentially)


@dataclass
class Plan:
    """Every function of a run, in file order, and the units that verify them."""

    functions: list[Planned] = field(default_factory=list)
    units: list[Unit] = field(default_factory=list)


def plan(paths: list, ctx: VerifyContext, func: Optional[str] = None, source: Optional[Path] = None,
         checkers: Optional[tuple[str, ...]] = None) -> Plan:
    """Parse and lower every file and cut the run into units (no solver work)."""
    # the cycle collector is paused meanwhile: parsing and lowering a large DFG allocate millions of objects that
    # live on, and its full collections re-scanned them (4.3 -> 2.6 s CPU at 50,009 ops); ``run`` collects before
    # it forks, so the workers start from the same heap either way
    with collector_paused():
        return _plan(paths, ctx, func, source, checkers)


def _plan(paths: list, ctx: VerifyContext, func: Optional[str], source: Optional[Path],
          checkers: Optional[tuple[str, ...]]) -> Plan:
    out = Plan()
    for p in paths:
        try:
            pairs = functions_to_verify(Path(p), func, source)
        except LoomError as e:
            out.functions.append(Planned(str(p), error=e))
            continue
        for f, src in pairs:
            try:
                plugins = registry.checkers(checkers, f.loc)
                fctx, facts = prepare(f, ctx, src)
            except LoomError as e:
                out.functions.append(Planned(str(p), f, error=e))
                continue
            k = len(out.functions)
            out.functions.append(Planned(str(p), f, fctx, facts))
            for c in plugins:
                n = parts(c, f)
                out.units += [Unit(len(out.units), k, c.name)] if n == 1 else \
                    [Unit(len(out.units) + j, k, c.name, j) for j in range(n)]
    return out


def parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (0 <= I < N) as ``(I, N)``; ``ValueError`` with one line otherwise."""
    i, sep, n = text.partition("/")
    if not sep or not i.isdigit() or not n.isdigit() or int(n) < 1 or int(i) >= int(n):
        raise ValueError(f"--shard must be I/N with 0 <= I < N (got {text!r})")
    return int(i), int(n)


def selected(units: list[Unit], shard: Optional[tuple[int, int]]) -> list[Unit]:
    """The units of shard ``(I, N)``: every N-th unit from the I-th (all of them without a shard)."""
    if shard is None:
        return list(units)
    i, n = shard
    return [u for u in units if u.index % n == i]


_RUN: dict = {}  # the plan the forked workers verify (set before the pool forks; read-only there)

Outcome = Union[tuple[float, list[Obligation]], LoomError]


def _run_unit(unit: Unit) -> Outcome:
    """One unit in this process: its seconds and obligations, or the ``LoomError`` it raised."""
    pf: Planned = _RUN["plan"].functions[unit.function]
    checker = registry.load(unit.checker, dict(registry.ENTRIES)[unit.checker], pf.func.loc)
    t0 = time.perf_counter()
    ctx, facts = pf.ctx, pf.facts
    if ctx.budget is not None:  # --budget: the function's wall clock runs from when its first unit started
        ctx = dataclasses.replace(ctx, deadline=_first_start(unit.function, t0) + ctx.budget)
        facts = facts.under(ctx)  # the parts this unit computes run under its deadline
    try:
        obs = run_checker(checker, pf.func, ctx, facts, unit.part)
    except LoomError as e:
        return e
    return time.perf_counter() - t0, obs


def _first_start(function: int, now: float) -> float:
    """When the first unit of ``function`` started (``now`` if this is it), shared by the run's processes."""
    starts = _RUN["starts"]
    with starts.get_lock():
        if starts[function] == 0.0:
            starts[function] = now
        return starts[function]


def _pickled_error(e: LoomError) -> LoomError:
    """A ``LoomError`` that survives the trip back from a worker (message, location and code)."""
    return LoomError(e.message, e.loc, e.code)


def _worker(unit: Unit) -> Outcome:
    # the fork copied the parent's heap mid-run (its pool threads allocate while results come in): collect now
    # (the plan itself is frozen, so this is quick), so when this process's collections free solver terms -- and
    # which term ids Z3 reuses -- depends on the unit alone, not on when the parent forked it
    gc.collect()
    _say(unit, "started")
    c0 = time.process_time()
    got = _run_unit(unit)
    if isinstance(got, LoomError):
        _say(unit, f"failed: {got.message}")
        return _pickled_error(got)
    _say(unit, f"done in {got[0]:.1f} s ({time.process_time() - c0:.1f} s CPU), {len(got[1])} obligations")
    return got


def _say(unit: Unit, what: str) -> None:
    """One progress line on stderr about ``unit`` (``verify_parallel(progress=True)``): which unit, and when in the run;
    never part of a report."""
    if not _RUN.get("progress"):
        return
    pf: Planned = _RUN["plan"].functions[unit.function]
    name = func_name(pf.func) if pf.func is not None else None
    part = "" if unit.part is None else f" part {unit.part + 1}/{_RUN['parts'][(unit.function, unit.checker)]}"
    at = time.perf_counter() - _RUN["t0"]
    # one write per line: the workers share stderr, and a line written in pieces could interleave with another's
    sys.stderr.write(f"loom verify: [{at:7.1f} s] unit {unit.index + 1}/{len(_RUN['plan'].units)} {unit.checker}{part}"
                     f" of {pf.path}{'' if name is None else ' @' + name}: {what}\n")
    sys.stderr.flush()


def run(p: Plan, units: list[Unit], jobs: int, progress: bool = False) -> dict[int, Outcome]:
    """Every unit in a fresh forked process, ``jobs`` at a time; outcomes by unit index (``progress``: a line on
    stderr as each unit starts and ends)."""
    if not units:
        return {}
    forked = "fork" in multiprocessing.get_all_start_methods()
    mp = multiprocessing.get_context("fork") if forked else multiprocessing
    _RUN["plan"] = p
    _RUN["progress"], _RUN["t0"] = progress, time.perf_counter()
    _RUN["parts"] = {}
    for u in p.units:
        key = (u.function, u.checker)
        _RUN["parts"][key] = _RUN["parts"].get(key, 0) + 1
    _RUN["starts"] = mp.Array("d", len(p.functions))  # shared by the workers, all 0.0
    try:
        if not forked:  # no fork: one process, in order
            return {u.index: _run_unit(u) for u in units}
        # costliest first (a proxy: the function's size, then the checker's usual share of it), so the last unit
        # to start is a quick one
        order = sorted(units, key=lambda u: (-_size(p.functions[u.function].func), _rank(u.checker), u.index))
        gc.collect()
        gc.freeze()  # what the plan built is never garbage: a worker's collections need not scan it
        pool = mp.Pool(max(1, min(jobs, len(units))), maxtasksperchild=1)
        try:
            done = pool.map(_worker, order, chunksize=1)
        finally:
            pool.terminate()
            pool.join()
            gc.unfreeze()
        return {u.index: got for u, got in zip(order, done)}
    finally:
        _RUN.clear()


# checkers by their usual share of a function's CPU time, largest first (generated DFGs of 2k-18k ops and the
# examples, issue 28 item 9): a large function's safety and bmc units each take most of its run, so they start
# first and the cheap checkers fill the other processes; started last, as in report order, one of them alone
# made the tail
_BY_COST = ("safety", "bmc", "refine", "lengths", "lemmas", "memory", "structure")


def _rank(checker: str) -> int:
    return _BY_COST.index(checker) if checker in _BY_COST else len(_BY_COST)


def _size(func: Optional[Operation]) -> int:
    return len(func.regions[0].entry.ops) if func is not None and func.regions and func.regions[0].blocks else 0


def assemble(p: Plan, units: list[Unit], outcomes: dict[int, Outcome]) -> list[VerifyReport]:
    """The reports of ``units`` (one per function, obligations in unit order); the first error in run order
    is raised, as a sequential run would raise it. Each report's ``units`` says which unit gave which
    obligations (``loom report merge`` joins shards by it)."""
    by_function: dict[int, list[Unit]] = {}
    for u in units:
        by_function.setdefault(u.function, []).append(u)
    reports = []
    for k, pf in enumerate(p.functions):
        if pf.error is not None:
            raise pf.error
        obs: list[Obligation] = []
        parts = []
        for u in by_function.get(k, []):
            got = outcomes[u.index]
            if isinstance(got, LoomError):
                raise got
            seconds, found = got
            obs += found
            parts.append((u.index, u.checker, len(found), seconds))
        r = finish(pf.func, pf.ctx, obs, sum(s for _, _, _, s in parts), file=pf.path)
        r.file = pf.path
        r.units = parts
        reports.append(r)
    return reports


def verify_parallel(paths: list, ctx: VerifyContext, func: Optional[str] = None, jobs: int = 1,
                    source: Optional[Path] = None, shard: Optional[tuple[int, int]] = None,
                    checkers: Optional[tuple[str, ...]] = None, progress: bool = False) -> list[VerifyReport]:
    """``loom verify``'s run: every unit (of ``shard`` only, when given) in its own process, ``jobs`` at a
    time; the same reports, byte for byte but for the seconds, with any ``jobs`` (``progress``: a line on stderr
    as each unit starts and ends, with the seconds into the run)."""
    p = plan(paths, ctx, func, source, checkers)
    units = selected(p.units, shard)
    return assemble(p, units, run(p, units, jobs, progress))
