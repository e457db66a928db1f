"""Runtime value helpers of the tables: default values, and the tagged packing re-exported.

A ``!dataflow.tagged<V, T>`` value is one packed word: V's bit pattern in the
low ``width(V)`` bits, the unsigned tag above it (spec-dataflow-dialect-v0).
The packing itself lives with the scalar semantics (``loom.semantics.scalar``)
so the interpreter, the simulator and the tables share one implementation.
"""

from __future__ import annotations

from loom.ir.types import NoneType, Type
from loom.semantics.expr import TOKEN
from loom.semantics.scalar import pack_tagged, unpack_tagged, zero_value

__all__ = ["pack_tagged", "unpack_tagged", "zero_of"]


def zero_of(t: Type) -> object:
    """The all-zero runtime value of ``t`` (``TOKEN`` for none, 0.0 for floats, else 0)."""
    if isinstance(t, NoneType):
        return TOKEN
    return zero_value(t)
