"""``VerifyReport``: the obligations of one verified function, and every output format of ``loom verify``.

Formats (../shared/DESIGN.md): the human report (one line per obligation: verdict, id,
seconds; a summary; a readable counterexample for each refutation), ``to_json``
(``{"obligations": [{"id", "kind", "status", "seconds", "detail",
"counterexample"}], "summary": {...}}``), ``to_junit`` (one testcase per
obligation; a refutation is a ``<failure>``, an inconclusive result an
``<error type="unknown">`` so that no CI counts it as passed), ``to_sarif`` (SARIF
2.1.0, results located at the obligation's source op) and ``exit_code`` (0 all
proved, 1 any refuted, 3 any unknown and none refuted). Several reports (several
files or functions) combine with the module-level ``*_of`` functions; their
obligation ids are then prefixed with ``<function>:`` so they stay unique.
"""

from __future__ import annotations

import json
import sys
import time
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Optional, TextIO

from loom.verify.obligation import STATUSES, Obligation
from loom.verify.versions import tool_versions

EXIT_PROVED, EXIT_REFUTED, EXIT_UNKNOWN = 0, 1, 3
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
TOOL_URI = "https://github.com/loom-dataflow/loom"
KIND_RULES = {
    "fsm": "Operator lemma: an operator table meets its contract for unbounded token sequences",
    "length": "Stream length: a channel carries the N or N+1 tokens its role requires",
    "balance": "Balance: every channel's produced and consumed token counts agree",
    "memory": "Memory ordering: accesses of one domain run in program order, domains stay independent",
    "structure": "Ctrl-done structure: access wiring and completion of the ctrl-done network",
    "bmc": "Bounded model check of the whole network (up to K trips)",
    "refinement": "Refinement: the DFG computes what its SCF source computes (loops, accesses, results)",
    "mapping": "Mapping: the decoded fabric configuration implements the DFG under the hard constraints",
}


@dataclass
class VerifyReport:
    """The verdicts for one handshake.func."""

    function: str
    file: Optional[str]
    obligations: list[Obligation] = field(default_factory=list)
    seconds: float = 0.0
    assumptions: list[str] = field(default_factory=list)  # what legal inputs are; every verdict holds under them
    # the limits the verdicts were reached under (``VerifyContext.limits``): rlimit, max_states, bmc_k, timeout,
    # budget -- the deterministic ones always, the wall-clock ones None unless given
    limits: dict = field(default_factory=dict)
    # which unit of a ``loom.verify.parallel`` run gave which obligations, in order: (unit index, checker,
    # obligations, seconds); ``loom report merge`` joins shards by it (not part of any report format)
    units: list = field(default_factory=list)

    # -- verdicts --
    def counts(self) -> dict[str, int]:
        c = dict.fromkeys(STATUSES, 0)
        for o in self.obligations:
            c[o.status] = c.get(o.status, 0) + 1
        return c

    def exit_code(self) -> int:
        """0 when every obligation is proved, 1 when one is refuted, 3 when one is unknown and none refuted."""
        return exit_code_of([self])

    def summary(self) -> dict:
        c = self.counts()
        by_kind: dict[str, dict[str, int]] = {}
        for o in self.obligations:
            by_kind.setdefault(o.kind, dict.fromkeys(STATUSES, 0))[o.status] += 1
        return {
            "function": self.function,
            "file": self.file,
            "total": len(self.obligations),
            **c,
            "bounded": sum(1 for o in self.obligations if o.bounded is not None),
            "by_kind": by_kind,
            "seconds": round(self.seconds, 6),
            "exit_code": self.exit_code(),
            "assumptions": list(self.assumptions),
            "limits": dict(self.limits),
        }

    # -- formats --
    def to_json(self) -> dict:
        return json_of([self])

    def to_junit(self) -> str:
        return junit_of([self])

    def to_sarif(self) -> dict:
        return sarif_of([self])

    def format_human(self, verbose: bool = False) -> str:
        return human_of([self], verbose)


# ----------------------------------------------------------------------------- combination


def exit_code_of(reports: Iterable[VerifyReport]) -> int:
    statuses = {o.status for r in reports for o in r.obligations}
    if "refuted" in statuses:
        return EXIT_REFUTED
    if "unknown" in statuses:
        return EXIT_UNKNOWN
    return EXIT_PROVED


def _tagged(reports: list[VerifyReport]) -> list[tuple[VerifyReport, Obligation, str]]:
    prefix = len(reports) > 1
    return [(r, o, f"{r.function}:{o.id}" if prefix else o.id) for r in reports for o in r.obligations]


