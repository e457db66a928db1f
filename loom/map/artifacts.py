"""The mapping artifacts: map.json, map.txt, config.json, config.bin, config.h (texts and bytes, no I/O)."""

from __future__ import annotations

import json
from typing import Any

from loom.map.adg.model import MODULE_IN, MODULE_OUT, fu_port_name, port_name
from loom.map.config import encode, layout, to_bytes
from loom.map.mapper import Mapping
from loom.map.temporal.artifacts import temporal_sections
from loom.map.temporal.model import slot_name
from loom.map.rules import field_ops, fu_fields, mem_port_maps, region_offset, region_words, wanted_fields
from loom.semantics.functions import CONT_CONDS

FORMAT = "loom.map/1"


def _target_json(m: Mapping, nid: str) -> dict[str, Any]:
    node, t = m.dfg.by_id[nid], m.place[nid]
    if t[0] == "fu":
        fu = m.adg.node(t[1]).defn.fus[t[2]]  # type: ignore[attr-defined]
        slot = {"slot": t[3]} if len(t) == 4 else {}  # a temporal PE's instruction slot
        return {"kind": "fu", "pe": t[1], "fu": fu.name, "opcode": t[2], **slot}
    if t[0] == "mem":
        hw = m.adg.node(t[1])
        out: dict[str, Any] = {"kind": "memory", "memory": t[1], "region": t[2]}
        if node.arg is not None:
            out["memref_arg"] = m.dfg.arg_names[node.arg]
            out["module_input"] = hw.memref_arg
        return out
    return {"kind": "module_input" if t[0] == "in" else "module_output", "port": t[1]}


def _steps(m: Mapping, e_idx: int) -> list[dict[str, str]]:
    """Canonical route steps of one edge, FU port to FU port (or memory/module port)."""
    e = m.dfg.edges[e_idx]
    path = m.paths[e_idx]
    steps: list[dict[str, str]] = []
    src_t = m.place[e.src[0]]
    if src_t[0] == "fu":
        fu = m.adg.node(src_t[1]).defn.fus[src_t[2]]  # type: ignore[attr-defined]
        steps.append({"kind": "fu_out_to_pe_out", "from": fu_port_name(_host(src_t), fu.name, "o", e.src[1]), "to": port_name(path[0])})
    for a, b in zip(path, path[1:]):
        kind = _PASS.get(m.adg.node(a[0]).kind, "switch") if a[0] == b[0] and a[1] == "i" else "wire"
        steps.append({"kind": kind, "from": port_name(a), "to": port_name(b)})
    dst_t = m.place[e.dst[0]]
    if dst_t[0] == "fu":
        fu = m.adg.node(dst_t[1]).defn.fus[dst_t[2]]  # type: ignore[attr-defined]
        steps.append({"kind": "pe_in_to_fu_in", "from": port_name(path[-1]), "to": fu_port_name(_host(dst_t), fu.name, "i", e.dst[1])})
    return steps


_PORT_KIND = {"sw": "sw", "pe": "pe", "tpe": "temporal_pe", "memory": "memory", "extmemory": "memory"}
_PASS = {"fifo": "fifo", "add_tag": "add_tag", "del_tag": "del_tag", "map_tag": "map_tag"}  # pass-through nodes' route step kinds


def _host(t: tuple) -> str:
    """The PE an FU target runs on: its name, or ``pe@slot`` for a temporal PE's instruction slot."""
    return slot_name(t[1], t[3]) if len(t) == 4 else t[1]


