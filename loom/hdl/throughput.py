"""The throughput bound of a DFG's RTL: per loop, the largest cycle ratio of its recurrences.

The timing graph has one node per component, except that a component with memory ports (an extmemory)
has one node per port (each port keeps one request outstanding, loom.hdl.components.MemPort), and one
edge per channel FIFO, from the node whose rule emits the token to the node whose rule reads it.

- A component fires at most once a cycle: every node is a recurrence of 1 cycle (its self-loop).
- A memory port answers ``MEM_LATENCY`` cycles after it took a request, and takes the next request in the
  cycle after its response fired: a port node costs ``MEM_LATENCY + 1`` cycles on every cycle through it,
  and that is its own self-loop's ratio.
- Every cycle of components needs one registered (valid-cutting) channel, one cycle, somewhere on it
  (loom.hdl.buffers); on a cycle through a memory port it is the one the port waits for anyway (its
  request channel), so it adds nothing there.
- A component fires one rule a cycle, so a loop takes at least as many cycles per iteration as any of its
  instances fires per iteration (``firings``: a carry 2, a load 2, an extmemory one per port of the loop).
- Tokens in flight: one per loop-back operand of a ``dataflow.carry`` on the cycle, at least one (every
  recurrence of loom's lowering re-enters its loop through a carry, or is a request/response pair with one
  token out).

A cycle's ratio is its latency over its tokens; a loop's bound is the largest ratio of the cycles whose
nodes all belong to it (each node belongs to the ``dataflow.stream`` that reaches it without entering or
leaving a loop: not into a stream, a carry's initial value or an invariant's value, not out of a loop exit), at least 1. Cycles through a stream, or spanning two loops, pass
once per activation of an inner loop, not once per iteration, and bound no loop's II. The bound is a
property of the DFG and the memory latency, not of a buffer placement: every placement's II is at least
it (in steady state; a short run's stream runs ahead into its FIFOs and can measure below it).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

from loom.hdl.buffers import is_carry_back
from loom.hdl.formal.refenv import MEM_LATENCY
from loom.ir.core import BlockArgument

if TYPE_CHECKING:
    from loom.hdl.netlist import Design

MAX_CYCLES = 20000  # simple cycles examined per loop (deterministic order); a larger loop reports what it saw


@dataclass(frozen=True)
class LoopBound:
    """The bound of one loop: cycles per iteration of its stream, and the recurrence that sets it."""

    stream: str  # the stream's index value, as loom.hdl.rtlsim.loop_streams names it
    bound: float
    latency: int
    tokens: int
    cycle: tuple[str, ...]  # the critical recurrence's nodes (instance, or instance.port of a memory port)
    complete: bool = True  # False when the loop had more than MAX_CYCLES simple cycles
    parent: str = ""  # the enclosing loop's stream (its ``stream`` name), "" for an outermost loop


def firings(m) -> int:
    """Firings of table ``m`` per token. A table with states returns to a state after each token: the shortest
    cycle of its state graph (a carry: need_cond -> need_loop -> need_cond, 2; a stream's active state loops on
    itself, 1). A one-state table: its rules that read ports, grouped when they share a read port (they compete
    for one token: a cond_br's two rules are one group, a load's issue and deliver two); at least 1."""
    if len(m.states) > 1:
        succ: dict[str, set[str]] = {}
        for r in m.rules:
            succ.setdefault(r.state, set()).add(r.next)
        best = len(m.states)
        for s0 in m.states:  # breadth-first from each state back to itself
            frontier, depth, seen = {s0}, 0, set()
            while frontier and depth < best:
                depth += 1
                nxt = set().union(*(succ.get(x, set()) for x in frontier))
                if s0 in nxt:
                    best = min(best, depth)
                    break
                frontier = nxt - seen
                seen |= nxt
        return max(1, best)
    groups: list[set[str]] = []
    for r in m.rules:
        if not r.reads:
            continue
        reads = set(r.reads)
        joined = [g for g in groups if g & reads]
        for g in joined:
            groups.remove(g)
            reads |= g
        groups.append(reads)
    return max(1, len(groups))


def _crosses(prod, k_out: int, cons, k_in: int) -> bool:
    """A channel that enters or leaves a loop: into a stream, a carry's initial value, an invariant's value, or out
    of a cond_br's false side steered by a loop condition (a stream's or gate's condition result)."""
    name = cons.op.name
    if name == "dataflow.stream" or (name in ("dataflow.carry", "dataflow.invariant") and k_in == 1):
        return True
    if prod.op.name == "handshake.cond_br" and k_out == 1:
        c = prod.op.operands[0]
        return not isinstance(c, BlockArgument) and c.op.name in ("dataflow.stream", "dataflow.gate") and c.index == 1
    return False


