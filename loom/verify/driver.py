"""``loom verify`` as a library: run every checker on a function or a file and collect a ``VerifyReport``.

The checkers are plugins (``loom.verify.checkers``), listed in report order by ``loom.verify.registry``:
operator lemmas and stream preconditions (``lemmas``), stream lengths and balance (``lengths``), access
invariants / domain independence / done postdominance (``structure``), memory ordering (``memory``),
refinement (``refine``), runtime-error safety (``safety``) and the bounded cross-check (``bmc``). A checker
that cannot be imported is an error (``VERIFY_CHECKER_IMPORT``); one that crashes yields an ``unknown``
obligation naming it -- never a silent pass. Bad input raises ``LoomError``.
"""
from __future__ import annotations

import dataclasses
import os
import time
import traceback
from pathlib import Path
from typing import Optional

from loom.diagnostics import LoomError
from loom.ir.attributes import StringAttr
from loom.ir.core import Module, Operation, is_declaration
from loom.ir.entry import choose_function
from loom.ir.location import Location
from loom.verify import registry
from loom.verify.assume import check_names, range_assumptions
from loom.verify.checkers.base import Checker, Facts
from loom.verify.ids import ObligationId
from loom.verify.isolation import fresh_solver_state
from loom.verify.lemmas.check import LemmaCache
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.report import VerifyReport

def func_name(func: Operation) -> str:
    a = func.attributes.get("sym_name")
    return a.value if isinstance(a, StringAttr) else "?"


def _internal(checker: Checker, func: Operation, seconds: float, detail: str) -> Obligation:
    """The ``internal.<checker>`` entry: the checker decided nothing (skipped or crashed)."""
    return Obligation(str(ObligationId("internal", checker.name)), checker.kind, "unknown", seconds, detail, None,
                      func.loc, method="none")


def run_checker(checker: Checker, func: Operation, ctx: VerifyContext, facts: Facts,
                part: Optional[int] = None) -> list[Obligation]:
    """``checker``'s obligations of ``func`` (of its part ``part`` only, when given: see ``parts``); when it
    decides nothing (a crash or a skip: only its ``internal.<name>`` entry), also every ID its ``expected``
    lists, as unknown with the same reason. It runs in a solver state of its own (``isolation``), so what it
    finds does not depend on what the process did before."""
    with fresh_solver_state():
        out = _guarded(checker, func, ctx, facts, part)
        if len(out) == 1 and out[0].id == str(ObligationId("internal", checker.name)) and out[0].status == "unknown":
            try:
                ids = checker.expected(func, ctx, facts)
            except Exception:  # noqa: BLE001 - the list is a courtesy; the internal entry already says unknown
                ids = []
        else:
            ids = []
        out += [Obligation(i, checker.kind, "unknown", 0.0, f"not decided: {out[0].detail}", None, func.loc,
                           method="none") for i in ids]
    return out


def parts(checker: Checker, func: Operation) -> int:
    """How many ``--jobs`` units ``checker`` cuts ``func``'s obligations into (its ``parts``, from the function's
    size alone; 1 for a checker without one): ``check(..., part=k)`` gives the k-th, and the parts in order give
    what ``check`` gives."""
    count = getattr(checker, "parts", None)
    return 1 if count is None else count(func)


