"""handshake dialect (CIRCT), in the exact syntax upstream LOOM prints.

Inside ``handshake.func`` op names may be written bare (``load``, ``extmemory``,
``return``); the IR always holds the qualified name.
"""

from __future__ import annotations

from loom.dialects.checks import (
    ARITY,
    ATTRIBUTE,
    OPERAND_TYPE,
    RESULT_TYPE,
    TYPE_MISMATCH,
    UNKNOWN_SYMBOL,
    VerifyContext,
    all_same,
    counts,
    fail,
    is_i1,
    memref_operand,
)
from loom.dialects.func import RETURN_FORMAT, FunctionSyntax, verify_function, verify_return
from loom.dialects.opdef import OpDef
from loom.dialects.syntax import (
    AsmParser,
    AsmPrinter,
    AttrDict,
    BracketInt,
    Count,
    EachOperand,
    FixedSig,
    Format,
    KeywordAttr,
    Lit,
    FnSig,
    MapSig,
    NoFit,
    SymbolAttr,
    Opd,
    OpDraft,
    Opds,
    SameType,
    SigError,
    constant_type,
)
from loom.ir.attributes import ArrayAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr
from loom.ir.core import Operation
from loom.ir.types import (
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    TupleType,
    Type,
    i1,
    i32,
    index,
    none,
)

CODE_PORTS_EMPTY = "CPL_MEMORY_PORTS_EMPTY"
BUFFER_INIT_COUNT = "CPL_HANDSHAKE_BUFFER_INIT_COUNT"
BUFFER_INIT_FIFO = "CPL_HANDSHAKE_BUFFER_INIT_FIFO"
PORT_NAMES = "CPL_HANDSHAKE_PORT_NAMES"
MEMREF_NO_EXTMEMORY = "CPL_HANDSHAKE_MEMREF_NO_EXTMEMORY"
INDEX_WIDTH = "CPL_HANDSHAKE_INDEX_WIDTH"


def _need(n: int, k: int, what: str) -> None:
    if n != k:
        raise SigError(f"{what} takes {k} operand{'s' if k != 1 else ''}, found {n}")


# ---------------------------------------------------------------------------- signatures


def _constant(s: Type, n: int):
    _need(n, 1, "handshake.constant")
    return [none], [s]


def _cond_br(s: Type, n: int):
    _need(n, 2, "handshake.cond_br")
    return [i1, s], [s, s]


def _mux(s: list[Type], n: int):
    if len(s) != 2:
        raise SigError("handshake.mux is typed ': select type, data type'")
    if n < 2:
        raise SigError("handshake.mux needs a select and at least one data operand")
    return [s[0]] + [s[1]] * (n - 1), [s[1]]


def _control_merge(s: tuple, n: int):
    if n < 1:
        raise SigError("handshake.control_merge needs at least one operand")
    return [s[0]] * n, [s[0], s[1] or index]


def _sync(s: list[Type], n: int):
    """``sync %a, %b : A, B`` -> operands and results both [A, B]."""
    if len(s) != n:
        raise SigError(f"handshake.sync has {n} operands but {len(s)} types")
    return list(s), list(s)


def _pack(s: Type, n: int):
    """``pack %a, %b : tuple<A, B>`` -> operands [A, B], result the tuple."""
    if not isinstance(s, TupleType) or len(s.types) != n:
        raise SigError(f"handshake.pack of {n} operand(s) is typed by a tuple of {n} element(s), found {s}")
    return list(s.types), [s]


def _unpack(s: Type, n: int):
    """``unpack %t : tuple<A, B>`` -> operand the tuple, results [A, B]."""
    if not isinstance(s, TupleType):
        raise SigError(f"handshake.unpack is typed by a tuple, found {s}")
    _need(n, 1, "handshake.unpack")
    return [s], list(s.types)


def _sync_back(op: Operation) -> list[Type]:
    types = [v.type for v in op.operands]
    if not types or types != [r.type for r in op.results]:
        raise NoFit
    return types


