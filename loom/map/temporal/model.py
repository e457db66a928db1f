"""Temporal PEs and the tag adapters at their ports, as plain data beside ``loom.map.adg.model``.

A temporal PE is node kind ``"tpe"``; its ports are ``!fabric.tagged<V, iK>`` and are routed as V-wide ports.
The mapper gives instruction slot ``s`` its own ``ports_per_slot`` block of PE inputs and outputs (``slot_ports``),
so each slot is routed like one spatial PE and a PE port carries one software flow. A ``fabric.add_tag`` /
``fabric.del_tag`` that only joins a temporal PE port to the untagged network is a pass-through node
(``"add_tag"`` / ``"del_tag"``): the add_tag's tag is the fabric's runtime value, which the mapper keeps.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.map.adg.model import PEDef


@dataclass
class TemporalPEDef(PEDef):
    """fabric.temporal_pe: function units (opcode = definition order), slots, registers, tag width."""

    num_instruction: int = 1
    num_register: int = 0
    tag_width: int = 1

    def slot_inputs(self, slot: int) -> list[int]:
        """The PE inputs the mapper routes slot ``slot``'s operands to (an even share, in order, when
        the PE has enough for its widest FU; else every input)."""
        k = len(self.in_widths) // self.num_instruction
        return list(range(slot * k, slot * k + k)) if k >= self.max_fu_inputs else list(range(len(self.in_widths)))

    def slot_outputs(self, slot: int) -> list[int]:
        """The PE outputs the mapper drives slot ``slot``'s results to (an even share, in order, when
        the PE has enough for its widest FU; else every output)."""
        k = len(self.out_widths) // self.num_instruction
        return list(range(slot * k, slot * k + k)) if k >= self.max_fu_outputs else list(range(len(self.out_widths)))


@dataclass
class TagDef:
    """fabric.add_tag (``tag`` is its runtime value) or fabric.del_tag: one input, one output, one payload width."""

    name: str
    tag: int
    tag_width: int
    in_widths: list[int]
    out_widths: list[int]


def slot_name(pe: str, slot: int) -> str:
    """``tpe_1_2@3``: the name of one instruction slot in route ends and reports."""
    return f"{pe}@{slot}"
