"""Obligation 2 of ``loom verify``: stream lengths, channel balance and raw/body classification, for all trip counts.

``check_lengths(func, ctx)`` runs the clock calculus (``lengths_typing``) and
turns its side conditions into obligations:

* ``len.<L>.raw``: loop L's raw streams carry N_L+1 tokens per activation
  (N_L trues then a false): the stream's operands arrive together, or, for a
  while loop, the condition computed in the loop has exactly the clock the
  loop's carries assumed;
* ``len.<L>.after_cond``: the gate of L turns the raw condition into N_L body
  tokens (after_value/after_cond);
* ``balance.<op>``: every channel into the op carries exactly the tokens the
  op's firing rules consume (nothing starves, no token is left), including the
  ``N >= 1`` a body-local carry/invariant on after_cond needs;
* ``class.<value>``: the length class of each loop-structural channel (raw
  N+1, body N, all-but-last N-1, exit 1, ...).

A refutation carries the smallest trip counts (and branch outcomes, argument
values) under which the channel's token count differs from what its consumer
takes, with the token trace of both. See specs/verification-lengths.md.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Optional

import z3

from loom.ir.core import Operation, Value, defining_op
from loom.sim.names import value_name_map
from loom.verify.ids import oid as obligation_id
from loom.verify.lengths.clock import AnyClock, Clock, FreeVars, Loop, TermMap, mentions, split
from loom.verify.lengths.logic import Logic
from loom.verify.memory.structure import use_map
from loom.verify.lengths.inference import Check, Typing, infer
from loom.verify.lengths.replay import replay_check, replay_forever
from loom.verify.lengths.ranking import Recurrence
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.solve import to_smt2

STRUCTURAL = ("dataflow.stream", "dataflow.gate", "dataflow.carry", "dataflow.invariant")


@dataclass
class LengthAnalysis:
    """The result of the calculus on one function: clocks of every value, loops, checks."""

    typing: Typing
    logic: Logic
    names: dict[Value, str]
    seconds: float

    def clock(self, v: Value) -> Optional["Clock | AnyClock"]:
        t = self.typing.types.get(v)
        return t.clock if t is not None else None

    def length(self, v: Value) -> str:
        """Human-readable token count of ``v`` (e.g. ``N_L0+1 per activation of L0``)."""
        c = self.clock(v)
        return "untyped" if c is None else describe(c, self.typing.cond_names, self.logic.free)[1]


def analyze(func: Operation, ctx: Optional[VerifyContext] = None) -> LengthAnalysis:
    """Run the clock calculus on a handshake.func."""
    ctx = ctx or VerifyContext()
    t0 = time.perf_counter()
    body = func.regions[0].entry
    vals = list(body.args) + [r for op in body.ops for r in op.results]
    names = value_name_map(func, vals)
    logic = Logic(ctx.limit, ctx.assumptions, ctx.rlimit)
    typing = infer(func, logic, names, ctx.progress)
    return LengthAnalysis(typing, logic, names, time.perf_counter() - t0)


def check_lengths(func: Operation, ctx: VerifyContext) -> list[Obligation]:
    """Obligations ``len.*``, ``balance.*`` and ``class.*`` of one handshake.func."""
    missing = no_body(func)
    if missing is not None:
        return [missing]
    a = analyze(func, ctx)
    return obligations(a, ctx)


def no_body(func: Operation) -> Optional[Obligation]:
    """The one (unknown) obligation of a function without a single-block body to analyse; None when it has one."""
    if not func.regions or len(func.regions[0].blocks) != 1:
        return Obligation(obligation_id("balance", "body"), "balance", "unknown", 0.0,
                          "the function has no single-block body to "
                          "analyse (a declaration?)", loc=func.loc)
    return None


# ---------------------------------------------------------------------------- classification
def describe(clock: "Clock | AnyClock", cond_names: TermMap, free: Optional[FreeVars] = None) -> tuple[str, str]:
    """(class, text) of a clock: ``raw``/``body``/``body-but-last``/``once``/``sub``/``empty``/``any``."""
    if isinstance(clock, AnyClock):
        return "any", "always ready (a source)"
    if clock.is_empty:
        return "empty", "never carries a token"
    memo = free if free is not None else FreeVars()
    if not clock.levels:
        cls, text = "once", "1 token per run"
        outer = list(clock.conds)
    else:
        lp = clock.levels[-1]
        outer, inner = split(clock, lp, memo)
        ids = sorted(x.get_id() for x in inner)
        act = f" per activation of {lp.name}"
        if not ids:
            cls, text = "raw", f"N_{lp.name}+1{act} (raw)"
        elif ids == [lp.cont.get_id()]:
            cls, text = "body", f"N_{lp.name}{act} (body)"
        elif ids == sorted([lp.cont.get_id(), lp.after.get_id()]):
            cls, text = "body-but-last", f"N_{lp.name}-1{act} (all iterations but the last)"
        else:
            names = ", ".join(sorted(_cond_text(c, cond_names) for c in inner))  # by text: not by term ids
            cls, text = "sub", f"iterations of {lp.name} where {names}"
        if len(clock.levels) > 1:
            text += " inside " + " inside ".join(x.name for x in reversed(clock.levels[:-1]))
    if outer:
        # by text, not in the terms' order: their ids depend on what the process built before (another checker)
        text += " when " + " and ".join(sorted(_cond_text(c, cond_names) for c in outer))
    return cls, text


def _cond_text(c: z3.BoolRef, cond_names: TermMap) -> str:
    name = cond_names.get(c)
    if name:
        return name
    s = " ".join(c.sexpr().split())  # Z3's C printer: much cheaper than the Python pretty printer
    return s if len(s) <= 60 else s[:57] + "..."


# ---------------------------------------------------------------------------- obligations
def obligations(a: LengthAnalysis, ctx: VerifyContext) -> list[Obligation]:
    """Every obligation of the calculus's result, in report order: stream lengths and balances (those whose
    premise is refuted marked so), then each while loop's termination, then the proved idioms."""
    out, anchors = _counts(a, ctx)
    out = _premises_refuted(a.typing.func, out, anchors)
    out += _stuck_loops(a)
    out += _ranked_loops(a, ctx)
    out += [_diverges(a, loop, opener_op, rec) for loop, (opener_op, rec) in a.typing.recurrent.items()]
    out += _idioms(a, ctx)
    out += _assumed_loops(a)
    return out


