"""Operand vectors for the scalar-op descriptor tests (integer and float): one hypothesis strategy, so both
tables are exercised the same way -- each operand an edge of its type or any bit pattern of its width."""

from __future__ import annotations

from typing import Callable, Sequence

from hypothesis import strategies as st

from loom.ir.types import Type
from loom.semantics.layout import width_of


def draw_vector(data, operands: Sequence[Type], edges: Callable[[Type], list[int]]) -> tuple[int, ...]:
    """One operand vector (bus patterns) drawn from ``data``."""
    return tuple(data.draw(st.one_of(st.sampled_from(edges(t)), st.integers(0, (1 << width_of(t)) - 1)),
                           label=f"operand {k}") for k, t in enumerate(operands))
