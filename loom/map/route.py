"""Routing: negotiated congestion (PathFinder) over the ADG's port graph (networkx), per DFG value.

Routable resources are (port, tag) pairs: an untagged port (tag None) carries at most one value, a tagged port
one value per tag (C4), so several tagged flows share one link or temporal_sw port when their tags differ. Edges
are wires and the switch transitions the connectivity tables allow (C3); add_tag gives its tag, map_tag rewrites
it by its table, del_tag drops it, and a temporal PE's output carries its slot's tag (``tag_graph``). PEs have no
internal edges, so no route can pass through an FU (C10). A value's route is a tree that may branch only at a
switch input (C11). A* with exact hop distances keeps each search short.
"""

from __future__ import annotations

import heapq
import random
from collections import deque
from dataclasses import dataclass, field
from typing import Optional

import networkx as nx
import numpy as np

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT, Port, net_width
from loom.map.dfg import DFG
from loom.map.rules import mem_lanes, mem_port_maps, mem_port_tags, place_lane_base
from loom.map.techmap import Target

H_CACHE = 512  # heuristic tables kept (one per target set: a sink's ports of one width and tag)
STALL = 12  # PathFinder rounds without a better result before negotiation gives up (congestion does not clear)
ANY = -1  # an end that takes a value of whatever tag reaches it
VNode = tuple[Port, Optional[int]]  # (port, tag): the router's resource


def port_graph(adg: ADG) -> nx.DiGraph:
    """Ports as nodes (attribute ``kind``, ``width``); wires and allowed switch transitions as edges."""
    g = nx.DiGraph()
    for n in adg.nodes:
        d = n.defn
        for k, w in enumerate(d.in_widths):  # type: ignore[attr-defined]
            if n.kind == "extmemory" and k == 0:
                continue
            g.add_node((n.name, "i", k), kind=n.kind + "_in", width=w)
        for k, w in enumerate(d.out_widths):  # type: ignore[attr-defined]
            g.add_node((n.name, "o", k), kind=n.kind + "_out", width=w)
        if n.kind == "sw":
            for o, i in d.connected():  # type: ignore[attr-defined]
                g.add_edge((n.name, "i", i), (n.name, "o", o))
        elif n.kind in ("fifo", "add_tag", "del_tag", "map_tag"):  # passes its one value on (buffered or bypassed; tagged)
            g.add_edge((n.name, "i", 0), (n.name, "o", 0))
    for k in range(len(adg.in_types)):
        if adg.width((MODULE_IN, "o", k)) is not None:
            g.add_node((MODULE_IN, "o", k), kind="module_in", width=adg.width((MODULE_IN, "o", k)))
    for k, w in enumerate(adg.out_widths):
        g.add_node((MODULE_OUT, "i", k), kind="module_out", width=w)
    for dst, src in sorted(adg.drivers.items()):
        g.add_edge(src, dst)
    return g


def _source_tags(adg: ADG, port: Port) -> list[Optional[int]]:
    """The tags a value may carry where it enters the fabric at ``port``: a temporal PE output carries its slot's
    tag (slot ``s`` has tag ``s``), anything else none."""
    if port[0] in adg._by_name and adg.node(port[0]).kind == "tpe":
        d = adg.node(port[0]).defn
        return list(range(min(d.num_instruction, 1 << d.tag_width)))  # type: ignore[attr-defined]
    if port[0] in adg._by_name and adg.node(port[0]).kind in ("memory", "extmemory") and adg.node(port[0]).defn.tagged:
        d = adg.node(port[0]).defn  # a tagged memory's result carries its lane (loom.map.rules.mem_port_tags)
        return list(range(min(mem_lanes(d), 1 << d.tag_widths[1][port[2]])))  # type: ignore[attr-defined]
    return [None]


def _tag_width(adg: ADG, p: Port) -> Optional[int]:
    """The tag width of port ``p`` when the fabric declares one (tagged switch and memory ports), else None."""
    if p[0] not in adg._by_name:
        return None
    d = adg.node(p[0]).defn
    widths = getattr(d, "tag_widths", None)
    if widths is not None:
        k = p[2] - (getattr(d, "first_port", 0) if p[1] == "i" else 0)
        return widths[0 if p[1] == "i" else 1][k]
    return getattr(d, "tag_width", None) if hasattr(d, "slots") else None  # a temporal switch


