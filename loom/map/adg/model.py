"""The ADG as plain data: PE/switch/memory definitions, placed nodes, ports and wires.

A port is ``(node, dir, k)`` with dir ``"i"`` (an input the node reads) or ``"o"``
(an output it drives). The module boundary is two pseudo nodes: ``$in`` (its
outputs are the module's inputs) and ``$out`` (its inputs are the module's
outputs). Wires go from one output port to the input ports that read it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from loom.ir.core import Operation
from loom.ir.location import UNKNOWN, Location
from loom.ir.types import FloatType, IndexType, IntegerType, MemRefType, NoneType, OpaqueType, Type
from loom.semantics.layout import width_of

Port = tuple[str, str, int]
MODULE_IN = "$in"
MODULE_OUT = "$out"
INDEX_WIDTH = 64  # bits of ``index`` on fabric ports (specs/mapping.md)

_BITS = re.compile(r"!fabric\.bits<\s*([0-9]+)\s*>$")


def port_name(p: Port) -> str:
    """``pe_3.in1``, ``sw_0.out4``, ``module.in2`` (module input 2), ``module.out0``."""
    node, d, k = p
    if node in (MODULE_IN, MODULE_OUT):
        return f"module.{'in' if node == MODULE_IN else 'out'}{k}"
    return f"{node}.{'in' if d == 'i' else 'out'}{k}"


def bits_width(t: Type) -> Optional[int]:
    """N of ``!fabric.bits<N>``; None for any other type."""
    if isinstance(t, OpaqueType):
        m = _BITS.match(str(t))
        if m:
            return int(m.group(1))
    return None


def port_width(t: Type) -> Optional[int]:
    """Width of a fabric port: ``!fabric.bits<N>`` or, as upstream also writes ports, a native scalar type
    (``i32``, ``f32``, ``index``, ``none``) with its value width; None for anything else (memrefs, tagged types)."""
    w = bits_width(t)
    return w if w is not None else value_width(t)


def value_width(t: Type) -> Optional[int]:
    """Bits a native value occupies on a fabric port: the value layout (``loom.semantics.layout.width_of``: none
    0), index ``INDEX_WIDTH``; None when it cannot travel on one."""
    if isinstance(t, IndexType):
        return INDEX_WIDTH
    if isinstance(t, (IntegerType, FloatType, NoneType)):
        return width_of(t)
    return None


def elem_width(m: MemRefType) -> Optional[int]:
    return value_width(m.element)


@dataclass(frozen=True)
class FU:
    """One function unit of a PE: its opcode (definition order), ports, timing and body ops."""

    name: str
    opcode: int
    inputs: tuple[Type, ...]
    outputs: tuple[Type, ...]
    latency: int
    interval: int
    body: tuple[Operation, ...]
    loc: Location = UNKNOWN
    live: Optional[Operation] = None  # the one op a body with dead ops computes (``read.single_live_op``)

    @property
    def op(self) -> Optional[Operation]:
        """The body's single op, or the one live op of a body whose other ops are dead (their results reach no
        yield; the inputs only they read stay disconnected); None for compound bodies."""
        return self.body[0] if len(self.body) == 1 else self.live


@dataclass
class PEDef:
    name: str
    in_widths: list[int]
    out_widths: list[int]
    fus: list[FU]
    loc: Location = UNKNOWN

    @property
    def max_fu_inputs(self) -> int:
        return max((len(f.inputs) for f in self.fus), default=0)

    @property
    def max_fu_outputs(self) -> int:
        return max((len(f.outputs) for f in self.fus), default=0)


@dataclass
class SwitchDef:
    name: str
    in_widths: list[int]
    out_widths: list[int]
    table: list[list[bool]]  # table[o][i]: input i may drive output o
    loc: Location = UNKNOWN
    tag_widths: Optional[tuple[list[int], list[int]]] = None  # a tagged switch: the tag width of each input/output

    def connected(self) -> list[tuple[int, int]]:
        """(output, input) positions that carry a route bit, in bit order (output-major)."""
        return [(o, i) for o, row in enumerate(self.table) for i, ok in enumerate(row) if ok]


@dataclass
class MemDef:
    """fabric.extmemory (reads a module memref first) or fabric.memory (on-chip)."""

    name: str
    kind: str  # "extmemory" | "memory"
    ld: int
    st: int
    memref: MemRefType
    num_region: int
    in_widths: list[int]
    out_widths: list[int]
    loc: Location = UNKNOWN
    tag_widths: Optional[tuple[list[int], list[int]]] = None  # tagged family ports (upstream's form): per input/output

    @property
    def rank(self) -> int:
        return self.memref.rank

    @property
    def tagged(self) -> bool:
        """One tagged port per family, shared by all lanes (the runtime tag is the lane), as upstream writes a
        memory with ldCount or stCount above one; untagged memories have one port per lane (loom's own form)."""
        return self.tag_widths is not None

    @property
    def first_port(self) -> int:
        """Index of the first routed input (extmemory's input 0 is its memref)."""
        return 1 if self.kind == "extmemory" else 0

    def _lanes(self, n: int) -> int:
        """How many ports a family of ``n`` lanes has: one when tagged (or absent when ``n`` is 0)."""
        return min(n, 1) if self.tagged else n

    def ld_addr(self, lane: int, a: int) -> int:
        return self.first_port + (0 if self.tagged else lane) * self.rank + a

    def st_addr(self, lane: int, a: int) -> int:
        return self.first_port + (self._lanes(self.ld) + (0 if self.tagged else lane)) * self.rank + a

    def st_data(self, lane: int) -> int:
        return self.first_port + (self._lanes(self.ld) + self._lanes(self.st)) * self.rank + (0 if self.tagged else lane)

    def ld_data(self, lane: int) -> int:
        return 0 if self.tagged else lane

    def ld_done(self, lane: int) -> int:
        return self._lanes(self.ld) + (0 if self.tagged else lane)

    def st_done(self, lane: int) -> int:
        return 2 * self._lanes(self.ld) + (0 if self.tagged else lane)


@dataclass
class FifoDef:
    """fabric.fifo: one input, one output, ``depth`` slots; a bypassable one has one runtime bit (bypassed)."""

    name: str
    depth: int
    bypassable: bool
    bypassed: bool  # the fabric's runtime value (``attributes {bypassed = B}``), false when absent
    in_widths: list[int]
    out_widths: list[int]


@dataclass
class Node:
    """A placed hardware component: a PE, switch, FIFO or memory, with its definition."""

    name: str
    kind: str  # "pe" | "tpe" | "sw" | "fifo" | "add_tag" | "del_tag" | "extmemory" | "memory" (tpe, tags: loom/map/temporal)
    defn: object
    loc: Location = UNKNOWN
    memref_arg: Optional[int] = None  # extmemory: the module input feeding its memref port


@dataclass
class ADG:
    """A verified fabric.module, flattened to nodes and wires."""

    name: str
    nodes: list[Node]
    in_types: list[Type]  # module inputs ($in outputs)
    out_widths: list[int]  # module outputs ($out inputs)
    drivers: dict[Port, Port] = field(default_factory=dict)  # input port -> the output port wired to it
    loc: Location = UNKNOWN
    declared_join_fanin: Optional[int] = None  # fabric.module's loom.adg_max_join_fanin, when given
    index_width: int = INDEX_WIDTH  # bits an index value needs on this fabric's ports (``net_width``)

    def node(self, name: str) -> Node:
        return self._by_name[name]

    def __post_init__(self) -> None:
        self._by_name = {n.name: n for n in self.nodes}
        self.readers: dict[Port, list[Port]] = {}
        for dst, src in sorted(self.drivers.items()):
            self.readers.setdefault(src, []).append(dst)

    def width(self, p: Port) -> Optional[int]:
        """Declared width of a routed port (None for memref ports)."""
        node, d, k = p
        if node == MODULE_IN:
            return port_width(self.in_types[k])
        if node == MODULE_OUT:
            return self.out_widths[k]
        defn = self.node(node).defn
        ws = defn.in_widths if d == "i" else defn.out_widths  # type: ignore[attr-defined]
        return ws[k]

    def pes(self) -> list[Node]:
        return [n for n in self.nodes if n.kind == "pe"]

    def switches(self) -> list[Node]:
        return [n for n in self.nodes if n.kind == "sw"]

    def fifos(self) -> list[Node]:
        return [n for n in self.nodes if n.kind == "fifo"]

    def memories(self) -> list[Node]:
        return [n for n in self.nodes if n.kind in ("extmemory", "memory")]

    def max_join_fanin(self) -> int:
        """The join fan-in the ADG exports: its declared limit, else the widest join FU."""
        return self.declared_join_fanin if self.declared_join_fanin is not None else self.join_fu_fanin()

    def join_fu_fanin(self) -> int:
        """The largest handshake.join fan-in any FU (of a spatial or temporal PE) offers."""
        best = 0
        for n in [n for n in self.nodes if n.kind in ("pe", "tpe")]:
            for fu in n.defn.fus:  # type: ignore[attr-defined]
                if fu.op is not None and fu.op.name == "handshake.join":
                    best = max(best, len(fu.inputs))
        return best


def net_width(adg: ADG, t: Type) -> int:
    """Bits a routed value of type ``t`` needs on ``adg``'s ports: its value width, an index the fabric's
    ``index_width`` (upstream writes memory addresses as 57-bit tagged payloads, one of its index-width presets)."""
    return adg.index_width if isinstance(t, IndexType) else (value_width(t) or 0)


def fu_port_name(pe: str, fu: str, d: str, k: int) -> str:
    """``pe_3:addi_i32.in1`` — a function unit's own port inside a PE."""
    return f"{pe}:{fu}.{'in' if d == 'i' else 'out'}{k}"


def parse_port_name(s: str) -> Optional[tuple]:
    """Inverse of ``port_name``/``fu_port_name``: ``(node, dir, k)`` or ``("fu", pe, fu, dir, k)``; None if malformed."""
    head, _, tail = s.rpartition(".")
    m = re.fullmatch(r"(in|out)([0-9]+)", tail)
    if not head or not m:
        return None
    node, _, fu_name = head.partition(":")
    fu = fu_name if ":" in head else None
    d, k = "i" if m.group(1) == "in" else "o", int(m.group(2))
    if fu is not None:
        return ("fu", node, fu, d, k)
    if node == "module":
        return (MODULE_IN if d == "i" else MODULE_OUT, "o" if d == "i" else "i", k)
    return (node, d, k)
