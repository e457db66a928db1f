"""Number conversions shared by the parser and the printer.

Floats are stored as Python floats already rounded to their type's precision, so a
value prints and re-parses to the same bits; NaN/inf print as hex bit patterns.
Integer literals are range-checked against their type's width.
"""

from __future__ import annotations

import math
import struct

from loom.ir.types import FloatType, IndexType, IntegerType, Type


def float_to_bits(value: float, t: FloatType) -> int:
    """The IEEE bit pattern of ``value`` at the width of ``t``."""
    if t.name == "f64":
        return struct.unpack("<Q", struct.pack("<d", value))[0]
    if t.name == "f32":
        return struct.unpack("<I", struct.pack("<f", _clamp32(value)))[0]
    if t.name == "f16":
        return struct.unpack("<H", struct.pack("<e", _clamp16(value)))[0]
    return _bf16_bits(value)


def bits_to_float(bits: int, t: FloatType) -> float:
    """The value whose IEEE bit pattern at the width of ``t`` is ``bits``."""
    if t.name == "f64":
        return struct.unpack("<d", struct.pack("<Q", bits & (2**64 - 1)))[0]
    if t.name == "f32":
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    if t.name == "f16":
        return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]
    return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]


def round_float(value: float, t: Type | None) -> float:
    """``value`` rounded to the precision of float type ``t`` (f64 or untyped: unchanged)."""
    if not isinstance(t, FloatType) or t.name == "f64" or math.isnan(value):
        return value
    return bits_to_float(float_to_bits(value, t), t)


def round_decimal(value: int | float, t: FloatType) -> float | None:
    """A decimal literal's value at ``t``'s precision, or None when it rounds to infinity there.

    A decimal literal is always finite, so infinity means it is out of ``t``'s range;
    only hex bit patterns spell inf. (mlir-opt rejects a literal beyond f64's range,
    "floating point value too large", and rounds one beyond a narrower type's to inf.)
    """
    try:
        rounded = round_float(float(value), t)
    except OverflowError:  # an integer literal beyond the range of a double
        return None
    return None if math.isinf(rounded) else rounded


def _clamp32(value: float) -> float:
    if math.isfinite(value) and abs(value) >= 3.4028235677973366e38:  # rounds to inf
        return math.copysign(math.inf, value)
    return value


def _clamp16(value: float) -> float:
    if math.isfinite(value) and abs(value) >= 65520.0:
        return math.copysign(math.inf, value)
    return value


def _bf16_bits(value: float) -> int:
    bits = struct.unpack("<I", struct.pack("<f", _clamp32(value)))[0]
    if math.isnan(value):
        return (bits >> 16) | 0x40
    rounding = 0x7FFF + ((bits >> 16) & 1)  # round to nearest even
    return ((bits + rounding) >> 16) & 0xFFFF


def format_float(value: float, t: Type | None) -> str:
    """Shortest MLIR float literal that re-parses to ``value`` at ``t``'s precision.

    Non-finite values print as the hex bit pattern of the type (f64 when untyped).
    """
    if not math.isfinite(value):
        ft = t if isinstance(t, FloatType) else FloatType("f64")
        digits = ft.width // 4
        return f"0x{float_to_bits(value, ft):0{digits}X}"
    for precision in range(1, 18):
        text = f"{value:.{precision - 1}e}"
        if round_float(float(text), t) == value:
            break
    else:  # pragma: no cover - %.17e always round-trips a double
        text = f"{value:.17e}"
    mantissa, exponent = text.split("e")
    if "." not in mantissa:
        mantissa += ".0"
    exp = int(exponent)
    if -5 <= exp <= 15:
        # plain decimal form when it is short and exact
        plain = repr(float(text))
        if "e" not in plain and "inf" not in plain:
            return plain
    return f"{mantissa}e{'+' if exp >= 0 else '-'}{abs(exp):02d}"


def int_range(t: Type) -> tuple[int, int] | None:
    """Accepted literal range for integer type ``t`` (signless accepts both readings)."""
    if isinstance(t, IndexType):
        return -(2**63), 2**64 - 1
    if isinstance(t, IntegerType):
        w = t.width
        if t.signedness == "s":
            return -(2 ** (w - 1)), 2 ** (w - 1) - 1
        if t.signedness == "u":
            return 0, 2**w - 1
        return -(2 ** (w - 1)) if w > 1 else -1, 2**w - 1
    return None