Anchor = tuple[Obligation, Optional[Operation], Optional[Value]]  # an obligation and the op or value it is about


def _counts(a: LengthAnalysis, ctx: VerifyContext) -> tuple[list[Obligation], list[Anchor]]:
    """``len.<L>.raw`` and ``len.<L>.after_cond`` per loop, ``balance.*`` per op (and one for the untyped
    rest), ``class.*`` per structural channel, each with what it is about."""
    typing = a.typing
    out: list[Obligation] = []
    anchors: list[Anchor] = []
    by_loop: dict[tuple[int, str], list[Check]] = {}
    by_op: dict[Operation, list[Check]] = {}
    for c in typing.checks:
        if c.family == "balance":
            by_op.setdefault(c.op, []).append(c)
        elif c.loop is not None:
            by_loop.setdefault((c.loop.index, c.family), []).append(c)
    for lp in typing.loops:
        raw = by_loop.get((lp.index, "len.raw"), [])
        what = (f"stream {a.names.get(lp.op.results[1], '?')}: N_{lp.name}+1 tokens per activation, "
                f"N_{lp.name} trues then one false") if lp.kind == "for" else (
            f"while loop opened by {lp.op.name} {a.names.get(lp.op.results[0], '?')}: its condition carries "
            f"N_{lp.name}+1 tokens per activation, N_{lp.name} trues then one false")
        out.append(_obligation(a, ctx, obligation_id("len.raw", lp.name), "length", lp.op, what, raw,
                               typing.unknown.get(lp.op)))
        anchors.append((out[-1], lp.op, None))
        gates = by_loop.get((lp.index, "len.after_cond"))
        if gates:
            gop = gates[0].op
            what = (f"gate {a.names.get(gop.results[1], '?')}: after_value/after_cond carry N_{lp.name} tokens "
                    "per activation (nothing when the loop runs 0 times)")
            out.append(_obligation(a, ctx, obligation_id("len.after_cond", lp.name), "length", gop, what, gates,
                                   typing.unknown.get(gop)))
            anchors.append((out[-1], gop, None))
    seen_unknown: set[Operation] = set()
    for oid, op in balance_targets(a):
        checks = by_op.get(op, [])
        reason = typing.unknown.get(op)
        seen_unknown.add(op)
        what = f"{op.name}: every input channel carries exactly the tokens its firings consume"
        out.append(_obligation(a, ctx, oid, "balance", op, what, checks, reason))
        anchors.append((out[-1], op, None))
    rest = [op for op in typing.untyped if op not in seen_unknown and op not in typing.unknown]
    if rest:
        names = ", ".join(f"{op.name} at {op.loc}" for op in rest[:5]) + (" ..." if len(rest) > 5 else "")
        out.append(Obligation(obligation_id("balance", "untyped"), "balance", "unknown", 0.0,
                              f"{len(rest)} op(s) could not be analysed (they depend on channels the calculus "
                              f"cannot type): {names}", loc=rest[0].loc, method="none"))
    for v, ob in _classes(a, ctx):
        out.append(ob)
        anchors.append((ob, defining_op(v), v))
    return out, anchors


