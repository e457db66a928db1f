"""``interpret``: run one func.func of a module on decoded inputs (the source-semantics oracle)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional

from loom.diagnostics import LoomError, SimulationError
from loom.interp.compiler import RunState
from loom.ir.core import Module, Operation
from loom.ir.location import Location
from loom.ir.types import FunctionType, MemRefType, NoneType, Type
from loom.runtime.io import INPUT_MISSING, INPUT_TYPE, decode_inputs, function_arg_names
from loom.runtime.memory import Buffer, MemRefView
from loom.runtime.result import run_result_json

DEFAULT_MAX_STEPS = 10**8


@dataclass
class InterpResult:
    """Outcome of one run: ``status`` is "completed" or "error" (then ``error`` says why).

    ``results`` are runtime values of the function's results (empty on error);
    ``memrefs`` maps every memref argument's name to its final view (also on error:
    the memory as it was when the error struck); ``steps`` counts executed ops.
    """

    status: str
    results: list
    memrefs: dict[str, MemRefView]
    error: Optional[LoomError]
    steps: int
    result_types: list[Type] = field(default_factory=list)

    def to_json(self) -> dict:
        """The ../shared/DESIGN.md ``sim --json`` document for this run."""
        return run_result_json(self.status, self.results, self.memrefs, None, None, self.error,
                               result_types=self.result_types)


def _copy_memrefs(values: list[Any]) -> list[Any]:
    """Copy input memories (keeping aliasing between arguments) so a run never mutates its inputs."""
    fresh: dict[int, Buffer] = {}
    out = []
    for v in values:
        if isinstance(v, MemRefView):
            b = v.buffer
            nb = fresh.get(id(b))
            if nb is None:
                nb = fresh[id(b)] = Buffer(list(b.data), b.element, b.name, b.readonly)
            v = MemRefView(nb, v.offset, v.sizes, v.strides)
        out.append(v)
    return out


def find_function(module: Module, func_name: str) -> Operation:
    """The func.func named ``func_name``."""
    for f in module.functions():
        sym = f.attributes.get("sym_name")
        if f.name == "func.func" and getattr(sym, "value", None) == func_name:
            return f
    raise LoomError(f"no func.func named '{func_name}' in the module", Location(module.filename, 1, 1),
                    "CPL_FUNC_NOT_FOUND")


def interpret(module: Module, func_name: str, inputs: dict[str, Any], *, max_steps: int = DEFAULT_MAX_STEPS,
              filename: str = "<inputs>", watch_loops: bool = False) -> InterpResult:
    """Execute ``@func_name`` on decoded inputs (``loom.runtime.decode_inputs``).

    Runtime faults (out-of-bounds access, division by zero, the step limit) give
    status "error"; malformed or unsupported IR and missing inputs raise LoomError.
    Input memrefs are copied, so ``inputs`` is left untouched. ``watch_loops`` stops a while loop whose state
    repeats (``RT_SCF_WHILE_REPEATS``: the run would never end).
    """
    func = find_function(module, func_name)
    state = RunState(module, dict(inputs), max_steps, filename, watch_loops=watch_loops)
    compiled = state.function(func_name, func.loc)
    entry_args = func.regions[0].entry.args
    names = function_arg_names(func)
    args: list[Any] = []
    for name, a in zip(names, entry_args):
        if isinstance(a.type, NoneType):
            args.append(None)
            continue
        if name not in inputs:
            raise LoomError(f"no value for argument '{name}'", Location(filename, 1, 1), INPUT_MISSING)
        v = inputs[name]
        if isinstance(a.type, MemRefType) != isinstance(v, MemRefView):
            raise LoomError(f"argument '{name}' of type {a.type} got {type(v).__name__}", Location(filename, 1, 1),
                            INPUT_TYPE)
        args.append(v)
    args = _copy_memrefs(args)
    memrefs = {n: v for n, v in zip(names, args) if isinstance(v, MemRefView)}
    ft = getattr(func.attributes.get("function_type"), "type", None)
    rtypes = list(ft.results) if isinstance(ft, FunctionType) else []
    try:
        results = compiled.call(args, state)
    except SimulationError as e:
        return InterpResult("error", [], memrefs, e, state.steps[0], rtypes)
    except RecursionError:
        err = SimulationError("Python recursion limit hit: the program nests too deeply", func.loc, "RT_CALL_DEPTH")
        return InterpResult("error", [], memrefs, err, state.steps[0], rtypes)
    return InterpResult("completed", results, memrefs, None, state.steps[0], rtypes)


def run_json(module: Module, func_name: str, json_obj: Any, filename: str = "<inputs>", *,
             max_steps: int = DEFAULT_MAX_STEPS, watch_loops: bool = False) -> InterpResult:
    """Decode a raw inputs object for ``@func_name`` and interpret it (convenience for tools and tests)."""
    func = find_function(module, func_name)
    names = function_arg_names(func)
    types = [a.type for a in func.regions[0].entry.args]
    inputs = decode_inputs(names, types, json_obj, filename, module=module)
    return interpret(module, func_name, inputs, max_steps=max_steps, filename=filename, watch_loops=watch_loops)
