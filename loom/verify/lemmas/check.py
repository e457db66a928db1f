"""Obligation 1: the operator lemmas of a DFG, and the stream termination preconditions of its streams.

For every distinct operator table in the function (``machine_for(op)``, deduplicated
by the table's full text), each applicable contract of ``loom.verify.lemmas.contracts`` is
proved on the table itself for unbounded token sequences (``fsm.<family>.<property>``,
1-induction with a plain solver; see ``loom.verify.lemmas.induction``). Every stream
variant also gets ``fsm.stream[<op>,<cond>].terminates`` (``loom.verify.lemmas.termination``)
and every stream op a DFG-level check that its operands meet that precondition:
``fsm.stream.pre.<idx>`` -- proved, refuted with the arguments that make the stream
run forever (only when the operands are straight-line functions of the arguments),
or unknown with the reason.
"""

from __future__ import annotations

import dataclasses
import hashlib
import time
from dataclasses import dataclass, field
from typing import Optional

import z3

from loom.ir.core import Operation
from loom.semantics import describe
from loom.semantics.build import Machines
from loom.semantics.machine import Machine
from loom.verify.ids import oid as obligation_id
from loom.verify.lemmas.contracts import contracts_for, family
from loom.verify.lemmas.induction import prove
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.assume import to_z3
from loom.verify.lemmas.findings import classify
from loom.verify.lemmas.operands import OperandAnalysis, arg_name_map
from loom.verify.solve import ScopedChecks, run_query
from loom.verify.lemmas.termination import (
    TERMINATION,
    describe_precondition,
    run_concrete,
    stream_variant,
    termination_query,
    variant_name,
)
from loom.verify.z3model import MachineModel, bv_value

CONCRETE_CAP = (
    1 << 12
)  # trips tried on constant operands (a multiplicative index wraps within 64 unless it cycles)
STATUS_RANK = {"proved": 0, "assumed": 0, "unknown": 1, "refuted": 2}


@dataclass
class LemmaCache:
    """Lemma verdicts by table text, and the solver the lemma proofs check their parts on, shared across the
    functions/files of one run (a new solver's set-up costs more than a small table's proof)."""

    done: dict[str, list[Obligation]] = field(default_factory=dict)
    checks: ScopedChecks = field(default_factory=ScopedChecks)


def lemma_key(machine: Machine) -> str:
    """What decides a table's lemmas: its full text, except a constant's value (its contract ignores it)."""
    if machine.op_name == "handshake.constant":
        return "constant:" + family(machine)
    return describe(machine)


def table_name(text: str) -> str:
    """A stable identifier of a table (its Z3 names derive from it, so SMT-LIB2 output is reproducible)."""
    return "T" + hashlib.sha1(text.encode()).hexdigest()[:10]


def body_ops(func: Operation) -> list[Operation]:
    return list(func.regions[0].entry.ops) if func.regions and func.regions[0].blocks else []


def _progress(ctx: VerifyContext, msg: str) -> None:
    if ctx.progress is not None:
        ctx.progress(msg)


def lemma_obligations(
    machine: Machine, ctx: VerifyContext, name: str, op: Optional[Operation] = None,
    checks: Optional[ScopedChecks] = None,
) -> list[Obligation]:
    """Prove every contract of one table (and, for a stream, its termination lemma); ``checks`` is the run's
    shared solver (a new one when None)."""
    out: list[Obligation] = []
    loc = op.loc if op is not None else None
    checks = checks if checks is not None else ScopedChecks()
    for c in contracts_for(machine):
        _progress(ctx, f"lemma {c.id}")
        r = prove(machine, c, name, timeout=ctx.limit(), want_smt2=ctx.want_smt2, checks=checks, rlimit=ctx.rlimit)
        cex = None
        if r.trace is not None:
            cex = {"op": machine.op_name, "trace": r.trace}
        out.append(
            Obligation(c.id, "fsm", r.status, r.seconds, f"{r.method}: {r.detail}", cex, loc, r.smt2 or None,
                       rule=r.method, nature="behaviour" if r.status == "refuted" else None)
        )
    if machine.op_name == "dataflow.stream":
        out.append(termination_obligation(machine, ctx, name, loc))
    return out


