"""Symbolic values of channels for the length calculus: control exact, data abstracted.

Each channel's token at coordinates ``c`` has value ``term(c)``, a Z3 term over
the coordinate variables. Integer and ``i1`` values are bit-vectors/booleans and
the integer ops loops and guards are built from (``addi``, ``cmpi``,
``select``, casts, shifts, min/max, ...) are modelled exactly, so e.g. a guard
``lb < ub`` and the stream's first continue condition are recognised as the
same fact. Everything else -- loaded values, floats, division, math -- is an
uninterpreted function of its operands (deterministic, so equal inputs give
equal outputs, and nothing more is assumed); ops whose operands are all
literals are folded with loom's scalar semantics.
"""

from __future__ import annotations

from typing import Optional, Sequence

import z3

from loom.diagnostics import LoomError
from loom.ir.attributes import IntegerAttr, StringAttr
from loom.ir.core import Operation
from loom.ir.types import FloatType, IndexType, IntegerType, NoneType, TaggedType, Type
from loom.semantics.scalar import CMPI_PREDICATES, eval_scalar, is_scalar_op
from loom.verify.lengths.clock import _FALSE_ID, _TRUE_ID, TermMap

EXACT_BINARY = {
    "arith.addi": lambda a, b: a + b,
    "arith.subi": lambda a, b: a - b,
    "arith.muli": lambda a, b: a * b,
    "arith.andi": lambda a, b: a & b,
    "arith.ori": lambda a, b: a | b,
    "arith.xori": lambda a, b: a ^ b,
    "arith.shli": lambda a, b: a << b,
    "arith.shrui": lambda a, b: z3.LShR(a, b),
    "arith.shrsi": lambda a, b: a >> b,
    "arith.maxui": lambda a, b: z3.If(z3.UGE(a, b), a, b),
    "arith.minui": lambda a, b: z3.If(z3.ULE(a, b), a, b),
    "arith.maxsi": lambda a, b: z3.If(a >= b, a, b),
    "arith.minsi": lambda a, b: z3.If(a <= b, a, b),
}
CMPI = {
    "eq": lambda a, b: a == b,
    "ne": lambda a, b: a != b,
    "slt": lambda a, b: a < b,
    "sle": lambda a, b: a <= b,
    "sgt": lambda a, b: a > b,
    "sge": lambda a, b: a >= b,
    "ult": z3.ULT,
    "ule": z3.ULE,
    "ugt": z3.UGT,
    "uge": z3.UGE,
}
SIGN_EXTENDING = ("arith.extsi", "arith.index_cast")
ZERO_EXTENDING = ("arith.extui", "arith.trunci", "arith.index_castui")


def int_width(t: Type) -> Optional[int]:
    """Bit width of an integer-like type (index is 64), None for anything else."""
    if isinstance(t, IndexType):
        return 64
    if isinstance(t, IntegerType):
        return t.width
    return None


