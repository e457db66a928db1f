"""Tech-mapping: for every DFG node, the hardware places that can host it (C1, C2).

Op nodes go to (PE, FU) pairs, memories to memory interfaces, arguments and
host inputs to module input ports, results to module output ports. A node with
no candidate is reported with the reasons, which is why the DFG does not fit.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.ir.types import Type
from loom.map.adg.model import ADG, MemDef, port_width, value_width
from loom.map.dfg import DFG, DNode
from loom.map.rules import REGION_STRIDE, fu_mismatch, mem_bytes, mem_mismatch, region_starts

Target = tuple  # ("fu", pe, opcode) | ("mem", name, region, first tag) | ("in", k) | ("out", k)


@dataclass
class NoFit(Exception):
    """Some DFG node has no compatible hardware; ``reasons`` says why, per node."""

    reasons: list[str]

    def __str__(self) -> str:
        return "; ".join(self.reasons)


def _fits(t: Type, width: int | None) -> bool:
    w = value_width(t)
    return w is not None and width is not None and w <= width


def _regions(node: DNode, mem: MemDef) -> int:
    """How many of ``mem``'s regions a software memory may take: all on an external or a tagged on-chip interface
    (a software memory larger than the on-chip region stride only the first, so no two regions' bytes overlap);
    one on an untagged on-chip one."""
    if mem.kind == "extmemory":
        return mem.num_region
    if not mem.tagged:
        return 1
    size = mem_bytes(node)
    return mem.num_region if size is not None and size <= REGION_STRIDE else 1


def candidates(dfg: DFG, adg: ADG) -> dict[str, list[Target]]:
    """Compatible targets of every node, in ADG order."""
    out: dict[str, list[Target]] = {}
    reasons: list[str] = []
    fu_cache: dict[int, tuple[int | None, str]] = {}
    groups: dict[tuple[str, str], tuple[str, list[str]]] = {}  # ops without FU, by op and signature
    for n in dfg.nodes:
        c: list[Target] = []
        why = ""
        if n.kind == "op":
            for pe in adg.pes():
                key = id(pe.defn)
                if key not in fu_cache:
                    fu_cache[key] = _pick_fu(n, pe.defn)  # type: ignore[arg-type]
                fu, why_pe = fu_cache[key]
                if fu is None:
                    why = why or why_pe
                    continue
                if all(_fits(t, max(pe.defn.in_widths)) for t in n.in_types) and all(  # type: ignore[attr-defined]
                        _fits(t, max(pe.defn.out_widths)) for t in n.out_types):  # type: ignore[attr-defined]
                    c.append(("fu", pe.name, fu))
            fu_cache.clear()
            from loom.map.temporal.place import slot_targets

            c += slot_targets(n, adg)
            if not c:
                sig = f"({', '.join(map(str, n.in_types))}) -> ({', '.join(map(str, n.out_types))})"
                groups.setdefault((n.name, sig), (why, []))[1].append(n.id)
        elif n.kind == "mem":
            for m in adg.memories():
                problem = mem_mismatch(n, m.defn, m.memref_arg is not None)  # type: ignore[arg-type]
                if problem is None:
                    regions = _regions(n, m.defn)  # type: ignore[arg-type]
                    c.extend(("mem", m.name, r, s) for r in range(regions)
                             for s in region_starts(n, m.defn))  # type: ignore[arg-type]
                else:
                    why = why or f"{m.name}: {problem}"
            if not c:
                reasons.append(f"{n.name} %{n.id} ({n.memref}) has no compatible memory interface" + (f" ({why})" if why else ""))
        elif n.kind in ("arg", "host"):
            t = n.out_types[0]
            c = [("in", k) for k, ty in enumerate(adg.in_types) if _fits(t, port_width(ty))]
            if not c:
                reasons.append(f"argument %{n.id} ({t}) has no module input port wide enough")
        elif n.kind == "ret":
            t = n.in_types[0]
            c = [("out", k) for k, w in enumerate(adg.out_widths) if _fits(t, w)]
            if not c:
                reasons.append(f"result {n.arg} ({t}) has no module output port wide enough")
        out[n.id] = c
    missing = []
    for (name, sig), (why, ids) in groups.items():
        who = ", ".join(f"%{i}" for i in ids[:3]) + (f" and {len(ids) - 3} more" if len(ids) > 3 else "")
        missing.append(f"{name} {sig} ({who}) has no compatible function unit" + (f" (nearest: {why})" if why else ""))
    reasons[:0] = missing
    if reasons:
        raise NoFit(reasons)
    return out


def _pick_fu(n: DNode, pe) -> tuple[int | None, str]:
    """The first FU (by opcode) of ``pe`` that implements ``n``, or None and why the first near miss fails."""
    why = ""
    for fu in pe.fus:
        problem = fu_mismatch(n, fu)
        if problem is None:
            return fu.opcode, ""
        if fu.op is not None and fu.op.name == n.name and not why:
            why = problem
    return None, why


def find_units(dfg: DFG, adg: ADG) -> list[tuple[str, object, dict[int, str]]]:
    """Groups of DFG ops that one compound FU implements: (unit id, FU, body op -> node id).

    Every match of every distinct compound body is found by backtracking along body
    edges; matches are then taken greedily in DFG order, without overlap and no more
    of one body than there are PEs offering it.
    """
    from loom.map.rules import body_signature, body_sources, compound_mismatch, is_compound

    kinds: dict[tuple, tuple[object, int]] = {}
    for pe in adg.pes():
        for fu in pe.defn.fus:  # type: ignore[attr-defined]
            if is_compound(fu):
                sig = body_signature(fu)
                first, count = kinds.get(sig, (fu, 0))
                kinds[sig] = (first, count + 1)
    if not kinds:
        return []
    pos = {n.id: k for k, n in enumerate(dfg.nodes)}
    consumers: dict[tuple[str, int], list[str]] = {}
    for e in dfg.edges:
        consumers.setdefault(e.src, []).append(e.dst[0])
    by_name: dict[str, list[str]] = {}
    for n in dfg.nodes:
        if n.kind == "op":
            by_name.setdefault(n.name, []).append(n.id)
    matches: list[tuple[int, tuple, object, dict[int, str]]] = []
    for sig, (fu, _) in kinds.items():
        srcs = body_sources(fu)  # type: ignore[arg-type]

        def extend(i: int, phi: dict[int, str]) -> None:
            if i == len(fu.body):  # type: ignore[attr-defined]
                if compound_mismatch(dfg, fu, phi) is None:  # type: ignore[arg-type]
                    matches.append((min(pos[v] for v in phi.values()), sig, fu, dict(phi)))
                return
            op = fu.body[i]  # type: ignore[attr-defined]
            inner = [s for s in srcs[i] if s[0] == "op"]
            cands = consumers.get((phi[inner[0][1]], inner[0][2]), []) if inner else by_name.get(op.name, [])
            for nid in dict.fromkeys(cands):
                node = dfg.by_id[nid]
                if nid in phi.values() or node.kind != "op" or node.name != op.name:
                    continue
                phi[i] = nid
                extend(i + 1, phi)
                del phi[i]

        extend(0, {})
    used: set[str] = set()
    taken: dict[tuple, int] = {}
    units = []
    for _, sig, fu, phi in sorted(matches, key=lambda m: (m[0], sorted(pos[v] for v in m[3].values()))):
        if used & set(phi.values()) or taken.get(sig, 0) >= kinds[sig][1]:
            continue
        used |= set(phi.values())
        taken[sig] = taken.get(sig, 0) + 1
        units.append((f"{phi[0]}+{len(phi) - 1}", fu, phi))
    return units
