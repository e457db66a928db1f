"""Interpreter handlers for scalar ops (arith/math/ub via ``loom.semantics.scalar``) and func.call."""

from __future__ import annotations

from loom.diagnostics import LoomError, VerifyError
from loom.interp.compiler import UNSUPPORTED_OP, Exec, FunctionCompiler, handler
from loom.ir.attributes import SymbolRefAttr
from loom.ir.core import Operation
from loom.ir.types import FunctionType
from loom.semantics.scalar import scalar_fn
from loom.semantics.undefined import checked


@handler("<scalar>")
def compile_scalar(op: Operation, c: FunctionCompiler) -> Exec:
    """Any op the scalar semantics knows: specialise it once, then read/write frame slots."""
    in_types, out_types = [v.type for v in op.operands], [r.type for r in op.results]
    fn = scalar_fn(op.name, op.attributes, in_types, out_types, op.loc)
    fn = checked(fn, op.name, op.attributes, in_types, out_types, op.loc)  # stops where MLIR leaves it undefined
    ins = c.operand_slots(op)
    outs = c.result_slots(op)
    if len(outs) == 1:
        r = outs[0]
        if not ins:
            value = fn(())[0]  # constants and poison: evaluated once

            def run0(frame: list) -> None:
                frame[r] = value
            return run0
        if len(ins) == 1:
            a = ins[0]

            def run1(frame: list) -> None:
                frame[r] = fn((frame[a],))[0]
            return run1
        if len(ins) == 2:
            a, b = ins

            def run2(frame: list) -> None:
                frame[r] = fn((frame[a], frame[b]))[0]
            return run2

        def runn(frame: list) -> None:
            frame[r] = fn([frame[s] for s in ins])[0]
        return runn

    def run_multi(frame: list) -> None:
        for s, v in zip(outs, fn([frame[s] for s in ins])):
            frame[s] = v
    return run_multi


@handler("func.call")
def compile_call(op: Operation, c: FunctionCompiler) -> Exec:
    """Call another func.func of the module in a fresh frame."""
    callee = op.attributes.get("callee")
    if not isinstance(callee, SymbolRefAttr):
        raise LoomError("func.call without a 'callee' symbol", op.loc, UNSUPPORTED_OP)
    state = c.state
    # Compiled now (so IR errors surface before the run); a recursive callee is the
    # function being compiled, registered before its body, and complete by run time.
    target = state.function(callee.root, op.loc)
    params = target.op.regions[0].entry.args
    if len(params) != len(op.operands) or len(op.results) != len(_result_types(target.op)):
        raise VerifyError(f"func.call @{callee.root}: {len(op.operands)} arguments and {len(op.results)} results "
                          f"do not match the callee's signature", op.loc)
    ins = c.operand_slots(op)
    outs = c.result_slots(op)

    def run(frame: list) -> None:
        results = target.call([frame[s] for s in ins], state)
        for s, v in zip(outs, results):
            frame[s] = v
    return run


def _result_types(func: Operation) -> tuple:
    ft = getattr(func.attributes.get("function_type"), "type", None)
    return ft.results if isinstance(ft, FunctionType) else ()
