"""The mapping driver: tech-map, place, route (retrying placements up to ``MAX_ATTEMPTS`` times, or until the
wall-clock budget ends when one is given, or sooner when the best routings stay congested), then configure.

Without a budget nothing here depends on time: the attempts are seeded and counted, so the same DFG, fabric
and seed give the same mapping, or the same failure, on every machine and under any load."""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

from loom.map.adg.model import ADG, Port, net_width
from loom.map.config import Config, MuxField, PEConfig, join_payload
from loom.map.dfg import DFG
from loom.map.place import PlacementFull, hop_distances, place
from loom.map.route import Router, Routes, end_ports, endpoint_ports
from loom.map.rules import contract, fu_fields, region_offset, region_words, wanted_fields
from loom.map.techmap import NoFit, Target, candidates, find_units
from loom.map.temporal.registers import bind_registers


@dataclass
class Mapping:
    """A complete mapping: where each node sits, how each edge is routed, and the resulting configuration."""

    dfg: DFG
    adg: ADG
    place: dict[str, Target]
    paths: dict[int, list[Port]]
    config: Config
    seed: int
    attempts: int
    iterations: int
    original: Optional[DFG] = None  # the DFG before compound units were contracted (None: no units)
    edge_map: Optional[list] = None  # original edge index -> edge index of ``dfg`` (None: inside a unit)
    units: list = field(default_factory=list)  # (unit id, FU, body op -> original node id)
    registers: dict = field(default_factory=dict)  # edge index -> (temporal PE, register): not routed, no path
    timing: Optional[Any] = None  # loom.map.bufferize.Bufferization: FIFO buffering chosen, timing surrogate

    @property
    def source(self) -> DFG:
        """The DFG as the user wrote it."""
        return self.original if self.original is not None else self.dfg


@dataclass
class MapFailure(Exception):
    """The DFG does not fit: why, and the best partial result found."""

    reasons: list[str]
    partial: Optional[dict] = None
    attempts: int = 0

    def __str__(self) -> str:
        return "; ".join(self.reasons)


@dataclass
class Progress:
    """Callbacks for a progress display (no-ops by default)."""

    update: Callable[[str], None] = field(default=lambda msg: None)


MAX_ATTEMPTS = 50  # placements tried (each routed) before the mapper gives up


CONGESTED_AFTER = 3  # placements routed before a congested best says the fabric is too small


