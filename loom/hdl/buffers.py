"""Buffer placement and sizing: which kind of FIFO each channel of the netlist gets, and how deep.

A component fires atomically and combinationally (its output valid depends on its input valids and its
output readies, loom.hdl.components), so a channel cannot be a bare wire: two components joined by a wire
would close a combinational ready->valid loop. Each channel is one of

- ``registered`` (``loom_fifo #(.BYPASS(0))``): cuts the valid and the ready path; a token waits one cycle;
- ``transparent`` (``loom_fifo #(.BYPASS(1))``): cuts only the ready path; an empty FIFO passes a token
  through in the cycle it is offered.

Policy ``uniform`` is the original netlist: every channel registered, all of depth ``fifo_depth``. Policy
``opt`` makes every channel transparent except a set that cuts every cycle of the netlist's valid path:
first every channel into a component with memory ports (free: such a port takes its next request only in
the cycle after its response fired, loom.hdl.throughput), then the loop-back operand of a ``dataflow.carry``
when a cycle not cut yet runs through it (a recurrence without memory must be cut somewhere; one cycle there
is the bound's own cut, and a second cut on a memory recurrence would cost a cycle per iteration), then any
back edge of a depth-first search in instance order that still closes a cycle. Depths stay ``fifo_depth``
(the recurrences of loom's DFGs carry one token each: two slots keep a channel streaming one token a cycle,
and the formal helpers, loom.hdl.formal, read one depth for every FIFO). The result depends only on the
netlist's order, so the same DFG gives the same SV byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from loom.ir.core import BlockArgument

if TYPE_CHECKING:
    from loom.hdl.netlist import Channel, Instance

POLICIES = ("uniform", "opt")
DEFAULT_POLICY = "opt"
REGISTERED = "registered"
TRANSPARENT = "transparent"


@dataclass(frozen=True)
class Buffer:
    """The decision for one channel FIFO: its kind and its depth (slots)."""

    kind: str
    depth: int

    @property
    def bypass(self) -> bool:
        """True for a transparent FIFO (``loom_fifo``'s BYPASS parameter)."""
        return self.kind == TRANSPARENT


@dataclass(frozen=True)
class Edge:
    """One FIFO channel as an edge of the instance graph (producer instance -> consumer instance)."""

    fifo: str
    src: str
    dst: str
    port: int  # the consumer's operand index


def edges(instances: Iterable["Instance"], channels: Iterable["Channel"]) -> list[Edge]:
    """Every channel with a FIFO between two instances, in channel order (an argument's channel has no producer)."""
    by_op = {id(i.op): i for i in instances}
    by_name = {i.name: i for i in by_op.values()}
    out = []
    for ch in channels:
        if ch.fifo is None or ch.value is None or isinstance(ch.value, BlockArgument):
            continue
        src = by_op[id(ch.value.op)].name
        cons = by_name[ch.consumer]
        port = next((k for k, v in enumerate(cons.op.operands) if v is ch.value), 0)
        out.append(Edge(ch.fifo, src, ch.consumer, port))
    return out


def is_memory(inst: "Instance") -> bool:
    """An instance with memory request/response ports (an extmemory): one request outstanding per port."""
    return bool(inst.component.mem.ports)


def is_carry_back(inst: "Instance", port: int) -> bool:
    """The loop-back operand of a ``dataflow.carry`` (operands: condition, initial value, next value)."""
    return inst.op.name == "dataflow.carry" and port == 2


def place(instances: list["Instance"], channels: list["Channel"], policy: str, fifo_depth: int) -> dict[str, Buffer]:
    """The buffer of every channel FIFO under ``policy`` (``POLICIES``); keys are FIFO instance names."""
    fifos = [ch.fifo for ch in channels if ch.fifo is not None]
    if policy == "uniform":
        return {f: Buffer(REGISTERED, fifo_depth) for f in fifos}
    if policy != "opt":
        raise ValueError(f"unknown buffer policy {policy!r}")
    by_name = {i.name: i for i in instances}
    es = edges(instances, channels)
    cut = {e.fifo for e in es if is_memory(by_name[e.dst])}
    for e in es:  # a carry's loop-back operand, when a cycle not cut yet runs through it
        if is_carry_back(by_name[e.dst], e.port) and on_cycle(e, [x for x in es if x.fifo not in cut]):
            cut.add(e.fifo)
    cut |= back_edges([i.name for i in instances], [e for e in es if e.fifo not in cut])
    return {f: Buffer(REGISTERED if f in cut else TRANSPARENT, fifo_depth) for f in fifos}


def on_cycle(e: Edge, es: list[Edge]) -> bool:
    """True when ``es`` has a path from ``e``'s consumer back to its producer (``e`` closes a cycle)."""
    succ: dict[str, list[str]] = {}
    for x in es:
        succ.setdefault(x.src, []).append(x.dst)
    seen, todo = {e.dst}, [e.dst]
    while todo:
        n = todo.pop()
        if n == e.src:
            return True
        for m in succ.get(n, []):
            if m not in seen:
                seen.add(m)
                todo.append(m)
    return False


def back_edges(nodes: list[str], es: list[Edge]) -> set[str]:
    """FIFOs of the back edges of a depth-first search from every node in order: removing them leaves no cycle."""
    succ: dict[str, list[Edge]] = {n: [] for n in nodes}
    for e in es:
        succ[e.src].append(e)
    color: dict[str, int] = {n: 0 for n in nodes}  # 0 new, 1 on the stack, 2 done
    out: set[str] = set()
    for root in nodes:
        if color[root]:
            continue
        color[root] = 1
        stack = [(root, iter(succ[root]))]
        while stack:
            n, it = stack[-1]
            e = next(it, None)
            if e is None:
                color[n] = 2
                stack.pop()
            elif color[e.dst] == 1:
                out.add(e.fifo)
            elif color[e.dst] == 0:
                color[e.dst] = 1
                stack.append((e.dst, iter(succ[e.dst])))
    return out


def uncut_cycle(instances: list["Instance"], channels: list["Channel"], plan: dict[str, Buffer]) -> list[str]:
    """A cycle of instances joined only by transparent FIFOs (a combinational valid loop), or [] when none."""
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(i.name for i in instances)
    g.add_edges_from((e.src, e.dst) for e in edges(instances, channels) if plan[e.fifo].bypass)
    try:
        return [u for u, _ in nx.find_cycle(g)]
    except nx.NetworkXNoCycle:
        return []
