"""A temporal PE's config_mem slice (spec-fabric-config_mem, ``fabric.temporal_pe``): layout, packing, unpacking.

Low to high: ``num_instruction`` slots, each ``valid | tag | opcode | operand cfg x max_fu_inputs | input mux x
max_fu_inputs | output demux x max_fu_outputs | result cfg x max_fu_outputs``, then every FU's internal config in
FU definition order. An operand cfg is ``reg_idx | is_reg`` and a result cfg ``res_tag | reg_idx | is_reg``, the
register parts present only when ``num_register > 0``; muxes are ``sel | discard | disconnect``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loom.map.config import DecodeError, MuxField, choice_width
from loom.map.rules import fu_config_bits
from loom.map.temporal.model import TemporalPEDef


@dataclass(frozen=True)
class SlotLayout:
    """Field widths and counts of one instruction slot."""

    tag: int
    opcode: int
    reg: int  # reg_idx bits + 1 (is_reg), or 0 without registers
    in_sel: int
    out_sel: int
    n_in: int
    n_out: int

    @property
    def bits(self) -> int:
        return (1 + self.tag + self.opcode + self.n_in * (self.reg + self.in_sel + 2)
                + self.n_out * (self.out_sel + 2 + self.tag + self.reg))


def slot_layout(d: TemporalPEDef) -> SlotLayout:
    reg = choice_width(d.num_register) + 1 if d.num_register > 0 else 0
    return SlotLayout(d.tag_width, choice_width(len(d.fus)), reg, choice_width(len(d.in_widths)),
                      choice_width(len(d.out_widths)), d.max_fu_inputs, d.max_fu_outputs)


def tpe_bits(d: TemporalPEDef) -> int:
    """Meaningful bits of the temporal PE's slice."""
    return d.num_instruction * slot_layout(d).bits + sum(fu_config_bits(f) for f in d.fus)


@dataclass
class SlotConfig:
    """One instruction slot: which FU fires on which tag, where its operands come from and its results go."""

    valid: bool = False
    tag: int = 0
    opcode: int = 0
    operands: list[tuple[int, bool]] = field(default_factory=list)  # (reg_idx, is_reg) per FU input
    inputs: list[MuxField] = field(default_factory=list)  # PE input per FU input
    outputs: list[MuxField] = field(default_factory=list)  # PE output per FU output
    results: list[tuple[int, int, bool]] = field(default_factory=list)  # (res_tag, reg_idx, is_reg) per FU output


@dataclass
class TPEConfig:
    """A temporal PE's slots and its persistent per-FU internal config (one value per FU, definition order)."""

    slots: list[SlotConfig] = field(default_factory=list)
    payloads: list[int] = field(default_factory=list)


class _Bits:
    def __init__(self) -> None:
        self.value, self.n = 0, 0

    def put(self, v: int, width: int) -> None:
        if not 0 <= v < (1 << width) and not (v == 0 and width == 0):
            raise ValueError(f"value {v} does not fit {width} bits")
        self.value |= v << self.n
        self.n += width


def pack_tpe(d: TemporalPEDef, c: TPEConfig) -> int:
    """The slice's value for ``c`` (missing slots are invalid, missing fields the unused state)."""
    lay = slot_layout(d)
    b = _Bits()
    for s in range(d.num_instruction):
        sc = c.slots[s] if s < len(c.slots) else SlotConfig()
        b.put(int(sc.valid), 1), b.put(sc.tag, lay.tag), b.put(sc.opcode, lay.opcode)
        for k in range(lay.n_in):
            reg, is_reg = sc.operands[k] if k < len(sc.operands) else (0, False)
            if lay.reg:
                b.put(reg, lay.reg - 1), b.put(int(is_reg), 1)
        for k in range(lay.n_in):
            f = sc.inputs[k] if k < len(sc.inputs) else MuxField()
            b.put(f.sel, lay.in_sel), b.put(int(f.discard), 1), b.put(int(f.disconnect), 1)
        for k in range(lay.n_out):
            f = sc.outputs[k] if k < len(sc.outputs) else MuxField()
            b.put(f.sel, lay.out_sel), b.put(int(f.discard), 1), b.put(int(f.disconnect), 1)
        for k in range(lay.n_out):
            tag, reg, is_reg = sc.results[k] if k < len(sc.results) else (0, 0, False)
            b.put(tag, lay.tag)
            if lay.reg:
                b.put(reg, lay.reg - 1), b.put(int(is_reg), 1)
    for k, f in enumerate(d.fus):
        b.put(c.payloads[k] if k < len(c.payloads) else 0, fu_config_bits(f))
    return b.value


def unpack_tpe(d: TemporalPEDef, value: int, name: str) -> TPEConfig:
    """``pack_tpe`` inverted; DecodeError when an opcode or selector names nothing (C6)."""
    lay = slot_layout(d)
    pos = 0

    def take(w: int) -> int:
        nonlocal pos
        v = (value >> pos) & ((1 << w) - 1)
        pos += w
        return v

    c = TPEConfig()
    for s in range(d.num_instruction):
        sc = SlotConfig(bool(take(1)), take(lay.tag), take(lay.opcode))
        if sc.opcode >= len(d.fus):
            raise DecodeError(f"temporal PE {name} slot {s}: opcode {sc.opcode} names no function unit")
        for _ in range(lay.n_in):
            sc.operands.append((take(lay.reg - 1), bool(take(1))) if lay.reg else (0, False))
        for k in range(lay.n_in):
            f = MuxField(take(lay.in_sel), bool(take(1)), bool(take(1)))
            if f.sel >= len(d.in_widths):
                raise DecodeError(f"temporal PE {name} slot {s}: input mux {k} selects PE input {f.sel}, which does not exist")
            sc.inputs.append(f)
        for k in range(lay.n_out):
            f = MuxField(take(lay.out_sel), bool(take(1)), bool(take(1)))
            if f.sel >= len(d.out_widths):
                raise DecodeError(f"temporal PE {name} slot {s}: output demux {k} selects PE output {f.sel}, which does not exist")
            sc.outputs.append(f)
        for _ in range(lay.n_out):
            tag = take(lay.tag)
            reg, is_reg = (take(lay.reg - 1), bool(take(1))) if lay.reg else (0, False)
            sc.results.append((tag, reg, is_reg))
        c.slots.append(sc)
    for f in d.fus:
        c.payloads.append(take(fu_config_bits(f)))
    return c