def _mem_access(s: list[Type], n: int):
    """load/store ``[addrs] %data, %ctrl : A1, ..., D`` -> operands [*A, D, none], results [D, *A]."""
    if n != len(s) + 1:
        raise SigError(f"{n - 2} addresses but {len(s) - 1} address types")
    addrs, data = list(s[:-1]), s[-1]
    return [*addrs, data, none], [data, *addrs]


def _mem_access_back(op: Operation) -> list[Type]:
    return [v.type for v in op.operands[:-2]] + [op.operands[-2].type]


class _PortCounts:
    """``[ld = N, st = M]`` of memory/extmemory: the ``ldCount``/``stCount`` attributes."""

    @staticmethod
    def parse(p: AsmParser, st: OpDraft) -> None:
        tok = p.expect("[")
        counts_ = {}
        for k, word in enumerate(("ld", "st")):
            if k:
                p.expect(",", " between 'ld' and 'st'")
            p.expect(word)
            p.expect("=", f" after '{word}'")
            counts_[word] = p.parse_int()
        p.expect("]", " after the port counts")
        st.set_attr(p, "ldCount", IntegerAttr(counts_["ld"], i32), tok)
        st.set_attr(p, "stCount", IntegerAttr(counts_["st"], i32), tok)

    @staticmethod
    def print(op: Operation) -> str | None:
        ld, st = op.attributes.get("ldCount"), op.attributes.get("stCount")
        if not (isinstance(ld, IntegerAttr) and ld.type == i32 and isinstance(st, IntegerAttr) and st.type == i32):
            return None
        return f"[ld = {ld.value}, st = {st.value}]"


def _fn_type(p: AsmParser, n_ports: int) -> FunctionType:
    tok = p.peek()
    t = p.parse_type()
    if not isinstance(t, FunctionType):
        raise p.error(f"expected the port function type '(...) -> (...)', found '{t}'", tok)
    if len(t.inputs) != n_ports:
        raise p.error(f"{n_ports} ports but {len(t.inputs)} port types", tok)
    return t


