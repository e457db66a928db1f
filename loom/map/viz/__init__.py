"""A self-contained viz.html of a mapping: the ADG as SVG, mapped PEs labelled, every routed edge drawn.

No external scripts or styles. Mesh components (``sw_r_c``/``pe_r_c``) sit on their
grid; other components are laid out in breadth-first layers from the module
inputs. Hovering or clicking an edge in the list highlights its full path and
names the components it passes; clicking a PE shows its op and source location
and highlights the routes through it; "Mapping" toggles the overlay.
"""

from __future__ import annotations

import html
import json
import re
from collections import deque
from pathlib import PurePath
from typing import Any

from loom.map.adg.model import MODULE_IN, MODULE_OUT
from loom.map.mapper import Mapping

_GRID = re.compile(r"^(sw|pe)_(\d+)_(\d+)$")
STEP = 120


def _vertex(node: str, k: int) -> str:
    return f"$in{k}" if node == MODULE_IN else f"$out{k}" if node == MODULE_OUT else node


def layout(m: Mapping) -> dict[str, tuple[float, float]]:
    """Position of every component and module port."""
    adg = m.adg
    pos: dict[str, tuple[float, float]] = {}
    nbrs: dict[str, set[str]] = {}
    for (dn, _, dk), (sn, _, sk) in sorted(adg.drivers.items()):
        a, b = _vertex(sn, sk), _vertex(dn, dk)
        nbrs.setdefault(a, set()).add(b)
        nbrs.setdefault(b, set()).add(a)
    for n in adg.nodes:
        g = _GRID.match(n.name)
        if g:
            r, c = int(g.group(2)), int(g.group(3))
            off = 0 if g.group(1) == "sw" else STEP * 0.45
            pos[n.name] = (80 + c * STEP + off, 80 + r * STEP + off)
    if pos:  # hang the rest off their neighbours, pushed away from the grid's centre
        xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
        cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
        rest = sorted(v for v in nbrs if v not in pos)
        used: dict[tuple[int, int], int] = {}
        for v in rest:
            near = [pos[w] for w in sorted(nbrs[v]) if w in pos]
            if not near:
                continue
            x, y = sum(p[0] for p in near) / len(near), sum(p[1] for p in near) / len(near)
            dx, dy = x - cx, y - cy
            norm = max((dx * dx + dy * dy) ** 0.5, 1.0)
            key = (round(x / 40), round(y / 40))
            used[key] = used.get(key, 0) + 1
            push = 50 + 22 * used[key]
            pos[v] = (x + dx / norm * push, y + dy / norm * push)
    layer: dict[str, int] = {}
    q = deque(sorted(v for v in nbrs if v.startswith("$in")))
    for v in q:
        layer[v] = 0
    while q:
        v = q.popleft()
        for w in sorted(nbrs.get(v, ())):
            if w not in layer:
                layer[w] = layer[v] + 1
                q.append(w)
    count: dict[int, int] = {}
    for v in sorted(set(nbrs) | {n.name for n in adg.nodes}):
        if v in pos:
            continue
        lv = layer.get(v, max(layer.values(), default=0) + 1)
        count[lv] = count.get(lv, 0) + 1
        pos[v] = (80 + lv * 160, 60 + count[lv] * 90)
    return pos


def _where(node: Any) -> str:
    """The source location of a hosted node (file name only, so the page is the same in any checkout)."""
    ops = [x.op for _, x in sorted(node.members.items())] if node.members else [node.op]
    for op in ops:
        loc = getattr(op, "loc", None)
        if loc is not None and getattr(loc, "line", 0) > 0:
            return f"{PurePath(loc.file).name}:{loc.line}:{loc.col}"
    return ""


