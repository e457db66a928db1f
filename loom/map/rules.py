"""The normative mapping rules (specs/mapping.md) as pure functions: node/FU and memory
compatibility (C1, C2), memory port bridging, and FU configuration fields.

Both the mapper and the independent checker apply these; the checker never
uses the mapper's search or the config encoder.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod
from typing import Any, Optional

from loom.ir.attributes import IntegerAttr, StringAttr
from loom.ir.core import Operation
from loom.ir.types import MemRefType, Type
from loom.map.adg.model import FU, MemDef, value_width
from loom.map.dfg import DNode
from loom.semantics.functions import CONT_CONDS  # its order is the one-hot bit order of cont_cond in config words
from loom.semantics.predicates import CMPF_PREDICATES, CMPI_PREDICATES, predicate_name


def fu_mismatch(node: DNode, fu: FU) -> Optional[str]:
    """Why ``fu`` cannot implement op node ``node`` (None when it can). Dataflow ops match only themselves."""
    if node.name == "fabric.compound":
        if not is_compound(fu) or body_signature(fu) != node.signature:
            return f"{fu.name} is not the compound body this group needs"
        return None
    op = fu.op
    if op is None:
        return f"{fu.name} has a compound body"
    if op.name != node.name:
        return f"{fu.name} implements {op.name}"
    if node.name == "handshake.join":  # on its first inputs, of the same types (join_mask marks them)
        k = len(node.in_types)
        if k > len(fu.inputs) or tuple(node.in_types) != tuple(fu.inputs[:k]) or node.out_types != fu.outputs:
            return (f"{fu.name} joins ({', '.join(map(str, fu.inputs))}); the join's inputs "
                    f"({', '.join(map(str, node.in_types))}) are not its first ones")
        return None
    ins = fu.inputs[: len(op.operands)] if fu.live is not None else fu.inputs  # a dead op's inputs stay unused
    if node.in_types != ins or node.out_types != fu.outputs:
        return f"{fu.name} has types {list(map(str, ins))} -> {list(map(str, fu.outputs))}"
    if node.name == "dataflow.stream":
        assert node.op is not None
        if _str_attr(node.op, "step_op", "+=") != _str_attr(op, "step_op", "+="):
            return f"{fu.name} steps with {_str_attr(op, 'step_op', '+=')}"
    return None


def stream_step(op: Operation) -> str:
    """A ``dataflow.stream``'s step_op (``+=`` when absent)."""
    return _str_attr(op, "step_op", "+=")


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


def _field_of(name: str, in_types, out_types) -> Optional[Field]:
    """The configurable field an op of this name and types carries (None: it has none)."""
    if name == "handshake.constant":
        return Field("constant", value_width(out_types[0]) or 0, out_types[0])
    if name == "handshake.join":
        return Field("join", len(in_types))
    if name in ("arith.cmpi", "arith.cmpf"):
        return Field("cmp", 4)
    if name == "dataflow.stream":
        return Field("stream", 5)
    if name == "fabric.mux":  # [sel | discard | disconnect], sel choosing among the mux's alternatives
        n = max(len(in_types), len(out_types))
        return Field("mux", (n - 1).bit_length() + 2)
    return None


def fu_fields(fu: FU) -> list[Field]:
    """The FU's configurable fields in body occurrence order (spec-fabric-config_mem)."""
    fields = (_field_of(op.name, [v.type for v in op.operands], [r.type for r in op.results]) for op in fu.body)
    return [f for f in fields if f is not None]


def fu_config_bits(fu: FU) -> int:
    return sum(f.width for f in fu_fields(fu))


def _field_value(f: Field, src: DNode) -> int:
    """The value of field ``f`` that makes its body op compute DFG op ``src``."""
    assert src.op is not None
    if f.kind == "constant":
        return literal_bits(src.op.attributes.get("value"), f.type, f.width)
    if f.kind == "join":
        return (1 << len(src.in_types)) - 1
    if f.kind == "cmp":
        names = CMPF_PREDICATES if src.op.name == "arith.cmpf" else CMPI_PREDICATES
        p = predicate_name(src.op.attributes, names)
        return names.index(p) if p is not None else 0
    cc = _str_attr(src.op, "cont_cond", "<")
    return 1 << CONT_CONDS.index(cc) if cc in CONT_CONDS else 0


