"""map.json's temporal sections (spec-mapper-output): ``temporal_pes`` (each slot's tag, FU and op) and
``temporal_registers`` (each register-backed edge: its PE, software edge, register, writer and reader).
Absent when the fabric has no temporal PE."""

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
    position = {n.name: k for k, n in enumerate(m.adg.nodes)}
    src_edge: dict[int, int] = {}  # contracted edge -> the first source-DFG edge it stands for
    for k in range(len(m.source.edges)):
        ck = m.edge_map[k] if m.edge_map is not None else k
        if ck is not None:
            src_edge.setdefault(ck, k)
    regs = []
    for ck, (pe, reg) in sorted(m.registers.items()):
        e = m.dfg.edges[ck]
        regs.append({"pe_name": pe, "sw_edge": src_edge.get(ck, ck), "register_index": reg,
                     "writer_sw_node": e.src[0], "writer_hw_node": position[pe], "writer_slot": m.place[e.src[0]][3],
                     "reader_sw_node": e.dst[0], "reader_hw_node": position[pe], "reader_slot": m.place[e.dst[0]][3],
                     "writer_output_index": e.src[1], "reader_input_index": e.dst[1]})
    return {"temporal_pes": out, "temporal_registers": regs}