def _guarded(checker: Checker, func: Operation, ctx: VerifyContext, facts: Facts,
             part: Optional[int] = None) -> list[Obligation]:
    """Run one checker; an unexpected exception becomes an ``unknown`` obligation (a bug, not a verdict).

    With a budget (``ctx.deadline``): a checker that would start with no time left is skipped (listed as
    ``unknown``); one that is running when the budget ends stops on its own, since every query it asks
    gets at most ``ctx.limit()`` -- no time at all once the budget is gone. (No asynchronous interrupt:
    an exception thrown into the middle of building a Z3 model left the context with a declared enum
    sort its Python cache did not know, and every later proof of that table crashed.)"""
    t0 = time.perf_counter()
    if ctx.deadline is not None and ctx.deadline - t0 <= 0:
        return [_internal(checker, func, 0.0,
                          f"checker '{checker.name}' skipped: the function's budget of {ctx.budget:g}s was used up")]
    try:
        return checker.check(func, ctx, facts) if part is None else checker.check(func, ctx, facts, part)
    except LoomError:
        raise
    except RecursionError:
        return [_internal(checker, func, time.perf_counter() - t0,
                          f"checker '{checker.name}' exceeded the recursion limit on this graph")]
    except Exception as e:  # noqa: BLE001 - a crash must never read as a proof
        where = traceback.extract_tb(e.__traceback__)[-1]
        return [_internal(checker, func, time.perf_counter() - t0,
                          f"checker '{checker.name}' failed: {type(e).__name__}: {e} ({Path(where.filename).name}:"
                          f"{where.lineno})")]


def prepare(func: Operation, ctx: VerifyContext, source: Optional[Operation] = None,
            cache: Optional[LemmaCache] = None, t0: Optional[float] = None) -> tuple[VerifyContext, Facts]:
    """The context (with this function's assumptions and budget) and the facts its checkers share
    (``loom.verify.facts``: each part computed by its first reader; the memory layout now, so a graph it
    rejects fails here, before any checker runs)."""
    if func.name != "handshake.func":
        raise LoomError(f"expected a handshake.func, got '{func.name}'", func.loc)
    t0 = time.perf_counter() if t0 is None else t0
    ctx = _with_assumptions(ctx, func, source)
    if ctx.budget is not None:
        ctx = dataclasses.replace(ctx, deadline=t0 + ctx.budget)
    return ctx, Facts(func, source, ctx, cache).require("layout")


def finish(func: Operation, ctx: VerifyContext, obs: list[Obligation], seconds: float,
           file: Optional[str] = None) -> VerifyReport:
    """The report of ``func`` from its checkers' obligations, in registry order."""
    where = file if file is not None else (func.loc.file if func.loc.line > 0 else None)
    return VerifyReport(func_name(func), where, mark_partial(obs), seconds,
                        assumptions=[f"{a.text} ({a.origin})" for a in ctx.assumptions], limits=ctx.limits())


def verify_function(
    func: Operation,
    ctx: VerifyContext,
    source: Optional[Operation] = None,
    cache: Optional[LemmaCache] = None,
    file: Optional[str] = None,
    checkers: Optional[tuple[str, ...]] = None,
) -> VerifyReport:
    """Every obligation of ``func`` (a handshake.func).

    ``source`` is the SCF func.func it was lowered from (enables program-order
    checks of memory accesses and the refinement obligations); ``cache`` shares
    operator lemmas between functions; ``checkers`` restricts the run to some of
    the registry's checkers (``loom.verify.registry``: ``lemmas``, ``lengths``, ``structure``, ``memory``,
    ``refine``, ``safety``, ``bmc``; default: all).
    """
    if func.name != "handshake.func":
        raise LoomError(f"expected a handshake.func, got '{func.name}'", func.loc)
    t0 = time.perf_counter()
    plugins = registry.checkers(checkers, func.loc)
    ctx, facts = prepare(func, ctx, source, cache, t0)
    obs: list[Obligation] = []
    for checker in plugins:
        # each checker from the facts ``prepare`` computed, as a ``loom verify`` unit starts (a part another
        # checker computed holds terms of that checker's solver state, which is not this one's)
        obs += run_checker(checker, func, ctx, facts.under(ctx))
    return finish(func, ctx, obs, time.perf_counter() - t0, file)


# obligations whose proof counts loop trips (N_L finite): they hold if every while loop ends
_PARTIAL_KINDS = ("length", "balance", "refinement")