def _stuck_loops(a: LengthAnalysis) -> list[Obligation]:
    """``len.<L>.terminates`` refuted for a while loop whose state repeats (a fixed point or a lasso), when the
    token simulator, replaying the arguments, is still running at its step cap (else unknown)."""
    out: list[Obligation] = []
    for loop, (opener, args, k, back) in a.typing.stuck.items():
        name = a.names.get(opener.results[0], "?")
        given = ", ".join(f"{x}={v}" for x, v in args.items()) or "any arguments"
        which = "its first iteration" if k == 0 else f"iteration {k} (counting from 0)"
        if back == k:
            why = (f"with {given} {which} runs and feeds back exactly the values it started from, "
                   "so every later iteration repeats it")
        else:
            why = (f"with {given} iterations 0..{k} run and iteration {k} feeds back the state iteration {back} "
                   f"started from, so iterations {back}..{k} repeat forever")
        cex = {"op": opener.name, "loc": str(opener.loc), "channel": name, "arguments": dict(args),
               "trip_counts": {loop.name: "never ends"}, "stuck_at_iteration": k, "repeats_iteration": back,
               "reason": why}
        rule = "while-loop fixed point" if back == k else "while-loop lasso"
        # a behaviour refutation comes with the run that shows it: the loop still running at the step cap
        cond_v = opener.operands[0] if opener.name in ("dataflow.carry", "dataflow.invariant") else None
        cex["replay"] = run = replay_divergence(a.typing.func, args, a.names.get(cond_v, "") if cond_v else "")
        text = f"while loop {loop.name} (opened by {opener.name} {name}) never ends: {why}"
        if run.get("status") != "error" or run.get("code") != "RT_SIM_STEP_LIMIT":
            out.append(Obligation(obligation_id("len.terminates", loop.name), "length", "unknown", 0.0,
                                  f"{text} -- but the token simulator on those arguments {run.get('why', '?')}", cex,
                                  opener.loc, method="typing rule", rule=f"{rule} (not replayed)"))
            continue
        out.append(Obligation(obligation_id("len.terminates", loop.name), "length", "refuted", 0.0, text, cex,
                              opener.loc,
                              method="typing rule", rule=rule, nature="behaviour"))
    return out


def _ranked_loops(a: LengthAnalysis, ctx: VerifyContext) -> list[Obligation]:
    """``len.<L>.terminates`` proved for a while loop with a ranking function (under its invariant)."""
    out: list[Obligation] = []
    for loop, rank in a.typing.ranked.items():
        opener = a.names.get(loop.op.results[0], "?")
        inv = " and ".join(rank.invariant)
        under = f" and the inductive invariant {inv}" if inv else ""
        out.append(Obligation(
            obligation_id("len.terminates", loop.name), "length", "proved", rank.seconds,
            f"while loop {loop.name} (opened by {loop.op.name} {opener}) ends: under its condition{under} the "
            f"rank {rank.text} (computed without wrap-around) is non-negative and strictly decreases at every "
            "iteration (z3, one query)", None, loop.op.loc, to_smt2(rank.query) if ctx.want_smt2 else None,
            method="smt", rule=f"ranking function {rank.text}" + (f" under the invariant {inv}" if inv else "")))
    return out


