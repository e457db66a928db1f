"""Lanes on tagged memories: which tag (lane) each software memory's region starts at, chosen so that its traffic
can carry those tags.

On a tagged memory (``MemDef.tagged``) every lane shares one port per family (spec-fabric-memory-interface). A
region takes a window of request tags ``[start_tag, end_tag)``; a request is served on lane ``tag - start_tag`` of
its region's lanes, the regions' lanes packed in region order, and its response carries that lane as its tag
(``rules.tag_lane``). The tags a request can arrive with are fixed by the fabric (an ``add_tag``'s constant, a
``map_tag``'s table), so a region's window must hold the tags the routes from the PEs its requests leave can
bring, and its responses' lanes must reach their consumers. The placer picks regions without knowing that;
``assign_lanes`` re-picks each region's window (disjoint per memory, in region order) and the order of the
regions (their lanes), from the tags the port graph can carry, before routing.
"""

from __future__ import annotations

from itertools import permutations
from typing import Optional

from loom.map.adg.model import ADG, net_width
from loom.map.dfg import DFG
from loom.map.route import ANY, Router, end_ports, node_tag
from loom.map.rules import lanes_fit, mem_port_maps, mem_port_tags, mem_tags, tag_starts
from loom.map.techmap import Target


class _Reach:
    """Which (port, tag) router nodes are reachable from a set of router nodes, cached per start set."""

    def __init__(self, router: Router) -> None:
        self.r = router
        self.cache: dict[tuple[int, ...], set[int]] = {}

    def from_nodes(self, starts: tuple[int, ...]) -> set[int]:
        got = self.cache.get(starts)
        if got is None:
            got, stack = set(starts), list(starts)
            while stack:
                v = stack.pop()
                for w in self.r.succ[v]:
                    if w not in got:
                        got.add(w)
                        stack.append(w)
            self.cache[starts] = got
        return got

    def nodes(self, ports: list, tag: Optional[int]) -> tuple[int, ...]:
        """Router nodes of ``ports`` carrying ``tag`` (ANY: whatever tag)."""
        return tuple(sorted(i for p in ports for i in self.r.of_port.get(p, []) if tag == ANY or self.r.tag[i] == tag))


def _feasible(dfg: DFG, adg: ADG, reach: _Reach, where: dict[str, Target], nid: str, t: Target,
              base: int) -> bool:
    """Whether every request of software memory ``nid`` at ``t`` can arrive with a tag of its window, and every
    response can reach its consumer with its lane (from ``base``), on the empty fabric."""
    node, mem = dfg.by_id[nid], adg.node(t[1]).defn
    ins, outs = mem_port_maps(node, mem, t[3])  # type: ignore[arg-type]
    in_tags, out_tags = mem_port_tags(node, mem, t[3], base)  # type: ignore[arg-type]
    for e in dfg.edges:
        if e.dst[0] == nid and e.src[0] in where:
            width = net_width(adg, e.type)
            src = end_ports(dfg, adg, e.src[0], e.src[1], where[e.src[0]], True, width)
            starts = reach.nodes(src, node_tag(dfg, adg, e.src[0], e.src[1], where[e.src[0]], True))
            goal = set(reach.nodes([(t[1], "i", ins[e.dst[1]])], in_tags[e.dst[1]]))
            if starts and not goal & reach.from_nodes(starts):
                return False
        if e.src[0] == nid and e.dst[0] in where:
            width = net_width(adg, e.type)
            dst = end_ports(dfg, adg, e.dst[0], e.dst[1], where[e.dst[0]], False, width)
            goal = set(reach.nodes(dst, node_tag(dfg, adg, e.dst[0], e.dst[1], where[e.dst[0]], False)))
            starts = reach.nodes([(t[1], "o", outs[e.src[1]])], out_tags[e.src[1]])
            if goal and not goal & reach.from_nodes(starts):
                return False
    return True


MAX_ORDERS = 120  # region orders tried per tagged memory (5 software memories: all of them)


def assign_lanes(dfg: DFG, adg: ADG, router: Router, where: dict[str, Target]) -> dict[str, Target]:
    """``where`` with the regions on each tagged memory re-ordered and their windows re-picked so that every
    request can carry a tag of its window and every response its lane; unchanged where no such choice exists
    (routing then fails). The placer's order and the lowest windows come first (deterministic)."""
    reach = _Reach(router)
    out = dict(where)
    groups: dict[str, list[str]] = {}
    for nid, t in sorted(where.items()):
        if t[0] == "mem" and adg.node(t[1]).defn.tagged:  # type: ignore[attr-defined]
            groups.setdefault(t[1], []).append(nid)
    for name, nids in sorted(groups.items()):
        mem = adg.node(name).defn
        nids.sort(key=lambda n: (where[n][2], n))
        regions = [where[n][2] for n in nids]
        for k, order in enumerate(permutations(nids)):
            if k == MAX_ORDERS:
                break
            bases, lane = [], 0
            for nid in order:
                bases.append(lane)
                lane += mem_tags(dfg.by_id[nid])
            if not all(lanes_fit(dfg.by_id[n], mem, b) for n, b in zip(order, bases)):  # type: ignore[arg-type]
                continue
            options = [[s for s in tag_starts(dfg.by_id[n], mem)  # type: ignore[arg-type]
                        if _feasible(dfg, adg, reach, where, n, (where[n][0], name, r, s), b)]
                       for n, r, b in zip(order, regions, bases)]
            picked = _ascending([mem_tags(dfg.by_id[n]) for n in order], options)
            if picked is not None:
                for n, r, s in zip(order, regions, picked):
                    out[n] = (where[n][0], name, r, s)
                break
    return out


def _ascending(sizes: list[int], options: list[list[int]]) -> Optional[list[int]]:
    """First tags, one from each option list, whose windows ``[s, s + size)`` follow each other in list order
    without overlapping (backtracking; lowest first)."""
    chosen: list[int] = []

    def go(k: int, low: int) -> bool:
        if k == len(sizes):
            return True
        for s in options[k]:
            if s >= low:
                chosen.append(s)
                if go(k + 1, s + sizes[k]):
                    return True
                chosen.pop()
        return False

    return chosen if go(0, 0) else None
