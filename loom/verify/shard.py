"""``loom verify --shard I/N`` documents and ``loom report merge``: a large run spread over machines.

A shard document is the reports of the units one shard verified, each obligation in full (location, bound,
SMT-LIB2 script), with the unit that gave it. Merging the N shards of one run puts every unit back in its place
and gives the reports an unsharded run gives (``loom.verify.parallel``: each unit runs in a process of its own,
so a unit's verdicts do not depend on which shard ran it).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from loom.diagnostics import LoomError
from loom.ir.location import Location
from loom.verify.driver import mark_partial
from loom.verify.obligation import Obligation
from loom.verify.report import VerifyReport, _json_safe

FORMAT = "loom-verify-shard/1"
MERGE_ERROR = "VERIFY_SHARD_MERGE"


def _loc(loc: Optional[Location]) -> Optional[list]:
    return None if loc is None else [loc.file, loc.line, loc.col, loc.text]


def _unloc(x: Optional[list]) -> Optional[Location]:
    return None if x is None else Location(x[0], x[1], x[2], x[3])


def obligation_record(o: Obligation) -> dict:
    """Everything an ``Obligation`` holds, as JSON."""
    return {"id": o.id, "kind": o.kind, "status": o.status, "seconds": o.seconds, "detail": o.detail,
            "counterexample": _json_safe(o.counterexample) if o.counterexample is not None else None,
            "loc": _loc(o.loc), "smt2": o.smt2, "bounded": o.bounded, "assumes": list(o.assumes),
            "method": o.method, "rule": o.rule, "nature": o.nature}


def obligation_of(d: dict) -> Obligation:
    """The ``Obligation`` an ``obligation_record`` describes."""
    return Obligation(d["id"], d["kind"], d["status"], d["seconds"], d["detail"], d["counterexample"],
                      _unloc(d["loc"]), d["smt2"], d["bounded"], tuple(d["assumes"]), d["method"], d["rule"],
                      d["nature"])


def shard_document(reports: list[VerifyReport], index: int, count: int) -> dict:
    """Shard ``index`` of ``count``: every function's report header and the units this shard verified."""
    out = []
    for r in reports:
        units, at = [], 0
        for unit, checker, n, seconds in r.units:
            units.append({"unit": unit, "checker": checker, "seconds": seconds,
                          "obligations": [obligation_record(o) for o in r.obligations[at:at + n]]})
            at += n
        out.append({"function": r.function, "file": r.file, "assumptions": list(r.assumptions),
                    "limits": dict(r.limits), "units": units})
    return {"format": FORMAT, "shard": [index, count], "reports": out}


def _header(d: dict) -> tuple:
    return d["function"], d["file"], tuple(d["assumptions"]), json.dumps(d["limits"], sort_keys=True)


def merge(docs: list[tuple[str, dict]]) -> list[VerifyReport]:
    """The reports of the run whose shards ``docs`` (name, document) are: every shard 0..N-1 exactly once,
    all of one run (the same functions, assumptions and limits), else a ``LoomError``."""
    if not docs:
        raise LoomError("no shard to merge", None, MERGE_ERROR)
    for name, d in docs:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise LoomError("not a loom verify shard document (written by `loom verify --shard I/N`)",
                            Location(name, 1, 1), MERGE_ERROR)
    count = docs[0][1]["shard"][1]
    seen = sorted(d["shard"][0] for _, d in docs)
    if any(d["shard"][1] != count for _, d in docs) or seen != list(range(count)):
        got = ", ".join(f"{i}/{d['shard'][1]}" for i, (_, d) in zip(seen, docs))
        raise LoomError(f"the shards must be 0/N .. N-1/N of one run, each once (got {got})",
                        Location(docs[0][0], 1, 1), MERGE_ERROR)
    headers = [_header(r) for r in docs[0][1]["reports"]]
    for name, d in docs[1:]:
        if [_header(r) for r in d["reports"]] != headers:
            raise LoomError(f"{name} is a shard of another run (other functions, assumptions or limits) than "
                            f"{docs[0][0]}", Location(name, 1, 1), MERGE_ERROR)
    reports = []
    for k, head in enumerate(docs[0][1]["reports"]):
        units = sorted((u for _, d in docs for u in d["reports"][k]["units"]), key=lambda u: u["unit"])
        obs = [obligation_of(o) for u in units for o in u["obligations"]]
        r = VerifyReport(head["function"], head["file"], mark_partial(obs), sum(u["seconds"] for u in units),
                         assumptions=list(head["assumptions"]), limits=dict(head["limits"]))
        r.units = [(u["unit"], u["checker"], len(u["obligations"]), u["seconds"]) for u in units]
        reports.append(r)
    return reports


def read_shards(paths: list[Path]) -> list[tuple[str, dict]]:
    """Each shard file's name and document (a located ``LoomError`` for one that is not JSON)."""
    from loom.sourcefile import read_text

    out = []
    for p in paths:
        text = read_text(p)
        try:
            out.append((str(p), json.loads(text)))
        except json.JSONDecodeError as e:
            raise LoomError(f"not a loom verify shard document: {e.msg}", Location(str(p), e.lineno, e.colno),
                            MERGE_ERROR) from None
    return out