def _fabric_port_table(m: Mapping) -> tuple[list[dict[str, Any]], dict[tuple, int]]:
    """Every fabric port with a flat id, in a fixed order that depends on the ADG alone: module inputs, module
    outputs, then each component in module order, inputs before outputs. Returns the table and (node, dir, k) -> id."""
    adg = m.adg
    table: list[dict[str, Any]] = []
    ids: dict[tuple, int] = {}

    def add(key: tuple, entry: dict[str, Any]) -> None:
        ids[key] = len(table)
        table.append({"id": len(table), **entry})

    for k in range(len(adg.in_types)):
        add((MODULE_IN, "o", k), {"kind": "module_in", "name": "module", "index": k, "dir": "out"})  # as upstream:
    for k in range(len(adg.out_widths)):
        add((MODULE_OUT, "i", k), {"kind": "module_out", "name": "module", "index": k, "dir": "in"})  # port sides
    for node in adg.nodes:
        kind = "temporal_sw" if hasattr(node.defn, "slots") else _PORT_KIND.get(node.kind, node.kind)  # loom/map/tsw.py
        extra = {"memory_kind": node.kind} if kind == "memory" else {}
        for d, widths, word in (("i", node.defn.in_widths, "in"), ("o", node.defn.out_widths, "out")):  # type: ignore[attr-defined]
            for k in range(len(widths)):
                add((node.name, d, k), {"kind": kind, "name": node.name, "index": k, "dir": word, **extra})
    return table, ids


