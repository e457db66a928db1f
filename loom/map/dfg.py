"""The mapper's view of a DFG: compute nodes, memory nodes, boundary nodes and typed edges.

Read once from a handshake.func, shared by the mapper and the checker (it only
reads the core IR). Memref values are not routed: a memory node remembers which
function argument backs it. ``memref.dim`` becomes a host input: the host reads
the dimension at launch and feeds it through a module input port.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from loom.diagnostics import LoomError
from loom.ir.attributes import IntegerAttr, SymbolRefAttr, TypeAttr
from loom.ir.core import BlockArgument, Operation, OpResult
from loom.ir.types import MemRefType, Type
from loom.runtime.io import function_arg_names

UNMAPPABLE = "MAP_DFG_UNSUPPORTED"


@dataclass
class DNode:
    """One mappable DFG node. kind: op | mem | arg | host | ret."""

    id: str
    kind: str
    name: str  # op name, or "arg"/"ret"/"memref.dim"
    in_types: tuple[Type, ...]
    out_types: tuple[Type, ...]
    op: Optional[Operation] = None
    arg: Optional[int] = None  # arg: its argument index; mem (extmemory): the memref argument; ret: result index
    memref: Optional[MemRefType] = None  # mem: the software memref type
    ld: int = 0
    st: int = 0
    host: Optional[tuple[str, int]] = None  # host: (memref argument name, dimension)
    members: Optional[dict] = None  # a contracted compound unit: body op index -> member DNode
    signature: Optional[tuple] = None  # a contracted compound unit: the body signature it needs


@dataclass(frozen=True)
class DEdge:
    """Value ``src`` (node id, result k) read by ``dst`` (node id, operand k)."""

    src: tuple[str, int]
    dst: tuple[str, int]
    type: Type


@dataclass
class DFG:
    name: str
    nodes: list[DNode]
    edges: list[DEdge]
    arg_names: list[str]
    sunk: int = 0  # handshake.sink ops absorbed into output discards
    by_id: dict[str, DNode] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.by_id = {n.id: n for n in self.nodes}

    def nets(self) -> dict[tuple[str, int], list[DEdge]]:
        """Edges grouped by source value, in edge order."""
        out: dict[tuple[str, int], list[DEdge]] = {}
        for e in self.edges:
            out.setdefault(e.src, []).append(e)
        return out


def _mem_counts(op: Operation) -> tuple[int, int]:
    ld, st = op.attributes.get("ldCount"), op.attributes.get("stCount")
    return (ld.value if isinstance(ld, IntegerAttr) else 0, st.value if isinstance(st, IntegerAttr) else 0)


def read_dfg(func: Operation) -> DFG:
    """The mapper's graph of ``func`` (a handshake.func)."""
    block = func.regions[0].blocks[0]
    names = function_arg_names(func)
    nodes: list[DNode] = []
    ids: dict[int, str] = {}  # id(op) -> node id
    src_of: dict[int, tuple[str, int]] = {}  # id(value) -> (node, result)
    fresh = _FreshIds()
    for k, a in enumerate(block.args):
        if isinstance(a.type, MemRefType):
            continue
        nid = fresh(f"arg.{names[k]}")
        nodes.append(DNode(nid, "arg", "arg", (), (a.type,), arg=k))
        src_of[id(a)] = (nid, 0)
    ret: Optional[Operation] = None
    sinks: list[Operation] = []
    for op in block.ops:
        if op.name == "handshake.return":
            ret = op
            continue
        if op.name == "handshake.sink":  # a discarded value: the producer's output demux discards it
            sinks.append(op)
            continue
        hint = next((r.name_hint for r in op.results if r.name_hint), None) or op.name.split(".")[-1]
        nid = fresh(hint)
        ids[id(op)] = nid
        node = _op_node(op, nid, names)
        nodes.append(node)
        for k, r in enumerate(op.results):
            src_of[id(r)] = (nid, k)
    edges = _edges(block, ret, ids, nodes, src_of)
    if ret is not None:
        for k, v in enumerate(ret.operands):
            nid = fresh(f"ret.{k}")
            nodes.append(DNode(nid, "ret", "ret", (v.type,), (), arg=k))
            edges.append(DEdge(src_of[id(v)], (nid, 0), v.type))
    name = func.attributes["sym_name"].value  # type: ignore[union-attr]
    return DFG(name, nodes, edges, names, sunk=len(sinks))


