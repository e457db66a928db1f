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
        self.j = z3.Int(f"j_{self.name}")
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

    def n_at(self, args: Sequence[z3.ArithRef]) -> z3.ArithRef:
        """``N`` of this loop for the activation at outer coordinates ``args``."""
        return self.n_decl(*args) if self.outer_js else self.n

    def __repr__(self) -> str:
        return f"<Loop {self.name} {self.kind}>"


def _flatten(conds: Iterable[z3.BoolRef]) -> list[z3.BoolRef]:
    out: list[z3.BoolRef] = []
    for c in conds:
        if z3.is_and(c):
            out.extend(_flatten(c.children()))
        else:
            out.append(c)
    return out


class Clock:
    """A set of coordinate tuples: ``levels`` (enclosing loops, outermost first) and ``conds`` (a conjunction)."""

    __slots__ = ("levels", "conds", "key")

    def __init__(self, levels: tuple[Loop, ...], conds: Iterable[z3.BoolRef] = ()) -> None:
        kept: dict[int, z3.BoolRef] = {}
        empty = False
        for c in _flatten(conds):
            if z3.is_true(c):
                continue
            if z3.is_false(c):
                empty = True
                break
            kept.setdefault(c.get_id(), c)
        self.levels = () if empty else levels  # one canonical empty clock
        self.conds: tuple[z3.BoolRef, ...] = (z3.BoolVal(False),) if empty else tuple(
            kept[k] for k in sorted(kept))
        self.key = (tuple(lp.index for lp in levels), tuple(c.get_id() for c in self.conds))

    @property
    def is_empty(self) -> bool:
        return len(self.conds) == 1 and z3.is_false(self.conds[0])

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
EMPTY = Clock((), [z3.BoolVal(False)])

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


def mentions(term: z3.ExprRef, var: z3.ExprRef, memo: dict) -> bool:
    """Whether ``var`` (a constant) occurs in ``term``; ``memo`` caches by (term id, var id) and keeps
    both terms alive (Z3 recycles the ids of dead terms)."""
    key = (term.get_id(), var.get_id())
    hit = memo.get(key)
    if hit is not None:
        return hit[0]
    if z3.is_const(term):
        res = term.eq(var)
    else:
        res = any(mentions(ch, var, memo) for ch in term.children())
    memo[key] = (res, term, var)
    return res


def raw_clock(loop: Loop) -> Clock:
    """Positions ``0..N`` of every activation of ``loop`` (the stream's idx/cont, carry outputs)."""
    return Clock(loop.activation.levels + (loop,), loop.activation.conds)


def split(clock: Clock, loop: Loop, memo: dict) -> tuple[list[z3.BoolRef], list[z3.BoolRef]]:
    """The conditions of ``clock`` that do not / do mention ``loop``'s coordinate."""
    outer, inner = [], []
    for c in clock.conds:
        (inner if mentions(c, loop.j, memo) else outer).append(c)
    return outer, inner


def when(clock: "Clock | AnyClock", cond: z3.BoolRef, memo: dict) -> tuple["Clock | AnyClock", Optional[tuple]]:
    """The sub-clock of ``clock`` where ``cond`` holds, with the innermost level projected away when
    ``cond`` pins it to one position per activation (a loop exit ``j = N`` or the last body
    iteration ``j = N-1``). Returns the clock and the substitution ``(j, t)`` applied, if any."""
    if isinstance(clock, AnyClock):
        return clock, None
    c = Clock(clock.levels, clock.conds + (cond,))
    return project(c, memo)


def project(clock: Clock, memo: dict) -> tuple[Clock, Optional[tuple]]:
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
        if mentions(c, loop.j, memo):
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
