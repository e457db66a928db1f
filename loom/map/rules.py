"""The normative mapping rules (specs/mapping.md) as pure functions: node/FU and memory
compatibility (C1, C2), memory port bridging, and FU configuration fields.

Both the mapper and the independent checker apply these; the checker never
uses the mapper's search or the config encoder.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Optional

from loom.ir.attributes import IntegerAttr, StringAttr
from loom.ir.core import Operation
from loom.ir.types import MemRefType, NoneType, Type
from loom.map.adg.model import FU, MemDef, value_width
from loom.map.dfg import DNode

CONT_CONDS = ("<", "<=", ">", ">=", "!=")  # one-hot bit order of dataflow.stream's cont_cond


def fu_mismatch(node: DNode, fu: FU) -> Optional[str]:
    """Why ``fu`` cannot implement op node ``node`` (None when it can). Dataflow ops match only themselves."""
    op = fu.op
    if op is None:
        return f"{fu.name} has a compound body"
    if op.name != node.name:
        return f"{fu.name} implements {op.name}"
    if node.name == "handshake.join":
        if not all(isinstance(t, NoneType) for t in node.in_types) or len(node.in_types) > len(fu.inputs):
            return f"{fu.name} joins at most {len(fu.inputs)} none tokens"
        return None
    if node.in_types != fu.inputs or node.out_types != fu.outputs:
        return f"{fu.name} has types {list(map(str, fu.inputs))} -> {list(map(str, fu.outputs))}"
    if node.name == "dataflow.stream":
        assert node.op is not None
        if _str_attr(node.op, "step_op", "+=") != _str_attr(op, "step_op", "+="):
            return f"{fu.name} steps with {_str_attr(op, 'step_op', '+=')}"
    return None


def _str_attr(op: Operation, key: str, default: str) -> str:
    a = op.attributes.get(key)
    return a.value if isinstance(a, StringAttr) else default


# ----------------------------------------------------------------------------- FU configuration fields


@dataclass(frozen=True)
class Field:
    """One configurable field of an FU body, in body order: kind and bit width."""

    kind: str  # constant | join | cmp | stream
    width: int
    type: Optional[Type] = None


def fu_fields(fu: FU) -> list[Field]:
    """The FU's configurable fields in body occurrence order (spec-fabric-config_mem)."""
    out = []
    for op in fu.body:
        if op.name == "handshake.constant":
            out.append(Field("constant", value_width(op.results[0].type) or 0, op.results[0].type))
        elif op.name == "handshake.join":
            out.append(Field("join", len(op.operands)))
        elif op.name in ("arith.cmpi", "arith.cmpf"):
            out.append(Field("cmp", 4))
        elif op.name == "dataflow.stream":
            out.append(Field("stream", 5))
    return out


def fu_config_bits(fu: FU) -> int:
    return sum(f.width for f in fu_fields(fu))


def wanted_fields(node: DNode, fu: FU) -> list[int]:
    """The field values that make ``fu`` compute ``node`` (constant literal bits, join mask, predicate, cont_cond)."""
    assert node.op is not None
    vals = []
    for f in fu_fields(fu):
        if f.kind == "constant":
            vals.append(literal_bits(node.op.attributes.get("value"), f.type, f.width))
        elif f.kind == "join":
            vals.append((1 << len(node.in_types)) - 1)
        elif f.kind == "cmp":
            a = node.op.attributes.get("predicate")
            vals.append(a.value if isinstance(a, IntegerAttr) else 0)
        elif f.kind == "stream":
            cc = _str_attr(node.op, "cont_cond", "<")
            vals.append(1 << CONT_CONDS.index(cc) if cc in CONT_CONDS else 0)
    return vals


def literal_bits(attr, type_: Optional[Type], width: int) -> int:
    """The bit pattern of a constant's value at ``width`` bits (two's complement / IEEE)."""
    import struct

    from loom.ir.attributes import BoolAttr, FloatAttr
    from loom.ir.types import FloatType

    if width == 0:
        return 0
    if isinstance(attr, BoolAttr):
        return int(attr.value)
    if isinstance(attr, FloatAttr) or isinstance(type_, FloatType):
        v = float(attr.value) if attr is not None else 0.0  # type: ignore[union-attr]
        if width == 32:
            return struct.unpack("<I", struct.pack("<f", v))[0]
        if width == 64:
            return struct.unpack("<Q", struct.pack("<d", v))[0]
        if width == 16:
            return struct.unpack("<H", struct.pack("<e", v))[0]
    if isinstance(attr, IntegerAttr):
        return attr.value & ((1 << width) - 1)
    return 0


# ----------------------------------------------------------------------------- memories


def mem_mismatch(node: DNode, mem: MemDef, memref_bound: bool) -> Optional[str]:
    """Why hardware memory ``mem`` cannot host software memory ``node`` (None when it can)."""
    want = "extmemory" if node.name == "handshake.extmemory" else "memory"
    if mem.kind != want:
        return f"it is a fabric.{mem.kind}, not a fabric.{want}"
    if want == "extmemory" and not memref_bound:
        return "no module memref feeds it"
    sw: MemRefType = node.memref  # type: ignore[assignment]
    if node.ld > mem.ld or node.st > mem.st:
        return f"it has {mem.ld} load and {mem.st} store lanes; {node.ld} and {node.st} are needed"
    if sw.rank > mem.rank:
        return f"it addresses rank {mem.rank}; rank {sw.rank} is needed"
    sw_w, hw_w = value_width(sw.element), value_width(mem.memref.element)
    if sw_w is None or hw_w is None or sw_w > hw_w:
        return f"its elements are {hw_w} bits; {sw_w} are needed"
    if want == "memory":
        if any(d is None for d in sw.shape) or prod(sw.shape) > prod(mem.memref.shape):  # type: ignore[arg-type]
            return f"it holds {prod(mem.memref.shape)} elements; {sw} does not fit"  # type: ignore[arg-type]
    return None


def mem_port_maps(node: DNode, mem: MemDef) -> tuple[list[int], list[int]]:
    """Hardware input port of each software operand and output port of each software result.

    Software order (CIRCT): operands are stores (data, addresses) then load addresses;
    results are load data, store done, load done. Hardware order is family order
    (load addresses, store addresses, store data; load data, load done, store done).
    A rank-r access on a rank-R interface uses its last r address ports.
    """
    r = node.memref.rank  # type: ignore[union-attr]
    pad = mem.rank - r
    ins: list[int] = []
    for j in range(node.st):
        ins.append(mem.st_data(j))
        ins.extend(mem.st_addr(j, pad + a) for a in range(r))
    for i in range(node.ld):
        ins.extend(mem.ld_addr(i, pad + a) for a in range(r))
    outs = [mem.ld_data(i) for i in range(node.ld)] + [mem.st_done(j) for j in range(node.st)]
    outs += [mem.ld_done(i) for i in range(node.ld)]
    return ins, outs


def elem_size_log2(m: MemRefType) -> int:
    w = value_width(m.element) or 8
    return max(0, (max(w, 8) // 8 - 1).bit_length())


def region_words(node: DNode) -> list[int]:
    """The five region words of the one region a software memory occupies (addr_offset 0)."""
    lanes = max(node.ld, node.st)
    return [1, 0, lanes - 1, 0, elem_size_log2(node.memref)]  # type: ignore[arg-type]
