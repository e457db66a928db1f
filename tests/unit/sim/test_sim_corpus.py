"""The simulator on every corpus handshake.func, with generated inputs, checked against the SCF interpreter.

What the simulator reports per function (status, residual tokens, whether the
memory/results agree with the reference) is recorded in FINDINGS below and in
the table at the end of specs/semantics.md. A deadlock here is a finding about
the legacy LOOM output, not something to hide: the test fails if the
simulator's verdict changes, so any change is looked at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest


from loom.ir.core import Module
from loom.mlir import parse_file
from loom.runtime import decode_inputs, function_arg_names
from loom.sim import simulate
from loom.sim.engine import run
from loom.sim.network import build_network

from support.paths import ROOT
from support.sim_corpus import CORPUS, INPUTS, TRIP_COUNTS, agrees, func_named, inputs_for, reference

DOC = ROOT / "specs" / "semantics.md"


# (file, function, run) -> (status, residual tokens, agrees with the reference or None when there is none)
FINDINGS: dict[tuple[str, str, str], tuple[str, int, Optional[bool]]] = {
    ("dataflow-flowops.dfg.mlir", "dataflow_flowops_test", "inputs"): ("completed", 4, None),
    ("sw2-pe1-extmem1.dfg.mlir", "tiny_load", "inputs"): ("completed", 0, True),
    ("binary_search.mlir", "_Z17binary_search_dsaPKfS0_Pjjj", "inputs"): ("deadlock", 52, False),
    ("binary_search.mlir", "_Z17binary_search_dsaPKfS0_Pjjj", "zero-trip"): ("completed", 20, True),
    ("crc32.mlir", "_Z9crc32_dsaPKjPjj", "inputs"): ("deadlock", 68, False),
    ("crc32.mlir", "_Z9crc32_dsaPKjPjj", "zero-trip"): ("completed", 11, True),
    ("cumsum.mlir", "_Z10cumsum_dsaPKfPfj", "inputs"): ("deadlock", 6, True),
    ("cumsum.mlir", "_Z10cumsum_dsaPKfPfj", "zero-trip"): ("completed", 4, True),
    ("dotprod.mlir", "_Z11dotprod_dsaPKfS0_i", "inputs"): ("deadlock", 45, False),
    ("dotprod.mlir", "_Z11dotprod_dsaPKfS0_i", "zero-trip"): ("completed", 7, True),
    ("dotprod.mlir", "_Z13vecmul_kernelPKfS0_Pfi", "inputs"): ("deadlock", 9, True),
    ("dotprod.mlir", "_Z13vecmul_kernelPKfS0_Pfi", "zero-trip"): ("completed", 2, True),
    ("dotprod.mlir", "_Z13vecsum_kernelPKfPfi", "inputs"): ("deadlock", 5, True),
    ("dotprod.mlir", "_Z13vecsum_kernelPKfPfi", "zero-trip"): ("completed", 5, True),
    ("fir_filter.mlir", "_Z14fir_filter_dsaPKfS0_Pfjj", "inputs"): ("deadlock", 146, False),
    ("fir_filter.mlir", "_Z14fir_filter_dsaPKfS0_Pfjj", "zero-trip"): ("completed", 18, True),
    ("gather.mlir", "_Z10gather_dsaPKjS0_Pjjj", "inputs"): ("deadlock", 59, False),
    ("gather.mlir", "_Z10gather_dsaPKjS0_Pjjj", "zero-trip"): ("completed", 4, True),
    ("matmul.mlir", "_Z10matmul_dsaPKjS0_Pjjjj", "inputs"): ("deadlock", 98, False),
    ("matmul.mlir", "_Z10matmul_dsaPKjS0_Pjjjj", "zero-trip"): ("completed", 28, True),
    ("relu.mlir", "_Z8relu_dsaPKfPfj", "inputs"): ("deadlock", 27, False),
    ("relu.mlir", "_Z8relu_dsaPKfPfj", "zero-trip"): ("completed", 4, True),
    ("scatter_add.mlir", "_Z15scatter_add_dsaPKjS0_Pjjj", "inputs"): ("deadlock", 47, False),
    ("scatter_add.mlir", "_Z15scatter_add_dsaPKjS0_Pjjj", "zero-trip"): ("completed", 3, True),
    ("vecadd.mlir", "_Z10vecadd_dsaPKfS0_Pfi", "inputs"): ("deadlock", 9, True),
    ("vecadd.mlir", "_Z10vecadd_dsaPKfS0_Pfi", "zero-trip"): ("completed", 2, True),
}


def _files() -> list[Path]:
    files = sorted((CORPUS / "loom-legacy").glob("*.mlir")) + sorted((CORPUS / "loom-fabric").glob("*.dfg.mlir"))
    assert files or not CORPUS.is_dir(), f"no corpus files under {CORPUS}"
    return files  # none when ../shared is missing: the conftest skips (or, under CI, fails) the session


_MODULES: dict[Path, Module] = {}


def _module(path: Path) -> Module:
    if path not in _MODULES:
        _MODULES[path] = parse_file(path)
    return _MODULES[path]


def _cases() -> list[tuple[Path, str, str]]:
    out = []
    for path in _files():
        for fn in _module(path).functions():
            if fn.name != "handshake.func":
                continue
            name = fn.attributes["sym_name"].value
            out.append((path, name, "inputs"))
            if any(k in TRIP_COUNTS for k in INPUTS[name]):
                out.append((path, name, "zero-trip"))
    return out


def _run_case(path: Path, name: str, run_kind: str):
    module = _module(path)
    fn = func_named(module, name)
    raw = inputs_for(name, run_kind)
    types = [a.type for a in fn.regions[0].entry.args]
    inputs = decode_inputs(function_arg_names(fn), types, raw, "<test>", module=module)
    sim = simulate(fn, inputs)
    return sim, agrees(sim, reference(module, name, raw))


CASES = _cases()


@pytest.mark.shared
def test_findings_cover_every_corpus_handshake_func() -> None:
    assert {(p.name, n, k) for p, n, k in CASES} == set(FINDINGS)


@pytest.mark.shared
@pytest.mark.parametrize("path, name, run_kind", CASES, ids=lambda x: x.name if isinstance(x, Path) else x)
def test_corpus_function_simulates_as_recorded(path: Path, name: str, run_kind: str) -> None:
    sim, agree = _run_case(path, name, run_kind)
    assert sim.error is None
    got = (sim.status, sim.residual_tokens, agree)
    assert got == FINDINGS[(path.name, name, run_kind)], sim.deadlock_report
    if sim.status == "deadlock":
        assert sim.deadlock_report.startswith("deadlock: the return never fired")
    assert sum(sim.channels.values()) > 0


def findings_table() -> str:
    """The markdown table of FINDINGS that specs/semantics.md must contain."""
    lines = [
        "| file | function | run | status | residual tokens | data agree with reference |",
        "|---|---|---|---|---|---|",
    ]
    for (file, name, run_kind), (status, residual, agree) in FINDINGS.items():
        ok = "-" if agree is None else ("yes" if agree else "**no**")
        lines.append(f"| {file} | `{name}` | {run_kind} | {status} | {residual} | {ok} |")
    return "\n".join(lines)


def test_findings_are_written_into_the_semantics_spec() -> None:
    assert findings_table() in DOC.read_text(encoding="utf-8"), "update the corpus table in specs/semantics.md"


@pytest.mark.shared
def test_vecadd_shows_the_raw_will_continue_memory_ctrl_symptom() -> None:
    """spec-dataflow-memory's debugging guidance: one extra ctrl latched at each access and one extra cond at
    each downstream cond_br -- the ctrl-done carries are driven by raw willContinue (N+1) instead of after_cond (N)."""
    path = CORPUS / "loom-legacy" / "vecadd.mlir"
    module = _module(path)
    fn = func_named(module, "_Z10vecadd_dsaPKfS0_Pfi")
    net = build_network(fn, inputs_for("_Z10vecadd_dsaPKfS0_Pfi", "inputs"))
    run(net, 100_000)
    stuck = {}
    for actor in net.actors:
        held = {actor.machine.inputs[i].name: len(ch.q) for i, ch in enumerate(actor.inputs) if ch is not None and len(ch.q)}
        if held:
            stuck.setdefault(actor.op.name, []).append(held)
    assert stuck["handshake.load"] == [{"ctrl": 1}, {"ctrl": 1}]
    assert stuck["handshake.store"] == [{"ctrl": 1}]
    assert stuck["handshake.cond_br"] == [{"cond": 1}] * 3
    # The carries that feed those ctrl inputs are controlled by willContinue, the raw N+1 stream.
    stream = next(a.op for a in net.actors if a.op.name == "dataflow.stream")
    carries = [a.op for a in net.actors if a.op.name == "dataflow.carry"]
    assert len(carries) == 3 and all(c.operands[0] is stream.results[1] for c in carries)


@pytest.mark.shared
def test_relu_constant_used_in_the_loop_body_is_produced_once() -> None:
    """relu's 0.0 comes from a handshake.constant fired once by the start token and feeds the loop body without
    a dataflow.invariant: only the first element is computed, then cmpf starves."""
    sim, _ = _run_case(CORPUS / "loom-legacy" / "relu.mlir", "_Z8relu_dsaPKfPfj", "inputs")
    assert sim.memrefs["output"] == [0.0, 9.0, 9.0, 9.0, 9.0]
    assert "'arith.cmpf'" in sim.deadlock_report and "waits on in1" in sim.deadlock_report
