"""Read a parsed fabric file into an ``ADG`` and check its rules (CPL_FABRIC_* codes, located)."""

from __future__ import annotations

from typing import Optional

from loom.diagnostics import VerifyError
from loom.dialects.fabric import symbol_target
from loom.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, TypeAttr
from loom.ir.core import BlockArgument, Module, Operation
from loom.ir.types import FunctionType, MemRefType, Type
from loom.map.adg.verify import DEFINITION_OPS, not_mappable_error, unmappable_op, verify_fabric
from loom.map.temporal.read import read_tag, read_tpe
from loom.map.adg.model import INDEX_WIDTH, ADG, FU, MODULE_IN, MODULE_OUT, FifoDef, MemDef, Node, PEDef, Port, SwitchDef, port_width, value_width

NO_MODULE = "CPL_FABRIC_NO_MODULE"
UNKNOWN_SYMBOL = "CPL_FABRIC_UNKNOWN_SYMBOL"
PORT_TYPE = "CPL_FABRIC_PORT_TYPE"
FU_BODY = "CPL_FABRIC_FU_BODY"
FU_OP = "CPL_FABRIC_FU_OP_NOT_ALLOWED"
FU_TIMING = "CPL_FABRIC_FU_TIMING"
DATAFLOW_EXCLUSIVE = "CPL_FABRIC_DATAFLOW_FU_EXCLUSIVE"
SW_TABLE = "CPL_FABRIC_SW_CONNECTIVITY"
SW_PORTS = "CPL_FABRIC_SW_PORT_COUNT"
MEM_PARAMS = "CPL_FABRIC_MEMORY_PARAMS"
INSTANCE_PORTS = "CPL_FABRIC_INSTANCE_PORTS"
MEMREF_PORT = "CPL_FABRIC_MEMREF_PORT"
MEM_TAG = "CPL_FABRIC_MEMORY_TAG"
DUPLICATE_NAME = "CPL_FABRIC_DUPLICATE_NAME"
PE_EMPTY = "CPL_FABRIC_PE_EMPTY"
UNSUPPORTED = "CPL_FABRIC_UNSUPPORTED"
JOIN_FANIN = "CPL_FABRIC_JOIN_FANIN"
FIFO = "CPL_FABRIC_FIFO"

DATAFLOW_OPS = ("dataflow.stream", "dataflow.gate", "dataflow.carry", "dataflow.invariant")
FU_ALLOWED = frozenset(
    [f"arith.{n}" for n in (
        "addf addi andi cmpf cmpi divf divsi divui extsi extui fptosi fptoui index_cast index_castui mulf muli "
        "negf ori remsi remui select shli shrsi shrui sitofp subf subi trunci uitofp xori "
        "maxsi maxui minsi minui extf truncf").split()]
    + [f"math.{n}" for n in "absf cos exp floor fma log2 sin sqrt".split()]
    + ["llvm.intr.bitreverse", *DATAFLOW_OPS]
    + [f"handshake.{n}" for n in "cond_br constant join load mux store".split()]
)


def _err(msg: str, op: Operation, code: str) -> VerifyError:
    return VerifyError(msg, op.loc, code)


def _int_param(op: Operation, key: str, code: str, default: Optional[int] = None) -> int:
    a = op.attributes.get(key)
    if a is None and default is not None:
        return default
    if not isinstance(a, IntegerAttr):
        raise _err(f"'{op.name}' needs an integer parameter '{key}'", op, code)
    return a.value


def _sig(op: Operation) -> FunctionType:
    a = op.attributes.get("function_type")
    if not isinstance(a, TypeAttr) or not isinstance(a.type, FunctionType):
        raise _err(f"'{op.name}' has no port types", op, PORT_TYPE)
    return a.type


def _sym(op: Operation) -> str:
    a = op.attributes.get("sym_name")
    return a.value if isinstance(a, StringAttr) else ""


