"""Report formats of loom verify: human, JSON (../shared/DESIGN.md shape), JUnit (parsed), SARIF 2.1.0 (structure), exit codes."""

from __future__ import annotations

import io
import json
import xml.etree.ElementTree as ET

import pytest

from loom.ir.location import Location
from loom.verify import VerifyContext, verify_file, verify_function
from loom.verify.obligation import METHODS, NATURES, Obligation
from loom.verify.report import (
    VerifyReport,
    exit_code_of,
    format_counterexample,
    json_of,
    progress_printer,
)
from loom.verify.smt2 import emit_smt2, safe_name

from support.paths import ROOT

SAXPY = ROOT / "examples" / "saxpy.scf.mlir"
MINE = ("lemmas", "structure", "memory")


def _ob(oid, status, kind="memory", cex=None, loc=None, smt2=None, bounded=None):
    return Obligation(oid, kind, status, 0.01, f"{oid} is {status}", cex, loc, smt2, bounded)


def synthetic() -> VerifyReport:
    loc = Location(str(SAXPY), 12, 5)
    return VerifyReport(
        "f",
        str(SAXPY),
        [
            _ob("fsm.gate[index].shape", "proved", "fsm", smt2="(check-sat)\n"),
            _ob(
                "mem.A.order.st3<ld5",
                "refuted",
                cex={
                    "first": {"access": "st3", "iterations": {"%l": 1}},
                    "second": {"access": "ld5", "iterations": {"%l": 1}},
                    "schedule": ["ld5 issues", "st3 issues"],
                },
                loc=loc,
            ),
            _ob("bmc.K4.deadlock", "unknown", "bmc", bounded=4),
        ],
        0.5,
    )


def test_exit_codes():
    p = VerifyReport("f", None, [_ob("a", "proved")])
    r = VerifyReport("g", None, [_ob("a", "proved"), _ob("b", "refuted")])
    u = VerifyReport("h", None, [_ob("a", "unknown"), _ob("b", "proved")])
    assert (p.exit_code(), r.exit_code(), u.exit_code()) == (0, 1, 3)
    assert exit_code_of([p, u]) == 3 and exit_code_of([u, r]) == 1 and exit_code_of([]) == 0


def test_json_has_exactly_the_design_shape():
    doc = synthetic().to_json()
    assert set(doc) == {"obligations", "summary"}
    for o in doc["obligations"]:
        nature = {"nature"} if o["status"] == "refuted" else set()
        assert set(o) == {"id", "kind", "status", "seconds", "detail", "counterexample", "assumes", "method",
                          "rule"} | nature
        assert o["status"] in ("proved", "refuted", "unknown", "assumed", "unchecked")
        assert o["method"] in METHODS and (not nature or o["nature"] in NATURES)
    s = doc["summary"]
    assert (s["total"], s["proved"], s["refuted"], s["unknown"], s["exit_code"]) == (3, 1, 1, 1, 1)
    json.dumps(doc)  # serializable
    import z3

    assert s["tools"] == {"loom": __import__("loom").__version__, "z3": z3.get_version_string()}
    two = json_of([synthetic(), VerifyReport("g", None, [_ob("done.postdom", "proved", "structure")])])
    assert [o["id"] for o in two["obligations"]][-1] == "g:done.postdom"  # unique across functions


def test_junit_parses_and_maps_verdicts():
    root = ET.fromstring(synthetic().to_junit())
    assert root.tag == "testsuites" and root.get("tests") == "3"
    (suite,) = root.findall("testsuite")
    props = {p.get("name"): p.get("value") for p in suite.find("properties")}
    assert set(props) == {"loom.version", "z3.version"}
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == [
        "fsm.gate[index].shape",
        "mem.A.order.st3<ld5",
        "bmc.K4.deadlock",
    ]
    assert cases[0].find("failure") is None and cases[0].find("error") is None
    fail = cases[1].find("failure")
    assert fail is not None and fail.get("type") == "refuted" and "st3" in fail.text
    assert cases[1].get("line") == "12"
    err = cases[2].find("error")
    assert err is not None and err.get("type") == "unknown"
    assert "K=4" in cases[2].find("system-out").text
    assert suite.get("failures") == "1" and suite.get("errors") == "1"


