"""The clock inference's rules for ops that keep their operands' loop level (``loom.verify.lengths.inference``):
copies, joins, constants, cond_br, mux, merge, stores, returns and memory ports."""

from __future__ import annotations

from typing import Optional, Sequence

import z3

from loom.ir.core import Operation, Value
from loom.ir.types import NoneType
from loom.semantics.expr import Const
from loom.verify.lengths.clock import (
    ANY,
    EMPTY,
    ONE,
    AnyClock,
    Clock,
    mentions,
    split,
    substitute,
    when,
)
from loom.verify.lengths.conditions import capture
from loom.verify.lengths.values import int_width, is_i1

from loom.verify.lengths.typed import Group, Typed
from loom.verify.lengths.typer_base import TyperBase


class TyperRules(TyperBase):
    """The per-op rules of ``Typer`` outside loop structure."""

    def _identity(self, op: Operation) -> None:
        for r in op.results:
            self.assign(r, self.t(op.operands[0]))

    def _join(self, op: Operation) -> None:
        c = self.same(op, op.operands)
        self.assign(op.results[0], Typed(c, self.values.token()))

    def _constant(self, op: Operation) -> None:
        m = self.machines[op]
        val = m.rules[0].emits[0][1]
        assert isinstance(val, Const)
        self.assign(op.results[0], Typed(self.t(op.operands[0]).clock, self.values.literal(val.value, op.results[0].type)))

    def _cond_br(self, op: Operation) -> None:
        c_v, d_v = op.operands
        c = self.same(op, [c_v, d_v])
        cond = self.cond_term(c_v)
        term = self.t(d_v).term
        for r, pol in ((op.results[0], cond), (op.results[1], z3.Not(cond))):
            clock, subst = when(c, pol, self.memo)
            if subst is None and isinstance(clock, Clock):
                clock, subst = self._capture(clock)
            self.assign(r, Typed(clock, substitute(term, subst)))

    def _capture(self, clock: Clock) -> tuple[Clock, Optional[tuple]]:
        """``clock`` with its innermost level projected away when a condition ``idx(j) == k`` (k the same for
        the whole activation) pins the position of a unit-step stream's loop: a token captured at the
        iteration whose index is k (``loom.verify.lengths.conditions.capture``)."""
        loop = clock.inner
        if loop is None or clock.is_empty:
            return clock, None
        outer, inner = split(clock, loop, self.memo)
        got = capture(loop, inner, lambda x: mentions(x, loop, self.memo))
        if got is None:
            return clock, None
        conds, t = got
        if not any(t.eq(x) for x in loop.captures):
            loop.captures.append(t)
        return Clock(clock.levels[:-1], outer + conds), (loop.j, t)

    def _mux(self, op: Operation) -> None:
        sel_v, data = op.operands[0], op.operands[1:]
        s = self.t(sel_v).clock
        if isinstance(s, AnyClock):
            self.unknown_op(op, f"the select {self.name(sel_v)} comes from an always-ready source")
            return
        sel = self.t(sel_v).term
        boolean = is_i1(sel_v.type)
        if boolean:
            sel = self.cond_term(sel_v)  # a computed loop condition selects like the loop's own
        width = int_width(sel_v.type) or 64
        out_term: Optional[z3.ExprRef] = None
        for k, d in reversed(list(enumerate(data))):
            if boolean:
                pick = sel if k == 1 else (z3.Not(sel) if k == 0 else z3.BoolVal(False))
            else:
                pick = sel == z3.BitVecVal(k, width)
            expected, _ = when(s, pick, self.memo)
            self.check(op, f"{self.name(d)} carries one token per select token choosing input {k}", expected,
                       self.t(d).clock, d, sel_v)
            dt = self.t(d).term
            out_term = dt if out_term is None else z3.If(pick, dt, out_term)
        if not (boolean and len(data) >= 2):
            in_range = z3.BoolVal(len(data) >= 2) if boolean else z3.ULT(sel, z3.BitVecVal(len(data), width))
            oob, _ = when(s, z3.Not(in_range), self.memo)
            self.check(op, f"the select {self.name(sel_v)} is always below {len(data)}", EMPTY, oob, sel_v, None)
        assert out_term is not None
        self.assign(op.results[0], Typed(s, out_term))

    def _merge(self, op: Operation) -> None:
        ins = op.operands
        clocks = [self.t(v).clock for v in ins]
        if len(ins) == 1:
            self.assign(op.results[0], self.t(ins[0]))
            if len(op.results) > 1:
                self.assign(op.results[1], Typed(clocks[0], self.values.literal(0, op.results[1].type)))
            return
        if any(isinstance(c, AnyClock) for c in clocks):
            self.unknown_op(op, "merge of an always-ready source")
            return
        live = [c for c in clocks if not c.is_empty]  # an input that never carries a token adds nothing
        if not live:
            for r in op.results:
                self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
            return
        if len({c.levels for c in live}) != 1:
            self.unknown_op(op, "merge of streams from different loop nests")
            return
        for i in range(len(ins)):
            for k in range(i + 1, len(ins)):
                # disjoint: wherever input i carries a token, input k does not (one query over the
                # shared loop nest; comparing their intersection with the level-less empty clock
                # would ask for a count witness instead, and never prove it inside a loop)
                if clocks[i].is_empty or clocks[k].is_empty:
                    continue
                if not self._valid(clocks[i], z3.Not(clocks[k].formula())):
                    self.unknown_op(op, f"cannot show that {self.name(ins[i])} and {self.name(ins[k])} never both "
                                        "carry a token for one iteration (merge order is nondeterministic)")
                    return
        clock = Clock(live[0].levels, [z3.Or(*[c.formula() for c in live])])
        # The inputs are disjoint, so at each coordinate exactly one of them holds a token: a control_merge's
        # index names it (the index is what a CIRCT-style mux selects on; #(index = k) = #in_k whatever the
        # arrival order). The output is that token -- its value is kept only at function level (one token
        # per run): inside a loop, tokens of later iterations may overtake earlier ones at the merge.
        value = self.t(ins[-1]).term
        index = self.values.literal(len(ins) - 1, op.results[1].type) if len(op.results) > 1 else None
        for k in range(len(ins) - 2, -1, -1):
            here = clocks[k].formula()
            value = z3.If(here, self.t(ins[k]).term, value)
            if index is not None:
                index = z3.If(here, self.values.literal(k, op.results[1].type), index)
        if clock.levels:
            value = self.fresh(op.results[0], clock)
        self.assign(op.results[0], Typed(clock, value))
        if index is not None:
            self.assign(op.results[1], Typed(clock, index))

    def _store(self, op: Operation) -> None:
        c = self.same(op, op.operands)
        self._body_local(op, c, op.operands)
        n_addr = len(op.operands) - 2
        self.assign(op.results[0], Typed(c, self.t(op.operands[n_addr]).term))
        for k in range(1, len(op.results)):
            self.assign(op.results[k], Typed(c, self.t(op.operands[k - 1]).term))

    def _body_local(self, op: Operation, c: "Clock | AnyClock", vals: Sequence[Value]) -> None:
        """A memory access inside a for loop is body-local: it must never fire at the raw stream's exit
        position j = N (that would access memory N+1 times per activation). Pure ops (arith/math, streams)
        may: a computation on the raw clock is before-region or boundary work (the loop's own exit test,
        an exit value), and whatever consumes its results is checked against their clock."""
        if not isinstance(c, Clock):
            return
        ids = {x.get_id() for x in c.conds}
        for loop in c.levels:
            if loop.kind != "for" or loop.cont.get_id() in ids:
                continue  # restricted to the body of this loop syntactically
            body = c.with_conds([loop.cont])
            raw_v = next((v for v in vals if not isinstance(self.t(v).clock, AnyClock)), None)
            self.check(op, f"body-local {op.name} must not consume the raw (N+1) stream {self.name(raw_v)} of "
                           f"{loop.name}", body, c, raw_v, None, "class", loop)

    def _return(self, op: Operation) -> None:
        for v in op.operands:
            self.check(op, f"{self.name(v)} carries exactly one token per run", ONE, self.t(v).clock, v, None)

    def _memory_port(self, g: Group) -> None:
        op = g.op
        vals = [op.operands[i] for i in g.ins]
        c = self.same(op, vals) if vals else ANY
        for k in g.outs:
            r = op.results[k]
            if isinstance(r.type, NoneType):
                self.assign(r, Typed(c, self.values.token()))
            else:
                self.assign(r, Typed(c, self.fresh(r, c)))
