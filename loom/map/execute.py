"""Execute a decoded fabric configuration: rebuild the handshake.func that ``config.bin`` configures and simulate it.

The checker proves that the decoded configuration is an isomorphism of the DFG; this module makes
the same claim observable. It decodes the words with the checker's own path (``check.decode_mapping``:
the config decoder, the certificate, compound contraction and the one route walk of ``decode_routes``,
which follows every configured source through wires, enabled switch transitions and PE input muxes to
the FU or memory input it reaches, counting switch hops), and maps both ends back to DFG ops through
map.json's placement. The function is then rewired
from those decoded connections only (every routed operand is cleared first), each through one
``handshake.buffer`` whose slot count is the route's switch hops (at least 1), so a misrouted or
missing connection changes or breaks the run. Each buffer is marked ``loom.route``
(``loom.semantics.routes``): it holds at most its slots, and its producer stalls while it is full, as on the
fabric, so a route too shallow for the tokens a recurrence or a fan-out keeps in flight deadlocks the run (and
``map.fifo``, which runs the verifier's bmc on this same function, refutes it). Edges inside a compound FU stay
as they are: the configuration does not route them (unbounded).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from loom.ir.attributes import IntegerAttr, StringAttr
from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType, i32
from loom.map.adg.model import ADG, port_name
from loom.map.decode_routes import dfg_ends
from loom.map.dfg import DFG
from loom.semantics.routes import ROUTE_ATTR, route_marker

Port = tuple[str, int]  # (DFG node id, result or operand index)


class ExecuteError(Exception):
    """The decoded configuration cannot be turned into a function (it does not configure the DFG)."""


def decoded_connections(dfg: DFG, adg: ADG, words: list[int],
                        doc: dict[str, Any]) -> tuple[list[tuple[Port, Port, int]], set[Port]]:
    """Every configured connection as (DFG source port, DFG sink port, switch hops), decoded from ``words``,
    and the operands inside a compound FU (both ops claim body ops of one PE's FU: not routed)."""
    from loom.map.check import CheckReport, decode_mapping
    from loom.map.rules import body_sources, body_yields

    rep = CheckReport()
    d = decode_mapping(dfg, adg, words, doc, rep)
    if d is None:
        raise ExecuteError("; ".join(rep.violations) or "map.json has no certificate")
    if d.walk.loops:
        raise ExecuteError(f"routing loop at {port_name(d.walk.loops[0])}")
    from loom.map.tags import route_tags

    dropped = [msg for code, msg in route_tags(adg, d.cfg.switches, d.cfg.tags, d.cfg.map_tags, d.cfg.tsw) if code == "C3"]
    if dropped:  # a map_tag with no entry for the arriving tag: that value never reaches its consumer
        raise ExecuteError(dropped[0])
    from loom.map.tsw import violations

    misrouted = violations(adg, d.cfg)  # a temporal_sw slot that sends a tag elsewhere than the routes walked
    if misrouted:
        raise ExecuteError(misrouted[0][1])
    place0, bodies, work, place = d.place, d.bodies, d.work, d.work_place
    intra = {e.dst for e in dfg.edges if e.src[0] in bodies and e.dst[0] in bodies and place0[e.src[0]] == place0[e.dst[0]]}
    src_end, dst_end = dfg_ends(work, adg, place)
    sources: dict[tuple, list[Port]] = {}
    sinks: dict[tuple, list[Port]] = {}
    for n in work.nodes:
        if n.id not in place:
            continue
        members = {k: m.id for k, m in (n.members or {}).items()}
        if members:  # a compound FU: its ports are its yields and its inputs' body uses
            fu = adg.node(place[n.id][1]).defn.fus[place[n.id][2]]  # type: ignore[attr-defined]
            for p, (_, k, r) in enumerate(body_yields(fu)):
                sources.setdefault(src_end(n.id, p), []).append((members[k], r))
            for k, ops in enumerate(body_sources(fu)):
                for j, s in enumerate(ops):
                    if s[0] == "arg":
                        sinks.setdefault(dst_end(n.id, s[1]), []).append((members[k], j))
            continue
        for r in range(len(n.out_types)):
            sources.setdefault(src_end(n.id, r), []).append((n.id, r))
        for j in range(len(n.in_types)):
            sinks.setdefault(dst_end(n.id, j), []).append((n.id, j))
    out: list[tuple[Port, Port, int]] = []
    for c in d.walk.connections:
        if c.src not in sources:
            continue  # an enabled FU output nobody in the DFG owns is caught below as an unfed operand
        if c.dst not in sinks:
            raise ExecuteError(f"a route from {c.src} ends at {c.dst}, which no DFG operand occupies")
        for s in sources[c.src][:1]:
            for t in sinks[c.dst]:
                out.append((s, t, c.hops + c.fifo_slots))
    return out, intra


def rebuild(func: Operation, dfg: DFG, connections: list[tuple[Port, Port, int]], intra: set[Port]) -> Operation:
    """Rewire ``func`` (a fresh copy of the DFG's handshake.func, changed in place) from ``connections``;
    ``intra`` operands (inside a compound FU) keep their wiring."""
    block = func.regions[0].blocks[0]
    value: dict[Port, Value] = {}
    slot: dict[Port, tuple[Operation, int]] = {}
    for n in dfg.nodes:
        if n.kind == "arg":
            value[(n.id, 0)] = block.args[n.arg]  # type: ignore[index]
        elif n.kind == "ret":
            ret = block.terminator
            slot[(n.id, 0)] = (ret, n.arg)  # type: ignore[arg-type, assignment]
        elif n.op is not None:
            for r, v in enumerate(n.op.results):
                value[(n.id, r)] = v
            if n.kind != "host":
                skip = 1 if n.op.name == "handshake.extmemory" else 0
                routed = [j for j, v in enumerate(n.op.operands[skip:]) if not isinstance(v.type, MemRefType)]
                for j in routed:
                    slot[(n.id, j)] = (n.op, j + skip)
    routed_slots = {p for p in slot}
    fed: Counter = Counter()
    cleared = {p: s for p, s in slot.items() if p not in intra}
    for op, k in cleared.values():
        op.operands[k] = None  # type: ignore[call-overload]
    for src, dst, hops in connections:
        if dst not in routed_slots or src not in value:
            raise ExecuteError(f"decoded connection {src} -> {dst} names no DFG value or operand")
        fed[dst] += 1
        op, k = slot[dst]
        v = value[src]
        buf = Operation.create("handshake.buffer", [v], [v.type],  # hops: switches + buffered FIFO slots
                               {"slots": IntegerAttr(max(1, hops), i32), "bufferType": StringAttr("fifo"),
                                ROUTE_ATTR: route_marker()},  # a bounded route: its producer stalls when it is full
                               result_names=[f"{v.name_hint}_route" if v.name_hint else None])
        block.insert(block.ops.index(op), buf)
        op.operands[k] = buf.results[0]
    twice = [p for p, c in fed.items() if c > 1]
    unfed = [p for p in cleared if fed[p] == 0]
    if twice or unfed:
        raise ExecuteError(f"operands fed more than once: {twice[:5]}; operands no route feeds: {unfed[:5]}")
    return func


def run_decoded(func: Operation, fresh: Operation, adg: ADG, words: list[int], doc: dict[str, Any],
                inputs: dict[str, Any]) -> tuple[Any, Any]:
    """Simulate ``func`` (the DFG) and ``fresh`` (an independent copy of it, rebuilt from ``words``) on ``inputs``.

    Returns both ``SimResult``s; the configuration executes correctly when their status, results and
    final memories agree.
    """
    from loom.map.dfg import read_dfg
    from loom.map.legalize import legalize_for_fabric
    from loom.sim import simulate

    dfg = read_dfg(legalize_for_fabric(fresh))  # the graph the mapper placed (``func`` stays the reference)
    connections, intra = decoded_connections(dfg, adg, words, doc)
    rebuilt = rebuild(fresh, dfg, connections, intra)
    return simulate(func, inputs), simulate(rebuilt, inputs)
