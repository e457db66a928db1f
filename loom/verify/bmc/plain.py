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
from dataclasses import dataclass
from typing import Optional

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


def plain_bmc(func: Operation, steps: int, capacity: int = 4, timeout: Optional[float] = None) -> PlainResult:
    """Unroll ``steps`` interleaving steps of ``func``'s network and look for a bad final state."""
    t0 = time.perf_counter()
    body = func.regions[0].entry
    relevant = control_values(func)
    fresh = itertools.count()

    def mk(hint: str, sort: z3.SortRef) -> z3.ExprRef:
        return z3.Const(f"{hint}.{next(fresh)}", sort)

    uid = next(_UID)
    models = []
    for k, op in enumerate(body.ops):
        models.append(MachineModel(machine_for(op), f"p{uid}_a{k}", "exact", mk))
    # channels: (consumer actor, port name, value sort or None when data is abstracted)
    chans: list[tuple[int, str, Optional[z3.SortRef]]] = []
    feeds: dict[tuple[int, str], list[int]] = {}
    init: list[list] = []
    allow: list[int] = []  # tokens a channel may keep at the end: they re-arm a primed buffer
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
            cid = len(chans)
            chans.append((k, port.name, sort))
            allow.append(rearm_allowance(v))
            if isinstance(v, BlockArgument):
                if isinstance(v.type, (MemRefType,)):
                    init.append([])
                elif isinstance(v.type, NoneType) or sort is None:
                    init.append([None])
                else:
                    init.append([z3.Const(f"arg{uid}.{v.index}", sort)])
            else:
                src = body.ops.index(v.op)
                feeds.setdefault((src, models[src].machine.outputs[v.index].name), []).append(cid)
                init.append([])
    # state at step 0
    cnt = [z3.IntVal(len(t)) for t in init]
    slots = [[(t[i] if i < len(t) and t[i] is not None else (mk("slot", s) if s is not None else None))
              for i in range(capacity)] if s is not None else [None] * capacity
             for t, (_, _, s) in zip(init, chans)]
    ms = []
    for k, mm in enumerate(models):
        st = mm.new_state("t0")
        ms.append(st)
    cons = [mm.initial(st) for mm, st in zip(models, ms)]
    in_chan = {(k, p): c for c, (k, p, _) in enumerate(chans)}
    returned = z3.BoolVal(False)
    failed = z3.BoolVal(False)
    for t in range(steps):
        if timeout and time.perf_counter() - t0 > timeout:
            return PlainResult("timeout", steps, time.perf_counter() - t0, 0.0)
        options = []  # (enabled, effects) per (actor, rule)
        for k, mm in enumerate(models):
            m = mm.machine
            heads = {}
            for p in m.inputs:
                if p.kind != "token":
                    continue
                c = in_chan[(k, p.name)]
                s0 = slots[c][0]
                heads[p.name] = s0 if s0 is not None else z3.BitVecVal(0, _width(p.type))
            for f in mm.firings(ms[k], heads):
                reads = [in_chan[(k, p)] for p in f.consumes]
                en = z3.And(f.enabled, *[cnt[c] > 0 for c in reads])
                options.append((k, f, reads, en))
        sel = z3.Int(f"sel{uid}.{t}")
        any_en = z3.Or(*[en for *_, en in options]) if options else z3.BoolVal(False)
        cons.append(z3.Implies(any_en, z3.And(sel >= 0, sel < len(options))))
        cons.append(z3.Implies(z3.Not(any_en), sel == -1))
        for i, (*_, en) in enumerate(options):
            cons.append(z3.Implies(sel == i, en))
        # next configuration of every actor
        nxt = [mm.new_state(f"t{t + 1}") for mm in models]
        for k, mm in enumerate(models):
            mine = [(i, f) for i, (kk, f, _, _) in enumerate(options) if kk == k]
            moved = z3.Or(*[sel == i for i, _ in mine]) if mine else z3.BoolVal(False)
            for i, f in mine:
                cons.append(z3.Implies(sel == i, mm.goes_to(f, nxt[k])))
            cons.append(z3.Implies(z3.Not(moved), mm.same(ms[k], nxt[k])))
            for i, f in mine:
                if f.completes:
                    returned = z3.Or(returned, sel == i)
                if f.fails:
                    failed = z3.Or(failed, sel == i)
        # channels
        pops = {c: [] for c in range(len(chans))}
        pushes = {c: [] for c in range(len(chans))}
        for i, (k, f, reads, _) in enumerate(options):
            for c in reads:
                pops[c].append(sel == i)
            for p, v in f.emits.items():
                for c in feeds.get((k, p), []):
                    pushes[c].append((sel == i, v))
        new_cnt, new_slots = [], []
        for c in range(len(chans)):
            popped = z3.Or(*pops[c]) if pops[c] else z3.BoolVal(False)
            pushed = z3.Or(*[g for g, _ in pushes[c]]) if pushes[c] else z3.BoolVal(False)
            n1 = cnt[c] - z3.If(popped, 1, 0) + z3.If(pushed, 1, 0)
            cons.append(n1 <= capacity)
            sort = chans[c][2]
            row = slots[c]
            if sort is None:
                new_slots.append(row)
            else:
                shifted = [z3.If(popped, row[i + 1], row[i]) if i + 1 < capacity else
                           z3.If(popped, mk("slot", sort), row[i]) for i in range(capacity)]
                value = mk("v", sort)
                for g, v in pushes[c]:
                    cons.append(z3.Implies(g, value == _fit(v, sort)))
                after = cnt[c] - z3.If(popped, 1, 0)
                new_slots.append([z3.If(z3.And(pushed, after == i), value, shifted[i]) for i in range(capacity)])
            new_cnt.append(n1)
        cnt, slots, ms = new_cnt, new_slots, nxt
    # bad final state: quiescent (stuttering) and something wrong
    quiet = z3.Int(f"sel{uid}.{steps - 1}") == -1 if steps else z3.BoolVal(True)
    leftover = z3.Or(*[n > a for n, a in zip(cnt, allow)]) if cnt else z3.BoolVal(False)
    latched = z3.Or(*[mm.in_state(s, *sorted(mm.machine.residual_states)) for mm, s in zip(models, ms)
                      if mm.machine.residual_states]) if models else z3.BoolVal(False)
    bad = z3.And(quiet, z3.Or(z3.Not(returned), leftover, latched, failed))
    s = z3.Solver()
    if timeout:
        left = timeout - (time.perf_counter() - t0)
        if left <= 0:
            return PlainResult("timeout", steps, time.perf_counter() - t0, 0.0)
        s.set("timeout", milliseconds(left))
    s.add(*cons)
    s.add(bad)
    t1 = time.perf_counter()
    r = s.check()
    t2 = time.perf_counter()
    return PlainResult("timeout" if r == z3.unknown else str(r), steps, t1 - t0, t2 - t1)


_UID = itertools.count()


def _width(t) -> int:
    try:
        return sort_of(t).size()
    except UnsupportedExpr:
        return 1


def _fit(v: z3.ExprRef, sort: z3.SortRef) -> z3.ExprRef:
    if z3.is_bool(v):
        v = z3.If(v, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    w = sort.size()
    if v.size() == w:
        return v
    return z3.ZeroExt(w - v.size(), v) if v.size() < w else z3.Extract(w - 1, 0, v)


__all__ = ["PlainResult", "plain_bmc"]
