"""Placement: give every DFG node one compatible, exclusive target (C4, C8), seeded and deterministic.

Greedy construction in graph order, then simulated annealing on the total hop
distance of the DFG's edges through the switch network.
"""

from __future__ import annotations

import math
import random
from collections import deque
from typing import Any, Optional

import networkx as nx

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT
from loom.map.dfg import DFG
from loom.map.rules import mem_tags
from loom.map.techmap import Target

FAR = 1000  # distance of an unreachable pair
PORT_ORDER = 0.25  # cost of an argument/result off its own module port index: less than one hop


def _vertex(node: str, k: int) -> str:
    if node == MODULE_IN:
        return f"$in{k}"
    if node == MODULE_OUT:
        return f"$out{k}"
    return node


def hop_distances(adg: ADG) -> dict[str, dict[str, int]]:
    """Hops from each component's outputs to each component's inputs, passing only through switches."""
    succ: dict[str, set[str]] = {}
    for (dn, _, dk), (sn, _, sk) in adg.drivers.items():
        succ.setdefault(_vertex(sn, sk), set()).add(_vertex(dn, dk))
    switches = {n.name for n in adg.nodes if n.kind in ("sw", "fifo", "add_tag", "del_tag", "map_tag")}  # what a route passes through
    dist: dict[str, dict[str, int]] = {}
    for start in sorted(succ):
        d = {start: 0}
        q = deque([start])
        while q:
            v = q.popleft()
            if v != start and v not in switches:
                continue
            for w in sorted(succ.get(v, ())):
                if w not in d:
                    d[w] = d[v] + 1
                    q.append(w)
        dist[start] = d
    return dist


def _where(t: Target) -> str:
    if t[0] == "fu":
        return t[1]
    if t[0] == "mem":
        return t[1]
    return f"${t[0]}{t[1]}"


def _resource(t: Target) -> str:
    """The one resource that identifies ``t``: a PE, a temporal PE's instruction slot, a memory region, a module port."""
    if t[0] == "mem":
        return f"{t[1]}#r{t[2]}"
    if t[0] == "fu" and len(t) == 4:  # ("fu", temporal PE, opcode, slot)
        return f"{t[1]}@{t[3]}"
    return _where(t)


def _resources(t: Target, tags: int) -> list[str]:
    """Everything ``t`` takes: its resource and, for a memory region, the ``tags`` tags (lanes) from its first one,
    so that two regions of one interface never share a tag (a tagged request reaches exactly one region); for a
    temporal PE slot whose FU holds runtime config fields (``tags`` nonzero), that FU too: its config is persistent
    per FU, so two ops on it could need different values (C9; loom keeps one op per configurable temporal FU)."""
    if t[0] == "mem":
        return [_resource(t)] + [f"{t[1]}#t{k}" for k in range(t[3], t[3] + tags)]
    if t[0] == "fu" and len(t) == 4 and tags:  # a configurable FU of a temporal PE: one op's config (C9)
        return [_resource(t), f"{t[1]}:{t[2]}"]
    return [_resource(t)]


def extra_count(adg: ADG, node: Any, t: Target) -> int:
    """``_resources``' second argument: a memory's tag count; 1 for a temporal slot on a configurable FU; else 0."""
    if t[0] == "mem":
        return mem_tags(node)
    if t[0] == "fu" and len(t) == 4:
        from loom.map.rules import fu_fields

        return 1 if fu_fields(adg.node(t[1]).defn.fus[t[2]]) else 0  # type: ignore[attr-defined]
    return 0


