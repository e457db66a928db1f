"""A prepared network (``loom.sim.prepare``) run many times gives what a fresh ``simulate`` gives each time."""

from __future__ import annotations

import json
from typing import Any

import pytest

from loom.diagnostics import LoomError
from loom.mlir import parse_text
from loom.sim import SimResult, prepare, simulate

from support.examples import EXAMPLE_NAMES, example_lowered
from support.paths import EXAMPLES_DIR


def _facts(r: SimResult) -> tuple:
    """Everything a result says, the error by code, message and location."""
    err = None if r.error is None else (r.error.code, r.error.message, str(r.error.loc))
    return (r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.steps, r.deadlock_report, r.quiescent,
            err)


def _variant(inputs: dict[str, Any]) -> dict[str, Any]:
    """Other inputs of the same function: scalars moved by 3 (often past a buffer: an error run), lists reversed."""
    out: dict[str, Any] = {}
    for k, v in inputs.items():
        if isinstance(v, bool) or not isinstance(v, (int, list)):
            out[k] = v
        else:
            out[k] = v + 3 if isinstance(v, int) else list(reversed(v))
    return out


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_runs_of_a_prepared_example_equal_fresh_simulations(name: str) -> None:
    (f,) = [g for g in example_lowered(name).functions() if g.name == "handshake.func"]
    a = json.loads((EXAMPLES_DIR / f"{name}.inputs.json").read_text())
    b = _variant(a)
    net = prepare(f)
    statuses = set()
    for inputs in (a, b, a, b):  # each run starts from the initial state, whatever the run before left
        got = net.run(inputs, max_steps=200_000)
        want = simulate(f, inputs, max_steps=200_000)
        assert _facts(got) == _facts(want)
        statuses.add(got.status)
    assert "completed" in statuses


TWO_ERRORS = """
handshake.func @bad(%a: memref<4xf32>, %i: index, %start: none) -> (f32, none) {
  %v = memref.load %a[%i] : memref<4xf32>
  handshake.extmemory[ld = 0, st = 0] (%a : memref<4xf32>) () {id = 0 : i32} : () -> ()
  handshake.return %v, %start : f32, none
}
"""


def test_errors_of_a_prepared_network_come_in_simulates_order() -> None:
    (f,) = [g for g in parse_text(TWO_ERRORS, "test.mlir").functions() if g.name == "handshake.func"]
    net = prepare(f)  # an op without semantics: kept for the runs, which check their inputs first
    for inputs, code in (({"a": [1.0] * 4}, "IO_INPUT_MISSING"), ({"a": [1.0] * 4, "i": 0}, None)):
        with pytest.raises(LoomError) as prepared:
            net.run(inputs)
        with pytest.raises(LoomError) as fresh:
            simulate(f, inputs)
        assert str(prepared.value) == str(fresh.value)
        assert code is None or prepared.value.code == code
