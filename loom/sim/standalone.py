"""Run one operator table on its own: given token lists per input port, collect the output streams.

Used by the table tests and handy for checking a single machine against a
spec example; it goes through the same compiled rules and scheduler as
``simulate`` (the op is wired to pre-filled input channels and to a collector
that never consumes).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Mapping, Optional, Sequence

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.semantics.machine import Machine, Port
from loom.sim.engine import run
from loom.sim.network import Actor, BoundMemory, Channel, Network, compile_rules

COLLECTOR = "sim.collector"


@dataclass
class MachineRun:
    """Result of ``run_machine``: emitted tokens per output port, leftovers per input, final state."""

    outputs: dict[str, list[Any]]
    leftover: dict[str, list[Any]]
    state: str
    registers: dict[str, Any]
    steps: int
    error: Optional[LoomError] = None
    completed: Optional[list[Any]] = field(default=None)


def run_machine(
    machine: Machine,
    inputs: Mapping[str, Sequence[Any]],
    *,
    memory: Optional[Any] = None,
    max_steps: int = 1_000_000,
) -> MachineRun:
    """Fire ``machine`` until quiescent on the given input streams (ports not given start empty)."""
    unknown = set(inputs) - {p.name for p in machine.inputs}
    if unknown:
        raise ValueError(f"{machine.op_name} has no input port(s) {sorted(unknown)}")
    actor = Actor(Operation.create(machine.op_name), machine, 0)
    collector_m = Machine(COLLECTOR, tuple(Port(p.name, p.type) for p in machine.outputs), (), ("ready",), "ready", ())
    collector = Actor(Operation.create(COLLECTOR), collector_m, 1)
    channels: list[Channel] = []
    for i, p in enumerate(machine.inputs):
        if p.kind != "token":
            continue
        ch = Channel(p.name, deque(inputs.get(p.name, ())), actor, i, len(inputs.get(p.name, ())))
        actor.inputs[i] = ch
        channels.append(ch)
    outs: list[Channel] = []
    for k, p in enumerate(machine.outputs):
        ch = Channel(p.name, deque(), collector, k)
        collector.inputs[k] = ch
        actor.outputs[k].append(ch)
        outs.append(ch)
    if memory is not None:
        actor.memory = memory if isinstance(memory, BoundMemory) else BoundMemory(memory, machine.op_name, actor.op.loc)
    compile_rules(actor)
    compile_rules(collector)
    net = Network(None, [actor, collector], channels + outs)
    steps, returned, error, _ = run(net, max_steps)
    return MachineRun(
        outputs={ch.name: list(ch.q) for ch in outs},
        leftover={ch.name: list(ch.q) for ch in channels},
        state=actor.state,
        registers=dict(actor.regs),
        steps=steps,
        error=error,
        completed=returned,
    )
