"""Bit-level equality of runtime values: the one rule both differential tests and refinement replay use."""

from __future__ import annotations

import math
import struct
from typing import Any


def same_value(a: Any, b: Any) -> bool:
    """Bit-level equality of two runtime values (NaN equals NaN, -0.0 differs from 0.0)."""
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            return False
        fa, fb = float(a), float(b)
        if math.isnan(fa) or math.isnan(fb):
            return math.isnan(fa) and math.isnan(fb)
        return struct.pack("<d", fa) == struct.pack("<d", fb)
    return a == b
