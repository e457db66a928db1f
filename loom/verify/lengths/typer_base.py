"""The clock inference's common queries (``loom.verify.lengths.inference``): a value's type and name, clock
equality by Z3, side checks, canonical condition terms and fresh symbols."""

from __future__ import annotations

from typing import Optional, Sequence

import z3

from loom.ir.core import Operation, Value
from loom.verify.lengths.clock import (
    ANY,
    AnyClock,
    Clock,
    Loop,
    mentions,
    split,
)
from loom.verify.lengths.conditions import uses
from loom.verify.lengths.logic import Outcome

from loom.verify.lengths.typed import Check, Typed


class TyperBase:
    """Helpers every phase of ``Typer`` uses (its state is set by ``Typer.__init__``)."""

    def t(self, v: Value) -> Typed:
        return self.types[v]

    def name(self, v: Optional[Value]) -> str:
        return self.names.get(v, "?") if v is not None else "?"

    def coords(self, clock: "Clock | AnyClock") -> list[z3.ArithRef]:
        return [lp.j for lp in clock.levels]

    def equal(self, a: "Clock | AnyClock", b: "Clock | AnyClock") -> Outcome:
        key = (a.key, b.key)
        hit = self._eq_cache.get(key)
        if hit is None:
            hit = self._eq_cache[key] = (self.logic.equal(a, b), a, b)  # the clocks keep their ids alive
        return hit[0]

    def check(self, op: Operation, what: str, expected: "Clock | AnyClock", actual: "Clock | AnyClock",
              channel: Optional[Value], ref: Optional[Value], family: str = "balance",
              loop: Optional[Loop] = None) -> Outcome:
        import time

        t0 = time.perf_counter()
        out = self.equal(expected, actual)
        self.checks.append(Check(op, family, loop, what, expected, actual, channel, ref, out,
                                 time.perf_counter() - t0))
        return out

    def same(self, op: Operation, vals: Sequence[Value], family: str = "balance",
             loop: Optional[Loop] = None) -> "Clock | AnyClock":
        """All ``vals`` are read by one firing: their clocks must be equal. Returns the common clock."""
        ref = next((v for v in vals if not isinstance(self.t(v).clock, AnyClock)), None)
        if ref is None:
            return ANY
        rc = self.t(ref).clock
        for v in vals:
            if v is ref or isinstance(self.t(v).clock, AnyClock):
                continue
            self.check(op, f"{self.name(v)} and {self.name(ref)} are consumed together", rc, self.t(v).clock,
                       v, ref, family, loop)
        return rc

    def cond_term(self, v: Value) -> z3.BoolRef:
        term = self.t(v).term
        if not z3.is_bool(term):
            term = term != 0
        term = self.canonical(self.t(v).clock, term)
        self.cond_names.setdefault(term, self.name(v))
        self.cond_names.setdefault(z3.Not(term), "!" + self.name(v))
        return term

    def canonical(self, clock: "Clock | AnyClock", term: z3.BoolRef) -> z3.BoolRef:
        """``term``, or the loop condition it equals on ``clock`` for all trip counts: a for loop's raw
        ``j < N`` on its raw clock, its ``after_cond`` ``j < N-1`` on its body clock (a condition the DFG
        computes from the index, e.g. ``(i + 1) < n`` in the body; ``loom.verify.lengths.conditions``)."""
        if not isinstance(clock, Clock) or clock.inner is None or clock.inner.kind != "for":
            return term
        loop = clock.inner
        if term.get_id() in (loop.cont.get_id(), loop.after.get_id()) or not mentions(term, loop, self.memo):
            return term
        if loop.index_term is None or not uses(term, loop.index_term.decl(), self._uses):
            return term  # not computed from the loop's index: data, never the loop's own condition
        key = (clock.key, term.get_id())
        hit = self._canon.get(key)
        if hit is None:
            _, inner = split(clock, loop, self.memo)
            ids = [x.get_id() for x in inner]
            want = loop.cont if not ids else (loop.after if ids == [loop.cont.get_id()] else None)
            got = want if want is not None and self._valid(clock, term == want, succ=True) else term
            hit = self._canon[key] = (got, term)  # the term keeps its id alive
        return hit[0]

    def fresh(self, v: Value, clock: "Clock | AnyClock") -> z3.ExprRef:
        return self.values.fresh(self.name(v).lstrip("%"), v.type, self.coords(clock))

    def unknown_op(self, op: Operation, reason: str) -> None:
        self.unknown.setdefault(op, reason)