def _bits_list(op: Operation, types: tuple[Type, ...], what: str) -> list[int]:
    out = []
    for k, t in enumerate(types):
        w = port_width(t)
        if w is None:
            raise _err(f"'{op.name}' @{_sym(op)} {what} {k} must be !fabric.bits<N> or a native scalar, found {t}",
                       op, PORT_TYPE)
        out.append(w)
    return out


# ----------------------------------------------------------------------------- function units


def read_fu(op: Operation, opcode: int, allow_mux: bool = False) -> FU:
    """One fabric.function_unit, checked against the FU body rules.

    ``allow_mux``: ``fabric.mux`` may be in the body. The mapper reads such an FU (its mux fields count in the
    PE's payload width) but never places an op on it: a configurable FU shape is no tech-map candidate."""
    ft = _sig(op)
    name = _sym(op)
    for t in (*ft.inputs, *ft.results):
        if value_width(t) is None:
            raise _err(f"function_unit @{name} port type {t} is not a native scalar type", op, PORT_TYPE)
    if "latency" not in op.attributes or "interval" not in op.attributes:
        raise _err(f"function_unit @{name} needs [latency = L, interval = I]", op, FU_TIMING)
    lat, ii = _int_param(op, "latency", FU_TIMING), _int_param(op, "interval", FU_TIMING)
    block = op.regions[0].blocks[0]
    ops = block.ops
    if not ops or ops[-1].name != "fabric.yield":
        raise _err(f"function_unit @{name} body must end in fabric.yield", op, FU_BODY)
    body, yld = tuple(ops[:-1]), ops[-1]
    if not body:
        raise _err(f"function_unit @{name} body has no operation", op, FU_BODY)
    for b in body:
        if b.name not in FU_ALLOWED and not (allow_mux and b.name == "fabric.mux"):
            raise _err(f"'{b.name}' is not allowed in a function_unit body", b, FU_OP)
        if b.regions:
            raise _err(f"'{b.name}' in a function_unit body must not have regions", b, FU_BODY)
    if len(yld.operands) != len(ft.results):
        raise _err(f"function_unit @{name} yields {len(yld.operands)} values but declares {len(ft.results)} results", yld, FU_BODY)
    for k, (v, t) in enumerate(zip(yld.operands, ft.results)):
        if v.type != t:
            raise _err(f"function_unit @{name} result {k} is declared {t} but yields {v.type}", yld, FU_BODY)
        if isinstance(v, BlockArgument):
            raise _err(f"function_unit @{name} result {k} passes an input straight through", yld, FU_BODY)
    used = {id(v) for b in body for v in b.operands}
    for a in block.args:
        if id(a) not in used:
            raise _err(f"function_unit @{name} input %{a.name_hint} is never consumed", op, FU_BODY)
    flows = [b for b in body if b.name in DATAFLOW_OPS]
    if flows:
        if len(body) != 1:
            raise _err(f"function_unit @{name} holds {flows[0].name}, so it must hold exactly that one op", op, DATAFLOW_EXCLUSIVE)
        if lat != -1 or ii != -1:
            raise _err(f"function_unit @{name} holds {flows[0].name}, so it needs latency = -1 and interval = -1", op, FU_TIMING)
    elif lat < 0 or ii < 1:
        raise _err(f"function_unit @{name} needs latency >= 0 and interval >= 1 (found {lat}, {ii})", op, FU_TIMING)
    if ":" in name or not name:
        raise _err(f"function_unit name '@{name}' must be non-empty and contain no ':'", op, FU_BODY)
    return FU(name, opcode, tuple(ft.inputs), tuple(ft.results), lat, ii, body, op.loc, single_live_op(body, yld, block))


