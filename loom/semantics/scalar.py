"""Bit-exact semantics of every arith/math/ub scalar op, shared by the interpreter and the simulator.

Value representation (binding for every consumer):

* integers (``iN``, ``siN``, ``uiN``, ``index`` = 64 bits): a Python int holding the
  UNSIGNED bit pattern, masked to the width; ``i1`` is 0 or 1;
* floats (``bf16``, ``f16``, ``f32``, ``f64``): a Python float whose value is exactly
  representable in the type. Every op computes its exact (or f64) result and rounds
  it ONCE to the result type, round-to-nearest-even, overflowing to +-inf. bf16 is
  rounded from the exact value, never by truncating f32 bits;
* ``!dataflow.tagged<V, T>``: one packed int, V's bit pattern in the low bits and the
  tag in the high bits (``pack_tagged``/``unpack_tagged``).

Where MLIR leaves a result undefined (poison/UB) the value functions here fix one
answer, the one the RTL computes; the SCF interpreter and the token simulator stop
before it with the matching runtime error (``loom.semantics.undefined``, the rules
the safety obligations prove never apply):

* shifts by an amount >= the width: ``shli``/``shrui`` give 0, ``shrsi`` gives the sign fill;
* ``divsi``/``remsi``/``ceildivsi``/``floordivsi`` of INT_MIN by -1 wrap (quotient INT_MIN,
  remainder 0); integer division or remainder by zero raises
  ``SimulationError`` with code ``RT_ARITH_DIV_BY_ZERO``;
* ``fptosi``/``fptoui`` truncate toward zero and SATURATE to the result range
  (NaN -> 0, negative -> 0 for ``fptoui``), like LLVM's ``fpto*i.sat``;
* ``ub.poison`` is 0 (0.0 for floats);
* ``math.fma`` is fused: computed exactly (``fractions.Fraction``) and rounded once;
* NaNs through ``addf``/``subf``/``mulf``/``divf``/``fma``: a NaN operand gives the first NaN operand (quiet, sign
  kept); an invalid operation on non-NaN operands (inf - inf, 0 * inf, 0 / 0, inf / inf) gives the positive quiet
  NaN. IEEE 754 leaves both open, and Python's answer varies with how CPython was compiled and even with its
  bytecode specialization (``a * b`` of two NaNs can return either), so the semantics fixes them;
* transcendental math ops (exp, log, sin, pow, ...) are computed with Python's f64
  ``math`` functions (IEEE special cases applied, no exceptions) and rounded once
  to the result type; for f32 and narrower this matches a correctly rounded
  library except in rare double-rounding cases, for f64 it is the host libm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Mapping, Optional, Sequence, Union

from loom.diagnostics import SimulationError
from loom.ir.attributes import Attribute, BoolAttr, FloatAttr, IntegerAttr
from loom.ir.location import Location
from loom.ir.types import FloatType, IntegerType, TaggedType, Type
from loom.semantics.layout import (  # noqa: F401 - re-exported: the value layout every consumer of this module reads
    FLOAT_FORMATS,
    FloatFormat,
    bits_to_float,
    float_format,
    float_to_bits,
    from_bits,
    is_int_type,
    mask,
    to_bits,
    to_signed,
    width_of,
)
from loom.semantics.predicates import CMPF_PREDICATES, CMPI_PREDICATES, ROUNDING_MODES, predicate_name

Exact = Union[float, int, Fraction]
ScalarFn = Callable[[Sequence[Any]], list]

DIV_BY_ZERO = "RT_ARITH_DIV_BY_ZERO"
UNSUPPORTED_OP = "RT_UNSUPPORTED_OP"

# The value layout (widths, masks, float formats and encodings) is loom.semantics.layout's, re-exported here;
# the integer ops' Z3 terms, SV expressions and UB rules sit beside these Python evaluations in loom.semantics.ops.


# ----------------------------------------------------------------------------- floats


def _floor_log2(q: Fraction) -> int:
    e = q.numerator.bit_length() - q.denominator.bit_length()
    return e - 1 if Fraction(2) ** e > q else e


# arith.truncf's ``roundingmode``: ROUNDING_MODES (loom.semantics.predicates)


def _magnitude_rounding(mode: str, negative: bool) -> str:
    """How a rounding mode rounds the magnitude of a value of the given sign: even, away (ties away from
    zero), up (to the next representable magnitude) or down (truncate)."""
    if mode == "to_nearest_even":
        return "even"
    if mode == "to_nearest_away":
        return "away"
    if mode == "toward_zero":
        return "down"
    return "up" if (mode == "upward") != negative else "down"


def _round_positive(x: Exact, fmt: FloatFormat, how: str = "even") -> float:
    """Round an exact, positive, finite value to ``fmt`` (``how``: see ``_magnitude_rounding``), overflowing to
    inf, or to the largest finite value when rounding down."""
    if isinstance(x, float):
        exponent = math.frexp(x)[1] - 1
        qexp = max(exponent, fmt.emin) - fmt.precision + 1
        scaled: Union[float, Fraction] = math.ldexp(x, -qexp)  # exact scaling
    else:
        q = Fraction(x)
        qexp = max(_floor_log2(q), fmt.emin) - fmt.precision + 1
        scaled = q / (1 << qexp) if qexp >= 0 else q * (1 << -qexp)
    if how == "even":
        n = round(scaled)  # half-to-even
    elif how == "away":
        n = math.floor(scaled + (0.5 if isinstance(scaled, float) else Fraction(1, 2)))  # exact: scaled < 2^54
    else:
        n = math.ceil(scaled) if how == "up" else math.floor(scaled)
    if n == 0:
        return 0.0
    if n.bit_length() - 1 + qexp > fmt.emax:
        return math.ldexp((1 << fmt.precision) - 1, fmt.emax - fmt.precision + 1) if how == "down" else math.inf
    return math.ldexp(n, qexp)


def round_to_format(x: Exact, fmt: FloatFormat, mode: str = "to_nearest_even") -> float:
    """Round an exact value (float, int or Fraction) to ``fmt`` in rounding ``mode`` (``ROUNDING_MODES``)."""
    if isinstance(x, float):
        if fmt.precision == 53 or x != x or x == 0.0 or x in (math.inf, -math.inf):
            return x
        r = _round_positive(-x if x < 0 else x, fmt, _magnitude_rounding(mode, x < 0))
        return -r if x < 0 else r
    if isinstance(x, int) and -(1 << 53) <= x <= (1 << 53):
        return round_to_format(float(x), fmt, mode)
    if x == 0:
        return 0.0
    r = _round_positive(-x if x < 0 else x, fmt, _magnitude_rounding(mode, x < 0))
    return -r if x < 0 else r


def round_float(x: Exact, t: Type) -> float:
    """Round ``x`` to the float type ``t`` (RNE, overflow to +-inf, NaN and -0.0 kept)."""
    return round_to_format(x, float_format(t))


# ----------------------------------------------------------------------------- generic values


def zero_value(t: Type) -> Any:
    """The zero of a scalar type (0.0 for floats, 0 otherwise)."""
    return 0.0 if isinstance(t, FloatType) else 0


def normalize(value: Any, t: Type) -> Any:
    """Bring a Python number into the runtime representation of ``t`` (wrap ints, round floats)."""
    if isinstance(t, FloatType):
        return round_float(value if isinstance(value, (int, Fraction)) and not isinstance(value, bool)
                           else float(value), t)
    if isinstance(t, TaggedType):
        return mask(int(value), width_of(t))
    return mask(int(value), width_of(t))


# to_bits, from_bits: loom.semantics.layout


def pack_tagged(value: Any, tag: int, t: TaggedType) -> int:
    """Pack a (value, tag) pair of ``t`` into one int: value bits low, tag bits high."""
    vw = width_of(t.value)
    return to_bits(value, t.value) | (mask(tag, width_of(t.tag)) << vw)


def unpack_tagged(packed: int, t: TaggedType) -> tuple[Any, int]:
    """The (value, tag) pair packed in ``packed``."""
    vw = width_of(t.value)
    return from_bits(mask(packed, vw), t.value), mask(packed >> vw, width_of(t.tag))


def to_py_number(value: Any, t: Type) -> Union[int, float]:
    """The mathematical value a runtime value denotes (signed for signless/signed ints)."""
    if isinstance(t, FloatType):
        return value
    if isinstance(t, IntegerType) and t.signedness == "u":
        return value
    return to_signed(value, width_of(t))


# ----------------------------------------------------------------------------- IEEE helpers


_INF = math.inf
_NAN = math.nan


def _isnan(x: float) -> bool:
    return x != x


def _nan_rule(f: Callable[..., float]) -> Callable[..., float]:
    """``f`` with the semantics' NaN rule (module docstring): the first NaN operand, else an invalid operation's
    NaN is the positive quiet NaN."""

    def g(*xs: float) -> float:
        for x in xs:
            if x != x:
                return x
        r = f(*xs)
        return _NAN if r != r else r

    return g


@_nan_rule
def _div(a: float, b: float) -> float:
    if b == 0.0:
        if a == 0.0:
            return _NAN
        neg = (math.copysign(1.0, a) < 0) != (math.copysign(1.0, b) < 0)
        return -_INF if neg else _INF
    return a / b


def _fmod(a: float, b: float) -> float:
    if a != a or b != b or b == 0.0 or a in (_INF, -_INF):
        return _NAN
    if b in (_INF, -_INF):
        return a
    return math.fmod(a, b)


def _maximum(a: float, b: float) -> float:
    if a != a or b != b:
        return _NAN
    if a == b == 0.0:
        return b if math.copysign(1.0, a) < 0 else a
    return a if a > b else b


def _minimum(a: float, b: float) -> float:
    if a != a or b != b:
        return _NAN
    if a == b == 0.0:
        return a if math.copysign(1.0, a) < 0 else b
    return a if a < b else b


def _maxnum(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return _maximum(a, b)


def _minnum(a: float, b: float) -> float:
    if a != a:
        return b
    if b != b:
        return a
    return _minimum(a, b)


def _is_odd_integer(y: float) -> bool:
    return math.isfinite(y) and y == math.floor(y) and abs(y) < 2**53 and int(y) % 2 == 1


def _pow(x: float, y: float) -> float:
    try:
        return math.pow(x, y)
    except ValueError:
        if x == 0.0 and y < 0:
            return math.copysign(_INF, x) if _is_odd_integer(y) else _INF
        return _NAN
    except OverflowError:
        return -_INF if x < 0 and _is_odd_integer(y) else _INF


def _fma_exact(a: float, b: float, c: float) -> Exact:
    """a*b+c exactly (a Fraction), or the IEEE special result as a float."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return _nan_rule(lambda x, y, z: x * y + z)(a, b, c)  # inf/nan rules are the same fused and unfused
    if a == 0.0 or b == 0.0:
        return a * b + c  # exact (signed zero product), keeps IEEE signed-zero rules
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    return exact if exact != 0 else 0.0


