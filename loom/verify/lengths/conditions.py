"""Loop conditions the DFG computes itself, and tokens captured at one iteration (length calculus).

A stream loop L has two canonical conditions: the raw ``cont = j < N`` (N+1 tokens per
activation, a ``dataflow.stream``'s will-continue) and the gate's ``after = j < N-1`` (N
tokens). A hand-written DFG may compute the same streams from the index instead:

* on the raw clock, ``idx < n`` with ``n`` an invariant of the bound (the stream's own continue
  condition, a boundary computation);
* on the body clock, ``(i + 1) < n`` with ``i`` the body index: the next index is still in range,
  which is exactly ``after_cond``.

``successor_facts`` are what the stream's table says about two neighbouring positions, so Z3 can
show such a term equal to ``cont`` / ``after`` for all trip counts: the index at ``j + 1`` is the
table's step applied to the index at ``j`` (for ``j < N``, as the stream updates it only after a
true condition), and the continue condition holds at ``j + 1 < N`` and fails at ``j + 1 = N``.
The calculus then uses the canonical term (``Typer.cond_term``), so a ``cond_br`` on the computed
condition projects its exit side like one on the stream's own condition.

**Captures.** ``cond_br(idx == k, x)`` inside L, with ``k`` the same for every iteration of the
activation, keeps the token of the one iteration whose index is ``k``. For a unit-step stream
(``+= 1`` with ``<``/``<=``, ``-= 1`` with ``>``/``>=``) the index at position ``p <= N`` is
``start + p`` (``start - p``) without wrap-around -- the continue condition bounds every index
before the exit, and a terminating loop never wraps (the calculus assumes loops end; the
stream's ``fsm.stream.pre`` obligation checks it). So the captured position is
``t = k - start`` (``start - k``) over the integers, and the level is projected away like a loop
exit: the token is on the activation's clock with ``0 <= t < N`` (``t <= N`` on the raw clock).
``capture_facts`` state the closed form and the continue condition at ``t`` and at ``N``; they
are part of the axioms of every query that mentions the loop's trip count once a capture exists.
"""

from __future__ import annotations

from typing import Optional

import z3

from loom.verify.lengths.clock import Loop
from loom.verify.lengths.exprs import PURE


def at(term: z3.ExprRef, loop: Loop, pos: z3.ArithRef) -> z3.ExprRef:
    """``term`` (over ``loop``'s coordinate) at position ``pos``."""
    return z3.substitute(term, (loop.j, pos))


def successor_facts(loop: Loop) -> list[z3.BoolRef]:
    """What the stream's table says about positions ``j`` and ``j + 1`` of a ``for`` loop (see the module
    docstring); empty for while loops (their condition is defined by its first false)."""
    if loop.kind != "for" or loop.index_term is None or loop.step is None:
        return []
    upd = PURE.get("step." + loop.step_op)
    j, n = loop.j, loop.n
    nxt = at(loop.index_term, loop, j + 1)
    out: list[z3.BoolRef] = []
    if upd is not None:
        out.append(z3.Implies(z3.And(j >= 0, j < n), nxt == upd(loop.index_term, loop.step)))
    if loop.holds is not None:
        h1 = at(loop.holds, loop, j + 1)
        out += [z3.Implies(z3.And(j >= 0, j + 1 < n), h1), z3.Implies(j + 1 == n, z3.Not(h1))]
    out += [at(f, loop, j + 1) for f in loop.facts]
    return out


def unit_direction(loop: Loop) -> Optional[int]:
    """+1 / -1 for a stream that moves its index by one towards its bound under an ordering condition
    (``+= 1`` with ``<``/``<=``, ``-= 1`` with ``>``/``>=``, or a step of +1/-1 without ``cont_cond``);
    None otherwise (no closed form is used)."""
    if loop.kind != "for" or loop.step is None or loop.start is None or loop.index_term is None:
        return None
    step = z3.simplify(loop.step)
    if not z3.is_bv_value(step):
        return None
    s = step.as_signed_long()
    op, cond = loop.step_op, loop.cont_cond
    up = (op == "+=" and s == 1) or (op == "-=" and s == -1)
    down = (op == "-=" and s == 1) or (op == "+=" and s == -1)
    if cond is None:
        return 1 if up and op == "+=" else (-1 if down and op == "+=" else None)
    if up and cond in ("<", "<="):
        return 1
    if down and cond in (">", ">="):
        return -1
    return None


def closed_form(loop: Loop, pos: z3.ArithRef) -> z3.BoolRef:
    """The index at position ``pos`` (0 <= pos <= N) is ``start +- pos`` over the integers."""
    d = unit_direction(loop)
    assert d is not None and loop.index_term is not None and loop.start is not None
    idx = z3.BV2Int(at(loop.index_term, loop, pos), is_signed=True)
    start = z3.BV2Int(loop.start, is_signed=True)
    return z3.Implies(z3.And(pos >= 0, pos <= loop.n), idx == start + d * pos)


def _equality(c: z3.BoolRef) -> Optional[tuple[z3.ExprRef, z3.ExprRef]]:
    if z3.is_eq(c) and c.num_args() == 2:
        return c.arg(0), c.arg(1)
    if z3.is_not(c) and z3.is_distinct(c.arg(0)) and c.arg(0).num_args() == 2:
        return c.arg(0).arg(0), c.arg(0).arg(1)
    return None


def capture_position(loop: Loop, inner: list[z3.BoolRef], mentions) -> Optional[z3.ArithRef]:
    """The one position a clock whose conditions on ``loop`` are ``inner`` can hold, when one of them is
    ``idx(j) == k`` with ``k`` free of ``j`` and the stream has a unit step (None otherwise).
    ``mentions(term)`` says whether a term mentions ``loop``'s coordinate."""
    d = unit_direction(loop)
    if d is None:
        return None
    assert loop.index_term is not None and loop.start is not None
    idx = loop.index_term.get_id()
    for c in inner:
        sides = _equality(c)
        if sides is None:
            continue
        a, b = sides
        k = b if a.get_id() == idx else (a if b.get_id() == idx else None)
        if k is None or not z3.is_bv(k) or k.size() != loop.start.size() or mentions(k):
            continue
        return d * (z3.BV2Int(k, is_signed=True) - z3.BV2Int(loop.start, is_signed=True))
    return None


def capture_facts(loop: Loop, positions: list[z3.ArithRef]) -> list[z3.BoolRef]:
    """Facts about the index at the captured ``positions`` and at ``N`` (over ``loop``'s outer
    coordinates): the closed form, and the continue condition holding before ``N`` and failing at it."""
    out: list[z3.BoolRef] = []
    for p in list(positions) + [loop.n]:
        out.append(closed_form(loop, p))
        if loop.holds is not None:
            h = at(loop.holds, loop, p)
            out += [z3.Implies(z3.And(p >= 0, p < loop.n), h), z3.Implies(p == loop.n, z3.Not(h))]
    return out


__all__ = ["at", "capture_facts", "capture_position", "closed_form", "successor_facts", "unit_direction"]