def _idioms(a: LengthAnalysis, ctx: VerifyContext) -> list[Obligation]:
    """``idiom.<name>.carry`` (a primed select, a control_merge loop header) and ``idiom.<name>.ring`` (a
    token ring), proved where the calculus typed them."""
    typing = a.typing
    out: list[Obligation] = []
    for ps in typing.idioms:
        if not ps.proved:
            continue  # not typed as a carry: its buffer's balance obligation is unknown with the lemma's verdict
        assert ps.proof is not None
        name = a.names.get(ps.buffer.results[0], "?")
        muxes = ", ".join(a.names.get(m.results[0], "?") for m in ps.muxes)
        out.append(Obligation(
            obligation_id("idiom.carry", name), "fsm", "proved", ps.proof.seconds,
            f"primed select {name} -> mux {muxes}: the composite of the buffer's and the mux's tables is a "
            f"dataflow.carry(d = {a.names.get(ps.buffer.operands[0], '?')}, a = data0, b = data1) "
            f"({ps.proof.detail})", None, ps.buffer.loc, ps.proof.smt2 if ctx.want_smt2 else None,
            method="smt", rule=f"series composition of the tables, carry contract: {ps.proof.method}"))
    for cl in typing.cmerge_loops:
        if not cl.typed:
            continue  # its side condition failed or it was never reached: its balance obligation says why
        name = a.names.get(cl.cmerge.results[0], "?")
        entry = a.names.get(cl.cmerge.operands[0], "?")
        cond = a.names.get(cl.condition, "?")
        muxes = ", ".join(a.names.get(m.results[0], "?") for m in cl.muxes) or "none"
        out.append(Obligation(
            obligation_id("idiom.carry", name), "fsm", "proved", 0.0,
            f"loop header {name} = control_merge({entry}, back edge) is dataflow.carry(d = {cond}, a = {entry}, "
            f"b = back edge): its entry carries at most one token per run (function-level clock, checked) and "
            f"its back edge is the true output of cond_br({cond}, {name}), so it takes the entry, then one back "
            f"token per true condition; its index (0, then 1s) selects the muxes {muxes} as the proved "
            "primed-select carry", None, cl.cmerge.loc, None, method="typing rule",
            rule="control_merge loop header with a function-level entry is a carry"))
    for ring in typing.rings:
        if not ring.typed:
            continue
        name = a.names.get(ring.buffer.results[0], "?")
        back = a.names.get(ring.buffer.operands[0], "?")
        users = ", ".join(sorted({u.name for u in ring.consumers}))
        out.append(Obligation(
            obligation_id("idiom.ring", name), "fsm", "proved", 0.0,
            f"token ring {name} (buffer primed with one token, read by {users}): its consumer fires at most once "
            f"per run (function-level clock, checked), so it takes the initial token, and the ring's input {back} "
            "must carry one token per firing (balance of the buffer), which re-arms it", None, ring.buffer.loc,
            None, method="typing rule", rule="function-level token ring"))
    return out


def _assumed_loops(a: LengthAnalysis) -> list[Obligation]:
    """``len.<L>.terminates`` assumed for every other while loop: no rank, lasso or recurrence set was found."""
    typing = a.typing
    out: list[Obligation] = []
    for loop in typing.loops:
        if loop.kind != "while" or loop in typing.stuck or loop in typing.ranked or loop in typing.recurrent:
            continue
        opener = a.names.get(loop.op.results[0], "?") if loop.op.results else loop.op.name
        asked, secs = typing.tried.get(loop, (0, 0.0))
        out.append(Obligation(
            obligation_id("len.terminates", loop.name), "length", "assumed", secs,
            f"while loop {loop.name} (opened by {loop.op.name} {opener}) is assumed to end: its termination "
            "depends on data and is not proved (the obligations that count its trips hold if it ends: partial "
            "correctness): no ranking function was proved from its condition's comparisons, no control state "
            "repeats within 8 iterations and no recurrence set was found", loc=loop.op.loc,
            method="none", rule="no ranking function, lasso or recurrence set found"))
    return out

REPLAY_STEPS = 20_000  # firings of the token simulator when a diverging while loop is replayed