def _check_sarif(doc: dict) -> None:
    """Structural SARIF 2.1.0 checks (the parts code-scanning consumers read)."""
    assert doc["version"] == "2.1.0" and doc["$schema"].endswith("sarif-2.1.0.json")
    (run,) = doc["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] and driver["rules"]
    rule_ids = [r["id"] for r in driver["rules"]]
    assert len(rule_ids) == len(set(rule_ids))
    for res in run["results"]:
        assert res["ruleId"] in rule_ids and rule_ids[res["ruleIndex"]] == res["ruleId"]
        assert res["level"] in ("none", "note", "warning", "error")
        assert res["kind"] in ("pass", "fail", "open")
        assert res["message"]["text"]
        for loc in res.get("locations", []):
            phys = loc["physicalLocation"]
            assert phys["artifactLocation"]["uri"] and "\\" not in phys["artifactLocation"]["uri"]
            if "region" in phys:
                assert phys["region"]["startLine"] >= 1
                assert phys["region"].get("startColumn", 1) >= 1


def test_sarif_structure_and_locations():
    doc = synthetic().to_sarif()
    _check_sarif(doc)
    res = doc["runs"][0]["results"]
    refuted = next(r for r in res if r["kind"] == "fail")
    region = refuted["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (12, 5)
    assert refuted["level"] == "error" and refuted["properties"]["counterexample"]["schedule"]
    assert next(r for r in res if r["kind"] == "open")["level"] == "warning"
    driver = doc["runs"][0]["tool"]["driver"]
    assert set(driver["properties"]["solvers"]) == {"z3"}


def test_human_report_lines_summary_and_counterexample():
    text = synthetic().format_human()
    lines = text.splitlines()
    assert any(line.strip().startswith("proved") and "fsm.gate[index].shape" in line for line in lines)
    assert any("REFUTED" in line and "mem.A.order.st3<ld5" in line for line in lines)
    assert any("unknown" in line and "(up to K=4)" in line for line in lines)
    assert "3 obligations: 1 proved, 1 refuted, 1 unknown" in text
    assert "counterexamples:" in text and "schedule:" in text and "iterations" in text
    assert "st3" in format_counterexample({"first": {"access": "st3"}})


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_printer_only_speaks_on_long_runs_and_on_a_terminal():
    buf = _Terminal()
    quiet = progress_printer(buf, after=3600)
    quiet("lemma x")
    assert buf.getvalue() == ""
    loud = progress_printer(buf, after=0, every=0)
    loud("lemma y")
    assert "lemma y" in buf.getvalue()
    piped = io.StringIO()  # not a terminal: a log or a pipe gets the report only
    progress_printer(piped, after=0, every=0)("lemma z")
    assert piped.getvalue() == ""


def test_a_real_run_reports_in_every_format(tmp_path):
    msgs: list[str] = []
    reports = verify_file(SAXPY, VerifyContext(timeout=30, progress=msgs.append, want_smt2=True))
    (r,) = reports
    assert msgs, "progress callback was called"
    assert r.function == "saxpy" and r.obligations
    mine = [o for o in r.obligations if o.kind in ("fsm", "structure", "memory")]
    assert mine and all(o.status == "proved" for o in mine)
    doc = r.to_json()
    assert doc["summary"]["total"] == len(r.obligations)
    ET.fromstring(r.to_junit())
    _check_sarif(r.to_sarif())
    entries = emit_smt2(reports, tmp_path)
    files = [e for e in entries if e["file"]]
    assert files and all((tmp_path / e["file"]).read_text().rstrip().endswith("(check-sat)") for e in files)
    assert json.loads((tmp_path / "manifest.json").read_text()) == sorted(
        entries, key=lambda e: (e.get("source", ""), e["function"], e["id"])
    )


def test_a_refutation_is_located_at_the_offending_op():
    from support.memory import LOOP, lowered, swap_order

    dfg, src, _ = lowered(LOOP, str(ROOT / "loop.scf.mlir"))
    swap_order(dfg, "a", "ld0", "st0")
    r = verify_function(dfg, VerifyContext(timeout=30), source=src, checkers=MINE)
    assert r.exit_code() == 1
    bad = [o for o in r.obligations if o.status == "refuted"]
    assert [o.id for o in bad] == ["mem.a.order.ld0<st0"]
    res = next(x for x in r.to_sarif()["runs"][0]["results"] if x["kind"] == "fail")
    region = res["locations"][0]["physicalLocation"]["region"]
    store_line = next(i for i, t in enumerate(LOOP.splitlines(), 1) if "memref.store %x" in t)
    assert region["startLine"] == bad[0].loc.line == store_line  # the source's memref.store


def test_timeouts_give_unknown_never_proved():
    from loom.verify.driver import functions_to_verify

    ((func, src),) = functions_to_verify(SAXPY)
    r = verify_function(func, VerifyContext(timeout=1e-6), source=src, checkers=MINE)
    smt = [o for o in r.obligations if o.kind == "fsm" or ".order." in o.id]
    assert smt and all(o.status == "unknown" for o in smt)
    assert r.exit_code() == 3


def test_a_crashing_checker_is_unknown_not_proved(monkeypatch):
    import loom.verify.driver as drv

    def boom(func, ctx, source=None, layout=None):
        raise ZeroDivisionError("bug")

    import loom.verify.memory.order as memory_order

    monkeypatch.setattr(memory_order, "check_memory_order", boom)  # what the registry's memory checker calls
    ((func, src),) = drv.functions_to_verify(SAXPY)
    r = drv.verify_function(func, VerifyContext(), source=src, checkers=("memory",))
    o, *rest = r.obligations
    assert o.id == "internal.memory" and o.status == "unknown" and "ZeroDivisionError" in o.detail
    # the order obligation it would have reported is listed too, unknown with the same reason
    assert rest and all(x.status == "unknown" and "ZeroDivisionError" in x.detail for x in rest)
    assert [x.id for x in rest] == ["mem.y.order"], [x.id for x in rest]


@pytest.mark.parametrize(
    "oid",
    [
        "mem.A.order.st3<ld5",
        "fsm.mux[i1;2;none].balance",
        "mem.indep.A|B",
        "fsm.stream[<<=,>=].terminates",
        "fsm.stream.pre.%index",
    ],
)
def test_smt2_file_names_are_portable(oid):
    name = safe_name(oid)
    assert all(c.isalnum() or c in "._+=,()-" for c in name)
    assert name != safe_name(oid + "x")


def test_verify_files_in_worker_processes_matches_one_process_and_keeps_the_first_error(tmp_path):
    from loom.diagnostics import LoomError
    from loom.verify.driver import verify_files

    ctx = VerifyContext(bmc_k=1, timeout=30)
    paths = [SAXPY, ROOT / "examples" / "dot.scf.mlir", ROOT / "examples" / "tile_scale.scf.mlir"]

    def verdicts(reports):
        return [(r.function, r.file, [(o.id, o.status) for o in r.obligations]) for r in reports]

    assert verdicts(verify_files(paths, ctx, jobs=2)) == verdicts(verify_files(paths, ctx, jobs=1))
    bad = tmp_path / "bad.mlir"
    bad.write_text("func.func @f( {\n")
    with pytest.raises(LoomError) as e:
        verify_files([SAXPY, bad, ROOT / "examples" / "dot.scf.mlir"], ctx, jobs=2)
    assert "bad.mlir" in str(e.value.loc.file)
