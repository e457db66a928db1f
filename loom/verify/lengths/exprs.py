"""Operator-table expressions (``loom.semantics.expr``) as Z3 terms, for the length calculus and BMC.

Covers the pure vocabulary of ``loom.semantics.functions`` (booleans as Z3
booleans, index as 64-bit vectors with signed comparisons and wrapping step
operators). ``scalar:<op>`` and ``mem.read`` are not translated here: callers
handle those (exactly or as uninterpreted data).
"""

from __future__ import annotations

from typing import Callable, Mapping, Optional

import z3

from loom.semantics.expr import Apply, Const, Expr, In, Reg

INDEX_BITS = 64


def _bv(x: z3.ExprRef) -> z3.ExprRef:
    if z3.is_bool(x):
        return z3.If(x, z3.BitVecVal(1, INDEX_BITS), z3.BitVecVal(0, INDEX_BITS))
    return x


def _sdiv(a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BitVecRef:
    # Truncating signed division (step./=); division by zero is a runtime error the stream reports first.
    return a / b


def _shl(a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BitVecRef:
    return a << b  # >= 64 gives 0, as in loom.semantics.functions


def _ashr(a: z3.BitVecRef, b: z3.BitVecRef) -> z3.BitVecRef:
    return a >> b  # arithmetic; >= 64 fills with the sign, as min(b, 63) does


PURE: Mapping[str, Callable[..., z3.ExprRef]] = {
    "not": lambda a: z3.Not(a),
    "and": lambda a, b: z3.And(a, b),
    "or": lambda a, b: z3.Or(a, b),
    "eq": lambda a, b: _eq(a, b),
    "ne": lambda a, b: z3.Not(_eq(a, b)),
    "cmp.<": lambda a, b: _bv(a) < _bv(b),
    "cmp.<=": lambda a, b: _bv(a) <= _bv(b),
    "cmp.>": lambda a, b: _bv(a) > _bv(b),
    "cmp.>=": lambda a, b: _bv(a) >= _bv(b),
    "cmp.!=": lambda a, b: _bv(a) != _bv(b),
    "cmp.==": lambda a, b: _bv(a) == _bv(b),
    "ucmp.<": lambda a, b: z3.ULT(_bv(a), _bv(b)),
    "ucmp.>=": lambda a, b: z3.UGE(_bv(a), _bv(b)),
    "step.+=": lambda a, b: a + b,
    "step.-=": lambda a, b: a - b,
    "step.*=": lambda a, b: a * b,
    "step./=": _sdiv,
    "step.<<=": _shl,
    "step.>>=": _ashr,
}


def _eq(a: z3.ExprRef, b: z3.ExprRef) -> z3.BoolRef:
    """``eq`` of the tables compares runtime values: i1 booleans with 0/1 constants, bit-vectors with ints."""
    if z3.is_bool(a) and z3.is_bv(b):
        return a == (b != 0)
    if z3.is_bv(a) and z3.is_bool(b):
        return b == (a != 0)
    return a == b


def const_term(value: object, like: Optional[z3.ExprRef] = None) -> z3.ExprRef:
    """A table constant next to a term of the same sort (ints become bit-vectors/booleans)."""
    if like is not None and z3.is_bool(like) and isinstance(value, int):
        return z3.BoolVal(bool(value))
    if like is not None and z3.is_bv(like) and isinstance(value, int):
        return z3.BitVecVal(value, like.size())
    if isinstance(value, bool):
        return z3.BoolVal(value)
    if isinstance(value, int):
        return z3.BitVecVal(value, INDEX_BITS)
    raise ValueError(f"no Z3 constant for {value!r}")


def guard_term(e: Expr, regs: Mapping[str, z3.ExprRef], heads: Optional[Mapping[str, z3.ExprRef]] = None
               ) -> Optional[z3.ExprRef]:
    """``e`` over register and head terms; None when it uses something outside the pure vocabulary."""
    heads = heads or {}
    if isinstance(e, Reg):
        return regs.get(e.name)
    if isinstance(e, In):
        return heads.get(e.port)
    if isinstance(e, Const):
        return None if e.value is None else const_term(e.value)
    if isinstance(e, Apply):
        f = PURE.get(e.fn)
        if f is None:
            return None
        args = [guard_term(a, regs, heads) for a in e.args]
        if any(a is None for a in args):
            return None
        # give bare integer constants the sort of their sibling
        fixed = []
        for i, (sub, a) in enumerate(zip(e.args, args)):
            if isinstance(sub, Const) and len(args) == 2:
                other = args[1 - i]
                a = const_term(sub.value, other)
            fixed.append(a)
        return f(*fixed)
    return None
