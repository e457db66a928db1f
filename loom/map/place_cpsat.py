"""Placement by OR-tools CP-SAT, behind the same interface as the annealing placer (``place.place``).

The objective is the annealer's: the total switch-hop distance of the DFG's edges (``place.hop_distances``),
times 4, plus 1 for an argument or result off its own module port index. Solving the whole quadratic assignment
at once does not pay on a mesh (measured: within 5 deterministic units CP-SAT does not improve on the greedy
start for `dot` on 8x8), so the placer is a large-neighbourhood search whose every step is exact: from the
greedy placement, each round frees a connected cluster of ``FREE`` nodes (grown breadth-first from a seeded
random node), keeps the others fixed, and lets CP-SAT find the best placement of the cluster, each freed node
within ``RADIUS`` switch hops of where it is -- one Boolean per (node, compatible target), each node exactly one, each resource (PE, memory region, memory tag, module port)
at most once; an edge to a fixed node costs a linear sum, an edge inside the cluster an element constraint over
the pair of its ends' locations. The current placement is the hint, so no round makes it worse. (Without the
radius, one neighbourhood's presolve alone spends several deterministic units.) Measured against annealing in
``benchmarks/bench_map.py --placers``: slower, and its local optima are worse (specs/mapping.md section 9).

Deterministic: one worker, seeded solves and clusters, and limits in CP-SAT's deterministic time units and in
rounds (never wall clock), so a seed gives the same placement on every machine and under any load.
"""

from __future__ import annotations

import random
from collections import deque

from loom.map.adg.model import ADG
from loom.map.dfg import DFG
from loom.map.place import FAR, Placer, _resources, _where, extra_count
from loom.map.techmap import Target

ROUNDS = 120  # neighbourhoods solved per placement
FREE = 10  # nodes freed per neighbourhood
DET_TIME = 0.5  # CP-SAT deterministic time units per neighbourhood (counted, not timed)
SCALE = 4  # hop cost weight; the module port tie-breaker weighs 1
RADIUS = 3  # a freed node may move at most this many switch hops per neighbourhood


def placement_cost(dfg: DFG, place: dict[str, Target], dist: dict[str, dict[str, int]]) -> int:
    """Total hop distance of ``place`` (the quantity both placers minimise)."""
    return sum(dist.get(_where(place[e.src[0]]), {}).get(_where(place[e.dst[0]]), FAR) for e in dfg.edges)


def place_cpsat(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], rng: random.Random,
                dist: dict[str, dict[str, int]], rounds: int = ROUNDS, free: int = FREE,
                det_time: float = DET_TIME) -> dict[str, Target]:
    """A legal placement: the greedy one, improved by ``rounds`` exact CP-SAT solves of seeded neighbourhoods."""
    start = Placer(dfg, adg, cands, rng, dist)
    start.greedy()  # PlacementFull propagates: the greedy order found no legal placement
    cur = dict(start.place)
    neighbours: dict[str, list[str]] = {n.id: [] for n in dfg.nodes}
    for e in dfg.edges:
        if e.src[0] != e.dst[0]:
            neighbours[e.src[0]].append(e.dst[0])
            neighbours[e.dst[0]].append(e.src[0])
    movable = sorted(n.id for n in dfg.nodes if len(cands[n.id]) > 1)
    for _ in range(rounds if movable else 0):
        cluster = _cluster(rng.choice(movable), neighbours, free, cands)
        cur = _solve(dfg, adg, cands, dist, cur, cluster, rng.randrange(1 << 30), det_time)
    return cur


def _cluster(seed: str, neighbours: dict[str, list[str]], size: int, cands: dict[str, list[Target]]) -> list[str]:
    """Up to ``size`` movable nodes, breadth-first from ``seed`` over the DFG's edges."""
    seen, out, q = {seed}, [], deque([seed])
    while q and len(out) < size:
        v = q.popleft()
        if len(cands[v]) > 1:
            out.append(v)
        for w in sorted(set(neighbours[v])):
            if w not in seen:
                seen.add(w)
                q.append(w)
    return sorted(out)


