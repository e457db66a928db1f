"""MLIR attributes as immutable values; ``str(a)`` prints MLIR syntax."""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Optional

from loom.ir.types import FloatType, IntegerType, Type


class Attribute:
    """Base class of every attribute."""

    def __str__(self) -> str:  # pragma: no cover
        raise NotImplementedError


def _quote(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append("\\%02X" % ord(ch))
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


@dataclass(frozen=True)
class IntegerAttr(Attribute):
    """``42 : i32``; ``type`` None means the default ``i64`` was implied."""

    value: int
    type: Optional[Type] = None

    def __str__(self) -> str:
        if self.type is None:
            return str(self.value)
        return f"{self.value} : {self.type}"


@dataclass(frozen=True)
class BoolAttr(Attribute):
    """``true`` / ``false``."""

    value: bool

    def __str__(self) -> str:
        return "true" if self.value else "false"


def format_float(value: float, t: Optional[Type] = None) -> str:
    """Print a float the way MLIR does: decimal when exact, else hex bits."""
    if math.isnan(value) or math.isinf(value):
        width = t.width if isinstance(t, FloatType) else 64
        if width == 32:
            return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]
    text = "%.6e" % value
    if float(text) == value or (isinstance(t, FloatType) and t.width == 32 and _f32(float(text)) == _f32(value)):
        return text
    return repr(value)


def _f32(x: float) -> float:
    return struct.unpack("<f", struct.pack("<f", x))[0]


@dataclass(frozen=True)
class FloatAttr(Attribute):
    """``1.5 : f32``."""

    value: float
    type: Optional[Type] = None

    def __str__(self) -> str:
        s = format_float(self.value, self.type)
        return s if self.type is None else f"{s} : {self.type}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FloatAttr):
            return NotImplemented
        same = self.value == other.value or (math.isnan(self.value) and math.isnan(other.value))
        return same and self.type == other.type

    def __hash__(self) -> int:
        return hash(("float", None if math.isnan(self.value) else self.value, self.type))


@dataclass(frozen=True)
class StringAttr(Attribute):
    """``"text"``."""

    value: str

    def __str__(self) -> str:
        return _quote(self.value)


@dataclass(frozen=True)
class UnitAttr(Attribute):
    """A present-but-valueless attribute (printed as just its name in a dictionary)."""

    def __str__(self) -> str:
        return "unit"


@dataclass(frozen=True)
class TypeAttr(Attribute):
    """A type used as an attribute."""

    type: Type

    def __str__(self) -> str:
        return str(self.type)


@dataclass(frozen=True)
class ArrayAttr(Attribute):
    """``[a, b, c]``."""

    elements: tuple[Attribute, ...]

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.elements)) + "]"


@dataclass(frozen=True)
class DenseArrayAttr(Attribute):
    """``array<i64: 1, 2, 3>``."""

    element_type: Type
    values: tuple

    def __str__(self) -> str:
        if not self.values:
            return f"array<{self.element_type}>"
        vals = ", ".join(
            format_float(v, self.element_type) if isinstance(self.element_type, FloatType) else str(v)
            for v in self.values
        )
        return f"array<{self.element_type}: {vals}>"


@dataclass(frozen=True)
class DenseElementsAttr(Attribute):
    """``dense<...> : tensor<...>``; ``values`` is the flat list, or one splat value."""

    values: tuple
    type: Type
    splat: bool = False

    def __str__(self) -> str:
        def one(v) -> str:
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, float):
                return format_float(v)
            return str(v)

        if self.splat:
            body = one(self.values[0])
        else:
            body = "[" + ", ".join(one(v) for v in self.values) + "]"
        return f"dense<{body}> : {self.type}"


def _key(name: str) -> str:
    import re

    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", name) else _quote(name)


@dataclass(frozen=True)
class DictAttr(Attribute):
    """``{a = 1, b}``; entries keep their source order."""

    entries: tuple[tuple[str, Attribute], ...]

    def get(self, name: str) -> Optional[Attribute]:
        for k, v in self.entries:
            if k == name:
                return v
        return None

    def __str__(self) -> str:
        return "{" + ", ".join(format_named(k, v) for k, v in self.entries) + "}"


def format_named(name: str, value: Attribute) -> str:
    """One ``name = value`` entry (a unit attribute prints as its bare name)."""
    if isinstance(value, UnitAttr):
        return _key(name)
    return f"{_key(name)} = {value}"


@dataclass(frozen=True)
class SymbolRefAttr(Attribute):
    """``@sym`` or ``@root::@nested``."""

    root: str
    nested: tuple[str, ...] = ()

    def __str__(self) -> str:
        def sym(s: str) -> str:
            import re

            return "@" + (s if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_$.]*", s) else _quote(s))

        return "::".join([sym(self.root)] + [sym(n) for n in self.nested])


@dataclass(frozen=True)
class StridedLayoutAttr(Attribute):
    """``strided<[s0, s1], offset: o>``; a dynamic stride/offset is None (printed ``?``)."""

    strides: tuple[Optional[int], ...]
    offset: Optional[int] = 0

    def __str__(self) -> str:
        def d(x: Optional[int]) -> str:
            return "?" if x is None else str(x)

        s = "strided<[" + ", ".join(d(x) for x in self.strides) + "]"
        if self.offset != 0:
            s += f", offset: {d(self.offset)}"
        return s + ">"


@dataclass(frozen=True)
class OpaqueAttr(Attribute):
    """Any other attribute (affine maps, ``#dialect<...>``...), kept verbatim."""

    text: str

    def __str__(self) -> str:
        return self.text


def int_attr(value: int, t: Optional[Type] = None) -> IntegerAttr:
    return IntegerAttr(value, t)


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, IntegerType(64))