def _diverges(a: LengthAnalysis, loop: Loop, opener: Operation, rec: Recurrence) -> Obligation:
    """``len.W.terminates`` refuted by a closed recurrence set, replayed in the token simulator: the run on
    the set's arguments must hit the step cap with the loop's condition still true (else unknown)."""
    name = a.names.get(opener.results[0], "?")
    given = ", ".join(f"{x}={v}" for x, v in rec.args.items()) or "any arguments"
    inv = " and ".join(rec.invariant)
    stem = "; ".join(", ".join(f"{k}={v}" for k, v in st.items()) for st in rec.stem)
    why = (f"with {given} the loop starts in the set {{{inv}}}, every iteration from that set stays in it and "
           "its condition holds there (a closed recurrence set, z3)")
    cex: dict = {"op": opener.name, "loc": str(opener.loc), "channel": name, "arguments": dict(rec.args),
                 "trip_counts": {loop.name: "never ends"}, "recurrence_set": list(rec.invariant),
                 "stem": list(rec.stem), "reason": why}
    cond_v = opener.operands[0] if opener.name in ("dataflow.carry", "dataflow.invariant") else None
    cond = a.names.get(cond_v, "") if cond_v is not None else ""
    run = replay_divergence(a.typing.func, rec.args, cond)
    cex["replay"] = run
    detail = (f"while loop {loop.name} (opened by {opener.name} {name}) never ends: {why}"
              + (f"; control state {stem}, ..." if stem else ""))
    if run.get("status") != "error" or run.get("code") != "RT_SIM_STEP_LIMIT":
        return Obligation(obligation_id("len.terminates", loop.name), "length", "unknown", rec.seconds,
                          detail + f" -- but the token simulator on those arguments {run.get('why', '?')}", cex,
                          opener.loc, method="smt", rule="closed recurrence set (not replayed)")
    return Obligation(obligation_id("len.terminates", loop.name), "length", "refuted", rec.seconds,
                      detail + f"; the token simulator {run['why']}", cex, opener.loc, method="smt",
                      rule="closed recurrence set", nature="behaviour")


def replay_divergence(func: Operation, args: dict, cond: str = "", steps: int = REPLAY_STEPS) -> dict:
    """Run the token simulator on ``args`` (memrefs of 4 elements) with a step cap of ``steps`` firings:
    ``status``/``code`` of the run, the condition's token count, and ``why`` in words."""
    from loom.diagnostics import LoomError
    from loom.sim import simulate

    inputs = replay_inputs(func, args)
    try:
        res = simulate(func, inputs, max_steps=steps)
    except LoomError as e:
        return {"inputs": inputs, "status": "error", "code": e.code, "why": f"cannot run them: {e.message}"}
    out: dict = {"inputs": inputs, "status": res.status, "steps": res.steps}
    if res.error is not None:
        out["code"] = res.error.code
    # the condition's channel (the simulator names each use of a value used several times ``name[k]``)
    counts = [c for k, c in res.channels.items() if cond and (k == cond or k.startswith(cond + "["))]
    seen = max(counts) if counts else None
    if seen is not None:
        out["condition_tokens"] = seen
    if res.status == "error" and res.error is not None and res.error.code == "RT_SIM_STEP_LIMIT":
        out["why"] = (f"stops at its cap of {steps} firings ({res.error.code}) with the loop still running"
                      + (f": its condition {cond} carried {seen} tokens" if seen is not None else ""))
    else:
        out["why"] = f"ends with status {res.status}" + (f" ({res.error.code})" if res.error is not None else "")
    return out


SOURCE_REPLAY_STEPS = 200_000  # operations of the SCF interpreter when a diverging while loop is replayed


def replay_source_divergence(ob: Obligation, source: Operation, steps: int = SOURCE_REPLAY_STEPS) -> Obligation:
    """A refuted ``len.W.terminates`` replayed on the SCF source (the interpreter, capped at ``steps``
    operations) on the same arguments: ``source_replay`` in the counterexample and a note in the detail. The
    verdict stays: the DFG does not end on those arguments whatever the source does."""
    import dataclasses

    from loom.diagnostics import LoomError
    from loom.interp import run_json
    from loom.ir.core import Module

    cex = ob.counterexample or {}
    if ob.status != "refuted" or not ob.id.endswith(".terminates") or "arguments" not in cex:
        return ob
    parent = source.parent_op
    if parent is None:
        return ob
    inputs = replay_inputs(source, cex["arguments"])
    try:
        ref = run_json(Module(parent), source.attributes["sym_name"].value, inputs, max_steps=steps)
    except LoomError:
        return ob
    code = ref.error.code if ref.error is not None else None
    run = {"inputs": inputs, "status": ref.status, **({"code": code} if code else {})}
    if code == "RT_STEP_LIMIT":
        note = f"; the SCF interpreter stops at its cap of {steps} operations ({code}) too"
    else:
        note = f"; the SCF source ends with status {ref.status}" + (f" ({code})" if code else "") + \
            " on these arguments (the DFG does not: a lowering fault)"
    return dataclasses.replace(ob, detail=ob.detail + note, counterexample={**cex, "source_replay": run})


