"""One place that runs Z3 on a query: preprocessing, per-query timeout, and the SMT-LIB2 text.

Every obligation that is a single SMT query goes through ``run_query``: the
query's assertions are printed by loom's canonical printer (``smtlib.script``) --
that text is the obligation's self-contained SMT-LIB2 script -- and then solved
with a tactic pipeline (simplify, propagate values, solve equations, then the
default SMT core). The preprocessing only performs equisatisfiable rewrites, so
``unsat`` from the pipeline is ``unsat`` of the printed script; it makes the
bit-vector queries of the lemmas (whose states are enum datatypes, which
disables Z3's QF_BV preprocessing by default) fast.

Limits: every solver check is bounded by Z3's ``rlimit``, a count of the solver's own work that is the
same on every machine and under any load (``DEFAULT_RLIMIT`` units per check unless ``--rlimit`` says
otherwise); a wall-clock ``timeout`` is added only when the user asked for one (``--timeout`` or
``--budget``). Z3 counts a check's units from where the check starts (its counter is cumulative per
context, the limit is not), so one limit per check holds on a fresh solver and on a reused one alike.
A check that runs out of either limit is ``unknown``, never ``unsat``; ``unknown_reason`` names the limit.
"""

from __future__ import annotations

import time
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Sequence

import z3
from z3.z3 import _to_expr_ref  # the typed wrapper (BoolRef, BitVecRef, ...) of a raw AST

from loom.verify import smtlib
from loom.verify.obligation import DEFAULT_RLIMIT, RLIMIT_MAX


@dataclass
class QueryResult:
    """``status`` is ``unsat``, ``sat`` or ``unknown``; ``model`` is set for ``sat``."""

    status: str
    seconds: float
    smt2: str
    model: Optional[z3.ModelRef] = None
    reason: str = ""
    trivial: bool = False  # Z3's simplifier alone reduced the query to false: a rule decided it, not a solver
    rlimit_used: int = 0  # the resource units the solver's check spent (0 when no solver ran)

    @property
    def method(self) -> str:
        """``smt`` for a real solver query; ``typing rule`` when the query was false by construction."""
        return "typing rule" if self.trivial else "smt"


Z3_MAX_MS = 2**32 - 1  # Z3's timeout parameter is an unsigned 32-bit count of milliseconds
# Z3's reasons for an unknown caused by the resource limit (a tactic pipeline says "canceled"; a check
# cut by a wall-clock timeout says "timeout", also when an rlimit is set)
_RLIMIT_REASONS = ("max. resource limit exceeded", "canceled")


def milliseconds(seconds: float) -> int:
    """A time limit as Z3's ``timeout`` parameter: at least 1 ms (0 would mean "no limit"), at most what the
    parameter holds (a larger value would wrap around)."""
    if not seconds < Z3_MAX_MS / 1000:  # also inf; nan is refused by VerifyContext and the CLI
        return Z3_MAX_MS
    return min(Z3_MAX_MS, max(1, int(seconds * 1000)))


def rlimit_param(rlimit: Optional[int]) -> int:
    """A resource limit as Z3's ``rlimit`` parameter (0: none), at most what the parameter holds."""
    return 0 if not rlimit else min(int(rlimit), RLIMIT_MAX)


def set_limits(solver: "z3.Solver | z3.Fixedpoint", seconds: Optional[float], rlimit: Optional[int]) -> None:
    """Bound every later check of ``solver``: at most ``rlimit`` resource units per check (None or 0: no
    limit) and, when ``seconds`` is given, a wall-clock timeout (None: none, also clearing one set before)."""
    solver.set("rlimit", rlimit_param(rlimit))
    solver.set("timeout", Z3_MAX_MS if seconds is None else milliseconds(seconds))


