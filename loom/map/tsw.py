"""fabric.temporal_sw: a switch that routes by tag (spec-fabric-temporal_sw), its route-table slots and checks.

A temporal switch is a Node of kind ``"sw"`` whose definition is a ``TSwitchDef``: the router, placer and route
decoder treat it as a switch, and ``Config.switches[name]`` holds the union of the transitions its slots enable.
Its runtime state is ``num_route_table`` slots, each ``(valid, tag, transitions)``: a value with tag ``t`` on
input ``i`` goes to every output ``o`` whose ``(o, i)`` the one valid slot with tag ``t`` enables (tag matching,
not indexing). Several flows with distinct tags may share one input or output (the router keeps one value per
(port, tag)). ``fill_slots`` groups the routes' transitions by the tag each route carries there and names the
switches short of slots (the mapper makes them dearer to the router and tries again); ``violations`` is the
checker's side: no tag in two valid slots (the route walk follows each tag through its slot). The slice is bit-exact to
spec-fabric-config_mem: slots low to high, each ``valid | tag | route bits`` (connected positions, output-major).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loom.ir.attributes import ArrayAttr
from loom.ir.core import Operation
from loom.ir.types import FunctionType
from loom.map.adg.model import ADG, SwitchDef, port_name

if TYPE_CHECKING:
    from loom.map.config import Config

Slot = tuple[int, int, frozenset]  # (valid, tag, {(output, input)})


@dataclass
class TSwitchDef(SwitchDef):
    """A temporal switch: a switch's ports and connectivity plus ``slots`` route-table entries of ``tag_width``."""

    slots: int = 1
    tag_width: int = 0
    route_table: list[tuple[int, int, int]] = field(default_factory=list)  # the fabric's route_table: (tag, input, output)

    @property
    def slot_bits(self) -> int:
        return 1 + self.tag_width + len(self.connected())

    @property
    def bits(self) -> int:
        return self.slots * self.slot_bits


def read_temporal_sw(op: Operation, ft: FunctionType) -> TSwitchDef:
    """A verified fabric.temporal_sw (``adg.verify`` checked ports, counts and table) as a TSwitchDef."""
    from loom.map.adg.read import read_switch
    from loom.map.adg.verify import TEMPORAL_SW, _count, _dict_ints, tagged

    sw = read_switch(op, ft)
    tag_width = tagged(ft.inputs[0])[1]  # type: ignore[index]
    slots = _count(op, "num_route_table", TEMPORAL_SW, f"temporal_sw @{sw.name}")
    table: list[tuple[int, int, int]] = []
    rt = op.attributes.get("route_table")
    for e in rt.elements if isinstance(rt, ArrayAttr) else []:
        d = _dict_ints(e) or {}
        table.append((d["tag"], d["input"], d["output"]))
    return TSwitchDef(sw.name, sw.in_widths, sw.out_widths, sw.table, sw.loc, slots=slots, tag_width=tag_width,
                      route_table=table)


def is_tsw(adg: ADG, name: str) -> bool:
    return name in adg._by_name and isinstance(adg.node(name).defn, TSwitchDef)


def fill_slots(adg: ADG, cfg: "Config", paths: dict[int, list], tags: dict[int, list]) -> list[tuple[str, str]]:
    """Set ``cfg.tsw`` from the routes: one slot per tag crossing a temporal switch, enabling the transitions the
    routes of that tag take (``tags[e]`` is the router's tag at each port of ``paths[e]``); (switch, why) pairs
    when a switch needs more slots than it has or a route crosses it untagged (empty list: done)."""
    by_sw: dict[str, dict[int, set[tuple[int, int]]]] = {}
    why: list[tuple[str, str]] = []
    for e, path in sorted(paths.items()):
        for k, (a, b) in enumerate(zip(path, path[1:])):
            if a[0] == b[0] and a[1] == "i" and b[1] == "o" and is_tsw(adg, a[0]):
                t = tags.get(e, [None] * len(path))[k]
                if t is None:
                    why.append((a[0], f"{port_name(a)}: no tag is known for the value crossing this temporal_sw"))
                    continue
                by_sw.setdefault(a[0], {}).setdefault(t, set()).add((b[2], a[2]))
    for n in adg.nodes:
        if not isinstance(n.defn, TSwitchDef):
            continue
        by_tag = by_sw.get(n.name, {})
        if len(by_tag) > n.defn.slots:
            why.append((n.name, f"temporal_sw {n.name} needs {len(by_tag)} route-table slots (tags {sorted(by_tag)}); "
                                f"num_route_table = {n.defn.slots}"))
            continue
        slots = [(1, t, frozenset(tr)) for t, tr in sorted(by_tag.items())]
        cfg.tsw[n.name] = slots + [(0, 0, frozenset())] * (n.defn.slots - len(slots))
    return why


def pack(d: TSwitchDef, slots: list[Slot]) -> int:
    """The slice value: slots low to high, each ``valid | tag | route bits`` (connected positions in order)."""
    conn = d.connected()
    value = 0
    for k in range(d.slots):
        v, t, tr = slots[k] if k < len(slots) else (0, 0, frozenset())
        s = v | t << 1
        for bit, pos in enumerate(conn):
            if pos in tr:
                s |= 1 << (1 + d.tag_width + bit)
        value |= s << (k * d.slot_bits)
    return value


def unpack(d: TSwitchDef, value: int) -> list[Slot]:
    conn = d.connected()
    out: list[Slot] = []
    for k in range(d.slots):
        s = value >> (k * d.slot_bits)
        route = s >> (1 + d.tag_width)
        out.append((s & 1, s >> 1 & ((1 << d.tag_width) - 1),
                    frozenset(pos for bit, pos in enumerate(conn) if route >> bit & 1)))
    return out


def union(slots: list[Slot]) -> set[tuple[int, int]]:
    """The transitions some valid slot enables: what a route through the switch may use."""
    return {pos for v, _, tr in slots if v for pos in tr}


def violations(adg: ADG, cfg: "Config") -> list[tuple[str, str]]:
    """C4 for temporal switches under the decoded configuration: a tag in two valid slots (an ambiguous match).
    Where each tag goes is the route walk's (``loom.map.decode_routes.walk_routes`` follows every value's tag
    through the slot matching it), so a slot that sends a tag elsewhere than the mapping says shows there as a
    wrong, dropped or colliding connection."""
    out: list[tuple[str, str]] = []
    for name, slots in sorted(cfg.tsw.items()):
        tags = [t for v, t, _ in slots if v]
        for t in sorted({t for t in tags if tags.count(t) > 1}):
            out.append(("C4", f"temporal_sw {name}: tag {t} matches two valid route-table slots"))
    return out
