"""Lanes on tagged memories: which tag (lane) each software memory's region starts at, chosen so that its traffic
can carry those tags.

On a tagged memory (``MemDef.tagged``) every lane shares one port per family and the runtime tag is the lane
(spec-fabric-memory-interface). The tags a request can arrive with are fixed by the fabric (an ``add_tag``'s
constant, a ``map_tag``'s table), so a region's first tag must be one the routes from the PEs its requests leave
can bring, and its responses' tags must reach their consumers. The placer picks regions without knowing that;
``assign_lanes`` re-picks the first tags of the regions on each tagged memory from the tags the port graph can
carry, disjoint per memory, and numbers the regions it uses in the order of their first tags, before routing.
"""

from __future__ import annotations

from typing import Optional

from loom.map.adg.model import ADG, net_width
from loom.map.dfg import DFG
from loom.map.route import ANY, Router, end_ports, node_tag
from loom.map.rules import mem_port_maps, mem_port_tags, mem_tags, region_starts
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


def _feasible(dfg: DFG, adg: ADG, reach: _Reach, where: dict[str, Target], nid: str, t: Target) -> bool:
    """Whether every request of software memory ``nid`` at ``t`` can arrive with its lane, and every response can
    reach its consumer with its lane, on the empty fabric."""
    node, mem = dfg.by_id[nid], adg.node(t[1]).defn
    ins, outs = mem_port_maps(node, mem, t[3])  # type: ignore[arg-type]
    in_tags, out_tags = mem_port_tags(node, mem, t[3])  # type: ignore[arg-type]
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


def assign_lanes(dfg: DFG, adg: ADG, router: Router, where: dict[str, Target]) -> dict[str, Target]:
    """``where`` with the first tag of each region on a tagged memory re-picked (regions kept) so that every
    request and response can carry its lane; unchanged where no such choice exists (routing then fails)."""
    reach = _Reach(router)
    out = dict(where)
    groups: dict[str, list[str]] = {}
    for nid, t in sorted(where.items()):
        if t[0] == "mem" and adg.node(t[1]).defn.tagged:  # type: ignore[attr-defined]
            groups.setdefault(t[1], []).append(nid)
    for name, nids in sorted(groups.items()):
        mem = adg.node(name).defn
        options = []
        for nid in nids:
            t = where[nid]
            ok = [s for s in region_starts(dfg.by_id[nid], mem)  # type: ignore[arg-type]
                  if _feasible(dfg, adg, reach, where, nid, (t[0], t[1], t[2], s))]
            options.append(ok)
        picked = _disjoint([mem_tags(dfg.by_id[n]) for n in nids], options)
        if picked is not None:  # regions in the order of their first tags, as upstream's mapper numbers them
            regions = sorted(where[nid][2] for nid in nids)
            for r, (s, nid) in zip(regions, sorted(zip(picked, nids))):
                out[nid] = (where[nid][0], name, r, s)
    return out


def _disjoint(sizes: list[int], options: list[list[int]]) -> Optional[list[int]]:
    """First tags, one from each option list, whose ranges ``[s, s + size)`` do not overlap (backtracking)."""
    chosen: list[int] = []

    def go(k: int, used: set[int]) -> bool:
        if k == len(sizes):
            return True
        for s in options[k]:
            span = set(range(s, s + sizes[k]))
            if not span & used:
                chosen.append(s)
                if go(k + 1, used | span):
                    return True
                chosen.pop()
        return False

    return chosen if go(0, set()) else None
