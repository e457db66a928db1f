"""Where a DFG op may sit on a temporal PE: a target ``("fu", pe, opcode, slot)`` per instruction slot.

Slot ``s`` has tag ``s``. It reads the PE inputs a value of tag ``s`` can reach (through add_tags, tagged and
temporal switches, FIFOs and map_tags: ``possible_tags``), so one input may serve several slots, its values told
apart by tag; it drives its share of the PE outputs (``TemporalPEDef.slot_outputs``) that a del_tag adapter reads,
and any output that feeds the tagged network (shared by every slot, its results carrying the slot's tag). The
router keeps one value per (port, tag), so two slots' values never collide.
"""

from __future__ import annotations

from loom.map.adg.model import ADG, Port
from loom.map.dfg import DNode
from loom.map.rules import fu_mismatch
from loom.map.temporal.model import TemporalPEDef


_POSSIBLE: dict[int, tuple[ADG, dict[Port, set]]] = {}


def possible_tags(adg: ADG) -> dict[Port, set]:
    """The tags a value can carry at each port on an empty fabric (``loom.map.route.tag_graph``), computed once
    per ADG (the last one asked)."""
    hit = _POSSIBLE.get(id(adg))
    if hit is None or hit[0] is not adg:
        from loom.map.route import port_graph, tag_graph

        out: dict[Port, set] = {}
        for p, t in tag_graph(adg, port_graph(adg))[0]:
            out.setdefault(p, set()).add(t)
        _POSSIBLE.clear()  # one ADG at a time: the cache holds no fabric a caller has dropped
        hit = _POSSIBLE[id(adg)] = (adg, out)
    return hit[1]


def slot_inputs(adg: ADG, pe: str, slot: int) -> list[int]:
    """The PE inputs slot ``slot`` may read: those a value of tag ``slot`` can reach."""
    d: TemporalPEDef = adg.node(pe).defn  # type: ignore[assignment]
    tags = possible_tags(adg)
    return [q for q in range(len(d.in_widths)) if slot in tags.get((pe, "i", q), set())]


def slot_outputs(adg: ADG, pe: str, slot: int) -> list[int]:
    """The PE outputs slot ``slot`` may drive: its share of those a del_tag reads, and every output that feeds
    tagged hardware (a temporal or tagged switch, a FIFO, a map_tag), where the slot's tag tells its values apart."""
    d: TemporalPEDef = adg.node(pe).defn  # type: ignore[assignment]
    share = set(d.slot_outputs(slot))
    out = []
    for q in range(len(d.out_widths)):
        readers = adg.readers.get((pe, "o", q), [])
        kinds = [adg.node(r[0]).kind if r[0] in adg._by_name else "module" for r in readers]
        if kinds == ["del_tag"] and q in share or kinds and "del_tag" not in kinds and "module" not in kinds:
            out.append(q)
    return out


def slot_ports(adg: ADG, pe: str, slot: int, is_src: bool, width: int) -> list[Port]:
    """``end_ports`` for a slot: its PE outputs (``is_src``) or inputs at least ``width`` bits wide."""
    d: TemporalPEDef = adg.node(pe).defn  # type: ignore[assignment]
    if is_src:
        return [(pe, "o", q) for q in slot_outputs(adg, pe, slot) if d.out_widths[q] >= width]
    return [(pe, "i", q) for q in slot_inputs(adg, pe, slot) if d.in_widths[q] >= width]


def slot_targets(n: DNode, adg: ADG) -> list[tuple]:
    """Every (temporal PE, first FU implementing ``n``, slot) whose slot has ports for all of ``n``'s values."""
    from loom.map.adg.model import value_width

    out: list[tuple] = []
    fu_of: dict[int, int | None] = {}
    for node in adg.nodes:
        if node.kind != "tpe":
            continue
        d: TemporalPEDef = node.defn  # type: ignore[assignment]
        if id(d) not in fu_of:
            fu_of[id(d)] = next((f.opcode for f in d.fus if f.op is not None and fu_mismatch(n, f) is None), None)
        fu = fu_of[id(d)]
        if fu is None:
            continue
        for s in range(d.num_instruction):
            if s >= 1 << d.tag_width:
                break
            ins = [len(slot_ports(adg, node.name, s, False, value_width(t) or 0)) for t in n.in_types]
            outs = [len(slot_ports(adg, node.name, s, True, value_width(t) or 0)) for t in n.out_types]
            # (operands beyond the slot's inputs may come from temporal registers: the router finds out)
            if len(slot_inputs(adg, node.name, s)) >= len(n.in_types) - d.num_register and all(ins) and \
                    len(slot_outputs(adg, node.name, s)) >= len(n.out_types) and all(outs):
                out.append(("fu", node.name, fu, s))
    return out
