"""MLIR types as immutable values.

Types are frozen dataclasses so they compare and hash structurally; ``str(t)``
prints the type in MLIR syntax, and the parser produces exactly these classes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from loom.ir.attributes import Attribute


class Type:
    """Base class of every type."""

    def __str__(self) -> str:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True)
class IntegerType(Type):
    """``iN`` (signless), ``siN`` or ``uiN``."""

    width: int
    signedness: str = ""  # "", "s" or "u"

    def __str__(self) -> str:
        return f"{self.signedness}i{self.width}"


@dataclass(frozen=True)
class IndexType(Type):
    """``index``: a machine word; loom models it as 64 bits wide."""

    WIDTH = 64

    def __str__(self) -> str:
        return "index"


@dataclass(frozen=True)
class FloatType(Type):
    """``bf16``, ``f16``, ``f32`` or ``f64``."""

    name: str

    @property
    def width(self) -> int:
        return int(self.name[-2:]) if self.name != "bf16" else 16

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class NoneType(Type):
    """``none``: the type of control tokens."""

    def __str__(self) -> str:
        return "none"


def _shape_str(shape: tuple[Optional[int], ...]) -> str:
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


@dataclass(frozen=True)
class MemRefType(Type):
    """``memref<4x?xf32, layout, space>``; a dynamic dimension is ``None``."""

    shape: tuple[Optional[int], ...]
    element: Type
    layout: Optional["Attribute"] = None
    memory_space: Optional["Attribute"] = None

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        s = f"memref<{_shape_str(self.shape)}{self.element}"
        if self.layout is not None:
            s += f", {self.layout}"
        if self.memory_space is not None:
            s += f", {self.memory_space}"
        return s + ">"


@dataclass(frozen=True)
class TensorType(Type):
    """``tensor<...>``; ``shape`` is None for unranked ``tensor<*xT>``."""

    shape: Optional[tuple[Optional[int], ...]]
    element: Type

    def __str__(self) -> str:
        dims = "*x" if self.shape is None else _shape_str(self.shape)
        return f"tensor<{dims}{self.element}>"


@dataclass(frozen=True)
class VectorType(Type):
    """``vector<4xf32>``."""

    shape: tuple[int, ...]
    element: Type

    def __str__(self) -> str:
        return f"vector<{_shape_str(self.shape)}{self.element}>"


@dataclass(frozen=True)
class TupleType(Type):
    """``tuple<i32, i64>`` (CIRCT's handshake.pack/unpack carry one as a single token)."""

    types: tuple[Type, ...]

    def __str__(self) -> str:
        return f"tuple<{', '.join(map(str, self.types))}>"


@dataclass(frozen=True)
class TaggedType(Type):
    """``!dataflow.tagged<value, tag>``: value in the low bits, tag in the high bits."""

    value: Type
    tag: Type

    def __str__(self) -> str:
        return f"!dataflow.tagged<{self.value}, {self.tag}>"


@dataclass(frozen=True)
class FunctionType(Type):
    """``(inputs) -> results``."""

    inputs: tuple[Type, ...]
    results: tuple[Type, ...]

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> ({', '.join(map(str, self.results))})"


@dataclass(frozen=True)
class OpaqueType(Type):
    """Any other type (``!llvm.ptr``, ``complex<f32>``...), kept verbatim."""

    text: str

    def __str__(self) -> str:
        return self.text


# Convenience singletons used throughout the code base.
i1 = IntegerType(1)
i8 = IntegerType(8)
i16 = IntegerType(16)
i32 = IntegerType(32)
i64 = IntegerType(64)
index = IndexType()
none = NoneType()
f16 = FloatType("f16")
bf16 = FloatType("bf16")
f32 = FloatType("f32")
f64 = FloatType("f64")


def is_integer_like(t: Type) -> bool:
    """Signless/signed integers and index."""
    return isinstance(t, (IntegerType, IndexType))