class ExtMemorySyntax:
    """``extmemory[ld = 1, st = 0] (%m : memref<...>) (%ports) {attrs} : (P...) -> (R...)``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        _PortCounts.parse(p, st)
        p.expect("(", " before the memref operand")
        mem = p.parse_operand()
        p.expect(":", " after the memref operand")
        mt = p.parse_type()
        p.expect(")", " after the memref type")
        ports = p.parse_operand_list("(", ")")
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        p.expect(":", " before the port types")
        ft = _fn_type(p, len(ports))
        st.operands = [mem, *ports]
        st.operand_types = [mt, *ft.inputs]
        st.result_types = list(ft.results)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        head = _PortCounts.print(op)
        if head is None or not op.operands or op.regions or op.successors:
            return None
        mem, ports = op.operands[0], op.operands[1:]
        ft = FunctionType(tuple(v.type for v in ports), tuple(r.type for r in op.results))
        return (
            f"{head} ({w.value(mem)} : {w.type(mem.type)}) ({', '.join(w.value(v) for v in ports)})"
            f"{w.attr_dict(op.attributes, {'ldCount', 'stCount'})} : {w.type(ft)}"
        )


class MemorySyntax:
    """``memory[ld = 1, st = 0] (%ports) {attrs} : memref<...>, (P...) -> (R...)``."""

    def parse(self, p: AsmParser, st: OpDraft) -> None:
        _PortCounts.parse(p, st)
        ports = p.parse_operand_list("(", ")")
        tok = p.peek()
        for k, v in p.parse_attr_dict().items():
            st.set_attr(p, k, v, tok)
        p.expect(":", " before the memref type")
        mtok = p.peek()
        mt = p.parse_type()
        if not isinstance(mt, MemRefType):
            raise p.error(f"expected a memref type, found '{mt}'", mtok)
        st.set_attr(p, "memRefType", TypeAttr(mt), mtok)
        p.expect(",", " after the memref type")
        ft = _fn_type(p, len(ports))
        st.operands = ports
        st.operand_types = list(ft.inputs)
        st.result_types = list(ft.results)

    def print(self, w: AsmPrinter, op: Operation) -> str | None:
        head = _PortCounts.print(op)
        mt = op.attributes.get("memRefType")
        if head is None or not isinstance(mt, TypeAttr) or not isinstance(mt.type, MemRefType) or op.regions or op.successors:
            return None
        ft = FunctionType(tuple(v.type for v in op.operands), tuple(r.type for r in op.results))
        return (
            f"{head} ({', '.join(w.value(v) for v in op.operands)})"
            f"{w.attr_dict(op.attributes, {'ldCount', 'stCount', 'memRefType'})} : {w.type(mt.type)}, {w.type(ft)}"
        )


# ---------------------------------------------------------------------------- verifiers


def verify_func(op: Operation, ctx: VerifyContext) -> None:
    verify_function(op, ctx, "handshake.return")
    ft = op.attributes.get("function_type")
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        return
    _verify_port_names(op, "argNames", len(ft.type.inputs))
    _verify_port_names(op, "resNames", len(ft.type.results))
    if op.regions and op.regions[0].blocks:
        for k, arg in enumerate(op.regions[0].blocks[0].args):
            if isinstance(arg.type, MemRefType) and not any(u.name == "handshake.extmemory" for u in _users(op, arg)):
                fail(op, MEMREF_NO_EXTMEMORY, f"memref argument #{k} is not used by a 'handshake.extmemory' "
                     "(CIRCT's rule: every memref argument is accessed through one)")


def _users(func: Operation, v) -> list[Operation]:
    return [o for o in func.regions[0].blocks[0].ops if any(x is v for x in o.operands)]


def _verify_port_names(op: Operation, attr: str, n: int) -> None:
    """CIRCT's argNames/resNames: when present, one string per argument/result."""
    a = op.attributes.get(attr)
    if a is None:
        return
    if not isinstance(a, ArrayAttr) or not all(isinstance(x, StringAttr) for x in a.elements):
        fail(op, PORT_NAMES, f"attribute '{attr}' must be an array of strings, got {a}")
    if len(a.elements) != n:
        fail(op, PORT_NAMES, f"attribute '{attr}' has {len(a.elements)} entries, the function has {n}")


def _index_wide_enough(op: Operation, t: Type, n: int, what: str) -> None:
    """CIRCT's rule: an iK select/index can name at most 2**K inputs."""
    if isinstance(t, IntegerType) and t.width < 64 and n > 1 << t.width:
        fail(op, INDEX_WIDTH, f"{what} of type {t} can name {1 << t.width} inputs, but there are {n}")


def verify_join(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=1)
    if not isinstance(op.results[0].type, NoneType):
        fail(op, RESULT_TYPE, f"result must be none, found {op.results[0].type}")


def verify_fork(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1)
    if not op.results:
        fail(op, ARITY, "needs at least one result")
    all_same(op, [op.operands[0], *op.results], "operand and results")


