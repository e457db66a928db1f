"""Entry points: one func.func -> one handshake.func (and the module around it).

The handshake.func keeps the source function's name and argument names
(``argNames``), appends a ``none`` start token argument and a ``none`` done
result (``resNames``); the done token joins the final ctrl-done token of every
memory domain (the start token when the function touches no memory).
"""

from __future__ import annotations

from typing import Optional

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, DictAttr, IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr, UnitAttr
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.entry import choose_function
from loom.ir.location import Location
from loom.ir.types import FunctionType, MemRefType, i32, none
from loom.lower.builder import DfgBuilder
from loom.lower.cleanup import tidy
from loom.lower.expand_copy import expand_copies
from loom.lower.host_alloc import with_host_buffers
from loom.lower.inline import inline_calls
from loom.lower.lift_cf import lift_cfg
from loom.lower.interfaces import build_interfaces
from loom.lower.legalize import legalize_join_fanin
from loom.lower.memrefs import UNSUPPORTED, MemoryAnalysis, unsupported
from loom.lower.options import LowerOptions
from loom.lower.regions import RegionLowering, is_scalar_type
from loom.lower.scopes import FuncScope

START_NAME = "start_token"
DONE_NAME = "done_token"


def _sym_name(func: Operation) -> str:
    a = func.attributes.get("sym_name")
    if not isinstance(a, StringAttr):
        raise LoomError("function without a name", func.loc, UNSUPPORTED)
    return a.value


def _arg_names(func: Operation) -> list[str]:
    """Source argument names without '%': ``argNames`` if the function has them, else the SSA names."""
    args = func.regions[0].entry.args
    given = func.attributes.get("argNames")
    if (
        isinstance(given, ArrayAttr)
        and len(given.elements) == len(args)
        and all(isinstance(e, StringAttr) for e in given.elements)
    ):
        return [e.value for e in given.elements]  # type: ignore[union-attr]
    return [a.name_hint or f"arg{i}" for i, a in enumerate(args)]


def _fresh_name(base: str, taken: list[str]) -> str:
    """``base``, or ``base_<k>`` if a source argument already has that name."""
    name, k = base, 0
    while name in taken:
        name, k = f"{base}_{k}", k + 1
    return name


def _check_signature(func: Operation) -> FunctionType:
    ft = func.attributes.get("function_type")
    if not isinstance(ft, TypeAttr) or not isinstance(ft.type, FunctionType):
        raise LoomError("function without a function_type", func.loc, UNSUPPORTED)
    for t in ft.type.inputs:
        if not (is_scalar_type(t) or isinstance(t, MemRefType)):
            raise unsupported(
                f"argument of type {t} is not supported (integer, index, float or memref)", func.loc
            )
    for t in ft.type.results:
        if not is_scalar_type(t):
            raise unsupported(f"result of type {t} is not supported (integer, index or float)", func.loc)
    return ft.type


def lower_function(func: Operation, options: Optional[LowerOptions] = None) -> Operation:
    """Lower a ``func.func`` in SCF form to a ``handshake.func``; raises LoomError for unsupported input."""
    options = options or LowerOptions()
    if func.name != "func.func":
        raise LoomError(f"expected a func.func, got '{func.name}'", func.loc, UNSUPPORTED)
    if not func.regions or not func.regions[0].blocks:
        raise unsupported(f"function '{_sym_name(func)}' is a declaration without a body", func.loc)
    if len(func.regions[0].blocks) != 1:
        raise unsupported(
            "functions with several blocks (unstructured control flow) are not supported", func.loc
        )
    ftype = _check_signature(func)
    name = _sym_name(func)
    arg_names = _arg_names(func)
    hs, body = _handshake_shell(func, ftype, name, arg_names)
    _lower_body(func, body, arg_names, options)
    _wrap_unused_memrefs(body)
    if options.max_join_fanin is not None:
        legalize_join_fanin(hs, options.max_join_fanin)
    return hs


def _handshake_shell(func: Operation, ftype: FunctionType, name: str,
                     arg_names: list[str]) -> tuple[Operation, Block]:
    """The empty ``handshake.func`` of ``func`` and its body block: the arguments plus a start token, the
    results plus a done token, and the argument attributes and assumptions carried over."""
    start = _fresh_name(START_NAME, arg_names)
    body = Block.create(list(ftype.inputs) + [none], arg_names + [start])
    attrs = {
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(
            FunctionType(tuple(ftype.inputs) + (none,), tuple(ftype.results) + (none,))
        ),
        "argNames": ArrayAttr(tuple(StringAttr(n) for n in arg_names + [start])),
        "resNames": ArrayAttr(
            tuple(StringAttr(f"result{i}") for i in range(len(ftype.results))) + (StringAttr(DONE_NAME),)
        ),
        "handshake.variadic": UnitAttr(),
    }
    src_arg_attrs = func.attributes.get("arg_attrs")
    if isinstance(src_arg_attrs, ArrayAttr):  # e.g. {loom.range = [lo, hi]}: what `loom verify` may assume
        attrs["arg_attrs"] = ArrayAttr(tuple(src_arg_attrs.elements) + (DictAttr(()),))
    if "loom.assume" in func.attributes:  # the function's input assumptions travel with it
        attrs["loom.assume"] = func.attributes["loom.assume"]
    hs = Operation.create("handshake.func", attributes=attrs, regions=[Region.of(body)], loc=func.loc)
    return hs, body


