"""A certificate-free proof that a decoded configuration computes the DFG: labelled graph isomorphism (networkx).

``check.py`` proves that map.json's node list is an isomorphism between the decoded configuration and the
DFG. This module ignores that list. It builds the graph the configuration alone computes: every enabled FU
labelled with the function it is configured for (op, types, configured fields; a join with the inputs its
mask uses), every valid memory region labelled with its kind and region words (a memory port joins the region whose tag range holds its lane), the module ports
that carry a value, and one edge per decoded connection labelled with its port roles (FU port index,
memory port role, module port). It builds the DFG's graph with the same labels from the DFG alone, and
asks networkx's VF2++ whether the two are isomorphic. Edges become labelled nodes of their own (VF2++
matches node labels only), so port order is part of the match.
"""

from __future__ import annotations

from typing import Any, Optional

import networkx as nx
import z3

from loom.map.adg.model import ADG
from loom.map.config import Config, split_payload
from loom.map.decode_routes import End, RouteWalk
from loom.map.dfg import DFG, DNode
from loom.map.rules import (body_signature, fu_fields, is_compound, lane_bases, mem_port_role, mem_roles, node_fields,
                             region_words, stream_step)


def _label_fu(fu: Any, payload: int) -> tuple:
    """The function an FU computes under its configured payload."""
    vals = split_payload([f.width for f in fu_fields(fu)], payload)[0]
    if is_compound(fu):
        return ("compound", body_signature(fu), tuple(vals))
    op = fu.op
    ins = list(fu.inputs[: len(op.operands)] if fu.live is not None else fu.inputs)  # dead ops' inputs unused
    if op.name == "handshake.join":
        ins = ins[: bin(vals[0]).count("1")] if vals else ins
    step = stream_step(op) if op.name == "dataflow.stream" else ""
    return ("op", op.name, tuple(map(str, ins)), tuple(map(str, fu.outputs)), step, tuple(vals))


def _label_node(n: DNode) -> tuple:
    """The function a DFG op node computes, in ``_label_fu``'s terms."""
    if n.name == "fabric.compound":
        return ("compound", n.signature, tuple(node_fields(n)))
    assert n.op is not None
    step = stream_step(n.op) if n.name == "dataflow.stream" else ""
    return ("op", n.name, tuple(map(str, n.in_types)), tuple(map(str, n.out_types)), step, tuple(node_fields(n)))


def _with_edges(nodes: dict[Any, tuple], edges: dict[tuple[Any, Any], list[tuple]]) -> nx.DiGraph:
    """Labelled nodes, and per connected pair one edge node labelled with the sorted port-role pairs."""
    g = nx.DiGraph()
    for v, label in nodes.items():
        g.add_node(("n", v), label=label)
    for (a, b), roles in edges.items():
        e = ("e", a, b)
        g.add_node(e, label=("edge", tuple(sorted(roles))))
        g.add_edge(("n", a), e)
        g.add_edge(e, ("n", b))
    return g


