"""Turn a func.func body into Python closures once, then run them many times.

Each SSA value of a function gets a slot in a flat frame (a Python list); each op
becomes a closure ``exec(frame)`` built by the handler registered for its name
(the dispatch table ``HANDLERS``). Regions run in the frame of their function,
so scf ops simply call the compiled runner of their body block. Terminators are
not executed: the parent op reads their operand slots.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from loom.diagnostics import LoomError, SimulationError, VerifyError
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.location import Location

Exec = Callable[[list], None]
Handler = Callable[[Operation, "FunctionCompiler"], Exec]

HANDLERS: dict[str, Handler] = {}

STEP_LIMIT = "RT_STEP_LIMIT"
UNSUPPORTED_OP = "RT_UNSUPPORTED_OP"
CALL_DEPTH = "RT_CALL_DEPTH"
ARITY = "CPL_IR_ARITY"  # IR the verifier lets through but the interpreter cannot run
TERMINATOR = "CPL_IR_TERMINATOR"
MAX_CALL_DEPTH = 200


def handler(*names: str) -> Callable[[Handler], Handler]:
    """Register a compile function for the given op names."""

    def deco(f: Handler) -> Handler:
        for n in names:
            HANDLERS[n] = f
        return f

    return deco


class StepLimitExceeded(SimulationError):
    """The run executed more ops than ``max_steps`` allows."""


@dataclass
class RunState:
    """Mutable state of one ``interpret`` call (never shared between calls)."""

    module: Module
    inputs: dict[str, Any]
    max_steps: int
    filename: str = "<inputs>"
    steps: list[int] = field(default_factory=lambda: [0])
    depth: list[int] = field(default_factory=lambda: [0])
    globals: dict[str, Any] = field(default_factory=dict)
    functions: dict[str, "CompiledFunction"] = field(default_factory=dict)
    # stop an scf.while whose state at its condition repeats (RT_SCF_WHILE_REPEATS: the run never ends); off
    # by default, as remembering every iteration's state costs memory
    watch_loops: bool = False

    def function(self, name: str, loc: Location) -> "CompiledFunction":
        """The compiled func.func ``@name`` (compiled on first use, so recursion works)."""
        got = self.functions.get(name)
        if got is not None:
            return got
        op = None
        for f in self.module.functions():
            sym = f.attributes.get("sym_name")
            if f.name == "func.func" and getattr(sym, "value", None) == name:
                op = f
                break
        if op is None:
            raise LoomError(f"no func.func named @{name} in the module", loc, UNSUPPORTED_OP)
        if not op.regions or not op.regions[0].blocks:
            raise LoomError(f"@{name} is an external declaration; the interpreter needs its body", loc,
                            UNSUPPORTED_OP)
        compiled = CompiledFunction(op, name)
        self.functions[name] = compiled
        FunctionCompiler(self, compiled).compile()
        return compiled


@dataclass
class BlockCode:
    """A compiled block: where its arguments go, its body runner, and its terminator's operand slots."""

    arg_slots: list[int]
    run: Exec
    term: Optional[Operation]
    term_slots: list[int]


@dataclass(eq=False)
class CompiledFunction:
    """A func.func ready to run: its slot count, entry block code and result slots."""

    op: Operation
    name: str
    nslots: int = 0
    entry: Optional[BlockCode] = None

    def call(self, args: list, state: RunState) -> list:
        """Run the function on runtime values; returns its results."""
        assert self.entry is not None
        frame: list = [None] * self.nslots
        for s, v in zip(self.entry.arg_slots, args):
            frame[s] = v
        depth = state.depth
        depth[0] += 1
        if depth[0] > MAX_CALL_DEPTH:
            depth[0] -= 1
            raise SimulationError(f"call depth exceeds {MAX_CALL_DEPTH} (unbounded recursion in @{self.name}?)",
                                  self.op.loc, CALL_DEPTH)
        try:
            self.entry.run(frame)
        finally:
            depth[0] -= 1
        return [frame[s] for s in self.entry.term_slots]