def _solve(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], dist: dict[str, dict[str, int]], cur: dict[str, Target],
           cluster: list[str], seed: int, det_time: float) -> dict[str, Target]:
    """The best placement of ``cluster`` with every other node where ``cur`` has it (``cur`` when none is better)."""
    from ortools.sat.python import cp_model

    free = set(cluster)

    def res(nid: str, t: Target) -> list[str]:
        return _resources(t, extra_count(adg, dfg.by_id[nid], t))

    taken = {r for nid, t in cur.items() if nid not in free for r in res(nid, t)}
    model = cp_model.CpModel()
    opts: dict[str, list[Target]] = {}
    x: dict[str, list] = {}
    users: dict[str, list] = {}
    def near(nid: str, t: Target) -> bool:  # within RADIUS hops of where the node is now, either way
        h, w = _where(cur[nid]), _where(t)
        return min(dist.get(h, {}).get(w, FAR), dist.get(w, {}).get(h, FAR)) <= RADIUS

    for nid in cluster:
        opts[nid] = [t for t in cands[nid] if (t == cur[nid] or near(nid, t)) and not any(r in taken for r in res(nid, t))]
        x[nid] = [model.NewBoolVar("") for _ in opts[nid]]
        model.AddExactlyOne(x[nid])
        for v, t in zip(x[nid], opts[nid]):
            for r in res(nid, t):
                users.setdefault(r, []).append(v)
    for r in sorted(users):
        if len(users[r]) > 1:
            model.AddAtMostOne(users[r])

    def hops(u: str, v: str) -> int:
        return min(dist.get(u, {}).get(v, FAR), FAR)

    terms = []
    for e in dfg.edges:
        a, b = e.src[0], e.dst[0]
        if a == b or (a not in free and b not in free):
            continue
        if a in free and b in free:
            locs_a = sorted({_where(t) for t in opts[a]})
            locs_b = sorted({_where(t) for t in opts[b]})
            ia, ib = {w: i for i, w in enumerate(locs_a)}, {w: i for i, w in enumerate(locs_b)}
            la, lb = model.NewIntVar(0, len(locs_a) - 1, ""), model.NewIntVar(0, len(locs_b) - 1, "")
            model.Add(la == sum(ia[_where(t)] * v for t, v in zip(opts[a], x[a])))
            model.Add(lb == sum(ib[_where(t)] * v for t, v in zip(opts[b], x[b])))
            pair = model.NewIntVar(0, len(locs_a) * len(locs_b) - 1, "")
            model.Add(pair == la * len(locs_b) + lb)
            c = model.NewIntVar(0, FAR, "")
            table = [hops(u, w) for u in locs_a for w in locs_b]
            model.AddElement(pair, table, c)
            terms.append(SCALE * c)
            ha, hb = ia[_where(cur[a])], ib[_where(cur[b])]  # the current placement, hinted in full
            for var, val in ((la, ha), (lb, hb), (pair, ha * len(locs_b) + hb), (c, table[ha * len(locs_b) + hb])):
                model.AddHint(var, val)
        elif a in free:
            w = _where(cur[b])
            terms += [SCALE * hops(_where(t), w) * v for t, v in zip(opts[a], x[a])]
        else:
            u = _where(cur[a])
            terms += [SCALE * hops(u, _where(t)) * v for t, v in zip(opts[b], x[b])]
    for nid in cluster:
        node = dfg.by_id[nid]
        if node.kind in ("arg", "ret") and node.arg is not None:
            terms += [v for t, v in zip(opts[nid], x[nid]) if t[1] != node.arg]
        for t, v in zip(opts[nid], x[nid]):
            model.AddHint(v, t == cur[nid])
    model.Minimize(sum(terms))
    solver = cp_model.CpSolver()
    p = solver.parameters
    p.num_workers = 1
    p.random_seed = seed
    p.max_deterministic_time = det_time
    p.max_time_in_seconds = 1e9  # no wall-clock limit: the deterministic one ends the search
    status = solver.Solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return cur
    out = dict(cur)
    for nid in cluster:
        out[nid] = next(t for t, v in zip(opts[nid], x[nid]) if solver.BooleanValue(v))
    before = placement_cost(dfg, cur, dist)
    return out if placement_cost(dfg, out, dist) <= before else cur
