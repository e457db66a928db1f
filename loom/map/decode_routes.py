"""The one walk over a decoded configuration's routes, shared by the checker and the executor.

Starting at every configured source (an enabled, non-discarded FU output through its PE output demux, every
memory output, every module input), it follows wires, the switch transitions the configuration enables and the
PE input muxes to the ends each value reaches. Per reached end it records the narrowest port passed (C2) and
the switch hops. Structural problems met on the way (a switch output selecting several inputs, a PE input mux
broadcasting, a routing loop, a route dead-ending in a switch, fan-out outside a switch, an FU input no route
drives) are returned as (constraint, message) findings; the checker reports them, the executor refuses to run.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT, Port, port_name
from loom.map.config import Config
from loom.map.dfg import DFG
from loom.map.rules import mem_port_maps

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
    walk = RouteWalk()
    note = walk.findings.append
    active_in: dict[tuple[str, int], list[int]] = {}
    for sw, pairs in cfg.switches.items():
        for o, i in pairs:
            active_in.setdefault((sw, i), []).append(o)
    for sw, pairs in cfg.switches.items():
        for o, n in Counter(o for o, _ in pairs).items():
            if n > 1:
                note(("C4", f"{sw} output {o} selects {n} inputs at once"))
    mux_of: dict[tuple[str, int], list[tuple[str, int]]] = {}  # (pe, pe input) -> the (PE or slot, FU input)s it feeds
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.inputs[: len(fu.inputs)]):
            if not f.disconnect:
                mux_of.setdefault((_phys(pe, c), f.sel), []).append((pe, k))
    for (pe, q), ks in mux_of.items():
        if len(ks) > 1:
            note(("C11", f"{pe} input {q} feeds FU inputs {[f'{a}/{k}' for a, k in ks]}: a PE input mux cannot broadcast"))
    sources: list[tuple[End, Port]] = []
    seen_out: dict[tuple[str, int], str] = {}
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.outputs[: len(fu.outputs)]):
            if not f.disconnect and not f.discard:
                host = _phys(pe, c)
                if (host, f.sel) in seen_out:
                    note(("C4", f"{host} output {f.sel} is driven by FU outputs {seen_out[(host, f.sel)]} and {pe}/{k}"))
                seen_out[(host, f.sel)] = f"{pe}/{k}"
                sources.append((("fu_out", pe, k), (host, "o", f.sel)))
    for m in adg.memories():
        for k in range(len(m.defn.out_widths)):  # type: ignore[attr-defined]
            sources.append((("mem_out", m.name, k), (m.name, "o", k)))
    for k in range(len(adg.in_types)):
        if adg.width((MODULE_IN, "o", k)) is not None:
            sources.append((("mod_in", k), (MODULE_IN, "o", k)))
    kinds = {n.name: n.kind for n in adg.nodes}
    fed_inputs: Counter = Counter()

    slots = 0  # buffered FIFO slots on the path being walked (set per stack entry)

    def reach(src: End, dst: End, width: int, hops: int) -> None:
        walk.connections.append(Connection(src, dst, width, hops, slots))

    for src_end, port in sources:
        stack = [(port, adg.width(port) or 0, 0, frozenset([port]), 0)]
        while stack:
            out_port, w, hops, visited, slots = stack.pop()
            consumers = 0
            for in_port in adg.readers.get(out_port, []):
                node, _, q = in_port
                wi = min(w, adg.width(in_port) or 0)
                kind = kinds.get(node, node)
                if node == MODULE_OUT:
                    consumers += 1
                    reach(src_end, ("mod_out", q), wi, hops)
                elif kind == "sw":
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
                        stack.append((nxt, min(wi, adg.width(nxt) or 0), hops + 1, visited | {nxt}, slots))
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
                                  slots + (fifo.depth if buffered else 0)))  # type: ignore[attr-defined]
                elif kind in ("add_tag", "del_tag", "map_tag"):  # passes the value on, (re)tagging or untagging it
                    consumers += 1
                    nxt = (node, "o", 0)
                    stack.append((nxt, min(wi, adg.width(nxt) or 0), hops, visited | {nxt}, slots))
                elif kind in ("pe", "tpe"):
                    ks = mux_of.get((node, q), [])
                    if ks:
                        consumers += 1
                    for host, k in ks:
                        fed_inputs[(host, k)] += 1
                        reach(src_end, ("fu_in", host, k), wi, hops)
                else:  # a memory input
                    consumers += 1
                    reach(src_end, ("mem_in", node, q), wi, hops)
            src_kind = kinds.get(out_port[0], out_port[0])
            if consumers == 0 and (src_kind in ("sw", "fifo") or src_kind in ("add_tag", "del_tag", "map_tag") and hops):
                # (a tag op only wired to a source, before any switch, is a wire nothing selects: no route)
                note(("C3", f"a route of {end_name(src_end)} dead-ends at {port_name(out_port)}, which nothing consumes"))
            if consumers > 1 and src_kind != "sw":
                note(("C11", f"{port_name(out_port)} is not a switch output but feeds {consumers} consumers"))
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
            return ("mem_out", t[1], mem_port_maps(node, adg.node(t[1]).defn, t[3])[1][k])  # type: ignore[arg-type]
        return ("mod_in", t[1])

    def dst(nid: str, k: int) -> End:
        t, node = place[nid], dfg.by_id[nid]
        if t[0] == "fu":
            return ("fu_in", t[1] if len(t) == 3 else f"{t[1]}@{t[3]}", k)
        if t[0] == "mem":
            return ("mem_in", t[1], mem_port_maps(node, adg.node(t[1]).defn, t[3])[0][k])  # type: ignore[arg-type]
        return ("mod_out", t[1])

    return src, dst


def end_name(e: End) -> str:
    """``pe_1_2 FU output 0``, ``extmem0 input 3``, ``module output 1``."""
    if e[0] in ("fu_out", "fu_in"):
        return f"{e[1]} FU {'output' if e[0] == 'fu_out' else 'input'} {e[2]}"
    if e[0] in ("mem_out", "mem_in"):
        return f"{e[1]} {'output' if e[0] == 'mem_out' else 'input'} {e[2]}"
    return f"module {'input' if e[0] == 'mod_in' else 'output'} {e[1]}"
