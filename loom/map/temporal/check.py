"""The checker's temporal PE rules (C1, C5, C6, C9), from the decoded words and map.json's certificate only.

Each valid slot must host exactly the op map.json places there, on the FU its opcode names. Slot tags are
distinct within a PE, and every PE input a slot's mux selects is fed by an add_tag whose decoded tag is the slot's
tag: a token can then fire only its own slot, so each op consumes its operands in arrival order and two ops of
one PE never take each other's tokens (the firing order of every op is preserved). An FU's persistent config must
be what every op on it needs (C9). A register written by one slot's result (its demux discarding) and read by
other slots' operands (their muxes disconnected) joins that writer to each reader (``register_links``); a
register read but never written, written twice or written but never read is refused (C5).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional

from loom.map.adg.model import ADG
from loom.map.config import Config, MuxField, PEConfig, split_payload
from loom.map.dfg import DFG
from loom.map.rules import fu_fields, fu_mismatch, wanted_fields
from loom.map.temporal.model import slot_name


@dataclass
class SlotView(PEConfig):
    """One valid slot seen as a spatial PE record (for the route walk and the isomorphism): its muxes, its FU's
    persistent payload, and where it lives."""

    pe: str = ""
    slot: int = 0


def split_slot(adg: ADG, name: str) -> Optional[tuple[str, int]]:
    """``(pe, slot)`` when ``name`` is ``pe@slot`` for a temporal PE and an existing slot; else None."""
    pe, at, s = name.rpartition("@")
    if not at or not s.isdigit() or pe not in adg._by_name or adg.node(pe).kind != "tpe":
        return None
    return (pe, int(s)) if int(s) < adg.node(pe).defn.num_instruction else None  # type: ignore[attr-defined]


def slot_view(adg: ADG, cfg: Config, name: str) -> Optional[SlotView]:
    """The decoded record of slot ``name`` (``pe@slot``), valid or not; None when ``name`` names no slot."""
    hit = split_slot(adg, name)
    if hit is None or hit[0] not in cfg.temporal:
        return None
    pe, s = hit
    sc = cfg.temporal[pe].slots[s]
    return SlotView(sc.valid, sc.opcode, sc.inputs, sc.outputs, cfg.temporal[pe].payloads[sc.opcode], pe, s)


def check_tpes(dfg: DFG, adg: ADG, cfg: Config, place: dict[str, tuple], rep: Any) -> dict[str, Any]:
    """Every temporal PE's slots against the ops placed on them; returns the valid slots as ``name -> (FU, view)``."""
    hosted = {(t[1], t[3]): nid for nid, t in place.items() if t[0] == "fu" and len(t) == 4}
    fus: dict[str, Any] = {}
    for node in adg.nodes:
        if node.kind != "tpe":
            continue
        d, c = node.defn, cfg.temporal[node.name]
        tags: dict[int, int] = {}
        users: dict[int, list[str]] = {}  # opcode -> ops on it
        for s, sc in enumerate(c.slots):
            name, nid = slot_name(node.name, s), hosted.get((node.name, s))
            if not sc.valid:
                if nid is not None:
                    rep.add("C5", f"{name} hosts %{nid} but the slot is not valid")
                if sc.tag or sc.opcode or any(r != (0, False) for r in sc.operands) or any(
                        r != (0, 0, False) for r in sc.results) or not all(f == MuxField() for f in sc.inputs + sc.outputs):
                    rep.add("C6", f"{name} is not valid but its record is not the unused state")
                continue
            fu = d.fus[sc.opcode]  # type: ignore[attr-defined]
            if nid is None:
                rep.add("C5", f"{name} is valid and fires {fu.name}, but hosts no DFG node")
                continue
            n = dfg.by_id[nid]
            if sc.opcode != place[nid][2]:
                rep.add("C1", f"{name} fires {fu.name} but map.json places %{nid} on opcode {place[nid][2]}")
                continue
            why = fu_mismatch(n, fu)
            if why is not None:
                rep.add("C1", f"%{nid} ({n.name}) cannot run on {name}/{fu.name}: {why}")
                continue
            if sc.tag in tags:
                rep.add("C5", f"{node.name} slots {tags[sc.tag]} and {s} both match tag {sc.tag}: a token could fire either")
            tags[sc.tag] = s
            _check_slot_fields(adg, cfg, node.name, name, s, sc, fu, rep)
            users.setdefault(sc.opcode, []).append(nid)
            view = SlotView(True, sc.opcode, sc.inputs, sc.outputs, c.payloads[sc.opcode], node.name, s)
            fus[name] = (fu, view)
        for k, fu in enumerate(d.fus):  # type: ignore[attr-defined]
            widths = [f.width for f in fu_fields(fu)]
            vals, rest = split_payload(widths, c.payloads[k])
            ops = users.get(k, [])
            if not ops:
                if c.payloads[k]:
                    rep.add("C6", f"{node.name}/{fu.name} hosts no op but its persistent config is not zero")
                continue
            for nid in ops:
                want = wanted_fields(dfg.by_id[nid], fu)
                if vals != want or rest:
                    rep.add("C9", f"{node.name}/{fu.name} is configured {vals}, but %{nid} on it needs {want} "
                                  f"(its config is persistent per FU, shared by every slot)")
    return fus


