"""Clocks of the stream-length calculus: the loop iterations a channel carries one token for.

A token is identified by its *coordinates*: the iteration number ``j_L`` of
every enclosing loop ``L`` (outermost first). Loop ``L`` runs ``N_L`` times per
activation, ``N_L`` an uninterpreted function of the outer coordinates, so its
raw streams have positions ``0 <= j_L <= N_L`` (N+1 tokens) and its body
positions ``j_L < N_L`` (N tokens). A ``Clock`` is a set of coordinate tuples:
the loop nest (``levels``) plus a conjunction of Z3 conditions (``conds``),
e.g. ``j_L0 < N_L0`` (body), a data-dependent branch condition, or a guard.
Tokens on a channel come in lexicographic order of their coordinates, so the
clock determines the channel's whole token sequence per run.
"""

from __future__ import annotations

from typing import Iterable, Optional, Sequence

import z3
from z3 import z3core

from loom.ir.core import Operation


class Loop:
    """One loop of the DFG: a dataflow.stream (``for``) or a while frame opened by a carry/invariant."""

    def __init__(self, index: int, kind: str, op: Operation, activation: "Clock", step_op: str = "",
                 cont_cond: Optional[str] = None) -> None:
        self.index = index
        self.name = f"L{index}"
        self.kind = kind
        self.op = op
        self.activation = activation
        self.step_op = step_op
        self.cont_cond = cont_cond
        self.j_name = f"j_{self.name}"
        self.j = z3.Int(self.j_name)
        outer = activation.levels
        self.outer_js = tuple(lp.j for lp in outer)
        if outer:
            self.n_decl = z3.Function(f"N_{self.name}", *([z3.IntSort()] * len(outer)), z3.IntSort())
            self.n: z3.ArithRef = self.n_decl(*self.outer_js)
        else:
            self.n = z3.Int(f"N_{self.name}")
            self.n_decl = self.n.decl()
        self.cont = self.j < self.n  # value of the raw condition at position j (N trues then a false)
        self.after = self.j < self.n - 1  # value of the gate's after_cond at body position j
        self.not_cont = z3.Not(self.cont)
        self.not_after = z3.Not(self.after)
        self.first_cond: Optional[z3.BoolRef] = None  # over the outer coordinates: holds iff N >= 1
        self.trips: Optional[int] = None  # constant trip count, when the stream's operands are constants
        self.start: Optional[z3.ExprRef] = None  # stream operands (for exact trip counts in witnesses)
        self.step: Optional[z3.ExprRef] = None
        self.bound: Optional[z3.ExprRef] = None
        self.index_term: Optional[z3.ExprRef] = None  # the stream's idx at position j
        self.holds: Optional[z3.BoolRef] = None  # the loop's continue condition at position j (true iff j < N)
        self.facts: list[z3.BoolRef] = []  # further facts about the loop's values at position j
        self.exact: Optional[z3.BoolRef] = None  # exact idx at position j (used at concrete positions only)
        self.captures: list[z3.ArithRef] = []  # positions of tokens captured at one iteration (conditions.py)

    def n_at(self, args: Sequence[z3.ArithRef]) -> z3.ArithRef:
        """``N`` of this loop for the activation at outer coordinates ``args``."""
        return self.n_decl(*args) if self.outer_js else self.n

    def __repr__(self) -> str:
        return f"<Loop {self.name} {self.kind}>"


# hash-consed: every BoolVal(True) has this id, in every context (Z3 makes true and false first); the terms
# themselves are made per use, in z3py's default context (a verification unit's own: loom.verify.isolation)
_TRUE_ID, _FALSE_ID = (lambda c: (z3.BoolVal(True, c).get_id(), z3.BoolVal(False, c).get_id()))(z3.Context())


def _flatten(conds: Iterable[z3.BoolRef]) -> list[z3.BoolRef]:
    out: list[z3.BoolRef] = []
    for c in conds:
        if z3.is_and(c):
            out.extend(_flatten(c.children()))
        else:
            out.append(c)
    return out


