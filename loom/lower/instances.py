"""Inline ``handshake.instance`` at load time: the instantiated handshake.func's graph is copied in.

A CIRCT instance is a private copy of another function's circuit, fed by the instance's operands
and feeding its results; with loom's unbounded channels that is exactly the callee's ops wired in
place, its arguments replaced by the operands and the instance's results by the callee's
``handshake.return`` operands (so each token stream flows through, invocation after invocation).
The simulator and the verifier both read the inlined copy, so they agree on it. The source module is
never changed. A declaration, or an instance chain that comes back to a function already being
inlined, is a coded error at the instance.
"""

from __future__ import annotations

from loom.diagnostics import VerifyError
from loom.ir.attributes import SymbolRefAttr
from loom.ir.core import Module, Operation, Value, is_declaration, replace_all_uses
from loom.lower.clone import clone_op

INSTANCE_RECURSION = "CPL_HANDSHAKE_INSTANCE_RECURSION"
DECLARATION = "CPL_FUNC_DECLARATION"
UNKNOWN_SYMBOL = "CPL_IR_UNKNOWN_SYMBOL"


def _handshake_funcs(module: Module) -> dict[str, Operation]:
    return module.functions_by_name("handshake.func")


def inline_instances(func: Operation, module: Module) -> Operation:
    """``func`` itself if it instantiates nothing, else a copy with every instance inlined (recursively)."""
    if is_declaration(func) or not any(op.name == "handshake.instance" for op in func.regions[0].entry.ops):
        return func
    table = _handshake_funcs(module)
    copy = clone_op(func, {})
    _inline(copy, list(copy.regions[0].entry.ops), table, [func.attributes["sym_name"].value])  # type: ignore[union-attr]
    return copy


def _inline(root: Operation, ops: list[Operation], table: dict[str, Operation], chain: list[str]) -> None:
    for inst in [op for op in ops if op.name == "handshake.instance"]:
        ref = inst.attributes.get("module")
        name = ref.root if isinstance(ref, SymbolRefAttr) else None
        callee = table.get(name) if name is not None else None
        if callee is None:
            raise VerifyError(f"'handshake.instance' of @{name}, which is no handshake.func of this module",
                              inst.loc, UNKNOWN_SYMBOL)
        if is_declaration(callee):
            raise VerifyError(f"'handshake.instance' of @{name}, an external declaration: its circuit is not "
                              "in this file", inst.loc, DECLARATION)
        if name in chain:
            raise VerifyError(f"'handshake.instance' of @{name} instantiates itself (through "
                              f"{' -> '.join('@' + c for c in chain)}): the circuit would be infinite",
                              inst.loc, INSTANCE_RECURSION)
        entry = callee.regions[0].entry
        term = entry.terminator
        if term is None or term.name != "handshake.return":
            raise VerifyError(f"@{name} does not end with handshake.return", callee.loc, "CPL_IR_TERMINATOR")
        mapping: dict[Value, Value] = dict(zip(entry.args, inst.operands))
        block = inst.parent
        assert block is not None
        at = block.ops.index(inst)
        inlined: list[Operation] = []
        for op in entry.ops:
            if op is term:
                continue
            inlined.append(block.insert(at, clone_op(op, mapping)))
            at += 1
        for r, v in zip(inst.results, term.operands):
            replace_all_uses(root, r, mapping.get(v, v))
        block.remove(inst)
        _inline(root, inlined, table, chain + [name])