def _next_tag(adg: ADG, a: Port, b: Port, tag: Optional[int]) -> Optional[int] | bool:
    """The tag on ``b`` when a value with ``tag`` on ``a`` crosses edge a -> b; False when the edge drops it,
    or when ``b`` is a tagged port too narrow for the tag (width adaptation never rewrites a tag:
    spec-fabric-memory-interface, an unrepresentable tag is illegal)."""
    t = _crossed_tag(adg, a, b, tag)
    if t is not False and t is not None:
        w = _tag_width(adg, b)
        if w is not None and t >= 1 << w:
            return False
    return t


def _crossed_tag(adg: ADG, a: Port, b: Port, tag: Optional[int]) -> Optional[int] | bool:
    if a[0] != b[0] or a[0] not in adg._by_name:
        return tag
    from loom.map.tags import retag

    n = adg.node(a[0])
    return retag(n.kind, n.defn, tag)  # the fabric's own tags and tables: the mapper keeps them


def tag_graph(adg: ADG, g: nx.DiGraph) -> tuple[list[VNode], list[tuple[VNode, VNode]]]:
    """The (port, tag) pairs a value can occupy, starting at every port nothing drives (with ``_source_tags``),
    and the edges between them: ``g``'s edges with each tag carried across (``_next_tag``)."""
    seen: set[VNode] = set()
    stack: list[VNode] = []
    for p in sorted(g.nodes):
        if g.in_degree(p) == 0:
            for t in _source_tags(adg, p):
                stack.append((p, t))
    edges: set[tuple[VNode, VNode]] = set()
    while stack:
        v = stack.pop()
        if v in seen:
            continue
        seen.add(v)
        for b in g.successors(v[0]):
            t = _next_tag(adg, v[0], b, v[1])
            if t is False:
                continue
            w = (b, t)
            edges.add((v, w))
            if w not in seen:
                stack.append(w)
    return sorted(seen, key=_vkey), sorted(edges, key=lambda e: (_vkey(e[0]), _vkey(e[1])))


def _vkey(v: VNode) -> tuple:
    return (v[0], -1 if v[1] is None else v[1])


@dataclass
class Net:
    """One DFG value: where it may start and, per consuming edge, where it may end (and with which tag: ANY, or
    the one tag a temporal PE slot's operand must carry)."""

    key: tuple[str, int]
    width: int
    sources: list[Port]
    sinks: list[tuple[int, list[Port]]]  # (edge index, candidate end ports)
    src_tag: Optional[int] = ANY
    sink_tags: dict[int, Optional[int]] = field(default_factory=dict)  # edge index -> required tag (absent: ANY)


@dataclass
class Routes:
    """Per DFG edge index, the port path from the value's source port to its sink port."""

    paths: dict[int, list[Port]] = field(default_factory=dict)
    tags: dict[int, list[Optional[int]]] = field(default_factory=dict)  # edge index -> the tag at each port of its path
    failed: list[int] = field(default_factory=list)  # edges with no legal route in the last iteration
    overused: list[Port] = field(default_factory=list)
    overused_tags: list[Optional[int]] = field(default_factory=list)  # the tag two values share on each (None: untagged)
    iterations: int = 0


def end_ports(dfg: DFG, adg: ADG, nid: str, k: int, t: Target, is_src: bool, width: int) -> list[Port]:
    """The ports where result (``is_src``) or operand ``k`` of node ``nid`` may leave or enter the fabric when the
    node sits at ``t``: any PE output/input at least ``width`` bits wide, or the one memory or module port."""
    node = dfg.by_id[nid]
    if t[0] == "fu" and len(t) == 4:  # a temporal PE's instruction slot
        from loom.map.temporal.place import slot_ports

        return slot_ports(adg, t[1], t[3], is_src, width)
    if t[0] == "fu":
        pe = adg.node(t[1]).defn
        ws = pe.out_widths if is_src else pe.in_widths  # type: ignore[attr-defined]
        return [(t[1], "o" if is_src else "i", q) for q, w in enumerate(ws) if w >= width]
    if t[0] == "mem":
        return [(t[1], "o" if is_src else "i", mem_port_maps(node, adg.node(t[1]).defn, t[3])[1 if is_src else 0][k])]  # type: ignore[arg-type]
    return [(MODULE_IN, "o", t[1])] if is_src else [(MODULE_OUT, "i", t[1])]