def single_live_op(body: tuple[Operation, ...], yld: Operation, block) -> Optional[Operation]:
    """The one op of a multi-op FU body whose results reach the yield, when it reads the FU's first inputs in order,
    yields its results in order and every other op is dead and holds no runtime config field (upstream's
    effective graph: ``fu_add(%x, %y, %z) {addi %x, %y; xori %z, %z unused}`` computes ``addi`` on its first two
    inputs, the third disconnected); None otherwise."""
    if len(body) < 2:
        return None
    live = [b for b in body if any(r in yld.operands for r in b.results)]
    if len(live) != 1 or any(b.name in ("fabric.mux", "handshake.constant", "handshake.join", "arith.cmpi",
                                        "arith.cmpf", "dataflow.stream") for b in body):
        return None
    op = live[0]
    if list(op.operands) != list(block.args[: len(op.operands)]) or list(yld.operands) != list(op.results):
        return None
    used = {id(v) for b in body if b is not op for v in b.results}
    if any(id(v) in used for b in body for v in b.operands):
        return None  # a dead op feeding another op: keep the body as it is
    return op


# ----------------------------------------------------------------------------- definitions


def read_pe(op: Operation, fu_defs: dict[str, Operation]) -> PEDef:
    """One spatial PE: a definition (ports in ``function_type``) or an inline one (ports = its operands/results)."""
    ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results)) if (
        op.operands or op.results) else _sig(op)
    fus: list[FU] = []
    for inner in op.regions[0].blocks[0].ops:
        if inner.name == "fabric.function_unit":
            fus.append(read_fu(inner, len(fus), allow_mux=True))
        elif inner.name == "fabric.instance":
            target = fu_defs.get(symbol_target(inner) or "")
            if target is None or inner.operands or inner.results:
                raise _err(f"an instance inside spatial_pe @{_sym(op)} must name a function_unit and have no ports", inner, UNKNOWN_SYMBOL)
            fus.append(read_fu(target, len(fus), allow_mux=True))
        elif inner.name != "fabric.yield":
            raise _err(f"'{inner.name}' cannot appear directly in a spatial_pe", inner, UNSUPPORTED)
    if not fus:
        raise _err(f"spatial_pe @{_sym(op)} holds no function_unit", op, PE_EMPTY)
    return PEDef(_sym(op), _bits_list(op, ft.inputs, "input"), _bits_list(op, ft.results, "output"), fus, op.loc)


def read_switch(op: Operation, ft: FunctionType) -> SwitchDef:
    from loom.map.adg.verify import tagged

    if all(tagged(t) for t in (*ft.inputs, *ft.results)):  # a tagged switch: each port carries one tagged value
        ins, outs = [tagged(t)[0] for t in ft.inputs], [tagged(t)[0] for t in ft.results]  # type: ignore[index]
    else:
        ins, outs = _bits_list(op, ft.inputs, "input"), _bits_list(op, ft.results, "output")
    for what, n in (("inputs", len(ins)), ("outputs", len(outs))):
        if not 1 <= n <= 32:
            raise _err(f"spatial_sw @{_sym(op)} has {n} {what}; 1..32 are allowed", op, SW_PORTS)
    a = op.attributes.get("connectivity_table")
    if a is None:
        table = [[True] * len(ins) for _ in outs]
    else:
        rows = a.elements if isinstance(a, ArrayAttr) else None
        if rows is None or len(rows) != len(outs) or not all(isinstance(r, StringAttr) for r in rows):
            raise _err(f"spatial_sw @{_sym(op)} connectivity_table needs one string per output ({len(outs)})", op, SW_TABLE)
        table = []
        for o, r in enumerate(rows):
            s = r.value  # type: ignore[union-attr]
            if len(s) != len(ins) or set(s) - {"0", "1"}:
                raise _err(f"spatial_sw @{_sym(op)} connectivity_table row {o} must be {len(ins)} characters of 0/1, found \"{s}\"", op, SW_TABLE)
            table.append([c == "1" for c in s])
    if "decomposable_bits" in op.attributes and _int_param(op, "decomposable_bits", SW_TABLE) > 0:
        raise _err("decomposable spatial_sw is not supported", op, UNSUPPORTED)
    tags = ([tagged(t)[1] for t in ft.inputs], [tagged(t)[1] for t in ft.results]) if all(  # type: ignore[index]
        tagged(t) for t in (*ft.inputs, *ft.results)) else None
    return SwitchDef(_sym(op), ins, outs, table, op.loc, tags)