def congested_limit(edges: int, attempts: int) -> float:
    """Unrouted edges plus shared ports beyond which the best of ``attempts`` placements shows the fabric is too
    small: after ``CONGESTED_AFTER`` of them more than max(8, edges/20); after one, more than edges/4 already (a
    near fit leaves a handful, and retrying up to ``MAX_ATTEMPTS`` placements is worth it only then)."""
    if attempts >= CONGESTED_AFTER:
        return max(8, edges // 20)
    return max(8, edges // 4) if attempts >= 1 else math.inf


PLACERS = ("sa", "cpsat")
CPSAT_ATTEMPTS = 8  # CP-SAT placements (each a fresh seeded solve) before the mapper gives up


def map_dfg(dfg: DFG, adg: ADG, seed: int = 0, budget: Optional[float] = None,
            progress: Optional[Progress] = None, placer: str = "sa", options: Optional[Any] = None,
            snapshots: Optional[Any] = None) -> Mapping:
    """Map ``dfg`` onto ``adg``; raises MapFailure when it does not fit within ``MAX_ATTEMPTS`` placements (or,
    when ``budget`` is given, within ``budget`` seconds of wall clock, whichever ends first). ``placer`` is
    "sa" (greedy + simulated annealing) or "cpsat" (OR-tools CP-SAT, ``place_cpsat``). ``options``
    (loom.map.options.MapperOptions) adds upstream's routing heuristic weight and FIFO bufferization;
    ``snapshots`` (loom.map.snapshots.Snapshots) is offered every round's checkpoint."""
    if placer not in PLACERS:
        raise ValueError(f"unknown placer {placer!r}")
    prog = progress or Progress()
    original = dfg
    units = find_units(dfg, adg)
    edge_map = list(range(len(dfg.edges)))
    if units:
        dfg, edge_map = contract(dfg, units)
    try:
        cands = candidates(dfg, adg)
    except NoFit as e:
        raise MapFailure(e.reasons) from None
    rng = random.Random(seed)
    dist = hop_distances(adg)
    router = Router(adg, getattr(options, "routing_heuristic_weight", 1.0))
    deadline = None if budget is None else time.monotonic() + budget
    best: Optional[tuple[tuple[int, int], Routes, dict[str, Target]]] = None
    settled: dict[int, bool] = {}  # edge -> whether any placement could route it (asked once an edge fails)
    attempt = 0
    slot_why: list[str] = []  # why the last fully routed placement's temporal switches lacked route-table slots
    while True:
        attempt += 1
        where = _place_attempt(dfg, adg, cands, rng, dist, router, placer, attempt, prog)
        regs, routes = _route_attempt(dfg, adg, cands, router, where, rng, settled, attempt, prog)
        score = (len(routes.failed), len(routes.overused))
        if best is None or score < best[0]:
            best = (score, routes, where)
        why: list[tuple[str, str]] = []
        if score == (0, 0):
            cfg, why = _configure_slots(dfg, adg, where, routes, regs, router)
            slot_why = [msg for _, msg in why] or slot_why
        if score == (0, 0) and not why:
            done = Mapping(dfg, adg, where, routes.paths, cfg, seed, attempt,
                           routes.iterations, original if units else None, edge_map if units else None, units, regs)
            if adg.fifos():
                done.timing = _bufferize(dfg, adg, done, options)
            if snapshots is not None:
                snapshots.offer(attempt, done, None)
            return done
        if snapshots is not None:
            snapshots.offer(attempt, None, _partial(dfg, where, routes))
        if attempt >= (CPSAT_ATTEMPTS if placer == "cpsat" else MAX_ATTEMPTS) or (
                deadline is not None and time.monotonic() >= deadline):
            break
        if sum(best[0]) > congested_limit(len(dfg.edges), attempt):
            raise _congested(dfg, adg, best, attempt)
    score, routes, where = best
    if score == (0, 0) and slot_why:  # every placement routed, but brought more tags to a temporal_sw than it has slots
        raise MapFailure(slot_why, partial=_partial(dfg, where, routes), attempts=attempt)
    raise MapFailure(_why_unrouted(dfg, adg, routes), partial=_partial(dfg, where, routes), attempts=attempt)


def _place_attempt(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], rng: random.Random, dist: Any,
                   router: Router, placer: str, attempt: int, prog: Progress) -> dict[str, Target]:
    """Attempt ``attempt``'s placement (SA or CP-SAT), tagged memories' lanes assigned; MapFailure when full."""
    n_nodes = len(dfg.nodes)
    moves = min(200 * n_nodes * attempt, 400_000)
    prog.update(f"attempt {attempt}: placing {n_nodes} nodes")
    try:
        if placer == "cpsat":
            from loom.map.place_cpsat import place_cpsat

            where = place_cpsat(dfg, adg, cands, rng, dist)
        else:
            where = place(dfg, adg, cands, rng, dist, moves)
    except PlacementFull as e:
        node = dfg.by_id[e.nid]
        n_ops = sum(1 for n in dfg.nodes if n.kind == node.kind)
        tpes = sum(1 for n in adg.nodes if n.kind == "tpe")
        pes = f"{len(adg.pes())} PEs" + (f" and {tpes} temporal PEs (a configurable FU of one holds one op)" if tpes else "")
        raise MapFailure([f"{node.name} %{node.id}: all {len(cands[e.nid])} compatible places are taken "
                          f"(the DFG has {n_ops} nodes of kind '{node.kind}'; the fabric has {pes}, "
                          f"{len(adg.memories())} memories, {len(adg.in_types)} inputs, {len(adg.out_widths)} outputs)"],
                         partial=_partial(dfg, e.placed, None), attempts=attempt) from None
    if any(m.defn.tagged for m in adg.memories()):  # type: ignore[attr-defined]
        from loom.map.mem_lanes import assign_lanes

        where = assign_lanes(dfg, adg, router, where)  # each region's first tag: one its traffic can carry
    return where


def _route_attempt(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], router: Router, where: dict[str, Target],
                   rng: random.Random, settled: dict[int, bool], attempt: int,
                   prog: Progress) -> tuple[dict, Routes]:
    """(temporal register edges, not routed; the routes of the rest); MapFailure when an edge can never route."""
    prog.update(f"attempt {attempt}: routing {len(dfg.edges)} edges")
    regs = bind_registers(dfg, adg, where)  # temporal register edges: not routed (loom/map/temporal)
    route_rng = random.Random(rng.getrandbits(64))  # its own stream: how long negotiation runs never shifts later placements
    routes = router.route(endpoint_ports(dfg, adg, where, frozenset(regs)), route_rng)
    hopeless = [k for k in routes.failed if not _routable_anywhere(dfg, adg, cands, router, k, settled)]
    if hopeless:
        raise MapFailure(_why_hopeless(dfg, adg, hopeless), partial=_partial(dfg, where, routes), attempts=attempt)
    return regs, routes