def _graph(d: "Design", latency: int):
    """(nodes in order, node latency, edges (src, dst, tokens, crosses a loop boundary)) of the timing graph."""
    by_op = {id(i.op): i for i in d.instances}
    by_name = {i.name: i for i in d.instances}
    nodes: list[str] = []
    lat: dict[str, int] = {}
    emits: dict[tuple[str, str], str] = {}  # (instance, output port) -> node
    reads: dict[tuple[str, str], str] = {}  # (instance, input port) -> node
    for inst in d.instances:
        m = inst.component.machine
        mps = inst.component.mem.ports
        owned: set[int] = set()
        for mp in mps:
            n = f"{inst.name}.{mp.name}"
            nodes.append(n)
            lat[n] = latency + 1
            r = m.rules[mp.rule]
            owned.add(mp.rule)
            emits.update({(inst.name, p): n for p, _ in r.emits})
            reads.update({(inst.name, p): n for p in r.reads})
        if not mps or any(k not in owned for k in range(len(m.rules))):
            nodes.append(inst.name)
            lat[inst.name] = 0
            for p in m.outputs:
                emits.setdefault((inst.name, p.name), inst.name)
            for p in m.inputs:
                reads.setdefault((inst.name, p.name), inst.name)
    edges: list[tuple[str, str, int]] = []
    for ch in d.channels:
        if ch.fifo is None or ch.value is None or isinstance(ch.value, BlockArgument):
            continue
        prod = by_op[id(ch.value.op)]
        out = prod.component.machine.outputs[ch.value.index].name
        cons = by_name[ch.consumer]
        k = next((i for i, v in enumerate(cons.op.operands) if v is ch.value), 0)
        edges.append((emits[(prod.name, out)], reads[(ch.consumer, ch.port)], int(is_carry_back(cons, k)),
                      _crosses(prod, ch.value.index, cons, k)))
    return nodes, lat, edges


def _owners(d: "Design", nodes: list[str], edges: list) -> dict[str, str]:
    """Each node's loop: the stream that reaches it without crossing a loop boundary (``_crosses``), the nearest
    if several do (breadth-first from every stream at once, earlier stream first on a tie)."""
    streams = [i.name for i in d.instances if i.op.name == "dataflow.stream"]
    succ: dict[str, list[str]] = {n: [] for n in nodes}
    for s, t, _, crosses in edges:
        if not crosses:
            succ[s].append(t)
    owner = {s: s for s in streams}
    frontier = list(streams)
    while frontier:
        nxt = []
        for n in frontier:
            for m in succ[n]:
                if m not in owner:
                    owner[m] = owner[n]
                    nxt.append(m)
        frontier = nxt
    return owner