def read_memory(op: Operation, ft: FunctionType, kind: str) -> MemDef:
    from loom.map.adg.verify import tagged

    ld, st = _int_param(op, "ldCount", MEM_PARAMS), _int_param(op, "stCount", MEM_PARAMS)
    if ld < 0 or st < 0 or ld + st == 0:
        raise _err(f"fabric.{kind} needs ldCount + stCount >= 1", op, MEM_PARAMS)
    mt = op.attributes.get("memrefType")
    if not isinstance(mt, TypeAttr) or not isinstance(mt.type, MemRefType):
        raise _err(f"fabric.{kind} needs memrefType = memref<...>", op, MEM_PARAMS)
    m = mt.type
    if value_width(m.element) is None:
        raise _err(f"fabric.{kind} memref element {m.element} is not a scalar", op, MEM_PARAMS)
    if kind == "memory" and any(d is None for d in m.shape):
        raise _err("fabric.memory needs a static memrefType shape", op, MEM_PARAMS)
    first = 1 if kind == "extmemory" else 0
    tags = _memory_tags(op, ft, kind, ld, st, first)
    fam_ld, fam_st = (min(ld, 1), min(st, 1)) if tags is not None else (ld, st)
    want_in = first + (fam_ld + fam_st) * m.rank + fam_st
    want_out = 2 * fam_ld + fam_st
    if len(ft.inputs) != want_in or len(ft.results) != want_out:
        form = "tagged family ports" if tags is not None else f"rank {m.rank}"
        raise _err(
            f"fabric.{kind} with ldCount = {ld}, stCount = {st} and {form} needs {want_in} inputs and {want_out} "
            f"outputs (found {len(ft.inputs)} and {len(ft.results)})", op, MEM_PARAMS)
    if kind == "extmemory" and not isinstance(ft.inputs[0], MemRefType):
        raise _err("fabric.extmemory input 0 must be the backing memref", op, MEMREF_PORT)
    nreg = _int_param(op, "numRegion", MEM_PARAMS, default=1)
    if nreg < 1:
        raise _err("numRegion must be >= 1", op, MEM_PARAMS)
    if tags is not None:
        ins = [0] * first + [tagged(t)[0] for t in ft.inputs[first:]]  # type: ignore[index]
        outs = [tagged(t)[0] for t in ft.results]  # type: ignore[index]
        if any(w is None for w in (*ins, *outs)):
            raise _err(f"fabric.{kind} @{_sym(op)} has a tagged port whose payload is not !fabric.bits<N> or a scalar", op, PORT_TYPE)
        return MemDef(_sym(op), kind, ld, st, m, nreg, ins, outs, op.loc, tags)  # type: ignore[arg-type]
    ins = [0] * first + _bits_list(op, ft.inputs[first:], "input")
    return MemDef(_sym(op), kind, ld, st, m, nreg, ins, _bits_list(op, ft.results, "output"), op.loc)


def _index_width(nodes: list[Node]) -> int:
    """The index width the fabric's memory address ports give: the narrowest tagged address payload when it is one
    of upstream's index widths (32..64 bits, spec-fabric), else loom's 64 (untagged ports carry ``index`` whole)."""
    widths = [m.defn.in_widths[m.defn.ld_addr(0, 0) if m.defn.ld else m.defn.st_addr(0, 0)]  # type: ignore[attr-defined]
              for m in nodes if m.kind in ("memory", "extmemory") and m.defn.tagged]  # type: ignore[attr-defined]
    w = min(widths, default=INDEX_WIDTH)
    return w if 32 <= w <= INDEX_WIDTH else INDEX_WIDTH