def is_i1(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width == 1


class Values:
    """Builds the value terms of one function (sorts, literals, uninterpreted data)."""

    def __init__(self) -> None:
        self._sorts: dict[str, z3.SortRef] = {}
        self._funcs: dict[str, z3.FuncDeclRef] = {}
        self.literals = TermMap()  # term -> runtime value, for non-bit-vector literals
        self._fresh = 0

    # ------------------------------------------------------------------ sorts and literals
    def sort(self, t: Type) -> z3.SortRef:
        w = int_width(t)
        if w == 1:
            return z3.BoolSort()
        if w is not None:
            return z3.BitVecSort(w)
        if isinstance(t, TaggedType):
            vw, tw = int_width(t.value), int_width(t.tag)
            if vw is not None and tw is not None:
                return z3.BitVecSort(vw + tw)
        name = "none" if isinstance(t, NoneType) else str(t)
        s = self._sorts.get(name)
        if s is None:
            s = self._sorts[name] = z3.DeclareSort(name)
        return s

    def literal(self, value: object, t: Type) -> z3.ExprRef:
        """The term of runtime value ``value`` of type ``t``."""
        w = int_width(t)
        if w == 1:
            return z3.BoolVal(bool(value))
        if w is not None and isinstance(value, int):
            return z3.BitVecVal(value, w)
        srt = self.sort(t)
        if isinstance(srt, z3.BitVecSortRef) and isinstance(value, int):
            return z3.BitVecVal(value, srt.size())
        c = z3.Const(symbol(f"{t}:{value!r}"), srt)
        self.literals.set(c, value)
        return c

    def runtime(self, term: z3.ExprRef, t: Type) -> Optional[object]:
        """The runtime value of a literal term, None when ``term`` is not a literal."""
        tid = term.get_id()
        if tid == _TRUE_ID:
            return 1
        if tid == _FALSE_ID:
            return 0
        if z3.is_bv_value(term):
            return term.as_long()
        return self.literals.get(term, _MISSING)

    def fresh(self, name: str, t: Type, coords: Sequence[z3.ArithRef]) -> z3.ExprRef:
        """A data value: an uninterpreted function of the token's coordinates."""
        self._fresh += 1
        fname = symbol(f"{name}#{self._fresh}")
        if not coords:
            return z3.Const(fname, self.sort(t))
        f = z3.Function(fname, *([z3.IntSort()] * len(coords)), self.sort(t))
        return f(*coords)

    def token(self) -> z3.ExprRef:
        return self.literal(None, NoneType())

    def apply(self, name: str, args: Sequence[z3.ExprRef], result: Type) -> z3.ExprRef:
        """An uninterpreted (deterministic) function ``name`` of ``args``; a constant when there are none."""
        if not args:
            return z3.Const(symbol(f"{name}->{result}"), self.sort(result))
        return self._uf(name, args, result)

    def _uf(self, name: str, args: Sequence[z3.ExprRef], result: Type) -> z3.ExprRef:
        key = symbol(f"{name}->{result}:" + ",".join(str(a.sort()) for a in args))
        f = self._funcs.get(key)
        if f is None:
            f = self._funcs[key] = z3.Function(key, *[a.sort() for a in args], self.sort(result))
        return f(*args)

    # ------------------------------------------------------------------ scalar ops
    def scalar(self, op: Operation, args: Sequence[z3.ExprRef]) -> list[z3.ExprRef]:
        """Result terms of an arith/math op applied to operand terms."""
        in_types = [v.type for v in op.operands]
        out_types = [r.type for r in op.results]
        folded = self._fold(op, args, in_types, out_types)
        if folded is not None:
            return folded
        exact = self._exact(op, args, in_types, out_types)
        if exact is not None:
            return [exact]
        attrs = ",".join(f"{k}={v}" for k, v in sorted(op.attributes.items()) if k not in ("fastmath",))
        return [self._uf(f"{op.name}[{attrs}]#{k}", args, t) for k, t in enumerate(out_types)]

    def _fold(self, op: Operation, args, in_types, out_types) -> Optional[list[z3.ExprRef]]:
        if not is_scalar_op(op.name):
            return None
        vals = [self.runtime(a, t) for a, t in zip(args, in_types)]
        if any(v is _MISSING for v in vals):
            return None
        try:
            res = eval_scalar(op.name, dict(op.attributes), in_types, out_types, vals, op.loc)
        except LoomError:
            return None  # e.g. division by zero: leave it to the uninterpreted function
        return [self.literal(v, t) for v, t in zip(res, out_types)]

    def _exact(self, op: Operation, args, in_types, out_types) -> Optional[z3.ExprRef]:
        name = op.name
        if len(out_types) != 1:
            return None
        rt = out_types[0]
        if name == "arith.select" and len(args) == 3 and is_i1(in_types[0]):
            return z3.If(args[0], args[1], args[2])
        if name in EXACT_BINARY and len(args) == 2 and int_width(rt) is not None:
            a, b = (to_bv(x) for x in args)
            return from_bv(EXACT_BINARY[name](a, b), rt)
        if name == "arith.cmpi" and len(args) == 2 and int_width(in_types[0]) is not None:
            pred = _predicate(op)
            if pred is None:
                return None
            return CMPI[pred](to_bv(args[0]), to_bv(args[1]))
        if (name in SIGN_EXTENDING or name in ZERO_EXTENDING) and len(args) == 1:
            wi, wo = int_width(in_types[0]), int_width(rt)
            if wi is None or wo is None:
                return None
            x = to_bv(args[0])
            if wo < wi:
                y = z3.Extract(wo - 1, 0, x)
            elif wo == wi:
                y = x
            elif name in SIGN_EXTENDING:
                y = z3.SignExt(wo - wi, x)
            else:
                y = z3.ZeroExt(wo - wi, x)
            return from_bv(y, rt)
        return None


def symbol(name: str) -> str:
    """A Z3 symbol name SMT-LIB can quote (no ``|`` or backslash), so emitted scripts parse back."""
    return name.replace("|", "/").replace("\\", "/")


class _Missing:
    def __repr__(self) -> str:
        return "<not a literal>"


_MISSING = _Missing()


def to_bv(x: z3.ExprRef) -> z3.BitVecRef:
    """Booleans (i1) as 1-bit vectors."""
    if z3.is_bool(x):
        return z3.If(x, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    return x


def from_bv(x: z3.BitVecRef, t: Type) -> z3.ExprRef:
    return x == z3.BitVecVal(1, 1) if is_i1(t) else x


def _predicate(op: Operation) -> Optional[str]:
    a = op.attributes.get("predicate")
    if isinstance(a, IntegerAttr) and 0 <= a.value < len(CMPI_PREDICATES):
        return CMPI_PREDICATES[a.value]
    if isinstance(a, StringAttr) and a.value in CMPI_PREDICATES:
        return a.value
    return None


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)
