"""Dynamically sized scratch buffers a kernel allocates as buffers its host passes in.

A DFG has no allocator and a ``handshake.memory`` needs a static shape, so a ``memref.alloc(%n)`` or
``memref.alloca(%n)`` whose sizes the arguments give through pure ops (``malloc(n * sizeof(float))`` at a C
kernel's start) becomes a trailing memref argument of the lowered function, named after the allocation: the
host allocates it (at least the size the kernel asks for) and the DFG reaches it through a
``handshake.extmemory`` like any array argument. Its contents on entry do not matter to a defined program:
``malloc``'s are indeterminate and ``calloc``'s zeros are a loop of the kernel. An allocation inside a loop
(a helper's ``calloc`` ... ``free`` per vertex) is one buffer reused by every iteration when it never leaves
its iteration (no loop carries it, nothing returns or passes it): each iteration's buffer is then dead
before the next is made, and the size is the same every time. An allocation whose size needs a load or a
loop's value, or that escapes its iteration, is left alone (the lowering rejects it). A size may read a memref
argument's length (``memref.dim``: a scratch buffer with room for a parameter it is swapped with,
loom/frontend/c/mirrors.py). specs/frontend-c.md states the rule.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from loom.ir.attributes import ArrayAttr, DictAttr, StringAttr, TypeAttr
from loom.ir.core import Block, BlockArgument, Module, Operation, OpResult, Region, Value, replace_all_uses
from loom.ir.types import FunctionType, IndexType, MemRefType
from loom.lower.clone import clone_op

ALLOCS = ("memref.alloc", "memref.alloca")
_PURE = ("arith.", "math.")  # ops whose results the host can compute from the arguments alone


@dataclass(frozen=True)
class HostBuffer:
    """One allocation the host makes: the argument's name, its type, and where the kernel allocated it."""

    name: str
    type: MemRefType
    alloc: Operation


_LOOPS = ("scf.for", "scf.while", "scf.parallel", "scf.forall")


def _in_loop(op: Operation, func: Operation) -> bool:
    """Whether ``op`` may run more than once per call of ``func`` (it stands inside a loop)."""
    return any(a.name in _LOOPS for a in op.ancestors() if a is not op and a is not func)


def _size_slice(op: Operation, func: Operation) -> list[Operation] | None:
    """The pure ops the sizes of ``op`` are computed by from ``func``'s arguments (in program order), or None
    when a size needs anything else (a load, a loop's value): pure ops of the arguments give the same size
    wherever they stand."""
    entry = func.regions[0].entry
    need: set[int] = set()
    todo = list(op.operands)
    while todo:
        v = todo.pop()
        if isinstance(v, BlockArgument):
            if v.block is not entry:
                return None
            continue
        d = v.op if isinstance(v, OpResult) else None
        if d is None or d.regions or not (d.name.startswith(_PURE) or d.name == "memref.dim"):
            return None  # memref.dim: of an argument (its operand must be one), a mirrored parameter's length
        if id(d) not in need:
            need.add(id(d))
            todo.extend(d.operands)
    return [o for o in func.walk() if id(o) in need]


_CARRY = ("scf.yield", "scf.condition", "func.return", "func.call", "cf.br", "cf.cond_br")


def _escapes(buf: Value, func: Operation) -> bool:
    """Whether the buffer leaves the iteration that allocated it (carried by a loop, returned, passed on)."""
    return any(buf in o.operands for o in func.walk() if o.name in _CARRY)


def host_buffers(func: Operation) -> list[HostBuffer]:
    """The dynamically sized allocations of ``func`` that its host can make instead (see the module doc)."""
    if not func.regions or not func.regions[0].blocks:
        return []
    taken = {a.name_hint for a in func.regions[0].entry.args}
    out = []
    for op in func.walk():
        t = op.results[0].type if op.name in ALLOCS and op.results else None
        if not isinstance(t, MemRefType) or all(d is not None for d in t.shape):
            continue
        if _size_slice(op, func) is None or (_in_loop(op, func) and _escapes(op.results[0], func)):
            continue
        base = op.results[0].name_hint or "buf"
        name, k = base, 0
        while name in taken:
            k += 1
            name = f"{base}_{k}"
        taken.add(name)
        out.append(HostBuffer(name, t, op))
    return out