def _memory_tags(op: Operation, ft: FunctionType, kind: str, ld: int, st: int,
                 first: int) -> Optional[tuple[list[int], list[int]]]:
    """Tag widths of a memory's tagged family ports (spec-fabric-memory-interface), None when no port is tagged.

    Every routed port is tagged or none is, and each tag is wide enough for the lanes: log2Ceil(max(ld, st)) bits,
    so that every logical stream sharing a family port can carry its own lane as its tag."""
    from loom.map.adg.verify import tagged

    routed = [*ft.inputs[first:], *ft.results]
    marks = [tagged(t) for t in routed]
    if all(x is None for x in marks):
        return None
    if any(x is None for x in marks):
        raise _err(f"fabric.{kind} @{_sym(op)} mixes tagged and untagged ports; with tags, every family port is tagged",
                   op, MEM_TAG)
    need = max(0, (max(ld, st) - 1).bit_length())
    for t, (_, w) in zip(routed, marks):  # type: ignore[misc]
        if w < need:
            raise _err(f"fabric.{kind} @{_sym(op)} port type {t} has a {w}-bit tag; ldCount = {ld}, stCount = {st} need "
                       f"at least {need} bits (log2Ceil(max(ldCount, stCount)))", op, MEM_TAG)
    n_in = len(ft.inputs) - first
    return [w for _, w in marks[:n_in]], [w for _, w in marks[n_in:]]  # type: ignore[misc]


def read_fifo(defn: Operation, use: Operation, ft: FunctionType) -> FifoDef:
    """A fabric.fifo (verified by ``verify_fabric``); an instance's own ``bypassed`` overrides its definition's."""
    flag = defn.attributes.get("bypassable")
    bypassable = flag is not None and getattr(flag, "value", True) is not False
    b = use.attributes.get("bypassed", defn.attributes.get("bypassed"))
    w = _bits_list(defn, ft.inputs, "input")
    return FifoDef(_sym(defn), _int_param(defn, "depth", FIFO), bypassable, bool(getattr(b, "value", False)), w, list(w))


# ----------------------------------------------------------------------------- module


INLINE_COMPONENTS = ("fabric.spatial_sw", "fabric.temporal_sw", "fabric.extmemory", "fabric.memory", "fabric.spatial_pe",
                     "fabric.fifo", "fabric.temporal_pe", "fabric.add_tag", "fabric.del_tag", "fabric.map_tag")


def read_adg(module: Module, filename: str = "") -> ADG:
    """The single fabric.module of ``module`` as a verified ADG."""
    fmod = _the_module(module, filename)
    verify_fabric(module)  # the specs' rules for every op, before the mapper's narrower ones
    defs = _definitions(module, fmod)
    bad = unmappable_op(fmod, defs)
    if bad is not None:
        raise not_mappable_error(*bad)
    ft = _sig(fmod)
    for k, t in enumerate(ft.inputs):
        if port_width(t) is None and not isinstance(t, MemRefType):
            raise _err(f"fabric.module input {k} must be !fabric.bits<N>, a native scalar or a memref, found {t}",
                       fmod, PORT_TYPE)
    out_widths = _bits_list(fmod, ft.results, "output")
    nodes, where, pending = _read_nodes(fmod, defs, len(out_widths))
    drivers = _wire(fmod, ft, where, pending)
    adg = ADG(_sym(fmod), nodes, list(ft.inputs), out_widths, drivers, fmod.loc)
    adg.index_width = _index_width(nodes)
    if "loom.adg_max_join_fanin" in fmod.attributes:
        k = _int_param(fmod, "loom.adg_max_join_fanin", JOIN_FANIN)
        if not 0 <= k <= max(adg.join_fu_fanin(), 1):
            raise _err(f"fabric.module declares join fan-in {k}, but its widest join function unit takes "
                       f"{adg.join_fu_fanin()}", fmod, JOIN_FANIN)
        adg.declared_join_fanin = k
    return adg


def _the_module(module: Module, filename: str) -> Operation:
    """The file's one fabric.module (none or several: CPL_FABRIC_NO_MODULE at line 1)."""
    mods = [op for op in module.walk() if op.name == "fabric.module"]
    if len(mods) != 1:
        from loom.ir.location import Location

        raise VerifyError(f"expected exactly one fabric.module, found {len(mods)}", Location(filename or module.filename, 1, 1), NO_MODULE)
    return mods[0]