def mark_partial(obs: list[Obligation]) -> list[Obligation]:
    """Say on every trip-counting obligation which while-loop terminations its proof relies on (idempotent:
    a merge of shards marks again what one shard marked)."""
    parsed = [ObligationId.try_parse(o.id) for o in obs if o.status == "assumed"]
    assumed = sorted(p.subject for p in parsed if p is not None and p.family == "len.terminates")
    if not assumed:
        return obs
    cond = tuple(f"{name} terminates" for name in assumed)
    return [dataclasses.replace(o, assumes=o.assumes + tuple(c for c in cond if c not in o.assumes))
            if o.kind in _PARTIAL_KINDS and o.status != "assumed" and not o.id.endswith(".terminates") else o
            for o in obs]


def _with_assumptions(ctx: VerifyContext, func: Operation, source: Optional[Operation]) -> VerifyContext:
    """``ctx`` with the assumptions of this function: the user's, then the ``loom.range`` attributes."""
    found = list(ctx.assumptions) + range_assumptions(func)
    if source is not None:
        found += range_assumptions(source)
    unique = list({(a.text, a.origin): a for a in found}.values())
    check_names(unique, func)
    return dataclasses.replace(ctx, assumptions=tuple(unique))


def _sources(module: Module) -> dict[str, Operation]:
    return {func_name(f): f for f in module.functions() if f.name == "func.func"}


def _where(module: Module) -> Location:
    """The module's location, or its file's first line for an implicit module (never ``<unknown>``)."""
    return module.op.loc if module.op.loc.line > 0 else Location(module.filename, 1, 1)


def functions_to_verify(
    path: Path, func: Optional[str] = None, source: Optional[Path] = None
) -> list[tuple[Operation, Optional[Operation]]]:
    """The (handshake.func, SCF source or None) pairs ``loom verify`` checks in a file.

    A ``.scf.mlir`` file, a file without handshake.func, or a ``func`` that names a
    func.func is lowered first (one function: ``func`` or the only one); any other
    file is verified as written (its handshake.funcs, or ``func``), each against the
    same-named func.func of ``source`` when one is given (``loom verify --source``).
    """
    from loom.lower import LowerOptions, lower_module
    from loom.mlir import parse_file

    module = parse_file(path)
    hs_all = [f for f in module.functions() if f.name == "handshake.func"]
    hs = [f for f in hs_all if not is_declaration(f)]
    if hs_all and not hs:
        raise LoomError(f"'@{func_name(hs_all[0])}' is an external declaration without a body: nothing to verify",
                        hs_all[0].loc, "CPL_FUNC_DECLARATION")
    names_scf = func is not None and func in _sources(module) and all(func_name(f) != func for f in hs)
    if path.name.endswith(".scf.mlir") or not hs or names_scf:
        lowered = lower_module(module, func, LowerOptions())
        srcs = _sources(module)
        return [(f, srcs.get(func_name(f))) for f in lowered.functions() if f.name == "handshake.func"]
    if func is not None:  # one function, chosen by the rule every command uses
        hs = [choose_function(module, func, ("handshake.func",), _where(module))]
    srcs = _sources(_source_module(source, hs)) if source is not None else {}
    if source is not None:
        missing = [func_name(f) for f in hs if func_name(f) not in srcs]
        if missing:
            raise LoomError(f"{source} has no func.func named '{missing[0]}' to verify the DFG against",
                            _where(module), "CPL_FUNC_NOT_FOUND")
    from loom.lower.instances import inline_instances

    return [(inline_instances(f, module), srcs.get(func_name(f))) for f in hs]


