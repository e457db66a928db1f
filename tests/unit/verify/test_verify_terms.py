"""``loom.verify.terms`` walks raw ASTs; what it returns must be what the z3py walks it replaced returned, in
the same order (callers build queries from the order of ``constants``)."""

from __future__ import annotations

import random

import z3

from loom.verify import terms


def _reference(term: z3.ExprRef):
    """The z3py walk the modules had: ids of every subterm, constants by name in walk order, and the
    uninterpreted applications with arguments (id -> function id)."""
    ids: set[int] = set()
    consts: dict[str, z3.ExprRef] = {}
    apps: dict[int, int] = {}
    todo = [term]
    while todo:
        t = todo.pop()
        if t.get_id() in ids:
            continue
        ids.add(t.get_id())
        if z3.is_const(t) and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            consts.setdefault(t.decl().name(), t)
        if z3.is_app(t) and t.num_args() and t.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            apps[t.get_id()] = t.decl().get_id()
        todo.extend(t.children())
    return ids, consts, apps


def _random_term(rng: random.Random) -> z3.BoolRef:
    f = z3.Function("f", z3.BitVecSort(8), z3.BitVecSort(8), z3.BitVecSort(8))
    g = z3.Function("g", z3.BitVecSort(8), z3.BitVecSort(8))
    xs = [z3.BitVec(f"x{i}", 8) for i in range(12)] + [z3.BitVecVal(3, 8)]
    pool: list[z3.BitVecRef] = list(xs)
    for _ in range(60):
        a, b = rng.choice(pool), rng.choice(pool)
        pool.append(rng.choice([lambda: a + b, lambda: f(a, b), lambda: g(a), lambda: z3.If(a > b, a, b),
                                lambda: z3.UDiv(a, b)])())
    return z3.And(pool[-1] == pool[-2], z3.Or(z3.Bool("p"), pool[-3] != 0))


def test_the_raw_walks_return_what_the_z3py_walks_did():
    rng = random.Random(7)
    for _ in range(20):
        t = _random_term(rng)
        ids, consts, apps = _reference(t)
        assert terms.term_ids(t) == ids
        got = terms.constants(t)
        assert list(got) == list(consts) and all(got[k].eq(consts[k]) for k in consts)
        assert terms.applications(t) == apps
        assert apps  # the terms do have applications


def test_applications_skip_what_was_seen():
    f = z3.Function("h", z3.IntSort(), z3.IntSort())
    x = z3.Int("x")
    inner = f(x) > 0
    seen: set[int] = set()
    assert len(terms.applications(inner, seen)) == 1
    assert terms.applications(z3.And(inner, f(x + 1) > 0), seen) == {f(x + 1).get_id(): f.get_id()}