def _lower_body(func: Operation, body: Block, arg_names: list[str], options: LowerOptions) -> None:
    """Lower ``func``'s body into ``body``: the dataflow of its ops, the memory interfaces, and the return of
    its results with the done token (the join of every memory domain's last access)."""
    src_entry = func.regions[0].entry
    b = DfgBuilder(body)
    memory = MemoryAnalysis.build(func, arg_names)
    top = FuncScope(b, body.args[-1], func.loc)
    arg_map: dict[Value, Value] = {}
    for src, dst in zip(src_entry.args, body.args):
        top.bind(src, dst)
        arg_map[src] = dst
    lowering = RegionLowering(b, memory, options, arg_map)
    term = lowering.lower_block(src_entry, top)
    if term.name != "func.return":
        raise unsupported(f"function body ends with '{term.name}', expected func.return", term.loc)
    results = [top.lookup(v) for v in term.operands]
    finals = [top.mem_final(d) for d in memory.domains]
    if not finals:
        done = body.args[-1]
    elif len(finals) == 1:
        done = finals[0]
    else:
        done = b.join(finals, term.loc, "done")
    build_interfaces(b, memory.domains, lowering.accesses, arg_map)
    b.create("handshake.return", results + [done], [], None, term.loc)  # the block's terminator: last
    pending = b.unresolved()
    if pending:  # pragma: no cover - an internal invariant, not a user error
        raise AssertionError(f"lowering left unresolved values: {[f.value for f in pending]}")
    tidy(b)


def _wrap_unused_memrefs(body: Block, func_loc=None) -> None:
    """A memref argument no extmemory uses gets a port-less one, as CIRCT emits (its verifier wants one)."""
    for arg in body.args:
        if not isinstance(arg.type, MemRefType):
            continue
        if any(op.name == "handshake.extmemory" and op.operands and op.operands[0] is arg for op in body.ops):
            continue
        attrs = {"ldCount": IntegerAttr(0, i32), "stCount": IntegerAttr(0, i32),
                 "id": IntegerAttr(sum(op.name == "handshake.extmemory" for op in body.ops), i32)}
        owner = body.parent_op
        body.insert(0, Operation.create("handshake.extmemory", [arg], [], attrs, loc=owner.loc if owner else func_loc))


def globals_needed(func: Operation) -> list[Operation]:
    """The memref.get_global ops of ``func`` (each needs its memref.global in the output module)."""
    return [op for op in func.walk() if op.name == "memref.get_global"]


def structured_kernel(module: Module, func_name: Optional[str] = None) -> Operation:
    """The func.func the lowering actually lowers: ``func_name`` (or the one public kernel) with calls
    inlined, a CFG lifted to scf, memref.copy expanded and dynamically sized top-level allocations made
    trailing arguments the host allocates (host_alloc.py) -- a fresh function, or the source one when
    none of that applies. Tools relating a DFG to its source (refinement) can compare against it."""
    loc = module.op.loc if module.op.loc.line > 0 else Location(module.filename, 1, 1)  # an implicit module: the file
    kernel = expand_copies(lift_cfg(inline_calls(choose_function(module, func_name, ("func.func",), loc), module)))
    return with_host_buffers(kernel)  # dynamically sized scratch buffers: arguments the host allocates


def lower_module(
    module: Module, func_name: Optional[str] = None, options: Optional[LowerOptions] = None
) -> Module:
    """Lower one func.func of ``module`` (``func_name``, or the only public one) into a fresh module."""
    func = structured_kernel(module, func_name)
    out = Module.empty(module.filename)
    out.explicit = True
    defined = {
        op.attributes["sym_name"].value: op
        for op in module.walk()  # type: ignore[union-attr]
        if op.name == "memref.global" and isinstance(op.attributes.get("sym_name"), StringAttr)
    }
    emitted: set[str] = set()
    for get in globals_needed(func):
        ref = get.attributes.get("name")
        sym = ref.root if isinstance(ref, SymbolRefAttr) else None
        if sym is None:
            raise unsupported("memref.get_global without a symbol", get.loc)
        if sym in emitted:
            continue
        emitted.add(sym)
        g = defined.get(sym)
        if g is None:  # declared nowhere: keep an external declaration so the type is known
            t = get.results[0].type
            g = Operation.create(
                "memref.global", attributes={"sym_name": StringAttr(sym), "type": TypeAttr(t)}, loc=get.loc
            )
        else:
            g = _clone_global(g)
        out.body.append(g)
    out.body.append(lower_function(func, options))
    return out


def _clone_global(g: Operation) -> Operation:
    return Operation.create(g.name, attributes=dict(g.attributes), loc=g.loc)
