"""CIRCT loop idioms (loom/verify/lengths/idioms.py): the primed select is a carry only because the lemma
engine proves it, from the tables, and every near miss is refused with the counterexample."""

from __future__ import annotations

import pytest

from loom.ir.types import IntegerType, NoneType
from loom.mlir import parse_text
from loom.semantics.handshake_ops import buffer, mux
from loom.verify.lemmas.compose import Link, series
from loom.verify.lemmas.contracts import carry_contract
from loom.verify.lemmas.induction import prove
from loom.verify.lengths.idioms import LINK, composite, find_cmerge_loops, find_primed_selects

from support.paths import DATA

I1, I64 = IntegerType(1), IntegerType(64)


def _carry_lemma(init: tuple, slots: int, t=I64):
    m = composite(buffer(I1, slots, init), mux(I1, t, 2))
    name = "T" + "_".join(str(x) for x in (slots, *init)) + str(t).replace(" ", "")
    return prove(m, carry_contract(m), name, timeout=20, use_spacer=False)


@pytest.mark.parametrize("t", [I64, I1, NoneType()])
def test_a_buffer_primed_with_0_feeding_a_mux_select_is_a_carry(t) -> None:
    r = _carry_lemma((0,), 1, t)
    assert r.status == "proved" and r.method.startswith("1-induction"), r.detail


@pytest.mark.parametrize("init,slots", [((1,), 1), ((0, 0), 2), ((0, 1), 2), ((), 1)])
def test_near_misses_are_refuted_with_a_trace(init, slots) -> None:
    r = _carry_lemma(init, slots)
    assert r.status == "refuted" and r.trace, (init, slots, r.status, r.detail)


def test_the_composite_is_the_carry_table_up_to_state_names() -> None:
    m = composite(buffer(I1, 1, (0,)), mux(I1, I64, 2))
    assert [p.name for p in m.inputs] == ["d", "a", "b"] and [p.name for p in m.outputs] == ["o"]
    assert len(m.states) == 3 and m.initial == "ready|0|ready"  # the initial token is fired eagerly
    by_state = {s: sorted(r.reads for r in m.rules if r.state == s) for s in m.states}
    assert by_state == {"ready|0|ready": [("a",)], "ready|1|ready": [("b",)], "ready|-|ready": [("d",), ("d",)]}


def test_series_refuses_what_it_does_not_compose() -> None:
    wide = Link("out", "select", {("p", "in"): "d", ("c", "data0"): "a", ("c", "data1"): "b", ("c", "out"): "o"})
    with pytest.raises(ValueError):
        series(buffer(I64, 1, (0,)), mux(I64, I64, 2), wide, "x")  # not an i1 link
    assert LINK.out_port == "out"


SHAPES = """
handshake.func @f(%go: none, %x: i1, ...) -> (i64, none) {
  %g:3 = fork [3] %go : none
  %c0 = constant %g#0 {value = 0 : i64} : i64
  %sel = buffer [1] seq %x {initValues = [0]} : i1
  %s:2 = fork [2] %sel : i1
  %m = mux %s#0 [%c0, %c0b] : i1, i64
  %c0b = constant %g#1 {value = 1 : i64} : i64
  %t, %f = cond_br %s#1, %m : i64
  sink %t : i64
  return %f, %g#2 : i64, none
}
"""


def test_a_primed_buffer_that_also_feeds_a_branch_is_not_the_idiom() -> None:
    func = [f for f in parse_text(SHAPES, "shapes.mlir").functions() if f.name == "handshake.func"][0]
    found = find_primed_selects(list(func.regions[0].entry.ops))
    assert len(found) == 1 and "handshake.cond_br" in found[0].why
    assert find_cmerge_loops(list(func.regions[0].entry.ops)) == []


HEADER = """
handshake.func @g(%go: none, %x: i1, ...) -> (none, none) {
  %ctl, %idx = control_merge %go, %back : none, index
  %c:2 = fork [2] %ctl : none
  %t, %f = cond_br %x, %c#0 : none
  %back = br %t : none
  %it, %if = cond_br %x, %idx : index
  sink %it : index
  sink %if : index
  return %f, %c#1 : none, none
}
"""


def test_a_loop_header_whose_index_feeds_a_branch_is_not_the_idiom() -> None:
    func = [f for f in parse_text(HEADER, "header.mlir").functions() if f.name == "handshake.func"][0]
    found = find_cmerge_loops(list(func.regions[0].entry.ops))
    assert len(found) == 1 and "handshake.cond_br" in found[0].why, found


def _report(name: str):

    from loom.mlir import parse_file
    from loom.verify import VerifyContext, verify_function

    path = DATA / "handwritten" / name
    func = [f for f in parse_file(path).functions() if f.name == "handshake.func"][0]
    return {o.id: o for o in verify_function(func, VerifyContext(bmc_k=2, timeout=20)).obligations}


def test_the_recognitions_are_reported_as_obligations() -> None:
    primed = _report("ok_primed_select_sum.mlir")
    assert primed["idiom.%sel.carry"].status == "proved" and primed["idiom.%sel.carry"].method == "smt"
    header = _report("ok_cmerge_loop_sum.mlir")
    assert header["idiom.%ctl.carry"].status == "proved"
    assert "function-level" in header["idiom.%ctl.carry"].detail


def test_a_refuted_composite_leaves_the_buffer_unknown_with_the_counterexample() -> None:
    obs = _report("bad_primed_select_init_one.mlir")
    assert not any(i.startswith("idiom.") for i in obs)
    sel = obs["balance.%sel"]
    assert sel.status == "unknown" and "not a dataflow.carry (refuted" in sel.detail, sel.detail
    assert obs["bmc.K2.deadlock"].status == "refuted"


RING_TO_MUX = """
handshake.func @r(%go: none, %a: i32, %b: i32, ...) -> (i32, none) {
  %slot = buffer [1] seq %s {initValues = [0]} : i32
  %g:2 = fork [2] %go : none
  %m = mux %slot [%a, %b] : i32, i32
  %s = arith.addi %m, %m : i32
  return %s, %g#0 : i32, none
}
"""


def test_a_primed_buffer_read_by_a_mux_select_is_no_token_ring() -> None:
    from loom.verify.lengths.idioms import find_token_rings

    func = [f for f in parse_text(RING_TO_MUX, "ring.mlir", verify=False).functions()
            if f.name == "handshake.func"][0]
    rings = find_token_rings(list(func.regions[0].entry.ops), set())
    assert len(rings) == 1 and "does not read it on every firing" in rings[0].why, rings


def test_the_circt_token_ring_is_typed_and_a_lost_token_refuted() -> None:

    from loom.mlir import parse_file
    from loom.verify import VerifyContext, verify_function

    data = DATA / "circt"
    got = {}
    for name in ("token_ring", "bad_token_ring_lost"):
        func = [f for f in parse_file(data / f"{name}.mlir").functions() if f.name == "handshake.func"][0]
        got[name] = {o.id: o for o in verify_function(func, VerifyContext(bmc_k=2, timeout=20)).obligations}
    assert got["token_ring"]["idiom.%slot.ring"].status == "proved"
    assert got["bad_token_ring_lost"]["balance.%slot"].status == "refuted"
