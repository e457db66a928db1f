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
from typing import Any, NamedTuple, Optional

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT, MemDef, Port, port_name
from loom.map.config import Config
from loom.map.dfg import DFG
from loom.map.rules import mem_port_maps, mem_port_role, mem_port_tags, place_lane_base, tag_lane
from loom.map.tags import retag
from loom.map.tsw import TSwitchDef

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


class _Value(NamedTuple):
    """A value on its way from one source: the port it leaves, the narrowest width passed, the switches and
    buffered FIFO slots passed, the ports visited (a routing loop revisits one) and its tag (None: untagged)."""

    port: Port
    width: int
    hops: int
    visited: frozenset
    slots: int
    tag: Optional[int]


def walk_routes(adg: ADG, cfg: Config, fus: dict[str, Any]) -> RouteWalk:
    """Follow every configured source of ``cfg`` to its consumers; ``fus`` maps each enabled PE, and each valid
    temporal PE slot (``pe@slot``, its record a ``SlotView`` naming its PE), to (FU, PE config)."""
    w = _Walker(adg, cfg, fus)
    w.index_pe_muxes()
    w.add_sources()
    for src_end, port, tag in w.sources:  # (a tagged memory's answers are appended while this loop runs)
        w.follow(src_end, port, tag)
    w.check_merges()
    w.check_collisions()
    w.check_undriven()
    return w.walk


