"""Routed tags: ``fabric.map_tag`` as a pass-through node, its config slice, and the tag each route carries.

A route passes ``add_tag`` (its value gains the configured tag), ``map_tag`` (the tag is rewritten by the first
valid table entry whose ``src_tag`` matches; no match drops the value, so the checker refuses it) and
``del_tag`` (the tag goes). Node kinds are ``"add_tag"``/``"del_tag"`` (``loom.map.temporal.model.TagDef``) and
``"map_tag"`` (``MapTagDef``). The mapper keeps every tag op's runtime configuration as the fabric writes it;
``config.bin`` holds it bit-exact to spec-fabric-config_mem (``add_tag``: one word, the tag in its low bits;
``map_tag``: entries low to high, each ``valid | src_tag | dst_tag``), and the checker decodes those bits to
walk every configured route's tag (``route_tags``): a value a map_tag drops, or two values with one tag on one
port (a tag collision), is a violation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from loom.ir.attributes import ArrayAttr, IntegerAttr
from loom.ir.core import Operation
from loom.map.adg.model import ADG, Port, port_name
from loom.map.adg.verify import tagged

Entry = tuple[int, int, int]  # (valid, src_tag, dst_tag)


@dataclass
class MapTagDef:
    """fabric.map_tag: ``table_size`` entries (the fabric's ``table``, unset ones invalid), tag widths, payload."""

    name: str
    table: list[Entry]
    in_tag_width: int
    out_tag_width: int
    in_widths: list[int]
    out_widths: list[int]

    @property
    def entry_bits(self) -> int:
        return 1 + self.in_tag_width + self.out_tag_width

    @property
    def bits(self) -> int:
        return len(self.table) * self.entry_bits


def read_map_tag(op: Operation, name: str) -> MapTagDef:
    """A verified fabric.map_tag; the short table form ``[d0, d1, ...]`` means entry k maps tag k to dk."""
    ts, td = tagged(op.operands[0].type), tagged(op.results[0].type)
    assert ts is not None and td is not None
    size_attr = op.attributes.get("table_size")
    size = size_attr.value if isinstance(size_attr, IntegerAttr) else 0
    table: list[Entry] = [(0, 0, 0)] * size
    given = op.attributes.get("table")
    for k, e in enumerate(given.elements if isinstance(given, ArrayAttr) else []):
        if isinstance(e, IntegerAttr):
            table[k] = (1, k, e.value)
        else:
            v, s, d = (x.value for x in e.elements)  # type: ignore[attr-defined]
            table[k] = (int(v), s, d)
    return MapTagDef(name, table, ts[1], td[1], [ts[0]], [td[0]])  # type: ignore[list-item]


def lookup(table: list[Entry], tag: int) -> Optional[int]:
    """The tag ``tag`` becomes: the first valid entry with that ``src_tag``; None when none (the value is dropped)."""
    for valid, s, d in table:
        if valid and s == tag:
            return d
    return None


def retag(kind: str, defn: object, tag: Optional[int], set_tag: Optional[int] = None,
          table: Optional[list[Entry]] = None) -> Optional[int] | bool:
    """The tag a value carrying ``tag`` leaves a tag op of ``kind`` with: an add_tag's tag (``set_tag`` when
    configured, else the fabric's), none after a del_tag, a map_tag's table entry (``table`` when configured;
    False when it has no valid entry: the value is dropped); any other node passes the tag on. The one rule the
    router and the decoded route walk both follow."""
    if kind == "add_tag":
        return defn.tag if set_tag is None else set_tag  # type: ignore[attr-defined]
    if kind == "del_tag":
        return None
    if kind == "map_tag":
        t = None if tag is None else lookup(defn.table if table is None else table, tag)  # type: ignore[attr-defined]
        return False if t is None else t
    return tag


def pack_map_tag(d: MapTagDef, table: list[Entry]) -> int:
    """The slice value: entries in ascending index, each ``valid | src_tag | dst_tag`` low to high."""
    value = 0
    for k, (v, s, t) in enumerate(table):
        value |= (v | s << 1 | t << (1 + d.in_tag_width)) << (k * d.entry_bits)
    return value


def unpack_map_tag(d: MapTagDef, value: int) -> list[Entry]:
    out = []
    for k in range(len(d.table)):
        e = value >> (k * d.entry_bits)
        out.append((e & 1, e >> 1 & ((1 << d.in_tag_width) - 1), e >> (1 + d.in_tag_width) & ((1 << d.out_tag_width) - 1)))
    return out


def route_tags(adg: ADG, switches: dict[str, set[tuple[int, int]]], tags: dict[str, int],
               tables: dict[str, list[Entry]], tsw: Optional[dict[str, list]] = None) -> list[tuple[str, str]]:
    """Violations of the decoded tag configuration: each add_tag's value is followed along the configured routes
    (switch transitions, FIFOs, map_tags) to its del_tag or consumer; a map_tag without a valid entry for the
    arriving tag drops it (C3), and two tagged values with one tag on one port collide (C4). ``tsw`` (decoded
    temporal_sw slots) sends each tag only where its slot says; without it a temporal_sw passes the union."""
    out, seen = _walk(adg, switches, tags, tables, tsw)
    for port, vals in sorted(seen.items()):
        by_tag: dict[int, set[str]] = {}
        for src, tag in vals:
            by_tag.setdefault(tag, set()).add(src)
        for tag, srcs in sorted(by_tag.items()):
            if len(srcs) > 1:
                out.append(("C4", f"{port_name(port)} carries tag {tag} from {', '.join(sorted(srcs))}: a tag collision"))
    return out


def tags_at(adg: ADG, switches: dict[str, set[tuple[int, int]]], tags: dict[str, int],
            tables: dict[str, list[Entry]], tsw: Optional[dict[str, list]] = None) -> dict[Port, set[tuple[str, int]]]:
    """(add_tag, tag) pairs that reach each port (output ports and the input ports they feed) under a decoded
    configuration: what a temporal PE input or a tagged memory port receives, for checks beyond this module. A
    tagged memory's response is a source too, ``(memory, lane)`` for each lane its tag can hold (a temporal PE may
    read it directly: upstream's tagged direct-boundary fabrics)."""
    _, seen = _walk(adg, switches, tags, tables, tsw, memories=True)
    full = dict(seen)
    for port, vals in seen.items():
        for reader in adg.readers.get(port, []):
            full.setdefault(reader, set()).update(vals)
    return full


def static_tags(adg: ADG) -> dict[Port, set[tuple[str, int]]]:
    """``tags_at`` with every switch transition the fabric allows enabled: the tags a port could ever see (for
    placement, before routing chooses the transitions)."""
    every = {n.name: set(n.defn.connected()) for n in adg.nodes if n.kind == "sw"}  # type: ignore[attr-defined]
    return tags_at(adg, every, {}, {})


def _walk(adg: ADG, switches: dict[str, set[tuple[int, int]]], tags: dict[str, int],
          tables: dict[str, list[Entry]], tsw: Optional[dict[str, list]] = None, memories: bool = False
          ) -> tuple[list[tuple[str, str]], dict[Port, set[tuple[str, int]]]]:
    from loom.map.rules import mem_lanes

    out: list[tuple[str, str]] = []
    seen: dict[Port, set[tuple[str, int]]] = {}
    for n in adg.nodes:
        if n.kind in ("memory", "extmemory") and memories and n.defn.tagged:  # type: ignore[attr-defined]
            starts = [((n.name, "o", k), lane) for k, w in enumerate(n.defn.tag_widths[1])  # type: ignore[attr-defined]
                      for lane in range(min(mem_lanes(n.defn), 1 << w))]  # type: ignore[arg-type]
        elif n.kind == "add_tag":
            starts = [((n.name, "o", 0), tags.get(n.name, n.defn.tag))]  # type: ignore[attr-defined]
        else:
            continue
        for start in starts:
            _follow(adg, switches, tables, tsw, n.name, start, out, seen)
    return out, seen


def _follow(adg: ADG, switches: dict[str, set[tuple[int, int]]], tables: dict[str, list[Entry]],
            tsw: Optional[dict[str, list]], source: str, start: tuple[Port, int], out: list[tuple[str, str]],
            seen: dict[Port, set[tuple[str, int]]]) -> None:
    """Follow the value ``source`` gives ``start``'s port with ``start``'s tag along the configured routes."""
    stack: list[tuple[Port, int]] = [start]
    visited: set[Port] = set()
    while stack:
        port, tag = stack.pop()
        if port in visited:
            continue
        visited.add(port)
        seen.setdefault(port, set()).add((source, tag))
        for reader in adg.readers.get(port, []):
            node, _, q = reader
            kind = adg.node(node).kind if node in adg._by_name else "module"
            if kind == "sw" and tsw is not None and node in tsw:  # the valid slot matching the tag
                stack += [((node, "o", o), tag) for v, t, tr in tsw[node] if v and t == tag
                          for o, i in sorted(tr) if i == q]
            elif kind == "sw":
                stack += [((node, "o", o), tag) for o, i in sorted(switches.get(node, set())) if i == q]
            elif kind == "fifo":
                stack.append(((node, "o", 0), tag))
            elif kind == "map_tag":
                t = lookup(tables.get(node, adg.node(node).defn.table), tag)  # type: ignore[attr-defined]
                if t is None:
                    out.append(("C3", f"{node} drops the value {source} tags {tag}: no valid table entry maps it"))
                else:
                    stack.append(((node, "o", 0), t))


def tag_configs(adg: ADG, tags: dict[str, int], tables: dict[str, list[Entry]]) -> list[dict]:
    """map.json ``tag_configs``: each add_tag's tag and each map_tag's table, as configured (module order)."""
    out: list[dict] = []
    for n in adg.nodes:
        if n.kind == "add_tag":
            out.append({"name": n.name, "kind": "add_tag", "tag": tags.get(n.name, n.defn.tag)})  # type: ignore[attr-defined]
        elif n.kind == "map_tag":
            table = tables.get(n.name, n.defn.table)  # type: ignore[attr-defined]
            out.append({"name": n.name, "kind": "map_tag", "table": [
                {"valid": bool(v), "src_tag": s, "dst_tag": d} for v, s, d in table]})
    return out