def termination_obligation(machine: Machine, ctx: VerifyContext, name: str, loc=None) -> Obligation:
    """``fsm.stream[<op>,<cond>].terminates``: the activation ends under the stated precondition."""
    step_op, cond = stream_variant(machine)
    oid = obligation_id("fsm", family(machine), None, "terminates")
    term = TERMINATION.get((step_op, cond))
    if term is None:
        return Obligation(
            oid, "fsm", "unknown", 0.0, f"no termination precondition for step_op {step_op!r}", None, loc,
            method="none",
        )
    _progress(ctx, f"lemma {oid}")
    model = MachineModel(machine, f"{name}_t")
    res = run_query(
        termination_query(model, term).assertions(), ctx.limit(), want_model=True, want_smt2=ctx.want_smt2,
        rlimit=ctx.rlimit,
    )
    how = (
        "ranking over the integers (exact products in range)"
        if term.domain == "int"
        else "ranking (plain solver)"
    )
    if res.status == "unsat":
        return Obligation(
            oid,
            "fsm",
            "proved",
            res.seconds,
            f"{how}: every activation with {term.text} ends",
            None,
            loc,
            res.smt2 or None,
            method=res.method,
            rule=how,
        )
    if res.status == "sat":
        return Obligation(
            oid,
            "fsm",
            "refuted",
            res.seconds,
            f"{how}: the table does not end under the stated precondition ({term.text})",
            {"op": "dataflow.stream", "model": str(res.model)},
            loc,
            res.smt2 or None,
            rule=how,
            nature="behaviour",
        )
    return Obligation(
        oid, "fsm", "unknown", res.seconds, f"{how}: {res.reason} ({term.text})", None, loc, res.smt2 or None,
        rule=how,
    )


def stream_precondition(
    op: Operation, machine: Machine, ana: OperandAnalysis, ctx: VerifyContext, oid: str,
    source: Optional[Operation] = None,
) -> Obligation:
    """Do the operands this stream can receive meet its termination precondition?"""
    step_op, cond = stream_variant(machine)
    term = TERMINATION.get((step_op, cond))
    variant = variant_name(step_op, cond)
    if term is None:
        return Obligation(
            oid, "fsm", "unknown", 0.0, f"stream[{variant}]: no precondition known", None, op.loc,
            method="none",
        )
    t0 = time.perf_counter()
    s = [ana.rename(ana.summary(v)) for v in op.operands]
    start, step, bound = (x.value for x in s)
    need = term.for_dfg(start, step, bound)
    assumed = to_z3(ctx.assumptions, ana.argument)
    res = run_query([z3.And(*[x.cond for x in s]), assumed, z3.Not(need)], ctx.limit(), want_smt2=ctx.want_smt2,
                    rlimit=ctx.rlimit)
    text = describe_precondition(step_op, cond, dfg=True)
    if res.status == "unsat":
        return Obligation(
            oid,
            "fsm",
            "proved",
            time.perf_counter() - t0,
            f"stream[{variant}] operands always meet: {text}",
            None,
            op.loc,
            res.smt2 or None,
            method=res.method,
            rule="operand summaries",
        )
    if res.status == "unknown":
        return Obligation(
            oid,
            "fsm",
            "unknown",
            time.perf_counter() - t0,
            f"stream[{variant}]: could not decide whether the operands meet {text} ({res.reason})",
            None,
            op.loc,
            res.smt2 or None,
        )
    return _precondition_violated(_Violation(op, machine, oid, s, (start, step, bound), res, t0, text, source))


@dataclass
class _Violation:
    """A stream whose operand summaries admit operands that violate its termination precondition (``res``
    is sat): the op, its summaries and their value terms, the query's answer, and what the obligation says."""

    op: Operation
    machine: Machine
    oid: str
    summaries: list
    terms: tuple  # start, step, bound
    res: object  # the sat answer of ``run_query``
    t0: float  # when the obligation's work began (perf_counter)
    text: str  # the precondition, in words
    source: Optional[Operation]


def _precondition_violated(q: _Violation) -> Obligation:
    """Proved after all when the operands are constants the stream table runs to its end; refuted (with the
    arguments) when the summaries are exact; else unknown, with the operands the over-approximation admits."""
    op, oid, s, res, text = q.op, q.oid, q.summaries, q.res, q.text
    step_op, cond = stream_variant(q.machine)
    variant = variant_name(step_op, cond)
    mdl = res.model
    vals = {k: bv_value(mdl, x) for k, x in zip(("start", "step", "bound"), q.terms)}
    consts = [z3.simplify(x) for x in q.terms]
    if all(z3.is_bv_value(c) for c in consts) and all(x.exact or not x.private for x in s):
        n = run_concrete(q.machine, *(c.as_signed_long() for c in consts), CONCRETE_CAP)
        if n is not None:
            return Obligation(
                oid,
                "fsm",
                "proved",
                time.perf_counter() - q.t0,
                f"stream[{variant}] with constant operands {vals} ends after {n} trips (table run)",
                None,
                op.loc,
                method="simulation",
                rule="stream table run on constant operands",
            )
    args = {
        str(d)[4:]: bv_value(mdl, d()) for d in mdl.decls() if str(d).startswith("arg.") and d.arity() == 0
    }
    cex = {"op": "dataflow.stream", "operands": vals, "arguments": args}
    if all(x.exact for x in s):
        return classify(Obligation(
            oid,
            "fsm",
            "refuted",
            time.perf_counter() - q.t0,
            f"stream[{variant}] gets start={vals['start']}, step={vals['step']}, bound={vals['bound']} "
            f"(arguments {', '.join(f'{k}={v}' for k, v in sorted(args.items()))}), violating: {text} "
            "-- the index runs past the bound and only stops, if ever, after wrapping around",
            cex,
            op.loc,
            res.smt2 or None,
            rule="operand summaries",
            nature="behaviour",
        ), op, step_op, cond, q.source)
    return Obligation(
        oid,
        "fsm",
        "unknown",
        time.perf_counter() - q.t0,
        f"stream[{variant}]: cannot show the operands meet {text}; e.g. start={vals['start']}, "
        f"step={vals['step']}, bound={vals['bound']} is not excluded by the (over-approximate) "
        "operand analysis",
        cex,
        op.loc,
        res.smt2 or None,
    )