def unknown_reason(reason: str, seconds: Optional[float], rlimit: Optional[int]) -> str:
    """Z3's ``reason_unknown`` in words that name the limit that ran out: ``timeout after S s`` (a
    wall-clock limit, only ever set by --timeout or --budget), ``the resource limit of N rlimit units ran
    out`` (deterministic), or Z3's own reason (e.g. an incomplete theory)."""
    if reason == "timeout" or (seconds is not None and seconds < 0.001):
        return timeout_reason(seconds)
    if rlimit and reason in _RLIMIT_REASONS:
        return rlimit_reason(rlimit)
    return reason or "unknown"


def timeout_reason(seconds: Optional[float]) -> str:
    """A wall-clock limit that ran out, in words (less than 1 ms is no time at all)."""
    if seconds is None or seconds < 0.001:
        return "timeout: no time left"
    return f"timeout after {seconds:.3g} s"


def rlimit_reason(rlimit: int) -> str:
    """The deterministic resource limit that ran out, in words."""
    return f"the resource limit of {rlimit_param(rlimit)} rlimit units ran out"


def is_limit_reason(reason: str) -> bool:
    """Does ``reason`` (from ``unknown_reason``) say that a limit ran out, rather than an incomplete theory?"""
    return reason.startswith("timeout") or reason.startswith("the resource limit of")


def _pipeline() -> z3.Solver:
    return z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify", "smt").solver()


def to_smt2(assertions: Sequence[z3.BoolRef]) -> str:
    """The canonical SMT-LIB2 script of a conjunction of assertions (loom's own printer, see ``smtlib``)."""
    return smtlib.script(assertions)


def settled_by_simplifier(script: str) -> bool:
    """Does Z3's simplifier alone reduce the printed script to false? Then it is no query to archive.

    The script is parsed in a context of its own (its datatype declarations must not meet the prover's),
    and its ``define-fun`` sharing is expanded, which can let the simplifier see what it could not on the
    terms as loom built them.
    """
    ctx = z3.Context()
    try:
        parsed = z3.parse_smt2_string(script, ctx=ctx)
    except z3.Z3Exception:
        return False
    return z3.is_false(z3.simplify(z3.And(*parsed) if len(parsed) else z3.BoolVal(True, ctx)))


def run_query(
    assertions: Sequence[z3.BoolRef],
    timeout: Optional[float] = None,
    want_model: bool = True,
    preprocess: bool = True,
    want_smt2: bool = True,
    rlimit: Optional[int] = DEFAULT_RLIMIT,
) -> QueryResult:
    """Solve the conjunction of ``assertions`` within ``timeout`` seconds (None: no wall-clock limit) and
    ``rlimit`` Z3 resource units (None or 0: none).

    ``want_smt2`` False skips printing the SMT-LIB2 script (``smt2`` is then "").

    A limit that runs out or an incomplete answer is ``unknown`` (``reason`` names the limit), never ``unsat``.
    """
    t0 = time.perf_counter()
    if timeout is not None and timeout < 0.001:  # Z3 counts in milliseconds: less than 1 ms is no time at all
        return QueryResult("unknown", 0.0, to_smt2(assertions) if want_smt2 else "", reason=timeout_reason(timeout))
    if z3.is_false(z3.simplify(conjunction(assertions))):  # no script: nothing for a solver to check
        return QueryResult("unsat", time.perf_counter() - t0, "", trivial=True)
    text = to_smt2(assertions) if want_smt2 else ""
    if text and settled_by_simplifier(text):
        return QueryResult("unsat", time.perf_counter() - t0, "", trivial=True)
    solver = _pipeline() if preprocess else z3.Solver()
    set_limits(solver, timeout, rlimit)
    solver.add(*assertions)
    try:
        r = solver.check()
    except z3.Z3Exception as e:  # e.g. canceled
        return QueryResult("unknown", time.perf_counter() - t0, text, reason=unknown_reason(str(e), timeout, rlimit))
    seconds = time.perf_counter() - t0
    used = _rlimit_used(solver)
    if r == z3.unsat:
        return QueryResult("unsat", seconds, text, rlimit_used=used)
    if r == z3.sat:
        model = None
        if want_model:
            model = _model_of(assertions, solver, timeout)
        return QueryResult("sat", seconds, text, model, rlimit_used=used)
    return QueryResult("unknown", seconds, text, reason=unknown_reason(solver.reason_unknown(), timeout, rlimit),
                       rlimit_used=used)