class _FreshIds:
    """Node ids unique within one DFG: ``base``, else ``base.1``, ``base.2``, ... (spaces become ``_``)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def __call__(self, base: str) -> str:
        base = base.replace(" ", "_")
        s, k = base, 0
        while s in self.used:
            k += 1
            s = f"{base}.{k}"
        self.used.add(s)
        return s


def _op_node(op: Operation, nid: str, names: list[str]) -> DNode:
    """The node of one op: a memory (its load/store lanes and memref), a host input (``memref.dim`` of an
    argument by a constant) or an op for a function unit; anything else is unmappable."""
    if op.name in ("handshake.extmemory", "handshake.memory"):
        ld, st = _mem_counts(op)
        if op.name == "handshake.extmemory":
            m = op.operands[0]
            if not isinstance(m, BlockArgument):
                raise LoomError("extmemory's memref must be a function argument", op.loc, UNMAPPABLE)
            mt, arg, ins = m.type, m.index, tuple(v.type for v in op.operands[1:])
        else:
            a = op.attributes.get("memRefType")
            mt, arg, ins = (a.type if isinstance(a, TypeAttr) else None), None, tuple(v.type for v in op.operands)
        return DNode(nid, "mem", op.name, ins, tuple(r.type for r in op.results), op, arg, mt, ld, st)  # type: ignore[arg-type]
    if op.name == "memref.dim":
        m, idx = op.operands[0], op.operands[1]
        c = idx.op if isinstance(idx, OpResult) else None
        val = c.attributes.get("value") if c is not None and c.name in ("handshake.constant", "arith.constant") else None
        if not isinstance(m, BlockArgument) or not isinstance(val, IntegerAttr):
            raise LoomError("memref.dim needs a memref argument and a constant dimension to become a host input", op.loc, UNMAPPABLE)
        return DNode(nid, "host", "memref.dim", (), (op.results[0].type,), op, host=(names[m.index], val.value))
    if any(isinstance(v.type, MemRefType) for v in [*op.operands, *op.results]) or op.regions:
        raise LoomError(f"'{op.name}' cannot be mapped onto a function unit", op.loc, UNMAPPABLE)
    return DNode(nid, "op", op.name, tuple(v.type for v in op.operands), tuple(r.type for r in op.results), op)


def _edges(block, ret: Optional[Operation], ids: dict[int, str], nodes: list[DNode],
           src_of: dict[int, tuple[str, int]]) -> list[DEdge]:
    """One edge per token operand of every mapped op (not of host inputs; a memref operand is no edge)."""
    edges: list[DEdge] = []
    for op in block.ops:
        if op is ret or op.name == "handshake.sink":
            continue
        node_id = ids[id(op)]
        kind = next(n.kind for n in reversed(nodes) if n.id == node_id)
        if kind == "host":
            continue
        skip = 1 if op.name == "handshake.extmemory" else 0
        for k, v in enumerate(op.operands[skip:]):
            if isinstance(v.type, MemRefType):
                continue
            edges.append(DEdge(src_of[id(v)], (node_id, k), v.type))
    return edges

def global_of(node: DNode) -> Optional[str]:
    """The memref global a handshake.memory is initialised from, if any."""
    if node.op is None:
        return None
    g = node.op.attributes.get("loom.global_memref")
    return g.root if isinstance(g, SymbolRefAttr) else None