def wanted_fields(node: DNode, fu: FU) -> list[int]:
    """The field values that make ``fu`` compute ``node`` (constant literal bits, join mask, predicate, cont_cond)."""
    return [_field_value(f, node.members[i] if node.members is not None else node)
            for f, i in zip(fu_fields(fu), field_ops(fu))]


def node_fields(node: DNode) -> list[int]:
    """The field values ``node`` needs, from the node alone: ``wanted_fields(node, fu)`` for every FU implementing it."""
    members = [node.members[k] for k in sorted(node.members)] if node.members is not None else [node]
    out = []
    for m in members:
        f = _field_of(m.name, m.in_types, m.out_types)
        if f is not None:
            out.append(_field_value(f, m))
    return out


def field_ops(fu: FU) -> list[int]:
    """The body op index of each configurable field, in field order."""
    return [i for i, op in enumerate(fu.body)
            if _field_of(op.name, [v.type for v in op.operands], [r.type for r in op.results]) is not None]


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


def mem_roles(node: DNode) -> tuple[list[tuple], list[tuple]]:
    """The role of each operand and each result of software memory ``node``, in software (CIRCT) order.

    Operands are stores (data, addresses) then load addresses; results are load data, store done,
    load done. A role is ``(family, lane)`` or, for addresses, ``(family, lane, dimension counted
    from the last)``, so that a rank-r access on a rank-R interface uses its last r address ports.
    """
    r = node.memref.rank  # type: ignore[union-attr]
    ins: list[tuple] = []
    for j in range(node.st):
        ins.append(("st_data", j))
        ins.extend(("st_addr", j, r - 1 - a) for a in range(r))
    for i in range(node.ld):
        ins.extend(("ld_addr", i, r - 1 - a) for a in range(r))
    outs = [("ld_data", i) for i in range(node.ld)] + [("st_done", j) for j in range(node.st)]
    outs += [("ld_done", i) for i in range(node.ld)]
    return ins, outs


def mem_role_port(mem: MemDef, role: tuple, start: int = 0) -> int:
    """The hardware port of ``role`` on ``mem`` (family order: load addresses, store addresses, store data;
    load data, load done, store done) for a software memory whose region starts at tag (lane) ``start``."""
    fam, lane = role[0], role[1] + start
    if fam == "ld_addr":
        return mem.ld_addr(lane, mem.rank - 1 - role[2])
    if fam == "st_addr":
        return mem.st_addr(lane, mem.rank - 1 - role[2])
    return {"st_data": mem.st_data, "ld_data": mem.ld_data, "ld_done": mem.ld_done, "st_done": mem.st_done}[fam](lane)