def _safe1(f: Callable[[float], float], domain: Callable[[float], float] = lambda x: _NAN,
           overflow: Callable[[float], float] = lambda x: _INF) -> Callable[[float], float]:
    """Wrap a ``math`` function so domain errors and overflow give IEEE results."""

    def g(x: float) -> float:
        if x != x:
            return x
        try:
            return f(x)
        except ValueError:
            return domain(x)
        except OverflowError:
            return overflow(x)

    return g


def _log_domain(x: float) -> float:
    return -_INF if x == 0.0 else _NAN


def _round_half_away(x: float) -> float:
    if not math.isfinite(x):
        return x
    t = math.trunc(x)
    if abs(x - t) >= 0.5:
        t += 1 if x > 0 else -1
    return math.copysign(float(t), x)


def _int_valued(f: Callable[[float], int]) -> Callable[[float], float]:
    def g(x: float) -> float:
        if not math.isfinite(x):
            return x
        return math.copysign(float(f(x)), x)

    return g


def _rsqrt(x: float) -> float:
    if x != x or x < 0:
        return _NAN
    if x == 0.0:
        return math.copysign(_INF, x)
    return 1.0 / math.sqrt(x)


def _exp2(x: float) -> float:
    try:
        return 2.0 ** x
    except OverflowError:
        return _INF