class _Walker:
    """One walk's state: the configuration's tables, the sources to follow, and what following them found;
    one method per kind of node a value meets (``_into_*``), each returning how many consumers it counts and
    whether it dropped the value (reported there, not again as a dead end)."""

    def __init__(self, adg: ADG, cfg: Config, fus: dict[str, Any]) -> None:
        self.adg, self.cfg, self.fus = adg, cfg, fus
        self.walk = RouteWalk()
        self.note = self.walk.findings.append
        self.active_in: dict[tuple[str, int], list[int]] = {}  # (switch, input) -> outputs selecting it
        for sw, pairs in cfg.switches.items():
            for o, i in pairs:
                self.active_in.setdefault((sw, i), []).append(o)
        self.by_tag: dict[tuple[str, int, int], list[int]] = {}  # (temporal_sw, tag, input) -> outputs its slot enables
        for sw, slot_list in cfg.tsw.items():
            for valid, t, tr in slot_list:
                for o, i in sorted(tr) if valid else ():
                    self.by_tag.setdefault((sw, t, i), []).append(o)
        self.untagged_in: set[tuple[str, int]] = set()  # (switch, input) some untagged value reaches
        self.walk_in: set[tuple[str, int]] = set()  # (switch, input) some value reaches
        self.mux_of: dict[tuple[str, int], list[tuple[str, int]]] = {}  # (pe, pe input) -> the (PE or slot, FU input)s it feeds
        self.sources: list[tuple[End, Port, Optional[int]]] = []
        self.answered: set[tuple[str, int, Optional[int]]] = set()  # (tagged memory, output, tag) already a source
        self.carried: dict[tuple[Port, int], set[End]] = {}  # (port, tag) -> the sources whose values bring that tag there
        self.kinds = {n.name: n.kind for n in adg.nodes}
        self.fed_inputs: Counter = Counter()  # (PE or slot, FU input) -> routes reaching it

    def slot_tag(self, c: Any) -> Optional[int]:
        """A temporal PE slot's decoded tag; None for a spatial PE."""
        return self.cfg.temporal[c.pe].slots[c.slot].tag if getattr(c, "pe", "") else None

    def index_pe_muxes(self) -> None:
        """Which FU inputs each PE input's mux feeds; two of one tag fed by one PE input is a broadcast (C11)."""
        for pe, (fu, c) in self.fus.items():
            for k, f in enumerate(c.inputs[: len(fu.inputs)]):
                if not f.disconnect:
                    self.mux_of.setdefault((_phys(pe, c), f.sel), []).append((pe, k))
        for (pe, q), ks in self.mux_of.items():
            for t in sorted({self.slot_tag(self.fus[a][1]) for a, _ in ks}, key=lambda x: -1 if x is None else x):
                same = [(a, k) for a, k in ks if self.slot_tag(self.fus[a][1]) == t]
                if len(same) > 1:
                    self.note(("C11", f"{pe} input {q} feeds FU inputs {[f'{a}/{k}' for a, k in same]}: a PE input mux cannot broadcast"))

    def add_sources(self) -> None:
        """Every enabled, non-discarded FU output (two on one PE output and tag: C4), every untagged memory's
        outputs and every driven module input."""
        seen_out: dict[tuple[str, int, Optional[int]], str] = {}
        for pe, (fu, c) in self.fus.items():
            for k, f in enumerate(c.outputs[: len(fu.outputs)]):
                if not f.disconnect and not f.discard:
                    host = _phys(pe, c)
                    tag = self.cfg.temporal[c.pe].slots[c.slot].results[k][0] if getattr(c, "pe", "") else None
                    if (host, f.sel, tag) in seen_out:
                        self.note(("C4", f"{host} output {f.sel} is driven by FU outputs {seen_out[(host, f.sel, tag)]} and {pe}/{k}"))
                    seen_out[(host, f.sel, tag)] = f"{pe}/{k}"
                    self.sources.append((("fu_out", pe, k), (host, "o", f.sel), tag))
        for m in self.adg.memories():
            if m.defn.tagged:  # type: ignore[attr-defined]
                continue  # its results answer requests: added when a request's tag reaches it (``respond``)
            for k in range(len(m.defn.out_widths)):  # type: ignore[attr-defined]
                self.sources.append((("mem_out", m.name, k), (m.name, "o", k), None))
        for k in range(len(self.adg.in_types)):
            if self.adg.width((MODULE_IN, "o", k)) is not None:
                self.sources.append((("mod_in", k), (MODULE_IN, "o", k), None))

    def respond(self, mem: str, q: int, tag: Optional[int]) -> None:
        """A request reaching tagged memory input ``q`` with ``tag``: the family's results leave with the lane the
        region words serve that tag on (``rules.tag_lane``); a tag no region holds is never answered."""
        d = self.adg.node(mem).defn
        tag = tag_lane(self.cfg.regions.get(mem, []), tag) if tag is not None else None
        role = mem_port_role(d, "i", q)  # type: ignore[arg-type]
        fams = {"ld_addr": ("ld_data", "ld_done"), "st_addr": ("st_done",)}.get(role[0] if role else "", ())
        for k in range(len(d.out_widths)):  # type: ignore[attr-defined]
            r = mem_port_role(d, "o", k)  # type: ignore[arg-type]
            if r is not None and r[0] in fams and tag is not None and (mem, k, tag) not in self.answered:
                self.answered.add((mem, k, tag))
                self.sources.append((("mem_out", mem, k, tag), (mem, "o", k), tag))

    def unselected(self, port: Port, tag: int) -> bool:
        """Whether a value with ``tag`` on ``port`` only meets temporal_sw inputs that no slot and no route use:
        a copy the fabric's wiring makes (one PE output feeding an add_tag per lane) that goes nowhere."""
        readers = self.adg.readers.get(port, [])
        return bool(readers) and all(
            self.kinds.get(n) == "sw" and isinstance(self.adg.node(n).defn, TSwitchDef)
            and not self.by_tag.get((n, tag, q)) and not self.active_in.get((n, q)) for n, _, q in readers)

    def reach(self, src: End, dst: End, width: int, v: _Value) -> None:
        """``src``'s value arrives at ``dst``."""
        self.walk.connections.append(Connection(src, dst, width, v.hops, v.slots))

    def on_loop(self, nxt: Port, v: _Value) -> bool:
        """Whether ``nxt`` was already passed on this path: a routing loop (C3)."""
        if nxt not in v.visited:
            return False
        self.walk.loops.append(nxt)
        self.note(("C3", f"{port_name(nxt)} is part of a routing loop"))
        return True

    def follow(self, src_end: End, port: Port, tag0: Optional[int]) -> None:
        """Every path of ``src_end``'s value from ``port``, depth first, to the ends it reaches."""
        stack = [_Value(port, self.adg.width(port) or 0, 0, frozenset([port]), 0, tag0)]
        while stack:
            v = stack.pop()
            if v.tag is not None:
                self.carried.setdefault((v.port, v.tag), set()).add(src_end)
            consumers, dropped = 0, False
            for in_port in self.adg.readers.get(v.port, []):
                node, _, q = in_port
                wi = min(v.width, self.adg.width(in_port) or 0)
                kind = self.kinds.get(node, node)
                if node == MODULE_OUT:
                    n, d = 1, False
                    self.reach(src_end, ("mod_out", q), wi, v)
                elif kind == "sw":
                    n, d = self._into_switch(src_end, v, node, q, wi, stack)
                elif kind == "fifo":
                    n, d = self._into_fifo(v, node, wi, stack)
                elif kind in ("add_tag", "del_tag", "map_tag"):
                    n, d = self._into_tag_op(src_end, v, node, kind, wi, stack)
                elif kind in ("pe", "tpe"):
                    n, d = self._into_pe(src_end, v, node, kind, q, wi)
                else:
                    n, d = self._into_memory(src_end, v, node, q, wi)
                consumers, dropped = consumers + n, dropped or d
            self._check_ends(src_end, v, consumers, dropped)

    def _into_switch(self, src_end: End, v: _Value, node: str, q: int, wi: int, stack: list) -> tuple[int, bool]:
        """A switch input: on to the outputs its configuration selects (a temporal_sw's: the valid slot matching
        the value's tag; none while routed here or expected: dropped, C3)."""
        dropped = False
        if v.tag is None:
            self.untagged_in.add((node, q))
        self.walk_in.add((node, q))
        if isinstance(self.adg.node(node).defn, TSwitchDef):  # the valid slot matching the value's tag
            outs = self.by_tag.get((node, v.tag, q), []) if v.tag is not None else []
            if not outs and (v.hops or self.active_in.get((node, q))):  # routed here, or a slot expects values here
                dropped = True
                self.note(("C3", f"temporal_sw {node} has no valid route-table slot sending tag {v.tag} from "
                                 f"input {q} anywhere: {end_name(src_end)}'s value is dropped"))
        else:
            outs = self.active_in.get((node, q), [])
        for o in outs:
            self.walk.used.add((node, q, o))
            nxt = (node, "o", o)
            if not self.on_loop(nxt, v):
                stack.append(_Value(nxt, min(wi, self.adg.width(nxt) or 0), v.hops + 1, v.visited | {nxt}, v.slots, v.tag))
        return (1 if outs else 0), dropped

    def _into_fifo(self, v: _Value, node: str, wi: int, stack: list) -> tuple[int, bool]:
        """A FIFO passes the value on; buffered (its depth counts) unless its bit says bypassed."""
        fifo = self.adg.node(node).defn
        nxt = (node, "o", 0)
        if not self.on_loop(nxt, v):
            buffered = not self.cfg.bypassed.get(node, False) if fifo.bypassable else True  # type: ignore[attr-defined]
            stack.append(_Value(nxt, min(wi, self.adg.width(nxt) or 0), v.hops, v.visited | {nxt},
                                v.slots + (fifo.depth if buffered else 0), v.tag))  # type: ignore[attr-defined]
        return 1, False

    def _into_tag_op(self, src_end: End, v: _Value, node: str, kind: str, wi: int, stack: list) -> tuple[int, bool]:
        """add_tag/del_tag/map_tag pass the value on, (re)tagged or untagged (``tags.retag``; no table entry:
        dropped, C3); a wired copy no route takes counts as no consumer."""
        nxt = (node, "o", 0)
        t2 = retag(kind, self.adg.node(node).defn, v.tag, self.cfg.tags.get(node), self.cfg.map_tags.get(node))
        if t2 is False:
            self.note(("C3", f"{node} has no valid table entry for tag {v.tag}: {end_name(src_end)}'s value is dropped"))
            return 1, False
        if not v.hops and t2 is not None and self.unselected(nxt, t2):
            return 0, False  # a wired copy no route takes: upstream's add_tag per lane on one PE output
        stack.append(_Value(nxt, min(wi, self.adg.width(nxt) or 0), v.hops, v.visited | {nxt}, v.slots, t2))
        return 1, False

    def _into_pe(self, src_end: End, v: _Value, node: str, kind: str, q: int, wi: int) -> tuple[int, bool]:
        """A PE input: the FU inputs its mux feeds (of a temporal PE, only the slots of the value's tag)."""
        ks = [(h, k) for h, k in self.mux_of.get((node, q), [])  # a slot takes only values of its tag
              if v.tag is None or self.slot_tag(self.fus[h][1]) in (None, v.tag)]
        dropped = False
        if not ks and v.tag is not None and kind == "tpe" and v.hops:  # (a wire nothing selects: no route)
            dropped = True
            self.note(("C3", f"{end_name(src_end)}'s value reaches {node} input {q} with tag {v.tag}, which no "
                             f"valid slot reading that input matches: it is never consumed"))
        for host, k in ks:
            self.fed_inputs[(host, k)] += 1
            self.reach(src_end, ("fu_in", host, k), wi, v)
        return (1 if ks else 0), dropped

    def _into_memory(self, src_end: End, v: _Value, node: str, q: int, wi: int) -> tuple[int, bool]:
        """A memory input; on a tagged one the tag is the lane, and the request is answered."""
        if self.adg.node(node).defn.tagged:  # type: ignore[attr-defined]
            self.reach(src_end, ("mem_in", node, q, v.tag), wi, v)
            self.respond(node, q, v.tag)
        else:
            self.reach(src_end, ("mem_in", node, q), wi, v)
        return 1, False

    def _check_ends(self, src_end: End, v: _Value, consumers: int, dropped: bool) -> None:
        """A route that dead-ends (C3), or fans out outside a switch (C11), where ``v`` leaves."""
        src_kind = self.kinds.get(v.port[0], v.port[0])
        if consumers == 0 and not dropped and (src_kind in ("sw", "fifo") or src_kind in ("add_tag", "del_tag", "map_tag") and v.hops):
            # (a tag op only wired to a source, before any switch, is a wire nothing selects: no route)
            self.note(("C3", f"a route of {end_name(src_end)} dead-ends at {port_name(v.port)}, which nothing consumes"))
        if consumers > 1 and src_kind != "sw":
            self.note(("C11", f"{port_name(v.port)} is not a switch output but feeds {consumers} consumers"))

    def check_merges(self) -> None:
        """A switch output selecting several inputs is sound only for tagged values (their tags tell them apart: C4)."""
        for sw, pairs in self.cfg.switches.items():
            if isinstance(self.adg.node(sw).defn, TSwitchDef):
                continue  # selects by tag: the tag walk follows each tag's slot
            for o in sorted({o for o, _ in pairs}):
                ins = sorted(i for oo, i in pairs if oo == o)
                if len(ins) > 1 and any((sw, i) in self.untagged_in or (sw, i) not in self.walk_in for i in ins):
                    self.note(("C4", f"{sw} output {o} selects {len(ins)} inputs at once"))

    def check_collisions(self) -> None:
        """Two sources bringing one tag to one port collide (C4)."""
        for (p, t), srcs in sorted(self.carried.items(), key=lambda x: (x[0][0], x[0][1])):
            if len(srcs) > 1:
                self.note(("C4", f"{port_name(p)} carries tag {t} from {', '.join(sorted(end_name(e) for e in srcs))}: a tag collision"))

    def check_undriven(self) -> None:
        """An FU input selecting a PE input no configured route drives (C3)."""
        for pe, (fu, c) in self.fus.items():
            for k, f in enumerate(c.inputs[: len(fu.inputs)]):
                if not f.disconnect and self.fed_inputs[(pe, k)] == 0:
                    self.note(("C3", f"{pe}/{fu.name} input {k} selects PE input {f.sel}, which no configured route drives"))


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