def _definitions(module: Module, fmod: Operation) -> dict[str, Operation]:
    """Every named component definition, at the top level or local to the module, by symbol."""
    defs: dict[str, Operation] = {}
    for op in [*module.body.ops, *fmod.regions[0].blocks[0].ops]:
        if op.name in DEFINITION_OPS and op.name != "fabric.module" and not op.operands and not op.results:
            defs[_sym(op)] = op
    return defs


Pending = list[tuple[Node, Operation, int]]  # (node, its op, operand k): the reads resolved once every node exists


def _read_nodes(fmod: Operation, defs: dict[str, Operation], n_outputs: int) -> tuple[list[Node], dict[int, Port], Pending]:
    """One node per instance or inline component of the module's body, in order; where each value is driven
    (id(value) -> output port) and the operand reads still to resolve."""
    fu_defs = {k: v for k, v in defs.items() if v.name == "fabric.function_unit"}
    pe_cache: dict[str, PEDef] = {}
    block = fmod.regions[0].blocks[0]
    nodes: list[Node] = []
    where: dict[int, Port] = {}  # id(value) -> output port
    for k, a in enumerate(block.args):
        where[id(a)] = (MODULE_IN, "o", k)
    pending: Pending = []
    names: set[str] = set()
    for op in block.ops:
        if op.name == "fabric.yield":
            if len(op.operands) != n_outputs:
                raise _err(f"fabric.module yields {len(op.operands)} values but declares {n_outputs} outputs", op, INSTANCE_PORTS)
            continue
        if not op.operands and not op.results:
            continue  # a definition local to the module
        kind_op, sig, name = _component(op, defs, nodes)
        if name in names:
            raise _err(f"two components are named '{name}'", op, DUPLICATE_NAME)
        if ":" in name or name == "module" or not name:
            raise _err(f"component name '{name}' is reserved or contains ':'", op, DUPLICATE_NAME)
        names.add(name)
        if [v.type for v in op.operands] != list(sig.inputs) or [r.type for r in op.results] != list(sig.results):
            raise _err(f"'{name}' port types do not match its definition @{_sym(kind_op)} {sig}", op, INSTANCE_PORTS)
        node = _read_node(op, kind_op, sig, name, fu_defs, pe_cache)
        nodes.append(node)
        for k, r in enumerate(op.results):
            where[id(r)] = (name, "o", k)
        for k in range(len(op.operands)):
            pending.append((node, op, k))
    return nodes, where, pending


def _component(op: Operation, defs: dict[str, Operation], nodes: list[Node]) -> tuple[Operation, FunctionType, str]:
    """(the op defining it, its signature, its name) of an instance or an inline component."""
    if op.name == "fabric.instance":
        target = defs.get(symbol_target(op) or "")
        if target is None:
            raise _err(f"fabric.instance names unknown component @{symbol_target(op)}", op, UNKNOWN_SYMBOL)
        return target, _sig(target), _sym(op) or f"{_sym(target)}_{len(nodes)}"
    if op.name in INLINE_COMPONENTS:
        sig = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        name = _sym(op) or f"{op.name.split('.')[1]}_{len(nodes)}"
        if not _sym(op) and op.name in ("fabric.add_tag", "fabric.map_tag", "fabric.del_tag"):  # upstream's names:
            name = f"{op.name.split('.')[1]}_{sum(n.kind == op.name.split('.')[1] for n in nodes)}"  # per-kind index
        return op, sig, name
    raise _err(f"'{op.name}' cannot appear in a fabric.module", op, UNSUPPORTED)


