"""The independent mapping proof: decode config.bin and show it implements the DFG under every hard constraint.

Inputs are the DFG, the ADG, the config words and map.json's node mapping (a
certificate). The checker never runs the mapper or the encoder. It decodes the
words (C6), rebuilds what the configured hardware computes by following the
active switch transitions, PE muxes and demuxes from every source (C3, C4,
C10, C11), and proves that the certificate is a label- and port-preserving
isomorphism between that decoded graph and the DFG (C1, C2, C8). It also checks
every route step claimed in map.json against the ADG and the decoded routes. When all
holds, ``iso.py`` confirms the isomorphism without the certificate, twice: networkx VF2++ and Z3.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Optional

from loom.map.adg.model import ADG, MODULE_IN, MODULE_OUT, parse_port_name, net_width, port_name
from loom.map.config import Config, DecodeError, MuxField, decode, split_payload
from loom.map.decode_routes import End, RouteWalk, dfg_ends, end_name, walk_routes
from loom.map.dfg import DFG
from loom.map.iso import ISO_RLIMIT, decoded_graph, dfg_graph, isomorphic, z3_isomorphic
from loom.map.temporal.check import check_tpes, register_links, slot_view, split_slot
from loom.map.rules import (compound_mismatch, contract, fu_fields, fu_mismatch, is_compound, mem_bytes, mem_mismatch,
                             lane_bases, lanes_fit, region_offset, region_starts, region_words,
                             tag_starts, wanted_fields)


@dataclass
class CheckReport:
    violations: list[str] = field(default_factory=list)
    edges_checked: int = 0

    @property
    def ok(self) -> bool:
        return not self.violations

    def add(self, code: str, msg: str) -> None:
        if len(self.violations) < 200:
            self.violations.append(f"{code}: {msg}")


@dataclass
class Decoded:
    """A configuration decoded under map.json's certificate: the placement, the DFG with compound units
    contracted (``work``, placed by ``work_place``; ``edge_map`` takes original edges to its edges), the enabled
    PEs with their FU and record, and the walk of every configured route."""

    cfg: Config
    place: dict[str, tuple]
    bodies: dict[str, int]
    work: DFG
    work_place: dict[str, tuple]
    edge_map: list
    fus: dict[str, Any]
    walk: RouteWalk


def decode_mapping(dfg: DFG, adg: ADG, words: list[int], doc: dict[str, Any], rep: CheckReport) -> Optional[Decoded]:
    """Decode ``words`` (C6), read map.json's certificate, contract compound units, check every PE and memory
    record against the node it hosts, and walk the configured routes once; violations go to ``rep``.
    None when the words or the certificate are too broken to go on."""
    try:
        cfg = decode(adg, words)
    except DecodeError as e:
        rep.add("C6", str(e))
        return None
    certified = _certificate(dfg, adg, doc, rep)
    if certified is None:
        return None
    place, bodies = certified
    for nid, t in place.items():  # a region's first tag is configured: read it from its region words
        if t[0] == "mem":
            place[nid] = t + (cfg.regions[t[1]][5 * t[2] + 1],)
    work, work_place, edge_map = _contract(dfg, adg, place, bodies, rep)
    if work is None:
        return None
    fus = _check_pes(work, adg, cfg, work_place, rep)
    fus.update(check_tpes(work, adg, cfg, work_place, rep))  # valid temporal PE slots, as "pe@slot"
    _check_memories(work, adg, cfg, work_place, rep)
    walk = walk_routes(adg, cfg, fus)
    walk.connections += register_links(adg, cfg, fus, rep)  # temporal register edges (no route)
    for code, msg in walk.findings:
        rep.add(code, msg)
    from loom.map.tags import route_tags

    for code, msg in route_tags(adg, cfg.switches, cfg.tags, cfg.map_tags, cfg.tsw):  # tags dropped or colliding
        rep.add(code, msg)
    from loom.map.tsw import violations

    for code, msg in violations(adg, cfg):  # temporal_sw slots: each arriving tag sent where the routes go
        rep.add(code, msg)
    return Decoded(cfg, place, bodies, work, work_place, edge_map, fus, walk)


def check(dfg: DFG, adg: ADG, words: list[int], doc: dict[str, Any]) -> CheckReport:
    """Prove (or refute) that ``words`` configure ``adg`` to implement ``dfg`` as ``doc`` claims."""
    rep = CheckReport()
    d = decode_mapping(dfg, adg, words, doc, rep)
    if d is None:
        return rep
    _check_transitions(adg, d.cfg, d.walk.used, rep)
    _isomorphism(d.work, adg, d.work_place, d.walk, rep)
    _check_steps(dfg, d.work, d.edge_map, adg, d.cfg, d.work_place, doc, rep)
    if rep.ok:
        _isomorphism_without_certificate(adg, d, rep)
    rep.edges_checked = len(dfg.edges)
    return rep


def _isomorphism_without_certificate(adg: ADG, d: Decoded, rep: CheckReport) -> None:
    """Confirm the isomorphism twice more, from the words alone: by networkx VF2++ and by Z3, independently."""
    implemented, wanted = decoded_graph(adg, d.cfg, d.fus, d.walk), dfg_graph(d.work)
    if not isomorphic(implemented, wanted):
        rep.add("ISO", "no label- and port-preserving isomorphism between the decoded configuration and the DFG "
                       "exists (networkx VF2++), although map.json's node list passed: a checker fault")
        return
    found = z3_isomorphic(wanted, implemented)
    if found is None:
        rep.add("ISO", f"Z3 could not decide within its resource limit of {ISO_RLIMIT} rlimit units whether the "
                       "decoded configuration is isomorphic to the DFG (VF2++ found an isomorphism): not proved")
    elif not found:
        rep.add("ISO", "Z3 finds no label- and port-preserving isomorphism between the decoded configuration and "
                       "the DFG, although VF2++ does: a checker fault")


def _contract(dfg: DFG, adg: ADG, place: dict[str, tuple], bodies: dict[str, int], rep: CheckReport):
    """Groups of ops sharing one PE (each naming its body op) must be exactly that compound FU's effective graph;
    returns the DFG with each group as one node, the placement of that DFG, and the edge map."""
    groups: dict[tuple, dict[int, str]] = {}
    for nid, k in bodies.items():
        groups.setdefault(place[nid], {})
        if k in groups[place[nid]]:
            rep.add("C8", f"%{groups[place[nid]][k]} and %{nid} both claim body op {k} of {place[nid][1]}")
            return None, None, None
        groups[place[nid]][k] = nid
    units = []
    for key, phi in sorted(groups.items(), key=lambda kv: str(kv[0])):
        _, pe, opcode = key
        fus = adg.node(pe).defn.fus  # type: ignore[attr-defined]
        if not isinstance(opcode, int) or not 0 <= opcode < len(fus) or not is_compound(fus[opcode]):
            rep.add("C1", f"{pe}: opcode {opcode} is not a compound function unit, yet ops claim its body ops")
            return None, None, None
        why = compound_mismatch(dfg, fus[opcode], phi)
        if why is not None:
            rep.add("C1", f"{pe}/{fus[opcode].name} does not implement {sorted(phi.values())}: {why}")
            return None, None, None
        units.append((f"{phi[min(phi)]}+{len(phi) - 1}", fus[opcode], phi))
    if not units:
        return dfg, place, list(range(len(dfg.edges)))
    work, edge_map = contract(dfg, units)
    wplace = {nid: t for nid, t in place.items() if nid not in bodies}
    for uid, fu, phi in units:
        wplace[uid] = place[phi[min(phi)]]
    return work, wplace, edge_map


# ----------------------------------------------------------------------------- certificate


def _certificate(dfg: DFG, adg: ADG, doc: dict[str, Any], rep: CheckReport) -> Optional[dict[str, tuple]]:
    """The node mapping claimed by map.json, checked for completeness, exclusivity and compatibility."""
    entries = doc.get("nodes")
    if not isinstance(entries, list):
        rep.add("C1", "map.json has no node list")
        return None
    place: dict[str, tuple] = {}
    bodies: dict[str, int] = {}  # node -> the body op it claims in a compound FU
    owners: dict[tuple, str] = {}
    names = {n.name for n in adg.nodes}
    for e in entries:
        nid, t = e.get("id"), e.get("target", {})
        node = dfg.by_id.get(nid)
        if node is None:
            rep.add("C1", f"map.json maps %{nid}, which is not a node of the DFG")
            continue
        if nid in place:
            rep.add("C8", f"%{nid} is mapped twice")
            continue
        kind = t.get("kind")
        if node.kind == "op" and kind == "fu" and t.get("pe") in names and adg.node(t["pe"]).kind == "pe":
            key: tuple = ("fu", t["pe"], t.get("opcode"))
            res: tuple = ("pe", t["pe"])
        elif (node.kind == "op" and kind == "fu" and t.get("pe") in names and adg.node(t["pe"]).kind == "tpe"
              and isinstance(t.get("slot"), int) and 0 <= t["slot"] < adg.node(t["pe"]).defn.num_instruction  # type: ignore[attr-defined]
              and isinstance(t.get("opcode"), int) and 0 <= t["opcode"] < len(adg.node(t["pe"]).defn.fus)):  # type: ignore[attr-defined]
            key, res = ("fu", t["pe"], t["opcode"], t["slot"]), ("slot", t["pe"], t["slot"])
        elif (node.kind == "mem" and kind == "memory" and t.get("memory") in names
              and adg.node(t["memory"]).kind in ("extmemory", "memory") and isinstance(t.get("region"), int)
              and 0 <= t["region"] < adg.node(t["memory"]).defn.num_region):  # type: ignore[attr-defined]
            key, res = ("mem", t["memory"], t["region"]), ("mem", t["memory"], t["region"])
        elif node.kind in ("arg", "host") and kind == "module_input" and isinstance(t.get("port"), int) and 0 <= t["port"] < len(adg.in_types):
            key, res = ("in", t["port"]), ("in", t["port"])
        elif node.kind == "ret" and kind == "module_output" and isinstance(t.get("port"), int) and 0 <= t["port"] < len(adg.out_widths):
            key, res = ("out", t["port"]), ("out", t["port"])
        else:
            rep.add("C1", f"%{nid} ({node.name}) is mapped to an incompatible or unknown target {t}")
            continue
        shared = res[0] == "pe" and isinstance(t.get("body_op"), int) and (
            res not in owners or (owners[res] in bodies and place[owners[res]] == key))
        if res in owners and not shared:
            code = {"pe": "C8", "slot": "C5"}.get(res[0], "C4")
            rep.add(code, f"%{owners[res]} and %{nid} are both mapped to {res[1]}")
            continue
        owners[res] = nid
        place[nid] = key
        if res[0] == "pe" and isinstance(t.get("body_op"), int):
            bodies[nid] = t["body_op"]
        if node.kind == "mem" and node.arg is not None:
            hw = adg.node(t["memory"])
            if hw.memref_arg is None or t.get("module_input") != hw.memref_arg:
                rep.add("C1", f"memref %{dfg.arg_names[node.arg]} is not bound to the module input that feeds {hw.name}")
    for n in dfg.nodes:
        if n.id not in place:
            rep.add("C1", f"DFG node %{n.id} ({n.name}) is not mapped")
    return (place, bodies) if not rep.violations else None


# ----------------------------------------------------------------------------- PEs and memories


def _canonical(f: MuxField) -> bool:
    return f == MuxField()


def _check_pes(dfg: DFG, adg: ADG, cfg: Config, place: dict[str, tuple], rep: CheckReport) -> dict[str, Any]:
    """Enabled PEs and their FUs; every PE's record must be the hosted node's or the unused state."""
    hosted = {t[1]: nid for nid, t in place.items() if t[0] == "fu"}
    fus: dict[str, Any] = {}
    for pe_node in adg.pes():
        c = cfg.pes[pe_node.name]
        pe = pe_node.defn
        nid = hosted.get(pe_node.name)
        if not c.enable:
            if nid is not None:
                rep.add("C8", f"{pe_node.name} hosts %{nid} but is disabled")
            if c.opcode or c.payload or not all(_canonical(f) for f in c.inputs + c.outputs):
                rep.add("C6", f"{pe_node.name} is disabled but its record is not the unused state")
            continue
        fu = pe.fus[c.opcode]  # type: ignore[attr-defined]
        if nid is None:
            rep.add("C8", f"{pe_node.name} activates {fu.name}, which hosts no DFG node")
            continue
        node = dfg.by_id[nid]
        if c.opcode != place[nid][2]:
            rep.add("C1", f"{pe_node.name} activates {fu.name} but map.json places %{nid} on opcode {place[nid][2]}")
            continue
        why = fu_mismatch(node, fu)
        if why is not None:
            rep.add("C1", f"%{nid} ({node.name}) cannot run on {pe_node.name}/{fu.name}: {why}")
            continue
        for k, f in enumerate(c.inputs):
            if k >= len(fu.inputs) or f.disconnect:
                if not _canonical(f):
                    rep.add("C6", f"{pe_node.name} input mux {k} is unused but not in the disconnected state")
            elif f.discard:
                rep.add("C6", f"{pe_node.name} input mux {k} sets the reserved discard bit")
        for k, f in enumerate(c.outputs):
            if k >= len(fu.outputs):
                if not _canonical(f):
                    rep.add("C6", f"{pe_node.name} output demux {k} is unused but not in the disconnected state")
            elif f.disconnect:
                rep.add("C6", f"{pe_node.name} output {k} of {fu.name} is neither routed nor discarded")
            elif f.discard and f.sel:
                rep.add("C6", f"{pe_node.name} output demux {k} discards but selects PE output {f.sel}")
        fields = fu_fields(fu)
        vals, rest = split_payload([f.width for f in fields], c.payload)
        if rest:
            rep.add("C6", f"{pe_node.name} sets FU payload bits beyond {fu.name}'s fields")
        if vals != wanted_fields(node, fu):
            rep.add("C1", f"{pe_node.name}/{fu.name} is configured {vals}, but %{nid} needs {wanted_fields(node, fu)}")
        fus[pe_node.name] = (fu, c)
    return fus


def _check_memories(dfg: DFG, adg: ADG, cfg: Config, place: dict[str, tuple], rep: CheckReport) -> None:
    """Every region record is its hosted software memory's (valid, its tags, addr_offset, element size) or all
    zero; the tag ranges of one interface's regions are disjoint, so a tagged request reaches exactly one region,
    and on an on-chip interface so are their bytes, so no two software memories overwrite each other."""
    hosted = {(t[1], t[2]): nid for nid, t in place.items() if t[0] == "mem"}
    for m in adg.memories():
        words = cfg.regions[m.name]
        taken: dict[int, int] = {}  # tag -> region
        spans: dict[int, tuple[int, int]] = {}  # on-chip region -> its bytes [lo, hi)
        for r in range(len(words) // 5):
            w = words[5 * r: 5 * r + 5]
            nid = hosted.get((m.name, r))
            if nid is None:
                if any(w):
                    rep.add("C6", f"{m.name} region {r} hosts no DFG memory but its record is not empty")
                continue
            node = dfg.by_id[nid]
            why = mem_mismatch(node, m.defn, m.memref_arg is not None)  # type: ignore[arg-type]
            if why is None and m.defn.tagged:  # type: ignore[attr-defined]  # a tag window, served on packed lanes
                base = lane_bases(words).get(r, 0)
                if w[1] not in tag_starts(node, m.defn):  # type: ignore[arg-type]
                    why = f"its tags from {w[1]} do not fit the request ports' tag width"
                elif not lanes_fit(node, m.defn, base):  # type: ignore[arg-type]
                    why = f"its lanes from {base} leave the interface's {m.defn.ld} load and {m.defn.st} store lanes"  # type: ignore[attr-defined]
            elif why is None and w[1] not in region_starts(node, m.defn):  # type: ignore[arg-type]
                why = f"its tags from {w[1]} leave the interface's {m.defn.ld} load and {m.defn.st} store lanes"  # type: ignore[attr-defined]
            if why is not None:
                rep.add("C1", f"%{nid} cannot use {m.name} region {r}: {why}")
                continue
            want = region_words(node, w[1], region_offset(m.defn, r))  # type: ignore[arg-type]
            if w != want:
                rep.add("C6", f"{m.name} region {r} is {w}, but %{nid} needs {want}")
                continue
            for tag in range(w[1], w[2]):
                if tag in taken:
                    rep.add("C4", f"{m.name}: tag {tag} belongs to regions {taken[tag]} and {r} (a tagged request "
                                  "would reach two software memories)")
                taken[tag] = r
            size = mem_bytes(node) if m.kind == "memory" else None
            for r2, (lo, hi) in sorted(spans.items()):
                if size is not None and w[3] < hi and lo < w[3] + size:
                    rep.add("C4", f"{m.name}: regions {r2} and {r} share bytes {max(lo, w[3])}..{min(hi, w[3] + size) - 1} "
                                  "(two software memories would overwrite each other)")
            if size is not None:
                spans[r] = (w[3], w[3] + size)


def _check_transitions(adg: ADG, cfg: Config, used: set[tuple[str, int, int]], rep: CheckReport) -> None:
    for sw, pairs in sorted(cfg.switches.items()):
        table = adg.node(sw).defn.table  # type: ignore[attr-defined]
        for o, i in sorted(pairs):
            if not table[o][i]:
                rep.add("C3", f"{sw} routes input {i} to output {o}, which its connectivity table forbids")
            if (sw, i, o) not in used:
                rep.add("C3", f"{sw} transition input {i} -> output {o} is configured but carries no value")


# ----------------------------------------------------------------------------- isomorphism


def _isomorphism(dfg: DFG, adg: ADG, place: dict[str, tuple], walk: RouteWalk, rep: CheckReport) -> None:
    """The decoded graph's edges equal the DFG's edges under the certificate (multiset equality)."""
    src, dst = dfg_ends(dfg, adg, place)
    want: Counter = Counter()
    wtype: dict[tuple, Any] = {}
    for e in dfg.edges:
        key = (src(*e.src), dst(*e.dst))
        want[key] += 1
        wtype[key] = e.type
    got: Counter = Counter()
    widths: dict[tuple, int] = {}  # the narrowest port any copy of a connection passes
    for c in walk.connections:
        key = (c.src, c.dst)
        got[key] += 1
        widths[key] = min(c.width, widths.get(key, c.width))
    for key in sorted(want.keys() - got.keys(), key=str)[:10]:
        rep.add("C3", f"the DFG edge {end_name(key[0])} -> {end_name(key[1])} is not configured")
    for key in sorted(got.keys() - want.keys(), key=str)[:10]:
        rep.add("C3", f"the configuration routes {end_name(key[0])} -> {end_name(key[1])}, which is no DFG edge")
    for key in want.keys() & got.keys():
        if want[key] != got[key]:
            rep.add("C3", f"{end_name(key[0])} -> {end_name(key[1])} is configured {got[key]} times; the DFG has {want[key]}")
        vw = net_width(adg, wtype[key])
        if widths[key] < vw:
            rep.add("C2", f"{end_name(key[0])} -> {end_name(key[1])} carries {wtype[key]} through a {widths[key]}-bit port")


# ----------------------------------------------------------------------------- route steps


def _check_steps(dfg: DFG, work: DFG, edge_map: list, adg: ADG, cfg: Config, place: dict[str, tuple],
                 doc: dict[str, Any], rep: CheckReport) -> None:
    """Every claimed route step is legal in the ADG, active in the configuration, and FUs are only endpoints;
    an edge inside a compound FU has no route."""
    edges = doc.get("edges")
    if not isinstance(edges, list) or len(edges) != len(dfg.edges):
        rep.add("C3", "map.json does not list one routing per DFG edge")
        return
    src, dst = dfg_ends(work, adg, place)
    kinds = {n.name: n.kind for n in adg.nodes}
    for k, entry in enumerate(edges):
        if edge_map[k] is None:
            if entry.get("route") != [] or entry.get("intra_fu") is not True:
                rep.add("C3", f"edge {k} lies inside a compound function unit but claims a route")
            continue
        if entry.get("intra_fu"):
            rep.add("C3", f"edge {k} claims to be FU-internal but joins two function units")
            continue
        e = work.edges[edge_map[k]]
        if entry.get("temporal_reg") is not None:  # claimed through a temporal register: the reader must read it
            end, claim = dst(*e.dst), entry["temporal_reg"]
            hit = split_slot(adg, str(end[1])) if end[0] == "fu_in" else None
            ops = cfg.temporal[hit[0]].slots[hit[1]].operands if hit and hit[0] in cfg.temporal else []
            if entry.get("route") != [] or not isinstance(claim, dict) or end[2] >= len(ops) or \
                    ops[end[2]] != (claim.get("register"), True):
                rep.add("C5", f"edge {k} claims temporal register {claim} but its reader does not read it")
            continue
        steps = entry.get("route")
        if not isinstance(steps, list) or not steps:
            rep.add("C3", f"edge {k} has no route steps")
            continue
        if not all(isinstance(s, dict) for s in steps) or any(
                steps[j].get("from") != steps[j - 1].get("to") for j in range(1, len(steps))):
            rep.add("C3", f"edge {k} route steps do not chain (each step must start where the previous ended)")
            continue
        ports = [parse_port_name(str(steps[0].get("from")))] + [parse_port_name(str(s.get("to"))) for s in steps]
        if any(p is None or not _exists(adg, p) for p in ports):
            rep.add("C3", f"edge {k} names a port that does not exist")
            continue
        for p in ports[1:-1]:
            if p[0] == "fu":  # type: ignore[index]
                rep.add("C10", f"edge {k} passes through function unit {p[1]}:{p[2]}")  # type: ignore[index]
        for a, b in zip(ports, ports[1:]):
            problem = _step_problem(adg, cfg, kinds, a, b)  # type: ignore[arg-type]
            if problem:
                rep.add("C3", f"edge {k} step {_pn(a)} -> {_pn(b)}: {problem}")  # type: ignore[arg-type]
                break
        first, last = ports[0], ports[-1]
        want_src, want_dst = src(*e.src)[:3], dst(*e.dst)[:3]  # the ports (a tagged memory end's lane is the walk's)
        if _as_end(first, True) != want_src or _as_end(last, False) != want_dst:  # type: ignore[arg-type]
            rep.add("C3", f"edge {k} route runs {_pn(first)} -> {_pn(last)}, not between its endpoints")  # type: ignore[arg-type]


def _exists(adg: ADG, p: tuple) -> bool:
    """Whether a parsed port name denotes a real port (FU ports: of an FU of that PE)."""
    names = {n.name: n for n in adg.nodes}
    if p[0] == "fu":
        hit = split_slot(adg, p[1])
        node = names.get(hit[0] if hit else p[1])
        if node is None or node.kind != ("tpe" if hit else "pe"):
            return False
        fu = next((f for f in node.defn.fus if f.name == p[2]), None)  # type: ignore[attr-defined]
        return fu is not None and p[4] < len(fu.inputs if p[3] == "i" else fu.outputs)
    node, d, k = p
    if node == MODULE_IN:
        return k < len(adg.in_types)
    if node == MODULE_OUT:
        return k < len(adg.out_widths)
    n = names.get(node)
    if n is None:
        return False
    return k < len(n.defn.in_widths if d == "i" else n.defn.out_widths)  # type: ignore[attr-defined]


def _pn(p: tuple) -> str:
    if p[0] == "fu":
        return f"{p[1]}:{p[2]}.{'in' if p[3] == 'i' else 'out'}{p[4]}"
    return port_name(p)  # type: ignore[arg-type]


def _as_end(p: tuple, is_src: bool) -> Optional[End]:
    if p[0] == "fu":
        return ("fu_out" if is_src else "fu_in", p[1], p[4])
    node, d, k = p
    if node == MODULE_IN:
        return ("mod_in", k)
    if node == MODULE_OUT:
        return ("mod_out", k)
    return ("mem_out" if is_src else "mem_in", node, k)


def _step_problem(adg: ADG, cfg: Config, kinds: dict[str, str], a: tuple, b: tuple) -> Optional[str]:
    if a[0] == "fu":  # FU output -> PE output through the demux
        c = cfg.pes.get(a[1]) or slot_view(adg, cfg, a[1])
        if c is None or b[0] != (getattr(c, "pe", "") or a[1]) or b[1] != "o" or a[3] != "o":
            return "an FU output can only reach its own PE's outputs"
        f = c.outputs[a[4]] if a[4] < len(c.outputs) else None
        return None if f is not None and not f.disconnect and not f.discard and f.sel == b[2] else "the demux does not select it"
    if b[0] == "fu":  # PE input -> FU input through the mux
        c = cfg.pes.get(b[1]) or slot_view(adg, cfg, b[1])
        if c is None or a[0] != (getattr(c, "pe", "") or b[1]) or a[1] != "i" or b[3] != "i":
            return "an FU input can only be reached from its own PE's inputs"
        f = c.inputs[b[4]] if b[4] < len(c.inputs) else None
        return None if f is not None and not f.disconnect and f.sel == a[2] else "the mux does not select it"
    if a[1] == "o" and b[1] == "i":
        return None if adg.drivers.get(b) == a else "no wire joins them"
    if a[0] == b[0] and a[1] == "i" and b[1] == "o" and kinds.get(a[0]) in ("fifo", "add_tag", "del_tag", "map_tag"):
        return None  # a FIFO passes its value on (buffered or bypassed), a tag adapter tags or untags it
    if a[0] == b[0] and a[1] == "i" and b[1] == "o" and kinds.get(a[0]) == "sw":
        table = adg.node(a[0]).defn.table  # type: ignore[attr-defined]
        if not table[b[2]][a[2]]:
            return "the connectivity table forbids it"
        return None if (b[2], a[2]) in cfg.switches.get(a[0], set()) else "the switch is not configured so"
    return "not a legal step (only wires, switch transitions, PE muxes and demuxes are)"