def verify_constant(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    if not isinstance(op.operands[0].type, NoneType):
        fail(op, OPERAND_TYPE, f"control operand must be none, found {op.operands[0].type}")
    v = op.attributes.get("value")
    t = constant_type(v) if v is not None else None
    if t is None:
        fail(op, ATTRIBUTE, "needs a typed 'value' attribute")
    if t != op.results[0].type:
        fail(op, TYPE_MISMATCH, f"value has type {t} but the result is {op.results[0].type}")


def verify_cond_br(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=2, results=2)
    if not is_i1(op.operands[0].type):
        fail(op, OPERAND_TYPE, f"condition must be i1, found {op.operands[0].type}")
    all_same(op, [op.operands[1], *op.results], "data operand and results")


def verify_mux(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=2, results=1)
    sel = op.operands[0].type
    if not isinstance(sel, (IntegerType, IndexType)):
        fail(op, OPERAND_TYPE, f"select must be index or an integer, found {sel}")
    if is_i1(sel) and len(op.operands) != 3:
        fail(op, ARITY, f"with an i1 select takes exactly 2 data operands, found {len(op.operands) - 1}")
    _index_wide_enough(op, sel, len(op.operands) - 1, "select")
    all_same(op, [*op.operands[1:], op.results[0]], "data operands and result")


def verify_merge(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=1)
    all_same(op, [*op.operands, op.results[0]], "operands and result")


def verify_control_merge(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1, results=2)
    all_same(op, [*op.operands, op.results[0]], "operands and first result")
    if not isinstance(op.results[1].type, (IntegerType, IndexType)):
        fail(op, RESULT_TYPE, f"index result must be index or an integer, found {op.results[1].type}")
    _index_wide_enough(op, op.results[1].type, len(op.operands), "index result")


def verify_sink(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=0)


def verify_same_unary(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1, results=1)
    all_same(op, [op.operands[0], op.results[0]], "operand and result")


def verify_buffer(op: Operation, ctx: VerifyContext) -> None:
    verify_same_unary(op, ctx)
    slots = op.attributes.get("slots")
    if not (isinstance(slots, IntegerAttr) and slots.value >= 1):
        fail(op, ATTRIBUTE, "needs a positive integer 'slots' attribute")
    kind = op.attributes.get("bufferType")
    if not (isinstance(kind, StringAttr) and kind.value in ("seq", "fifo")):
        fail(op, ATTRIBUTE, "attribute 'bufferType' must be \"seq\" or \"fifo\"")
    init = op.attributes.get("initValues")
    if init is None:
        return
    if not (isinstance(init, ArrayAttr) and all(isinstance(x, IntegerAttr) for x in init.elements)):
        fail(op, ATTRIBUTE, "attribute 'initValues' must be an array of integers")
    if kind.value != "seq":
        fail(op, BUFFER_INIT_FIFO, "only a seq buffer may have initial values (CIRCT's rule), this one is fifo")
    if len(init.elements) != slots.value:
        fail(op, BUFFER_INIT_COUNT, f"expects {slots.value} initial value(s), one per slot, got {len(init.elements)}")


def verify_mem_access(op: Operation, ctx: VerifyContext) -> None:
    """load: [*addr, data_from_mem, ctrl] -> [data_out, *addr_to_mem]; store likewise."""
    counts(op, min_operands=2)
    n_addr = len(op.operands) - 2
    if len(op.results) != 1 + n_addr:
        fail(op, ARITY, f"with {n_addr} addresses needs {1 + n_addr} results, found {len(op.results)}")
    if not isinstance(op.operands[-1].type, NoneType):
        fail(op, OPERAND_TYPE, f"control operand must be none, found {op.operands[-1].type}")
    for k in range(n_addr):
        a = op.operands[k].type
        if not isinstance(a, (IndexType, IntegerType)):
            fail(op, OPERAND_TYPE, f"address must be index or an integer, found {a}")
        if op.results[1 + k].type != a:
            fail(op, TYPE_MISMATCH, f"address result {k} has type {op.results[1 + k].type}, its operand {a}")
    if op.results[0].type != op.operands[-2].type:
        fail(op, TYPE_MISMATCH, f"data result {op.results[0].type} differs from the data operand {op.operands[-2].type}")


def _verify_ports(op: Operation, mt: MemRefType, ports: list) -> None:
    ld, st = op.attributes.get("ldCount"), op.attributes.get("stCount")
    if not (isinstance(ld, IntegerAttr) and isinstance(st, IntegerAttr) and ld.value >= 0 and st.value >= 0):
        fail(op, ATTRIBUTE, "needs non-negative integer 'ldCount' and 'stCount' attributes")
    nl, ns = ld.value, st.value
    if nl == 0 and ns == 0 and op.name == "handshake.memory":  # CIRCT emits an empty extmemory for an unused memref
        fail(op, CODE_PORTS_EMPTY, "has no load and no store ports (ld = 0, st = 0)")
    rank = max(1, mt.rank)
    want_ports = ns * (1 + rank) + nl * rank
    if len(ports) != want_ports:
        fail(op, ARITY, f"with ld = {nl}, st = {ns} on {mt} needs {want_ports} port operands, found {len(ports)}")
    if len(op.results) != 2 * nl + ns:
        fail(op, ARITY, f"with ld = {nl}, st = {ns} needs {2 * nl + ns} results, found {len(op.results)}")
    for k in range(ns):
        data = ports[k * (1 + rank)]
        if data.type != mt.element:
            fail(op, TYPE_MISMATCH, f"store port {k} data has type {data.type}, the memref holds {mt.element}")
    _verify_addresses(op, ports, nl, ns, rank)
    for k in range(nl):
        if op.results[k].type != mt.element:
            fail(op, RESULT_TYPE, f"load result {k} must be {mt.element}, found {op.results[k].type}")
    for r in op.results[nl:]:
        if not isinstance(r.type, NoneType):
            fail(op, RESULT_TYPE, f"done results must be none, found {r.type}")


def _verify_addresses(op: Operation, ports: list, nl: int, ns: int, rank: int) -> None:
    """Every address port has one type (CIRCT's rule), an index or integer one (loom's: memory is indexed)."""
    addrs = [(f"store port {k} address {d}", ports[k * (1 + rank) + 1 + d]) for k in range(ns) for d in range(rank)]
    addrs += [(f"load port {k} address {d}", ports[ns * (1 + rank) + k * rank + d]) for k in range(nl) for d in range(rank)]
    for what, v in addrs:
        if not isinstance(v.type, (IndexType, IntegerType)):
            fail(op, OPERAND_TYPE, f"{what} must be index or an integer, found {v.type}")
        if v.type != addrs[0][1].type:
            fail(op, TYPE_MISMATCH, f"{what} has type {v.type}, the first address port {addrs[0][1].type}")


def verify_extmemory(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1)
    _verify_ports(op, memref_operand(op, op.operands[0]), op.operands[1:])


def verify_memory(op: Operation, ctx: VerifyContext) -> None:
    counts(op)
    mt = op.attributes.get("memRefType")
    if not isinstance(mt, TypeAttr) or not isinstance(mt.type, MemRefType):
        fail(op, ATTRIBUTE, "needs a 'memRefType' attribute holding a memref type")
    _verify_ports(op, mt.type, list(op.operands))


def verify_instance(op: Operation, ctx: VerifyContext) -> None:
    """CIRCT's rules: ``module`` names a handshake.func of the module whose signature the instance matches."""
    ref = op.attributes.get("module")
    if not isinstance(ref, SymbolRefAttr):
        fail(op, ATTRIBUTE, "needs a 'module' symbol reference")
    target = ctx.symbols.get(ref.root)
    if target is None or target.name != "handshake.func":
        fail(op, UNKNOWN_SYMBOL, f"instantiates '@{ref.root}', which is not a handshake.func in this module")
    ft = target.attributes.get("function_type")
    if isinstance(ft, TypeAttr) and isinstance(ft.type, FunctionType):
        if [v.type for v in op.operands] != list(ft.type.inputs):
            fail(op, TYPE_MISMATCH, f"operand types differ from the signature of '@{ref.root}' ({ft.type})")
        if [r.type for r in op.results] != list(ft.type.results):
            fail(op, TYPE_MISMATCH, f"result types differ from the signature of '@{ref.root}' ({ft.type})")


def verify_source(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=0, results=1)
    if not isinstance(op.results[0].type, NoneType):
        fail(op, RESULT_TYPE, f"result must be none, found {op.results[0].type}")


def verify_pack(op: Operation, ctx: VerifyContext) -> None:
    counts(op, results=1)
    t = op.results[0].type
    if not isinstance(t, TupleType):
        fail(op, RESULT_TYPE, f"result must be a tuple, found {t}")
    if [v.type for v in op.operands] != list(t.types):
        fail(op, TYPE_MISMATCH, f"operand types must be the elements of {t}, in order")


def verify_unpack(op: Operation, ctx: VerifyContext) -> None:
    counts(op, operands=1)
    t = op.operands[0].type
    if not isinstance(t, TupleType):
        fail(op, OPERAND_TYPE, f"operand must be a tuple, found {t}")
    if [r.type for r in op.results] != list(t.types):
        fail(op, TYPE_MISMATCH, f"result types must be the elements of {t}, in order")


def verify_sync(op: Operation, ctx: VerifyContext) -> None:
    counts(op, min_operands=1)
    if [v.type for v in op.operands] != [r.type for r in op.results]:
        fail(op, TYPE_MISMATCH, "results must have the operands' types, in order")


OPS = [
    OpDef("handshake.func", FunctionSyntax("handshake.variadic"), verify_func, isolated=True, default_dialect="handshake", graph_regions=True),
    OpDef("handshake.return", RETURN_FORMAT, verify_return, terminator=True),
    OpDef("handshake.join", Format(Opds("inputs"), AttrDict(), EachOperand((none,))), verify_join),
    OpDef("handshake.fork", Format(Count(), Opd("input"), AttrDict(), SameType(results=None, operands=1, what="fork")), verify_fork),
    OpDef("handshake.lazy_fork", Format(Count(), Opd("input"), AttrDict(), SameType(results=None, operands=1, what="lazy_fork")), verify_fork),
    OpDef("handshake.constant", Format(Opd("ctrl"), AttrDict(), MapSig("one", _constant, lambda op: op.results[0].type)), verify_constant),
    OpDef(
        "handshake.cond_br",
        Format(Opd("cond"), Lit(",", space=False), Opd("data"), AttrDict(), MapSig("one", _cond_br, lambda op: op.operands[1].type)),
        verify_cond_br,
    ),
    OpDef(
        "handshake.mux",
        Format(Opd("select"), Opds("data", "[", "]"), AttrDict(), MapSig("list", _mux, lambda op: [op.operands[0].type, op.results[0].type])),
        verify_mux,
    ),
    OpDef("handshake.merge", Format(Opds("inputs"), AttrDict(), SameType(what="merge")), verify_merge),
    OpDef(
        "handshake.control_merge",
        Format(Opds("inputs"), AttrDict(), MapSig("one_opt2", _control_merge, lambda op: (op.results[0].type, op.results[1].type))),
        verify_control_merge,
    ),
    OpDef("handshake.sink", Format(Opd("input"), AttrDict(), SameType(results=0, operands=1, what="sink")), verify_sink),
    OpDef("handshake.br", Format(Opd("input"), AttrDict(), SameType(operands=1, what="br")), verify_same_unary),
    OpDef(
        "handshake.buffer",
        Format(BracketInt("slots", i32), KeywordAttr("bufferType", ("seq", "fifo")), Opd("input"), AttrDict(), SameType(operands=1, what="buffer")),
        verify_buffer,
    ),
    OpDef(
        "handshake.load",
        Format(Opds("addresses", "[", "]"), Opd("data"), Lit(",", space=False), Opd("ctrl"), AttrDict(), MapSig("list", _mem_access, _mem_access_back)),
        verify_mem_access,
    ),
    OpDef(
        "handshake.store",
        Format(Opds("addresses", "[", "]"), Opd("data"), Lit(",", space=False), Opd("ctrl"), AttrDict(), MapSig("list", _mem_access, _mem_access_back)),
        verify_mem_access,
    ),
    OpDef("handshake.source", Format(AttrDict(), FixedSig((), (none,))), verify_source),
    OpDef("handshake.instance", Format(SymbolAttr("module"), Opds("args", "(", ")", space=False), AttrDict(), FnSig()), verify_instance),
    OpDef("handshake.pack", Format(Opds("inputs"), AttrDict(), MapSig("one", _pack, lambda op: op.results[0].type)), verify_pack),
    OpDef("handshake.unpack", Format(Opd("input"), AttrDict(), MapSig("one", _unpack, lambda op: op.operands[0].type)), verify_unpack),
    OpDef("handshake.sync", Format(Opds("inputs"), AttrDict(), MapSig("list", _sync, _sync_back)), verify_sync),
    OpDef("handshake.extmemory", ExtMemorySyntax(), verify_extmemory),
    OpDef("handshake.memory", MemorySyntax(), verify_memory),
]
