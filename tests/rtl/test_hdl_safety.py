"""Safety monitors of the RTL (loom/hdl/monitors/safety.py): the SCF source's undefined cases, labelled with the
IDs ``loom verify`` gives them, checked in co-simulation.

The kernel (tests/data/hdl_safety/safediv.scf.mlir) divides by a loaded value and loads at a loaded index."""

from __future__ import annotations

import json
import random
import re
import subprocess
from pathlib import Path

import pytest

from loom.cli import main
from loom.diagnostics import LoomError
from loom.hdl.emit import emit
from loom.hdl.lint import slang_diagnostics, verilator_lint
from loom.hdl.monitors.safety import DEFINE, substitute
from loom.hdl.rtlsim import run
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.semantics.undefined import _RULES, UbSig, ub_rules
from loom.ir.attributes import OpaqueAttr
from loom.ir.types import IntegerType, index
from loom.sim import simulate

from support.paths import DATA
from support.hdl import EXAMPLES, dfg_func, need

KERNEL = DATA / "hdl_safety" / "safediv.scf.mlir"
SHIFT = """func.func @sh(%a: memref<?xi16>, %i: index, %k: i16) -> i16 {
  %x = memref.load %a[%i] : memref<?xi16>
  %y = arith.shli %x, %k : i16
  %z = arith.remui %y, %k : i16
  return %z : i16
}
"""
RTL_IDS = {"safe.load@9:7.bounds", "safe.load@10:7.bounds", "safe.load@11:7.bounds", "safe.divsi@12:7.divzero",
           "safe.divsi@12:7.overflow", "safe.store@13:7.bounds"}
OK = {"a": [10, -20, 30, 40], "idx": [3, 0, 2], "d": [2, -5, 7], "q": [0, 0, 0]}
DIV0 = {"a": [10, -20, 30, 40], "idx": [3, 0, 2], "d": [2, 0, 7], "q": [0, 0, 0]}
OOB = {"a": [10, -20, 30, 40], "idx": [3, 7, 2], "d": [2, -5, 7], "q": [0, 0, 0]}
OVERFLOW = {"a": [-2147483648, -20, 30, 40], "idx": [0, 1, 2], "d": [-1, 1, 7], "q": [0, 0, 0]}


def _verify_ids(capsys, path: Path) -> dict[str, str]:
    """``loom verify --json``'s safety obligations of ``path``: ID -> status."""
    main(["verify", "--json", str(path)])
    doc = json.loads(capsys.readouterr().out)
    return {o["id"]: o["status"] for o in doc["obligations"] if o["id"].startswith("safe.")}


def _props(e) -> list[dict]:
    return [p for p in json.loads(e.files[f"{e.stem}.props.json"])["properties"] if p["kind"] == "safety"]


@pytest.fixture(scope="module")
def design():
    func, module = dfg_func(KERNEL)
    return func, module, emit(func, "safediv", monitors=False)