def _configure_slots(dfg: DFG, adg: ADG, where: dict[str, Target], routes: Routes, regs: dict,
                     router: Router) -> tuple[Config, list[tuple[str, str]]]:
    """A fully routed placement's configuration, and the temporal switches short of route-table slots (one per
    tag), each penalized so the next routing goes around it."""
    cfg = configure(dfg, adg, where, routes.paths, regs)
    from loom.map.tsw import fill_slots

    why = fill_slots(adg, cfg, routes.paths, routes.tags)  # temporal_sw route tables: one slot per tag; too many -> route around it
    for sw, _ in why:
        router.penalize(sw)
    return cfg, why


def _bufferize(dfg: DFG, adg: ADG, done: Mapping, options: Optional[Any]) -> Any:
    """The FIFO bufferization of a finished mapping onto a fabric with FIFOs (``options``' settings)."""
    from loom.map.bufferize import bufferize

    o = options
    return bufferize(dfg, adg, done.paths, done.config.bypassed, bool(getattr(o, "bufferization", False)),
                     getattr(o, "bufferization_max_iterations", 1),
                     getattr(o, "min_throughput_improvement", 0.0),
                     getattr(o, "combinational_node_delay", 1.0), getattr(o, "routing_hop_delay", 1.0))


def _congested(dfg: DFG, adg: ADG, best: tuple[tuple[int, int], Routes, dict[str, Target]],
               attempt: int) -> MapFailure:
    """The failure when the best placements still leave ports shared by many values: the fabric is too small."""
    score, routes, where = best
    return MapFailure([f"congested: after {attempt} placement(s) the best routing still leaves {score[0]} edges "
                       f"unrouted and {score[1]} ports shared by several values (more than "
                       f"{congested_limit(len(dfg.edges), attempt)} in all), so the fabric is too small for this DFG; "
                       f"use a larger fabric"] + _why_unrouted(dfg, adg, routes),
                      partial=_partial(dfg, where, routes), attempts=attempt)


def _routable_anywhere(dfg: DFG, adg: ADG, cands: dict[str, list[Target]], router: Router, k: int,
                       settled: dict[int, bool]) -> bool:
    """Whether a legal, wide enough path joins some place of edge ``k``'s source to some place of its sink
    on an empty fabric; when none does, no placement and no negotiation can route the edge."""
    if k not in settled:
        e = dfg.edges[k]
        width = net_width(adg, e.type)
        sources = [p for t in cands[e.src[0]] for p in end_ports(dfg, adg, e.src[0], e.src[1], t, True, width)]
        sinks = [p for t in cands[e.dst[0]] for p in end_ports(dfg, adg, e.dst[0], e.dst[1], t, False, width)]
        settled[k] = router.reachable(sources, sinks, width)
    return settled[k]


