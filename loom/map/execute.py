"""Execute a decoded fabric configuration: rebuild the handshake.func that ``config.bin`` configures and simulate it.

The checker proves that the decoded configuration is an isomorphism of the DFG; this module makes
the same claim observable. It decodes the words with the checker's own path (``config.decode``, the
certificate and compound contraction of ``check.py``), follows every configured source through wires,
enabled switch transitions and PE input muxes to the FU or memory input it reaches, counting switch
hops, and maps both ends back to DFG ops through map.json's placement. The function is then rewired
from those decoded connections only (every routed operand is cleared first), each through one
``handshake.buffer`` whose slot count is the route's switch hops (at least 1), so a misrouted or
missing connection changes or breaks the run. Edges inside a compound FU stay as they are: the
configuration does not route them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from loom.ir.attributes import IntegerAttr, StringAttr
from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType, i32
from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT
from loom.map.dfg import DFG

Port = tuple[str, int]  # (DFG node id, result or operand index)


class ExecuteError(Exception):
    """The decoded configuration cannot be turned into a function (it does not configure the DFG)."""


def decoded_connections(dfg: DFG, adg: ADG, words: list[int],
                        doc: dict[str, Any]) -> tuple[list[tuple[Port, Port, int]], set[Port]]:
    """Every configured connection as (DFG source port, DFG sink port, switch hops), decoded from ``words``,
    and the operands inside a compound FU (both ops claim body ops of one PE's FU: not routed)."""
    from loom.map import check as chk
    from loom.map.config import decode
    from loom.map.rules import body_sources, body_yields

    rep = chk.CheckReport()
    cfg = decode(adg, words)
    certified = chk._certificate(dfg, adg, doc, rep)
    if certified is None:
        raise ExecuteError("; ".join(rep.violations) or "map.json has no certificate")
    place0, bodies = certified
    intra = {e.dst for e in dfg.edges if e.src[0] in bodies and e.dst[0] in bodies and place0[e.src[0]] == place0[e.dst[0]]}
    work, place, _ = chk._contract(dfg, adg, place0, bodies, rep)
    if work is None:
        raise ExecuteError("; ".join(rep.violations))
    fus = chk._check_pes(work, adg, cfg, place, rep)
    src_end, dst_end = chk._ends(work, adg, place)
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
    for (src, dst), hops in _routes(adg, cfg, fus):
        if src not in sources:
            continue  # an enabled FU output nobody in the DFG owns is caught below as an unfed operand
        if dst not in sinks:
            raise ExecuteError(f"a route from {src} ends at {dst}, which no DFG operand occupies")
        for s in sources[src][:1]:
            for d in sinks[dst]:
                out.append((s, d, hops))
    return out, intra


def _routes(adg: ADG, cfg: Any, fus: dict[str, Any]) -> list[tuple[tuple[tuple, tuple], int]]:
    """Follow every configured source to the ends it reaches, with the switches passed (the checker's walk)."""
    active: dict[tuple[str, int], list[int]] = {}
    for sw, pairs in cfg.switches.items():
        for o, i in pairs:
            active.setdefault((sw, i), []).append(o)
    mux: dict[tuple[str, int], list[int]] = {}
    starts: list[tuple[tuple, tuple]] = []
    for pe, (fu, c) in fus.items():
        for k, f in enumerate(c.inputs[: len(fu.inputs)]):
            if not f.disconnect:
                mux.setdefault((pe, f.sel), []).append(k)
        for k, f in enumerate(c.outputs[: len(fu.outputs)]):
            if not f.disconnect and not f.discard:
                starts.append((("fu_out", pe, k), (pe, "o", f.sel)))
    for m in adg.memories():
        starts += [(("mem_out", m.name, k), (m.name, "o", k)) for k in range(len(m.defn.out_widths))]  # type: ignore[attr-defined]
    starts += [(("mod_in", k), (MODULE_IN, "o", k)) for k in range(len(adg.in_types))]
    kinds = {n.name: n.kind for n in adg.nodes}
    found: list[tuple[tuple[tuple, tuple], int]] = []
    for src, port in starts:
        stack = [(port, 0, frozenset([port]))]
        while stack:
            out_port, hops, seen = stack.pop()
            for node, _, q in adg.readers.get(out_port, []):
                kind = kinds.get(node, node)
                if node == MODULE_OUT:
                    found.append(((src, ("mod_out", q)), hops))
                elif kind == "sw":
                    for o in active.get((node, q), []):
                        nxt = (node, "o", o)
                        if nxt in seen:
                            raise ExecuteError(f"routing loop at {node}.out{o}")
                        stack.append((nxt, hops + 1, seen | {nxt}))
                elif kind == "pe":
                    found += [((src, ("fu_in", node, k)), hops) for k in mux.get((node, q), [])]
                else:
                    found.append(((src, ("mem_in", node, q)), hops))
    return found


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
        buf = Operation.create("handshake.buffer", [v], [v.type],
                               {"slots": IntegerAttr(max(1, hops), i32), "bufferType": StringAttr("fifo")})
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
    from loom.sim import simulate

    dfg = read_dfg(fresh)
    connections, intra = decoded_connections(dfg, adg, words, doc)
    rebuilt = rebuild(fresh, dfg, connections, intra)
    return simulate(func, inputs), simulate(rebuilt, inputs)
