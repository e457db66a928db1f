"""SSA value and block names used by the printer (and by anyone quoting values in messages).

Names are computed once per isolated scope (a function, a module), in program
order: source names (``Value.name_hint``) are kept when valid and unique, clashes
get ``_0``, ``_1``... suffixes, and unnamed values get the smallest free numbers.
Multi-result ops whose results share one hint print as a group (``%8:2``, used as
``%8#1``). The result is deterministic for a given IR.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from loom.dialects.registry import lookup
from loom.ir.core import Block, Operation, Region, Value

_VALID = re.compile(r"[A-Za-z_$.\-][A-Za-z0-9_$.\-]*|[0-9]+")
_LABEL = re.compile(r"[A-Za-z_$.\-][A-Za-z0-9_$.\-]*")


@dataclass
class Names:
    """The names of one scope: values (with ``%``), grouped ops, and blocks (with ``^``)."""

    values: dict[Value, str] = field(default_factory=dict)
    groups: dict[Operation, str] = field(default_factory=dict)  # op -> '%name' printed as '%name:N'
    blocks: dict[Block, str] = field(default_factory=dict)
    taken: set[str] = field(default_factory=set)
    counter: int = 0

    def fresh(self) -> str:
        """A new numeric name not used in this scope (without ``%``)."""
        while str(self.counter) in self.taken:
            self.counter += 1
        name = str(self.counter)
        self.taken.add(name)
        return name


def _clean(hint: str | None) -> str | None:
    if not hint:
        return None
    if _VALID.fullmatch(hint):
        return hint
    s = re.sub(r"[^A-Za-z0-9_$.\-]", "_", hint)
    if s and s[0].isdigit() and not s.isdigit():
        s = "v" + s
    return s if _VALID.fullmatch(s) else None


def _is_isolated(op: Operation) -> bool:
    d = lookup(op.name)
    return d is not None and d.isolated


def _entries(regions: Iterable[Region], out: list, blocks: list[list[Block]]) -> None:
    for region in regions:
        blocks.append(list(region.blocks))
        for block in region.blocks:
            for arg in block.args:
                out.append((None, [arg]))
            for op in block.ops:
                if op.results:
                    out.append((op, list(op.results)))
                if not _is_isolated(op):
                    _entries(op.regions, out, blocks)


def compute_names(regions: Iterable[Region], extra: Iterable[Operation] = ()) -> Names:
    """Names for the results of ``extra`` ops and everything defined in ``regions``."""
    entries: list[tuple[Operation | None, list[Value]]] = []
    blocks: list[list[Block]] = []
    for op in extra:
        if op.results:
            entries.append((op, list(op.results)))
    _entries(regions, entries, blocks)

    names = Names()
    # Each entry is a group of values printed under one base name, or single values.
    units: list[tuple[Operation | None, list[Value], str | None]] = []
    for op, vals in entries:
        hints = [_clean(v.name_hint) for v in vals]
        if len(vals) > 1 and len(set(hints)) == 1:
            units.append((op, vals, hints[0]))
        else:
            units.extend((None, [v], h) for v, h in zip(vals, hints))
    base: list[str | None] = [None] * len(units)
    for k, (_, _, hint) in enumerate(units):  # first come, first served for exact hints
        if hint is not None and hint not in names.taken:
            base[k] = hint
            names.taken.add(hint)
    for k, (_, _, hint) in enumerate(units):  # clashing hints get a suffix (numbers: a fresh number)
        if hint is not None and base[k] is None:
            if hint.isdigit():
                base[k] = names.fresh()
                continue
            n = 0
            while f"{hint}_{n}" in names.taken:
                n += 1
            base[k] = f"{hint}_{n}"
            names.taken.add(base[k])  # type: ignore[arg-type]
    for k in range(len(units)):  # unnamed values get numbers
        if base[k] is None:
            base[k] = names.fresh()
    for (op, vals, _), b in zip(units, base):
        if len(vals) > 1:
            assert op is not None
            names.groups[op] = f"%{b}"
            for i, v in enumerate(vals):
                names.values[v] = f"%{b}#{i}"
        else:
            names.values[vals[0]] = f"%{b}"
    for region_blocks in blocks:
        _name_blocks(region_blocks, names)
    return names


def _name_blocks(blocks: list[Block], names: Names) -> None:
    """Block names are per region (successors only refer to blocks of their own region)."""
    used: set[str] = set()
    pending = []
    for b in blocks:
        if b.label and _LABEL.fullmatch(b.label) and b.label not in used:
            used.add(b.label)
            names.blocks[b] = f"^{b.label}"
        else:
            pending.append(b)
    n = 0
    for b in pending:
        while f"bb{n}" in used:
            n += 1
        used.add(f"bb{n}")
        names.blocks[b] = f"^bb{n}"


def value_names(func_op: Operation) -> dict[Value, str]:
    """The exact names (``%x``, ``%8#1``) the printer uses for every value inside ``func_op``."""
    return dict(compute_names(func_op.regions).values)