def _json_safe(x):
    """Counterexamples must be JSON: anything else becomes its string."""
    try:
        json.dumps(x)
        return x
    except (TypeError, ValueError):
        if isinstance(x, dict):
            return {str(k): _json_safe(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [_json_safe(v) for v in x]
        return str(x)


def json_of(reports: list[VerifyReport]) -> dict:
    """The ../shared/DESIGN.md ``--json`` document for one or more reports."""
    obligations = [
        {
            "id": oid,
            "kind": o.kind,
            "status": o.status,
            "seconds": round(o.seconds, 6),
            "detail": o.detail,
            "counterexample": _json_safe(o.counterexample) if o.counterexample is not None else None,
            "assumes": list(o.assumes),
            **_how(o),
        }
        for _, o, oid in _tagged(reports)
    ]
    counts = dict.fromkeys(STATUSES, 0)
    for _, o, _ in _tagged(reports):
        counts[o.status] += 1
    summary = {
        "total": len(obligations),
        **counts,
        "bounded": sum(1 for r in reports for o in r.obligations if o.bounded is not None),
        "seconds": round(sum(r.seconds for r in reports), 6),
        "exit_code": exit_code_of(reports),
        "functions": [r.summary() for r in reports],
        "limits": _run_limits(reports),
    }
    summary["tools"] = tool_versions()  # the pinned solver that decided these verdicts
    return {"obligations": obligations, "summary": summary}


def _run_limits(reports: list[VerifyReport]) -> dict:
    """The limits of a run: its functions' (one ``loom verify`` run gives them all the same); {} when none
    is recorded."""
    return dict(reports[0].limits) if reports else {}


def _how(o: Obligation) -> dict:
    """How ``o`` was decided (``method``, ``rule``) and, for a refutation, whether it is a behaviour or a
    spec rule (``nature``)."""
    out = {"method": o.method, "rule": o.rule}
    if o.status == "refuted":
        out["nature"] = o.nature or "behaviour"
    return out


def junit_of(reports: list[VerifyReport], rtl: Optional[list] = None) -> str:
    """JUnit XML: one ``<testsuite>`` per function, one ``<testcase>`` per obligation; with ``rtl`` (``verify
    --rtl``'s ``RtlReport``s) one more suite per function of RTL checks (``loom.hdl.formal.verify.junit_suites``)."""
    root = ET.Element("testsuites", name="loom verify")
    tot = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    prefix = len(reports) > 1
    for r in reports:
        c = r.counts()
        suite = _junit_suite(root, r, c)
        for o in r.obligations:
            _junit_case(suite, r, o, prefix)
        tot["tests"] += len(r.obligations)
        tot["failures"] += c["refuted"]
        tot["errors"] += c["unknown"]
        tot["skipped"] += c["assumed"] + c["unchecked"]
    if rtl:
        from loom.hdl.formal.verify import junit_suites

        for suite in junit_suites(rtl):
            root.append(suite)
            for k in tot:
                tot[k] += int(suite.get(k, "0"))
    for k, v in tot.items():
        root.set(k, str(v))
    root.set("time", f"{sum(r.seconds for r in reports):.6f}")
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def _junit_suite(root: ET.Element, r: VerifyReport, c: dict) -> ET.Element:
    """One function's ``<testsuite>`` with its counts and properties (tool versions, assumptions, limits)."""
    suite = ET.SubElement(
        root,
        "testsuite",
        name=f"loom.verify.{r.function}",
        tests=str(len(r.obligations)),
        failures=str(c["refuted"]),
        errors=str(c["unknown"]),
        skipped=str(c["assumed"] + c["unchecked"]),
        time=f"{r.seconds:.6f}",
    )
    if r.file:
        suite.set("file", r.file)
    props = ET.SubElement(suite, "properties")
    for tool, version in tool_versions().items():
        ET.SubElement(props, "property", name=f"{tool}.version", value=version)
    for k, a in enumerate(r.assumptions):
        ET.SubElement(props, "property", name=f"assume.{k}", value=a)
    for name, value in r.limits.items():
        if value is not None:
            ET.SubElement(props, "property", name=f"limit.{name}", value=f"{value:g}" if isinstance(value, float)
                          else str(value))
    return suite


def _junit_case(suite: ET.Element, r: VerifyReport, o: Obligation, prefix: bool) -> None:
    """One obligation's ``<testcase>``: its location, how it was decided, its verdict and notes."""
    case = ET.SubElement(
        suite,
        "testcase",
        name=f"{r.function}:{o.id}" if prefix else o.id,
        classname=f"loom.verify.{r.function}.{o.kind}",
        time=f"{o.seconds:.6f}",
    )
    if o.loc is not None and o.loc.line > 0:
        case.set("file", o.loc.file)
        case.set("line", str(o.loc.line))
    props = ET.SubElement(case, "properties")
    for key, value in _how(o).items():
        ET.SubElement(props, "property", name=key, value=value)
    if o.status == "refuted":
        f = ET.SubElement(case, "failure", message=o.detail, type="refuted")
        f.text = format_counterexample(o.counterexample) if o.counterexample else o.detail
    elif o.status == "unknown":
        e = ET.SubElement(case, "error", message=o.detail, type="unknown")
        e.text = o.detail
    elif o.status == "assumed":
        ET.SubElement(case, "skipped", message=f"assumed, not checked: {o.detail}")
    elif o.status == "unchecked":
        ET.SubElement(case, "skipped", message=o.detail)
    notes = []
    if o.bounded is not None:
        notes.append(f"bounded: holds for trip counts up to K={o.bounded}")
    if o.assumes:
        notes.append(f"assumes: {'; '.join(o.assumes)}")
    if notes:
        ET.SubElement(case, "system-out").text = "\n".join(notes)


def _artifact(path: str) -> str:
    """A SARIF artifact URI: relative to the working directory when possible, with forward slashes."""
    p = Path(path)
    try:
        p = p.resolve().relative_to(Path.cwd().resolve())
    except (ValueError, OSError):
        pass
    return p.as_posix()


def sarif_of(reports: list[VerifyReport], rtl: Optional[list] = None) -> dict:
    """A SARIF 2.1.0 log with one result per obligation (pass, fail or open); with ``rtl`` (``verify --rtl``'s
    ``RtlReport``s) one more per RTL check, rule ``loom.rtl`` (``loom.hdl.formal.verify.sarif_results``)."""
    kinds = sorted({o.kind for r in reports for o in r.obligations} | set(KIND_RULES))
    rules = [
        {
            "id": f"loom.{k}",
            "name": k,
            "shortDescription": {"text": KIND_RULES.get(k, k)},
            "defaultConfiguration": {"level": "error"},
        }
        for k in kinds
    ]
    index = {f"loom.{k}": i for i, k in enumerate(kinds)}
    results = [_sarif_result(r, o, oid, index) for r, o, oid in _tagged(reports)]
    if rtl:
        from loom.hdl.formal.verify import SARIF_RULE, sarif_results

        rules.append(SARIF_RULE)
        results += sarif_results(rtl, len(rules) - 1)
    artifacts = sorted({r.file for r in reports if r.file})
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "loom-verify",
                        "informationUri": TOOL_URI,
                        "version": tool_versions()["loom"],
                        "properties": {"solvers": {k: v for k, v in tool_versions().items() if k != "loom"}},
                        "rules": rules,
                    }
                },
                "artifacts": [{"location": {"uri": _artifact(a)}} for a in artifacts],
                "properties": {"assumptions": {r.function: list(r.assumptions) for r in reports},
                               "limits": _run_limits(reports)},
                "results": results,
            }
        ],
    }