def test_monitor_ids_are_loom_verifys_ids(capsys, design):
    """Every bounds/divzero/overflow obligation of the source has its monitor, under exactly its ID; the one
    family without an RTL form here (the loop's step) is the only ID left out."""
    _, _, e = design
    verify = _verify_ids(capsys, KERNEL)
    rtl = {p["obligation"] for p in _props(e)}
    assert rtl == RTL_IDS
    assert set(verify) - rtl == {"safe.for@8:5.step"}
    # the kernel is unsafe: verify refutes the division and the loaded-index load, as the monitors can see
    assert verify["safe.divsi@12:7.divzero"] == "refuted" and verify["safe.load@10:7.bounds"] == "refuted"
    text = e.files["safediv.sv"]
    for p in _props(e):
        label = p["id"].split(".", 1)[1]
        line = text.splitlines()[p["line"] - 1]
        assert line.strip() == f"`LOOM_ASSERT_ALWAYS({label}, !{p['flag']})"
        assert f"// {p['obligation']}" in text
    codes = {p["obligation"]: p["code"] for p in _props(e)}
    assert codes["safe.divsi@12:7.divzero"] == "RT_ARITH_DIV_BY_ZERO"
    assert codes["safe.divsi@12:7.overflow"] == "RT_ARITH_DIV_OVERFLOW"
    assert codes["safe.load@10:7.bounds"] == "RT_MEMREF_OUT_OF_BOUNDS"


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name.split(".")[0])
def test_every_example_has_verifys_ids(path, tmp_path, capsys):
    """``loom hdl`` of each example (with its SCF source, as the CLI emits it): the monitors are exactly verify's
    safety obligations but the loops' steps and the view ops' windows and shapes (subview, reinterpret_cast,
    expand/collapse_shape, cast, copy), which have no RTL form: a DFG folds views into its addresses. tile_scale's
    lowering adds a divui/remui (a flat index split into a 2-D address) at its store's location: they name no
    source op, so no monitor claims an ID verify does not give."""
    assert main(["hdl", str(path), "-o", str(tmp_path)]) == 0
    capsys.readouterr()
    props = json.loads((tmp_path / f"{path.name[:-len('.scf.mlir')]}.props.json").read_text())["properties"]
    rtl = {p["obligation"] for p in props if p["kind"] == "safety"}
    verify = set(_verify_ids(capsys, path))
    views = r"(subview|reinterpret_cast|expand_shape|collapse_shape|cast|copy)@.*\.(bounds|shape)"
    assert rtl == {i for i in verify if not re.match(rf"safe\.(for@.*\.step|{views})$", i)}
    assert rtl


def test_shift_and_remainder_ids(tmp_path, capsys):
    """A shift by an argument and a remainder by it: the shift-width and divisor monitors carry verify's IDs."""
    src = tmp_path / "sh.scf.mlir"
    src.write_text(SHIFT)
    func, _ = dfg_func(src)
    e = emit(func, "sh", monitors=False)
    rtl = {p["obligation"] for p in _props(e)}
    assert rtl == {"safe.load@2:3.bounds", "safe.shli@3:3.shift", "safe.remui@4:3.divzero"}
    assert rtl <= set(_verify_ids(capsys, src))
    flags = {p["obligation"]: p["flag"] for p in _props(e)}
    line = next(ln for ln in e.files["sh.sv"].splitlines() if f"wire {flags['safe.shli@3:3.shift']} =" in ln)
    assert ">= 16'd16" in line


def test_a_dfg_with_debug_info_names_the_source_ops(tmp_path, capsys):
    """``loom compile --debug-info`` keeps each source op's location: ``loom hdl`` of that DFG gives the same IDs.
    Without it the DFG op's own position is the ID's (nothing else to name). Either way they are the IDs ``loom
    verify`` gives the DFG when it checks it without its source."""
    for flag, out in (("--debug-info", tmp_path / "dbg"), (None, tmp_path / "plain")):
        assert main(["compile", str(KERNEL), "-o", str(out)] + ([flag] if flag else [])) == 0
        capsys.readouterr()
        dfg = out / "safediv.dfg.mlir"
        assert main(["hdl", str(dfg), "-o", str(out / "rtl")]) == 0
        capsys.readouterr()
        props = json.loads((out / "rtl" / "safediv.props.json").read_text())["properties"]
        ids = {p["obligation"] for p in props if p["kind"] == "safety"}
        assert ids == set(_verify_ids(capsys, dfg))  # loom verify of the DFG alone states the same obligations
        if flag:
            assert ids == RTL_IDS
        else:
            lines = dfg.read_text().splitlines()
            div = next(k for k, ln in enumerate(lines, 1) if "arith.divsi" in ln)
            assert f"safe.divsi@{div}:{lines[div - 1].index('%') + 1}.divzero" in ids, ids
            assert len(ids) == len(RTL_IDS) and not ids & RTL_IDS


WRAP = """func.func @w(%x: i16, %k: i16) -> i16 {
  %y = arith.addi %x, %k overflow<nsw> : i16
  %z = arith.muli %y, %k overflow<nsw, nuw> : i16
  return %z : i16
}
"""


