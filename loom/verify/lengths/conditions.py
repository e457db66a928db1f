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
stream's ``fsm.stream.pre`` obligation checks it). So the body positions hold the indices from
``start`` up to, not including, ``idx(N)``, each once: the token exists iff
``start <= k < idx(N)``, at position ``t = k - start``, and the level is projected away like a
loop exit (the token is on the activation's clock). ``capture_facts`` relate ``idx(N)`` to the
bound (the condition fails at ``N`` and held at ``N - 1``, one step before); they are axioms of
every query that mentions the loop's trip count once a capture exists. All of it stays in
bit-vectors, which Z3 decides quickly.
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


def uses(term: z3.ExprRef, decl: z3.FuncDeclRef, memo: dict) -> bool:
    """Whether ``term`` applies ``decl`` (memo: ``(term id, decl id) -> (answer, term)``, keeping terms alive)."""
    did = decl.get_id()
    stack: list[tuple[z3.ExprRef, bool]] = [(term, False)]
    while stack:
        x, expanded = stack.pop()
        key = (x.get_id(), did)
        if key in memo:
            continue
        kids = x.children()
        if expanded:
            found = (z3.is_app(x) and x.decl().get_id() == did) or any(memo[(k.get_id(), did)][0] for k in kids)
            memo[key] = (found, x)
            continue
        if z3.is_app(x) and x.decl().get_id() == did:
            memo[key] = (True, x)
            continue
        stack.append((x, True))
        stack.extend((k, False) for k in kids if (k.get_id(), did) not in memo)
    return memo[(term.get_id(), did)][0]


def _equality(c: z3.BoolRef) -> Optional[tuple[z3.ExprRef, z3.ExprRef]]:
    if z3.is_eq(c) and c.num_args() == 2:
        return c.arg(0), c.arg(1)
    if z3.is_not(c) and z3.is_distinct(c.arg(0)) and c.arg(0).num_args() == 2:
        return c.arg(0).arg(0), c.arg(0).arg(1)
    return None


def capture(loop: Loop, inner: list[z3.BoolRef], mentions) -> Optional[tuple[list[z3.BoolRef], z3.ArithRef]]:
    """A clock whose conditions on ``loop`` are ``inner`` holds one position per activation when one of them
    is ``idx(j) == k`` with ``k`` free of ``j`` (``mentions(term)``: whether a term mentions ``loop``'s
    coordinate) and the stream has a unit step. Returns the conditions of the projected clock (over the
    outer coordinates) and the position ``t``, or None.

    The positions of a unit-step stream before its exit hold the indices ``start, start +- 1, ...`` up to,
    not including, ``idx(N)``, each once; so the token exists iff ``start <= k < idx(N)`` (``> idx(N)`` and
    ``<= start`` downwards; ``<= idx(N)`` when the clock includes the exit position), at ``t = +-(k - start)``.
    The other conditions are taken at ``t``."""
    d = unit_direction(loop)
    if d is None:
        return None
    assert loop.index_term is not None and loop.start is not None
    idx, start = loop.index_term, loop.start
    for c in inner:
        sides = _equality(c)
        if sides is None:
            continue
        a, b = sides
        k = b if a.get_id() == idx.get_id() else (a if b.get_id() == idx.get_id() else None)
        if k is None or not z3.is_bv(k) or k.size() != start.size() or mentions(k):
            continue
        t = d * (z3.BV2Int(k, is_signed=True) - z3.BV2Int(start, is_signed=True))
        last = at(idx, loop, loop.n)
        body = any(x.get_id() == loop.cont.get_id() for x in inner)
        if d == 1:
            conds = [start <= k, k < last if body else k <= last]
        else:
            conds = [k <= start, k > last if body else k >= last]
        rest = [z3.substitute(x, (loop.j, t)) for x in inner
                if x.get_id() not in (c.get_id(), loop.cont.get_id())]
        return conds + rest, t
    return None


def capture_facts(loop: Loop) -> list[z3.BoolRef]:
    """What a captured token's clock needs about its loop (over the outer coordinates): the index at 0 is
    ``start``; at ``N`` the continue condition fails and, after at least one iteration, the index is the
    step applied to the index at ``N - 1``, where the condition held."""
    assert loop.index_term is not None and loop.start is not None and loop.step is not None
    idx, n = loop.index_term, loop.n
    out: list[z3.BoolRef] = [at(idx, loop, z3.IntVal(0)) == loop.start]
    upd = PURE.get("step." + loop.step_op)
    if upd is not None:
        out.append(z3.Implies(n >= 1, at(idx, loop, n) == upd(at(idx, loop, n - 1), loop.step)))
    if loop.holds is not None:
        out += [z3.Not(at(loop.holds, loop, n)), z3.Implies(n >= 1, at(loop.holds, loop, n - 1))]
    return out


__all__ = ["at", "capture", "capture_facts", "successor_facts", "unit_direction", "uses"]
