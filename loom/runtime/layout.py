"""Memref layouts written as affine maps, read as (offset, strides) when they are strided.

``affine_map<(d0, d1) -> (d0 * 4 + d1 + 2)>`` addresses element (i, j) at
``2 + 4*i + j``: a strided layout with strides [4, 1] and offset 2. A
multi-result map is strided only when it is the identity ``(d0, d1) -> (d0,
d1)`` (the default row-major layout). Anything else (symbols, floordiv/mod,
permutations, products of dimensions) is not strided: ``None``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_MAP = re.compile(r"^affine_map<\((?P<dims>[^)]*)\)\s*(?:\[(?P<syms>[^\]]*)\])?\s*->\s*\((?P<results>.*)\)>$", re.DOTALL)
_TERM = re.compile(r"^(?:(?P<c1>\d+)\s*\*\s*(?P<d1>[A-Za-z_]\w*)|(?P<d2>[A-Za-z_]\w*)(?:\s*\*\s*(?P<c2>\d+))?|(?P<c>\d+))$")


def affine_strides(text: str, shape: Sequence[int]) -> tuple[int, list[int]] | None:
    """(offset, strides) of a strided affine-map layout for ``shape``, else None."""
    m = _MAP.match(text.strip())
    if m is None or (m["syms"] or "").strip():
        return None
    dims = [d.strip() for d in m["dims"].split(",") if d.strip()]
    results = [r.strip() for r in m["results"].split(",")]
    if len(dims) != len(shape):
        return None
    if len(results) > 1:  # only the identity (the default row-major layout) is strided
        return (0, _row_major(shape)) if results == dims else None
    return _linear(results[0], dims)


def _linear(expr: str, dims: list[str]) -> tuple[int, list[int]] | None:
    offset, strides = 0, [0] * len(dims)
    for raw in expr.replace("-", "+-").split("+"):
        term = raw.strip()
        if not term:
            continue
        sign = 1
        if term.startswith("-"):
            sign, term = -1, term[1:].strip()
        t = _TERM.match(term)
        if t is None:
            return None
        if t["c"] is not None:
            offset += sign * int(t["c"])
            continue
        d = t["d1"] or t["d2"]
        if d not in dims:
            return None
        strides[dims.index(d)] += sign * int(t["c1"] or t["c2"] or 1)
    if offset < 0 or any(s < 0 for s in strides):
        return None
    return offset, strides


def _row_major(shape: Sequence[int]) -> list[int]:
    out, acc = [], 1
    for s in reversed(shape):
        out.append(acc)
        acc *= s
    return list(reversed(out))