def _merge(into: dict[str, Obligation], obs: list[Obligation], op: Operation) -> None:
    for o in obs:
        o = dataclasses.replace(o, loc=op.loc)
        prev = into.get(o.id)
        if prev is None or STATUS_RANK[o.status] > STATUS_RANK[prev.status]:
            into[o.id] = o


def check_lemmas(func: Operation, ctx: VerifyContext, cache: Optional[LemmaCache] = None,
                 source: Optional[Operation] = None) -> list[Obligation]:
    """Obligation 1 for ``func`` (a handshake.func): one lemma per distinct table, one precondition per stream.

    ``source`` (the SCF function, when known) lets a refuted precondition say whether the input program's
    own loop misbehaves on the same inputs."""
    from loom.sim.names import value_name_map

    cache = cache if cache is not None else LemmaCache()
    lemmas: dict[str, Obligation] = {}
    streams: list[tuple[Operation, Machine]] = []
    machines = Machines()  # ops of one signature share one table (so its key is computed once, by id)
    keys: dict[int, tuple[Machine, str]] = {}  # the table is kept so its id is never reused
    merged: set[str] = set()  # keys whose cached lemmas are merged already: merging them again changes nothing
    for op in body_ops(func):
        m = machines(op)
        if op.name == "dataflow.stream":
            streams.append((op, m))
        known = keys.get(id(m))
        key = known[1] if known is not None else lemma_key(m)
        keys[id(m)] = (m, key)
        if key in merged:
            continue
        got = cache.done.get(key)
        if got is None and ctx.deadline is not None and ctx.limit() == 0:
            _merge(lemmas, _unknown_lemmas(m, op, f"not decided: the function's budget of {ctx.budget:g}s "
                                                 "was used up"), op)
        elif got is None:
            got = _guarded_lemmas(m, ctx, table_name(key), op, cache.checks)
            if all(o.status != "unknown" for o in got):  # an unknown (a timeout, a crash) is tried again
                cache.done[key] = got
                merged.add(key)
            _merge(lemmas, got, op)
        else:  # proved earlier in this run: reported again at no cost
            _merge(lemmas, [dataclasses.replace(o, seconds=0.0) for o in got], op)
            merged.add(key)
    out = sorted(lemmas.values(), key=lambda o: o.id)
    if streams:
        names = value_name_map(func, [op.results[0] for op, _ in streams])
        ana = OperandAnalysis(func, arg_name_map(func))
        for op, m in streams:
            oid = obligation_id("fsm.stream.pre", names[op.results[0]])
            _progress(ctx, oid)
            try:
                out.append(stream_precondition(op, m, ana, ctx, oid, source))
            except Exception as e:  # noqa: BLE001 - one stream's crash must not hide the others
                out.append(Obligation(oid, "fsm", "unknown", 0.0, f"not decided: the check crashed: "
                                      f"{type(e).__name__}: {e}", None, op.loc, method="none"))
    return out


def _guarded_lemmas(m: Machine, ctx: VerifyContext, name: str, op: Operation,
                    checks: ScopedChecks) -> list[Obligation]:
    """``lemma_obligations``; a crash on one table makes each of its lemmas unknown (listed, not dropped)."""
    try:
        return lemma_obligations(m, ctx, name, op, checks)
    except Exception as e:  # noqa: BLE001 - a crash is never a verdict
        return _unknown_lemmas(m, op, f"not decided: the prover crashed: {type(e).__name__}: {e}")


def _unknown_lemmas(m: Machine, op: Operation, why: str) -> list[Obligation]:
    """Every lemma of table ``m`` as ``unknown`` with reason ``why`` (listed, never dropped)."""
    ids = [c.id for c in contracts_for(m)] + ([obligation_id("fsm", family(m), None, "terminates")]
                                             if m.op_name == "dataflow.stream" else [])
    return [Obligation(i, "fsm", "unknown", 0.0, why, None, op.loc, method="none") for i in ids]
