"""One descriptor per scalar float op: its Python evaluation, its exact IEEE term in Z3, its RTL model and UB rules.

``FLOAT_OPS[name]`` is the float half of the scalar-op table (``loom.semantics.ops.INT_OPS`` is the integer half):

* ``py`` -- the Python evaluation's builder in ``loom.semantics.scalar`` (the SCF interpreter and the token
  simulator run it): computed in binary64 and rounded once to the result format;
* ``z3(args, info)`` -- result ``info.result_index`` as a Z3 term over the operands' IEEE bit patterns
  (bit-vectors as wide as the format): SMT-LIB's floating-point theory, which is IEEE 754 exactly. The float
  result is a ``FPRef`` (compare with ``fpIsNaN``/``==`` up to NaN: loom fixes a NaN's encoding to the quiet NaN,
  sign kept, which the theory has no notion of), a comparison or a classification is a Bool, a conversion to an
  integer is a bit-vector. ``None`` where SMT-LIB has no exact function (libm's transcendental functions, powf):
  there every Z3 model keeps the op uninterpreted, as it keeps every float op in the control proofs (a sound
  over-approximation; bit-precise floats make those queries slow and no control property needs them);
* ``sv`` -- the RTL model family that computes it (``loom.hdl.datapath.floats``: ``real`` arithmetic rounded
  once, bit logic, or a C libm call); the HDL datapath dispatches on it and refuses a float op with no descriptor;
* ``rules`` -- where MLIR leaves it undefined (``loom.semantics.undefined``: fptosi/fptoui of NaN, infinity or an
  out-of-range value); the Z3 term is meaningful only where no rule holds.

``tests/unit/semantics/test_semantics_float_descriptors.py`` checks Python against Z3 on generated operands and on the IEEE
edges (signed zeros, subnormals, infinities, NaN, the largest finite value), in every format; the RTL models are
checked against Python in simulation by ``tests/rtl/test_hdl_vectors.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional, Sequence

import z3

from loom.ir.types import FloatType, Type
from loom.semantics.expr import ScalarInfo
from loom.semantics.layout import FLOAT_FORMATS, width_of
from loom.semantics.predicates import CMPF_PREDICATES, predicate_name
from loom.semantics.scalar import _BUILDERS, BINARY_FLOAT, FLOAT_CLASS, UNARY_FLOAT, rounding_mode
from loom.semantics.undefined import _RULES, UbRule

Z3Term = Callable[[Sequence[z3.ExprRef], ScalarInfo], z3.ExprRef]

# the RTL model families (loom.hdl.datapath.floats)
REAL = "real"  # SV real arithmetic (binary64) rounded once to the result format
BITS = "bits"  # plain bit logic (sign, classification, comparison, min/max)
LIBM = "libm"  # an SV real system function or a C libm call
CONVERT = "convert"  # an exact or once-rounded conversion between formats, or to or from an integer

RM = {"to_nearest_even": z3.RNE, "downward": z3.RTN, "upward": z3.RTP, "toward_zero": z3.RTZ,
      "to_nearest_away": z3.RNA}


@dataclass(frozen=True)
class FloatOp:
    """One scalar float op (see the module docstring)."""

    name: str
    arity: int
    z3: Optional[Z3Term]
    sv: str  # REAL | BITS | LIBM | CONVERT
    result: str = "float"  # float | bool | int: what the Z3 term is

    @property
    def py(self):
        """The Python evaluation's builder (``OpSig -> fn(values) -> results``), as ``scalar_fn`` runs it."""
        return _BUILDERS[self.name]

    @property
    def rules(self) -> tuple[UbRule, ...]:
        return _RULES.get(self.name, ())


# ----------------------------------------------------------------------------- sorts and operands


def sort_of(t: Type) -> z3.FPSortRef:
    """The Z3 sort of float type ``t`` (every format of ``FLOAT_FORMATS``)."""
    if not isinstance(t, FloatType) or t.name not in FLOAT_FORMATS:
        raise ValueError(f"{t} is not a float format loom models")
    f = FLOAT_FORMATS[t.name]
    return z3.FPSort(f.exp_bits, f.precision)


def as_fp(bits: z3.ExprRef, t: Type) -> z3.FPRef:
    """The float whose IEEE encoding is the bit-vector ``bits``."""
    return z3.fpBVToFP(bits, sort_of(t))


def _operands(t: Sequence[z3.ExprRef], info: ScalarInfo) -> list[z3.FPRef]:
    return [as_fp(x, ty) if isinstance(ty, FloatType) else x for x, ty in zip(t, info.operand_types)]


