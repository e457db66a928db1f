"""The plain BMC baseline: the network's transition relation unrolled T steps in one Z3 query.

No structural reduction: every step picks one (actor, rule) pair from the
tables (``z3model.MachineModel``) or stutters when nothing is enabled; every
channel is a bounded FIFO (count + slots) at every step. Values are encoded
like ``check_bmc`` (control exact, memory contents and data abstracted: data
channels carry only a count). The property -- after T steps the network is
quiescent with the return fired and nothing left -- is refuted by a model.
Used by ``benchmarks/bench_verify.py`` to show what the reductions of
``check_bmc`` and the structural proofs buy; it is exact for runs of at most
T firings and channels of at most ``capacity`` tokens.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import Any, Optional

import z3

from loom.verify.solve import milliseconds

from loom.ir.core import BlockArgument, Operation
from loom.ir.types import MemRefType, NoneType
from loom.semantics import machine_for
from loom.semantics.rest import rearm_allowance
from loom.verify.bmc.explore import control_values
from loom.verify.z3model import MachineModel, UnsupportedExpr, sort_of


@dataclass
class PlainResult:
    """``sat`` (a violation within T steps), ``unsat`` (none) or ``timeout``, with build and solve times."""

    status: str
    steps: int
    build_seconds: float
    solve_seconds: float


@dataclass
class _Unrolling:
    """The query being built: the actors' models, the channels, and the state reached after the last step."""

    models: list  # one ``MachineModel`` per actor
    chans: list  # (consumer actor, port name, value sort or None when data is abstracted) per channel
    feeds: dict  # (producer actor, output port) -> channels it pushes to
    init: list  # the tokens each channel starts with
    allow: list  # tokens a channel may keep at the end: they re-arm a primed buffer
    uid: int
    mk: Any  # a fresh constant of a hint and a sort
    cons: list = field(default_factory=list)
    cnt: list = field(default_factory=list)  # tokens per channel
    slots: list = field(default_factory=list)  # the first ``capacity`` token values per channel
    ms: list = field(default_factory=list)  # each actor's state
    returned: Any = None  # the return fired at some step
    failed: Any = None  # a failing rule fired at some step


def plain_bmc(func: Operation, steps: int, capacity: int = 4, timeout: Optional[float] = None) -> PlainResult:
    """Unroll ``steps`` interleaving steps of ``func``'s network and look for a bad final state."""
    t0 = time.perf_counter()
    u = _network(func)
    _initial(u, capacity)
    in_chan = {(k, p): c for c, (k, p, _) in enumerate(u.chans)}
    for t in range(steps):
        if timeout and time.perf_counter() - t0 > timeout:
            return PlainResult("timeout", steps, time.perf_counter() - t0, 0.0)
        _step(u, t, in_chan, capacity)
    s = z3.Solver()
    if timeout:
        left = timeout - (time.perf_counter() - t0)
        if left <= 0:
            return PlainResult("timeout", steps, time.perf_counter() - t0, 0.0)
        s.set("timeout", milliseconds(left))
    s.add(*u.cons)
    s.add(_bad_final(u, steps))
    t1 = time.perf_counter()
    r = s.check()
    t2 = time.perf_counter()
    return PlainResult("timeout" if r == z3.unknown else str(r), steps, t1 - t0, t2 - t1)


def _network(func: Operation) -> _Unrolling:
    """One model per op and one channel per token operand, with the tokens the arguments put there."""
    body = func.regions[0].entry
    relevant = control_values(func)
    fresh = itertools.count()

    def mk(hint: str, sort: z3.SortRef) -> z3.ExprRef:
        return z3.Const(f"{hint}.{next(fresh)}", sort)

    uid = next(_UID)
    models = [MachineModel(machine_for(op), f"p{uid}_a{k}", "exact", mk) for k, op in enumerate(body.ops)]
    u = _Unrolling(models, [], {}, [], [], uid, mk)
    for k, op in enumerate(body.ops):
        m = models[k].machine
        for i, v in enumerate(op.operands):
            port = m.inputs[i]
            if port.kind != "token":
                continue
            sort = None
            if v in relevant:
                try:
                    sort = sort_of(port.type)
                except UnsupportedExpr:
                    sort = None
            cid = len(u.chans)
            u.chans.append((k, port.name, sort))
            u.allow.append(rearm_allowance(v))
            if isinstance(v, BlockArgument):
                if isinstance(v.type, (MemRefType,)):
                    u.init.append([])
                elif isinstance(v.type, NoneType) or sort is None:
                    u.init.append([None])
                else:
                    u.init.append([z3.Const(f"arg{uid}.{v.index}", sort)])
            else:
                src = body.ops.index(v.op)
                u.feeds.setdefault((src, models[src].machine.outputs[v.index].name), []).append(cid)
                u.init.append([])
    return u


def _initial(u: _Unrolling, capacity: int) -> None:
    """The state at step 0: the initial tokens in the channels, every actor in its initial state."""
    mk = u.mk
    u.cnt = [z3.IntVal(len(t)) for t in u.init]
    u.slots = [[(t[i] if i < len(t) and t[i] is not None else (mk("slot", s) if s is not None else None))
                for i in range(capacity)] if s is not None else [None] * capacity
               for t, (_, _, s) in zip(u.init, u.chans)]
    u.ms = [mm.new_state("t0") for mm in u.models]
    u.cons = [mm.initial(st) for mm, st in zip(u.models, u.ms)]
    u.returned = z3.BoolVal(False)
    u.failed = z3.BoolVal(False)


