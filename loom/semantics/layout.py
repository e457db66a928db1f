"""How runtime values are laid out in bits: the float formats, the widths, the tuple bus. Every engine reads these.

Two widths, on purpose, and only these two:

* ``width_of(t)`` -- the **value layout** of the scalar semantics: the bits a runtime value of ``t`` carries
  (``iN`` N, ``index`` 64, a float its IEEE width, a tagged word value + tag, ``none`` **0**: a token carries no
  data). Masking, sign conversion, bitcasts and the tagged packing use it.
* ``bus_width(t)`` -- the width of the **bit-vector that carries** a value of ``t`` in the Z3 model and on an RTL
  data bus: ``width_of(t)`` but at least 1 (``none`` and ``tuple<>`` are one zero bit: a bus or a Z3 bit-vector
  cannot be empty), and a tuple is the sum of its elements' buses (``tuple_fields``).

``int_width(t)`` is ``width_of`` restricted to integer-like types (None for anything else), for callers that
model integers only.

A tuple's bus is its elements side by side, element 0 in the low bits, each ``bus_width`` wide
(``tuple_fields``); ``to_bus``/``from_bus`` convert a runtime value to and from that pattern (a none token is 0).
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any, Optional

from loom.ir.types import FloatType, IndexType, IntegerType, NoneType, TaggedType, TupleType, Type
from loom.semantics.expr import TOKEN

# ----------------------------------------------------------------------------- float formats


@dataclass(frozen=True)
class FloatFormat:
    """A binary IEEE format: ``precision`` significand bits (hidden bit included), ``exp_bits`` exponent bits."""

    name: str
    precision: int
    exp_bits: int

    @property
    def emax(self) -> int:
        return (1 << (self.exp_bits - 1)) - 1

    @property
    def emin(self) -> int:
        return 1 - self.emax

    @property
    def width(self) -> int:
        return self.precision + self.exp_bits

    @property
    def mantissa_bits(self) -> int:
        """Stored fraction bits (the hidden bit excluded)."""
        return self.precision - 1

    @property
    def bias(self) -> int:
        return self.emax

    @property
    def max_finite(self) -> float:
        return math.ldexp((1 << self.precision) - 1, self.emax - self.precision + 1)

    @property
    def inf_mag(self) -> int:
        """The bits of +infinity (all exponent bits set, zero fraction): the largest non-NaN magnitude."""
        return ((1 << self.exp_bits) - 1) << self.mantissa_bits

    @property
    def qnan(self) -> int:
        """The bits of the positive quiet NaN every NaN is encoded as (the semantics keeps only a NaN's sign)."""
        return self.inf_mag | (1 << (self.mantissa_bits - 1))


FLOAT_FORMATS: dict[str, FloatFormat] = {
    "bf16": FloatFormat("bf16", 8, 8),
    "f16": FloatFormat("f16", 11, 5),
    "f32": FloatFormat("f32", 24, 8),
    "f64": FloatFormat("f64", 53, 11),
}


def float_format(t: Type) -> FloatFormat:
    """The IEEE format of a FloatType."""
    if not isinstance(t, FloatType) or t.name not in FLOAT_FORMATS:
        raise ValueError(f"{t} is not a supported float type")
    return FLOAT_FORMATS[t.name]


_STRUCT = {"f64": ("<d", "<Q"), "f32": ("<f", "<I"), "f16": ("<e", "<H")}


def float_to_bits(x: float, t: Type) -> int:
    """IEEE encoding of ``x`` (representable in ``t``) as an unsigned int; NaN is the quiet NaN, its sign kept."""
    fmt = float_format(t)
    if x != x:
        sign = 1 if math.copysign(1.0, x) < 0 else 0
        return fmt.qnan | (sign << (fmt.width - 1))
    if fmt.name == "bf16":  # bf16 is exactly an f32's top half
        return struct.unpack("<I", struct.pack("<f", x))[0] >> 16
    f, i = _STRUCT[fmt.name]
    return struct.unpack(i, struct.pack(f, x))[0]


def bits_to_float(bits: int, t: Type) -> float:
    """The float whose IEEE encoding in ``t`` is ``bits``."""
    fmt = float_format(t)
    if fmt.name == "bf16":
        return struct.unpack("<f", struct.pack("<I", (bits & 0xFFFF) << 16))[0]
    f, i = _STRUCT[fmt.name]
    return struct.unpack(f, struct.pack(i, bits & ((1 << fmt.width) - 1)))[0]


# ----------------------------------------------------------------------------- widths


def width_of(t: Type) -> int:
    """Bits of the value layout of a scalar runtime type (index = 64, none = 0, tagged = value + tag)."""
    if isinstance(t, IntegerType):
        return t.width
    if isinstance(t, IndexType):
        return IndexType.WIDTH
    if isinstance(t, FloatType):
        return float_format(t).width
    if isinstance(t, NoneType):
        return 0
    if isinstance(t, TaggedType):
        return width_of(t.value) + width_of(t.tag)
    raise ValueError(f"type {t} has no scalar bit width")


def bus_width(t: Type) -> int:
    """Width of the bit-vector carrying a value of ``t`` (Z3 model, RTL data bus): ``width_of`` but at least one
    bit (none and ``tuple<>`` are one zero bit), a tuple the sum of its elements' buses. ValueError for a type
    with no encoding (an unknown float)."""
    if isinstance(t, TupleType):
        return sum(bus_width(x) for x in t.types) if t.types else 1
    return max(1, width_of(t))


def int_width(t: Type) -> Optional[int]:
    """``width_of`` of an integer-like type (index is 64), None for anything else."""
    if isinstance(t, (IntegerType, IndexType)):
        return width_of(t)
    return None


def is_int_type(t: Type) -> bool:
    return isinstance(t, (IntegerType, IndexType))


def mask(v: int, width: int) -> int:
    """``v`` reduced to its unsigned ``width``-bit pattern."""
    return v & ((1 << width) - 1)


def to_signed(v: int, width: int) -> int:
    """The two's-complement value of the ``width``-bit pattern ``v``."""
    v &= (1 << width) - 1
    return v - (1 << width) if width and v >> (width - 1) else v


# ----------------------------------------------------------------------------- bit patterns


def to_bits(value: Any, t: Type) -> int:
    """The unsigned bit pattern of a runtime value of type ``t``."""
    if isinstance(t, FloatType):
        return float_to_bits(value, t)
    return value


def from_bits(bits: int, t: Type) -> Any:
    """The runtime value of type ``t`` whose bit pattern is ``bits``."""
    if isinstance(t, FloatType):
        return bits_to_float(bits, t)
    return mask(bits, width_of(t))


def tuple_fields(t: TupleType) -> list[tuple[int, int]]:
    """(low bit, width) of each element of a tuple's bus, element 0 lowest."""
    out, low = [], 0
    for x in t.types:
        w = bus_width(x)
        out.append((low, w))
        low += w
    return out


def to_bus(value: object, t: Type) -> int:
    """The unsigned bus pattern of a runtime value of type ``t`` (a none token is 0; a tuple per ``tuple_fields``)."""
    if value is TOKEN or isinstance(t, NoneType):
        return 0
    if isinstance(t, TupleType):
        if not isinstance(value, tuple) or len(value) != len(t.types):
            raise ValueError(f"{value!r} is not a value of type {t}")
        return sum(to_bus(v, x) << low for v, x, (low, _) in zip(value, t.types, tuple_fields(t)))
    if isinstance(t, FloatType):
        return float_to_bits(float(value), t)  # type: ignore[arg-type]
    return mask(int(to_bits(value, t)), bus_width(t))  # type: ignore[call-overload]


def from_bus(pattern: int, t: Type) -> object:
    """The runtime value of type ``t`` whose bus pattern is ``pattern`` (``to_bus``'s inverse)."""
    if isinstance(t, NoneType):
        return TOKEN
    if isinstance(t, TupleType):
        return tuple(from_bus((pattern >> low) & ((1 << w) - 1), x) for x, (low, w) in zip(t.types, tuple_fields(t)))
    return from_bits(pattern, t)


__all__ = ["FLOAT_FORMATS", "FloatFormat", "bits_to_float", "bus_width", "float_format", "float_to_bits",
           "from_bits", "from_bus", "int_width", "is_int_type", "mask", "to_bits", "to_bus", "to_signed",
           "tuple_fields", "width_of"]