UNARY_FLOAT: dict[str, Callable[[float], float]] = {
    "math.sqrt": _safe1(math.sqrt),
    "math.rsqrt": _rsqrt,
    "math.cbrt": _safe1(math.cbrt),
    "math.exp": _safe1(math.exp),
    "math.exp2": _safe1(_exp2),
    "math.expm1": _safe1(math.expm1),
    "math.log": _safe1(math.log, _log_domain),
    "math.log2": _safe1(math.log2, _log_domain),
    "math.log10": _safe1(math.log10, _log_domain),
    "math.log1p": _safe1(math.log1p, lambda x: -_INF if x == -1.0 else _NAN),
    "math.sin": _safe1(math.sin),
    "math.cos": _safe1(math.cos),
    "math.tan": _safe1(math.tan),
    "math.asin": _safe1(math.asin),
    "math.acos": _safe1(math.acos),
    "math.atan": _safe1(math.atan),
    "math.sinh": _safe1(math.sinh, overflow=lambda x: math.copysign(_INF, x)),
    "math.cosh": _safe1(math.cosh),
    "math.tanh": _safe1(math.tanh),
    "math.asinh": _safe1(math.asinh),
    "math.acosh": _safe1(math.acosh),
    "math.atanh": _safe1(math.atanh, lambda x: math.copysign(_INF, x) if abs(x) == 1.0 else _NAN),
    "math.erf": _safe1(math.erf),
    "math.erfc": _safe1(math.erfc),
    "math.absf": abs,
    "math.floor": _int_valued(math.floor),
    "math.ceil": _int_valued(math.ceil),
    "math.trunc": _int_valued(math.trunc),
    "math.round": _round_half_away,
    "math.roundeven": _int_valued(round),
    "arith.negf": lambda x: -x,
}