def _check_slot_fields(adg: ADG, cfg: Config, pe: str, name: str, s: int, sc: Any, fu: Any, rep: Any) -> None:
    """Mux, demux, register and tag fields of one valid slot."""
    n_reg = adg.node(pe).defn.num_register  # type: ignore[attr-defined]
    for k, (reg, is_reg) in enumerate(sc.operands):
        if is_reg and (k >= len(fu.inputs) or reg >= n_reg):
            rep.add("C6", f"{name} operand {k} reads register {reg}, which it or {pe} does not have")
        elif is_reg and sc.inputs[k] != MuxField():
            rep.add("C6", f"{name} operand {k} reads register {reg} but its input mux is not disconnected")
    for k, (tag, reg, is_reg) in enumerate(sc.results):
        if is_reg and (k >= len(fu.outputs) or reg >= n_reg):
            rep.add("C6", f"{name} result {k} writes register {reg}, which it or {pe} does not have")
        elif is_reg and sc.outputs[k] != MuxField(0, True, False):
            rep.add("C5", f"{name} result {k} writes register {reg} but its output demux does not discard")
    for k, f in enumerate(sc.inputs):
        if k < len(sc.operands) and sc.operands[k][1]:
            continue  # read from a register (checked above)
        if k >= len(fu.inputs) or f.disconnect:
            if f != MuxField():
                rep.add("C6", f"{name} input mux {k} is unused but not in the disconnected state")
            continue
        if f.discard:
            rep.add("C6", f"{name} input mux {k} sets the reserved discard bit")
        from loom.map.tags import tags_at  # the decoded tags, through tagged switches and map_tags too

        arriving = sorted(tags_at(adg, cfg.switches, cfg.tags, cfg.map_tags, cfg.tsw).get((pe, "i", f.sel), set()))
        if not arriving:
            rep.add("C5", f"{name} input {k} reads PE input {f.sel}, whose tag no add_tag sets")
        elif sc.tag not in {tag for _, tag in arriving}:  # other tags on a shared input belong to other slots
            rep.add("C5", f"{name} matches tag {sc.tag}, but PE input {f.sel} carries tag "
                          f"{', '.join(str(t) for t in sorted({t for _, t in arriving}))} only (from {', '.join(sorted({s for s, _ in arriving}))}): "
                          f"its operand {k} would never fire it")
    for k, f in enumerate(sc.outputs):
        if k >= len(fu.outputs):
            if f != MuxField():
                rep.add("C6", f"{name} output demux {k} is unused but not in the disconnected state")
        elif f.disconnect:
            rep.add("C6", f"{name} output {k} of {fu.name} is neither routed nor discarded")
        elif f.discard and f.sel:
            rep.add("C6", f"{name} output demux {k} discards but selects PE output {f.sel}")


def register_links(adg: ADG, cfg: Config, fus: dict[str, Any], rep: Any) -> list[Any]:
    """The connections the valid slots' registers make: each written register to every operand reading it (no
    switch hop); a register read but never written, written by two results, or written but never read is C5."""
    from loom.map.decode_routes import Connection

    out = []
    for node in adg.nodes:
        if node.kind != "tpe" or node.defn.num_register == 0:  # type: ignore[attr-defined]
            continue
        writers: dict[int, list[tuple[str, int]]] = {}
        readers: dict[int, list[tuple[str, int]]] = {}
        for name, (fu, view) in fus.items():
            if getattr(view, "pe", None) != node.name:
                continue
            sc = cfg.temporal[node.name].slots[view.slot]
            for k, (_, reg, is_reg) in enumerate(sc.results[: len(fu.outputs)]):
                if is_reg:
                    writers.setdefault(reg, []).append((name, k))
            for j, (reg, is_reg) in enumerate(sc.operands[: len(fu.inputs)]):
                if is_reg:
                    readers.setdefault(reg, []).append((name, j))
        width = max(node.defn.in_widths, default=0)  # type: ignore[attr-defined]
        for reg in sorted(writers.keys() | readers.keys()):
            w, r = writers.get(reg, []), readers.get(reg, [])
            if len(w) != 1 or not r:
                rep.add("C5", f"{node.name} register {reg} has {len(w)} writers and {len(r)} readers "
                              "(a register-backed edge needs exactly one writer and a reader)")
                continue
            for name, j in r:
                out.append(Connection(("fu_out", w[0][0], w[0][1]), ("fu_in", name, j), width, 0))
    return out
