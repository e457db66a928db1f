"""Build the runtime network of a handshake.func: one actor per op, one FIFO channel per use.

Only wiring happens here; all behaviour comes from the op's table
(``loom.semantics.machine_for``), compiled once into closures. Each use of an
SSA value is its own unbounded FIFO (multi-use is an implicit fork; a buffer
marked ``loom.route`` bounds its channels, ``loom.semantics.routes``); tokens
emitted on a result nobody uses are discarded. Memref arguments carry memory,
not tokens: their buffers back the extmemory ops that name them.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Optional, Sequence

from loom.diagnostics import LoomError, SimulationError
from loom.ir.attributes import StringAttr
from loom.ir.core import BlockArgument, Module, Operation, Value
from loom.ir.location import Location
from loom.ir.types import MemRefType, NoneType
from loom.runtime import Buffer, MemRefView, decode_value, function_arg_names, global_view
from loom.runtime.memory import row_major_strides
from loom.semantics.build import Machines
from loom.semantics.expr import TOKEN
from loom.semantics.functions import compile_expr
from loom.semantics.machine import Complete, Fail, Machine, Rule, Write
from loom.semantics.rest import rearm_allowance
from loom.semantics.routes import bounded_routes
from loom.sim.names import use_channel_names

INPUT_MISSING = "IO_INPUT_MISSING"
DFG_STRUCTURE = "CPL_DFG_STRUCTURE"


class Forever:
    """The queue of a channel fed by an always-ready source: never empty, never residual."""

    __slots__ = ("value", "pops")

    def __init__(self, value: object) -> None:
        self.value = value
        self.pops = 0

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        return 0

    def __getitem__(self, i: int) -> object:
        return self.value

    def popleft(self) -> object:
        self.pops += 1
        return self.value


@dataclass(eq=False, slots=True)
class Channel:
    """One use of one value: an unbounded FIFO from the producer to ``consumer``'s input ``port``."""

    name: str
    q: Any  # deque, or Forever for a source
    consumer: "Actor"
    port: int
    count: int = 0
    allowance: int = 0  # tokens it may keep at the end: they re-arm a primed buffer (semantics.rest)

    @property
    def crossed(self) -> int:
        return self.q.pops if isinstance(self.q, Forever) else self.count


class BoundMemory:
    """A memory view bound to the op that accesses it, so errors name that op."""

    __slots__ = ("view", "what", "loc")

    def __init__(self, view: MemRefView, what: str, loc: Location) -> None:
        self.view, self.what, self.loc = view, what, loc

    def load(self, indices: Sequence[int]) -> object:
        return self.view.load(indices, self.what, self.loc)

    def store(self, value: object, indices: Sequence[int]) -> None:
        self.view.store(value, indices, self.what, self.loc)

    def dim(self, i: int) -> int:
        return self.view.dim(i, self.what, self.loc)


class CompiledRule:
    """A table rule with its expressions compiled and its ports resolved to channels.

    ``reads`` pairs each read port's head position with its queue; ``emits``
    pairs each compiled value with the ``append`` methods of its channels;
    ``fired`` counts firings, from which channel counts are settled at the end.
    """

    __slots__ = ("rule", "reads", "queues", "guard", "emits", "emit_channels", "updates", "next", "effect", "wake",
                 "fired", "room")

    def __init__(self, rule: Rule) -> None:
        self.rule = rule
        self.reads: tuple = ()
        self.queues: tuple = ()
        self.guard = None
        self.emits: tuple = ()
        self.emit_channels: tuple = ()
        self.updates: tuple = ()
        self.next = rule.next
        self.effect: Optional[tuple] = None
        self.wake: tuple = ()
        self.fired = 0
        self.room: tuple = ()  # (entry queue, exit queues, places, entry name) of each bounded route it emits into


class Actor:
    """One op at run time: its machine, current state, registers and compiled rules."""

    __slots__ = ("op", "machine", "state", "regs", "rules", "inputs", "outputs", "heads", "memory", "queued", "index")

    def __init__(self, op: Operation, machine: Machine, index: int) -> None:
        self.op = op
        self.machine = machine
        self.index = index
        self.state = machine.initial
        self.regs = {r.name: r.init for r in machine.registers}
        self.inputs: list[Optional[Channel]] = [None] * len(machine.inputs)
        self.outputs: list[list[Channel]] = [[] for _ in machine.outputs]
        self.heads: list[object] = [None] * len(machine.inputs)
        self.memory: Optional[BoundMemory] = None
        self.rules: dict[str, tuple[CompiledRule, ...]] = {}
        self.queued = False

    def label(self) -> str:
        return f"'{self.op.name}' at {self.op.loc}"


