"""What a generic iteration of each loop may assume: the facts that make safety hold for every trip count.

Each loop of the source model (``SafetyModel``) gets facts over its generic-iteration
symbols, valid in every iteration of every activation:

* an ``scf.for`` body: the step is positive (the interpreter stops before a loop with
  another step: that is the ``step`` obligation), ``iv < ub``, and ``lb <= iv`` when the
  induction cannot wrap (``ub + step - 1`` stays in range; it then never passes ``ub``);
  with a constant step, ``iv - lb`` is a multiple of it; a ``dataflow.stream`` body
  (``+=``, ``<``) the same, with the positive step a premise (a stream runs with any step);
* an ``scf.while`` after-region (phase ``body``): its condition held;
* after a loop (one activated in the site's context or an enclosing one, not around the site): where
  the loop ran (its path condition), the state it ended in (its exit symbols) satisfies its invariants,
  and an ``scf.while``'s condition is false there -- a run only gets past a loop that ended;
* every loop: the inductive ones among candidate invariants relating each loop-carried
  integer to its initial value (``>=``/``<=``, signed and unsigned), found by Houdini:
  drop every candidate the solver cannot show preserved by one iteration (under the
  loop's own facts, the surviving candidates and the enclosing loops' facts), until the
  set is stable. The candidates hold at the first iteration (the state equals its initial
  value), so the survivors hold in every iteration.

All facts over-approximate the reachable states, so "no error under the facts" proves
"no error in any run"; a satisfiable query is only a candidate, replayed before it is
called a refutation.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

import z3

from loom.verify.refine.model import Ctx, Frame, mentions
from loom.verify.safety.sites import ForLoop, SafetyModel
from loom.verify.terms import term_ids

# facts, goals -> None when the facts (and the function's base facts: assumptions, sizes, lemmas, which the refuter
# adds) imply every goal, else for each goal whether a counter-model keeps it
Refuter = Callable[[list[z3.BoolRef], list[z3.BoolRef]], Optional[list[bool]]]
MAX_HOUDINI_ROUNDS = 2  # rounds per candidate


def for_facts(fl: ForLoop) -> list[z3.BoolRef]:
    """Facts of an scf.for body over its (64-bit) induction symbol."""
    iv = fl.frame.state[0].sym
    lb, ub, step = fl.lb, fl.ub, fl.step
    if fl.unsigned:
        ext = (lambda x: z3.ZeroExt(2, x))
        top = (1 << 64) - 1
        positive = step != 0
        nowrap = ext(ub) + ext(step) - 1 <= top
        out = [z3.ULT(iv, ub), z3.Implies(z3.And(positive, nowrap), z3.ULE(lb, iv))]
    else:
        ext = (lambda x: z3.SignExt(2, x))
        positive = step > 0
        nowrap = ext(ub) + ext(step) - 1 <= (1 << 63) - 1
        out = [iv < ub, z3.Implies(z3.And(positive, nowrap), lb <= iv)]
    if fl.step_checked:
        out.append(positive)
    nowrap = z3.And(positive, nowrap)
    s = z3.simplify(step)
    if z3.is_bv_value(s) and s.as_long() > 1:
        out.append(z3.Implies(nowrap, z3.URem(iv - lb, s) == 0))
    return out


class LoopFacts:
    """The facts of the loops of one ``SafetyModel``; each loop's invariants are found once, when a query first
    asks for them (most sites are proved from the loops' own facts alone)."""

    def __init__(self, model: SafetyModel, prove: Refuter) -> None:
        self.model = model
        self.prove = prove
        self.invariants: dict[Frame, list[z3.BoolRef]] = {}
        # ``at_site``'s facts by context: the same for every site of one loop context, and rebuilding them (a
        # substitution per loop a site follows) for each of a 50,009-op DFG's 7,594 sites of a part took ~5 s
        self._at: dict[tuple, list[z3.BoolRef]] = {}

    def invariants_of(self, f: Frame) -> list[z3.BoolRef]:
        got = self.invariants.get(f)
        if got is None:
            got = self.invariants[f] = self._houdini(f, self.prove)
        return got

    def local(self, f: Frame, phase: str, invariants: bool = True) -> list[z3.BoolRef]:
        """Facts of loop ``f`` alone, in ``phase`` (``body`` or ``raw``), with its invariants unless told not."""
        out = list(self.invariants_of(f)) if invariants else []
        if phase == "body":
            fl = self.model.for_loops.get(f)
            if fl is not None:
                out += for_facts(fl)
            elif f.cont is not None:
                out.append(f.cont)
        return out

    def context(self, ctx: Ctx, invariants: bool = True) -> list[z3.BoolRef]:
        """Facts of every loop of ``ctx`` (the loops around a site, each in its phase)."""
        out: list[z3.BoolRef] = []
        for f, phase in ctx:
            out += self.local(f, phase, invariants)
        return out

    def at_site(self, ctx: Ctx, invariants: bool = True) -> list[z3.BoolRef]:
        """Everything the loops give a site in ``ctx``: the facts of the loops around it and of those it follows
        (built once per context: the terms are hash-consed, so the same ones either way)."""
        key = (tuple((id(f), phase) for f, phase in ctx), invariants)
        got = self._at.get(key)
        if got is None:
            got = self._at[key] = self.context(ctx, invariants) + self.exits(ctx, invariants)
        return list(got)

    def needs_invariants(self, ctx: Ctx) -> bool:
        """Could invariants add anything here (a loop around, or one that ended before, with loop-carried
        state)?"""
        return any(len(f.state) > (1 if f in self.model.for_loops else 0) for f in
                   [f for f, _ in ctx] + self._before(ctx))

    def exits(self, ctx: Ctx, invariants: bool = True) -> list[z3.BoolRef]:
        """Facts of the loops a site in ``ctx`` may follow (see the module docstring), over their exit symbols."""
        out: list[z3.BoolRef] = []
        for f in self._before(ctx):
            sub = f.exit_subst()
            facts: list[z3.BoolRef] = []
            owned_by = getattr(self.model, "owned", None)  # symbols each loop's iteration owns (SCF models)
            if f.cont is not None and f not in self.model.for_loops and owned_by is not None:
                owned = owned_by.get(f, set()) - {sv.sym.decl().name() for sv in f.state}
                if mentions(f.cont, owned) is None:  # not a value read in the last evaluation only
                    facts.append(z3.Not(z3.substitute(f.cont, *sub)))
            if invariants:
                facts += [z3.substitute(p, *sub) for p in self.invariants_of(f)]
            # only where the loop ran: a loop in a branch not taken says nothing (and one that never ends
            # would otherwise make every later site vacuously safe on the other path)
            out += [z3.Implies(f.pc, p) for p in facts]
        return out

    def _before(self, ctx: Ctx) -> list[Frame]:
        """The loops activated in ``ctx`` or a context enclosing it, other than the loops of ``ctx``."""
        around = {id(f) for f, _ in ctx}
        return [f for f in self.model.frames if id(f) not in around and f.state and len(f.outer) <= len(ctx)
                and all(a is c and pa == pc for (a, pa), (c, pc) in zip(f.outer, ctx))]

    def _houdini(self, f: Frame, prove: Refuter) -> list[z3.BoolRef]:
        fl = self.model.for_loops.get(f)
        first = 1 if fl is not None else 0  # the for induction has its own facts
        cands: list[tuple[z3.BoolRef, z3.BoolRef]] = []  # (at the generic iteration, at the next one)
        for sv in f.state[first:]:
            if sv.init is None or sv.next is None or not z3.is_bv(sv.sym) or not z3.is_bv(sv.init):
                continue
            if sv.init.size() != sv.sym.size() or not z3.is_bv(sv.next) or sv.next.size() != sv.sym.size():
                continue
            x, i, n = sv.sym, sv.init, sv.next
            cands += [(x >= i, n >= i), (x <= i, n <= i), (z3.UGE(x, i), z3.UGE(n, i)), (z3.ULE(x, i), z3.ULE(n, i))]
        states = {sv.sym.get_id() for sv in f.state}
        init_of = [(sv.sym, sv.init) for sv in f.state if sv.init is not None and z3.is_bv(sv.init)
                   and z3.is_bv(sv.sym) and sv.init.size() == sv.sym.size()]
        bounded = []  # against the loop-invariant sides of the condition's comparisons: x < n, x <= n
        for sv in f.state[first:]:
            if sv.next is None or not z3.is_bv(sv.sym) or not z3.is_bv(sv.next) or sv.next.size() != sv.sym.size():
                continue
            for b in _invariant_sides(f.cont, states) if f.cont is not None else []:
                if b.size() == sv.sym.size():
                    x, n = sv.sym, sv.next
                    bounded += [(x < b, n < b), (x <= b, n <= b), (z3.ULT(x, b), z3.ULT(n, b)),
                                (z3.ULE(x, b), z3.ULE(n, b))]
        around = self.context(f.outer) + [f.pc]
        if bounded and init_of:  # these hold at the first iteration only if the initial state satisfies them:
            # drop those a counter-model falsifies until the rest all hold (each round drops one or gives up)
            for _ in range(len(bounded)):
                held = prove(around, [z3.substitute(c, *init_of) for c, _ in bounded])
                if held is None:
                    break
                still = [c for c, ok in zip(bounded, held) if ok]
                if len(still) == len(bounded):  # an unknown answer: claim none of them
                    still = []
                bounded = still
                if not bounded:
                    break
            else:
                bounded = []
        cands += bounded
        if not cands:
            return []
        body = self.local(f, "body", invariants=False)  # the iteration that computes the next state ran its body
        keep = list(range(len(cands)))
        for _ in range(MAX_HOUDINI_ROUNDS * len(cands)):  # each round drops a candidate or ends
            if not keep:
                return []
            hyp = around + body + [cands[k][0] for k in keep]
            held = prove(hyp, [cands[k][1] for k in keep])
            if held is None:
                break  # all preserved together: inductive
            still = [k for k, ok in zip(keep, held) if ok]
            if still == keep:  # the counter-model broke none (an unknown answer): claim nothing
                return []
            keep = still
        else:
            return []
        return [cands[k][0] for k in keep]


def _invariant_sides(cond: z3.BoolRef, states: set[int]) -> list[z3.BitVecRef]:
    """The bit-vector sides of comparisons in ``cond`` that mention none of the loop's state symbols."""
    out: dict[int, z3.BitVecRef] = {}
    todo, seen = [cond], set()
    while todo:
        t = todo.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_app(t) and t.num_args() == 2 and z3.is_bool(t) and all(z3.is_bv(a) for a in t.children()):
            for a in t.children():
                if not _mentions(a, states) and not z3.is_bv_value(a):
                    out.setdefault(a.get_id(), a)
        todo.extend(t.children())
    return list(out.values())[:4]


def _mentions(t: z3.ExprRef, ids: set[int]) -> bool:
    return not term_ids(t).isdisjoint(ids)


def nonneg_dims(dims: Sequence[z3.BitVecRef], cap: Optional[int]) -> list[z3.BoolRef]:
    """A dimension is a non-negative size, below ``cap`` when given (the address-space assumption)."""
    out = []
    for d in dims:
        out.append(d >= 0)
        if cap is not None:
            out.append(d < cap)
    return out