class Clock:
    """A set of coordinate tuples: ``levels`` (enclosing loops, outermost first) and ``conds`` (a conjunction).

    ``conds`` are kept flat (no ``And``), without ``True``, deduplicated and sorted by AST id, so two clocks
    built the same way have the same ``key``; an empty clock is always ``levels=(), conds=(False,)``.
    """

    __slots__ = ("levels", "_conds", "key")

    def __init__(self, levels: tuple[Loop, ...], conds: Iterable[z3.BoolRef] = (), flat: bool = False) -> None:
        kept: dict[int, z3.BoolRef] = {}
        empty = False
        for c in (conds if flat else _flatten(conds)):
            cid = c.get_id()
            if cid == _TRUE_ID:
                continue
            if cid == _FALSE_ID:
                empty = True
                break
            kept.setdefault(cid, c)
        self.levels = () if empty else levels  # one canonical empty clock
        self._conds: tuple[z3.BoolRef, ...] = () if empty else tuple(kept[k] for k in sorted(kept))
        self.key = (tuple(lp.index for lp in self.levels), tuple(sorted(kept)) if not empty else (_FALSE_ID,))

    def with_conds(self, more: Iterable[z3.BoolRef]) -> "Clock":
        """This clock restricted by further conditions (only the new ones are flattened)."""
        return Clock(self.levels, list(self.conds) + _flatten(more), flat=True)

    @property
    def conds(self) -> tuple[z3.BoolRef, ...]:
        """The conjuncts (``(False,)`` for the empty clock)."""
        return (z3.BoolVal(False),) if self.is_empty else self._conds

    @property
    def is_empty(self) -> bool:
        return self.key[1] == (_FALSE_ID,)

    @property
    def inner(self) -> Optional[Loop]:
        return self.levels[-1] if self.levels else None

    def formula(self) -> z3.BoolRef:
        return z3.And(*self.conds) if self.conds else z3.BoolVal(True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Clock) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __repr__(self) -> str:
        return f"<Clock [{', '.join(lp.name for lp in self.levels)}] {list(map(str, self.conds))}>"


class AnyClock:
    """The clock of an always-ready source (``ub.poison``, operand-less constants): matches any consumer."""

    levels: tuple[Loop, ...] = ()
    conds: tuple[z3.BoolRef, ...] = ()
    key = ("any",)
    is_empty = False
    inner = None

    def __repr__(self) -> str:
        return "<Clock any>"


ANY = AnyClock()
ONE = Clock(())
EMPTY = Clock((), [z3.BoolVal(False, z3.Context())])  # its conds are made per use (``Clock.conds``)

AnyOrClock = "Clock | AnyClock"


class TermMap:
    """A dict keyed by Z3 terms. Z3 recycles the ids of dead terms, so each entry keeps its term alive."""

    __slots__ = ("_d",)

    def __init__(self) -> None:
        self._d: dict = {}

    def get(self, term: z3.ExprRef, default=None):
        hit = self._d.get(term.get_id())
        return default if hit is None else hit[1]

    def set(self, term: z3.ExprRef, value) -> None:
        self._d[term.get_id()] = (term, value)

    def setdefault(self, term: z3.ExprRef, value):
        hit = self._d.get(term.get_id())
        if hit is None:
            self._d[term.get_id()] = (term, value)
            return value
        return hit[1]

    def __contains__(self, term: z3.ExprRef) -> bool:
        return term.get_id() in self._d


