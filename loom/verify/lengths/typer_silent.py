"""The clock inference's silent parts (``loom.verify.lengths.inference``): values no rule typed because nothing
ever fires them, and the feedback checks of loops once everything else is typed."""

from __future__ import annotations


import z3

from loom.ir.core import Value
from loom.verify.lengths.clock import (
    EMPTY,
    Clock,
)

from loom.verify.lengths.typed import Typed
from loom.verify.lengths.typer_base import TyperBase


class TyperSilent(TyperBase):
    """What ``Typer.run`` does after the rules have drained."""

    def _silence(self) -> bool:
        """Give the empty clock to every untyped value that no firing can ever produce (Kahn's least
        fixpoint: a cycle without an initial token stays empty). Returns whether anything changed."""
        stuck = [g for g in self.groups if id(g) not in self.done_groups]
        if not stuck:
            return False
        ops = list(dict.fromkeys(g.op for g in stuck))
        produced: set[Value] = {v for v, t in self.types.items() if not t.clock.is_empty}
        # an op that fired but could not type its results (unknown to the calculus) may still produce them
        stuck_ops = set(ops)
        produced |= {r for g in self.groups if g.op not in stuck_ops
                     for r in g.op.results if r not in self.types}
        changed = True
        while changed:
            changed = False
            for op in ops:
                m = self.machines[op]
                index = {p.name: i for i, p in enumerate(m.inputs)}
                outs = {p.name: i for i, p in enumerate(m.outputs)}
                reach = {m.initial}
                grew = True
                while grew:
                    grew = False
                    for rule in m.rules:
                        if rule.state in reach and all(op.operands[index[p]] in produced for p in rule.reads):
                            if rule.next not in reach:
                                reach.add(rule.next)
                                grew = True
                            for p, _ in rule.emits:
                                r = op.results[outs[p]]
                                if r not in produced:
                                    produced.add(r)
                                    changed = True
                for p, _ in m.sources:
                    r = op.results[outs[p]]
                    if r not in produced:
                        produced.add(r)
                        changed = True
        silent = [r for op in ops for r in op.results if r not in produced and r not in self.types]
        if not silent:
            return False
        for r in silent:
            self.assign(r, Typed(EMPTY, self.fresh(r, EMPTY)))
        return True

    def _check_feedback(self) -> None:
        """Checks on inputs a rule does not wait for (carry feedback, a never-seeded loop's condition)."""
        for op, why in self.delays.items():
            if op.results[0] not in self.types:
                self.unknown_op(op, f"primed buffer: {why}, and its input could not be typed without its own "
                                    "output (loop state kept in the buffer is not typed)")
        for op, what, expected, v, ref in self.deferred:
            if v not in self.types or (expected is None and ref not in self.types):
                self.unknown_op(op, f"{self.name(v if v not in self.types else ref)} could not be typed")
                continue
            self.check(op, what, self.t(ref).clock if expected is None else expected, self.t(v).clock, v, ref)
        for op, what, expected, vals in self.deferred_union:
            if any(v not in self.types for v in vals):
                self.unknown_op(op, f"{', '.join(self.name(v) for v in vals if v not in self.types)} could not "
                                    "be typed")
                continue
            clocks = [self.t(v).clock for v in vals]
            if any(not isinstance(c, Clock) for c in clocks) or len({c.levels for c in clocks}) != 1:
                self.unknown_op(op, "the back edges are not on one loop nest")
                continue
            for i in range(len(clocks)):
                for k in range(i + 1, len(clocks)):
                    if not self._valid(clocks[i], z3.Not(clocks[k].formula())):
                        self.unknown_op(op, f"cannot show that the back edges {self.name(vals[i])} and "
                                            f"{self.name(vals[k])} never both carry a token for one iteration")
                        break
            union = Clock(clocks[0].levels, [z3.Or(*[c.formula() for c in clocks])])
            self.check(op, what, expected, union, vals[0], None)
