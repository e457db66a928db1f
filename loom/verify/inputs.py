"""Concrete ``loom sim`` inputs the checkers build from witnesses and print in reports: nested lists of one
fill, their shape and elements, and the one-line form a refutation shows (``{a: 2x4 of 0, n=3}``)."""

from __future__ import annotations

from typing import Any

DIM_CAP = 1 << 48  # every memref dimension is below 2^48 (a 48-bit address space): stated in every report


def nested(sizes: list[int], fill: Any) -> Any:
    """A memref value of shape ``sizes`` with every element ``fill``."""
    if not sizes:
        return fill
    return [nested(sizes[1:], fill) for _ in range(sizes[0])]


def flatten(v: Any) -> list:
    """The elements of a nested-list memref value, row-major."""
    return [y for x in v for y in flatten(x)] if isinstance(v, list) else [v]


def shape_of(v: Any) -> list[int]:
    """The shape of a nested-list memref value (an empty dimension ends it)."""
    out = []
    while isinstance(v, list):
        out.append(len(v))
        v = v[0] if v else None
    return out


def describe(inputs: dict) -> str:
    """Inputs in one line: a memref of one repeated value as its shape and that value, others as given."""
    parts = []
    for k, v in inputs.items():
        if isinstance(v, list):
            flat = flatten(v)
            head = flat[0] if flat else None
            parts.append(f"{k}: {'x'.join(map(str, shape_of(v)))} of {head}" if flat and all(x == head for x in flat)
                         else f"{k}: {v}")
        else:
            parts.append(f"{k}={v}")
    return "{" + ", ".join(parts) + "}"