def replay_inputs(func: Operation, args: dict) -> dict:
    """``loom sim`` inputs for ``func`` from a witness's integer ``args``: memrefs of 4 elements (or their
    static shape) filled with 1, 2, 3, ...; arguments the witness does not name are 0."""
    from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, NoneType
    from loom.runtime import function_arg_names

    out: dict = {}
    for arg, n in zip(func.regions[0].entry.args, function_arg_names(func)):
        t = arg.type
        if isinstance(t, NoneType):
            continue
        if isinstance(t, MemRefType):
            sizes = [s if s is not None else int(args.get(f"{n}.dim{k}", 4)) for k, s in enumerate(t.shape)]
            count = [0]

            def build(d: int, sizes=sizes, t=t):
                if d == len(sizes):
                    count[0] += 1
                    return float(count[0]) if isinstance(t.element, FloatType) else count[0]
                return [build(d + 1) for _ in range(sizes[d])]

            out[n] = build(0)
        elif isinstance(t, (IntegerType, IndexType)):
            v = args.get(n, 0)
            out[n] = int(v) & 1 if isinstance(t, IntegerType) and t.width == 1 else int(v)
        elif isinstance(t, FloatType):
            out[n] = 1.5
    return out


def balance_targets(a: LengthAnalysis) -> list[tuple[str, Operation]]:
    """(``balance.<op>`` ID, op) of every op that gets a balance obligation, in op order (also used by the RTL
    monitors of ``loom.hdl.monitors``, so the two always name the same op)."""
    checked = {c.op for c in a.typing.checks if c.family == "balance"}
    out: list[tuple[str, Operation]] = []
    counter: dict[str, int] = {}
    for op in a.typing.func.regions[0].entry.ops:
        has = op in checked
        if op.name in STRUCTURAL[:2] and not has:
            continue  # stream/gate: covered by len.* obligations
        if not has and op not in a.typing.unknown:
            continue
        out.append((obligation_id("balance", _op_name(op, a.names, counter)), op))
    return out


def _op_name(op: Operation, names: dict[Value, str], counter: dict[str, int]) -> str:
    if op.results:
        return names.get(op.results[0], "?")
    base = op.name.split(".", 1)[-1]
    k = counter.get(base, 0)
    counter[base] = k + 1
    return base if k == 0 else f"{base}{k}"


def _obligation(a: LengthAnalysis, ctx: VerifyContext, oid: str, kind: str, op: Operation, what: str,
                checks: list[Check], reason: Optional[str]) -> Obligation:
    seconds = sum(c.seconds for c in checks)
    refuted = [c for c in checks if c.outcome.status == "refuted"]
    unknown = [c for c in checks if c.outcome.status == "unknown"]
    # only the checks a solver decided go into the script: a check the clock calculus closed ("identical
    # clocks") would be Xor(f, f), which the simplifier already reduces to false
    solved = [c for c in checks if "(z3)" in c.outcome.reason or c.outcome.status != "proved"]
    query = _violation(a, solved) if solved else None
    if query is not None and z3.is_false(z3.simplify(query)):
        query, solved = None, []  # false by construction: the rules decided it, no solver needed
    smt2 = _script(query) if ctx.want_smt2 and query is not None else None
    how_ = dict(method="smt", rule="clock equality over trip counts") if solved else \
        dict(method="typing rule", rule="; ".join(sorted({c.outcome.reason for c in checks})) or "length calculus")
    if refuted:
        # a behaviour refutation is one a run shows: each witness is replayed in the token simulator, the
        # first one shown is reported with its run; none shown is no refutation (lengths/replay.py)
        unshown: list[tuple[str, dict]] = []
        for c in refuted:
            detail = _witness_text(a, c)
            run = replay_check(a, c, c.outcome.witness)
            if run.pop("shown"):
                cex = _counterexample(a, c)
                cex["replay"] = run
                return Obligation(oid, kind, "refuted", seconds, detail, cex, op.loc, smt2, method="smt",
                                  rule="bounded token-count witness", nature="behaviour")
            unshown.append((detail, run))
        detail, run = unshown[0]
        return Obligation(oid, kind, "unknown", seconds, f"{what} -- not decided: {detail}; but the token "
                          f"simulator does not show it on inputs built from the witness: {run['why']}", None, op.loc,
                          smt2, method="smt", rule="bounded token-count witness, not shown by a run")
    if reason is not None or unknown:
        why = reason if reason is not None else f"{unknown[0].what}: {unknown[0].outcome.reason}"
        return Obligation(oid, kind, "unknown", seconds, f"{what} -- not decided: {why}", None, op.loc, smt2,
                          **(how_ if unknown else dict(method="none", rule="")))
    how = "; ".join(sorted({c.outcome.reason for c in checks})) or "by construction"
    return Obligation(oid, kind, "proved", seconds, f"{what} ({how})", None, op.loc, smt2, **how_)


