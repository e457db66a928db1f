"""Symbolic decisions: the solver's scopes follow a run's path condition; a feasible two-way guard forks."""

from __future__ import annotations

import time
from collections import deque
from typing import Any, Optional

import z3

from loom.verify.bmc import limits
from loom.verify.bmc.outcome import OutOfLimit, Pruned
from loom.verify.bmc.state import State
from loom.verify.solve import milliseconds, rlimit_param, rlimit_reason, unknown_reason
from loom.verify.terms import symbols as symbols_of
from loom.verify.z3model import bv_value, division_facts

DIVISION_NAMES = ("bvurem", "bvsrem", "bvsmod", "bvudiv")


class Decisions:
    """The explorer's solver side: path scopes, limits per query and in all, forks, pins, the witness model."""

    def _sync(self, st: State) -> None:
        """Make the solver's scopes hold exactly ``st``'s path condition (one scope per literal)."""
        have = self.solver_path
        common = 0
        while common < len(have) and common < len(st.path) and have[common] is st.path[common]:
            common += 1
        if len(have) > common:
            self.solver.pop(len(have) - common)
            del have[common:]
        for lit in st.path[common:]:
            self.solver.push()
            self.solver.add(lit, *self._facts(lit))
            have.append(lit)

    def _facts(self, g: z3.BoolRef) -> list:
        """Valid range facts of the divisions in ``g`` (``division_facts``; cached per term)."""
        key = g.get_id()
        hit = self._fact_cache.get(key)
        if hit is None:
            text = g.sexpr()
            facts = division_facts(g) if any(op in text for op in DIVISION_NAMES) else []
            hit = self._fact_cache[key] = (g, facts)  # the entry keeps ``g`` (its id) alive
        return hit[1]

    def _time_out(self) -> "OutOfLimit":
        """The limit that ends the exploration when the wall-clock budget ran out."""
        return OutOfLimit("time", f"the time budget of {self.budget:g}s ran out")

    def _limit(self) -> Optional[float]:
        """Bound the next solver call by what is left of the wall-clock budget, if there is one (a query may
        not outlive it); the resource limit per query is set once, on the solver. The seconds given."""
        if self.deadline is None:
            return None
        left = self.deadline - time.perf_counter()
        if left < 0.001:
            raise self._time_out()
        self.solver.set("timeout", milliseconds(left))
        return left

    def _units_used(self) -> int:
        """Z3's resource counter (cumulative over the context; differences measure a check)."""
        return self.solver.statistics().get_key_value("rlimit count")

    def _out_of_units(self) -> "OutOfLimit":
        """The limit that ends the exploration when the branch queries' joint rlimit ran out."""
        return OutOfLimit("rlimit", f"the branch queries ran out of their joint resource limit of "
                                     f"{self.max_units} rlimit units")

    def _feasible(self, st: State, g: z3.BoolRef) -> Optional[z3.ModelRef]:
        """A model of the path condition with ``g``, or None when ``g`` is infeasible on this path
        (``OutOfLimit`` when the solver cannot tell within its limits)."""
        self._sync(st)
        seconds = self._limit()
        each = rlimit_param(self.rlimit)  # 0: no limit
        shared = False  # is what is left of the joint limit the tighter one?
        if self.max_units:
            left = self.max_units - self.units
            if left <= 0:
                raise self._out_of_units()
            shared = not each or left <= each
            each = left if shared else each
        self.solver.set("rlimit", rlimit_param(each))
        self.solver.push()
        self.solver.add(g, *self._facts(g))
        before = self._units_used()
        r = self.solver.check()
        self.units += self._units_used() - before
        m = self.solver.model() if r == z3.sat else None
        reason = self.solver.reason_unknown() if r == z3.unknown else ""
        self.solver.pop()
        self.queries += 1
        if r == z3.unknown:
            why = unknown_reason(reason, seconds, each)
            if why.startswith("timeout"):
                raise self._time_out()
            if why == rlimit_reason(each):
                if shared:
                    raise self._out_of_units()
                raise OutOfLimit("rlimit", f"a branch query ran out of its resource limit of {each} rlimit units")
            raise OutOfLimit("solver", f"a branch query was not decided ({why})")
        return m

    @staticmethod
    def _assume(st: State, g: z3.BoolRef, value: bool) -> None:
        """Add the decision ``g == value`` to ``st``'s path."""
        st.path.append(g if value else z3.Not(g))
        st.decided[g.get_id()] = (g, value)

    def _decide(self, st: State, g: z3.BoolRef, pending: list, k: int, loop: bool, gid: int) -> bool:
        """The outcome of symbolic guard ``g`` (term id ``gid``) on this path: forced, or forked (the false
        side is queued, with actor ``k`` first in line to try its next rule). A known model of the path
        settles one side without a query."""
        hit = st.decided.get(gid)
        if hit is not None:
            return hit[1]
        guess = None
        if st.model is not None:
            v = st.model.eval(g, model_completion=True)
            guess = True if z3.is_true(v) else False if z3.is_false(v) else None
        m_t = st.model if guess is True else self._feasible(st, g)
        m_f = st.model if guess is False else self._feasible(st, z3.Not(g))
        if m_t is not None and m_f is not None:
            other = st.copy()
            self._assume(other, g, False)
            other.model = m_f
            if loop:
                self._pin(other, g)
            other.work.appendleft(k)
            other.queued[k] = True
            pending.append(other)
            self._assume(st, g, True)
            st.model = m_t
            # no pin on the continuing side: "one more iteration" bounds a trip count from below only
            return True
        if m_t is None and m_f is None:
            raise Pruned()  # the path condition itself is infeasible
        st.decided[gid] = (g, m_t is not None)
        return m_t is not None

    def _pin(self, st: State, g: z3.BoolRef) -> None:
        """After a loop decision: every argument/size symbol of ``g`` the path now fixes to one value is
        replaced by that value in the whole state, so the rest of the path runs on concrete values."""
        subst = []
        model = st.model
        assert model is not None
        for c in symbols_of(g):
            if not c.decl().name().startswith(("arg:", "dim:")):
                continue
            v = model.eval(c, model_completion=True)
            if self._feasible(st, c != v) is None:
                subst.append((c, v))
        if not subst:
            return

        memo: dict[int, tuple] = {}  # a token copied by forks is rewritten once

        def rw(x: Any) -> Any:
            if not isinstance(x, z3.ExprRef):
                return x
            hit = memo.get(x.get_id())
            if hit is None:
                y = z3.simplify(z3.substitute(x, *subst))
                hit = memo[x.get_id()] = (x, y.as_long() if z3.is_bv_value(y) else y)
            return hit[1]

        st.regs = [{r: rw(v) for r, v in regs.items()} if any(isinstance(v, z3.ExprRef) for v in regs.values())
                   else regs for regs in st.regs]
        st.chans = [deque(rw(v) for v in q) if any(isinstance(v, z3.ExprRef) for v in q) else q
                    for q in st.chans]

    def _model_args(self, st: State) -> dict:
        """Argument values (and memref sizes) of the violating path, small and non-negative when possible."""
        self._sync(st)
        # the verdict is already known: a model is a bonus, not a wait (bounded by a resource limit of its own,
        # and by 2 s when wall-clock limits are in force)
        self.solver.set("rlimit", rlimit_param(min(self.rlimit or limits.MODEL_RLIMIT, limits.MODEL_RLIMIT)))
        if self.deadline is not None:
            self.solver.set("timeout", 2000)
        syms = list(self.args.values()) + list(self.dims.values())
        m = None
        for lo, hi in ((0, 2 * self.k + 2), (-64, 1 << 16)):
            self.solver.push()
            self.solver.add(*[z3.And(c >= lo, c <= hi) for c in syms if z3.is_bv(c)])
            if self.solver.check() == z3.sat:
                m = self.solver.model()
            self.solver.pop()
            if m is not None:
                break
        if m is None:
            if self.solver.check() != z3.sat:
                return {}
            m = self.solver.model()
        out = {name: bv_value(m, c) for name, c in self.args.items()}
        out.update({f"{mem}.dim{k}": bv_value(m, c) for (mem, k), c in self.dims.items()})
        return out
