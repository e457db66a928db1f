"""Temporal registers: a value whose every consumer sits in another slot of its producer's temporal PE goes
through one of that PE's registers instead of the switches (spec-mapper-model: a ``temporal_reg`` edge; one
register per writer output, shared by all its readers; at most ``num_register`` per PE)."""

from __future__ import annotations

from loom.map.adg.model import ADG
from loom.map.dfg import DFG


def bind_registers(dfg: DFG, adg: ADG, where: dict[str, tuple]) -> dict[int, tuple[str, int]]:
    """Edge index -> (temporal PE, register) for every edge carried by a register, in DFG edge order."""
    by_src: dict[tuple[str, int], list[int]] = {}
    for k, e in enumerate(dfg.edges):
        by_src.setdefault(e.src, []).append(k)
    used: dict[str, int] = {}
    out: dict[int, tuple[str, int]] = {}
    for (nid, _), ks in by_src.items():
        t = where.get(nid)
        if t is None or t[0] != "fu" or len(t) != 4:
            continue
        pe = t[1]
        regs = adg.node(pe).defn.num_register  # type: ignore[attr-defined]
        inside = all(len(where[dfg.edges[k].dst[0]]) == 4 and where[dfg.edges[k].dst[0]][:2] == ("fu", pe)
                     and dfg.edges[k].dst[0] != nid for k in ks)
        if not inside or used.get(pe, 0) >= regs:
            continue
        for k in ks:
            out[k] = (pe, used.get(pe, 0))
        used[pe] = used.get(pe, 0) + 1
    return out