class Placer:
    """Holds the placement state and its cost; one instance per mapping attempt."""

    def __init__(self, dfg: DFG, adg: ADG, cands: dict[str, list[Target]], rng: random.Random,
                 dist: dict[str, dict[str, int]]) -> None:
        self.dfg, self.adg, self.cands, self.rng, self.dist = dfg, adg, cands, rng, dist
        self.edges = [(e.src[0], e.dst[0]) for e in dfg.edges]
        self.incident: dict[str, list[int]] = {n.id: [] for n in dfg.nodes}
        for k, (a, b) in enumerate(self.edges):
            self.incident[a].append(k)
            if b != a:
                self.incident[b].append(k)
        self.place: dict[str, Target] = {}
        self.owner: dict[str, str] = {}  # resource -> node id
        self._at: dict[str, dict[str, Target]] = {}  # node -> resource -> its first candidate there (_swap_target)

    def edge_cost(self, k: int) -> int:
        a, b = self.edges[k]
        ta, tb = self.place.get(a), self.place.get(b)
        if ta is None or tb is None:
            return 0
        if len(ta) == len(tb) == 4 and ta[1] == tb[1] and ta[0] == "fu" and self.adg.node(ta[1]).defn.num_register:  # type: ignore[attr-defined]
            return 0  # two slots of one temporal PE: a register may carry it (temporal/registers.py)
        return self.dist.get(_where(ta), {}).get(_where(tb), FAR)

    def node_cost(self, nid: str) -> float:
        """Hop distance of the node's edges, plus ``PORT_ORDER`` when an argument or result sits on a module port
        other than its own index (a tie-breaker: argument k on module input k, as upstream binds them)."""
        cost: float = sum(self.edge_cost(k) for k in self.incident[nid])
        node, t = self.dfg.by_id[nid], self.place.get(nid)
        if t is not None and node.kind in ("arg", "ret") and node.arg is not None and t[1] != node.arg:
            cost += PORT_ORDER
        return cost

    def total(self) -> int:
        return sum(self.edge_cost(k) for k in range(len(self.edges)))

    def _res(self, nid: str, t: Target) -> list[str]:
        return _resources(t, extra_count(self.adg, self.dfg.by_id[nid], t))

    def _assign(self, nid: str, t: Target) -> None:
        self.place[nid] = t
        for r in self._res(nid, t):
            self.owner[r] = nid

    def _unassign(self, nid: str) -> Target:
        t = self.place.pop(nid)
        for r in self._res(nid, t):
            del self.owner[r]
        return t

    def _free(self, nid: str, t: Target) -> bool:
        return all(r not in self.owner for r in self._res(nid, t))

    def greedy(self) -> None:
        """Memories and ports first, then ops in breadth-first order from them, each at its cheapest free spot."""
        fixed = [n.id for n in self.dfg.nodes if n.kind != "op"]
        if any(t[0] == "mem" and (t[2] or t[3]) for nid in fixed for t in self.cands[nid]):
            # shared interfaces: the memories with the fewest places first (on loom's meshes the storing ones, as only
            # an interface's first tags have store lanes; a load on an interface with one load lane has one tag)
            fixed.sort(key=lambda nid: (0, len(self.cands[nid]), -self.dfg.by_id[nid].st)
                       if self.dfg.by_id[nid].kind == "mem" else (1, 0, 0))
        order = fixed + self._bfs_ops()
        for i, nid in enumerate(order):
            free = [t for t in self.cands[nid] if self._free(nid, t)]
            if not free:
                raise PlacementFull(nid, dict(self.place))
            if i < len(fixed):  # keep the other memories and ports placeable: a port may fit several of them
                rest = fixed[i + 1:]
                keep = [t for t in free if self._matchable(rest, set(self._res(nid, t)))]
                free = keep or free
            sample = free if len(free) <= 48 else self.rng.sample(free, 48)
            best, best_c = None, None
            for t in sample:
                self.place[nid] = t
                c = self.node_cost(nid) * 4 + self.rng.random()
                if t[0] == "mem":  # pack regions from the first region and tag, so later memories find room
                    c += 2 * (t[2] + t[3])
                if best_c is None or c < best_c:
                    best, best_c = t, c
            del self.place[nid]
            self._assign(nid, best)  # type: ignore[arg-type]

    def _matchable(self, nodes: list[str], also_taken: set[str]) -> bool:
        """Whether ``nodes`` can all still get distinct free resources (bipartite matching) when ``also_taken``
        is taken too. Without it a narrow value could take the only port wide enough for a later one."""
        if not nodes:
            return True
        g = nx.Graph()
        g.add_nodes_from(("n", v) for v in nodes)
        for v in nodes:
            for t in self.cands[v]:
                r = _resource(t)
                if r not in self.owner and r not in also_taken:
                    g.add_edge(("n", v), ("r", r))
        return len(nx.bipartite.hopcroft_karp_matching(g, top_nodes=[("n", v) for v in nodes])) // 2 == len(nodes)

    def _bfs_ops(self) -> list[str]:
        succ: dict[str, list[str]] = {}
        for a, b in self.edges:
            succ.setdefault(a, []).append(b)
            succ.setdefault(b, []).append(a)
        ops = [n.id for n in self.dfg.nodes if n.kind == "op"]
        seen: set[str] = set()
        out: list[str] = []
        roots = [n.id for n in self.dfg.nodes if n.kind != "op"] + ops
        for r in roots:
            if r in seen:
                continue
            seen.add(r)
            q = deque([r])
            while q:
                v = q.popleft()
                if self.dfg.by_id[v].kind == "op":
                    out.append(v)
                for w in succ.get(v, ()):
                    if w not in seen:
                        seen.add(w)
                        q.append(w)
        return out

    def anneal(self, moves: int) -> None:
        """Swap or move nodes to lower total hop distance (Metropolis, geometric cooling)."""
        ids = [n.id for n in self.dfg.nodes if len(self.cands[n.id]) > 1]
        if not ids or moves <= 0:
            return
        temp = 4.0
        cool = math.exp(math.log(0.02 / temp) / moves)
        for _ in range(moves):
            nid = self.rng.choice(ids)
            t_new = self.rng.choice(self.cands[nid])
            t_old = self.place[nid]
            if t_new == t_old:
                continue
            if t_new[0] == "mem" and self.adg.node(t_new[1]).defn.num_region > 1:  # type: ignore[attr-defined]
                # on a shared interface a region moves only to free tags; it never swaps
                if any(self.owner.get(r, nid) != nid for r in self._res(nid, t_new)):
                    continue
            other = self.owner.get(_resource(t_new))
            if other == nid:
                continue
            if other is None and any(self.owner.get(r, nid) != nid for r in self._res(nid, t_new)):
                continue  # a free slot on a temporal FU whose config another op holds
            t_other = self.place[other] if other is not None else None
            if other is not None:
                t_back = self._swap_target(other, t_old)
                if t_back is None:
                    continue
                if any(self.owner.get(r, other) not in (nid, other) for r in self._res(other, t_back)) or any(
                        self.owner.get(r, nid) not in (nid, other) for r in self._res(nid, t_new)):
                    continue  # a memory's tags would overlap a third node's
            before = self.node_cost(nid) + (self.node_cost(other) if other else 0)
            self._unassign(nid)
            if other is not None:
                self._unassign(other)
                self._assign(other, t_back)  # type: ignore[arg-type]
            self._assign(nid, t_new)
            after = self.node_cost(nid) + (self.node_cost(other) if other else 0)
            delta = after - before
            if delta > 0 and self.rng.random() >= math.exp(-delta / temp):
                self._unassign(nid)
                if other is not None:
                    self._unassign(other)
                    self._assign(other, t_other)  # type: ignore[arg-type]
                self._assign(nid, t_old)
            temp *= cool

    def own_ports(self) -> None:
        """After annealing (which accepts an uphill tie-breaker at any temperature): put each argument or result on
        its own module port index by a swap whenever that costs no hop, in DFG order, without randomness."""
        for n in self.dfg.nodes:
            t = self.place.get(n.id)
            if n.kind not in ("arg", "ret") or n.arg is None or t is None or t[1] == n.arg:
                continue
            want = (t[0], n.arg)
            if want not in self.cands[n.id]:
                continue
            other = self.owner.get(_resource(want))
            if other is not None and t not in self.cands[other]:
                continue
            before = self.node_cost(n.id) + (self.node_cost(other) if other else 0)
            self._unassign(n.id)
            if other is not None:
                self._unassign(other)
                self._assign(other, t)
            self._assign(n.id, want)
            after = self.node_cost(n.id) + (self.node_cost(other) if other else 0)
            if after >= before:  # no gain (or a hop lost): undo
                self._unassign(n.id)
                if other is not None:
                    self._unassign(other)
                    self._assign(other, want)
                self._assign(n.id, t)

    def _swap_target(self, other: str, t_old: Target) -> Target | None:
        """The target of ``other`` at ``t_old``'s resource, if ``other`` may sit there."""
        at = self._at.get(other)
        if at is None:  # built once per node: a scan of its candidates per annealing move was half the anneal
            at = self._at[other] = {}
            for t in self.cands[other]:
                at.setdefault(_resource(t), t)  # the first candidate on a resource, as the scan found it
        return at.get(_resource(t_old))


class PlacementFull(Exception):
    """Every compatible target of a node is taken; ``placed`` holds the nodes placed before it."""

    def __init__(self, nid: str, placed: Optional[dict[str, Any]] = None) -> None:
        super().__init__(nid)
        self.nid = nid
        self.placed = placed or {}


def place(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], rng: random.Random,
          dist: dict[str, dict[str, int]], moves: int) -> dict[str, Target]:
    """A legal placement (every node on its own compatible resource)."""
    p = Placer(dfg, adg, cands, rng, dist)
    p.greedy()
    p.anneal(moves)
    p.own_ports()
    return dict(p.place)
