"""The one walk over a decoded configuration's routes, shared by the checker and the executor.

Starting at every configured source (an enabled, non-discarded FU output through its PE output demux, every
memory output, every module input), it follows wires, the switch transitions the configuration enables and the
PE input muxes to the ends each value reaches. Per reached end it records the narrowest port passed (C2) and
the switch hops. Structural problems met on the way (a switch output selecting several inputs, a PE input mux
broadcasting, a routing loop, a route dead-ending in a switch, fan-out outside a switch, an FU input no route
drives) are returned as (constraint, message) findings; the checker reports them, the executor refuses to run.

Each value carries its tag (None when untagged): a temporal PE slot's result its result tag, add_tag sets it,
map_tag rewrites it by its decoded table (no entry: dropped, C3), del_tag drops it. A temporal_sw sends a value
only where its one valid slot for the value's tag says (no slot: dropped, C3); a temporal PE input reaches only
the slot whose tag the value carries. Several tagged values share a port when their tags differ; two sources
bringing one tag to one port collide (C4). A tagged memory's port end carries the tag (its lane), and its results
are sources only for the (family, tag) requests that reach it: a load address with tag t makes load data and load
done leave with t, a store address store done.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT, MemDef, Port, port_name
from loom.map.config import Config
from loom.map.dfg import DFG
from loom.map.rules import mem_port_maps, mem_port_role, mem_port_tags, place_lane_base, tag_lane

End = tuple  # ("fu_out"|"fu_in", pe, k) | ("mem_out"|"mem_in", mem, port) | ("mod_in"|"mod_out", k)


@dataclass(frozen=True)
class Connection:
    """One decoded route: a source end reaches a sink end, through ports at least ``width`` bits wide,
    passing ``hops`` switches and buffered FIFOs of ``fifo_slots`` slots in all (bypassed ones count 0)."""

    src: End
    dst: End
    width: int
    hops: int
    fifo_slots: int = 0


@dataclass
class RouteWalk:
    """What the configured routes connect, which switch transitions carry a value, and what is wrong with them."""

    connections: list[Connection] = field(default_factory=list)
    used: set[tuple[str, int, int]] = field(default_factory=set)  # (switch, input, output) carrying a value
    findings: list[tuple[str, str]] = field(default_factory=list)  # (constraint, message)
    loops: list[Port] = field(default_factory=list)  # switch outputs found on a routing loop


def walk_routes(adg: ADG, cfg: Config, fus: dict[str, Any]) -> RouteWalk:
    """Follow every configured source of ``cfg`` to its consumers; ``fus`` maps each enabled PE, and each valid
    temporal PE slot (``pe@slot``, its record a ``SlotView`` naming its PE), to (FU, PE config)."""
    from loom.map.tags import retag
    from loom.map.tsw import TSwitchDef

    walk = RouteWalk()
    note = walk.findings.append
    active_in: dict[tuple[str, int], list[int]] = {}
    for sw, pairs in cfg.switches.items():
        for o, i in pairs:
            active_in.setdefault((sw, i), []).append(o)
    by_tag: dict[tuple[str, int, int], list[int]] = {}  # (temporal_sw, tag, input) -> outputs its slot enables
    for sw, slot_list in cfg.tsw.items():
        for valid, t, tr in slot_list:
            for o, i in sorted(tr) if valid else ():
                by_tag.setdefault((sw, t, i), []).append(o)
    untagged_in: set[tuple[str, int]] = set()  # (switch, input) some untagged value reaches
    walk_in: set[tuple[str, int]] = set()  # (switch, input) some value reaches

    def slot_tag(c: Any) -> Optional[int]:  # a temporal PE slot's decoded tag; None for a spatial PE
        return cfg.temporal[c.pe].slots[c.slot].tag if getattr(c, "pe", "") else None

    mux_of: dict[tuple[str, int], list[tuple[str, int]]] = {}  # (pe, pe input) -> the (PE or slot, FU input)s it feeds
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.inputs[: len(fu.inputs)]):
            if not f.disconnect:
                mux_of.setdefault((_phys(pe, c), f.sel), []).append((pe, k))
    for (pe, q), ks in mux_of.items():
        for t in sorted({slot_tag(fus[a][1]) for a, _ in ks}, key=lambda x: -1 if x is None else x):
            same = [(a, k) for a, k in ks if slot_tag(fus[a][1]) == t]
            if len(same) > 1:
                note(("C11", f"{pe} input {q} feeds FU inputs {[f'{a}/{k}' for a, k in same]}: a PE input mux cannot broadcast"))
    sources: list[tuple[End, Port, Optional[int]]] = []
    seen_out: dict[tuple[str, int, Optional[int]], str] = {}
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.outputs[: len(fu.outputs)]):
            if not f.disconnect and not f.discard:
                host = _phys(pe, c)
                tag = cfg.temporal[c.pe].slots[c.slot].results[k][0] if getattr(c, "pe", "") else None
                if (host, f.sel, tag) in seen_out:
                    note(("C4", f"{host} output {f.sel} is driven by FU outputs {seen_out[(host, f.sel, tag)]} and {pe}/{k}"))
                seen_out[(host, f.sel, tag)] = f"{pe}/{k}"
                sources.append((("fu_out", pe, k), (host, "o", f.sel), tag))
    for m in adg.memories():
        if m.defn.tagged:  # type: ignore[attr-defined]
            continue  # its results answer requests: added when a request's tag reaches it (``respond``)
        for k in range(len(m.defn.out_widths)):  # type: ignore[attr-defined]
            sources.append((("mem_out", m.name, k), (m.name, "o", k), None))
    answered: set[tuple[str, int, Optional[int]]] = set()

    def respond(mem: str, q: int, tag: Optional[int]) -> None:
        """A request reaching tagged memory input ``q`` with ``tag``: the family's results leave with the lane the
        region words serve that tag on (``rules.tag_lane``); a tag no region holds is never answered."""
        d = adg.node(mem).defn
        tag = tag_lane(cfg.regions.get(mem, []), tag) if tag is not None else None
        role = mem_port_role(d, "i", q)  # type: ignore[arg-type]
        fams = {"ld_addr": ("ld_data", "ld_done"), "st_addr": ("st_done",)}.get(role[0] if role else "", ())
        for k in range(len(d.out_widths)):  # type: ignore[attr-defined]
            r = mem_port_role(d, "o", k)  # type: ignore[arg-type]
            if r is not None and r[0] in fams and tag is not None and (mem, k, tag) not in answered:
                answered.add((mem, k, tag))
                sources.append((("mem_out", mem, k, tag), (mem, "o", k), tag))
    for k in range(len(adg.in_types)):
        if adg.width((MODULE_IN, "o", k)) is not None:
            sources.append((("mod_in", k), (MODULE_IN, "o", k), None))
    carried: dict[tuple[Port, int], set[End]] = {}  # (port, tag) -> the sources whose values bring that tag there
    kinds = {n.name: n.kind for n in adg.nodes}
    fed_inputs: Counter = Counter()

    slots = 0  # buffered FIFO slots on the path being walked (set per stack entry)

    def unselected(port: Port, tag: int) -> bool:
        """Whether a value with ``tag`` on ``port`` only meets temporal_sw inputs that no slot and no route use:
        a copy the fabric's wiring makes (one PE output feeding an add_tag per lane) that goes nowhere."""
        readers = adg.readers.get(port, [])
        return bool(readers) and all(
            kinds.get(n) == "sw" and isinstance(adg.node(n).defn, TSwitchDef) and not by_tag.get((n, tag, q))
            and not active_in.get((n, q)) for n, _, q in readers)

    def reach(src: End, dst: End, width: int, hops: int) -> None:
        walk.connections.append(Connection(src, dst, width, hops, slots))

    for src_end, port, tag0 in sources:
        stack = [(port, adg.width(port) or 0, 0, frozenset([port]), 0, tag0)]
        while stack:
            out_port, w, hops, visited, slots, tag = stack.pop()
            if tag is not None:
                carried.setdefault((out_port, tag), set()).add(src_end)
            consumers, dropped = 0, False
            for in_port in adg.readers.get(out_port, []):
                node, _, q = in_port
                wi = min(w, adg.width(in_port) or 0)
                kind = kinds.get(node, node)
                if node == MODULE_OUT:
                    consumers += 1
                    reach(src_end, ("mod_out", q), wi, hops)
                elif kind == "sw":
                    if tag is None:
                        untagged_in.add((node, q))
                    walk_in.add((node, q))
                    if isinstance(adg.node(node).defn, TSwitchDef):  # the valid slot matching the value's tag
                        outs = by_tag.get((node, tag, q), []) if tag is not None else []
                        if not outs and (hops or active_in.get((node, q))):  # routed here, or a slot expects values here
                            dropped = True  # reported here, not again as a dead end
                            note(("C3", f"temporal_sw {node} has no valid route-table slot sending tag {tag} from "
                                        f"input {q} anywhere: {end_name(src_end)}'s value is dropped"))
                    else:
                        outs = active_in.get((node, q), [])
                    if outs:
                        consumers += 1
                    for o in outs:
                        walk.used.add((node, q, o))
                        nxt = (node, "o", o)
                        if nxt in visited:
                            walk.loops.append(nxt)
                            note(("C3", f"{port_name(nxt)} is part of a routing loop"))
                            continue
                        stack.append((nxt, min(wi, adg.width(nxt) or 0), hops + 1, visited | {nxt}, slots, tag))
                elif kind == "fifo":  # passes the value on; buffered unless its bit says bypassed
                    consumers += 1
                    fifo = adg.node(node).defn
                    nxt = (node, "o", 0)
                    if nxt in visited:
                        walk.loops.append(nxt)
                        note(("C3", f"{port_name(nxt)} is part of a routing loop"))
                        continue
                    buffered = not cfg.bypassed.get(node, False) if fifo.bypassable else True  # type: ignore[attr-defined]
                    stack.append((nxt, min(wi, adg.width(nxt) or 0), hops, visited | {nxt},
                                  slots + (fifo.depth if buffered else 0), tag))  # type: ignore[attr-defined]
                elif kind in ("add_tag", "del_tag", "map_tag"):  # passes the value on, (re)tagging or untagging it
                    consumers += 1
                    nxt = (node, "o", 0)
                    t2 = retag(kind, adg.node(node).defn, tag, cfg.tags.get(node), cfg.map_tags.get(node))
                    if t2 is False:
                        note(("C3", f"{node} has no valid table entry for tag {tag}: {end_name(src_end)}'s value is dropped"))
                        continue
                    if not hops and t2 is not None and unselected(nxt, t2):
                        consumers -= 1  # a wired copy no route takes: upstream's add_tag per lane on one PE output
                        continue
                    stack.append((nxt, min(wi, adg.width(nxt) or 0), hops, visited | {nxt}, slots, t2))
                elif kind in ("pe", "tpe"):
                    ks = [(h, k) for h, k in mux_of.get((node, q), [])  # a slot takes only values of its tag
                          if tag is None or slot_tag(fus[h][1]) in (None, tag)]
                    if not ks and tag is not None and kind == "tpe" and hops:  # (a wire nothing selects: no route)
                        dropped = True  # reported here, not again as a dead end
                        note(("C3", f"{end_name(src_end)}'s value reaches {node} input {q} with tag {tag}, which no "
                                    f"valid slot reading that input matches: it is never consumed"))
                    if ks:
                        consumers += 1
                    for host, k in ks:
                        fed_inputs[(host, k)] += 1
                        reach(src_end, ("fu_in", host, k), wi, hops)
                else:  # a memory input; on a tagged one the tag is the lane, and the request is answered
                    consumers += 1
                    if adg.node(node).defn.tagged:  # type: ignore[attr-defined]
                        reach(src_end, ("mem_in", node, q, tag), wi, hops)
                        respond(node, q, tag)
                    else:
                        reach(src_end, ("mem_in", node, q), wi, hops)
            src_kind = kinds.get(out_port[0], out_port[0])
            if consumers == 0 and not dropped and (src_kind in ("sw", "fifo") or src_kind in ("add_tag", "del_tag", "map_tag") and hops):
                # (a tag op only wired to a source, before any switch, is a wire nothing selects: no route)
                note(("C3", f"a route of {end_name(src_end)} dead-ends at {port_name(out_port)}, which nothing consumes"))
            if consumers > 1 and src_kind != "sw":
                note(("C11", f"{port_name(out_port)} is not a switch output but feeds {consumers} consumers"))
    for sw, pairs in cfg.switches.items():  # a merge is sound only for tagged values (their tags tell them apart)
        if isinstance(adg.node(sw).defn, TSwitchDef):
            continue  # selects by tag: the tag walk above follows each tag's slot
        for o in sorted({o for o, _ in pairs}):
            ins = sorted(i for oo, i in pairs if oo == o)
            if len(ins) > 1 and any((sw, i) in untagged_in or (sw, i) not in walk_in for i in ins):
                note(("C4", f"{sw} output {o} selects {len(ins)} inputs at once"))
    for (p, t), srcs in sorted(carried.items(), key=lambda x: (x[0][0], x[0][1])):
        if len(srcs) > 1:
            note(("C4", f"{port_name(p)} carries tag {t} from {', '.join(sorted(end_name(e) for e in srcs))}: a tag collision"))
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.inputs[: len(fu.inputs)]):
            if not f.disconnect and fed_inputs[(pe, k)] == 0:
                note(("C3", f"{pe}/{fu.name} input {k} selects PE input {f.sel}, which no configured route drives"))
    return walk


