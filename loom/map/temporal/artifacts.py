"""map.json's temporal sections (spec-mapper-output): ``temporal_pes`` (each slot's tag, FU and op) and
``temporal_registers``. loom binds no temporal register yet (a value between two slots of one temporal PE is
routed through the switches), so ``temporal_registers`` is empty. Absent when the fabric has no temporal PE."""

from __future__ import annotations

from typing import Any


def temporal_sections(m: Any) -> dict[str, Any]:
    """The sections for mapping ``m`` (a ``loom.map.mapper.Mapping``)."""
    tpes = [n for n in m.adg.nodes if n.kind == "tpe"]
    if not tpes:
        return {}
    hosted = {(t[1], t[3]): nid for nid, t in m.place.items() if t[0] == "fu" and len(t) == 4}
    out = []
    for n in tpes:
        c = m.config.temporal.get(n.name)
        slots = []
        for s in range(n.defn.num_instruction):
            sc = c.slots[s] if c is not None else None
            if sc is None or not sc.valid:
                slots.append({"slot": s, "valid": False})
                continue
            slots.append({"slot": s, "valid": True, "tag": sc.tag, "opcode": sc.opcode,
                          "fu": n.defn.fus[sc.opcode].name, "node": hosted.get((n.name, s))})
        out.append({"name": n.name, "num_instruction": n.defn.num_instruction,
                    "num_register": n.defn.num_register, "slots": slots})
    return {"temporal_pes": out, "temporal_registers": []}