def _sarif_result(r: VerifyReport, o: Obligation, oid: str, index: dict[str, int]) -> dict:
    """One obligation's SARIF result: its rule, level and kind by verdict, properties and location."""
    level, kind = {
        "proved": ("none", "pass"),
        "refuted": ("error" if _how(o).get("nature") == "behaviour" else "warning", "fail"),
        "unknown": ("warning", "open"),
        "assumed": ("note", "review"),
        "unchecked": ("note", "notApplicable"),
    }[o.status]
    res = {
        "ruleId": f"loom.{o.kind}",
        "ruleIndex": index[f"loom.{o.kind}"],
        "kind": kind,
        "level": level,
        "message": {"text": f"{oid}: {o.detail}"},
        "partialFingerprints": {"obligationId": oid},
        "properties": {
            "obligation": oid,
            "status": o.status,
            "seconds": round(o.seconds, 6),
            "function": r.function,
            **_how(o),
        },
    }
    if o.bounded is not None:
        res["properties"]["bounded"] = o.bounded
    if o.assumes:
        res["properties"]["assumes"] = list(o.assumes)
    if o.counterexample is not None:
        res["properties"]["counterexample"] = _json_safe(o.counterexample)
    loc = _location(o, r)
    if loc is not None:
        res["locations"] = [loc]
    return res


def _location(o: Obligation, r: VerifyReport) -> Optional[dict]:
    loc = o.loc
    if loc is not None and loc.line > 0 and loc.file and not loc.file.startswith("<"):
        region = {"startLine": loc.line}
        if loc.col > 0:
            region["startColumn"] = loc.col
        return {"physicalLocation": {"artifactLocation": {"uri": _artifact(loc.file)}, "region": region}}
    if r.file:
        return {"physicalLocation": {"artifactLocation": {"uri": _artifact(r.file)}}}
    return None


# ----------------------------------------------------------------------------- human output


