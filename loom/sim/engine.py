"""The token simulator: fires table rules until the network is quiescent.

Scheduling is deterministic: a FIFO worklist of actors, initially every op in
body order. An actor taken from the list fires at most one rule -- the first
enabled rule of its current state in table order (this resolves the
nondeterministic choice of merge, control_merge and memory ports as "lowest
index first") -- and, if it fired, goes back to the end of the list together
with every consumer that received a token (and, when it popped a bounded route's
exit, that route's producer: ``loom.semantics.routes``). Since a rule's
enabledness depends only on the actor's state, input channels and the room in the
bounded routes it emits into, an actor that is not on the list cannot fire, so an
empty list means quiescence.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from typing import Any, Optional

from loom.diagnostics import LoomError, SimulationError
from loom.ir.core import Operation
from loom.ir.location import UNKNOWN
from loom.ir.types import NoneType
from loom.semantics.routes import route_full
from loom.sim.network import Actor, Forever, Network, Wired, bind_inputs, wire_network
from loom.sim.result import SimResult

STEP_LIMIT = "RT_SIM_STEP_LIMIT"


def _located(err: LoomError, actor: Actor) -> LoomError:
    if err.loc is None or err.loc == UNKNOWN:
        return SimulationError.of_op(actor.op.name, err.message, actor.op.loc, err.code)
    return err


def run(net: Network, max_steps: int) -> tuple[int, Optional[list[Any]], Optional[LoomError], bool]:
    """Fire until quiescent, an error, or ``max_steps`` firings: (steps, return values, error, quiescent).

    Channel counts (``Channel.count``) are settled from the rules' firing counts on the way out.
    """
    try:
        return _loop(net, max_steps)
    finally:
        for actor in net.actors:
            for rules in actor.rules.values():
                for rule in rules:
                    if rule.fired:
                        for ch in rule.emit_channels:
                            ch.count += rule.fired
                        rule.fired = 0


def _loop(net: Network, max_steps: int) -> tuple[int, Optional[list[Any]], Optional[LoomError], bool]:
    work: deque[Actor] = deque(net.actors)
    for a in net.actors:
        a.queued = True
    returned: Optional[list[Any]] = None
    steps = 0
    popleft, append = work.popleft, work.append
    while work:
        if steps >= max_steps:
            return steps, returned, None, False
        actor = popleft()
        actor.queued = False
        for rule in actor.rules[actor.state]:
            if not all(rule.queues):
                continue
            heads = actor.heads
            for i, q in rule.reads:
                heads[i] = q[0]
            regs = actor.regs
            mem = actor.memory
            if rule.guard is not None and not rule.guard(heads, regs, mem):
                continue
            if rule.room and not has_room(rule.room):
                break  # a bounded route it emits into is full: the actor waits (woken when its consumer pops)
            try:
                values = [(f(heads, regs, mem), appends) for f, appends in rule.emits]
                if rule.updates:
                    new = [(n, f(heads, regs, mem)) for n, f in rule.updates]
                    for n, v in new:
                        regs[n] = v
                eff = rule.effect
                if eff is not None:
                    kind = eff[0]
                    if kind == "write":
                        assert mem is not None
                        mem.store(eff[2](heads, regs, mem), [a(heads, regs, mem) for a in eff[1]])
                    elif kind == "complete":
                        if returned is None:
                            returned = [f(heads, regs, mem) for f in eff[1]]
                    else:  # fail
                        err = SimulationError.of_op(actor.op.name, eff[2], actor.op.loc, eff[1])
                        return steps, returned, err, True
            except LoomError as err:
                return steps, returned, _located(err, actor), True
            for q in rule.queues:
                q.popleft()
            for v, appends in values:
                for ap in appends:
                    ap(v)
            rule.fired += 1
            actor.state = rule.next
            steps += 1
            for c in rule.wake:
                if not c.queued:
                    c.queued = True
                    append(c)
            if not actor.queued:
                actor.queued = True
                append(actor)
            break
    return steps, returned, None, True


def has_room(room: tuple) -> bool:
    """Whether every bounded route (entry queue, exit queues, places, name) can take one more token."""
    return not full_routes(room)


def full_routes(room: tuple) -> list[str]:
    """The names of the bounded routes in ``room`` that hold as many tokens as they have places."""
    return [name for entry, exits, cap, name in room if route_full(len(entry), (len(q) for q in exits), cap)]


def residual_count(net: Network) -> int:
    """Tokens left in channels plus actors latched mid-burst (sources never count; nor tokens that
    re-arm a primed buffer, see ``loom.semantics.rest``)."""
    n = sum(max(0, len(ch.q) - ch.allowance) for ch in net.channels)
    return n + sum(1 for a in net.actors if a.state in a.machine.residual_states)


def stuck_report(net: Network) -> str:
    """Which ops hold tokens or latched state, and which input ports they wait on."""
    lines = []
    for a in net.actors:
        m = a.machine
        held = [
            f"{m.inputs[i].name} {ch.name} x{len(ch.q)}"
            for i, ch in enumerate(a.inputs)
            if ch is not None and not isinstance(ch.q, Forever) and len(ch.q) > ch.allowance
        ]
        latched = a.state in m.residual_states
        if not held and not latched:
            continue
        waits = sorted(
            {
                m.inputs[i].name
                for rule in a.rules[a.state]
                for i, q in rule.reads
                if not q
            }
        )
        full = sorted({n for rule in a.rules[a.state] if all(rule.queues) for n in full_routes(rule.room)})
        if full:  # a rule has its tokens, but a bounded route it emits into is full (loom.semantics.routes)
            waits = waits + [f"room in the full route of {', '.join(full)}"]
        lines.append(stuck_line(a.label(), a.state, latched, held, waits))
    return "\n".join(lines)


@dataclass(eq=False)
class Prepared:
    """A function's network built once (ops, channels, compiled rules); each ``run`` resets it and simulates.

    For callers that simulate one function on many inputs (safety's witness replays): building the network
    is most of a short run. ``run(inputs)`` gives what ``simulate(func, inputs)`` gives. Not thread-safe:
    one run at a time.
    """

    func: Operation
    wired: Wired

    def run(self, inputs: dict[str, Any], *, max_steps: int = 10_000_000) -> SimResult:
        """Simulate on ``inputs`` from the initial state; see ``simulate``."""
        from loom.runtime.host_size import allocate_missing

        inputs, _ = allocate_missing(self.func, inputs)  # the buffers the host allocates (loom.host_size), when omitted
        return self._run(inputs, max_steps)

    def _run(self, inputs: dict[str, Any], max_steps: int) -> SimResult:
        return _simulated(self.func, bind_inputs(self.wired, inputs), max_steps)


def prepare(func: Operation) -> Prepared:
    """Build ``func``'s (a handshake.func) network once for many runs; errors inside its body raise at each run, after
    input errors, as ``simulate`` raises them."""
    return Prepared(func, wire_network(func))


def simulate(func: Operation, inputs: dict[str, Any], *, max_steps: int = 10_000_000) -> SimResult:
    """Run ``func`` (a handshake.func) on ``inputs`` keyed by argument name; see ``SimResult``.

    ``inputs`` holds runtime values (``loom.runtime.decode_inputs``) or raw JSON
    values; memref inputs are copied, never modified. A buffer the host allocates
    (an argument with ``loom.host_size``) that ``inputs`` omit is allocated, zero-filled.
    Bad inputs and ops without semantics raise ``LoomError``; runtime errors come
    back as status "error". Many runs of one function: ``prepare``.
    """
    from loom.runtime.host_size import allocate_missing

    inputs, _ = allocate_missing(func, inputs)  # the buffers the host allocates (loom.host_size), when omitted
    return prepare(func)._run(inputs, max_steps)


def _simulated(func: Operation, net: Network, max_steps: int) -> SimResult:
    """Run a bound network and read its result."""
    steps, returned, error, quiescent = run(net, max_steps)
    if error is None and not quiescent and returned is None:
        error = SimulationError(
            f"no completion after {steps} firings (raise --max-steps if the program is just long)", func.loc, STEP_LIMIT
        )
    if error is not None:
        status = "error"
    elif returned is not None:
        status = "completed"
    else:
        status = "deadlock"
    results: list[Any] = []
    if returned is not None and net.ret is not None:
        types = [v.type for v in net.ret.op.operands]
        results = list(returned)
        if types and isinstance(types[-1], NoneType):
            results = results[:-1]
    residual = residual_count(net)
    report = ""
    if status != "error" and (status == "deadlock" or residual):
        title = "deadlock: the return never fired" if status == "deadlock" else f"{residual} residual token(s)"
        report = title + "\n" + stuck_report(net)
    return SimResult(
        status=status,
        results=results,
        memrefs={name: view.to_flat() for name, view in net.memrefs.items()},
        residual_tokens=residual,
        channels={ch.name: ch.crossed for ch in net.channels},
        error=error,
        steps=steps,
        deadlock_report=report,
        quiescent=quiescent,
    )


def stuck_line(label: str, state: str, latched: bool, held: list[str], waits: list[str]) -> str:
    """One op of a deadlock report (the token simulator's and the RTL co-simulation's, worded alike)."""
    parts = [f"  {label} in state '{state}'" + (" (latched mid-burst)" if latched else "")]
    if held:
        parts.append("holds " + ", ".join(held))
    if waits:
        parts.append("waits on " + ", ".join(waits))
    elif held:
        parts.append("no rule of this state accepts the held tokens")
    return "; ".join(parts)