class FunctionCompiler:
    """Compiles one function: assigns slots and builds closures via ``HANDLERS``."""

    def __init__(self, state: RunState, target: CompiledFunction) -> None:
        self.state = state
        self.target = target
        self.slots: dict[Value, int] = {}
        self.nslots = 0

    def compile(self) -> None:
        body = self.target.op.regions[0]
        if len(body.blocks) == 1:
            code = self.block(body.blocks[0], ("func.return",))
        else:
            from loom.interp.cfg import compile_cfg  # cfg imports this module

            code = compile_cfg(body, self)
        self.target.entry = code
        self.target.nslots = self.nslots

    # -- slots --------------------------------------------------------------------------

    def slot(self, v: Value) -> int:
        """The frame slot of ``v`` (allocated on first sight)."""
        s = self.slots.get(v)
        if s is None:
            s = self.slots[v] = self.fresh_slot()
        return s

    def fresh_slot(self) -> int:
        """A frame slot no value owns (scratch space of compiled control flow)."""
        self.nslots += 1
        return self.nslots - 1

    def operand_slots(self, op: Operation) -> list[int]:
        return [self.slot(v) for v in op.operands]

    def result_slots(self, op: Operation) -> list[int]:
        return [self.slot(v) for v in op.results]

    # -- blocks -------------------------------------------------------------------------

    def region_block(self, op: Operation, index: int, terminators: tuple[str, ...],
                     optional: bool = False) -> Optional[BlockCode]:
        """Compile region ``index`` of ``op``, which must hold exactly one block (or none if optional)."""
        if index >= len(op.regions) or not op.regions[index].blocks:
            if optional:
                return None
            raise VerifyError(f"{op.name}: region {index} is empty", op.loc, ARITY)
        region: Region = op.regions[index]
        if len(region.blocks) != 1:
            raise VerifyError(f"{op.name}: region {index} must have one block, found {len(region.blocks)}", op.loc,
                              ARITY)
        return self.block(region.blocks[0], terminators)

    def block(self, block: Block, terminators: tuple[str, ...]) -> BlockCode:
        """Compile the ops of ``block``; its last op must be one of ``terminators``."""
        term = block.ops[-1] if block.ops else None
        if term is None or term.name not in terminators:
            where = term.loc if term is not None else (block.parent_op.loc if block.parent_op else None)
            found = term.name if term is not None else "nothing"
            raise VerifyError(f"block must end with {' or '.join(terminators)}, found {found}", where, TERMINATOR)
        arg_slots = [self.slot(a) for a in block.args]
        fns = [self.op(o) for o in block.ops[:-1]]
        term_slots = self.operand_slots(term)
        n = len(block.ops)
        steps = self.state.steps
        limit = self.state.max_steps
        loc = block.ops[0].loc

        def over() -> StepLimitExceeded:
            return StepLimitExceeded(f"step limit of {limit} operations exceeded (raise it with --max-steps)",
                                     loc, STEP_LIMIT)

        if len(fns) == 0:
            def run(frame: list) -> None:
                steps[0] += n
                if steps[0] > limit:
                    raise over()
        elif len(fns) == 1:
            f0 = fns[0]

            def run(frame: list) -> None:
                steps[0] += n
                if steps[0] > limit:
                    raise over()
                f0(frame)
        else:
            fns_t = tuple(fns)

            def run(frame: list) -> None:
                steps[0] += n
                if steps[0] > limit:
                    raise over()
                for f in fns_t:
                    f(frame)

        return BlockCode(arg_slots, run, term, term_slots)

    def op(self, op: Operation) -> Exec:
        """The closure for one (non-terminator) op."""
        h = HANDLERS.get(op.name)
        if h is None:
            from loom.semantics.scalar import is_scalar_op

            if is_scalar_op(op.name):
                h = HANDLERS["<scalar>"]
            else:
                raise LoomError(f"the SCF interpreter does not support '{op.name}'", op.loc, UNSUPPORTED_OP)
        return h(op, self)
