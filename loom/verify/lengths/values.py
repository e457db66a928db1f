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
from loom.ir.core import Operation
from loom.ir.types import FloatType, IntegerType, NoneType, TaggedType, Type
from loom.semantics.expr import ScalarInfo
from loom.semantics.layout import int_width
from loom.semantics.ops import INT_OPS
from loom.semantics.predicates import CMPI_PREDICATES, predicate_name
from loom.semantics.scalar import eval_scalar, is_scalar_op
from loom.verify.lengths.clock import _FALSE_ID, _TRUE_ID, TermMap

# The integer ops the length calculus models exactly, with their descriptors' Z3 terms (loom.semantics.ops);
# the rest (division, counting, ...) are uninterpreted functions of their operands.
EXACT = frozenset({
    "arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
    "arith.shli", "arith.shrui", "arith.shrsi", "arith.maxui", "arith.minui", "arith.maxsi", "arith.minsi",
    "arith.extsi", "arith.index_cast", "arith.extui", "arith.trunci", "arith.index_castui",
})


def is_i1(t: Type) -> bool:
    return isinstance(t, IntegerType) and t.width == 1


class Values:
    """Builds the value terms of one function (sorts, literals, uninterpreted data)."""

    def __init__(self) -> None:
        self._sorts: dict[str, z3.SortRef] = {}
        self._funcs: dict[str, z3.FuncDeclRef] = {}
        # a sort's printed name by its id, with the sort (held, so that its id stays its own; every such sort is a
        # domain sort of a function in ``_funcs`` anyway): z3's pretty printer took ~3 s of a 50,009-op DFG's model
        self._sort_names: dict[int, tuple[z3.SortRef, str]] = {}
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
        key = symbol(f"{name}->{result}:" + ",".join(self._sort_name(a.sort()) for a in args))
        f = self._funcs.get(key)
        if f is None:
            f = self._funcs[key] = z3.Function(key, *[a.sort() for a in args], self.sort(result))
        return f(*args)

    def _sort_name(self, s: z3.SortRef) -> str:
        got = self._sort_names.get(s.get_id())
        if got is None:
            got = self._sort_names[s.get_id()] = (s, str(s))
        return got[1]

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
        d = INT_OPS.get(name)
        if d is None:
            return None
        info = ScalarInfo(tuple(op.attributes.items()), tuple(in_types), tuple(out_types), 0)
        if name == "arith.select" and len(args) == 3 and is_i1(in_types[0]):
            return d.z3(args, info)  # the condition is a Bool here already, like i1 values
        if name == "arith.cmpi" and len(args) == 2 and int_width(in_types[0]) is not None:
            if _predicate(op) is None:
                return None
            return d.z3([to_bv(args[0]), to_bv(args[1])], info)
        if name in EXACT and len(args) == d.arity and int_width(rt) is not None:
            if d.arity == 1 and int_width(in_types[0]) is None:
                return None
            return from_bv(d.z3([to_bv(x) for x in args], info), rt)
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
    return predicate_name(op.attributes, CMPI_PREDICATES)


def is_float(t: Type) -> bool:
    return isinstance(t, FloatType)