def test_overflow_flags_wrap_monitors(tmp_path, capsys):
    """``overflow<nsw/nuw>`` ops: their wrap monitors carry verify's IDs, lint clean, and fire in co-simulation
    exactly on the operands that wrap, where the run ends with the SCF interpreter's error (same op, same text)."""
    need("iverilog")
    src = tmp_path / "w.scf.mlir"
    src.write_text(WRAP)
    func, module = dfg_func(src)
    e = emit(func, "w", monitors=False)
    assert {p["obligation"] for p in _props(e)} == {"safe.addi@2:3.wrap", "safe.muli@3:3.wrap"}
    assert {"safe.addi@2:3.wrap", "safe.muli@3:3.wrap"} <= set(_verify_ids(capsys, src))
    if need_verilator():
        for name, text in e.files.items():
            (tmp_path / name).write_text(text)
        assert verilator_lint(tmp_path, e.sv_files, ("LOOM_ASSERTIONS", DEFINE), top=e.design.top) == []
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    fired = {}
    for x, k in ((1, 2), (32767, 1), (100, 400), (-3, 2)):
        raw = {"x": x, "k": k}
        rtl = run(e, decode_inputs(names, types, raw, "<inputs>", module=module), module, simulator="iverilog")
        doc = run_result_json(rtl.status, rtl.results, rtl.memrefs, None, None, rtl.error, func=func)
        scf = _scf(src, raw)
        assert (doc["status"], doc["results"], doc["error"]) == (scf["status"], scf["results"], scf["error"])
        fired[(x, k)] = [(s.obligation, s.code) for s in rtl.safety]
    # 32767 + 1 wraps the add; 100 + 400 = 500 does not wrap, 500 * 400 does (signed and unsigned); -3 + 2 = -1
    # times 2 wraps only unsigned (nuw)
    assert fired == {(1, 2): [], (32767, 1): [("safe.addi@2:3.wrap", "RT_ARITH_OVERFLOW")],
                     (100, 400): [("safe.muli@3:3.wrap", "RT_ARITH_OVERFLOW")],
                     (-3, 2): [("safe.muli@3:3.wrap", "RT_ARITH_OVERFLOW")]}


def need_verilator() -> bool:
    from shutil import which

    return which("verilator") is not None


@pytest.mark.parametrize("config", [(), ("LOOM_ASSERTIONS", DEFINE), ("LOOM_ASSERTIONS", "LOOM_SVA_FULL", DEFINE)],
                         ids=["plain", "yosys", "full"])
def test_verilator_wall_is_clean(tmp_path, design, config):
    need("verilator")
    _, _, e = design
    for name, text in e.files.items():
        (tmp_path / name).write_text(text)
    assert verilator_lint(tmp_path, e.sv_files, config, top=e.design.top) == []


@pytest.mark.parametrize("full", [True, False], ids=["full", "yosys"])
def test_pyslang_has_zero_diagnostics(design, full):
    pytest.importorskip("pyslang")
    _, _, e = design
    assert slang_diagnostics(e.files, full=full, defines=(DEFINE,)) == []


def _scf(path: Path, raw: dict) -> dict:
    """The SCF reference interpreter's document on ``raw`` (the source's meaning: it stops where MLIR is undefined)."""
    from loom.interp import interpret
    from loom.mlir import parse_file

    module = parse_file(path)
    func = next(op for op in module.body.ops if op.name == "func.func")
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    r = interpret(module, func.attributes["sym_name"].value, decode_inputs(names, types, raw, "<inputs>",
                                                                         module=module))
    return run_result_json(r.status, r.results, r.memrefs, None, None, r.error, func=func)


def _cosim(design, raw: dict, **kw):
    func, module, e = design
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    ref = simulate(func, decode_inputs(names, types, raw, "<inputs>", module=module))
    rtl = run(e, decode_inputs(names, types, raw, "<inputs>", module=module), module, **kw)
    doc = lambda r: run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error,  # noqa
                                    func=func)
    return ref, rtl, doc(ref), doc(rtl)