def _witness_text(a: LengthAnalysis, c: Check) -> str:
    """What a count witness claims, in words."""
    w = c.outcome.witness
    assert w is not None
    got, want = w.totals[1], w.totals[0]
    trips = ", ".join(f"{k}={v}" for k, v in w.trips.items()) or "no loop"
    if c.family == "class":
        effect = f"the exit position's token is left over, or {c.op.name} accesses memory there too"
    else:
        effect = "a token is left over" if got > want else "its consumer starves"
    detail = (f"{c.what}: {a.names.get(c.channel, '?')} carries {got} token(s) where {want} are consumed "
              f"({effect}) with trip counts {trips}")
    if w.args:
        detail += " (arguments " + ", ".join(f"{k}={v}" for k, v in w.args.items()) + ")"
    return detail


def _counterexample(a: LengthAnalysis, c: Check) -> dict:
    w = c.outcome.witness
    assert w is not None
    channel = a.names.get(c.channel, "?") if c.channel is not None else "?"
    ref = a.names.get(c.ref) if c.ref is not None else None
    cex: dict = {
        "op": c.op.name,
        "loc": str(c.op.loc),
        "channel": channel,
        "trip_counts": dict(w.trips),
        "max_trip_count": w.bound,
        "arguments": dict(w.args),
        "tokens": {channel: w.totals[1], "consumed": w.totals[0]},
        "trace": {channel: w.tokens[1], "consumed": w.tokens[0]},
        "branch_outcomes": _branches(a, c),
        "expected": describe(c.expected, a.typing.cond_names, a.logic.free)[1],
        "actual": describe(c.actual, a.typing.cond_names, a.logic.free)[1],
    }
    if ref is not None:
        cex["against"] = ref
    return cex


def _branches(a: LengthAnalysis, c: Check) -> dict:
    """Truth values, in the witness, of the named data-dependent conditions at function level."""
    w = c.outcome.witness
    assert w is not None
    out = {}
    for clock in (c.expected, c.actual):
        if isinstance(clock, AnyClock):
            continue
        for cond in clock.conds:
            name = a.typing.cond_names.get(cond)
            if name is None or any(True for _ in a.logic.n_apps(cond)):
                continue
            if clock.levels and any(_mentions_j(cond, lp, a.logic.free) for lp in clock.levels):
                continue
            v = w.model.eval(cond, model_completion=True)
            if z3.is_true(v) or z3.is_false(v):
                out[name.lstrip("!")] = z3.is_true(v) != name.startswith("!")
    return out


def _mentions_j(cond: z3.ExprRef, lp: Loop, free: FreeVars) -> bool:
    return mentions(cond, lp, free)


def _script(query: z3.BoolRef) -> str:
    return to_smt2([query])


def _violation(a: LengthAnalysis, checks: list[Check]) -> Optional[z3.BoolRef]:
    """One query: some checked channel differs from its expectation (``unsat`` = all proved); None when the
    checks are not one quantifier-free query."""
    violations: list[z3.BoolRef] = []
    for c in checks:
        e, x = c.expected, c.actual
        if isinstance(e, AnyClock) or isinstance(x, AnyClock):
            continue
        if e.levels != x.levels and e.is_empty == x.is_empty:
            return None  # not a single quantifier-free query (the refutation is a bounded witness)
        q = a.logic.equality_query(e, x)
        violations.append(z3.And(*q))
    return z3.Or(*violations) if violations else z3.BoolVal(False)