def _source_module(source: Path, dfgs: list[Operation]) -> Module:
    """``--source``, parsed under the name the DFGs' debug locations give that file. ``loom compile
    --debug-info`` writes the path it was given (relative to where it ran), so the same file named another way
    (absolute, from another directory) is the DFG location naming the same file here, or else the only one with
    its base name. Pairing by location is only a hint (every refinement obligation is still proved), so a wrong
    alias can cost proofs, never make one."""
    from loom.mlir import parse_file, parse_text
    from loom.verify.refine.model import source_position

    module = parse_file(source)  # errors name the file as given
    named = {source_position(op.loc).file for f in dfgs for op in f.walk()} - {""}
    if str(source) in named:
        return module
    same = sorted(n for n in named if os.path.isfile(n) and os.path.samefile(n, source))
    same = same or sorted(n for n in named if Path(n).name == source.name)
    if len(same) != 1:
        return module
    from loom.sourcefile import read_text

    return parse_text(read_text(source), same[0])


def verify_file(
    path, ctx: VerifyContext, func_name: Optional[str] = None, cache: Optional[LemmaCache] = None,
    source: Optional[Path] = None,
) -> list[VerifyReport]:
    """Verify the handshake.func(s) of a file (a ``.scf.mlir`` is lowered first, with program order from it;
    a DFG file is checked against ``source``'s functions when given)."""
    p = Path(path)
    cache = cache if cache is not None else LemmaCache()
    reports = []
    for f, src in functions_to_verify(p, func_name, source):
        r = verify_function(f, ctx, source=src, cache=cache, file=str(p))
        r.file = str(p)
        reports.append(r)
    return reports


def verify_files(
    paths: list, ctx: VerifyContext, func_name: Optional[str] = None, jobs: int = 1,
    source: Optional[Path] = None, isolate: bool = False,
) -> list[VerifyReport]:
    """``verify_file`` on each path, in order, sharing one ``LemmaCache``; with ``jobs`` > 1 the files
    are spread over that many forked worker processes (each with its own cache).

    ``isolate``: every file is verified in a process of its own, forked from this one (``jobs`` at a time).
    The verdicts are the same either way: every checker runs in a solver state of its own
    (``loom.verify.isolation``), so what Z3 does for a file never depends on what a process verified before it
    (``loom verify`` also runs every checker of every function in a process of its own, ``loom.verify.parallel``;
    the proofs/ generator runs in one process).

    A file that fails with a ``LoomError`` is verified again here, in order, so the caller sees the
    same error (the first failing file's) as a sequential run would raise.
    """
    import multiprocessing

    jobs = max(1, min(jobs, len(paths)))
    alone = len(paths) <= 1 or (jobs <= 1 and not isolate)  # one file: its own process already
    if alone or "fork" not in multiprocessing.get_all_start_methods():
        cache = LemmaCache()
        return [r for p in paths for r in verify_file(p, ctx, func_name, cache, source)]
    # fork: the context (with its progress callback) is inherited, not pickled
    pool = multiprocessing.get_context("fork").Pool(jobs, _worker_init, (ctx, func_name, source),
                                                    maxtasksperchild=1 if isolate else None)
    try:
        # largest files first (a proxy for the costliest): the last one to start should be a quick one
        order = sorted(range(len(paths)), key=lambda i: (-_size(paths[i]), i))
        done = pool.map(_worker_verify, [str(paths[i]) for i in order], chunksize=1)
        results: list = [None] * len(paths)
        for i, got in zip(order, done):
            results[i] = got
    finally:
        pool.terminate()
        pool.join()
    out: list[VerifyReport] = []
    for p, got in zip(paths, results):
        out += verify_file(p, ctx, func_name, source=source) if got is None else got
    return out


def _size(path) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


_WORKER: dict = {}  # per worker process: its context, function name and lemma cache (set once at fork)


def _worker_init(ctx: VerifyContext, func_name: Optional[str], source: Optional[Path] = None) -> None:
    _WORKER.update(ctx=ctx, func=func_name, cache=LemmaCache(), source=source)


def _worker_verify(path: str) -> Optional[list[VerifyReport]]:
    try:
        return verify_file(path, _WORKER["ctx"], _WORKER["func"], _WORKER["cache"], _WORKER["source"])
    except LoomError:
        return None  # re-raised by the parent, in file order