@pytest.mark.parametrize("stall", [None, 5], ids=["nostall", "stall5"])
def test_correct_inputs_trip_no_monitor(design, stall):
    need("iverilog")
    _, rtl, ref_doc, rtl_doc = _cosim(design, OK, stall=stall, simulator="iverilog")
    assert rtl_doc == ref_doc and rtl.status == "completed"
    assert rtl.safety == []


@pytest.mark.parametrize("raw, oid, code", [
    (DIV0, "safe.divsi@12:7.divzero", "RT_ARITH_DIV_BY_ZERO"),
    (OOB, "safe.load@10:7.bounds", "RT_MEMREF_OUT_OF_BOUNDS"),
], ids=["div0", "oob"])
def test_a_violation_trips_its_monitor_and_the_run_reports_its_code(design, raw, oid, code):
    """The monitor fires, and the run ends with the runtime error of the same code, as the token simulator's and
    as the SCF interpreter's (same op)."""
    need("iverilog")
    ref, rtl, ref_doc, rtl_doc = _cosim(design, raw, simulator="iverilog")
    assert [s.obligation for s in rtl.safety] == [oid]
    assert rtl.safety[0].code == code == rtl.error.code == ref.error.code
    assert rtl_doc["status"] == "error" and rtl_doc["error"] == ref_doc["error"]


def test_overflow_ends_the_run_with_the_sources_error(design, tmp_path, capsys, monkeypatch):
    """INT_MIN / -1: only the monitor sees it (the divider wraps), and the run ends there with the error the SCF
    interpreter and the token simulator stop with, at the same op."""
    need("iverilog")
    ref, rtl, ref_doc, rtl_doc = _cosim(design, OVERFLOW, simulator="iverilog")
    scf = _scf(KERNEL, OVERFLOW)
    assert [(s.obligation, s.code) for s in rtl.safety] == [("safe.divsi@12:7.overflow", "RT_ARITH_DIV_OVERFLOW")]
    assert rtl_doc["status"] == scf["status"] == "error"
    assert rtl_doc["error"] == scf["error"] and "RT_ARITH_DIV_OVERFLOW" in scf["error"]
    assert rtl_doc["error"] == ref_doc["error"]  # the token simulator stops there too
    inputs = tmp_path / "ovf.json"
    inputs.write_text(json.dumps(OVERFLOW))
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    assert main(["sim", "--rtl", str(KERNEL), "--inputs", str(inputs)]) == 1
    out = capsys.readouterr()
    assert "RT_ARITH_DIV_OVERFLOW" in out.out
    err = out.err.strip().splitlines()
    assert len(err) == 1 and "[RT_ARITH_DIV_OVERFLOW] safety monitor safe.divsi@12:7.overflow fired" in err[0]
    assert ":12:7: warning:" in err[0]


def test_verilator_asserts_the_monitor_with_its_id(design):
    """With ``LOOM_SAFETY`` the monitor is an assertion: Verilator stops the run and names the obligation's label."""
    need("verilator")
    with pytest.raises(LoomError) as err:
        _cosim(design, DIV0, simulator="verilator", defines=(DEFINE,))
    assert err.value.code == "HDL_ASSERTION"
    assert "ob_safe_divsi_at_12_7_divzero" in str(err.value)


# --------------------------------------------------------------- the rule table's SV against its runtime form
EDGE = [0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65]


def _vectors(w: int, rng: random.Random) -> list[tuple[int, int]]:
    mask = (1 << w) - 1
    edge = sorted({x & mask for x in EDGE + [-1, -2, 1 << (w - 1), (1 << (w - 1)) - 1, (1 << (w - 1)) + 1,
                                               w, w - 1, w + 1]})
    vecs = [(a, b) for a in edge for b in edge]
    return vecs + [(rng.getrandbits(w), rng.getrandbits(w)) for _ in range(40)]


