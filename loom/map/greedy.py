"""A greedy first-fit mapper: the baseline ``benchmarks/bench_map.py`` measures loom's mapper against.

Every DFG node goes to the first free compatible target in ADG order (nodes taken in DFG order); every
value is then routed, nets in DFG edge order and sinks in edge order, by breadth-first search through
ports no value holds yet, as a tree that branches only at switch inputs (C11). There is no placement
search, no negotiation and no rip-up: the first edge that finds no free path makes the DFG not fit.
What may go where is not search but rule, so it shares loom's compatibility rules (``techmap.candidates``,
C1/C2), the fabric's port graph (``route.port_graph``) and each value's end ports (``route.endpoint_ports``);
the result is a ``Mapping`` so the same encoder, artifacts and independent checker apply to it.
"""

from __future__ import annotations

from collections import deque
from typing import Optional

from loom.map.adg.model import ADG, Port
from loom.map.dfg import DFG
from loom.map.mapper import MapFailure, Mapping, configure
from loom.map.route import Net, endpoint_ports, port_graph
from loom.map.techmap import NoFit, Target, candidates


def first_fit_place(dfg: DFG, cands: dict[str, list[Target]]) -> dict[str, Target]:
    """Each node, in DFG order, on the first compatible target whose resource is still free."""
    taken: set[tuple] = set()
    place: dict[str, Target] = {}
    for n in dfg.nodes:
        free = [t for t in cands[n.id] if _resource(t) not in taken]
        if not free:
            raise MapFailure([f"{n.name} %{n.id}: first fit finds all {len(cands[n.id])} compatible places taken"])
        place[n.id] = free[0]
        taken.add(_resource(free[0]))
    return place


def _resource(t: Target) -> tuple:
    """What a target occupies exclusively: a PE (any of its FUs), a memory, a module port."""
    return t[:2]


class BFSRouter:
    """Shortest-path routing over free ports, one value at a time, first come first served."""

    def __init__(self, adg: ADG) -> None:
        g = port_graph(adg)
        self.succ: dict[Port, list[Port]] = {p: sorted(g.successors(p)) for p in sorted(g.nodes)}
        self.width: dict[Port, int] = {p: g.nodes[p]["width"] for p in g.nodes}
        self.branch: set[Port] = {p for p in g.nodes if g.nodes[p]["kind"] == "sw_in"}
        self.held: set[Port] = set()

    def route_net(self, net: Net) -> tuple[dict[int, list[Port]], list[int]]:
        """Paths (source port to sink port) of every edge of ``net`` that finds a free path, and the edges that do not."""
        tree: list[Port] = []
        parent: dict[Port, Port] = {}
        paths: dict[int, list[Port]] = {}
        failed: list[int] = []
        for e_idx, cands in net.sinks:
            if tree:
                starts = [p for p in tree if p in self.branch]
            else:
                starts = [p for p in net.sources if p in self.width and p not in self.held and self.width[p] >= net.width]
            seg = self._bfs(starts, set(cands), net.width)
            if seg is None:
                failed.append(e_idx)
                continue
            for a, b in zip(seg, seg[1:]):
                parent[b] = a
            new = seg[1:] if tree else seg
            tree += new
            self.held.update(new)
            full = [seg[0]]
            while full[-1] in parent:
                full.append(parent[full[-1]])
            paths[e_idx] = full[::-1] + seg[1:]
        return paths, failed

    def _bfs(self, starts: list[Port], targets: set[Port], width: int) -> Optional[list[Port]]:
        came: dict[Port, Optional[Port]] = {s: None for s in starts}
        q = deque(starts)
        while q:
            v = q.popleft()
            if v in targets:
                path = [v]
                while came[path[-1]] is not None:
                    path.append(came[path[-1]])  # type: ignore[arg-type]
                return path[::-1]
            for w in self.succ.get(v, ()):
                if w not in came and w not in self.held and self.width[w] >= width:
                    came[w] = v
                    q.append(w)
        return None


def greedy_map(dfg: DFG, adg: ADG) -> Mapping:
    """Map ``dfg`` onto ``adg`` by first-fit placement and BFS routing; MapFailure when it does not fit."""
    try:
        cands = candidates(dfg, adg)
    except NoFit as e:
        raise MapFailure(e.reasons) from None
    place = first_fit_place(dfg, cands)
    router = BFSRouter(adg)
    paths: dict[int, list[Port]] = {}
    failed: list[int] = []
    for net in endpoint_ports(dfg, adg, place):
        got, bad = router.route_net(net)
        paths.update(got)
        failed += bad
    if failed:
        e = dfg.edges[min(failed)]
        raise MapFailure([f"{len(failed)} of {len(dfg.edges)} edges without a free path, first %{e.src[0]}#{e.src[1]} "
                          f"-> %{e.dst[0]} operand {e.dst[1]}"], attempts=1)
    return Mapping(dfg, adg, place, paths, configure(dfg, adg, place, paths), seed=0, attempts=1, iterations=1)