def _rlimit_used(solver: z3.Solver) -> int:
    """The resource units ``solver``'s last check spent (its own count, not the process's)."""
    stats = solver.statistics()
    return int(stats.get_key_value("rlimit count")) if "rlimit count" in stats.keys() else 0


class QuerySession:
    """Many small queries on one plain solver (push/pop): far cheaper than a new solver per query.

    Each ``check`` is still one self-contained query (its own SMT-LIB2 text, its own
    limits: ``rlimit`` resource units, and a timeout when one is given); a query that Z3's simplifier
    already reduces to false is unsat without a solver call.
    """

    def __init__(self, timeout: "Optional[float] | Callable[[], Optional[float]]", want_smt2: bool = True,
                 base: Sequence[z3.BoolRef] = (), rlimit: Optional[int] = DEFAULT_RLIMIT) -> None:
        # seconds per query, or a function giving them at each query (what is left of a budget)
        self._limit = timeout if callable(timeout) else (lambda: timeout)
        self.want_smt2 = want_smt2
        self.base = [b for b in base if not z3.is_true(b)]  # facts every query assumes (input assumptions)
        self.rlimit = rlimit
        self.solver = z3.Solver()
        self.solver.set("rlimit", rlimit_param(rlimit))

    @property
    def timeout(self) -> Optional[float]:
        """Seconds the next query may take (None: no limit)."""
        return self._limit()

    def check(self, assertions: Sequence[z3.BoolRef]) -> QueryResult:
        t0 = time.perf_counter()
        assertions = [*self.base, *assertions]
        limit = self.timeout
        if limit is not None and limit < 0.001:
            return QueryResult("unknown", 0.0, to_smt2(assertions) if self.want_smt2 else "",
                               reason=timeout_reason(limit))
        simplified = z3.simplify(conjunction(assertions))  # no per-argument coercion: it dominated big runs
        if z3.is_false(simplified):  # false by construction: no script (nothing for a solver to check)
            return QueryResult("unsat", time.perf_counter() - t0, "", trivial=True)
        text = to_smt2(assertions) if self.want_smt2 else ""
        if text and settled_by_simplifier(text):
            return QueryResult("unsat", time.perf_counter() - t0, "", trivial=True)
        s = self.solver
        s.push()
        try:
            if limit is not None:
                s.set("timeout", milliseconds(limit))
            s.add(simplified)
            r = s.check()
            if r == z3.unsat:
                return QueryResult("unsat", time.perf_counter() - t0, text)
            if r == z3.sat:
                return QueryResult("sat", time.perf_counter() - t0, text, s.model())
            return QueryResult(
                "unknown", time.perf_counter() - t0, text, reason=unknown_reason(s.reason_unknown(), limit, self.rlimit)
            )
        except z3.Z3Exception as e:
            return QueryResult("unknown", time.perf_counter() - t0, text,
                               reason=unknown_reason(str(e), limit, self.rlimit))
        finally:
            s.pop()