@dataclass
class Network:
    """Everything ``engine.run`` needs: actors in op order, channels in use order, memref views by arg name."""

    func: Optional[Operation]
    actors: list[Actor]
    channels: list[Channel]
    memrefs: dict[str, MemRefView] = field(default_factory=dict)
    ret: Optional[Actor] = None


def _module_of(func: Operation) -> Optional[Module]:
    top = None
    p = func.parent_op
    while p is not None:
        if p.name == "builtin.module":
            top = p
        p = p.parent_op
    return Module(top) if top is not None else None


def _copy_view(view: MemRefView) -> MemRefView:
    buf = view.buffer
    return MemRefView(Buffer(list(buf.data), buf.element, buf.name, buf.readonly), view.offset, view.sizes, view.strides)


def _arg_values(func: Operation, inputs: dict[str, Any]) -> tuple[list[object], dict[str, MemRefView]]:
    """The initial token of each argument (memref args: their view) and the memref views by name."""
    args = func.regions[0].entry.args
    names = function_arg_names(func)
    values: list[object] = []
    memrefs: dict[str, MemRefView] = {}
    for name, a in zip(names, args):
        t = a.type
        if isinstance(t, NoneType):
            values.append(TOKEN)
            continue
        if name not in inputs:
            raise LoomError(f"no input value for argument '{name}' of type {t}", func.loc, INPUT_MISSING)
        raw = inputs[name]
        if isinstance(t, MemRefType):
            view = _copy_view(raw) if isinstance(raw, MemRefView) else decode_value(raw, t, "<inputs>", name)
            memrefs[name] = view
            values.append(view)
        else:
            values.append(decode_value(raw, t, "<inputs>", name))
    return values, memrefs


def _has_initializer(module: Optional[Module], name: str) -> bool:
    if module is None:
        return False
    for o in module.walk():
        sym = o.attributes.get("sym_name")
        if o.name == "memref.global" and isinstance(sym, StringAttr) and sym.value == name:
            return "initial_value" in o.attributes
    return False


def _fresh_memory(op: Operation, machine: Machine, inputs: dict[str, Any], module: Optional[Module]) -> MemRefView:
    """A handshake.memory's buffer: its global's contents (inputs ``@name`` or ``name``, else the
    module's initializer) when it carries ``loom.global_memref``, otherwise zeros."""
    binding = machine.memory
    assert binding is not None and isinstance(binding.type, MemRefType)
    mt = binding.type
    shape = [int(s) for s in mt.shape if s is not None]
    g = binding.global_name
    view: Optional[MemRefView] = None
    if g is not None:
        given = inputs["@" + g] if "@" + g in inputs else inputs.get(g)
        if isinstance(given, MemRefView):
            view = _copy_view(given)
        elif given is not None:
            view = decode_value(given, mt, "<inputs>", "@" + g)
        elif _has_initializer(module, g):
            view = _copy_view(global_view(module, g, {}, "<inputs>", op.loc))
    if view is None:
        return MemRefView.allocate(mt.element, shape, g or f"memory@{op.loc}")
    if (list(view.sizes) != shape and view.num_elements == _count(shape)
            and view.strides == row_major_strides(view.sizes)):  # a flattened memory (compile --circt) views it 1-D
        view = MemRefView(view.buffer, view.offset, shape, row_major_strides(shape))
    if list(view.sizes) != shape:
        raise SimulationError(f"global @{g} has shape {list(view.sizes)}, the memory expects {shape}", op.loc,
                              "IO_INPUT_SHAPE")
    return view