def _out(info: ScalarInfo) -> Type:
    return info.result_types[info.result_index]


def _fp(f: Callable[..., z3.ExprRef]) -> Z3Term:
    return lambda t, info: f(*_operands(t, info))


def _nan(info: ScalarInfo) -> z3.FPRef:
    return z3.fpNaN(sort_of(_out(info)))


def _bigger(a: z3.FPRef, b: z3.FPRef, want_max: bool) -> z3.FPRef:
    """maximum/minimum of two non-NaN values, -0 below +0 (IEEE 754-2019 maximum/minimum)."""
    if want_max:
        return z3.If(z3.fpGT(a, b), a, z3.If(z3.fpLT(a, b), b, z3.If(z3.fpIsNegative(a), b, a)))
    return z3.If(z3.fpLT(a, b), a, z3.If(z3.fpGT(a, b), b, z3.If(z3.fpIsNegative(a), a, b)))


def _minmax(want_max: bool, number: bool) -> Z3Term:
    """maximumf/minimumf (a NaN operand gives NaN) or maxnumf/minnumf (a NaN operand gives the other)."""

    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        a, b = _operands(t, info)
        m = _bigger(a, b, want_max)
        if number:
            return z3.If(z3.fpIsNaN(a), b, z3.If(z3.fpIsNaN(b), a, m))
        return z3.If(z3.Or(z3.fpIsNaN(a), z3.fpIsNaN(b)), _nan(info), m)

    return term


