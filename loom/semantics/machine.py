"""The state-machine table of one operator: ports, registers, states, firing rules.

A rule may fire when the machine is in ``rule.state``, every port in
``rule.reads`` holds a token, and ``rule.guard`` (over the head values of those
ports and the registers) is true. Firing consumes exactly one token from each
read port, emits one token per ``emits`` entry, applies ``updates`` (all right
hand sides see the old registers), performs the ``effect`` and moves to
``rule.next``. Nothing else happens; every consumer reads only these fields.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Union

from loom.ir.types import Type
from loom.semantics.expr import Expr, In, Reg, ports_read, subexprs


@dataclass(frozen=True)
class Port:
    """One operand/result position of the op. ``kind`` is ``token``, ``memref`` (carries memory, no tokens) or
    ``static`` (wired to an always-ready source, carries no tokens)."""

    name: str
    type: Type
    kind: str = "token"


@dataclass(frozen=True)
class Register:
    """Internal state that survives between firings; ``init`` is its value in the initial state."""

    name: str
    type: Type
    init: object = 0


@dataclass(frozen=True)
class Write:
    """Effect: store ``data`` at multi-index ``address`` of the machine's memory."""

    address: tuple[Expr, ...]
    data: Expr


@dataclass(frozen=True)
class Fail:
    """Effect: abort the run with runtime error ``code``."""

    code: str
    message: str


@dataclass(frozen=True)
class Complete:
    """Effect: the function completes and returns ``values`` (the return operands, in order)."""

    values: tuple[Expr, ...]


Effect = Union[Write, Fail, Complete]


@dataclass(frozen=True)
class Rule:
    """One firing rule. ``emits``/``updates`` are ordered (port or register, expression) pairs."""

    name: str
    state: str
    reads: tuple[str, ...]
    next: str
    guard: Optional[Expr] = None
    emits: tuple[tuple[str, Expr], ...] = ()
    updates: tuple[tuple[str, Expr], ...] = ()
    effect: Optional[Effect] = None

    def expressions(self) -> list[Expr]:
        """Every expression of the rule (guard, emitted values, updates, effect operands)."""
        out: list[Expr] = [] if self.guard is None else [self.guard]
        out += [e for _, e in self.emits] + [e for _, e in self.updates]
        if isinstance(self.effect, Write):
            out += list(self.effect.address) + [self.effect.data]
        elif isinstance(self.effect, Complete):
            out += list(self.effect.values)
        return out


@dataclass(frozen=True)
class MemoryBinding:
    """Where a memory operator's storage comes from.

    ``source`` is ``operand`` (extmemory: the buffer of memref operand 0) or
    ``fresh`` (handshake.memory: a new zero-filled buffer of ``type``, or the
    global named ``global_name`` when the op carries ``loom.global_memref``).
    """

    source: str
    type: Type
    global_name: Optional[str] = None


@dataclass(frozen=True)
class Machine:
    """The complete token behaviour of one concrete op.

    ``inputs``/``outputs`` align one-to-one with the op's operands/results.
    ``sources`` lists output ports that offer a value forever without firing
    (``ub.poison``); such a port is never counted as a residual token.
    ``residual_states`` are the states in which the machine holds one latched
    token (mid-burst); ``choice`` says how several enabled rules are resolved:
    ``exclusive`` (guards never overlap), ``independent`` (enabled rules commute)
    or ``arbitrary`` (a nondeterministic choice; the simulator takes the first
    enabled rule in table order).
    """

    op_name: str
    inputs: tuple[Port, ...]
    outputs: tuple[Port, ...]
    states: tuple[str, ...]
    initial: str
    rules: tuple[Rule, ...]
    registers: tuple[Register, ...] = ()
    sources: tuple[tuple[str, Expr], ...] = ()
    residual_states: frozenset[str] = field(default_factory=frozenset)
    choice: str = "exclusive"
    memory: Optional[MemoryBinding] = None
    summary: str = ""

    def input(self, name: str) -> Port:
        for p in self.inputs:
            if p.name == name:
                return p
        raise KeyError(name)

    def output(self, name: str) -> Port:
        for p in self.outputs:
            if p.name == name:
                return p
        raise KeyError(name)

    def rules_in(self, state: str) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if r.state == state)

    def check(self) -> None:
        """Internal consistency of the table (raises ``ValueError``); every builder runs it."""
        ins = {p.name for p in self.inputs if p.kind == "token"}
        outs = {p.name for p in self.outputs}
        regs = {r.name for r in self.registers}
        if len(ins) != sum(p.kind == "token" for p in self.inputs) or len(outs) != len(self.outputs):
            raise ValueError(f"{self.op_name}: duplicate port names")
        if self.initial not in self.states or not self.residual_states <= set(self.states):
            raise ValueError(f"{self.op_name}: unknown initial/residual state")
        for r in self.rules:
            if r.state not in self.states or r.next not in self.states:
                raise ValueError(f"{self.op_name}.{r.name}: unknown state")
            reads = set(r.reads)
            if not reads <= ins or len(reads) != len(r.reads):
                raise ValueError(f"{self.op_name}.{r.name}: reads unknown or repeated ports {r.reads}")
            emitted = {p for p, _ in r.emits}
            if not emitted <= outs or len(emitted) != len(r.emits):
                raise ValueError(f"{self.op_name}.{r.name}: emits unknown or repeated ports")
            if not {n for n, _ in r.updates} <= regs:
                raise ValueError(f"{self.op_name}.{r.name}: updates unknown registers")
            for e in r.expressions():
                ports, registers = _mentioned(e)
                if not ports <= reads:
                    raise ValueError(f"{self.op_name}.{r.name}: uses a port it does not read")
                if not registers <= regs:
                    raise ValueError(f"{self.op_name}.{r.name}: uses an unknown register")
        for port, e in self.sources:
            if port not in outs or ports_read(e):
                raise ValueError(f"{self.op_name}: bad source port {port}")


def _mentioned(e: Expr) -> tuple[set[str], set[str]]:
    """(``ports_read(e)``, ``registers_read(e)``) in one walk (``subexprs``, the walk both read): ``check`` runs on
    every table a run builds."""
    ports: set[str] = set()
    registers: set[str] = set()
    for x in subexprs(e):
        if isinstance(x, In):
            ports.add(x.port)
        elif isinstance(x, Reg):
            registers.add(x.name)
    return ports, registers