def end_tag(t: Target) -> Optional[int]:
    """The tag a node at ``t`` gives its results and needs on its operands: a temporal PE slot's own, else ANY."""
    return t[3] if t[0] == "fu" and len(t) == 4 else ANY


def node_tag(dfg: DFG, adg: ADG, nid: str, k: int, t: Target, is_src: bool,
             place: Optional[dict] = None) -> Optional[int]:
    """``end_tag`` for result (``is_src``) or operand ``k`` of ``nid`` at ``t``: on a tagged memory the tag the
    value must arrive with or the lane it leaves with (``rules.mem_port_tags``; the lanes of the other regions
    in ``place`` come first), else ``end_tag``."""
    if t[0] == "mem" and adg.node(t[1]).defn.tagged:  # type: ignore[attr-defined]
        base = place_lane_base(dfg, place, nid) if place is not None else None
        return mem_port_tags(dfg.by_id[nid], adg.node(t[1]).defn, t[3], base)[1 if is_src else 0][k]  # type: ignore[arg-type]
    return end_tag(t)


def endpoint_ports(dfg: DFG, adg: ADG, place: dict[str, Target], skip: frozenset = frozenset()) -> list[Net]:
    """The nets to route under ``place`` (without the edges in ``skip``: temporal register edges)."""
    nets: list[Net] = []
    by_src: dict[tuple[str, int], list[int]] = {}
    for e_idx, e in enumerate(dfg.edges):
        if e_idx not in skip:
            by_src.setdefault(e.src, []).append(e_idx)
    for key, e_idxs in by_src.items():
        nid, k = key
        width = net_width(adg, dfg.by_id[nid].out_types[k])
        sources = end_ports(dfg, adg, nid, k, place[nid], True, width)
        sinks = []
        sink_tags: dict[int, Optional[int]] = {}
        for e_idx in e_idxs:
            dn, dk = dfg.edges[e_idx].dst
            sinks.append((e_idx, end_ports(dfg, adg, dn, dk, place[dn], False, width)))
            want = node_tag(dfg, adg, dn, dk, place[dn], False, place)
            if want != ANY:
                sink_tags[e_idx] = want
        nets.append(Net(key, width, sources, sinks, node_tag(dfg, adg, nid, k, place[nid], True, place), sink_tags))
    return nets


