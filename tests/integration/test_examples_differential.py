"""The two oracles agree: every example in the SCF interpreter and, lowered, in the token simulator.

Same inputs, same ``sim --json`` document (results, final memories, status), and the
DFG run must end with no residual tokens.
"""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import scaled

from loom.interp import interpret
from loom.lower import lower_module
from loom.mlir import parse_file
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.sim import simulate

from support.paths import ROOT

EXAMPLES = ROOT / "examples"
KERNELS = sorted(p.name[: -len(".scf.mlir")] for p in EXAMPLES.glob("*.scf.mlir"))


@functools.lru_cache(maxsize=None)
def both_forms(kernel: str):
    scf = parse_file(EXAMPLES / f"{kernel}.scf.mlir")
    (func,) = [f for f in scf.functions() if f.name == "func.func"]
    name = func.attributes["sym_name"].value
    dfg = lower_module(scf, name)
    (hs,) = [f for f in dfg.functions() if f.name == "handshake.func" and f.attributes["sym_name"].value == name]
    return scf, func, name, dfg, hs


def documents(kernel: str, obj: dict) -> tuple[dict, dict, int]:
    scf, func, name, dfg, hs = both_forms(kernel)
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    ri = interpret(scf, name, decode_inputs(names, types, obj, "in.json", module=scf))
    di = run_result_json(ri.status, ri.results, ri.memrefs, None, None, ri.error, func=func)
    hnames, htypes = function_arg_names(hs), [a.type for a in hs.regions[0].entry.args]
    rs = simulate(hs, decode_inputs(hnames, htypes, obj, "in.json", module=dfg))
    ds = run_result_json(rs.status, rs.results, rs.memrefs, rs.residual_tokens, rs.channels, rs.error, func=hs)
    return di, ds, rs.residual_tokens


@pytest.mark.parametrize("kernel", KERNELS)
def test_interpreter_and_simulator_agree_on_given_inputs(kernel):
    obj = json.loads((EXAMPLES / f"{kernel}.inputs.json").read_text())
    di, ds, residual = documents(kernel, obj)
    assert di["status"] == ds["status"] == "completed", (di["error"], ds["error"])
    assert di["results"] == ds["results"]
    assert di["memrefs"] == ds["memrefs"]
    assert residual == 0


vec = st.lists(st.integers(-50, 50), max_size=6)


@settings(max_examples=scaled(8), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vec, st.integers(1, 4), st.integers(-60, 60), st.integers(-60, 60))
def test_agree_on_generated_inputs_including_zero_trips(v, bins, lo, key):
    for kernel, obj in [
        ("histogram", {"data": v, "hist": [0] * bins}),
        ("clamp_count", {"v": v, "lo": lo, "hi": lo + 20}),
        ("find_first", {"a": v, "key": key}),
        ("triangular", {"L": [[x] * len(v) for x in v], "x": v, "y": [0] * len(v)}),
        ("collatz", {"n": abs(key)}),
    ]:
        di, ds, residual = documents(kernel, obj)
        assert (di["results"], di["memrefs"], di["status"]) == (ds["results"], ds["memrefs"], ds["status"]), kernel
        assert residual == 0, kernel