def _memory_regions(m: Mapping, regions: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """``memory_regions`` as spec-mapper-output names it: per hardware memory some software memory uses, its
    position and name, kind, ``num_region``, the occupied regions and the ``addr_offset_table`` config.bin holds."""
    position = {n.name: k for k, n in enumerate(m.adg.nodes)}
    out = []
    for name in sorted(regions, key=lambda k: position[k]):
        mem = m.adg.node(name).defn
        out.append({"hw_node": position[name], "hw_name": name, "memory_kind": mem.kind,  # type: ignore[attr-defined]
                    "num_region": mem.num_region, "tagged": mem.tagged,  # type: ignore[attr-defined]
                    "regions": sorted(regions[name], key=lambda r: r["region"]),
                    "addr_offset_table": list(m.config.regions.get(name, []))})
    return out


def upstream_sections(m: Mapping) -> dict[str, Any]:
    """``node_mappings``, ``edge_routings`` and ``port_table`` as spec-mapper-output names them.

    Port ids: every fabric port is numbered in an order fixed by the ADG alone (module inputs, module outputs,
    then each component in module order, inputs before outputs), and the ports of the function units this
    mapping uses follow (kind ``fu``, with their PE). ``port_table`` lists the ports some path passes, by id
    (an 8x8 mesh has thousands of ports; the ids of the others are skipped, not renumbered). An ``edge_routings`` ``path`` is the list of port
    ids the value passes, from the producing FU output (or memory / module port) to the consuming FU input;
    ``kind`` is ``routed``, or ``intra_fu`` for an edge inside a compound FU (no path). loom writes no partial
    mappings, so ``unrouted`` never occurs; ``temporal_reg`` is an edge between two slots of one temporal PE
    carried by a register (no path).
    ``hw_node`` is the component's position in the fabric module (null for a module port)."""
    adg, src = m.adg, m.source
    table, ids = _fabric_port_table(m)
    position = {n.name: k for k, n in enumerate(adg.nodes)}
    unit_of = {nid: (uid, k) for uid, _, phi in m.units for k, nid in phi.items()}
    used_fus = sorted({(t[1], t[2]) for t in m.place.values() if t[0] == "fu"}, key=lambda x: (position[x[0]], x[1]))
    for pe, opcode in used_fus:
        fu = adg.node(pe).defn.fus[opcode]  # type: ignore[attr-defined]
        for d, n_ports, word in (("i", len(fu.inputs), "in"), ("o", len(fu.outputs), "out")):
            for k in range(n_ports):
                ids[("fu", pe, opcode, d, k)] = len(table)
                table.append({"id": len(table), "kind": "fu", "name": fu.name, "pe": pe, "index": k, "dir": word})
    node_mappings = []
    for n in src.nodes:
        nid, body = unit_of.get(n.id, (n.id, None))
        t = m.place[nid]
        entry: dict[str, Any] = {"sw_node": n.id, "sw_op": n.name}
        if t[0] == "fu":
            fu = adg.node(t[1]).defn.fus[t[2]]  # type: ignore[attr-defined]
            entry.update(hw_node=position[t[1]], hw_name=fu.name, pe_name=t[1], opcode=t[2])
            if len(t) == 4:
                entry["slot"] = t[3]
            if body is not None:
                entry["body_op"] = body
        elif t[0] == "mem":
            entry.update(hw_node=position[t[1]], hw_name=t[1], pe_name=None, region=t[2])
        else:  # a module port: ("in", k) or ("out", k)
            port = (MODULE_IN, "o", t[1]) if t[0] == "in" else (MODULE_OUT, "i", t[1])
            entry.update(hw_node=None, hw_name=port_name(port), pe_name=None)
        node_mappings.append(entry)
    edge_routings = []
    for k, e in enumerate(src.edges):
        ck = m.edge_map[k] if m.edge_map is not None else k
        entry = {"sw_edge": k, "from": f"%{e.src[0]}#{e.src[1]}", "to": f"%{e.dst[0]}", "operand": e.dst[1]}
        if ck is None:
            edge_routings.append(dict(entry, kind="intra_fu", path=[]))
            continue
        if ck in m.registers:
            edge_routings.append(dict(entry, kind="temporal_reg", path=[]))
            continue
        ce = m.dfg.edges[ck]
        path = [ids[p] for p in m.paths[ck]]
        s_t, d_t = m.place[ce.src[0]], m.place[ce.dst[0]]
        if s_t[0] == "fu":
            path.insert(0, ids[("fu", s_t[1], s_t[2], "o", ce.src[1])])
        if d_t[0] == "fu":
            path.append(ids[("fu", d_t[1], d_t[2], "i", ce.dst[1])])
        edge_routings.append(dict(entry, kind="routed", path=path))
    used = sorted({k for r in edge_routings for k in r["path"]})
    return {"node_mappings": node_mappings, "edge_routings": edge_routings, "port_table": [table[k] for k in used]}


_FIELD_KIND = {"constant": "constant_value", "join": "join_mask", "stream": "stream_cont_cond", "mux": "mux"}


def _field_json(fu, f, op_index: int, value: int) -> dict[str, Any]:
    """One configured FU field as spec-mapper-output's ``fu_configs`` names it, with its readable ``text``."""
    op = fu.body[op_index]
    kind = _FIELD_KIND.get(f.kind) or ("cmpf_predicate" if op.name == "arith.cmpf" else "cmpi_predicate")
    if f.kind == "constant":
        text = f"value={value}"
    elif f.kind == "join":
        text = f"join_mask=0b{value:0{f.width}b}"
    elif f.kind == "stream":
        text = "cont_cond=" + (CONT_CONDS[value.bit_length() - 1] if value else "?")
    elif f.kind == "mux":
        text = f"sel={value & ((1 << max(f.width - 2, 0)) - 1)}"
    else:
        text = f"predicate={value}"
    return {"kind": kind, "bits": f.width, "value": value, "text": text}


def _fifo_sections(m: Mapping) -> dict[str, Any]:
    """``fifo_configs`` (each bypassable FIFO: depth and its runtime bit) and ``timing`` as spec-mapper-output names
    them, for a fabric with FIFOs. loom keeps every FIFO's bit as the fabric sets it (it chooses no FIFO buffering
    of its own, so a bypassed FIFO on a recurrence stays bypassed), and estimates no delays: ``timing`` holds the
    FIFO facts only. Absent when the fabric has no FIFO."""
    fifos = m.adg.fifos()
    if not fifos:
        return {}
    on_route = {p[0] for path in m.paths.values() for p in path if p[0] in {f.name for f in fifos}}

    def bypassed(f) -> bool:
        return f.defn.bypassable and m.config.bypassed.get(f.name, f.defn.bypassed)

    buffered = [f for f in fifos if f.name in on_route and not bypassed(f)]
    forced = [f for f in buffered if not f.defn.bypassable]  # buffered whatever the configuration says
    return {
        "fifo_configs": [{"name": f.name, "depth": f.defn.depth, "bypassable": True, "bypassed": bypassed(f),
                          "on_route": f.name in on_route} for f in fifos if f.defn.bypassable],
        "timing": {"available": True, "estimates": "surrogate: node and hop delays (loom/map/bufferize.py)",
                   "fifo_count": len(fifos), "routed_fifo_count": len(on_route),
                   "buffered_fifo_count": len(buffered),
                   "forced_buffered_fifos": [f.name for f in forced],
                   "forced_buffered_fifo_depths": [f.defn.depth for f in forced],
                   **_timing(m)},
    }


def _timing(m: Mapping) -> dict[str, Any]:
    """The bufferization pass's choices and timing surrogate, edges named by their source-DFG ids."""
    from loom.map.bufferize import Bufferization, timing_section

    ids: dict[int, list[int]] = {}
    for k in range(len(m.source.edges)):
        ck = m.edge_map[k] if m.edge_map is not None else k
        if ck is not None:
            ids.setdefault(ck, []).append(k)
    depth = {f.name: f.defn.depth for f in m.adg.fifos()}  # type: ignore[attr-defined]
    return timing_section(m.timing or Bufferization(), depth, ids)


def _tag_sections(m: Mapping) -> dict[str, Any]:
    """``tag_configs`` (spec-mapper-output): each add_tag's tag and map_tag's table; absent without tag ops."""
    from loom.map.tags import tag_configs

    cfgs = tag_configs(m.adg, m.config.tags, m.config.map_tags)
    return {"tag_configs": cfgs} if cfgs else {}


def search_section(m: Mapping) -> dict[str, Any]:
    """spec-mapper-output's ``search`` counters for loom's search: one serial lane of seeded attempts, no local
    repair, no route-aware annealing, and the FIFO buffering toggles the bufferization pass accepted."""
    return {"placement_attempts": m.attempts, "routing_iterations": m.iterations,
            "placement_seed_lane_count": 1, "routed_lane_count": 1,
            "local_repair_attempts": 0, "local_repair_successes": 0,
            "route_aware_checkpoint_rescore_passes": 0, "route_aware_neighborhood_attempts": 0,
            "fifo_bufferization_accepted_toggles": len(m.timing.selected) if m.timing is not None else 0,
            "outer_joint_accepted_rounds": 0}


def map_json(m: Mapping, dfg_file: str, adg_file: str) -> dict[str, Any]:
    """The map.json document (file names only, so it does not depend on the checkout path)."""
    d, adg, src = m.dfg, m.adg, m.source
    nodes, host = _nodes_json(m)
    edges, port_table = _edges_json(m)
    pe_routes, fu_configs, regions = _placements_json(m)
    used_pes = len({t[1] for t in m.place.values() if t[0] == "fu"})
    return {
        "format": FORMAT,
        "dfg": {"file": dfg_file, "function": src.name},
        "adg": {"file": adg_file, "module": adg.name},
        "seed": m.seed,
        "nodes": nodes,
        "edges": edges,
        "ports": dict(sorted(port_table.items())),
        "switch_routes": _switch_routes_json(m, port_table),
        "pe_routes": dict(sorted(pe_routes.items())),
        "fu_configs": [fu_configs[k] for k in sorted(fu_configs)],
        "memory_regions": _memory_regions(m, regions),
        "host_inputs": host,
        **_fifo_sections(m),
        **_tag_sections(m),
        **temporal_sections(m),
        "search": search_section(m),
        **upstream_sections(m),
        "stats": {"dfg_nodes": len(src.nodes), "dfg_edges": len(src.edges), "sinks_absorbed": d.sunk,
                  "compound_units": len(m.units), "intra_fu_edges": sum(1 for e in edges if e.get("intra_fu")),
                  "pes_used": used_pes, "pes_total": sum(1 for n in adg.nodes if n.kind in ("pe", "tpe")),
                  "switch_hops": sum(e["hops"] for e in edges), "attempts": m.attempts, "route_iterations": m.iterations},
    }


def _nodes_json(m: Mapping) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Each source DFG node with its target (a compound FU's member: the unit and its body op), and the host
    inputs (a memref's size a node reads)."""
    unit_of = {nid: (uid, k) for uid, _, phi in m.units for k, nid in phi.items()}
    nodes = []
    host = []
    for n in m.source.nodes:
        if n.id in unit_of:
            uid, k = unit_of[n.id]
            target = dict(_target_json(m, uid), body_op=k, unit=uid)
        else:
            target = _target_json(m, n.id)
        entry: dict[str, Any] = {"id": n.id, "kind": n.kind, "op": n.name, "target": target}
        if n.host is not None:
            entry["host"] = {"memref": n.host[0], "dim": n.host[1]}
            host.append({"port": m.place[n.id][1], "memref": n.host[0], "dim": n.host[1]})
        nodes.append(entry)
    return nodes, host


def _edges_json(m: Mapping) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """Each source edge with its route (none inside a compound FU or through a temporal PE's register), and
    the value each routed port carries."""
    adg = m.adg
    edges = []
    port_table: dict[str, str] = {}
    for k, e in enumerate(m.source.edges):
        value = f"%{e.src[0]}#{e.src[1]}"
        ck = m.edge_map[k] if m.edge_map is not None else k
        entry = {"index": k, "from": value, "to": f"%{e.dst[0]}", "operand": e.dst[1], "type": str(e.type)}
        if ck is None:  # both ends inside one compound FU: an FU-internal edge, not routed
            edges.append(dict(entry, hops=0, intra_fu=True, route=[]))
            continue
        if ck in m.registers:  # between two slots of one temporal PE, through a register: not routed
            pe, reg = m.registers[ck]
            edges.append(dict(entry, hops=0, temporal_reg={"pe": pe, "register": reg}, route=[]))
            continue
        for p in m.paths[ck]:
            port_table[port_name(p)] = value
        edges.append(dict(entry, hops=sum(1 for p in m.paths[ck]
                                          if p[0] not in (MODULE_IN, MODULE_OUT) and p[1] == "o" and adg.node(p[0]).kind == "sw"),
                          route=_steps(m, ck)))
    return edges, port_table


def _switch_routes_json(m: Mapping, port_table: dict[str, str]) -> dict[str, list[dict[str, Any]]]:
    """Each switch's configured (input, output) pairs and the value each carries."""
    switch_routes: dict[str, list[dict[str, Any]]] = {}
    for name in sorted(m.config.switches):
        for o, i in sorted(m.config.switches[name]):
            switch_routes.setdefault(name, []).append({"in": i, "out": o, "value": port_table.get(port_name((name, "o", o)), "")})
    return switch_routes


def _placements_json(m: Mapping) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Per placed FU node its PE's muxes (and its FU's configuration fields); per placed memory node its region."""
    adg = m.adg
    pe_routes: dict[str, Any] = {}
    fu_configs: dict[str, Any] = {}
    regions: dict[str, Any] = {}
    for n in m.dfg.nodes:
        t = m.place[n.id]
        if t[0] == "fu":
            pe = adg.node(t[1]).defn
            fu = pe.fus[t[2]]  # type: ignore[attr-defined]
            c = m.config.pes[t[1]] if len(t) == 3 else m.config.temporal[t[1]].slots[t[3]]
            pe_routes[_host(t)] = {
                "node": n.id, "fu": fu.name, "opcode": fu.opcode,
                **({"members": [n.members[k].id for k in sorted(n.members)]} if n.members else {}),
                "inputs": [{"fu_in": k, "pe_in": f.sel} if not f.disconnect else {"fu_in": k, "disconnect": True}
                           for k, f in enumerate(c.inputs)],
                "outputs": [{"fu_out": k, "pe_out": f.sel} if not f.discard else {"fu_out": k, "discard": True}
                            for k, f in enumerate(c.outputs)],
            }
            fields = fu_fields(fu)
            if fields:
                fu_configs[_host(t)] = {"pe_name": t[1], "fu": fu.name, "fields": [
                    _field_json(fu, f, i, v) for f, i, v in zip(fields, field_ops(fu), wanted_fields(n, fu))]}
        elif t[0] == "mem":
            mem = adg.node(t[1]).defn
            w = region_words(n, t[3], region_offset(mem, t[2]))  # type: ignore[arg-type]
            ins, outs = mem_port_maps(n, mem, t[3])  # type: ignore[arg-type]
            regions.setdefault(t[1], []).append(
                {"region": t[2], "dfg_node": n.id, "sw_node": n.id, "memref": str(n.memref),
                 "memref_arg_index": n.arg, "ld": n.ld, "st": n.st, "ld_count": n.ld, "st_count": n.st,
                 "valid": w[0], "start_lane": w[1], "end_lane": w[2], "addr_offset": w[3], "elem_size_log2": w[4],
                 "operand_ports": ins, "result_ports": outs})
    return pe_routes, fu_configs, regions

def config_json(m: Mapping) -> dict[str, Any]:
    words = encode(m.adg, m.config)
    return {
        "word_width_bits": 32,
        "word_count": len(words),
        "byte_size": 4 * len(words),
        "complete": True,
        "words": words,
        "slices": [{"name": s.name, "kind": s.kind, "hw_node": s.name, "word_offset": s.word_offset,
                    "word_count": s.word_count, "complete": True} for s in layout(m.adg)],
    }


def config_bin(m: Mapping) -> bytes:
    return to_bytes(encode(m.adg, m.config))


def config_h(m: Mapping, stem: str) -> str:
    words = encode(m.adg, m.config)
    guard = "LOOM_CONFIG_" + "".join(c if c.isalnum() else "_" for c in stem).upper() + "_H"
    rows = [", ".join(f"0x{w:08x}u" for w in words[k : k + 6]) for k in range(0, len(words), 6)]
    body = ",\n  ".join(rows)
    return (
        f"/* loom config_mem image for {stem}: 32-bit little-endian words, switch and memory slices then PE slices. */\n"
        f"#ifndef {guard}\n#define {guard}\n\n#include <stdint.h>\n\n"
        f"static const uint32_t loom_runtime_config_words[{len(words)}] = {{\n  {body}\n}};\n"
        f"static const uint32_t loom_runtime_config_word_count = {len(words)}u;\n"
        f"static const int loom_runtime_config_complete = 1;\n\n#endif /* {guard} */\n"
    )


def map_txt(m: Mapping, doc: dict[str, Any]) -> str:
    """A readable report: summary, placement, routes."""
    s = doc["stats"]
    lines = [
        f"loom map: {doc['dfg']['file']} @{doc['dfg']['function']} on {doc['adg']['file']} @{doc['adg']['module']} (seed {m.seed})",
        f"  {s['dfg_nodes']} nodes, {s['dfg_edges']} edges, {s['pes_used']}/{s['pes_total']} PEs used, "
        f"{s['switch_hops']} switch hops, {s['sinks_absorbed']} sinks absorbed as discards",
        "",
        "placement:",
    ]
    for n in doc["nodes"]:
        t = n["target"]
        if t["kind"] == "fu":
            where = f"{t['pe']} / {t['fu']} (opcode {t['opcode']}" + (f", slot {t['slot']})" if "slot" in t else ")")
            if "body_op" in t:
                where += f", body op {t['body_op']}"
        elif t["kind"] == "memory":
            where = f"{t['memory']} region {t['region']}" + (f" <- memref %{t['memref_arg']}" if "memref_arg" in t else "")
        else:
            where = f"{t['kind'].replace('_', ' ')} {t['port']}"
        extra = f"  [host: dim {n['host']['dim']} of %{n['host']['memref']}]" if "host" in n else ""
        lines.append(f"  %{n['id']:<24} {n['op']:<22} -> {where}{extra}")
    lines += ["", "routes:"]
    for e in doc["edges"]:
        hops = " > ".join([e["route"][0]["from"]] + [st["to"] for st in e["route"]]) if e["route"] else "inside the function unit"
        lines.append(f"  {e['from']} -> {e['to']}[{e['operand']}] ({e['type']}, {e['hops']} switch hops): {hops}")
    return "\n".join(lines) + "\n"


_COMPACT = ("node_mappings", "edge_routings", "port_table")


def dumps(doc: Any) -> str:
    """JSON text, indented; the entries of map.json's upstream sections one per line (they are many and flat)."""
    if not isinstance(doc, dict) or not any(k in doc for k in _COMPACT):
        return json.dumps(doc, indent=1, sort_keys=False) + "\n"
    marks = {k: f"@@loom-compact-{k}@@" for k in _COMPACT if k in doc}
    text = json.dumps({k: (marks[k] if k in marks else v) for k, v in doc.items()}, indent=1, sort_keys=False)
    for k, mark in marks.items():
        rows = ",\n  ".join(json.dumps(e, sort_keys=False) for e in doc[k])
        text = text.replace(json.dumps(mark), "[\n  " + rows + "\n ]" if rows else "[]", 1)
    return text + "\n"
