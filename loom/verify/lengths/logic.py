"""Z3 side of the length calculus: trip-count axioms, clock equality, and bounded count witnesses.

Clock equality is decided for *all* trip counts: the negation (a coordinate in
one clock and not in the other, within the loop domains, under the trip-count
axioms) is a quantifier-free query; ``unsat`` proves equality. When it is not
proved, ``count_witness`` enumerates every coordinate up to a small trip-count
bound and looks for trip counts and branch outcomes under which the two clocks
carry different *numbers* of tokens over the whole run -- a real imbalance
(residual token or starvation). The bound grows from 0, so the first witness
has the smallest trip counts.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import z3

from loom.verify.assume import to_z3
from loom.verify.solve import DEFAULT_RLIMIT, milliseconds, rlimit_param, unknown_reason

from loom.verify.lengths.clock import ANY, AnyClock, Clock, FreeVars, Loop
from loom.verify.lengths.conditions import capture_facts

WITNESS_MAX_TRIPS = 3  # largest free trip count tried when searching a counterexample
WITNESS_MAX_LEAVES = 4096  # coordinates enumerated per clock


@dataclass
class Outcome:
    """Verdict of one side condition: ``proved``, ``refuted`` (with a witness) or ``unknown`` (with a reason)."""

    status: str
    reason: str = ""
    witness: Optional["Witness"] = None


@dataclass
class Witness:
    """Trip counts and branch outcomes under which clocks carry different token counts over one run."""

    model: z3.ModelRef
    bound: int
    totals: list[int]
    trips: dict[str, int] = field(default_factory=dict)
    args: dict[str, object] = field(default_factory=dict)
    tokens: list[list[str]] = field(default_factory=list)  # per clock: coordinates of each token, in order


class _NoTime(z3.Solver):
    """A solver with no time left: every ``check`` answers unknown (never a verdict)."""

    def check(self, *assumptions):  # type: ignore[override]
        return z3.unknown

    def reason_unknown(self) -> str:
        return "timeout"


class _Axioms:
    """Logic's trip-count axioms: the N applications a term mentions, their instances and closed forms, the
    domain of a loop nest and a position's facts (a mixin; the loops and the free variables are Logic's)."""

    def n_apps(self, term: z3.ExprRef) -> list[tuple[Loop, z3.ArithRef]]:
        """Every application ``N_L(args)`` in ``term`` as (loop, app) pairs."""
        out = []
        for app in self.free.n_apps(term):
            loop = self.loops.get(app.decl().name())
            if loop is not None:
                out.append((loop, app))
        return out

    def _instance(self, loop: Loop, app: z3.ArithRef, term: z3.ExprRef) -> z3.ExprRef:
        args = app.children()
        if not args:
            return term
        return z3.substitute(term, *zip(loop.outer_js, args))

    def axioms(self, terms: Sequence[z3.ExprRef], exact: bool = False) -> list[z3.BoolRef]:
        """Trip-count facts for every ``N`` application reachable from ``terms``: ``N >= 0``, the constant
        trip count when known, ``N >= 1`` iff the first continue condition holds, and (``exact``, used only
        when searching witnesses) the closed form of ``+=`` loops with a constant positive step."""
        out: list[z3.BoolRef] = []
        if self.assumptions:
            assumed = to_z3(self.assumptions, self.args.get)
            if not z3.is_true(assumed):  # every comparison left out (sizes, elements): nothing to assume here
                out.append(assumed)
        seen: set[int] = set()
        todo = [pair for t in terms for pair in self.n_apps(t)]
        while todo:
            loop, app = todo.pop()
            if app.get_id() in seen:
                continue
            seen.add(app.get_id())
            new: list[z3.BoolRef] = [app >= 0]
            if loop.trips is not None:
                new.append(app == loop.trips)
            if loop.first_cond is not None:
                new.append((app >= 1) == self._instance(loop, app, loop.first_cond))
            if loop.captures:  # a token captured at one iteration: the index there and at N (conditions.py)
                new.extend(self._instance(loop, app, f) for f in capture_facts(loop))
            if exact:
                closed = self._closed_form(loop)
                if closed is not None:
                    new.append(self._instance(loop, app, closed(loop.n)))
            for f in new:
                todo.extend(self.n_apps(f))
            out.extend(new)
        return out

    @staticmethod
    def _closed_form(loop: Loop) -> Optional[Callable[[z3.ArithRef], z3.BoolRef]]:
        if loop.kind != "for" or loop.step_op != "+=" or loop.start is None or loop.step is None:
            return None
        step = z3.simplify(loop.step)
        if not z3.is_bv_value(step) or not (0 < step.as_signed_long() < 1 << 20):
            return None
        s = step.as_signed_long()
        lo = z3.BV2Int(loop.start, is_signed=True)
        hi = z3.BV2Int(loop.bound, is_signed=True)
        cond = loop.cont_cond
        if cond == "<" or cond is None:
            return lambda n: n == z3.If(lo < hi, (hi - lo + s - 1) / s, 0)
        if cond == "<=":
            return lambda n: n == z3.If(lo <= hi, (hi - lo) / s + 1, 0)
        if cond == "!=" and s == 1:
            return lambda n: z3.And(lo <= hi, n == hi - lo)
        return None

    @staticmethod
    def domain(levels: Sequence[Loop]) -> list[z3.BoolRef]:
        """Coordinates within their loops, ``0 <= j_L <= N_L``, and what position j means for the loop's own
        condition: it holds at every j < N and fails at j = N (this ties N to the loop's data)."""
        out: list[z3.BoolRef] = []
        for lp in levels:
            out += [lp.j >= 0, lp.j <= lp.n]
            out += Logic.position_facts(lp)
        return out

    @staticmethod
    def position_facts(lp: Loop, concrete: bool = False) -> list[z3.BoolRef]:
        out = list(lp.facts)
        if lp.holds is not None:
            out += [z3.Implies(lp.j < lp.n, lp.holds), z3.Implies(lp.j == lp.n, z3.Not(lp.holds))]
        if concrete and lp.exact is not None:
            out.append(lp.exact)
        return out


class _Witnesses:
    """Logic's counterexamples: the smallest trip counts under which clocks count differently, with the token
    positions that differ (a mixin)."""

    def _leaves(self, clock: Clock, bound: int) -> Optional[list[tuple[tuple[int, ...], z3.BoolRef]]]:
        """Every coordinate tuple of ``clock``'s nest up to ``bound`` with the condition that it is a token."""
        ranges = []
        for lp in clock.levels:
            ranges.append(range(0, (lp.trips if lp.trips is not None else bound) + 1))
        total = 1
        for r in ranges:
            total *= len(r)
        if total > WITNESS_MAX_LEAVES:
            return None
        js = [lp.j for lp in clock.levels]
        f = clock.formula()
        facts = [Logic.position_facts(lp, concrete=True) for lp in clock.levels]
        out = []
        for coords in itertools.product(*ranges):
            vals = [z3.IntVal(v) for v in coords]
            dom = [z3.IntVal(v) <= lp.n_at(vals[:i]) for i, (v, lp) in enumerate(zip(coords, clock.levels))]
            cond = z3.substitute(f, *zip(js, vals)) if js else f
            for i, fs in enumerate(facts):
                pre = list(zip(js[: i + 1], vals[: i + 1]))
                self._facts.extend(z3.simplify(z3.substitute(x, *pre)) for x in fs)
            out.append((coords, z3.And(*dom, cond)))
        return out

    def count_witness(self, clocks: Sequence[Clock], bound_max: int = WITNESS_MAX_TRIPS) -> Optional[Witness]:
        """Smallest trip counts (and matching branch outcomes) under which not all ``clocks`` have the same
        number of tokens in one run; None if there is none up to ``bound_max`` iterations per loop."""
        if any(isinstance(c, AnyClock) for c in clocks):
            return None
        for bound in range(0, bound_max + 1):
            self._facts = []
            leaves = [self._leaves(c, bound) for c in clocks]
            if any(lv is None for lv in leaves):
                return None
            totals = [z3.Sum([z3.If(f, 1, 0) for _, f in lv]) if lv else z3.IntVal(0) for lv in leaves]
            formulas = [f for lv in leaves for _, f in lv] + self._facts
            axioms = self.axioms(formulas)
            apps = [(lp, a, self._live(lp, a)) for lp, a in {a.get_id(): (lp, a) for f in formulas + axioms
                                                              for lp, a in self.n_apps(f)}.values()]
            limits = [z3.Implies(live, app <= bound) for lp, app, live in apps if lp.trips is None]
            s = self.solver()
            # the streams' index facts at the enumerated positions tie trip counts to argument values, so
            # the reported arguments really give the reported trip counts
            s.add(*axioms, *limits, *self._facts)
            s.add(z3.Or(*[totals[0] != t for t in totals[1:]]))
            self.queries += 1
            if s.check() != z3.sat:
                continue
            m = s.model()
            small = [z3.And(c >= 0, c <= 2 * bound + 2) for c in self.args.values() if z3.is_bv(c)]
            if small:  # prefer small non-negative argument values: easier to reproduce
                s.push()
                s.add(*small)
                if s.check() == z3.sat:
                    m = s.model()
                s.pop()
            w = Witness(m, bound, [m.eval(t, model_completion=True).as_long() for t in totals])
            w.trips = self._trips(m, apps)
            used = frozenset().union(*(self.free(f) for f in formulas + axioms))
            w.args = {name: _py(m.eval(c, model_completion=True)) for name, c in self.args.items()
                      if c.decl().name() in used}
            for c, lv in zip(clocks, leaves):
                w.tokens.append([_coords_label(c.levels, co) for co, f in lv
                                 if z3.is_true(m.eval(f, model_completion=True))])
            return w
        return None

    @staticmethod
    def _live(lp: Loop, app: z3.ArithRef) -> z3.BoolRef:
        """The activation of ``lp`` that ``app`` (N at some outer coordinates) counts exists."""
        args = app.children()
        outer = lp.activation.levels
        if not outer:
            return lp.activation.formula()
        live = [args[i] <= ol.n_at(args[:i]) for i, ol in enumerate(outer)]
        act = z3.substitute(lp.activation.formula(), *zip([ol.j for ol in outer], args))
        return z3.And(*live, act)

    def _trips(self, m: z3.ModelRef, apps: Sequence[tuple[Loop, z3.ArithRef, z3.BoolRef]]) -> dict[str, int]:
        """Trip count of every loop activation that exists in model ``m``."""
        out: dict[tuple, int] = {}
        for lp, app, live in apps:
            if not z3.is_true(m.eval(live, model_completion=True)):
                continue
            coords = tuple(m.eval(x, model_completion=True).as_long() for x in app.children())
            out[(lp.index, coords)] = m.eval(app, model_completion=True).as_long()
        by_index = {lp.index: lp for lp in self.loops.values()}
        res: dict[str, int] = {}
        for (idx, coords), n in sorted(out.items()):
            lp = by_index[idx]
            res[lp.name + ("@" + _coords_label(lp.activation.levels, coords) if coords else "")] = n
        return res


class Logic(_Axioms, _Witnesses):
    """Trip-count axioms and the queries of one function's length analysis (the axioms and the witnesses in
    the mixins above)."""

    def __init__(self, timeout: "Optional[float] | Callable[[], Optional[float]]", assumptions: tuple = (),
                 rlimit: Optional[int] = DEFAULT_RLIMIT) -> None:
        self.assumptions = assumptions  # legal inputs (``--assume``, ``loom.range``): a fact of every query
        # seconds per query, or a function giving them at each query (what is left of a budget); a
        # positive limit under 1 ms is 1 ms, never "no limit"
        self._limit = timeout if callable(timeout) else (lambda: timeout)
        self.rlimit = rlimit  # Z3 resource units per query (deterministic; always in force)
        self.loops: dict[str, Loop] = {}  # N decl name -> loop
        self.args: dict[str, z3.ExprRef] = {}  # argument name -> its constant
        self.free = FreeVars()  # shared with the typer: constants and N applications per term
        self.queries = 0
        self._facts: list[z3.BoolRef] = []

    def add_loop(self, loop: Loop) -> None:
        self.loops[loop.n_decl.name()] = loop

    def limit(self) -> Optional[float]:
        """Seconds the next query may take (None: no limit)."""
        return self._limit()

    # ------------------------------------------------------------------ queries
    def solver(self) -> z3.Solver:
        """A new solver bounded by ``rlimit`` resource units per check, and by the time limit when one is set."""
        limit = self._limit()
        if limit is not None and limit < 0.001:  # less than 1 ms is no time at all: every check is unknown
            return _NoTime()
        s = z3.Solver()
        s.set("rlimit", rlimit_param(self.rlimit))
        if limit is not None:
            s.set("timeout", milliseconds(limit))
        return s

    def why_unknown(self, s: z3.Solver) -> str:
        """Why a check of ``s`` (from ``solver``) answered unknown: the limit that ran out, in words."""
        return unknown_reason(s.reason_unknown(), self._limit(), self.rlimit)

    def equality_query(self, a: Clock, b: Clock) -> list[z3.BoolRef]:
        """Assertions satisfiable iff some coordinate lies in exactly one of ``a`` and ``b`` (same levels, or
        one of them empty: the empty clock has no levels and stands for "no token at any coordinate")."""
        if a.is_empty != b.is_empty and a.levels != b.levels:
            other = b if a.is_empty else a
            body = self.domain(other.levels) + [other.formula()]
            return self.axioms(body) + body
        violation = z3.Xor(a.formula(), b.formula())
        body = self.domain(a.levels) + [violation]
        return self.axioms(body) + body

    def equal(self, a: "Clock | AnyClock", b: "Clock | AnyClock") -> Outcome:
        """Prove ``a`` and ``b`` carry tokens for the same coordinates, or find a count witness."""
        if isinstance(a, AnyClock) or isinstance(b, AnyClock) or a.key == b.key:
            return Outcome("proved", "identical clocks")
        reason = "the two streams have different loop nests"
        if a.is_empty != b.is_empty and a.levels != b.levels:
            # the empty clock has no levels: "never a token" is one query over the other clock's nest
            proved, reason = self._ask_equal(a, b, "a stream that should be empty may carry tokens")
            if proved:
                return Outcome("proved", "never carries a token, for all trip counts (z3)")
        elif a.levels == b.levels:
            proved, reason = self._ask_equal(a, b, "the two streams cover different iterations")
            if proved:
                return Outcome("proved", "equal for all trip counts (z3)")
        w = self.count_witness([a, b])
        if w is not None:
            return Outcome("refuted", "token counts differ", w)
        return Outcome("unknown", reason + "; no token-count difference found up to "
                       f"{WITNESS_MAX_TRIPS} iterations per loop (misaligned but balanced?)")

    def _ask_equal(self, a: "Clock", b: "Clock", differ: str) -> tuple[bool, str]:
        """One z3 query of ``equality_query(a, b)``: (True, "") when it is unsat, else (False, why not: z3's
        reason for giving up, or ``differ`` when a model exists)."""
        s = self.solver()
        s.add(*self.equality_query(a, b))
        self.queries += 1
        r = s.check()
        if r == z3.unsat:
            return True, ""
        return False, (f"z3 gave up ({self.why_unknown(s)})" if r == z3.unknown else differ)

def _coords_label(levels: Sequence[Loop], coords: Sequence[int]) -> str:
    if not levels:
        return "run"
    return ",".join(f"{lp.name}={c}" for lp, c in zip(levels, coords))


def _py(v: z3.ExprRef) -> object:
    if z3.is_bv_value(v):
        return v.as_signed_long()
    if z3.is_true(v):
        return True
    if z3.is_false(v):
        return False
    if z3.is_int_value(v):
        return v.as_long()
    return str(v)


__all__ = ["ANY", "Logic", "Outcome", "Witness", "WITNESS_MAX_TRIPS"]