def test_rule_sv_agrees_with_the_runtime_rule(tmp_path):
    """Every rule with an SV form (the wrap rules with each overflow flag set), at widths 1, 8, 16, 32, 64 and index,
    on edge and random operands: the SV condition (simulated with iverilog) holds exactly where the interpreter's
    ``holds`` does."""
    need("iverilog")
    rng = random.Random(24)
    cases = []  # (name, width, sv, a, b, want)
    flags = [{}] + [{"overflowFlags": OpaqueAttr(f"#arith.overflow<{f}>")} for f in ("nsw", "nuw", "nsw, nuw")]
    for name in sorted(_RULES):
        for t in (IntegerType(1), IntegerType(8), IntegerType(16), IntegerType(32), IntegerType(64), index):
            for attrs in flags:
                rules, sig = ub_rules(name, attrs, [t, t], [t])
                for r in rules:
                    if r.sv is None or (attrs and r.what != "wrap"):
                        continue
                    w = sig.width
                    for a, b in _vectors(w, rng):
                        cases.append((f"{name}.{r.what}{sorted(sig.flags())}", w, r.sv(sig), a, b,
                                      r.holds([a, b], sig)))
    kinds = {c[0] for c in cases}
    assert kinds >= {"arith.divsi.divzero[]", "arith.divsi.overflow[]", "arith.shli.shift[]", "arith.remui.divzero[]",
                     "arith.ceildivsi.overflow[]"}
    for op in ("addi", "subi", "muli", "shli"):
        assert {f"arith.{op}.wrap{f}" for f in (["nsw"], ["nuw"], ["nsw", "nuw"])} <= kinds
    lines = ["module t;", "  initial begin"]
    for k, (_, w, sv, a, b, _) in enumerate(cases):
        cond = substitute(sv, f"{w}'h{a:x}", f"{w}'h{b:x}")
        lines.append(f'    $display("%0d %0d", {k}, ({cond}) ? 1 : 0);')
    lines += ["  end", "endmodule"]
    (tmp_path / "t.sv").write_text("\n".join(lines) + "\n")
    subprocess.run(["iverilog", "-g2012", "-o", str(tmp_path / "t.vvp"), str(tmp_path / "t.sv")], check=True)
    out = subprocess.run(["vvp", "-n", str(tmp_path / "t.vvp")], capture_output=True, text=True, check=True).stdout
    got = {int(k): v == "1" for k, v in (ln.split() for ln in out.splitlines() if ln.strip())}
    assert len(got) == len(cases)
    bad = [(c[0], c[1], c[3], c[4], c[5]) for k, c in enumerate(cases) if got[k] != c[5]]
    assert bad == []
    assert any(c[5] for c in cases) and not all(c[5] for c in cases)


def test_substitution_leaves_literals_alone():
    assert substitute("b != 1'b0", "x", "y") == "(y) != 1'b0"
    assert substitute("a == 8'h80 && b == 8'hff", "p", "q") == "(p) == 8'h80 && (q) == 8'hff"
    assert UbSig("arith.divsi", {}, (IntegerType(8), IntegerType(8)), (IntegerType(8),)).width == 8


def test_inlined_copies_each_name_their_own_id(tmp_path, capsys):
    """A helper inlined twice gives two ops at one C position: verify numbers the second copy's IDs ``#2``, and the
    RTL monitors carry the same numbering (program order), so a division by zero in the second call only trips
    the monitor of ``safe.divsi@3:59.divzero#2``, the obligation verify refutes for that copy."""
    need("iverilog")
    src = DATA / "hdl_safety" / "inline_div.c"  # not in data/c: a zero divisor crashes the native oracle
    func, module = dfg_func(src)
    e = emit(func, "inline_div", monitors=False)
    rtl = sorted(p["obligation"] for p in _props(e))
    verify = _verify_ids(capsys, src)
    assert rtl == sorted(verify) and len(rtl) == 6
    assert {i for i in rtl if i.endswith("#2")} == {"safe.load@3:54.bounds#2", "safe.divsi@3:59.divzero#2",
                                                   "safe.divsi@3:59.overflow#2"}
    raw = {"a": [7, 9, 4], "i": 0, "d": 2, "e": 0}
    _, run_rtl, _, _ = _cosim((func, module, e), raw, simulator="iverilog")
    assert [s.obligation for s in run_rtl.safety] == ["safe.divsi@3:59.divzero#2"]