def _premises_refuted(func: Operation, out: list[Obligation], anchors: list[Anchor]) -> list[Obligation]:
    """A clock derived downstream of a refuted ``len``/``balance`` obligation is not established: unknown.

    The calculus types each op's results from its operands' clocks, assuming the op's inputs are balanced; where
    a run breaks that (the op's own obligation is refuted), every clock computed from its results -- and every
    balance or class read off them -- may be wrong in that run, so "proved" would claim more than was checked
    (the RTL monitors of such a DFG fail them). Correct DFGs, where nothing is refuted, are unchanged.
    """
    refuted = [(ob, op) for ob, op, _ in anchors if ob.status == "refuted" and op is not None]
    if not refuted:
        return out
    uses = use_map(func.regions[0].entry.ops)
    cause: dict[Value, str] = {}  # value -> the refuted obligation whose op it is computed from
    for ob, op in refuted:
        stack = list(op.results)
        while stack:
            v = stack.pop()
            if v in cause:
                continue
            cause[v] = ob.id
            stack.extend(r for u, _ in uses.get(v, []) for r in u.results)
    changed: dict[int, Obligation] = {}
    for ob, op, v in anchors:
        if ob.status != "proved":
            continue
        if v is not None:
            premise = cause.get(v)
        else:
            assert op is not None
            premise = next((cause[x] for x in op.operands if x in cause), None)
        if premise is None:
            continue
        changed[id(ob)] = replace(ob, status="unknown", detail=(
            f"{ob.detail} -- not established: it is derived from clocks computed past {premise}, which is refuted "
            "(a run breaking that can break this too)"), rule=f"{ob.rule}; premise {premise} refuted", smt2=None)
    return [changed.get(id(ob), ob) for ob in out]


def _classes(a: LengthAnalysis, ctx: VerifyContext) -> list[tuple[Value, Obligation]]:
    """The ``class.*`` obligations, each with the value it is about."""
    out: list[tuple[Value, Obligation]] = []
    typing = a.typing
    consumers: dict[Value, list[Check]] = {}
    for c in typing.checks:
        if c.family == "class" and c.channel is not None:
            consumers.setdefault(c.channel, []).append(c)
    done: set[Value] = set()
    loop_conds: set[int] = set()
    for lp in typing.loops:
        loop_conds |= {lp.cont.get_id(), lp.after.get_id()}
    for op in typing.func.regions[0].entry.ops:
        structural = op.name in STRUCTURAL
        if not structural and op.name in ("handshake.cond_br", "handshake.mux"):
            c = typing.types.get(op.operands[0])
            structural = c is not None and c.term.get_id() in loop_conds
        if not structural:
            continue
        for r in op.results:
            name = a.names.get(r, "?")
            t = typing.types.get(r)
            done.add(r)
            if r in consumers and t is not None:
                cls, text = describe(t.clock, typing.cond_names, a.logic.free)
                out.append((r, _obligation(a, ctx, obligation_id("class", name), "length", op, f"{name}: {cls}: {text}; "
                                       "consumed only by loop structures", consumers[r], None)))
                continue
            if op in typing.forever:
                run = replay_forever(typing.func)
                if not run.pop("shown"):
                    out.append((r, Obligation(obligation_id("class", name), "length", "unknown", 0.0,
                                          f"{name}: the stream never stops: {typing.forever[op]} -- but the token "
                                          f"simulator does not show it: {run['why']}", loc=op.loc,
                                          method="typing rule", rule="stream that never stops, not shown by a run")))
                    continue
                out.append((r, Obligation(obligation_id("class", name), "length", "refuted", 0.0,
                                      f"{name}: the stream never stops: {typing.forever[op]}",
                                      {"op": op.name, "loc": str(op.loc), "channel": name, "arguments": {},
                                       "reason": typing.forever[op], "replay": run}, op.loc,
                                      method="typing rule", rule="stream that never stops, replayed",
                                      nature="behaviour")))
                continue
            if t is None or op in typing.unknown:
                why = typing.unknown.get(op, "depends on an untyped channel")
                out.append((r, Obligation(obligation_id("class", name), "length", "unknown", 0.0,
                                      f"{name}: length not derived ({why})", loc=op.loc, method="none")))
                continue
            cls, text = describe(t.clock, typing.cond_names, a.logic.free)
            # derived by the clock calculus's rules (no query: the old script compared the clock with
            # itself, which the simplifier reduces to false)
            out.append((r, Obligation(obligation_id("class", name), "length", "proved", 0.0, f"{name}: {cls}: {text}",
                                  loc=op.loc, method="typing rule", rule=f"clock of {op.name}")))
    for v, checks in consumers.items():
        if v in done:
            continue
        name = a.names.get(v, "?")
        t = typing.types[v]
        cls, text = describe(t.clock, typing.cond_names, a.logic.free)
        owner = v.op if hasattr(v, "op") else checks[0].op
        out.append((v, _obligation(a, ctx, obligation_id("class", name), "length", owner,
                               f"{name}: {cls}: {text}; consumed only by "
                               "loop structures", checks, None)))
    return out