def _phys(name: str, c: Any) -> str:
    """The physical PE of a walk entry: itself, or the temporal PE holding slot ``name`` (``pe@slot``)."""
    return getattr(c, "pe", "") or name


def dfg_ends(dfg: DFG, adg: ADG, place: dict[str, tuple]):
    """Two functions naming where a DFG node's result k leaves, and where its operand k enters, the fabric
    under ``place`` (a node id -> ("fu", pe, opcode) | ("mem", name, region, first tag) | ("in", k) | ("out", k))."""
    def src(nid: str, k: int) -> End:
        t, node = place[nid], dfg.by_id[nid]
        if t[0] == "fu":
            return ("fu_out", t[1] if len(t) == 3 else f"{t[1]}@{t[3]}", k)
        if t[0] == "mem":
            return _mem_end("mem_out", node, adg.node(t[1]).defn, t, k, place_lane_base(dfg, place, nid))  # type: ignore[arg-type]
        return ("mod_in", t[1])

    def dst(nid: str, k: int) -> End:
        t, node = place[nid], dfg.by_id[nid]
        if t[0] == "fu":
            return ("fu_in", t[1] if len(t) == 3 else f"{t[1]}@{t[3]}", k)
        if t[0] == "mem":
            return _mem_end("mem_in", node, adg.node(t[1]).defn, t, k)  # type: ignore[arg-type]
        return ("mod_out", t[1])

    return src, dst


def _mem_end(kind: str, node: Any, mem: MemDef, t: tuple, k: int, base: Optional[int] = None) -> End:
    """A software memory's operand (``mem_in``) or result (``mem_out``) ``k`` at region target ``t``: the
    hardware port, and on a tagged memory the tag the value carries there (a result: its lane, from ``base``)."""
    side = 1 if kind == "mem_out" else 0
    port = mem_port_maps(node, mem, t[3])[side][k]
    if not mem.tagged:
        return (kind, t[1], port)
    return (kind, t[1], port, mem_port_tags(node, mem, t[3], base)[side][k])


def end_name(e: End) -> str:
    """``pe_1_2 FU output 0``, ``extmem0 input 3`` (``extmem0 input 1 tag 2`` on a tagged memory), ``module output 1``."""
    if e[0] in ("fu_out", "fu_in"):
        return f"{e[1]} FU {'output' if e[0] == 'fu_out' else 'input'} {e[2]}"
    if e[0] in ("mem_out", "mem_in"):
        return f"{e[1]} {'output' if e[0] == 'mem_out' else 'input'} {e[2]}" + (f" tag {e[3]}" if len(e) > 3 else "")
    return f"module {'input' if e[0] == 'mod_in' else 'output'} {e[1]}"