def _why_hopeless(dfg: DFG, adg: ADG, edges: list[int]) -> list[str]:
    out = []
    for k in edges[:10]:
        e = dfg.edges[k]
        out.append(f"edge %{e.src[0]}#{e.src[1]} -> %{e.dst[0]} operand {e.dst[1]} cannot be routed on any placement: "
                   f"no legal path of ports at least {net_width(adg, e.type)} bits wide for its {e.type} joins "
                   f"a place of %{e.src[0]} to a place of %{e.dst[0]}")
    return out


def _why_unrouted(dfg: DFG, adg: ADG, routes: Routes) -> list[str]:
    out = []
    for e_idx in routes.failed[:10]:
        e = dfg.edges[e_idx]
        out.append(f"edge %{e.src[0]}#{e.src[1]} -> %{e.dst[0]} operand {e.dst[1]} cannot be routed "
                   f"(no free legal path of ports at least {net_width(adg, e.type)} bits wide for its {e.type}; "
                   f"fan-out is only possible at a switch)")
    if routes.overused:
        from loom.map.adg.model import port_name

        tags = routes.overused_tags or [None] * len(routes.overused)
        ports = ", ".join(port_name(p) + ("" if t is None else f" (tag {t})") for p, t in zip(routes.overused[:8], tags))
        collide = " (tagged: two values with one tag on one port, a tag collision)" if any(t is not None for t in tags) else ""
        out.append(f"{len(routes.overused)} ports stay shared by several values after negotiation{collide}: {ports}")
    return out or ["routing did not converge"]


def _partial(dfg: DFG, where: dict[str, Target], routes: Optional[Routes]) -> dict:
    """The best partial result: what was placed, and (when routing ran, else None) what was routed."""
    return {
        "placed": {nid: list(t) for nid, t in where.items()},
        "nodes": len(dfg.nodes),
        "routed_edges": None if routes is None else len(routes.paths.keys() - set(routes.failed)),
        "edges": len(dfg.edges),
        "unrouted": [] if routes is None else [f"%{dfg.edges[i].src[0]}#{dfg.edges[i].src[1]} -> %{dfg.edges[i].dst[0]}"
                                               for i in routes.failed],
        "shared_ports": 0 if routes is None else len(routes.overused),
    }


def configure(dfg: DFG, adg: ADG, where: dict[str, Target], paths: dict[int, list[Port]],
              regs: Optional[dict[int, tuple[str, int]]] = None) -> Config:
    """The configuration that realises ``where`` and ``paths`` (and ``regs``: temporal register edges)."""
    cfg = Config()
    for path in paths.values():
        for a, b in zip(path, path[1:]):
            if a[0] == b[0] and a[1] == "i" and b[1] == "o" and adg.node(a[0]).kind == "sw":
                cfg.switches.setdefault(a[0], set()).add((b[2], a[2]))
    for n in dfg.nodes:
        t = where[n.id]
        if t[0] == "fu" and len(t) == 4:  # an instruction slot of a temporal PE
            from loom.map.temporal.configure import configure_slot

            configure_slot(cfg, dfg, adg, n, t, paths, regs or {})
        elif t[0] == "fu":
            pe = adg.node(t[1]).defn
            fu = pe.fus[t[2]]  # type: ignore[attr-defined]
            ins = [MuxField() for _ in fu.inputs]
            outs = [MuxField(0, True, False) for _ in fu.outputs]  # unused results are discarded
            for e_idx, e in enumerate(dfg.edges):
                if e.dst[0] == n.id:
                    ins[e.dst[1]] = MuxField(paths[e_idx][-1][2], False, False)
                if e.src[0] == n.id:
                    outs[e.src[1]] = MuxField(paths[e_idx][0][2], False, False)
            widths = [f.width for f in fu_fields(fu)]
            cfg.pes[t[1]] = PEConfig(True, fu.opcode, ins, outs, join_payload(widths, wanted_fields(n, fu)))
        elif t[0] == "mem":  # region t[2] of the interface, tags from t[3]
            mem = adg.node(t[1]).defn
            words = cfg.regions.setdefault(t[1], [0] * (5 * mem.num_region))  # type: ignore[attr-defined]
            words[5 * t[2]: 5 * t[2] + 5] = region_words(n, t[3], region_offset(mem, t[2]))  # type: ignore[arg-type]
    return cfg