class ScopedChecks:
    """Unsat checks of many small queries on one plain solver, each inside its own push/pop scope.

    A new solver's first check pays Z3's set-up of its SMT core (about 0.7 ms, more than the whole check of a
    small operator table's lemma), so one solver serves every check of a run. Each check adds its query in a
    fresh scope and removes it after, so no query sees another's assertions: the answer is the query's own.
    ``assume`` holds a fact for the checks made within it (e.g. an induction invariant shared by a table's
    per-rule steps).
    """

    def __init__(self) -> None:
        self._solver: Optional[z3.Solver] = None
        self._limited = False  # a timeout is set on the solver (it persists until reset)
        self._rlimit: Optional[int] = None  # the resource limit set on the solver (it persists until reset)

    @property
    def solver(self) -> z3.Solver:
        """The solver, made at the first check (so making it counts in that check's time) -- and again when
        z3py's default context changed (a new verification unit, ``loom.verify.isolation``): a solver serves
        only the terms of its own context."""
        if self._solver is None or self._solver.ctx is not z3.main_ctx():
            self._limited, self._rlimit = False, None  # the new solver has no limits set yet
            s = z3.Solver()
            # small quantifier-free checks: Z3's simplex-based arithmetic and no relevancy filtering decide
            # them ~15% faster than the defaults (any configuration's unsat is a proof)
            s.set("smt.arith.solver", 2)
            s.set("smt.relevancy", 0)
            self._solver = s
        return self._solver

    def _set_limit(self, seconds: Optional[float], rlimit: Optional[int]) -> None:
        solver = self.solver  # first: a new solver forgets the limits set on the one before
        if seconds is not None:
            solver.set("timeout", milliseconds(seconds))
            self._limited = True
        elif self._limited:
            solver.set("timeout", Z3_MAX_MS)
            self._limited = False
        if rlimit_param(rlimit) != self._rlimit:  # set once per value: a parameter update is not free
            self._rlimit = rlimit_param(rlimit)
            solver.set("rlimit", self._rlimit)

    def unsat(self, query: z3.BoolRef, timeout: Optional[float], rlimit: Optional[int] = DEFAULT_RLIMIT) -> bool:
        """Is ``query`` (with the facts assumed) unsat within ``timeout`` seconds and ``rlimit`` resource units?
        False for sat, unknown, a limit that ran out or an error: "not shown", never a verdict on its own."""
        if timeout is not None and timeout < 0.001:  # Z3 counts milliseconds: no time at all
            return False
        self._set_limit(timeout, rlimit)
        # the C API directly: z3py's push/add/check/pop wrappers cost more than a small check itself
        ctx, s = self.solver.ctx.ref(), self.solver.solver
        z3.Z3_solver_push(ctx, s)
        try:
            z3.Z3_solver_assert(ctx, s, query.as_ast())
            return z3.Z3_solver_check(ctx, s) == z3.Z3_L_FALSE
        except z3.Z3Exception:  # e.g. canceled
            return False
        finally:
            z3.Z3_solver_pop(ctx, s, 1)

    @contextmanager
    def assume(self, fact: z3.BoolRef) -> Iterator[None]:
        """``fact`` holds for the checks made inside the ``with`` block (removed on leaving it)."""
        ctx, s = self.solver.ctx.ref(), self.solver.solver
        z3.Z3_solver_push(ctx, s)
        try:
            z3.Z3_solver_assert(ctx, s, fact.as_ast())
            yield
        finally:
            z3.Z3_solver_pop(ctx, s, 1)


def script_of(assertions: Sequence[z3.BoolRef]) -> str:
    """The SMT-LIB2 script ``run_query`` archives for ``assertions``: "" when Z3's simplifier alone settles
    the query (no real query to archive), its canonical text otherwise."""
    if z3.is_false(z3.simplify(conjunction(assertions))):
        return ""
    text = to_smt2(assertions)
    return "" if settled_by_simplifier(text) else text


def _model_of(
    assertions: Sequence[z3.BoolRef], solver: z3.Solver, timeout: Optional[float]
) -> Optional[z3.ModelRef]:
    """The satisfying model (Z3's model converters restore variables the preprocessing eliminated)."""
    try:
        return solver.model()
    except z3.Z3Exception:
        return None