def _step(u: _Unrolling, t: int, in_chan: dict, capacity: int) -> None:
    """Step ``t``: one enabled (actor, rule) pair fires, or nothing does and the network stutters."""
    options = _options(u, in_chan)
    sel = z3.Int(f"sel{u.uid}.{t}")
    cons = u.cons
    any_en = z3.Or(*[en for *_, en in options]) if options else z3.BoolVal(False)
    cons.append(z3.Implies(any_en, z3.And(sel >= 0, sel < len(options))))
    cons.append(z3.Implies(z3.Not(any_en), sel == -1))
    for i, (*_, en) in enumerate(options):
        cons.append(z3.Implies(sel == i, en))
    nxt = _next_actors(u, t, options, sel)
    _next_channels(u, options, sel, capacity)
    u.ms = nxt


def _options(u: _Unrolling, in_chan: dict) -> list:
    """(actor, firing, channels read, enabled) for every rule of every actor at the current state."""
    options = []
    for k, mm in enumerate(u.models):
        m = mm.machine
        heads = {}
        for p in m.inputs:
            if p.kind != "token":
                continue
            c = in_chan[(k, p.name)]
            s0 = u.slots[c][0]
            heads[p.name] = s0 if s0 is not None else z3.BitVecVal(0, _width(p.type))
        for f in mm.firings(u.ms[k], heads):
            reads = [in_chan[(k, p)] for p in f.consumes]
            en = z3.And(f.enabled, *[u.cnt[c] > 0 for c in reads])
            options.append((k, f, reads, en))
    return options


def _next_actors(u: _Unrolling, t: int, options: list, sel: z3.ArithRef) -> list:
    """Every actor's next state: the chosen firing's, or unchanged; what the chosen firing completes or fails."""
    nxt = [mm.new_state(f"t{t + 1}") for mm in u.models]
    for k, mm in enumerate(u.models):
        mine = [(i, f) for i, (kk, f, _, _) in enumerate(options) if kk == k]
        moved = z3.Or(*[sel == i for i, _ in mine]) if mine else z3.BoolVal(False)
        for i, f in mine:
            u.cons.append(z3.Implies(sel == i, mm.goes_to(f, nxt[k])))
        u.cons.append(z3.Implies(z3.Not(moved), mm.same(u.ms[k], nxt[k])))
        for i, f in mine:
            if f.completes:
                u.returned = z3.Or(u.returned, sel == i)
            if f.fails:
                u.failed = z3.Or(u.failed, sel == i)
    return nxt


def _next_channels(u: _Unrolling, options: list, sel: z3.ArithRef, capacity: int) -> None:
    """Every channel's next count and slots: popped by the chosen firing's reads, pushed by its emits."""
    pops: dict[int, list] = {c: [] for c in range(len(u.chans))}
    pushes: dict[int, list] = {c: [] for c in range(len(u.chans))}
    for i, (k, f, reads, _) in enumerate(options):
        for c in reads:
            pops[c].append(sel == i)
        for p, v in f.emits.items():
            for c in u.feeds.get((k, p), []):
                pushes[c].append((sel == i, v))
    new_cnt, new_slots = [], []
    for c in range(len(u.chans)):
        popped = z3.Or(*pops[c]) if pops[c] else z3.BoolVal(False)
        pushed = z3.Or(*[g for g, _ in pushes[c]]) if pushes[c] else z3.BoolVal(False)
        n1 = u.cnt[c] - z3.If(popped, 1, 0) + z3.If(pushed, 1, 0)
        u.cons.append(n1 <= capacity)
        sort = u.chans[c][2]
        row = u.slots[c]
        if sort is None:
            new_slots.append(row)
        else:
            shifted = [z3.If(popped, row[i + 1], row[i]) if i + 1 < capacity else
                       z3.If(popped, u.mk("slot", sort), row[i]) for i in range(capacity)]
            value = u.mk("v", sort)
            for g, v in pushes[c]:
                u.cons.append(z3.Implies(g, value == _fit(v, sort)))
            after = u.cnt[c] - z3.If(popped, 1, 0)
            new_slots.append([z3.If(z3.And(pushed, after == i), value, shifted[i]) for i in range(capacity)])
        new_cnt.append(n1)
    u.cnt, u.slots = new_cnt, new_slots


def _bad_final(u: _Unrolling, steps: int) -> z3.BoolRef:
    """After ``steps`` steps: quiescent (stuttering) and something wrong -- no return, a token left over, an
    operator latched mid-burst, or a failing rule fired."""
    quiet = z3.Int(f"sel{u.uid}.{steps - 1}") == -1 if steps else z3.BoolVal(True)
    leftover = z3.Or(*[n > a for n, a in zip(u.cnt, u.allow)]) if u.cnt else z3.BoolVal(False)
    latched = z3.Or(*[mm.in_state(s, *sorted(mm.machine.residual_states)) for mm, s in zip(u.models, u.ms)
                      if mm.machine.residual_states]) if u.models else z3.BoolVal(False)
    return z3.And(quiet, z3.Or(z3.Not(u.returned), leftover, latched, u.failed))


_UID = itertools.count()


def _width(t) -> int:
    """The bit width of a port's values (1 when not a bit-vector)."""
    try:
        return sort_of(t).size()
    except UnsupportedExpr:
        return 1


def _fit(v: z3.ExprRef, sort: z3.SortRef) -> z3.ExprRef:
    """``v`` as a value of ``sort``: Booleans as one bit, widths extended or cut."""
    if z3.is_bool(v):
        v = z3.If(v, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    w = sort.size()
    if v.size() == w:
        return v
    return z3.ZeroExt(w - v.size(), v) if v.size() < w else z3.Extract(w - 1, 0, v)


__all__ = ["PlainResult", "plain_bmc"]
