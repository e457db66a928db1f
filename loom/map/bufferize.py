"""Post-route FIFO bufferization: buffer a bypassed, bypassable FIFO on a route when that cuts the longest
combinational path, never on a recurrence (spec-mapper-config's ``bufferization`` map, the recurrence guard).

The timing surrogate is upstream's shape with loom's numbers: a route's combinational delay is the producing
node's delay (``timing.combinational_node_delay``) plus ``timing.routing_hop_delay`` per wire it crosses; a
buffered FIFO registers the value, so it splits the route into two such segments. The clock period is the
longest segment. Buffering a FIFO adds its depth's latency to the edge, so on a recurrence (an edge on a DFG
cycle, or into a ``dataflow.carry``'s loop-carried operand) it would raise the initiation interval: the guard
never buffers there. Greedy, at most ``bufferization.max_iterations`` toggles, each accepted only when it
shortens the period by more than ``min_throughput_improvement``. Pure function of the mapping: deterministic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from loom.map.adg.model import ADG, Port
from loom.map.dfg import DFG

LOOP_CARRIED = {"dataflow.carry": (2,)}  # operands whose value comes around the loop


@dataclass
class Bufferization:
    """What the pass chose and the timing surrogate after it (map.json ``timing`` / ``fifo_configs``)."""

    selected: list[str] = field(default_factory=list)  # FIFOs the mapper switched to buffered
    guarded: list[str] = field(default_factory=list)  # bypassed FIFOs on a recurrence, kept bypassed
    recurrence_edges: list[int] = field(default_factory=list)
    clock_period: float = 0.0
    critical_edges: list[int] = field(default_factory=list)
    toggles_tried: int = 0


def recurrence_edges(dfg: DFG) -> set[int]:
    """Edges on a DFG cycle or into a loop-carried operand."""
    g = nx.DiGraph()
    g.add_nodes_from(n.id for n in dfg.nodes)
    for e in dfg.edges:
        g.add_edge(e.src[0], e.dst[0])
    comp: dict[str, int] = {}
    for k, scc in enumerate(nx.strongly_connected_components(g)):
        for v in scc:
            comp[v] = k
    out = set()
    for k, e in enumerate(dfg.edges):
        dst = dfg.by_id[e.dst[0]]
        if e.src[0] == e.dst[0] or comp[e.src[0]] == comp[e.dst[0]] or e.dst[1] in LOOP_CARRIED.get(dst.name, ()):
            out.add(k)
    return out


def _segments(adg: ADG, path: list[Port], buffered: set[str], node_delay: float, hop_delay: float) -> list[float]:
    """Combinational delays of one route's segments, split at buffered FIFOs."""
    segs, cur = [], node_delay
    for a, b in zip(path, path[1:]):
        if a[1] == "o" and b[1] == "i":
            cur += hop_delay  # a wire
        elif a[0] == b[0] and a[0] in buffered:
            segs.append(cur)
            cur = node_delay  # the FIFO's register drives the rest
    segs.append(cur)
    return segs


def _period(adg: ADG, paths: dict[int, list[Port]], buffered: set[str], nd: float, hd: float) -> tuple[float, list[int]]:
    delays = {k: max(_segments(adg, p, buffered, nd, hd)) for k, p in paths.items()}
    worst = max(delays.values(), default=0.0)
    return worst, sorted(k for k, d in delays.items() if d == worst)


def bufferize(dfg: DFG, adg: ADG, paths: dict[int, list[Port]], bypassed: dict[str, bool], enabled: bool,
              max_toggles: int, min_gain: float, node_delay: float, hop_delay: float) -> Bufferization:
    """Choose FIFOs to buffer (updating ``bypassed``, FIFO name -> runtime bit) and report the timing surrogate."""
    fifos = {n.name: n.defn for n in adg.fifos()}
    rec = recurrence_edges(dfg)
    on_edges: dict[str, list[int]] = {}
    for k, p in sorted(paths.items()):
        for port in p:
            if port[0] in fifos and port[1] == "i":
                on_edges.setdefault(port[0], []).append(k)

    def is_buffered(name: str) -> bool:
        d = fifos[name]
        return not (d.bypassable and bypassed.get(name, d.bypassed))  # type: ignore[attr-defined]

    buffered = {f for f in on_edges if is_buffered(f)}
    res = Bufferization(recurrence_edges=sorted(rec))
    res.guarded = sorted(f for f in on_edges if not is_buffered(f) and any(k in rec for k in on_edges[f]))
    period, _ = _period(adg, paths, buffered, node_delay, hop_delay)
    if enabled:
        for _ in range(max_toggles):
            best: tuple[float, str] | None = None
            for f in sorted(on_edges):
                if f in buffered or f in res.guarded:
                    continue
                res.toggles_tried += 1
                p, _ = _period(adg, paths, buffered | {f}, node_delay, hop_delay)
                if period - p > min_gain and (best is None or p < best[0]):
                    best = (p, f)
            if best is None:
                break
            period = best[0]
            buffered.add(best[1])
            res.selected.append(best[1])
            bypassed[best[1]] = False
    res.clock_period, res.critical_edges = _period(adg, paths, buffered, node_delay, hop_delay)
    return res


def timing_section(res: Bufferization, fifo_depth: dict[str, int], edge_ids: dict[int, list[int]]) -> dict[str, Any]:
    """The surrogate's part of map.json ``timing``, edge ids translated to the source DFG's (``sw_edge``)."""
    def ids(ks: list[int]) -> list[int]:
        return sorted({i for k in ks for i in edge_ids.get(k, [k])})

    return {"estimated_clock_period": res.clock_period, "critical_path_edges": ids(res.critical_edges),
            "recurrence_edges": ids(res.recurrence_edges),
            "mapper_selected_buffered_fifos": list(res.selected),
            "mapper_selected_buffered_fifo_count": len(res.selected),
            "mapper_selected_buffered_fifo_depths": [fifo_depth[f] for f in res.selected],
            "recurrence_guarded_fifos": list(res.guarded)}