def _nary(mk, slow, parts: Sequence) -> z3.BoolRef:
    if not parts or not all(isinstance(p, z3.BoolRef) for p in parts):
        return slow(*parts)
    ctx = parts[0].ctx
    if any(p.ctx is not ctx for p in parts):
        return slow(*parts)
    arr = (z3.Ast * len(parts))(*[p.as_ast() for p in parts])
    return z3.BoolRef(mk(ctx.ref(), len(parts), arr), ctx)


def conjunction(parts: Sequence) -> z3.BoolRef:
    """``z3.And(*parts)`` -- the same term -- without its per-argument coercion (Z3 terms only; anything
    else goes through ``z3.And``). Wide tables and thousands of access pairs build many of these."""
    return _nary(z3.Z3_mk_and, z3.And, parts)


def disjunction(parts: Sequence) -> z3.BoolRef:
    """``z3.Or(*parts)``, the same term, built as cheaply as ``conjunction``."""
    return _nary(z3.Z3_mk_or, z3.Or, parts)


def substitute_all(terms: Sequence[z3.ExprRef], pairs: Sequence[tuple[z3.ExprRef, z3.ExprRef]]) -> list[z3.ExprRef]:
    """``z3.substitute(t, *pairs)`` for each term, through the C API: one pair array for all terms and no
    per-pair sort check of the Python wrapper (callers build sort-correct pairs; hundreds per call)."""
    if not pairs or not terms:
        return list(terms)
    ctx = terms[0].ctx
    n = len(pairs)
    src = (z3.Ast * n)(*[a.as_ast() for a, _ in pairs])
    dst = (z3.Ast * n)(*[b.as_ast() for _, b in pairs])
    return [_to_expr_ref(z3.Z3_substitute(ctx.ref(), t.as_ast(), n, src, dst), ctx) for t in terms]


# Cheap builders of the terms the lemma proofs make by the thousand. Each gives exactly the term of its z3py
# spelling (Z3 shares equal terms), without z3py's per-operand coercion and sort checks, which create several
# short-lived wrappers per operation: callers pass Z3 terms of matching sorts.


_TERM_CLASS = {
    z3.Z3_BOOL_SORT: z3.BoolRef,
    z3.Z3_INT_SORT: z3.ArithRef,
    z3.Z3_BV_SORT: z3.BitVecRef,
    z3.Z3_DATATYPE_SORT: z3.DatatypeRef,
}


def constant(name: str, sort: z3.SortRef) -> z3.ExprRef:
    """``z3.Const(name, sort)``."""
    ctx = sort.ctx
    ast = z3.Z3_mk_const(ctx.ref(), z3.Z3_mk_string_symbol(ctx.ref(), name), sort.ast)
    cls = _TERM_CLASS.get(sort.kind())
    return cls(ast, ctx) if cls is not None else _to_expr_ref(ast, ctx)


def equal(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    """``a == b`` for two terms of one sort."""
    return z3.BoolRef(z3.Z3_mk_eq(a.ctx_ref(), a.as_ast(), b.as_ast()), a.ctx)


def negation(a: z3.BoolRef) -> z3.BoolRef:
    """``z3.Not(a)``."""
    return z3.BoolRef(z3.Z3_mk_not(a.ctx_ref(), a.as_ast()), a.ctx)


def ite(c: z3.BoolRef, a: z3.ExprRef, b: z3.ExprRef) -> z3.ExprRef:
    """``z3.If(c, a, b)`` for ``a`` and ``b`` of one sort."""
    ast = z3.Z3_mk_ite(c.ctx_ref(), c.as_ast(), a.as_ast(), b.as_ast())
    return z3.BoolRef(ast, c.ctx) if isinstance(a, z3.BoolRef) else _to_expr_ref(ast, c.ctx)


def plus(a: z3.ArithRef, b: z3.ArithRef) -> z3.ArithRef:
    """``a + b`` for two integer (or real) terms."""
    arr = (z3.Ast * 2)(a.as_ast(), b.as_ast())
    return z3.ArithRef(z3.Z3_mk_add(a.ctx_ref(), 2, arr), a.ctx)