BINARY_FLOAT: dict[str, Callable[[float, float], float]] = {
    "arith.addf": _nan_rule(lambda a, b: a + b),
    "arith.subf": _nan_rule(lambda a, b: a - b),
    "arith.mulf": _nan_rule(lambda a, b: a * b),
    "arith.divf": _div,
    "arith.remf": _fmod,
    "arith.maximumf": _maximum,
    "arith.minimumf": _minimum,
    "arith.maxf": _maximum,  # pre-2023 MLIR spelling
    "arith.minf": _minimum,
    "arith.maxnumf": _maxnum,
    "arith.minnumf": _minnum,
    "math.powf": _pow,
    "math.atan2": lambda a, b: math.atan2(a, b) if a == a and b == b else _NAN,
    "math.copysign": math.copysign,
}

FLOAT_CLASS: dict[str, Callable[[float], bool]] = {
    "math.isnan": _isnan,
    "math.isinf": lambda x: x in (_INF, -_INF),
    "math.isfinite": math.isfinite,
}


# ----------------------------------------------------------------------------- op table


@dataclass(frozen=True)
class OpSig:
    """What an op's semantics may depend on: its name, attributes and types."""

    name: str
    attrs: dict
    operand_types: tuple
    result_types: tuple
    loc: Optional[Location]

    def fail(self, message: str, code: str = UNSUPPORTED_OP) -> SimulationError:
        return SimulationError(f"{self.name}: {message}", self.loc, code)

    def int_width(self, t: Type) -> int:
        if not is_int_type(t):
            raise self.fail(f"expected an integer or index type, got {t}")
        return width_of(t)

    def float_type(self, t: Type) -> Type:
        if not isinstance(t, FloatType) or t.name not in FLOAT_FORMATS:
            raise self.fail(f"expected a float type, got {t}")
        return t


