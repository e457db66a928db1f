"""Where MLIR's arith leaves a scalar op undefined: one rule per (op, kind), read by every engine.

Each ``UbRule`` says, for one op, when it is undefined behaviour (or yields poison),
in two forms that must agree: ``holds`` on runtime values (the SCF interpreter stops
there with ``code``) and ``term`` on Z3 bit-vectors (the safety checker proves its
negation for every trip count). ``sv`` is the same condition as a SystemVerilog
expression over the operand buses ``a``, ``b`` of width ``W`` (the RTL monitors), or
None where the RTL cannot state it (floats). ``what`` is the obligation suffix:
``safe.<op>@<line>:<col>.<what>``.

The kinds, from MLIR's arith documentation:

* ``divzero``: integer division or remainder by zero is undefined behaviour
  (``divsi divui remsi remui ceildivsi ceildivui floordivsi``; ``math.ipowi`` of 0 to a
  negative power divides by zero);
* ``overflow``: signed division of INT_MIN by -1 is undefined behaviour (``divsi``,
  ``ceildivsi``, ``floordivsi``); ``addi``/``subi``/``muli``/``shli`` marked
  ``overflow<nsw>`` / ``overflow<nuw>`` yield poison when they wrap (signed / unsigned);
* ``shift``: a shift amount of at least the bit width yields poison (``shli shrui shrsi``);
* ``cast``: ``fptosi``/``fptoui`` of a NaN or of a value whose integer part does not fit
  the result type yield poison.

``index_cast``/``index_castui``/``trunci`` without flags are defined (sign-extend, zero-extend
or truncate), so they have no rule. loom's scalar semantics still fixes one answer for each
poison case (``loom.semantics.scalar``) so that the DFG simulator and the RTL compute the same
bits; only the SCF reference interpreter, which states the source program's meaning, stops.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Optional, Sequence

import z3

from loom.ir.attributes import OpaqueAttr
from loom.ir.types import FloatType, Type
from loom.semantics.scalar import DIV_BY_ZERO, float_format, is_int_type, to_signed, width_of

DIV_OVERFLOW = "RT_ARITH_DIV_OVERFLOW"
SHIFT_RANGE = "RT_ARITH_SHIFT_RANGE"
CAST_RANGE = "RT_ARITH_CAST_RANGE"
INT_OVERFLOW = "RT_ARITH_OVERFLOW"

# obligation suffix -> the runtime error the interpreter stops with
KIND_CODES = {"divzero": DIV_BY_ZERO, "overflow": DIV_OVERFLOW, "wrap": INT_OVERFLOW, "shift": SHIFT_RANGE,
              "cast": CAST_RANGE}


@dataclass(frozen=True)
class UbSig:
    """What a rule may depend on: the op's name, attributes and operand/result types."""

    name: str
    attrs: Mapping[str, Any]
    operand_types: tuple
    result_types: tuple

    @property
    def width(self) -> int:
        """Bit width of the first operand (integers) or of the result (float -> int casts)."""
        t = self.operand_types[0]
        return width_of(t) if is_int_type(t) else width_of(self.result_types[0])

    def flags(self) -> frozenset[str]:
        """The ``overflow<...>`` flags of the op."""
        a = self.attrs.get("overflowFlags")
        if not isinstance(a, OpaqueAttr) or "<" not in a.text:
            return frozenset()
        return frozenset(w.strip() for w in a.text[a.text.index("<") + 1:a.text.rindex(">")].split(","))


@dataclass(frozen=True)
class UbRule:
    """One undefined case of one op (see the module docstring)."""

    what: str  # obligation suffix: divzero | overflow | wrap | shift | cast
    code: str  # the runtime error the SCF interpreter stops with
    message: str  # what went wrong, in words ("integer division by zero")
    holds: Callable[[Sequence[Any], UbSig], bool]  # runtime values -> undefined here?
    term: Callable[[Sequence[z3.ExprRef], UbSig], z3.BoolRef]  # bit-vector operands -> undefined condition
    sv: Optional[Callable[[UbSig], str]] = None  # SystemVerilog over operands a, b (None: not in RTL)


