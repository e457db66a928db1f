"""The config_mem image: slice layout, encoding of a mapping's configuration, and decoding back.

32-bit little-endian words; slices are word aligned; switch and memory slices
come first (module order), then one slice per spatial or temporal PE (module order; temporal PEs:
``loom.map.temporal.config``). Fields
pack LSB first. The checker uses ``layout`` and ``decode`` only.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from loom.map.adg.model import ADG, PEDef
from loom.map.rules import fu_config_bits

if TYPE_CHECKING:
    from loom.map.temporal.config import TPEConfig


def choice_width(n: int) -> int:
    """Bits to choose among ``n`` alternatives (0 when n <= 1)."""
    return 0 if n <= 1 else (n - 1).bit_length()


@dataclass(frozen=True)
class Slice:
    name: str  # the node name
    kind: str  # spatial_sw | temporal_sw | fifo | add_tag | extmemory | memory | spatial_pe | temporal_pe
    word_offset: int
    word_count: int
    bits: int  # meaningful bits (memory slices: all 32 of every word)


@dataclass(frozen=True)
class PELayout:
    opcode_bits: int
    in_sel: int
    out_sel: int
    n_in: int
    n_out: int
    payload: int

    @property
    def bits(self) -> int:
        return 1 + self.opcode_bits + self.n_in * (self.in_sel + 2) + self.n_out * (self.out_sel + 2) + self.payload


def pe_layout(pe: PEDef) -> PELayout:
    return PELayout(choice_width(len(pe.fus)), choice_width(len(pe.in_widths)), choice_width(len(pe.out_widths)),
                    pe.max_fu_inputs, pe.max_fu_outputs, max(fu_config_bits(f) for f in pe.fus))


def layout(adg: ADG) -> list[Slice]:
    """The slice table of ``adg``'s config image."""
    from loom.map.temporal.config import tpe_bits

    out: list[Slice] = []
    off = 0
    for n in adg.nodes:
        if n.kind == "sw" and hasattr(n.defn, "slots"):  # temporal_sw: route-table slots (loom/map/tsw.py)
            bits = n.defn.bits  # type: ignore[attr-defined]
            out.append(Slice(n.name, "temporal_sw", off, (bits + 31) // 32, bits))
            off += (bits + 31) // 32
        elif n.kind == "sw":
            bits = len(n.defn.connected())  # type: ignore[attr-defined]
            if bits:
                words = (bits + 31) // 32
                out.append(Slice(n.name, "spatial_sw", off, words, bits))
                off += words
        elif n.kind in ("extmemory", "memory"):
            words = 5 * n.defn.num_region  # type: ignore[attr-defined]
            out.append(Slice(n.name, n.kind, off, words, 32 * words))
            off += words
        elif n.kind == "fifo" and n.defn.bypassable:  # type: ignore[attr-defined]
            out.append(Slice(n.name, "fifo", off, 1, 1))  # one bit: 1 = bypassed (spec-fabric-fifo)
            off += 1
        elif n.kind == "add_tag":  # one word, its runtime tag in the low bits
            out.append(Slice(n.name, "add_tag", off, 1, n.defn.tag_width))  # type: ignore[attr-defined]
            off += 1
        elif n.kind == "map_tag":  # table_size entries of valid|src_tag|dst_tag (loom/map/tags.py)
            bits = n.defn.bits  # type: ignore[attr-defined]
            out.append(Slice(n.name, "map_tag", off, (bits + 31) // 32, bits))
            off += (bits + 31) // 32
    for n in adg.nodes:  # PE containers in module order
        if n.kind not in ("pe", "tpe"):
            continue
        bits = pe_layout(n.defn).bits if n.kind == "pe" else tpe_bits(n.defn)  # type: ignore[arg-type]
        words = (bits + 31) // 32
        out.append(Slice(n.name, "spatial_pe" if n.kind == "pe" else "temporal_pe", off, words, bits))
        off += words
    return out


# ----------------------------------------------------------------------------- configuration values


@dataclass(frozen=True)
class MuxField:
    sel: int = 0
    discard: bool = False
    disconnect: bool = True  # the unused state


@dataclass
class PEConfig:
    enable: bool = False
    opcode: int = 0
    inputs: list[MuxField] = field(default_factory=list)
    outputs: list[MuxField] = field(default_factory=list)
    payload: int = 0


@dataclass
class Config:
    """Runtime configuration of every node: switch transitions, PE records, memory regions."""

    switches: dict[str, set[tuple[int, int]]] = field(default_factory=dict)  # name -> {(output, input)}
    pes: dict[str, PEConfig] = field(default_factory=dict)
    regions: dict[str, list[int]] = field(default_factory=dict)  # memory name -> 5*numRegion words
    bypassed: dict[str, bool] = field(default_factory=dict)  # bypassable FIFO name -> its runtime bit
    temporal: dict[str, TPEConfig] = field(default_factory=dict)  # temporal PE name -> slots and FU configs
    tags: dict[str, int] = field(default_factory=dict)  # add_tag name -> its runtime tag
    map_tags: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)  # map_tag name -> its table
    tsw: dict[str, list[tuple[int, int, frozenset]]] = field(default_factory=dict)  # temporal_sw -> its slots


class DecodeError(Exception):
    """The word stream does not fit the ADG's config layout (C6)."""


class _Bits:
    def __init__(self) -> None:
        self.value, self.n = 0, 0

    def put(self, v: int, width: int) -> None:
        if not 0 <= v < (1 << width):
            raise ValueError(f"value {v} does not fit {width} bits")
        self.value |= v << self.n
        self.n += width


def _pack_pe(pe: PEDef, c: PEConfig) -> int:
    lay = pe_layout(pe)
    b = _Bits()
    b.put(int(c.enable), 1)
    b.put(c.opcode, lay.opcode_bits)
    for k in range(lay.n_in):
        f = c.inputs[k] if k < len(c.inputs) else MuxField()
        b.put(f.sel, lay.in_sel), b.put(int(f.discard), 1), b.put(int(f.disconnect), 1)
    for k in range(lay.n_out):
        f = c.outputs[k] if k < len(c.outputs) else MuxField()
        b.put(f.sel, lay.out_sel), b.put(int(f.discard), 1), b.put(int(f.disconnect), 1)
    b.put(c.payload, lay.payload)
    return b.value


def encode(adg: ADG, cfg: Config) -> list[int]:
    """The word stream of ``cfg`` (unmentioned nodes get their unused state)."""
    from loom.map.temporal.config import TPEConfig, pack_tpe

    words: list[int] = []
    for s in layout(adg):
        node = adg.node(s.name)
        if s.kind == "spatial_sw":
            active = cfg.switches.get(s.name, set())
            value = 0
            for bit, pos in enumerate(node.defn.connected()):  # type: ignore[attr-defined]
                if pos in active:
                    value |= 1 << bit
            words += _split(value, s.word_count)
        elif s.kind == "temporal_sw":
            from loom.map.tsw import pack

            words += _split(pack(node.defn, cfg.tsw.get(s.name, [])), s.word_count)  # type: ignore[arg-type]
        elif s.kind == "spatial_pe":
            words += _split(_pack_pe(node.defn, cfg.pes.get(s.name, PEConfig())), s.word_count)  # type: ignore[arg-type]
        elif s.kind == "fifo":
            words.append(int(cfg.bypassed.get(s.name, node.defn.bypassed)))  # type: ignore[attr-defined]
        elif s.kind == "add_tag":  # the fabric's tag unless the mapping sets one
            words.append(cfg.tags.get(s.name, node.defn.tag))  # type: ignore[attr-defined]
        elif s.kind == "map_tag":  # the fabric's table unless the mapping sets one
            from loom.map.tags import pack_map_tag

            words += _split(pack_map_tag(node.defn, cfg.map_tags.get(s.name, node.defn.table)), s.word_count)  # type: ignore[arg-type, attr-defined]
        elif s.kind == "temporal_pe":
            words += _split(pack_tpe(node.defn, cfg.temporal.get(s.name, TPEConfig())), s.word_count)  # type: ignore[arg-type]
        else:
            regions = cfg.regions.get(s.name, [0] * s.word_count)
            words += list(regions)
    return words


def _split(value: int, n: int) -> list[int]:
    return [(value >> (32 * k)) & 0xFFFFFFFF for k in range(n)]


def to_bytes(words: list[int]) -> bytes:
    return b"".join(struct.pack("<I", w) for w in words)


def from_bytes(data: bytes) -> list[int]:
    if len(data) % 4:
        raise DecodeError(f"config.bin holds {len(data)} bytes, not a whole number of 32-bit words")
    return [struct.unpack_from("<I", data, 4 * k)[0] for k in range(len(data) // 4)]


# ----------------------------------------------------------------------------- decoding


class _Reader:
    def __init__(self, value: int) -> None:
        self.value, self.pos = value, 0

    def take(self, width: int) -> int:
        v = (self.value >> self.pos) & ((1 << width) - 1)
        self.pos += width
        return v


def decode(adg: ADG, words: list[int]) -> Config:
    """The configuration ``words`` hold for ``adg``; DecodeError when they do not fit (C6)."""
    from loom.map.temporal.config import unpack_tpe

    table = layout(adg)
    total = sum(s.word_count for s in table)
    if len(words) != total:
        raise DecodeError(f"the ADG's config image has {total} words; found {len(words)}")
    cfg = Config()
    for s in table:
        chunk = words[s.word_offset : s.word_offset + s.word_count]
        value = sum(w << (32 * k) for k, w in enumerate(chunk))
        if value >> s.bits:
            raise DecodeError(f"slice {s.name}: padding bits above bit {s.bits} are not zero")
        node = adg.node(s.name)
        if s.kind == "spatial_sw":
            conn = node.defn.connected()  # type: ignore[attr-defined]
            cfg.switches[s.name] = {pos for bit, pos in enumerate(conn) if value >> bit & 1}
        elif s.kind == "temporal_sw":  # the switch's routes are the union of its valid slots' transitions
            from loom.map.tsw import union, unpack

            cfg.tsw[s.name] = unpack(node.defn, value)  # type: ignore[arg-type]
            cfg.switches[s.name] = union(cfg.tsw[s.name])
        elif s.kind == "spatial_pe":
            cfg.pes[s.name] = _unpack_pe(node.defn, value, s.name)  # type: ignore[arg-type]
        elif s.kind == "fifo":
            cfg.bypassed[s.name] = bool(value)
        elif s.kind == "add_tag":
            cfg.tags[s.name] = value
        elif s.kind == "map_tag":
            from loom.map.tags import unpack_map_tag

            cfg.map_tags[s.name] = unpack_map_tag(node.defn, value)  # type: ignore[arg-type]
        elif s.kind == "temporal_pe":
            cfg.temporal[s.name] = unpack_tpe(node.defn, value, s.name)  # type: ignore[arg-type]
        else:
            cfg.regions[s.name] = list(chunk)
    return cfg


def _unpack_pe(pe: PEDef, value: int, name: str) -> PEConfig:
    lay = pe_layout(pe)
    r = _Reader(value)
    c = PEConfig(enable=bool(r.take(1)), opcode=r.take(lay.opcode_bits))
    if c.opcode >= len(pe.fus):
        raise DecodeError(f"PE {name}: opcode {c.opcode} names no function unit ({len(pe.fus)} exist)")
    for k in range(lay.n_in):
        f = MuxField(r.take(lay.in_sel), bool(r.take(1)), bool(r.take(1)))
        if f.sel >= len(pe.in_widths):
            raise DecodeError(f"PE {name}: input mux {k} selects PE input {f.sel}, which does not exist")
        c.inputs.append(f)
    for k in range(lay.n_out):
        f = MuxField(r.take(lay.out_sel), bool(r.take(1)), bool(r.take(1)))
        if f.sel >= len(pe.out_widths):
            raise DecodeError(f"PE {name}: output demux {k} selects PE output {f.sel}, which does not exist")
        c.outputs.append(f)
    c.payload = r.take(lay.payload)
    return c


def split_payload(fields_widths: list[int], payload: int) -> tuple[list[int], int]:
    """Field values LSB first, and whatever bits are left above them."""
    vals = []
    for w in fields_widths:
        vals.append(payload & ((1 << w) - 1))
        payload >>= w
    return vals, payload


def join_payload(fields_widths: list[int], values: list[int]) -> int:
    out, pos = 0, 0
    for w, v in zip(fields_widths, values):
        out |= v << pos
        pos += w
    return out