_BUILDERS: dict[str, Callable[[OpSig], ScalarFn]] = {}


def _builder(*names: str):
    def deco(f: Callable[[OpSig], ScalarFn]) -> Callable[[OpSig], ScalarFn]:
        for n in names:
            _BUILDERS[n] = f
        return f

    return deco


def _div_zero(sig: OpSig) -> SimulationError:
    return sig.fail("integer division by zero", DIV_BY_ZERO)


_INT_BINARY: dict[str, Callable[[int, int, int, OpSig], int]] = {}


def _int_binary(name: str):
    def deco(f: Callable[[int, int, int, OpSig], int]):
        _INT_BINARY[name] = f
        return f

    return deco


def _sdiv_trunc(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


@_int_binary("arith.divsi")
def _divsi(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return _sdiv_trunc(to_signed(a, w), to_signed(b, w))


@_int_binary("arith.divui")
def _divui(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return a // b


@_int_binary("arith.remsi")
def _remsi(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    sa, sb = to_signed(a, w), to_signed(b, w)
    return sa - sb * _sdiv_trunc(sa, sb)


@_int_binary("arith.remui")
def _remui(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return a % b


@_int_binary("arith.ceildivsi")
def _ceildivsi(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return -((-to_signed(a, w)) // to_signed(b, w))


@_int_binary("arith.ceildivui")
def _ceildivui(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return -((-a) // b)


@_int_binary("arith.floordivsi")
def _floordivsi(a: int, b: int, w: int, sig: OpSig) -> int:
    if b == 0:
        raise _div_zero(sig)
    return to_signed(a, w) // to_signed(b, w)


@_int_binary("arith.shli")
def _shli(a: int, b: int, w: int, sig: OpSig) -> int:
    return a << b if b < w else 0


@_int_binary("arith.shrui")
def _shrui(a: int, b: int, w: int, sig: OpSig) -> int:
    return a >> b if b < w else 0


@_int_binary("arith.shrsi")
def _shrsi(a: int, b: int, w: int, sig: OpSig) -> int:
    return to_signed(a, w) >> min(b, w)


@_int_binary("arith.maxsi")
def _maxsi(a: int, b: int, w: int, sig: OpSig) -> int:
    return a if to_signed(a, w) >= to_signed(b, w) else b


@_int_binary("arith.minsi")
def _minsi(a: int, b: int, w: int, sig: OpSig) -> int:
    return a if to_signed(a, w) <= to_signed(b, w) else b


@_int_binary("math.ipowi")
def _ipowi(a: int, b: int, w: int, sig: OpSig) -> int:
    base, exp = to_signed(a, w), to_signed(b, w)
    if exp >= 0:
        return pow(base, exp, 1 << w)
    if base == 0:
        raise _div_zero(sig)
    if base == 1:
        return 1
    if base == -1:
        return -1 if exp % 2 else 1
    return 0


_INT_BINARY.update({
    "arith.addi": lambda a, b, w, s: a + b,
    "arith.subi": lambda a, b, w, s: a - b,
    "arith.muli": lambda a, b, w, s: a * b,
    "arith.andi": lambda a, b, w, s: a & b,
    "arith.ori": lambda a, b, w, s: a | b,
    "arith.xori": lambda a, b, w, s: a ^ b,
    "arith.maxui": lambda a, b, w, s: a if a >= b else b,
    "arith.minui": lambda a, b, w, s: a if a <= b else b,
})


def _make_int_binary(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    m = (1 << w) - 1
    name = sig.name
    # The hottest ops get closures without the generic call.
    if name == "arith.addi":
        return lambda v: [(v[0] + v[1]) & m]
    if name == "arith.subi":
        return lambda v: [(v[0] - v[1]) & m]
    if name == "arith.muli":
        return lambda v: [(v[0] * v[1]) & m]
    if name == "arith.andi":
        return lambda v: [v[0] & v[1]]
    if name == "arith.ori":
        return lambda v: [v[0] | v[1]]
    if name == "arith.xori":
        return lambda v: [v[0] ^ v[1]]
    f = _INT_BINARY[name]
    return lambda v: [f(v[0], v[1], w, sig) & m]


for _name in list(_INT_BINARY):
    _BUILDERS[_name] = _make_int_binary


@_builder("arith.cmpi")
def _make_cmpi(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.operand_types[0])
    pred = _predicate(sig, CMPI_PREDICATES)
    half = 1 << (w - 1) if w else 0
    # Signed order is unsigned order after flipping the sign bit.
    tests: dict[str, Callable[[int, int], bool]] = {
        "eq": lambda a, b: a == b,
        "ne": lambda a, b: a != b,
        "slt": lambda a, b: (a ^ half) < (b ^ half),
        "sle": lambda a, b: (a ^ half) <= (b ^ half),
        "sgt": lambda a, b: (a ^ half) > (b ^ half),
        "sge": lambda a, b: (a ^ half) >= (b ^ half),
        "ult": lambda a, b: a < b,
        "ule": lambda a, b: a <= b,
        "ugt": lambda a, b: a > b,
        "uge": lambda a, b: a >= b,
    }
    t = tests[pred]
    return lambda v: [1 if t(v[0], v[1]) else 0]


@_builder("arith.cmpf")
def _make_cmpf(sig: OpSig) -> ScalarFn:
    sig.float_type(sig.operand_types[0])
    pred = _predicate(sig, CMPF_PREDICATES)
    base: dict[str, Callable[[float, float], bool]] = {
        "eq": lambda a, b: a == b,
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
        "ne": lambda a, b: a != b,
    }
    if pred == "false":
        return lambda v: [0]
    if pred == "true":
        return lambda v: [1]
    if pred == "ord":
        return lambda v: [0 if v[0] != v[0] or v[1] != v[1] else 1]
    if pred == "uno":
        return lambda v: [1 if v[0] != v[0] or v[1] != v[1] else 0]
    t = base[pred[1:]]
    if pred[0] == "o":
        return lambda v: [1 if (v[0] == v[0] and v[1] == v[1] and t(v[0], v[1])) else 0]
    return lambda v: [1 if (v[0] != v[0] or v[1] != v[1] or t(v[0], v[1])) else 0]


def _predicate(sig: OpSig, names: tuple[str, ...]) -> str:
    p = predicate_name(sig.attrs, names)
    if p is None:
        raise sig.fail(f"missing or invalid 'predicate' attribute ({sig.attrs.get('predicate')})")
    return p


@_builder("arith.select")
def _make_select(sig: OpSig) -> ScalarFn:
    return lambda v: [v[1] if v[0] else v[2]]


@_builder(*BINARY_FLOAT)
def _make_float_binary(sig: OpSig) -> ScalarFn:
    fmt = float_format(sig.float_type(sig.result_types[0]))
    f = BINARY_FLOAT[sig.name]
    if fmt.precision == 53:
        return lambda v: [f(v[0], v[1])]
    return lambda v: [round_to_format(f(v[0], v[1]), fmt)]


@_builder(*UNARY_FLOAT)
def _make_float_unary(sig: OpSig) -> ScalarFn:
    fmt = float_format(sig.float_type(sig.result_types[0]))
    f = UNARY_FLOAT[sig.name]
    return lambda v: [round_to_format(f(v[0]), fmt)]


@_builder(*FLOAT_CLASS)
def _make_float_class(sig: OpSig) -> ScalarFn:
    f = FLOAT_CLASS[sig.name]
    return lambda v: [1 if f(v[0]) else 0]


@_builder("math.fma")
def _make_fma(sig: OpSig) -> ScalarFn:
    fmt = float_format(sig.float_type(sig.result_types[0]))
    return lambda v: [round_to_format(_fma_exact(v[0], v[1], v[2]), fmt)]


@_builder("math.fpowi")
def _make_fpowi(sig: OpSig) -> ScalarFn:
    fmt = float_format(sig.float_type(sig.result_types[0]))
    w = sig.int_width(sig.operand_types[1])
    return lambda v: [round_to_format(_pow(v[0], float(to_signed(v[1], w))), fmt)]


@_builder("math.absi")
def _make_absi(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    return lambda v: [mask(abs(to_signed(v[0], w)), w)]


@_builder("math.ctpop")
def _make_ctpop(sig: OpSig) -> ScalarFn:
    return lambda v: [bin(v[0]).count("1")]


@_builder("math.ctlz")
def _make_ctlz(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    return lambda v: [w - v[0].bit_length()]


@_builder("math.cttz")
def _make_cttz(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    return lambda v: [w if v[0] == 0 else (v[0] & -v[0]).bit_length() - 1]


@_builder("arith.addui_extended")
def _make_addui_extended(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    return lambda v: [mask(v[0] + v[1], w), (v[0] + v[1]) >> w]


@_builder("arith.mului_extended", "arith.mulsi_extended")
def _make_mul_extended(sig: OpSig) -> ScalarFn:
    w = sig.int_width(sig.result_types[0])
    conv = (lambda x: to_signed(x, w)) if sig.name == "arith.mulsi_extended" else (lambda x: x)

    def f(v: Sequence[int]) -> list:
        p = conv(v[0]) * conv(v[1])
        return [mask(p, w), mask(p >> w, w)]

    return f


# ----------------------------------------------------------------------------- casts


@_builder("arith.extsi", "arith.index_cast")
def _make_sext(sig: OpSig) -> ScalarFn:
    wi, wo = sig.int_width(sig.operand_types[0]), sig.int_width(sig.result_types[0])
    return lambda v: [mask(to_signed(v[0], wi), wo)]


@_builder("arith.extui", "arith.trunci", "arith.index_castui")
def _make_zext(sig: OpSig) -> ScalarFn:
    sig.int_width(sig.operand_types[0])
    m = (1 << sig.int_width(sig.result_types[0])) - 1
    return lambda v: [v[0] & m]


@_builder("arith.extf", "arith.truncf")
def _make_fconv(sig: OpSig) -> ScalarFn:
    sig.float_type(sig.operand_types[0])
    fmt = float_format(sig.float_type(sig.result_types[0]))
    mode = rounding_mode(sig.attrs, sig)
    return lambda v: [round_to_format(v[0], fmt, mode)]


def rounding_mode(attrs: Mapping[str, Any], sig: Optional["OpSig"] = None) -> str:
    """The ``roundingmode`` of an arith.truncf (``ROUNDING_MODES``; to_nearest_even when absent); a value outside
    the enum is an unsupported op (raised through ``sig`` when given, else ValueError)."""
    a = attrs.get("roundingmode")
    if a is None:
        return ROUNDING_MODES[0]
    if isinstance(a, IntegerAttr) and 0 <= a.value < len(ROUNDING_MODES):
        return ROUNDING_MODES[a.value]
    if sig is not None:
        raise sig.fail(f"unknown roundingmode {a}")
    raise ValueError(f"unknown roundingmode {a}")


@_builder("arith.sitofp", "arith.uitofp")
def _make_itofp(sig: OpSig) -> ScalarFn:
    wi = sig.int_width(sig.operand_types[0])
    fmt = float_format(sig.float_type(sig.result_types[0]))
    if sig.name == "arith.sitofp":
        return lambda v: [round_to_format(to_signed(v[0], wi), fmt)]
    return lambda v: [round_to_format(v[0], fmt)]


@_builder("arith.fptosi", "arith.fptoui")
def _make_fptoi(sig: OpSig) -> ScalarFn:
    sig.float_type(sig.operand_types[0])
    wo = sig.int_width(sig.result_types[0])
    lo, hi = (-(1 << (wo - 1)), (1 << (wo - 1)) - 1) if sig.name == "arith.fptosi" else (0, (1 << wo) - 1)

    def f(v: Sequence[float]) -> list:
        x = v[0]
        if x != x:
            return [0]
        if x == _INF:
            return [mask(hi, wo)]
        if x == -_INF:
            return [mask(lo, wo)]
        return [mask(min(max(math.trunc(x), lo), hi), wo)]

    return f


@_builder("arith.bitcast")
def _make_bitcast(sig: OpSig) -> ScalarFn:
    ti, to = sig.operand_types[0], sig.result_types[0]
    try:
        same = width_of(ti) == width_of(to)
    except ValueError:
        same = False
    if not same:
        raise sig.fail(f"bitcast between types of different widths ({ti} -> {to})")
    return lambda v: [from_bits(to_bits(v[0], ti), to)]


# ----------------------------------------------------------------------------- constants


@_builder("arith.constant")
def _make_constant(sig: OpSig) -> ScalarFn:
    t = sig.result_types[0]
    a = sig.attrs.get("value")
    if isinstance(a, BoolAttr) and is_int_type(t):
        value: Any = 1 if a.value else 0
    elif isinstance(a, IntegerAttr) and is_int_type(t):
        value = mask(a.value, width_of(t))
    elif isinstance(a, FloatAttr) and isinstance(t, FloatType):
        value = round_float(a.value, sig.float_type(t))
    elif isinstance(a, IntegerAttr) and isinstance(t, FloatType):
        value = bits_to_float(a.value, sig.float_type(t))
    else:
        raise sig.fail(f"unsupported constant value {a} for type {t}")
    return lambda v: [value]


@_builder("ub.poison")
def _make_poison(sig: OpSig) -> ScalarFn:
    value = zero_value(sig.result_types[0])
    return lambda v: [value]


# ----------------------------------------------------------------------------- entry points


SCALAR_OPS: frozenset[str] = frozenset(_BUILDERS)


def is_scalar_op(op_name: str) -> bool:
    """True when ``op_name`` is an arith/math/ub op this module evaluates."""
    return op_name in _BUILDERS


def scalar_fn(op_name: str, attrs: dict[str, Attribute], operand_types: Sequence[Type],
              result_types: Sequence[Type], loc: Optional[Location] = None) -> ScalarFn:
    """Specialise an op once (types and attributes fixed): ``fn(values) -> results``.

    Build errors (unknown op, bad attribute) and runtime errors (division by zero)
    raise ``SimulationError`` located at ``loc``.
    """
    sig = OpSig(op_name, dict(attrs), tuple(operand_types), tuple(result_types), loc)
    builder = _BUILDERS.get(op_name)
    if builder is None:
        raise sig.fail("operation not supported by the scalar semantics")
    if not sig.result_types:
        raise sig.fail("expected at least one result")
    try:
        return builder(sig)
    except (ValueError, IndexError) as e:  # malformed types, missing operand types
        raise sig.fail(str(e)) from None


def eval_scalar(op_name: str, attrs: dict[str, Attribute], operand_types: Sequence[Type],
                result_types: Sequence[Type], values: Sequence[Any], loc: Optional[Location] = None) -> list:
    """Evaluate one arith/math/ub op on runtime values; returns the list of results."""
    return scalar_fn(op_name, attrs, operand_types, result_types, loc)(values)