class FreeVars:
    """Per AST node, memoised over one analysis: the names of the constants in it and its applications of
    trip-count functions (``N_<loop>``).

    Walks Z3's C API directly (the Python wrappers cost far more per node) and keeps every visited node
    alive, because Z3 recycles the ids of dead terms.
    """

    def __init__(self) -> None:
        self._memo: dict[int, tuple[z3.AstRef, frozenset[str], frozenset[int]]] = {}
        self.apps: dict[int, z3.ExprRef] = {}  # ast id -> N application

    def _walk(self, term: z3.ExprRef) -> tuple[frozenset[str], frozenset[int]]:
        ctx = term.ctx
        cref = ctx.ref()
        memo = self._memo
        root = term.as_ast()
        rid = z3core.Z3_get_ast_id(cref, root)
        hit = memo.get(rid)
        if hit is not None:
            return hit[1], hit[2]
        empty: frozenset = frozenset()
        stack: list[tuple[object, int, bool]] = [(root, rid, False)]
        while stack:
            a, aid, expanded = stack.pop()
            if aid in memo:
                continue
            if z3core.Z3_get_ast_kind(cref, a) != z3.Z3_APP_AST:
                memo[aid] = (z3.AstRef(a, ctx), empty, empty)
                continue
            n = z3core.Z3_get_app_num_args(cref, a)
            d = z3core.Z3_get_app_decl(cref, a)
            uninterpreted = z3core.Z3_get_decl_kind(cref, d) == z3.Z3_OP_UNINTERPRETED
            name = z3core.Z3_get_symbol_string(cref, z3core.Z3_get_decl_name(cref, d)) if uninterpreted else ""
            own = empty
            if name.startswith("N_L"):
                self.apps[aid] = z3.z3._to_expr_ref(a, ctx)
                own = frozenset([aid])
            if n == 0:
                memo[aid] = (z3.AstRef(a, ctx), frozenset([name]) if uninterpreted else empty, own)
                continue
            args = [z3core.Z3_get_app_arg(cref, a, i) for i in range(n)]
            ids = [z3core.Z3_get_ast_id(cref, x) for x in args]
            if expanded:
                names: frozenset[str] = empty
                apps: frozenset[int] = own
                for i in ids:
                    names = names | memo[i][1]
                    apps = apps | memo[i][2]
                memo[aid] = (z3.AstRef(a, ctx), names, apps)
                continue
            stack.append((a, aid, True))
            for x, i in zip(args, ids):
                if i not in memo:
                    stack.append((x, i, False))
        return memo[rid][1], memo[rid][2]

    def __call__(self, term: z3.ExprRef) -> frozenset[str]:
        """Names of the constants (and 0-ary functions) in ``term``."""
        return self._walk(term)[0]

    def n_apps(self, term: z3.ExprRef) -> list[z3.ExprRef]:
        """Every ``N_<loop>(...)`` application in ``term``."""
        return [self.apps[i] for i in self._walk(term)[1]]


def mentions(term: z3.ExprRef, loop: Loop, memo: "FreeVars") -> bool:
    """Whether ``loop``'s coordinate occurs in ``term``."""
    return loop.j_name in memo(term)


def raw_clock(loop: Loop) -> Clock:
    """Positions ``0..N`` of every activation of ``loop`` (the stream's idx/cont, carry outputs)."""
    return Clock(loop.activation.levels + (loop,), loop.activation.conds)


def split(clock: Clock, loop: Loop, memo: "FreeVars") -> tuple[list[z3.BoolRef], list[z3.BoolRef]]:
    """The conditions of ``clock`` that do not / do mention ``loop``'s coordinate."""
    outer, inner = [], []
    for c in clock.conds:
        (inner if mentions(c, loop, memo) else outer).append(c)
    return outer, inner


def when(clock: "Clock | AnyClock", cond: z3.BoolRef, memo: "FreeVars") -> tuple["Clock | AnyClock", Optional[tuple]]:
    """The sub-clock of ``clock`` where ``cond`` holds, with the innermost level projected away when
    ``cond`` pins it to one position per activation (a loop exit ``j = N`` or the last body
    iteration ``j = N-1``). Returns the clock and the substitution ``(j, t)`` applied, if any."""
    if isinstance(clock, AnyClock):
        return clock, None
    return project(clock.with_conds([cond]), memo)


def project(clock: Clock, memo: "FreeVars") -> tuple[Clock, Optional[tuple]]:
    """Drop the innermost level when the conditions fix its coordinate to a function of the outer ones."""
    loop = clock.inner
    if loop is None or clock.is_empty:
        return clock, None
    ids = {c.get_id() for c in clock.conds}
    if loop.not_cont.get_id() in ids:
        t: z3.ArithRef = loop.n
        extra: list[z3.BoolRef] = []
    elif loop.not_after.get_id() in ids and loop.cont.get_id() in ids:
        t = loop.n - 1
        extra = [loop.n >= 1]
    else:
        return clock, None
    conds: list[z3.BoolRef] = []
    for c in clock.conds:
        if mentions(c, loop, memo):
            c = z3.substitute(c, (loop.j, t))
            s = z3.simplify(c)
            if z3.is_true(s) or z3.is_false(s):
                c = s  # keep other conditions unsimplified: they must stay identical to value terms
        conds.append(c)
    return Clock(clock.levels[:-1], conds + extra), (loop.j, t)


def substitute(term: z3.ExprRef, subst: Optional[tuple]) -> z3.ExprRef:
    """Apply a projection's substitution to a value term."""
    if subst is None:
        return term
    return z3.substitute(term, subst)