def viz_html(m: Mapping, doc: dict[str, Any]) -> str:
    """The page, with its data embedded as JSON."""
    pos = layout(m)
    kinds = {n.name: "temporal_sw" if hasattr(n.defn, "slots") else "spatial_sw" if n.kind == "sw" else n.kind
             for n in m.adg.nodes}  # loom/map/tsw.py; switches by upstream's component kinds (its pages and checks)
    hosted = {t[1]: nid for nid, t in m.place.items() if t[0] in ("fu", "mem")}
    configs = {c["pe_name"]: c for c in doc.get("fu_configs", [])}
    shared: dict[str, list[str]] = {}
    for nid, t in sorted(m.place.items()):
        if t[0] == "mem":
            shared.setdefault(t[1], []).append(nid)
    comps = []
    for v, (x, y) in sorted(pos.items()):
        kind = kinds.get(v, "port")
        label = hosted.get(v, "")
        loc = ""
        extra: dict[str, Any] = {}
        if label:
            node = m.dfg.by_id[label]
            loc = _where(node)
            # full op and hardware names (upstream's tools look for them, e.g. "dataflow.invariant", "fu_invariant")
            extra["ops"] = [x.name for _, x in sorted(node.members.items())] if node.members else [node.name]
            t = m.place[label]
            if t[0] == "fu":
                extra["fu"] = m.adg.node(t[1]).defn.fus[t[2]].name  # type: ignore[attr-defined]
                if v in configs:  # the FU's configured fields, as upstream's viz prints them ("value=42", ...)
                    extra["config"] = [f["text"] for f in configs[v]["fields"]]
            if node.members:
                label = " + ".join(f"{x.name.split('.')[-1]} %{x.id}" for _, x in sorted(node.members.items()))
            else:
                label = node.name.split(".")[-1] + " %" + label
            if len(shared.get(v, ())) > 1:  # a memory interface several software memories share (one region each)
                extra["ops"] = [m.dfg.by_id[x].name for x in shared[v]]
                label = ", ".join(f"{m.dfg.by_id[x].name.split('.')[-1]} %{x} (region {m.place[x][2]})" for x in shared[v])
        comps.append({"id": v, "kind": kind, "x": round(x, 1), "y": round(y, 1), "label": label, "loc": loc, **extra})
    routes = []
    for k, entry in enumerate(doc["edges"]):
        ck = m.edge_map[k] if m.edge_map is not None else k
        if ck is None:
            continue
        pts: list[str] = []
        for p in m.paths.get(ck, []):  # a temporal register edge has no path
            v = _vertex(p[0], p[2])
            if not pts or pts[-1] != v:
                pts.append(v)
        routes.append({"edge": len(routes), "name": f"{entry['from']} -> {entry['to']}[{entry['operand']}]",
                       "type": entry["type"], "via": pts})
    mapping = {k: doc[k] for k in ("node_mappings", "edge_routings", "port_table", "tag_configs", "fifo_configs")
               if k in doc}  # upstream's sections, for tools that read the page's data
    data = json.dumps({"components": comps, "routes": routes, "mapping": mapping,
                       "title": f"{doc['dfg']['function']} on {doc['adg']['module']}"}, sort_keys=True)
    w = max(x for x, _ in pos.values()) + 160
    h = max(y for _, y in pos.values()) + 120
    title = html.escape(f"loom map: {doc['dfg']['file']} on {doc['adg']['file']}")
    return _PAGE.replace("@TITLE@", title).replace("@W@", str(int(w))).replace("@H@", str(int(h))).replace(
        "@DATA@", data.replace("</", "<\\/"))


_PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>@TITLE@</title>
<style>
body{font:13px sans-serif;margin:0;display:flex;height:100vh}
#side{width:330px;overflow:auto;border-right:1px solid #ccc;padding:8px}
#view{flex:1;overflow:auto}
.spatial_sw,.temporal_sw{fill:#eef;stroke:#669}.pe{fill:#f7f7f7;stroke:#999}.pe.used{fill:#dfd;stroke:#393}
.extmemory,.memory{fill:#fde;stroke:#a47}.port{fill:#ffd;stroke:#aa6}
.route{fill:none;stroke:#36c;stroke-width:1.5;opacity:.45}.route.hi{stroke:#e20;stroke-width:4;opacity:1}
.off .route{display:none}
li{cursor:pointer;font-family:monospace;font-size:11px}li:hover,li.hi{background:#fdd}
text{font-size:10px;pointer-events:none}
</style></head><body>
<div id="side"><b id="title"></b><br><label><input type="checkbox" id="toggle" checked> Mapping</label>
<div id="info">Select a PE or an edge.</div>
<ol id="edges"></ol></div>
<div id="view"><svg id="svg" width="@W@" height="@H@" xmlns="http://www.w3.org/2000/svg"></svg></div>
<script>
const D = @DATA@;
const NS = "http://www.w3.org/2000/svg", svg = document.getElementById("svg");
const at = {}; D.components.forEach(c => at[c.id] = c);
document.getElementById("title").textContent = D.title;
function el(tag, attrs, parent) { const e = document.createElementNS(NS, tag);
  for (const k in attrs) e.setAttribute(k, attrs[k]); (parent || svg).appendChild(e); return e; }
const gRoutes = el("g", {}), gNodes = el("g", {});
D.components.forEach(c => {
  const s = c.kind === "spatial_sw" || c.kind === "temporal_sw" ? 34 : c.kind === "pe" ? 44 : 26;
  const r = el("rect", {x: c.x - s / 2, y: c.y - s / 2, width: s, height: s, rx: 4,
    class: c.kind + (c.label ? " used" : "")}, gNodes);
  const t = el("title", {}, r); t.textContent = c.id + (c.label ? ": " + c.label : "");
  const tx = el("text", {x: c.x - s / 2 + 2, y: c.y + s / 2 + 11}, gNodes); tx.textContent = c.label || c.id;
  r.addEventListener("click", () => {
    document.getElementById("info").textContent = c.id + (c.label ? ": " + c.label : "") + (c.loc ? " at " + c.loc : "");
    highlight(D.routes.filter(x => x.via.includes(c.id)).map(x => x.edge)); });
});
const lines = D.routes.map(r => el("polyline", {class: "route",
  points: r.via.filter(v => at[v]).map(v => at[v].x + "," + at[v].y).join(" ")}, gRoutes));
const items = D.routes.map(r => { const li = document.createElement("li");
  li.textContent = r.name + " : " + r.type + " (" + r.via.length + " components)";
  li.addEventListener("mouseenter", () => highlight([r.edge]));
  li.addEventListener("click", () => { document.getElementById("info").textContent = r.name + " via " + r.via.join(", ");
    highlight([r.edge]); });
  document.getElementById("edges").appendChild(li); return li; });
function highlight(ids) { lines.forEach((l, i) => l.classList.toggle("hi", ids.includes(i)));
  items.forEach((l, i) => l.classList.toggle("hi", ids.includes(i))); }
document.getElementById("toggle").addEventListener("change", e =>
  svg.classList.toggle("off", !e.target.checked));
</script></body></html>
"""