def _bv(x: z3.ExprRef) -> z3.BitVecRef:
    if z3.is_bool(x):
        return z3.If(x, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    return x


def _int_min(w: int) -> int:
    return 1 << (w - 1)


def _divzero(b_index: int = 1) -> UbRule:
    return UbRule("divzero", DIV_BY_ZERO, "integer division by zero",
                  lambda v, s: v[b_index] == 0,
                  lambda t, s: _bv(t[b_index]) == 0,
                  lambda s: f"b == {s.width}'d0")


_SDIV_OVERFLOW = UbRule(
    "overflow", DIV_OVERFLOW, "signed division overflow (INT_MIN / -1)",
    lambda v, s: s.width > 0 and v[0] == _int_min(s.width) and v[1] == (1 << s.width) - 1,
    lambda t, s: z3.And(_bv(t[0]) == z3.BitVecVal(_int_min(s.width), s.width),
                        _bv(t[1]) == z3.BitVecVal(-1, s.width)),
    lambda s: f"a == {s.width}'h{_int_min(s.width):x} && b == {s.width}'h{(1 << s.width) - 1:x}")

_SHIFT = UbRule(
    "shift", SHIFT_RANGE, "shift amount not below the bit width (poison)",
    lambda v, s: v[1] >= s.width,
    lambda t, s: z3.UGE(_bv(t[1]), z3.BitVecVal(s.width, _bv(t[1]).size())),
    lambda s: f"b >= {s.width}'d{s.width}" if s.width > 1 else "b != 1'b0")


def _ipowi_zero(v: Sequence[Any], s: UbSig) -> bool:
    return v[0] == 0 and to_signed(v[1], s.width) < 0


_IPOWI = UbRule("divzero", DIV_BY_ZERO, "zero raised to a negative power (division by zero)", _ipowi_zero,
                lambda t, s: z3.And(_bv(t[0]) == 0, _bv(t[1]) < 0), None)


def _wrap_rule(op: str) -> UbRule:
    """``overflow<nsw>``/``overflow<nuw>`` on addi/subi/muli/shli: poison when the result wraps."""

    def exact(a: int, b: int, w: int, signed: bool) -> int:
        if op == "shl":  # the amount is unsigned; an out-of-range amount is the shift rule's case
            return (to_signed(a, w) if signed else a) << min(b, w)
        if signed:
            a, b = to_signed(a, w), to_signed(b, w)
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        return a * b

    def fits(x: int, w: int, signed: bool) -> bool:
        return -(1 << (w - 1)) <= x < (1 << (w - 1)) if signed else 0 <= x < (1 << w)

    def holds(v: Sequence[Any], s: UbSig) -> bool:
        fl, w = s.flags(), s.width
        if op == "shl" and v[1] >= w:
            return False  # the shift rule's case
        return (("nsw" in fl and not fits(exact(v[0], v[1], w, True), w, True))
                or ("nuw" in fl and not fits(exact(v[0], v[1], w, False), w, False)))

    def term(t: Sequence[z3.ExprRef], s: UbSig) -> z3.BoolRef:
        fl, w = s.flags(), s.width
        a, b = _bv(t[0]), _bv(t[1])
        out = []
        for flag, ext in (("nsw", z3.SignExt), ("nuw", z3.ZeroExt)):
            if flag not in fl:
                continue
            if op == "shl":
                back = (a << b) >> b if flag == "nsw" else z3.LShR(a << b, b)
                out.append(z3.And(z3.ULT(b, w), back != a))
                continue
            wide = {"add": lambda x, y: x + y, "sub": lambda x, y: x - y, "mul": lambda x, y: x * y}[op]
            x, y = ext(w, a), ext(w, b)
            r = wide(x, y)
            out.append(r != ext(w, z3.Extract(w - 1, 0, r)))
        return out[0] if len(out) == 1 else z3.Or(*out) if out else z3.BoolVal(False)

    def sv(s: UbSig) -> str:
        """The exact result in a wider bus (signed: operands sign-extended by a size cast of ``$signed``), out of
        range: unsigned, at least 2^W; signed, outside [-2^(W-1), 2^(W-1)) -- shifted up by 2^(W-1), at least 2^W."""
        fl, w = s.flags(), s.width
        out = []
        for flag in ("nsw", "nuw"):
            if flag not in fl:
                continue
            if op == "shl":  # shifted back, the bits differ (an amount of W or more is the shift rule's case)
                back = f"($signed({w}'(a << b)) >>> b) != $signed(a)" if flag == "nsw" else f"({w}'(a << b) >> b) != a"
                out.append(f"(b < {w}'d{w} && {back})")
                continue
            if op == "sub" and flag == "nuw":
                out.append("(a < b)")
                continue
            n = 2 * w if op == "mul" else w + 1
            sym = {"add": "+", "sub": "-", "mul": "*"}[op]
            x, y = (f"{n}'($signed({v}))" if flag == "nsw" else f"{n}'({v})" for v in ("a", "b"))
            exact = f"{x} {sym} {y}" + (f" + {n}'h{1 << (w - 1):x}" if flag == "nsw" else "")
            out.append(f"({n}'({exact}) >= {n}'h{1 << w:x})")
        return " || ".join(out) or "1'b0"

    return UbRule("wrap", INT_OVERFLOW, f"{op} with overflow flags wraps (poison)", holds, term, sv)


def _cast_rule(signed: bool) -> UbRule:
    def bounds(w: int) -> tuple[int, int]:
        return (-(1 << (w - 1)), (1 << (w - 1)) - 1) if signed else (0, (1 << w) - 1)

    def holds(v: Sequence[Any], s: UbSig) -> bool:
        x = v[0]
        if math.isnan(x) or math.isinf(x):
            return True
        lo, hi = bounds(width_of(s.result_types[0]))
        return not lo <= math.trunc(x) <= hi

    def term(t: Sequence[z3.ExprRef], s: UbSig) -> z3.BoolRef:
        x = t[0]
        if not z3.is_fp(x):  # floats are uninterpreted in the verifier's models: any value may arrive
            return z3.BoolVal(True)
        lo, hi = bounds(width_of(s.result_types[0]))
        r = z3.fpRoundToIntegral(z3.RTZ(), x)
        fmt = float_format(s.operand_types[0])
        srt = z3.FPSort(fmt.exp_bits, fmt.precision)
        # lo and hi + 1 are 0 or powers of two: exact in the float format (or infinite, which isInf covers)
        return z3.Or(z3.fpIsNaN(x), z3.fpIsInf(x), z3.fpLT(r, z3.FPVal(lo, srt)), z3.fpGEQ(r, z3.FPVal(hi + 1, srt)))

    return UbRule("cast", CAST_RANGE, f"{'fptosi' if signed else 'fptoui'} of a value outside the result "
                  "range (poison)", holds, term, None)


_RULES: dict[str, tuple[UbRule, ...]] = {
    "arith.divsi": (_divzero(), _SDIV_OVERFLOW),
    "arith.ceildivsi": (_divzero(), _SDIV_OVERFLOW),
    "arith.floordivsi": (_divzero(), _SDIV_OVERFLOW),
    "arith.divui": (_divzero(),),
    "arith.ceildivui": (_divzero(),),
    "arith.remsi": (_divzero(),),
    "arith.remui": (_divzero(),),
    "math.ipowi": (_IPOWI,),
    "arith.shli": (_SHIFT, _wrap_rule("shl")),
    "arith.shrui": (_SHIFT,),
    "arith.shrsi": (_SHIFT,),
    "arith.addi": (_wrap_rule("add"),),
    "arith.subi": (_wrap_rule("sub"),),
    "arith.muli": (_wrap_rule("mul"),),
    "arith.fptosi": (_cast_rule(True),),
    "arith.fptoui": (_cast_rule(False),),
}


def ub_rules(name: str, attrs: Mapping[str, Any], operand_types: Sequence[Type],
             result_types: Sequence[Type]) -> tuple[tuple[UbRule, ...], UbSig]:
    """The rules that apply to one op (a ``wrap`` rule only with its overflow flags), and its signature.

    Vector-typed or otherwise non-scalar operands get no rules (they are outside the scalar table)."""
    sig = UbSig(name, dict(attrs), tuple(operand_types), tuple(result_types))
    rules = _RULES.get(name, ())
    if not rules or not operand_types or not result_types:
        return (), sig
    t = operand_types[0]
    if not (is_int_type(t) or isinstance(t, FloatType)):
        return (), sig
    if isinstance(t, FloatType) and not is_int_type(result_types[0]):
        return (), sig
    return tuple(r for r in rules if r.what != "wrap" or sig.flags() & {"nsw", "nuw"}), sig


def checked(fn: Callable, name: str, attrs: Mapping[str, Any], operand_types: Sequence[Type],
            result_types: Sequence[Type], loc=None) -> Callable:
    """``fn`` (a ``scalar_fn``) preceded by the op's rules: a run stops with the rule's runtime error where MLIR
    leaves the op undefined. The interpreter and the token simulator both run ops through it; ``fn`` itself keeps
    the fixed answer the RTL computes."""
    rules, sig = ub_rules(name, attrs, operand_types, result_types)
    if not rules:
        return fn
    from loom.diagnostics import SimulationError

    def run(values):
        bad = first_violation(rules, sig, values)
        if bad is not None:
            raise SimulationError(f"{name}: {bad.message}", loc, bad.code)
        return fn(values)
    return run


def first_violation(rules: Sequence[UbRule], sig: UbSig, values: Sequence[Any]) -> Optional[UbRule]:
    """The first rule that holds on ``values`` (the order of ``ub_rules``), or None."""
    for r in rules:
        if r.holds(values, sig):
            return r
    return None


__all__ = ["CAST_RANGE", "checked", "DIV_OVERFLOW", "INT_OVERFLOW", "KIND_CODES", "SHIFT_RANGE", "UbRule", "UbSig",
           "first_violation", "ub_rules"]
