"""Channel names for the simulator's JSON: the printer's SSA name, ``%v[u]`` per use of a multi-use value.

Each use of a value is its own channel (SSA multi-use is an implicit fork). A
single-use value's channel is named like the value in printed MLIR; a value
with several uses gets ``%v[u]``, u the 0-based index of the use in op walk
order. Printer names come from ``loom.mlir.value_names``; a value it does not
name (IR built by hand) falls back to its name hint or its op's position.
"""

from __future__ import annotations

from typing import Mapping

from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.mlir import value_names


def _fallback_name(v: Value, op_index: Mapping[int, int], hint_count: Mapping[tuple[int, str], int]) -> str:
    if isinstance(v, BlockArgument):
        return f"%{v.name_hint}" if v.name_hint else f"%arg{v.index}"
    assert isinstance(v, OpResult)
    if v.name_hint:
        shared = hint_count.get((id(v.op), v.name_hint), 0) > 1
        return f"%{v.name_hint}#{v.index}" if shared else f"%{v.name_hint}"
    n = op_index.get(id(v.op), 0)
    return f"%v{n}" if len(v.op.results) == 1 else f"%v{n}#{v.index}"


def value_name_map(func: Operation, values: list[Value]) -> dict[Value, str]:
    """The display name of each value (with a leading ``%``), unique within the function."""
    printed = value_names(func)
    body = func.regions[0].entry
    op_index = {id(op): i for i, op in enumerate(body.ops)}
    hint_count: dict[tuple[int, str], int] = {}
    for op in body.ops:
        for r in op.results:
            if r.name_hint:
                key = (id(op), r.name_hint)
                hint_count[key] = hint_count.get(key, 0) + 1
    out: dict[Value, str] = {}
    taken: set[str] = set()
    for v in values:
        name = printed.get(v)
        if not name:
            name = _fallback_name(v, op_index, hint_count)
        elif not name.startswith("%"):
            name = "%" + name
        base, k = name, 1
        while name in taken:  # never merge two channels under one key
            name = f"{base}.{k}"
            k += 1
        taken.add(name)
        out[v] = name
    return out


def use_channel_names(func: Operation, uses: list[tuple[Value, int]]) -> list[str]:
    """Channel names for ``uses``, the (value, use index) pairs of a function in op walk order.

    A value used once keeps its printed name; a value used several times gets ``%name[u]``.
    """
    counts: dict[Value, int] = {}
    for v, _ in uses:
        counts[v] = counts.get(v, 0) + 1
    names = value_name_map(func, list(dict.fromkeys(v for v, _ in uses)))
    return [names[v] if counts[v] == 1 else f"{names[v]}[{u}]" for v, u in uses]