def with_host_buffers(func: Operation) -> Operation:
    """``func``, or a copy of it whose host-allocatable buffers (``host_buffers``) are trailing arguments."""
    if not host_buffers(func):
        return func
    copy = clone_op(func, {})
    entry = copy.regions[0].entry
    bufs = host_buffers(copy)
    for buf in bufs:
        arg = entry.add_arg(buf.type, buf.name)
        replace_all_uses(copy, buf.alloc.results[0], arg)
        buf.alloc.parent.remove(buf.alloc)
    ft = copy.attributes["function_type"].type
    copy.attributes["function_type"] = TypeAttr(FunctionType(tuple(ft.inputs) + tuple(b.type for b in bufs),
                                                             tuple(ft.results)))
    names = copy.attributes.get("argNames")
    if isinstance(names, ArrayAttr):
        copy.attributes["argNames"] = ArrayAttr(tuple(names.elements) + tuple(StringAttr(b.name) for b in bufs))
    attrs = copy.attributes.get("arg_attrs")
    before = attrs.elements if isinstance(attrs, ArrayAttr) else tuple(DictAttr(()) for _ in ft.inputs)
    copy.attributes["arg_attrs"] = ArrayAttr(tuple(before) + tuple(
        DictAttr(((SIZE_ATTR, StringAttr(size_text(func, b))),)) for b in host_buffers(func)))
    return copy


SIZE_ATTR = "loom.host_size"  # on a host buffer's argument: the function of the arguments that gives its sizes


def size_function(func: Operation, buf: HostBuffer) -> Operation:
    """``func.func @<buffer>_size(<the arguments it reads>) -> index...``: the dynamic sizes of ``buf`` (one result
    per ``?`` of its type, in order) computed from ``func``'s arguments by the kernel's own size ops."""
    entry = func.regions[0].entry
    ops = _size_slice(buf.alloc, func) or []
    used = [a for a in entry.args if any(a in o.operands for o in ops) or a in buf.alloc.operands]
    new_entry = Block.create([a.type for a in used], [a.name_hint for a in used])
    mapping: dict[Value, Value] = dict(zip(used, new_entry.args))
    for op in ops:
        new_entry.append(clone_op(op, mapping))
    sizes = [mapping.get(v, v) for v in buf.alloc.operands]
    new_entry.append(Operation.create("func.return", sizes))
    ftype = FunctionType(tuple(a.type for a in used), tuple(IndexType() for _ in sizes))
    return Operation.create("func.func", [], [], {"sym_name": StringAttr(f"{buf.name}_size"),
                                                  "function_type": TypeAttr(ftype)}, [Region.of(new_entry)])


def size_text(func: Operation, buf: HostBuffer) -> str:
    """``size_function`` as one line of MLIR without locations: what ``SIZE_ATTR`` holds, so that ``loom sim``
    can allocate the buffer and ``loom verify`` can assume its length from the DFG alone."""
    from loom.ir.location import UNKNOWN
    from loom.mlir.printer import print_module

    f = size_function(func, buf)
    for op in f.walk():
        op.loc = UNKNOWN
    module = Module.empty("<host size>")
    module.body.append(f)
    return " ".join(line.strip() for line in print_module(module).splitlines() if line.strip())


def buffer_shapes(func: Operation, inputs: dict[str, Any]) -> dict[str, list[int]]:
    """The shape of each host buffer of ``func`` for ``inputs`` (an inputs JSON object): its size slice run by
    the interpreter, a negative size as 0 (a kernel that allocates after an early return never touches it)."""
    from loom.interp import interpret
    from loom.runtime import decode_inputs

    bufs = host_buffers(func)
    if not bufs:
        return {}
    entry = func.regions[0].entry
    new_entry = Block.create([a.type for a in entry.args], [a.name_hint for a in entry.args])
    mapping: dict[Value, Value] = dict(zip(entry.args, new_entry.args))
    copied: set[int] = set()
    sizes: list[Value] = []
    for buf in bufs:
        for op in _size_slice(buf.alloc, func) or []:
            if id(op) not in copied:
                copied.add(id(op))
                new_entry.append(clone_op(op, mapping))
        sizes += [mapping.get(v, v) for v in buf.alloc.operands]
    new_entry.append(Operation.create("func.return", sizes, loc=func.loc))
    ftype = FunctionType(tuple(a.type for a in entry.args), tuple(IndexType() for _ in sizes))
    f = Operation.create("func.func", [], [], {"sym_name": StringAttr("host_sizes"), "function_type": TypeAttr(ftype)},
                         [Region.of(new_entry)], loc=func.loc)
    module = Module.empty("<host sizes>")
    module.body.append(f)
    decoded = decode_inputs([a.name_hint or "" for a in entry.args], [a.type for a in entry.args], inputs,
                            "<inputs>", module)
    res = interpret(module, "host_sizes", decoded)
    # a size that faults (a division by zero) belongs to a path the kernel does not take on these inputs
    got = iter(max(int(v), 0) for v in res.results) if res.status == "completed" else iter(lambda: 0, 1)
    return {b.name: [next(got) if d is None else d for d in b.type.shape] for b in bufs}
