"""64-bit scf.for IVs wrap like dataflow.stream: the interpreter and the lowered DFG agree past INT64_MAX."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import scaled

from loom.interp import run_json
from loom.mlir import parse_text
from loom.testing.differential import check_lowering

I64_MAX = (1 << 63) - 1
U64_MAX = (1 << 64) - 1

KERNEL = """
func.func @w(%a: memref<?xi64>, %lb: {t}, %ub: {t}, %s: {t}) -> i64 {{
  %c0 = arith.constant 0 : i64
  %r = scf.for {unsigned}%i = %lb to %ub step %s iter_args(%acc = %c0) -> (i64) {ivtype}{{
    %k = arith.subi %i, %lb : {t}
    %kk = arith.index_cast{ui} %k : {t} to index
    %v = memref.load %a[%kk] : memref<?xi64>
    %n = arith.addi %acc, %v : i64
    scf.yield %n : i64
  }}
  return %r : i64
}}
"""


def kernel(t: str, unsigned: bool):
    text = KERNEL.format(
        t=t,
        unsigned="unsigned " if unsigned else "",
        ivtype=f": {t} " if t != "index" else "",
        ui="ui" if unsigned else "",
    )
    if t == "index":
        text = text.replace("arith.index_castui %k : index to index", "arith.addi %k, %k_zero : index").replace(
            "arith.index_cast %k : index to index", "arith.addi %k, %k_zero : index"
        ).replace("%c0 = arith.constant 0 : i64", "%c0 = arith.constant 0 : i64\n  %k_zero = arith.constant 0 : index")
    return parse_text(text, "wrap.mlir")


DATA = [1, 2, 3, 4, 5, 6, 7, 8, 9]


@pytest.mark.parametrize("t", ["index", "i64"])
def test_signed_increment_past_the_maximum_wraps_and_the_loop_goes_on(t: str):
    # IVs: MAX-1, then MIN+2 (still < ub): the offsets 0, 4, 8, 12 -> the fourth load is out of bounds
    r = run_json(kernel(t, False), "w", {"a": DATA, "lb": I64_MAX - 1, "ub": I64_MAX, "s": 4})
    assert r.status == "error" and r.error.code == "RT_MEMREF_OUT_OF_BOUNDS"
    assert "index [12]" in str(r.error)


def test_unsigned_increment_past_the_maximum_wraps():
    r = run_json(kernel("index", True), "w", {"a": DATA, "lb": U64_MAX - 1, "ub": U64_MAX, "s": 4})
    assert r.status == "error" and "index [12]" in str(r.error)


def test_no_wrap_when_the_last_increment_lands_on_the_maximum():
    r = run_json(kernel("i64", False), "w", {"a": DATA, "lb": I64_MAX - 3, "ub": I64_MAX, "s": 3})
    assert (r.status, r.results) == ("completed", [1])


@pytest.mark.parametrize(("t", "unsigned"), [("index", False), ("i64", False), ("index", True), ("i64", True)])
@settings(max_examples=scaled(12), deadline=None)
@given(back=st.integers(0, 12), span=st.integers(0, 12), step=st.integers(1, 9))
def test_interpreter_and_dfg_agree_near_the_top(t: str, unsigned: bool, back: int, span: int, step: int):
    top = U64_MAX if unsigned else I64_MAX
    lb = top - back
    ub = min(top, lb + span)
    c = check_lowering(kernel(t, unsigned), "w", {"a": DATA, "lb": lb, "ub": ub, "s": step}, max_steps=20_000)
    assert c.ok, c.detail
