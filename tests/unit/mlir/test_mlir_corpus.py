"""Every real corpus file parses, verifies and round-trips through the printer."""

from __future__ import annotations

from pathlib import Path

import pytest

from loom.ir.attributes import StringAttr
from loom.ir.equality import modules_equal
from loom.mlir import parse_file, parse_text, print_module

from support.paths import SHARED

CORPUS = sorted((SHARED / "corpus" / "loom-legacy").glob("*.mlir")) + sorted(
    (SHARED / "corpus" / "loom-fabric").glob("*.dfg.mlir")
)


@pytest.mark.shared
def test_corpus_is_present():
    assert len(CORPUS) >= 12, f"corpus files missing under {SHARED}"


@pytest.fixture(scope="module")
def parsed():
    return {p.name: parse_file(p) for p in CORPUS}


@pytest.mark.shared
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_round_trip_and_fixed_point(path: Path, parsed):
    module = parsed[path.name]
    text = print_module(module)
    again = parse_text(text, "printed.mlir")
    assert modules_equal(module, again)
    assert print_module(again) == text


@pytest.mark.shared
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.name)
def test_functions_have_the_expected_shape(path: Path, parsed):
    module = parsed[path.name]
    funcs = module.functions()
    assert funcs, "every corpus file holds at least one function"
    for f in funcs:
        assert isinstance(f.attributes["sym_name"], StringAttr)
        body = f.regions[0].entry
        assert body.terminator is not None
        assert body.terminator.name == ("func.return" if f.name == "func.func" else "handshake.return")
        # bare names inside handshake.func are stored qualified
        for op in f.walk():
            assert "." in op.name


@pytest.mark.shared
@pytest.mark.parametrize("path", [p for p in CORPUS if p.parent.name == "loom-legacy"], ids=lambda p: p.name)
def test_legacy_files_hold_scf_and_dfg(path: Path, parsed):
    names = {f.name for f in parsed[path.name].functions()}
    assert names == {"func.func", "handshake.func"}


@pytest.mark.shared
def test_legacy_stop_cond_becomes_cont_cond_with_a_warning(capsys):
    path = SHARED / "corpus" / "loom-legacy" / "vecadd.mlir"
    module = parse_file(path)
    streams = [op for op in module.walk() if op.name == "dataflow.stream"]
    assert streams
    for op in streams:
        assert "stop_cond" not in op.attributes
        assert op.attributes["cont_cond"] == StringAttr("!=")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == len(streams)
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "dataflow.stream" in t)
    assert err[0].startswith(f"{path}:{line}:5: warning:")
    assert "'stop_cond'" in err[0] and "'cont_cond'" in err[0]


@pytest.mark.shared
def test_cont_cond_is_printed_back(parsed):
    lines = [t for t in print_module(parsed["vecadd.mlir"]).splitlines() if "dataflow.stream" in t]
    assert len(lines) == 1
    assert 'cont_cond = "!="' in lines[0] and "stop_cond" not in lines[0]


@pytest.mark.shared
def test_graph_region_forward_reference_resolves(parsed):
    module = parsed["sw2-pe1-extmem1.dfg.mlir"]
    func = module.functions()[0]
    load, mem = func.regions[0].entry.ops[:2]
    assert load.name == "handshake.load" and mem.name == "handshake.extmemory"
    # %memif#0 is used by the load before the extmemory defines it
    assert load.operands[1] is mem.results[0]
    assert mem.operands[1] is load.results[1]
