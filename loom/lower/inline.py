"""Inline ``func.call`` before lowering: a DFG is one graph, so a callee's body is copied into the caller.

``inline_calls`` returns a copy of the function (the source module is never
changed) in which every call of a single-block ``func.func`` of the module is
replaced by the callee's ops, its arguments by the call's operands and the
call's results by the callee's ``func.return`` operands -- the interpreter's
call semantics, since scf bodies have no side exits. Recursion, calls of
declarations and of multi-block callees are CPL_LOWER_UNSUPPORTED at the call.
"""

from __future__ import annotations

from loom.ir.attributes import SymbolRefAttr
from loom.ir.core import Module, Operation, Value, replace_all_uses
from loom.lower.clone import clone_op
from loom.lower.memrefs import unsupported

MAX_DEPTH = 32  # nested calls followed before the chain counts as (unsupported) recursion


def _functions(module: Module) -> dict[str, Operation]:
    return module.functions_by_name("func.func")


def inline_calls(func: Operation, module: Module) -> Operation:
    """``func`` itself if it calls nothing, else a copy with every call inlined."""
    if not any(op.name == "func.call" for op in func.walk()):
        return func
    table = _functions(module)
    copy = clone_op(func, {})
    _inline_in(copy, copy.regions[0].entry.ops, table, [func.attributes["sym_name"].value])  # type: ignore[union-attr]
    return copy


def _inline_in(root: Operation, ops: list[Operation], table: dict[str, Operation], chain: list[str]) -> None:
    """Inline every call in or under ``ops`` (and in the inlined bodies, with ``chain`` as the call stack)."""
    calls = [op for top in list(ops) for op in top.walk() if op.name == "func.call"]
    for call in calls:
        ref = call.attributes.get("callee")
        name = ref.root if isinstance(ref, SymbolRefAttr) else None
        callee = table.get(name) if name is not None else None
        if callee is None or not callee.regions or not callee.regions[0].blocks:
            raise unsupported(f"func.call of @{name}, which has no body in this module, cannot be inlined", call.loc)
        if name in chain or len(chain) >= MAX_DEPTH:
            raise unsupported(f"recursive func.call of @{name} cannot be inlined into a dataflow graph", call.loc)
        if len(callee.regions[0].blocks) != 1:
            raise unsupported(f"func.call of @{name}, whose body has several blocks, is not supported", call.loc)
        entry = callee.regions[0].entry
        term = entry.terminator
        if term is None or term.name != "func.return":
            raise unsupported(f"@{name} does not end with func.return", callee.loc)
        mapping: dict[Value, Value] = dict(zip(entry.args, call.operands))
        block = call.parent
        assert block is not None
        at = block.ops.index(call)
        inlined: list[Operation] = []
        for op in entry.ops[:-1]:
            inlined.append(block.insert(at, clone_op(op, mapping)))
            at += 1
        for r, v in zip(call.results, term.operands):
            replace_all_uses(root, r, mapping.get(v, v))
        block.remove(call)
        _inline_in(root, inlined, table, chain + [name])