def _fmod(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
    """C's fmod from the IEEE remainder: ``r = a - n*b`` with n rounded to nearest; fmod truncates n instead,
    so where r's sign differs from a's (and r is not zero) it is ``r + sign(a)*|b|``, which is exact. A zero
    result has a's sign."""
    a, b = _operands(t, info)
    r = z3.fpRem(a, b)
    step = z3.If(z3.fpIsNegative(a), z3.fpNeg(z3.fpAbs(b)), z3.fpAbs(b))
    fixed = z3.If(z3.Or(z3.fpIsZero(r), z3.fpIsNegative(r) == z3.fpIsNegative(a)), r, z3.fpAdd(z3.RNE(), r, step))
    signed_zero = z3.If(z3.fpIsNegative(a), z3.fpMinusZero(a.sort()), z3.fpPlusZero(a.sort()))
    return z3.If(z3.fpIsZero(fixed), signed_zero, fixed)


def _copysign(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
    """|a| with b's sign bit (on the encodings: a NaN's sign bit counts)."""
    a_bits, b_bits = t
    w = a_bits.size()
    return as_fp(z3.Concat(z3.Extract(w - 1, w - 1, b_bits), z3.Extract(w - 2, 0, a_bits)), info.operand_types[0])


def _cmpf(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
    p = predicate_name(dict(info.attrs), CMPF_PREDICATES)
    if p is None:
        raise ValueError(f"predicate {dict(info.attrs).get('predicate')}")
    a, b = _operands(t, info)
    unordered = z3.Or(z3.fpIsNaN(a), z3.fpIsNaN(b))
    base = {"eq": z3.fpEQ(a, b), "gt": z3.fpGT(a, b), "ge": z3.fpGEQ(a, b), "lt": z3.fpLT(a, b),
            "le": z3.fpLEQ(a, b), "ne": z3.Not(z3.fpEQ(a, b))}
    if p in ("false", "true"):
        return z3.BoolVal(p == "true")
    if p == "ord":
        return z3.Not(unordered)
    if p == "uno":
        return unordered
    rel = base[p[1:]]
    if p == "one":
        return z3.And(z3.Not(unordered), z3.Not(z3.fpEQ(a, b)))
    if p == "une":
        return z3.Or(unordered, z3.Not(z3.fpEQ(a, b)))
    return z3.And(z3.Not(unordered), rel) if p[0] == "o" else z3.Or(unordered, rel)


def _itofp(signed: bool) -> Z3Term:
    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        x = t[0]
        w = width_of(info.operand_types[0])
        x = z3.Extract(w - 1, 0, x) if x.size() > w else x
        s = sort_of(_out(info))
        return z3.fpToFP(z3.RNE(), x, s) if signed else z3.fpToFPUnsigned(z3.RNE(), x, s)

    return term


def _fptoi(signed: bool) -> Z3Term:
    """Truncated toward zero; defined only where the cast rule does not hold (NaN, infinity, out of range)."""

    def term(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
        (a,) = _operands(t, info)
        sort = z3.BitVecSort(width_of(_out(info)))
        return z3.fpToSBV(z3.RTZ(), a, sort) if signed else z3.fpToUBV(z3.RTZ(), a, sort)

    return term


def _convert(t: Sequence[z3.ExprRef], info: ScalarInfo) -> z3.ExprRef:
    """extf (exact) and truncf (rounded once, in its ``roundingmode``)."""
    (a,) = _operands(t, info)
    return z3.fpToFP(RM[rounding_mode(dict(info.attrs))](), a, sort_of(_out(info)))


def _integral(rm: Callable[[], z3.FPRMRef]) -> Z3Term:
    return _fp(lambda a: z3.fpRoundToIntegral(rm(), a))


def _table() -> dict[str, FloatOp]:
    ops = [
        FloatOp("arith.addf", 2, _fp(lambda a, b: z3.fpAdd(z3.RNE(), a, b)), REAL),
        FloatOp("arith.subf", 2, _fp(lambda a, b: z3.fpSub(z3.RNE(), a, b)), REAL),
        FloatOp("arith.mulf", 2, _fp(lambda a, b: z3.fpMul(z3.RNE(), a, b)), REAL),
        FloatOp("arith.divf", 2, _fp(lambda a, b: z3.fpDiv(z3.RNE(), a, b)), REAL),
        FloatOp("arith.remf", 2, _fmod, REAL),
        FloatOp("arith.negf", 1, _fp(z3.fpNeg), BITS),
        FloatOp("math.absf", 1, _fp(z3.fpAbs), BITS),
        FloatOp("math.copysign", 2, _copysign, BITS),
        FloatOp("math.sqrt", 1, _fp(lambda a: z3.fpSqrt(z3.RNE(), a)), LIBM),
        FloatOp("math.fma", 3, _fp(lambda a, b, c: z3.fpFMA(z3.RNE(), a, b, c)), REAL),
        FloatOp("math.floor", 1, _integral(z3.RTN), LIBM),
        FloatOp("math.ceil", 1, _integral(z3.RTP), LIBM),
        FloatOp("math.trunc", 1, _integral(z3.RTZ), LIBM),
        FloatOp("math.round", 1, _integral(z3.RNA), LIBM),
        FloatOp("math.roundeven", 1, _integral(z3.RNE), LIBM),
        FloatOp("arith.maximumf", 2, _minmax(True, False), BITS),
        FloatOp("arith.minimumf", 2, _minmax(False, False), BITS),
        FloatOp("arith.maxf", 2, _minmax(True, False), BITS),
        FloatOp("arith.minf", 2, _minmax(False, False), BITS),
        FloatOp("arith.maxnumf", 2, _minmax(True, True), BITS),
        FloatOp("arith.minnumf", 2, _minmax(False, True), BITS),
        FloatOp("arith.cmpf", 2, _cmpf, BITS, result="bool"),
        FloatOp("math.isnan", 1, _fp(z3.fpIsNaN), BITS, result="bool"),
        FloatOp("math.isinf", 1, _fp(z3.fpIsInf), BITS, result="bool"),
        FloatOp("math.isfinite", 1, _fp(lambda a: z3.Not(z3.Or(z3.fpIsNaN(a), z3.fpIsInf(a)))), BITS,
                result="bool"),
        FloatOp("arith.sitofp", 1, _itofp(True), CONVERT),
        FloatOp("arith.uitofp", 1, _itofp(False), CONVERT),
        FloatOp("arith.fptosi", 1, _fptoi(True), CONVERT, result="int"),
        FloatOp("arith.fptoui", 1, _fptoi(False), CONVERT, result="int"),
        FloatOp("arith.extf", 1, _convert, CONVERT),
        FloatOp("arith.truncf", 1, _convert, CONVERT),
        FloatOp("math.fpowi", 2, None, LIBM),
    ]
    described = {o.name for o in ops}
    # the rest of libm (exp, log, sin, ..., powf, atan2): no SMT-LIB function computes them exactly
    ops += [FloatOp(n, 1, None, LIBM) for n in UNARY_FLOAT if n not in described]
    ops += [FloatOp(n, 2, None, LIBM) for n in BINARY_FLOAT if n not in described]
    ops += [FloatOp(n, 1, None, BITS, result="bool") for n in FLOAT_CLASS if n not in described]
    return {o.name: o for o in ops}


FLOAT_OPS: dict[str, FloatOp] = _table()


def float_op(name: str) -> Optional[FloatOp]:
    """The descriptor of a float op, None for any other op."""
    return FLOAT_OPS.get(name)


__all__ = ["BITS", "CONVERT", "FLOAT_OPS", "FloatOp", "LIBM", "REAL", "as_fp", "float_op", "sort_of"]