def decoded_graph(adg: ADG, cfg: Config, fus: dict[str, Any], walk: RouteWalk) -> nx.DiGraph:
    """The graph the configuration computes: from the decoded words and the route walk only."""
    nodes: dict[Any, tuple] = {}
    for pe, (fu, c) in fus.items():
        nodes[pe] = _label_fu(fu, c.payload)
    region_of: dict[tuple[str, int], tuple[int, int]] = {}  # (memory, tag) -> (region, its first tag)
    lane_of: dict[tuple[str, int], tuple[int, int]] = {}  # (tagged memory, lane) -> (region, its first lane)
    for m in adg.memories():
        words = cfg.regions.get(m.name, [])
        for r, base in lane_bases(words).items():  # a tagged response carries its lane (rules.tag_lane)
            for lane in range(base, base + words[5 * r + 2] - words[5 * r + 1]):
                lane_of.setdefault((m.name, lane), (r, base))
        for r in range(len(words) // 5):
            w = words[5 * r: 5 * r + 5]
            if w[0]:  # one node per valid region, labelled with its record, tags counted from its first
                nodes[(m.name, r)] = ("mem", m.kind, (w[0], 0, w[2] - w[1], 0, w[4]))  # addr_offset: _check_memories
                for tag in range(w[1], w[2]):
                    region_of.setdefault((m.name, tag), (r, w[1]))
    edges: dict[tuple[Any, Any], list[tuple]] = {}

    def end(e: End, is_src: bool) -> tuple[Any, tuple]:
        if e[0] in ("fu_out", "fu_in"):
            return e[1], ("fu", e[2])
        if e[0] in ("mem_out", "mem_in"):  # the port's lane is its tag: the region whose tag range holds it
            role = mem_port_role(adg.node(e[1]).defn, "o" if is_src else "i", e[2])  # type: ignore[arg-type]
            if role is not None and len(e) > 3:  # a tagged family port: the lane is the tag the value carries
                role = (role[0], e[3]) + tuple(role[2:])
            where = lane_of if is_src and len(e) > 3 else region_of
            if role is None or (e[1], role[1]) not in where:
                return ("untagged", e[1], e[2]), ("mem", "?", e[2])
            r, first = where[(e[1], role[1])]
            return (e[1], r), ("mem", role[0], role[1] - first) + tuple(role[2:])
        key = ("module", e[0], e[1])
        nodes.setdefault(key, ("in",) if is_src else ("out",))
        return key, ("module",)

    for c in walk.connections:
        (a, ra), (b, rb) = end(c.src, True), end(c.dst, False)
        if a not in nodes or b not in nodes:  # a value from a disabled FU or an unused memory
            nodes.setdefault(a, ("unconfigured",))
            nodes.setdefault(b, ("unconfigured",))
        edges.setdefault((a, b), []).append((ra, rb))
    return _with_edges(nodes, edges)


def dfg_graph(dfg: DFG) -> nx.DiGraph:
    """The DFG (compound units contracted as the configuration implements them) with ``decoded_graph``'s labels."""
    nodes: dict[Any, tuple] = {}
    used = {e.src[0] for e in dfg.edges} | {e.dst[0] for e in dfg.edges}
    for n in dfg.nodes:
        if n.kind == "op":
            nodes[n.id] = _label_node(n)
        elif n.kind == "mem":
            nodes[n.id] = ("mem", n.name.split(".")[1], tuple(region_words(n)))
        elif n.id in used:  # an argument nobody reads occupies no configured port
            nodes[n.id] = ("out",) if n.kind == "ret" else ("in",)
    edges: dict[tuple[Any, Any], list[tuple]] = {}

    def role(n: DNode, k: int, is_src: bool) -> tuple:
        if n.kind == "op":
            return ("fu", k)
        if n.kind == "mem":
            return ("mem",) + mem_roles(n)[1 if is_src else 0][k]
        return ("module",)

    for e in dfg.edges:
        a, b = dfg.by_id[e.src[0]], dfg.by_id[e.dst[0]]
        edges.setdefault((a.id, b.id), []).append((role(a, e.src[1], True), role(b, e.dst[1], False)))
    return _with_edges(nodes, edges)


def refine(a: nx.DiGraph, b: nx.DiGraph) -> Optional[tuple[nx.DiGraph, nx.DiGraph]]:
    """Both graphs relabelled by joint colour refinement (1-WL: a node's colour is its label with the multisets
    of its predecessors' and successors' colours, repeated until no class splits), or None when the colour counts
    differ. Any isomorphism maps each node to one of its own colour, so this keeps the answer; it only leaves
    VF2++ (and Z3) a few candidates per node, where a large DFG's many equal labels made them search for minutes."""
    table: dict[Any, int] = {}
    cols = [{v: table.setdefault(("l", d["label"]), len(table)) for v, d in g.nodes(data=True)} for g in (a, b)]
    classes = len(table)
    for _ in range(a.number_of_nodes() + 1):
        table = {}
        new = [{v: table.setdefault((c[v], tuple(sorted(c[u] for u in g.predecessors(v))),
                                     tuple(sorted(c[w] for w in g.successors(v)))), len(table)) for v in g}
               for g, c in zip((a, b), cols)]
        if sorted(new[0].values()) != sorted(new[1].values()):
            return None
        cols = new
        if len(table) == classes:
            break
        classes = len(table)
    if sorted(cols[0].values()) != sorted(cols[1].values()):
        return None
    out = []
    for g, c in zip((a, b), cols):
        h = nx.DiGraph()
        h.add_nodes_from((v, {"label": c[v]}) for v in g)
        h.add_edges_from(g.edges)
        out.append(h)
    return out[0], out[1]


def isomorphic(a: nx.DiGraph, b: nx.DiGraph) -> bool:
    """Whether a label- and port-preserving bijection between ``a`` and ``b`` exists (VF2++ on refined colours)."""
    if a.number_of_nodes() != b.number_of_nodes() or a.number_of_edges() != b.number_of_edges():
        return False
    both = refine(a, b)
    return both is not None and bool(nx.vf2pp_is_isomorphic(both[0], both[1], node_label="label"))


ISO_RLIMIT = 200_000_000  # Z3 resource units for the isomorphism query (deterministic, unlike a time limit)


def z3_isomorphic(a: nx.DiGraph, b: nx.DiGraph, rlimit: int = ISO_RLIMIT) -> Optional[bool]:
    """The same question asked of Z3, independently of VF2++: True, False, or None when Z3 gives up (runs out of
    ``rlimit`` resource units, a count of its work: the same answer on every machine and under any load).

    One Boolean per (node of ``a``, node of ``b`` with the same refined colour); each node of ``a`` takes exactly one
    partner and each node of ``b`` is taken at most once (a bijection, as the label counts agree); every arc
    of ``a`` must land on an arc of ``b``. With equal arc counts such a bijection is an isomorphism.
    """
    if a.number_of_nodes() != b.number_of_nodes() or a.number_of_edges() != b.number_of_edges():
        return False
    both = refine(a, b)  # candidates by refined colour: sound (``refine``), and far fewer Booleans than by label
    if both is None:
        return False
    a, b = both
    by_label: dict[Any, list[Any]] = {}
    for v, data in b.nodes(data=True):
        by_label.setdefault(data["label"], []).append(v)
    index = {v: k for k, v in enumerate(b.nodes)}
    s = z3.Solver()
    s.set("rlimit", rlimit)
    pick: dict[Any, dict[Any, z3.BoolRef]] = {}
    taken: dict[Any, list[z3.BoolRef]] = {}
    for k, (v, data) in enumerate(a.nodes(data=True)):
        cands = by_label.get(data["label"], [])
        if not cands:
            return False
        pick[v] = {w: z3.Bool(f"p{k}_{index[w]}") for w in cands}
        s.add(z3.PbEq([(x, 1) for x in pick[v].values()], 1))
        for w, x in pick[v].items():
            taken.setdefault(w, []).append(x)
    for xs in taken.values():
        if len(xs) > 1:
            s.add(z3.AtMost(*xs, 1))
    for u, w in a.edges:
        for i, x in pick[u].items():
            succ = [pick[w][j] for j in b.successors(i) if j in pick[w]]
            s.add(z3.Implies(x, z3.Or(succ)) if succ else z3.Not(x))
    r = s.check()
    return None if r == z3.unknown else r == z3.sat
