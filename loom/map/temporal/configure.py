"""The configuration of a temporal PE's slots for one placement and its routes (the mapper's side)."""

from __future__ import annotations

from loom.map.adg.model import ADG, Port
from loom.map.config import Config, MuxField, join_payload
from loom.map.dfg import DFG, DNode
from loom.map.rules import fu_fields, wanted_fields
from loom.map.temporal.config import SlotConfig, TPEConfig


def configure_slot(cfg: Config, dfg: DFG, adg: ADG, n: DNode, t: tuple, paths: dict[int, list[Port]],
                   regs: dict[int, tuple[str, int]]) -> None:
    """Slot ``t[3]`` of temporal PE ``t[1]`` runs ``n`` on FU ``t[2]``: tag = the slot index (the tag its add_tag
    adapters give), operands from the PE inputs its routes end at, results to the PE outputs they start at
    (unrouted results discarded), result tag = the slot's; the FU's persistent config is ``n``'s fields. An edge in
    ``regs`` goes through its register instead: the reader's operand is ``(reg, is_reg)`` with its mux
    disconnected, the writer's result is ``(tag, reg, is_reg)`` with its demux discarding."""
    _, pe, opcode, slot = t
    d = adg.node(pe).defn
    fu = d.fus[opcode]  # type: ignore[attr-defined]
    tc = cfg.temporal.setdefault(pe, TPEConfig([SlotConfig() for _ in range(d.num_instruction)],  # type: ignore[attr-defined]
                                                [0] * len(d.fus)))  # type: ignore[attr-defined]
    sc = SlotConfig(True, slot, opcode, [(0, False)] * len(fu.inputs), [MuxField() for _ in fu.inputs],
                    [MuxField(0, True, False) for _ in fu.outputs], [(slot, 0, False)] * len(fu.outputs))
    for e_idx, e in enumerate(dfg.edges):
        if e_idx in regs:
            if e.dst[0] == n.id:
                sc.operands[e.dst[1]] = (regs[e_idx][1], True)
            if e.src[0] == n.id:
                sc.results[e.src[1]] = (slot, regs[e_idx][1], True)
            continue
        if e.dst[0] == n.id:
            sc.inputs[e.dst[1]] = MuxField(paths[e_idx][-1][2], False, False)
        if e.src[0] == n.id:
            sc.outputs[e.src[1]] = MuxField(paths[e_idx][0][2], False, False)
    tc.slots[slot] = sc
    tc.payloads[opcode] = join_payload([f.width for f in fu_fields(fu)], wanted_fields(n, fu))