def _read_node(op: Operation, kind_op: Operation, sig: FunctionType, name: str, fu_defs: dict[str, Operation],
               pe_cache: dict[str, PEDef]) -> Node:
    """The node of component ``op`` named ``name``, read from its definition ``kind_op`` (a PE definition is
    read once and shared by its instances)."""
    if kind_op.name == "fabric.spatial_pe":
        key = _sym(kind_op) if kind_op is not op else f"inline {id(op)}"  # an inline PE is its own definition
        if key not in pe_cache:
            pe_cache[key] = read_pe(kind_op, fu_defs)
        return Node(name, "pe", pe_cache[key], op.loc)
    if kind_op.name == "fabric.spatial_sw":
        return Node(name, "sw", read_switch(kind_op, sig), op.loc)
    if kind_op.name == "fabric.temporal_sw":  # a switch routing by tag (loom/map/tsw.py)
        from loom.map.tsw import read_temporal_sw

        return Node(name, "sw", read_temporal_sw(kind_op, sig), op.loc)
    if kind_op.name in ("fabric.extmemory", "fabric.memory"):
        kind = kind_op.name.split(".")[1]
        return Node(name, kind, read_memory(kind_op, sig, kind), op.loc)
    if kind_op.name == "fabric.fifo":
        return Node(name, "fifo", read_fifo(kind_op, op, sig), op.loc)
    if kind_op.name == "fabric.temporal_pe":  # loom/map/temporal
        key = _sym(kind_op) if kind_op is not op else f"inline {id(op)}"
        if key not in pe_cache:
            pe_cache[key] = read_tpe(kind_op, sig, fu_defs, read_fu, _sym(kind_op))
        return Node(name, "tpe", pe_cache[key], op.loc)
    if kind_op.name in ("fabric.add_tag", "fabric.del_tag"):  # routed through (temporal PE ports, loom/map/tags.py)
        return Node(name, kind_op.name.split(".")[1], read_tag(kind_op, name), op.loc)
    if kind_op.name == "fabric.map_tag":
        from loom.map.tags import read_map_tag

        return Node(name, "map_tag", read_map_tag(kind_op, name), op.loc)
    raise _err(f"fabric.instance of '{kind_op.name}' is not allowed in a fabric.module", op, UNSUPPORTED)


def _wire(fmod: Operation, ft: FunctionType, where: dict[int, Port], pending: Pending) -> dict[Port, Port]:
    """Each input port's driver (an output port), from the operand reads and the yield; a memref may only
    feed input 0 of one extmemory, straight from a module input (CPL_FABRIC_MEMREF_PORT)."""
    block = fmod.regions[0].blocks[0]
    drivers: dict[Port, Port] = {}
    memref_readers: dict[int, str] = {}
    for node, op, k in pending:
        v = op.operands[k]
        if isinstance(v.type, MemRefType):
            if not (node.kind == "extmemory" and k == 0 and isinstance(v, BlockArgument)):
                raise _err("a memref may only feed input 0 of a fabric.extmemory, straight from a module input", op, MEMREF_PORT)
            if v.index in memref_readers:
                raise _err(f"module memref input {v.index} feeds two extmemories", op, MEMREF_PORT)
            memref_readers[v.index] = node.name
            node.memref_arg = v.index
            continue
        drivers[(node.name, "i", k)] = where[id(v)]
    yld = block.ops[-1] if block.ops and block.ops[-1].name == "fabric.yield" else None
    if yld is None:
        raise _err("fabric.module body must end in fabric.yield", fmod, INSTANCE_PORTS)
    for k, v in enumerate(yld.operands):
        if isinstance(v.type, MemRefType):
            raise _err("fabric.module outputs cannot be memrefs", yld, PORT_TYPE)
        drivers[(MODULE_OUT, "i", k)] = where[id(v)]
    for k, t in enumerate(ft.inputs):
        if isinstance(t, MemRefType) and k not in memref_readers:
            raise _err(f"module memref input {k} feeds no fabric.extmemory", fmod, MEMREF_PORT)
    return drivers

def load_adg(path: str) -> ADG:
    """Parse and verify the fabric file at ``path``."""
    from loom.mlir import parse_file

    return read_adg(parse_file(path), str(path))
