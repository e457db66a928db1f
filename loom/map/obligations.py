"""``loom verify --adg``: the mapping checker's facts as verify obligations (kind ``mapping``, method ``graph``).

The DFG is mapped exactly as ``loom map`` maps it (nothing is written); the configuration image is
then decoded and proved by the independent checker (``check.py``). Each of the checker's facts
becomes one obligation so that the text, JSON, JUnit and SARIF reports carry them with everything
else: ``map.iso`` (the decoded configuration is a port-preserving isomorphism of the DFG) and one
``map.Cn`` per hard constraint (C5 and C9, the temporal PE rules, on a fabric with temporal PEs; ``map.regions``
on a fabric with a tagged or several-region memory interface), and ``map.fifo.<bmc id>`` (``fifo.py``: the verifier's
bmc on the function the configuration rebuilds, every route bounded by its depth). A DFG that does not fit gives one
refuted ``map.fit``. This module
depends on verify's result type and context (``fifo.py`` also on its checker registry); the verify core never
imports the mapper.
"""

from __future__ import annotations

import json
import time
from typing import Optional

from loom.map.adg.model import ADG
from loom.map.dfg import DFG
from loom.ir.core import Operation
from loom.verify.obligation import Obligation, VerifyContext

# the hard constraints check.py proves, with the one-line statement each obligation carries when proved
CONSTRAINTS: dict[str, str] = {
    "C1": "every node runs on a compatible FU or memory with its configured fields",
    "C2": "every port on a value's route is at least as wide as the value",
    "C3": "routes follow allowed, configured transitions; every transition carries a value; no loops",
    "C4": "a port, switch output, PE output and memory each carry at most one value",
    "C6": "the image has the ADG's word count, zero padding, in-range selectors, unused fields unused",
    "C8": "a PE activates at most one FU and hosts one node or exactly its compound FU's body",
    "C10": "no route passes through an FU",
    "C11": "fan-out only in switches",
}
# on a fabric with temporal PEs (loom/map/temporal/check.py), two more
TEMPORAL_CONSTRAINTS: dict[str, str] = {
    "C5": "each valid temporal PE slot hosts its placed op; slot tags differ within a PE and every operand arrives "
          "on a PE input tagged with its slot's tag, so a token fires only its own slot and each op keeps its firing "
          "order; no register-backed edge",
    "C9": "each temporal PE function unit holds the one persistent config every op on it needs",
}


# on a fabric whose memory interfaces are tagged or hold several regions
REGIONS = ("each software memory has its own region and tag range on its interface (tag ranges disjoint, on-chip "
           "bytes disjoint), and every request arrives with a tag of its own region and every response returns to "
           "its consumer, so no two memrefs collide")


def _ob(oid: str, rule: str, ok: bool, detail: str, seconds: float, cex: dict | None) -> Obligation:
    return Obligation(id=oid, kind="mapping", status="proved" if ok else "refuted", seconds=seconds, detail=detail,
                      counterexample=None if ok else cex, method="graph", rule=rule,
                      nature=None if ok else "spec rule")


def mapping_obligations(dfg: DFG, adg: ADG, adg_name: str, seed: int = 0,
                        budget: Optional[float] = None, ctx: Optional[VerifyContext] = None,
                        source: Optional[Operation] = None) -> list[Obligation]:
    """Map ``dfg`` onto ``adg`` in memory and return the checker's verdicts as obligations (``budget``: seconds of
    wall clock for the placement retries; None: only their deterministic count limits them), then the
    verifier's bmc on the configured routes as ``map.fifo.*`` (``ctx``: the verify run's bound, assumptions and
    limits, default ``VerifyContext()``; ``source``: the SCF function, for its ``loom.range`` assumptions)."""
    from loom.map.artifacts import config_bin, map_json
    from loom.map.check import check
    from loom.diagnostics import LoomError
    from loom.map.config import from_bytes
    from loom.map.legalize import refuse_unallowed
    from loom.map.mapper import MapFailure, map_dfg

    start = time.perf_counter()
    try:
        refuse_unallowed(dfg)
    except LoomError as e:  # no fabric has an FU for the op: say so, not 'no compatible function unit'
        return [_ob("map.fit", "fit", False, f"@{dfg.name} does not fit {adg_name}: {e.message}",
                    time.perf_counter() - start, {"fabric": adg_name, "reasons": [e.message], "attempts": 0})]
    try:
        mapping = map_dfg(dfg, adg, seed=seed, budget=budget)
    except MapFailure as e:
        reasons = list(e.reasons) or ["no complete mapping was found"]
        reason = reasons[0] + (f" (and {len(reasons) - 1} more reasons)" if len(reasons) > 1 else "")
        cex = {"fabric": adg_name, "reasons": list(e.reasons), "attempts": e.attempts}
        if e.partial:
            cex["partial"] = {k: e.partial[k] for k in ("routed_edges", "edges", "shared_ports") if k in e.partial}
        return [_ob("map.fit", "fit", False, f"@{dfg.name} does not fit {adg_name}: {reason}",
                    time.perf_counter() - start, cex)]
    doc = json.loads(json.dumps(map_json(mapping, dfg.name, adg_name)))
    words = from_bytes(config_bin(mapping))
    report = check(dfg, adg, words, doc)
    seconds = time.perf_counter() - start
    by_code: dict[str, list[str]] = {}
    for v in report.violations:
        code, _, msg = v.partition(": ")
        by_code.setdefault(code, []).append(msg)
    out = [_ob("map.iso", "decoded configuration isomorphism", report.ok,
               f"config.bin for {adg_name} decodes to a port-preserving isomorphism of @{dfg.name} "
               f"({len(dfg.edges)} edges)" if report.ok else f"the decoded configuration is not @{dfg.name}: "
               f"{report.violations[0]}", seconds,
               {"fabric": adg_name, "seed": seed, "violations": report.violations[:20]})]
    shared = [m.name for m in adg.memories() if m.defn.tagged or m.defn.num_region > 1]  # type: ignore[attr-defined]
    if shared:  # the right tag reaches the right region: the region table checks plus the graph match
        msgs = [v for v in report.violations if any(name in v for name in shared)]
        if not msgs and not report.ok:
            msgs = [f"rests on the decoded-configuration isomorphism, which is refuted: {report.violations[0]}"]
        out.append(_ob("map.regions", "memory regions", not msgs, f"regions: {REGIONS}" if not msgs else
                       f"regions: {msgs[0]}", 0.0, {"fabric": adg_name, "seed": seed, "violations": msgs[:20]}))
    temporal = TEMPORAL_CONSTRAINTS if any(n.kind == "tpe" for n in adg.nodes) else {}
    for code, text in {**CONSTRAINTS, **temporal}.items():
        msgs = by_code.get(code, [])
        out.append(_ob(f"map.{code}", f"checker {code}", not msgs, f"{code}: {text}" if not msgs else f"{code}: {msgs[0]}",
                       0.0, {"fabric": adg_name, "seed": seed, "violations": msgs[:20]}))
    func = function_of(dfg)
    if func is not None:  # the routes' depths: the verifier's bmc on the function the configuration rebuilds
        from loom.map.fifo import fifo_obligations

        out += fifo_obligations(func, adg, words, doc, adg_name, ctx or VerifyContext(), source)
    return out


def function_of(dfg: DFG) -> Optional[Operation]:
    """The handshake.func ``dfg`` was read from (None for a DFG without ops)."""
    for n in dfg.nodes:
        p = n.op.parent_op if n.op is not None else None
        while p is not None and p.name != "handshake.func":
            p = p.parent_op
        if p is not None:
            return p
    return None