def mem_port_role(mem: MemDef, d: str, p: int) -> Optional[tuple]:
    """The role of ``mem``'s input (``d`` = "i") or output port ``p``: the inverse of ``mem_role_port`` (on a
    tagged memory the lane is 0: every lane shares the family's port, the tag tells them apart)."""
    rank = mem.rank
    ld, st = (min(mem.ld, 1), min(mem.st, 1)) if mem.tagged else (mem.ld, mem.st)
    if d == "i":
        q = p - mem.first_port
        for fam, n in (("ld_addr", ld), ("st_addr", st)):
            if 0 <= q < n * rank:
                return (fam, q // rank, rank - 1 - q % rank)
            q -= n * rank
        return ("st_data", q) if 0 <= q < st else None
    for fam, n in (("ld_data", ld), ("ld_done", ld), ("st_done", st)):
        if 0 <= p < n:
            return (fam, p)
        p -= n
    return None


def mem_port_maps(node: DNode, mem: MemDef, start: int = 0) -> tuple[list[int], list[int]]:
    """Hardware input port of each software operand and output port of each software result (``mem_roles``),
    for the region whose tags (lanes) begin at ``start``."""
    ins, outs = mem_roles(node)
    return [mem_role_port(mem, r, start) for r in ins], [mem_role_port(mem, r, start) for r in outs]


def mem_port_tags(node: DNode, mem: MemDef, start: int = 0,
                  base: Optional[int] = None) -> tuple[list[Optional[int]], list[Optional[int]]]:
    """The tag each software operand must arrive with at ``mem`` and each result leaves with (``mem_roles`` order),
    None on an untagged memory. On a tagged one a request carries a tag of its region's window (the first tag
    ``start`` plus the role's lane) and its response the hardware lane it was served on (the region's first lane
    ``base``, by default ``start``, plus the role's lane): see ``tag_lane``."""
    ins, outs = mem_roles(node)
    if not mem.tagged:
        return [None] * len(ins), [None] * len(outs)
    first = start if base is None else base
    return [start + r[1] for r in ins], [first + r[1] for r in outs]


def lane_bases(words: list[int]) -> dict[int, int]:
    """First hardware lane of each valid region of a tagged memory's region words: its regions' lanes are packed
    in region order, each spanning ``end_tag - start_tag`` lanes (spec-fabric-memory-interface's regions; the
    numbering is upstream's mapper's software lane, lib/loom/Mapper/ConfigGenHelpers.cpp)."""
    bases, lane = {}, 0
    for r in range(len(words) // 5):
        if words[5 * r]:
            bases[r] = lane
            lane += max(0, words[5 * r + 2] - words[5 * r + 1])
    return bases


def tag_lane(words: list[int], tag: int) -> Optional[int]:
    """The hardware lane a request with ``tag`` is served on: the region whose tag window ``[start_tag, end_tag)``
    holds it, at lane ``tag - start_tag`` of that region's lanes (``lane_bases``); None when no region holds it
    (the request is never answered). The response leaves with that lane as its tag."""
    bases = lane_bases(words)
    for r, b in bases.items():
        if words[5 * r + 1] <= tag < words[5 * r + 2]:
            return b + tag - words[5 * r + 1]
    return None


def place_lane_base(dfg: Any, place: dict, nid: str) -> int:
    """``lane_bases`` of the region software memory ``nid`` holds under ``place`` (id -> ("mem", name, region,
    first tag), ...): the lanes of the software memories in lower regions of the same interface come first."""
    t = place[nid]
    return sum(mem_tags(dfg.by_id[m]) for m, u in place.items() if u[0] == "mem" and u[1] == t[1] and u[2] < t[2])


def tag_starts(node: DNode, mem: MemDef) -> list[int]:
    """The first tags a region of ``node`` may take on a tagged memory: any window of its span that the request
    ports' tag width can carry (the lanes it is served on are ``lane_bases``', checked by ``lanes_fit``)."""
    widths = [w for w in (mem.tag_widths[0] if mem.tag_widths else []) if w > 0]
    top = 1 << min(widths) if widths else mem_lanes(mem)
    return list(range(max(0, top - mem_tags(node) + 1)))


def lanes_fit(node: DNode, mem: MemDef, base: int) -> bool:
    """Whether ``node``'s loads and stores, served from lane ``base`` on, stay within ``mem``'s lanes."""
    return (not node.ld or base + node.ld <= mem.ld) and (not node.st or base + node.st <= mem.st)


def mem_lanes(mem: MemDef) -> int:
    """How many lanes (tags) a memory serves: one per load or store lane of its widest family."""
    return max(mem.ld, mem.st)


def mem_tags(node: DNode) -> int:
    """How many tags (hardware lanes) a software memory's region spans: one per load or store lane."""
    return max(node.ld, node.st)


def region_starts(node: DNode, mem: MemDef) -> list[int]:
    """The first tags a region of ``node`` may take on ``mem``: any, while its loads and stores stay within the
    interface's lanes, on an interface with several regions (an external one: the host programs each base; a
    tagged on-chip one: the mapper places each region's base); tag 0 on a one-region or untagged on-chip one."""
    if mem.num_region <= 1 or (mem.kind != "extmemory" and not mem.tagged):
        return [0]
    if mem.tagged:  # a family the software memory does not use constrains nothing
        return [s for s in range(mem_lanes(mem)) if (not node.ld or s + node.ld <= mem.ld)
                and (not node.st or s + node.st <= mem.st)]
    return [s for s in range(max(mem.ld, mem.st)) if s + node.ld <= mem.ld and s + node.st <= mem.st]


def elem_size_log2(m: MemRefType) -> int:
    w = value_width(m.element) or 8
    return max(0, (max(w, 8) // 8 - 1).bit_length())


REGION_STRIDE = 4096  # bytes between the bases of an on-chip memory's regions (upstream's mapper uses the same)


def region_offset(mem: MemDef, region: int) -> int:
    """``addr_offset`` of ``region`` of ``mem``: 0 on an external memory (the host programs each base), on an
    on-chip one ``region * REGION_STRIDE`` bytes (spec-fabric-memory-interface: the mapper computes those)."""
    return 0 if mem.kind == "extmemory" else region * REGION_STRIDE


def mem_bytes(node: DNode) -> Optional[int]:
    """Bytes a static software memory occupies (None for a dynamic shape)."""
    m: MemRefType = node.memref  # type: ignore[assignment]
    if any(d is None for d in m.shape):
        return None
    return prod(m.shape) << elem_size_log2(m)  # type: ignore[arg-type]


def region_words(node: DNode, start: int = 0, offset: int = 0) -> list[int]:
    """The five region words (valid, start_tag, end_tag, addr_offset, elem_size_log2) of the region a software
    memory occupies from tag ``start`` at base ``offset`` (``region_offset``). The end is exclusive, as
    upstream's mapper writes it (its multi-extmemory test expects [1, 0, 1, 0, 2] for a one-lane region)."""
    return [1, start, start + mem_tags(node), offset, elem_size_log2(node.memref)]  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- compound function units


def is_compound(fu: FU) -> bool:
    """A fixed multi-op body that one group of DFG ops may share (never with dataflow ops or fabric.mux)."""
    return len(fu.body) > 1 and fu.live is None and not any(
        op.name.startswith("dataflow.") or op.name == "fabric.mux" for op in fu.body)


def body_sources(fu: FU) -> list[list[tuple]]:
    """Per body op, per operand: ``("arg", q)`` (FU input q) or ``("op", k, r)`` (result r of body op k)."""
    where: dict[int, tuple] = {}
    block_args = fu.body[0].parent.args if fu.body and fu.body[0].parent is not None else []
    for q, a in enumerate(block_args):
        where[id(a)] = ("arg", q)
    for k, op in enumerate(fu.body):
        for r, v in enumerate(op.results):
            where[id(v)] = ("op", k, r)
    return [[where.get(id(v), ("?",)) for v in op.operands] for op in fu.body]


def body_yields(fu: FU) -> list[tuple]:
    """Per FU output, the ``("op", k, r)`` it yields."""
    block = fu.body[0].parent if fu.body else None
    yld = block.ops[-1] if block is not None and block.ops else None
    if yld is None:
        return []
    where = {id(v): ("op", k, r) for k, op in enumerate(fu.body) for r, v in enumerate(op.results)}
    return [where.get(id(v), ("?",)) for v in yld.operands]


def body_signature(fu: FU) -> tuple:
    """What makes two compound FUs interchangeable: ports, ops with types and wiring, fixed attributes, yields."""
    ops = tuple((op.name, tuple(map(str, (v.type for v in op.operands))), tuple(map(str, (r.type for r in op.results))),
                 tuple(map(tuple, src)), _str_attr(op, "step_op", "")) for op, src in zip(fu.body, body_sources(fu)))
    return (tuple(map(str, fu.inputs)), tuple(map(str, fu.outputs)), ops, tuple(body_yields(fu)))


def _op_mismatch(node: DNode, op: Operation) -> Optional[str]:
    if node.kind != "op" or node.name != op.name:
        return f"%{node.id} is {node.name}, the body op is {op.name}"
    if node.in_types != tuple(v.type for v in op.operands) or node.out_types != tuple(r.type for r in op.results):
        return f"%{node.id} has other types than the body's {op.name}"
    if op.name == "dataflow.stream" and node.op is not None and _str_attr(node.op, "step_op", "+=") != _str_attr(op, "step_op", "+="):
        return f"%{node.id} steps differently"
    return None


def compound_mismatch(dfg, fu: FU, phi: dict[int, str]) -> Optional[str]:
    """Why the DFG ops ``phi`` (body op index -> node id) are not exactly ``fu``'s effective graph (None if they are).

    Every body op is matched by a distinct DFG op of the same kind and types; every body
    edge is that DFG edge; an FU input feeds one DFG value to all its body uses; a value
    made inside and read outside is an FU output; no DFG edge enters the group from itself
    except along body edges.
    """
    if sorted(phi) != list(range(len(fu.body))) or len(set(phi.values())) != len(fu.body):
        return f"the group does not cover {fu.name}'s {len(fu.body)} body ops one to one"
    for i, op in enumerate(fu.body):
        node = dfg.by_id.get(phi[i])
        if node is None:
            return f"%{phi[i]} is not a DFG node"
        why = _op_mismatch(node, op)
        if why is not None:
            return why
    members = set(phi.values())
    inv = {v: k for k, v in phi.items()}
    feeder = {e.dst: e.src for e in dfg.edges}
    arg_val: dict[int, tuple] = {}
    for i, srcs in enumerate(body_sources(fu)):
        for j, s in enumerate(srcs):
            got = feeder.get((phi[i], j))
            if got is None:
                return f"operand {j} of %{phi[i]} is not fed"
            if s[0] == "arg":
                if got[0] in members:
                    return f"%{phi[i]} reads %{got[0]} of its own group through FU input {s[1]}"
                if arg_val.setdefault(s[1], got) != got:
                    return f"FU input {s[1]} of {fu.name} would carry two different values"
            elif s[0] != "op" or got != (phi[s[1]], s[2]):
                return f"operand {j} of %{phi[i]} is not the body edge of {fu.name}"
    yields = body_yields(fu)
    for e in dfg.edges:
        if e.src[0] in members and e.dst[0] not in members and ("op", inv[e.src[0]], e.src[1]) not in yields:
            return f"%{e.src[0]}#{e.src[1]} is read outside the group but is not an output of {fu.name}"
    return None


def contract(dfg, units: list[tuple[str, FU, dict[int, str]]]):
    """The DFG with every unit (id, FU, body op -> node) replaced by one node of kind ``op`` named ``fabric.compound``.

    Returns the contracted DFG and, per original edge index, the contracted edge index
    (None for an edge inside a unit).
    """
    from loom.map.dfg import DEdge, DFG, DNode

    of: dict[str, tuple[str, int]] = {}
    unit_node: dict[str, DNode] = {}
    for uid, fu, phi in units:
        for k, nid in phi.items():
            of[nid] = (uid, k)
        unit_node[uid] = DNode(uid, "op", "fabric.compound", tuple(fu.inputs), tuple(fu.outputs),
                               members={k: dfg.by_id[nid] for k, nid in phi.items()}, signature=body_signature(fu))
    srcs = {uid: body_sources(fu) for uid, fu, _ in units}
    ylds = {uid: body_yields(fu) for uid, fu, _ in units}
    nodes, placed = [], set()
    for n in dfg.nodes:
        if n.id in of:
            uid = of[n.id][0]
            if uid not in placed:
                placed.add(uid)
                nodes.append(unit_node[uid])
        else:
            nodes.append(n)
    edges: list = []
    index: dict[tuple, int] = {}
    edge_map: list[Optional[int]] = []
    for e in dfg.edges:
        s_in, d_in = of.get(e.src[0]), of.get(e.dst[0])
        if s_in is not None and d_in is not None and s_in[0] == d_in[0]:
            edge_map.append(None)
            continue
        src = (s_in[0], ylds[s_in[0]].index(("op", s_in[1], e.src[1]))) if s_in else e.src
        dst = (d_in[0], srcs[d_in[0]][d_in[1]][e.dst[1]][1]) if d_in else e.dst
        key = (src, dst)
        if key not in index:
            index[key] = len(edges)
            edges.append(DEdge(src, dst, e.type))
        edge_map.append(index[key])
    return DFG(dfg.name, nodes, edges, dfg.arg_names, sunk=dfg.sunk), edge_map