def loop_bounds(d: "Design", latency: int = MEM_LATENCY) -> list[LoopBound]:
    """The bound of every loop of ``d``, in the order of loom.hdl.rtlsim.loop_streams."""
    import networkx as nx

    nodes, lat, edges = _graph(d, latency)
    owner = _owners(d, nodes, edges)
    streams = {i.name for i in d.instances if i.op.name == "dataflow.stream"}
    out = []
    for inst in d.instances:
        if inst.op.name != "dataflow.stream" or not inst.op.results:
            continue
        mine = [n for n in nodes if owner.get(n) == inst.name and n not in streams]
        g = nx.MultiDiGraph()
        g.add_nodes_from(mine)
        keep = set(mine)
        g.add_edges_from((s, t, {"tokens": k}) for s, t, k, _ in edges if s in keep and t in keep)
        best = (1, 1, (inst.name,))  # a component's own recurrence: one firing a cycle
        for n in mine:
            if lat[n] > best[0]:
                best = (lat[n], 1, (n,))
        for i in d.instances:  # one rule a cycle: an instance's firings per iteration
            ports = [n for n in mine if n.startswith(i.name + ".")]
            fires = len(ports) if i.component.mem.ports else (firings(i.component.machine) if i.name in keep else 0)
            if fires * best[1] > best[0]:
                best = (fires, 1, (i.name,))
        seen = 0
        order = {n: k for k, n in enumerate(nodes)}
        for cyc in islice(nx.simple_cycles(nx.DiGraph(g)), MAX_CYCLES):
            seen += 1
            l, k = _cycle_cost(g, cyc, lat)
            start = min(range(len(cyc)), key=lambda j: order[cyc[j]])  # one spelling per cycle, whatever the
            cyc = cyc[start:] + cyc[:start]  # enumeration order (networkx's sets follow string hashes)
            if l * best[1] > best[0] * k or (l * best[1] == best[0] * k and len(best[2]) > 1 and
                                             [order[n] for n in cyc] < [order[n] for n in best[2]]):
                best = (l, k, tuple(cyc))
        name = _stream_name(d, inst)
        up = [owner[s] for s, t, _, _ in edges if t == inst.name and owner.get(s, inst.name) != inst.name]
        parent = _stream_name(d, next(i for i in d.instances if i.name == up[0])) if up else ""
        out.append(LoopBound(name, round(best[0] / best[1], 2), best[0], best[1], best[2], seen < MAX_CYCLES,
                             parent))
    return out


def _stream_name(d: "Design", inst) -> str:
    """A stream's name: its index value's (loom.hdl.rtlsim.loop_streams)."""
    return d.signals.get(inst.op.results[0], f"stream{inst.index}").removeprefix("v_")


def run_bound(bounds: list[LoopBound], tokens: dict[str, int]) -> dict[str, float]:
    """Per loop, the bound of one of its iterations with its inner loops' iterations in a run: its own bound, or
    the inner loops' bounds times their index tokens per token of its own (``tokens``: a run's count per stream),
    whichever is larger. The counts come from the run; the bounds from the DFG."""
    out: dict[str, float] = {}
    for b in reversed(bounds):  # inner loops come after their outer loop in instance order
        inner = sum(out.get(c.stream, c.bound) * tokens.get(c.stream, 0) for c in bounds if c.parent == b.stream)
        own = tokens.get(b.stream, 0)
        out[b.stream] = round(max(b.bound, inner / own if own else 0.0), 2)
    return out


def activations(d: "Design", channels: dict[str, int]) -> dict[str, int]:
    """Per loop (its stream's name), its activations in a run: the tokens into its stream's first operand, the
    start value, which enters once per activation (``channels``: a run's tokens per channel name)."""
    out: dict[str, int] = {}
    for inst in d.instances:
        if inst.op.name == "dataflow.stream" and inst.op.results:
            start = inst.op.operands[0]
            ch = next((c for c in d.channels if c.consumer == inst.name and c.value is start), None)
            out[_stream_name(d, inst)] = channels.get(ch.name, 0) if ch is not None else 0
    return out


def _cycle_cost(g, cyc: list[str], lat: dict[str, int]) -> tuple[int, int]:
    """(latency, tokens) of one simple cycle: node latencies, one cycle of cut without a memory port, and
    the carry tokens of its edges (the fewest of parallel channels), at least one."""
    mem = sum(lat[n] for n in cyc)
    tokens = 0
    for a, b in zip(cyc, cyc[1:] + cyc[:1]):
        tokens += min(x["tokens"] for x in g.get_edge_data(a, b).values())
    return (mem if mem else 1), max(1, tokens)


def loop_carries(d: "Design") -> dict[str, list[str]]:
    """Each stream instance's ``dataflow.carry`` instances (by the same nearest-stream rule as the bound): a
    carry fires once per iteration, throttled by its recurrence, so its slowest carry gives a loop's II."""
    nodes, _, edges = _graph(d, MEM_LATENCY)
    owner = _owners(d, nodes, edges)
    out: dict[str, list[str]] = {i.name: [] for i in d.instances if i.op.name == "dataflow.stream"}
    for inst in d.instances:
        if inst.op.name == "dataflow.carry" and owner.get(inst.name) in out:
            out[owner[inst.name]].append(inst.name)
    return out
