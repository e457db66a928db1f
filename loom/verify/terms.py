"""Walks over Z3 terms, in one place: every distinct subterm once, its uninterpreted constants and applications.

Several modules walked terms with copies of the same loop, each building a Python wrapper (two reference-count
calls) for every subterm it met. These walk the raw ASTs instead -- a subterm stays alive while the root that
holds it does, so no reference is taken -- and wrap only what they return; the order is the one those loops had
(depth first, the last argument first), so what callers build from it is unchanged.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Optional

import z3
from z3 import z3core as _c

_APP = z3.Z3_APP_AST
_UNINTERPRETED = z3.Z3_OP_UNINTERPRETED


def _apps(term: z3.ExprRef, seen: set[int]) -> Iterator[tuple[int, object, int]]:
    """(id, raw application, argument count) of every distinct application in ``term`` not in ``seen`` (whose
    ids it adds), depth first, the last argument first; a quantifier's body is not entered."""
    ref = term.ctx.ref()
    get_id, kind, to_app, nargs, arg = (_c.Z3_get_ast_id, _c.Z3_get_ast_kind, _c.Z3_to_app, _c.Z3_get_app_num_args,
                                        _c.Z3_get_app_arg)
    stack = [term.as_ast()]
    while stack:
        a = stack.pop()
        i = get_id(ref, a)
        if i in seen:
            continue
        seen.add(i)
        if kind(ref, a) != _APP:
            continue
        app = to_app(ref, a)
        n = nargs(ref, app)
        yield i, app, n
        stack.extend(arg(ref, app, k) for k in range(n))


def raw_children(ref, a) -> list:
    """The raw subterms z3py's ``children()`` gives of raw term ``a``: an application's arguments, a quantifier's
    body (``ref``: its context's reference)."""
    k = _c.Z3_get_ast_kind(ref, a)
    if k == _APP:
        app = _c.Z3_to_app(ref, a)
        return [_c.Z3_get_app_arg(ref, app, i) for i in range(_c.Z3_get_app_num_args(ref, app))]
    if k == z3.Z3_QUANTIFIER_AST:
        return [_c.Z3_get_quantifier_body(ref, a)]
    return []


def raw_contains(ref, a, tid: int) -> bool:
    """Does raw term ``a`` contain the term of id ``tid`` (a quantifier's body included)? Each distinct subterm is
    walked once, and the walk stops at the first match."""
    todo, seen = [a], set()
    while todo:
        x = todo.pop()
        i = _c.Z3_get_ast_id(ref, x)
        if i == tid:
            return True
        if i not in seen:
            seen.add(i)
            todo.extend(raw_children(ref, x))
    return False


def term_ids(term: z3.ExprRef) -> set[int]:
    """The ids of every application in ``term`` (every subterm of a quantifier-free term)."""
    seen: set[int] = set()
    for _ in _apps(term, seen):
        pass
    return seen


def applications(term: z3.ExprRef, seen: Optional[set[int]] = None) -> dict[int, int]:
    """The uninterpreted applications with arguments (``f(x, y)``) in ``term``: their id -> their function's id
    (subterms whose id is in ``seen`` skipped; ``seen`` gets every id walked)."""
    seen = set() if seen is None else seen
    ref = term.ctx.ref()
    out: dict[int, int] = {}
    for i, app, n in _apps(term, seen):
        if n:
            d = _c.Z3_get_app_decl(ref, app)
            if _c.Z3_get_decl_kind(ref, d) == _UNINTERPRETED:
                out[i] = _c.Z3_get_ast_id(ref, _c.Z3_func_decl_to_ast(ref, d))
    return out


def constants(term: z3.ExprRef) -> dict[str, z3.ExprRef]:
    """The uninterpreted constants of ``term`` by name, in the order a depth-first walk meets them."""
    ctx = term.ctx
    ref = ctx.ref()
    out: dict[str, z3.ExprRef] = {}
    for _, app, n in _apps(term, set()):
        if n:
            continue
        d = _c.Z3_get_app_decl(ref, app)
        if _c.Z3_get_decl_kind(ref, d) == _UNINTERPRETED:
            name = z3.z3._symbol2py(ctx, _c.Z3_get_decl_name(ref, d))
            if name not in out:
                out[name] = z3.z3._to_expr_ref(_c.Z3_app_to_ast(ref, app), ctx)
    return out


def symbols(term: z3.ExprRef) -> list[z3.ExprRef]:
    """The uninterpreted constants of ``term``, each distinct term once (by identity, not name), in the order a
    depth-first walk meets them."""
    ctx = term.ctx
    ref = ctx.ref()
    out: list[z3.ExprRef] = []
    for _, app, n in _apps(term, set()):
        if not n and _c.Z3_get_decl_kind(ref, _c.Z3_get_app_decl(ref, app)) == _UNINTERPRETED:
            out.append(z3.z3._to_expr_ref(_c.Z3_app_to_ast(ref, app), ctx))
    return out
