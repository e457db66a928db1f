"""Where a DFG op may sit on a temporal PE: a target ``("fu", pe, opcode, slot)`` per instruction slot.

Slot ``s`` reads the PE inputs whose add_tag adapter gives tag ``s`` (the slot's tag is ``s``, so every value it
reads carries its tag) and drives its share of the PE outputs (``TemporalPEDef.slot_outputs``) that a del_tag
adapter reads; a PE port carries one software flow, so each slot is routed like one spatial PE.
"""

from __future__ import annotations

from loom.map.adg.model import ADG, Port
from loom.map.dfg import DNode
from loom.map.rules import fu_mismatch
from loom.map.temporal.model import TagDef, TemporalPEDef


def adapter_tag(adg: ADG, pe: str, q: int) -> int | None:
    """The tag values reaching input ``q`` of temporal PE ``pe`` carry: the add_tag feeding it, or the one tag every
    add_tag that can reach it through tagged switches, FIFOs and map_tags gives (``loom.map.tags.static_tags``);
    None when no add_tag, or add_tags of different tags, can reach it."""
    src = adg.drivers.get((pe, "i", q))
    if src is not None and src[0] in adg._by_name and adg.node(src[0]).kind == "add_tag":
        return adg.node(src[0]).defn.tag  # type: ignore[attr-defined]
    from loom.map.tags import static_tags

    tags = {t for _, t in static_tags(adg).get((pe, "i", q), set())}
    return tags.pop() if len(tags) == 1 else None


def slot_inputs(adg: ADG, pe: str, slot: int) -> list[int]:
    """The PE inputs slot ``slot`` may read: those whose add_tag gives tag ``slot``."""
    d: TemporalPEDef = adg.node(pe).defn  # type: ignore[assignment]
    return [q for q in range(len(d.in_widths)) if adapter_tag(adg, pe, q) == slot]


def slot_outputs(adg: ADG, pe: str, slot: int) -> list[int]:
    """The PE outputs slot ``slot`` may drive: its share, each read by a del_tag."""
    d: TemporalPEDef = adg.node(pe).defn  # type: ignore[assignment]
    out = []
    for q in d.slot_outputs(slot):
        readers = adg.readers.get((pe, "o", q), [])
        if len(readers) == 1 and readers[0][0] in adg._by_name and adg.node(readers[0][0]).kind == "del_tag":
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
            if len(slot_inputs(adg, node.name, s)) >= len(n.in_types) and all(ins) and \
                    len(slot_outputs(adg, node.name, s)) >= len(n.out_types) and all(outs):
                out.append(("fu", node.name, fu, s))
    return out
