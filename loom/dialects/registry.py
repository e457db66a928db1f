"""The op table: for each known op, its custom syntax, verifier and structural traits.

Parser, printer and verifier all look ops up here, so an op's text form and its
rules are declared once, in its dialect module (``loom/dialects/<dialect>.py``).
"""

from __future__ import annotations

from loom.dialects import arith, builtin, cf, dataflow, fabric, func, handshake, math, memref, memref_misc, scf, scf_regions, ub
from loom.dialects.opdef import OpDef


def _build_table() -> dict[str, OpDef]:
    table: dict[str, OpDef] = {}
    for mod in (builtin, func, cf, arith, math, ub, scf, scf_regions, memref, memref_misc, handshake, dataflow, fabric):
        for d in mod.OPS:
            if d.name in table:  # pragma: no cover - programming error
                raise ValueError(f"op {d.name} registered twice")
            table[d.name] = d
    return table


_TABLE: dict[str, OpDef] = _build_table()


def lookup(name: str) -> OpDef | None:
    """The definition of op ``name``; unregistered ``math.*`` ops get the generic math form."""
    d = _TABLE.get(name)
    if d is None and name.startswith("math.") and len(name) > 5:
        return math.generic_math(name)
    return d


def known_ops() -> list[str]:
    """Every registered op name, sorted."""
    return sorted(_TABLE)