class Router:
    """PathFinder state over one port graph; reusable across placements of one ADG."""

    def __init__(self, adg: ADG, heuristic_weight: float = 1.0) -> None:
        g = port_graph(adg)
        self.weight = heuristic_weight  # A*'s heuristic multiplier (upstream's routing_heuristic_weight)
        vnodes, vedges = tag_graph(adg, g)
        self.vnodes: list[VNode] = vnodes
        self.nodes: list[Port] = [p for p, _ in vnodes]  # the physical port of each router node
        self.tag = [t for _, t in vnodes]
        self.index = {v: i for i, v in enumerate(vnodes)}
        self.of_port: dict[Port, list[int]] = {}
        for i, p in enumerate(self.nodes):
            self.of_port.setdefault(p, []).append(i)
        self.succ: list[list[int]] = [[] for _ in vnodes]
        self.pred: list[list[int]] = [[] for _ in vnodes]
        for a, b in vedges:
            self.succ[self.index[a]].append(self.index[b])
            self.pred[self.index[b]].append(self.index[a])
        self.width = [g.nodes[p]["width"] for p in self.nodes]
        self.branch = [g.nodes[p]["kind"] == "sw_in" for p in self.nodes]
        self.penalty = [0.0] * len(self.nodes)  # history cost every later route starts from (``penalize``)
        self._h: dict[tuple[int, ...], list[int]] = {}
        ptr = np.zeros(len(self.nodes) + 1, dtype=np.int64)  # the predecessors as CSR arrays (``_heuristic``)
        ptr[1:] = np.cumsum([len(p) for p in self.pred])
        self._pred_csr = (ptr, np.array([u for p in self.pred for u in p], dtype=np.int64))
        n = len(self.nodes)  # A*'s per-node state, valid where stamped with the current search's number
        self._search = 0
        self._seen, self._done, self._came = [0] * n, [0] * n, [-1] * n
        self._g = [0.0] * n

    def penalize(self, node: str, amount: float = 1.0) -> None:
        """Make routes through ``node``'s output ports dearer from now on (a temporal_sw short of route-table
        slots for the tags the last routes brought it)."""
        for v, p in enumerate(self.nodes):
            if p[0] == node and p[1] == "o":
                self.penalty[v] += amount

    def at(self, ports: list[Port], tag: Optional[int] = ANY) -> list[int]:
        """The router nodes of ``ports`` carrying ``tag`` (every tag when ANY)."""
        return [v for p in ports for v in self.of_port.get(p, ()) if tag == ANY or self.tag[v] == tag]

    def reachable(self, sources: list[Port], targets: list[Port], width: int) -> bool:
        """Whether some legal path at least ``width`` bits wide joins a source to a target on an empty fabric."""
        want = set(self.at(targets))
        seen = {v for v in self.at(sources) if self.width[v] >= width}
        q = deque(seen)
        while q:
            v = q.popleft()
            if v in want:
                return True
            for w in self.succ[v]:
                if w not in seen and self.width[w] >= width:
                    seen.add(w)
                    q.append(w)
        return False

    def _heuristic(self, targets: tuple[int, ...]) -> list[int]:
        """Exact hops from every node to the nearest of ``targets`` (a target is 1; unreachable ``1 << 30``): a
        breadth-first search backwards, one vectorised frontier per level over the predecessors in CSR form (the
        per-node Python loop it replaces cost 9 ms a call on a 26x26 mesh). Kept for the last ``H_CACHE`` target
        sets."""
        h = self._h.get(targets)
        if h is None:
            ptr, idx = self._pred_csr
            dist = np.full(len(self.nodes), 1 << 30, dtype=np.int64)
            front = np.asarray(targets, dtype=np.int64)
            dist[front] = 1
            level = 1
            while front.size:
                level += 1
                first, count = ptr[front], ptr[front + 1] - ptr[front]
                total = int(count.sum())
                if not total:
                    break
                at = np.repeat(first - (np.cumsum(count) - count), count) + np.arange(total)
                nxt = idx[at]
                front = np.unique(nxt[dist[nxt] > level])
                dist[front] = level
            h = dist.tolist()
            if len(self._h) >= H_CACHE:
                del self._h[next(iter(self._h))]  # the oldest: memory stays bounded on large fabrics
            self._h[targets] = h
        return h

    def route(self, nets: list[Net], rng: random.Random, max_iters: int = 40) -> Routes:
        """Negotiate until no port is shared, or give up after ``max_iters`` rounds, or after ``STALL`` rounds that
        did not improve on the best (best effort kept). After the first round only the nets that share a port or
        failed are ripped up and routed again (the others are legal and keep their trees)."""
        n = len(self.nodes)
        occ = [0] * n
        hist = list(self.penalty)
        pres = 0.5

        def node_cost(v: int) -> float:
            """A node's cost now: (1 + history) * (1 + present factor * occupancy)."""
            return (1.0 + hist[v]) * (1.0 + pres * occ[v])

        cost = [node_cost(v) for v in range(n)]  # kept current as occupancy changes
        trees: dict[int, list[int]] = {}
        bad_of: dict[int, list[int]] = {}
        paths: dict[int, list[int]] = {}
        order = list(range(len(nets)))
        best: Optional[Routes] = None
        best_it = 0
        redo = set(order)
        for it in range(1, max_iters + 1):
            for ni in order:
                if ni not in redo:
                    continue
                for v in trees.get(ni, ()):
                    occ[v] -= 1
                    cost[v] = node_cost(v)
                tree, npaths, bad = self._route_net(nets[ni], cost)
                trees[ni] = tree
                bad_of[ni] = bad
                for v in tree:
                    occ[v] += 1
                    cost[v] = node_cost(v)
                paths.update(npaths)
            failed = [e for ni in order for e in bad_of[ni]]
            over = [v for v in range(n) if occ[v] > 1]
            cur = Routes(paths={e: [self.nodes[v] for v in p] for e, p in paths.items()},
                         tags={e: [self.tag[v] for v in p] for e, p in paths.items()}, failed=sorted(failed),
                         overused=[self.nodes[v] for v in over], overused_tags=[self.tag[v] for v in over],
                         iterations=it)
            if best is None or (len(cur.failed), len(cur.overused)) < (len(best.failed), len(best.overused)):
                best, best_it = cur, it
            if not over and not failed:
                return cur
            if it - best_it >= STALL:
                break
            for v in over:
                hist[v] += 1.0
            pres *= 1.8
            cost = [node_cost(v) for v in range(n)]
            overset = set(over)
            redo = {ni for ni in order if bad_of[ni] or any(v in overset for v in trees[ni])}
            rng.shuffle(order)
        assert best is not None
        return best

    def _route_net(self, net: Net, cost: list[float]):
        tree: list[int] = []
        in_tree: set[int] = set()
        parent: dict[int, int] = {}
        paths: dict[int, list[int]] = {}
        failed: list[int] = []
        sources = self.at(net.sources, net.src_tag)
        for e_idx, cands in net.sinks:
            targets = tuple(sorted(v for v in self.at(cands, net.sink_tags.get(e_idx, ANY)) if v not in in_tree))
            if not targets:
                failed.append(e_idx)
                continue
            starts = [v for v in tree if self.branch[v]] if tree else sources
            found = self._astar(starts, targets, in_tree, cost, net.width, parent)
            if found is None:
                failed.append(e_idx)
                continue
            # walk back to where this search started: a source, or a switch input of the tree
            start_set = set(starts)
            seg = [found]
            while seg[-1] not in start_set:
                seg.append(parent[seg[-1]])
            seg.reverse()
            if not tree:
                for v in seg:
                    in_tree.add(v)
                    tree.append(v)
                full = seg
            else:
                anchor = seg[0]
                prefix = self._tree_path(anchor, tree, parent)
                for v in seg[1:]:
                    in_tree.add(v)
                    tree.append(v)
                full = prefix + seg[1:]
            paths[e_idx] = full
        return tree, paths, failed

    def _tree_path(self, v: int, tree: list[int], parent: dict[int, int]) -> list[int]:
        out = [v]
        root = tree[0]
        while out[-1] != root:
            out.append(parent[out[-1]])
        out.reverse()
        return out

    def _astar(self, starts: list[int], targets: tuple[int, ...], in_tree: set[int], cost: list[float],
               width: int, parent: dict[int, int]) -> Optional[int]:
        """The cheapest path from ``starts`` to a target (A*, costs ``cost``, through nodes at least ``width`` bits
        wide and outside ``in_tree``); records the new segment's parents and returns the target reached, or None.
        Per-node search state lives in arrays stamped with a search number, not in fresh dicts per search."""
        h = self._heuristic(targets)
        tset = set(targets)
        self._search += 1
        sid = self._search
        seen, g, came, done = self._seen, self._g, self._came, self._done
        succ, wid, weight = self.succ, self.width, self.weight
        heap: list[tuple[float, int, int]] = []
        tie = 0
        for s in starts:
            c = 0.0 if s in in_tree else cost[s]
            if seen[s] == sid and g[s] <= c:
                continue
            seen[s], g[s], came[s] = sid, c, -1
            heapq.heappush(heap, (c + weight * h[s], tie, s))
            tie += 1
        while heap:
            _, _, v = heapq.heappop(heap)
            if done[v] == sid:
                continue
            done[v] = sid
            if v in tset:
                u = v  # record parents of the new segment only
                while came[u] >= 0:
                    parent[u] = came[u]
                    u = came[u]
                return v
            gv = g[v]
            for w in succ[v]:
                if done[w] == sid or wid[w] < width or w in in_tree:
                    continue
                c = gv + cost[w]
                if seen[w] != sid or c < g[w]:
                    seen[w], g[w], came[w] = sid, c, v
                    heapq.heappush(heap, (c + weight * h[w], tie, w))
                    tie += 1
        return None