def format_counterexample(cex: dict, indent: str = "    ") -> str:
    """A readable multi-line rendering of a counterexample dict."""
    lines = []
    order = [
        "op",
        "channel",
        "domain",
        "trip_counts",
        "branches",
        "first",
        "second",
        "iterations",
        "operands",
        "arguments",
        "reason",
        "schedule",
        "channel_path",
        "trace",
        "token_trace",
    ]
    keys = [k for k in order if k in cex] + sorted(k for k in cex if k not in order)
    for k in keys:
        v = cex[k]
        label = k.replace("_", " ")
        if isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
            lines.append(f"{indent}{label}:")
            for i, x in enumerate(v):
                lines.append(f"{indent}  {i + 1}. " + ", ".join(f"{a}={_short(b)}" for a, b in x.items()))
        elif isinstance(v, list):
            lines.append(f"{indent}{label}:")
            lines += [f"{indent}  - {_short(x)}" for x in v]
        elif isinstance(v, dict):
            lines.append(f"{indent}{label}: " + ", ".join(f"{a}={_short(b)}" for a, b in v.items()))
        else:
            lines.append(f"{indent}{label}: {v}")
    return "\n".join(lines)


def _short(x) -> str:
    if isinstance(x, (dict, list)):
        return json.dumps(_json_safe(x), sort_keys=True)
    return str(x)


def human_of(reports: list[VerifyReport], verbose: bool = False, quiet: bool = False) -> str:
    """One line per obligation, a summary per function and overall, and every refutation explained.

    ``quiet``: only the obligations that are not proved, with the summaries and counterexamples.
    """
    out = []
    width = max([len(o.id) for r in reports for o in r.obligations] + [20])
    for r in reports:
        where = f"{r.file} " if r.file else ""
        out.append(f"loom verify: {where}@{r.function}")
        for a in r.assumptions:
            out.append(f"  assuming {a}")
        for o in r.obligations:
            if quiet and o.status == "proved":
                continue
            tag = {"proved": "proved ", "refuted": "REFUTED", "unknown": "unknown", "assumed": "assumed",
                   "unchecked": "skipped"}[o.status]
            bound = f"  (up to K={o.bounded})" if o.bounded is not None else ""
            if o.assumes:
                bound += f"  (if {' and '.join(o.assumes)})"
            line = f"  {tag}  {o.id:<{width}}  {o.seconds:8.3f}s{bound}  [{o.how()}]"
            if o.status == "refuted":
                line += f" ({_how(o)['nature']})"
            if verbose or o.status != "proved":
                line += f"  {o.detail}"
            out.append(line)
        c = r.counts()
        assumed = f", {c['assumed']} assumed" if c["assumed"] else ""
        out.append(
            f"  {len(r.obligations)} obligations: {c['proved']} proved, {c['refuted']} refuted, "
            f"{c['unknown']} unknown{assumed}{_unchecked(c)} ({r.seconds:.2f} s)"
        )
        refuted = [o for o in r.obligations if o.status == "refuted"]
        if refuted:
            out.append("  counterexamples:")
            for o in refuted:
                where = f" at {o.loc}" if o.loc is not None and o.loc.line > 0 else ""
                out.append(f"  - {o.id}{where} ({_how(o)['nature']}): {o.detail}")
                if o.counterexample:
                    out.append(format_counterexample(o.counterexample))
    if len(reports) > 1:
        total = dict.fromkeys(STATUSES, 0)
        for r in reports:
            for k, v in r.counts().items():
                total[k] += v
        out.append(
            f"total: {sum(total.values())} obligations in {len(reports)} functions: {total['proved']} proved, "
            f"{total['refuted']} refuted, {total['unknown']} unknown{_unchecked(total)}"
            + (f", {total['assumed']} assumed" if total["assumed"] else "")
        )
    return "\n".join(out) + "\n"


def _unchecked(counts: dict) -> str:
    return f", {counts['unchecked']} not checked" if counts.get("unchecked") else ""


def progress_printer(
    stream: TextIO = sys.stderr, after: float = 2.0, every: float = 1.0
) -> Callable[[str], None]:
    """A ``VerifyContext.progress`` callback that prints only on long runs: after ``after`` s, at most every ``every`` s.

    Only on a terminal: redirected to a file or a pipe (CI logs, ``2>&1``) progress would mix with the report.
    """
    if not (hasattr(stream, "isatty") and stream.isatty()):
        return lambda msg: None
    start = time.monotonic()
    state = {"last": 0.0, "n": 0}

    def report(msg: str) -> None:
        state["n"] += 1
        now = time.monotonic() - start
        if now >= after and now - state["last"] >= every:
            state["last"] = now
            print(f"[{now:6.1f}s] #{state['n']} {msg}", file=stream, flush=True)

    return report


def without_seconds(doc):
    """A ``--json`` document with every ``seconds`` field zeroed: what two runs of the same input (any ``--jobs``,
    any sharding, any load) must agree on byte for byte."""
    if isinstance(doc, dict):
        return {k: 0 if k == "seconds" else without_seconds(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [without_seconds(v) for v in doc]
    return doc