def _count(shape: list[int]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def compile_rules(actor: Actor) -> None:
    """Compile every rule of ``actor``'s machine against its (already wired) channels."""
    m = actor.machine
    port_index = {p.name: i for i, p in enumerate(m.inputs)}
    actor.rules = {s: tuple(_compile_rule(r, m, actor, port_index) for r in m.rules_in(s)) for s in m.states}


def _compile_rule(rule: Rule, machine: Machine, actor: Actor, port_index: dict[str, int]) -> CompiledRule:
    cr = CompiledRule(rule)
    reads = []
    for p in rule.reads:
        i = port_index[p]
        ch = actor.inputs[i]
        if ch is None:
            raise SimulationError(f"{actor.label()}: input port {p} is not connected", actor.op.loc, DFG_STRUCTURE)
        reads.append((i, ch.q))
    cr.reads = tuple(reads)
    cr.queues = tuple(q for _, q in reads)
    cr.guard = compile_expr(rule.guard, port_index) if rule.guard is not None else None
    out_index = {p.name: i for i, p in enumerate(machine.outputs)}
    emits = []
    emit_channels: list[Channel] = []
    wake: dict[int, Actor] = {}
    for port, e in rule.emits:
        chans = tuple(actor.outputs[out_index[port]])
        emits.append((compile_expr(e, port_index), tuple(ch.q.append for ch in chans)))
        emit_channels += chans
        for ch in chans:
            wake.setdefault(ch.consumer.index, ch.consumer)
    cr.emits = tuple(emits)
    cr.emit_channels = tuple(emit_channels)
    cr.wake = tuple(wake.values())
    cr.updates = tuple((name, compile_expr(e, port_index)) for name, e in rule.updates)
    eff = rule.effect
    if isinstance(eff, Write):
        cr.effect = ("write", tuple(compile_expr(a, port_index) for a in eff.address), compile_expr(eff.data, port_index))
    elif isinstance(eff, Complete):
        cr.effect = ("complete", tuple(compile_expr(v, port_index) for v in eff.values))
    elif isinstance(eff, Fail):
        cr.effect = ("fail", eff.code, eff.message)
    return cr


@dataclass
class Wired:
    """A function's network without inputs: actors, channels and compiled rules, built once and bound per run.

    Errors found while wiring are kept, not raised, so that binding raises them in the order one build of the
    whole network always did: input errors first, then ``error`` (an op without semantics, a bad use), then,
    actor by actor, a memory's error before ``broken`` (a memref that is no argument, an unconnected port).
    """

    func: Operation
    net: Network
    module: Optional[Module]
    arg_channels: list[tuple[Channel, int]]  # channels fed by an argument, with the argument's index
    error: Optional[LoomError] = None
    broken: Optional[tuple[int, LoomError, bool]] = None  # (actor index, error, raised before its memory binds)


def check_function(func: Operation) -> None:
    """Raise unless ``func`` is a handshake.func with a body."""
    if func.name != "handshake.func" or not func.regions or not func.regions[0].blocks:
        raise SimulationError(f"'{func.name}' is not a handshake.func with a body", func.loc, DFG_STRUCTURE)


def wire_network(func: Operation) -> Wired:
    """Instantiate every op of ``func``'s body, wire one channel per use and compile the rules; no inputs."""
    check_function(func)
    body = func.regions[0].entry
    wired = Wired(func, Network(func, [], []), _module_of(func), [])
    try:
        _wire(wired, body)
    except LoomError as err:
        wired.error = err
        return wired
    net = wired.net
    for actor in net.actors:
        m = actor.machine
        if m.memory is not None and m.memory.source == "operand":
            mv = actor.op.operands[0]
            if not (isinstance(mv, BlockArgument) and mv.block is body):
                err = SimulationError(f"{actor.label()}: its memref must be a function argument", actor.op.loc,
                                      DFG_STRUCTURE)
                wired.broken = (actor.index, err, True)
                return wired
        try:
            compile_rules(actor)
        except LoomError as err:
            wired.broken = (actor.index, err, False)
            return wired
        if actor.op.name == "handshake.return" and net.ret is None:
            net.ret = actor
    _bound_routes(net)
    return wired


def _bound_routes(net: Network) -> None:
    """Bounded routes (``loom.semantics.routes``): a rule emitting into a route's entry fires only with room in
    it, and a rule popping one of its exits wakes the entry's producer."""
    for src, entry, exits, cap in bounded_routes(net.actors, key=id):
        for rules in src.rules.values():
            for rule in rules:
                if any(ch is entry for ch in rule.emit_channels):
                    rule.room += ((entry.q, tuple(ch.q for ch in exits), cap, entry.name),)
        for ch in exits:
            for rules in ch.consumer.rules.values():
                for rule in rules:
                    if any(q is ch.q for q in rule.queues) and src not in rule.wake:
                        rule.wake += (src,)


def _wire(wired: Wired, body) -> None:
    """Actors and channels of ``body`` (raises the first structural error)."""
    net = wired.net
    machines = Machines()  # ops of one signature share one (immutable) table: a large DFG has few distinct ones
    actors = [Actor(op, machines(op), i) for i, op in enumerate(body.ops)]
    net.actors = actors

    # Channels: one per (consumer op, operand) in walk order, except memref ports.
    uses: list[tuple[Value, int]] = []
    slots: list[tuple[Actor, int]] = []
    seen: dict[Value, int] = {}
    for actor in actors:
        for i, v in enumerate(actor.op.operands):
            if actor.machine.inputs[i].kind != "token":  # memory, or a static port wired to a source
                continue
            u = seen.get(v, 0)
            seen[v] = u + 1
            uses.append((v, u))
            slots.append((actor, i))
    names = use_channel_names(wired.func, uses)
    producer = {id(op): a for a, op in zip(actors, body.ops)}
    for (v, _), (actor, i), name in zip(uses, slots, names):
        q: Any = deque()
        src = producer.get(id(v.op)) if not isinstance(v, BlockArgument) else None
        if src is not None:
            port = src.machine.outputs[v.index].name
            forever = dict(src.machine.sources).get(port)
            if forever is not None:
                q = Forever(compile_expr(forever, {})((), {}, None))
        ch = Channel(name, q, actor, i, allowance=rearm_allowance(v))
        actor.inputs[i] = ch
        net.channels.append(ch)
        if isinstance(v, BlockArgument):
            if v.block is not body:
                raise SimulationError(f"{actor.label()} uses an argument of another block", actor.op.loc, DFG_STRUCTURE)
            if isinstance(v.type, MemRefType):
                raise SimulationError(f"{actor.label()} takes memref argument {name} as a token", actor.op.loc, DFG_STRUCTURE)
            wired.arg_channels.append((ch, v.index))
        elif src is None:
            raise SimulationError(f"{actor.label()} uses a value defined outside the function body", actor.op.loc, DFG_STRUCTURE)
        elif not isinstance(q, Forever):
            src.outputs[v.index].append(ch)


def bind_inputs(wired: Wired, inputs: dict[str, Any]) -> Network:
    """Reset ``wired``'s network to its initial state and load ``inputs``: argument tokens and memories."""
    func = wired.func
    arg_values, memrefs = _arg_values(func, inputs)
    if wired.error is not None:
        raise wired.error
    net = wired.net
    for ch in net.channels:
        if isinstance(ch.q, Forever):
            ch.q.pops = 0
        else:
            ch.q.clear()
        ch.count = 0
    for actor in net.actors:
        m = actor.machine
        actor.state = m.initial
        actor.regs = {r.name: r.init for r in m.registers}
        actor.heads = [None] * len(m.inputs)
        actor.memory = None
        actor.queued = False
        for rules in actor.rules.values():
            for rule in rules:
                rule.fired = 0
    for ch, k in wired.arg_channels:
        ch.q.append(arg_values[k])
        ch.count += 1
    broken = wired.broken
    for actor in net.actors:
        if broken is not None and actor.index == broken[0] and broken[2]:
            raise broken[1]
        m = actor.machine
        if m.memory is not None:
            if m.memory.source == "operand":
                view = arg_values[actor.op.operands[0].index]  # type: ignore[attr-defined]
                assert isinstance(view, MemRefView)
            else:
                view = _fresh_memory(actor.op, m, inputs, wired.module)
            actor.memory = BoundMemory(view, actor.op.name, actor.op.loc)
        if broken is not None and actor.index == broken[0]:
            raise broken[1]
    net.memrefs = memrefs
    return net


def build_network(func: Operation, inputs: dict[str, Any]) -> Network:
    """Instantiate every op of ``func``'s body, wire one channel per use, bind memories."""
    return bind_inputs(wire_network(func), inputs)
