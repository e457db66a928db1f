"""The token simulator on hand-built graphs: completion, results, memory, deadlock, residual tokens, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.ir.types import f32
from loom.mlir import parse_text
from loom.runtime import MemRefView
from loom.sim import SimResult, simulate


def func(text: str) -> Operation:
    """The single handshake.func of an MLIR snippet."""
    (f,) = [f for f in parse_text(text, "test.mlir").functions() if f.name == "handshake.func"]
    return f


# acc = init; for i in [start, bound) step: acc += i; return acc -- carry on the raw cont, like scf.for iter_args.
SUM_LOOP = """
handshake.func @sum(%start: index, %step: index, %bound: index, %init: i64) -> i64 {
  %idx, %cont = dataflow.stream %start, %step, %bound {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
  %acc = dataflow.carry %cont, %init, %next : i1, i64, i64 -> i64
  %body, %exit = handshake.cond_br %cont, %acc : i64
  %ivc = arith.index_cast %iv : index to i64
  %next = arith.addi %body, %ivc : i64
  handshake.sink %ac : i1
  handshake.return %exit : i64
}
"""

# The corpus dataflow-flowops graph (stream -> gate -> carry), parametrised by step_op.
FLOW = """
handshake.func @flow(%start: index, %step: index, %bound: index, %init: index) -> index
    attributes {argNames = ["start", "step", "bound", "init"]} {
  %idx, %cont = dataflow.stream %start, %step, %bound {step_op = "STEP", cont_cond = "<"} : (index, index, index) -> (index, i1)
  %av, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
  %o = dataflow.carry %ac, %init, %av : i1, index, index -> index
  handshake.return %o : index
}
"""


def flow(step_op: str = "+=") -> Operation:
    return func(FLOW.replace("STEP", step_op))


@settings(max_examples=40, deadline=None)
@given(start=st.integers(-5, 5), step=st.integers(1, 3), bound=st.integers(-5, 20), init=st.integers(-100, 100))
def test_sum_loop_completes_with_the_reference_result(start: int, step: int, bound: int, init: int) -> None:
    f = func(SUM_LOOP)
    r = simulate(f, {"start": start, "step": step, "bound": bound, "init": init})
    assert r.status == "completed", r.deadlock_report
    assert r.error is None and r.quiescent
    expected = init + sum(range(start, bound, step))
    assert r.results == [expected & ((1 << 64) - 1)]
    assert r.residual_tokens == 0, r.deadlock_report
    n = len(range(start, bound, step))
    assert r.channels["%cont[0]"] == n + 1  # cont has three uses: carry, cond_br, gate
    assert r.channels["%iv"] == n
    assert r.to_json(f)["results"] == [expected]


def test_flowops_graph_completes_but_leaves_tokens() -> None:
    """The corpus dataflow-flowops graph returns the carry's first token; the rest stay behind."""
    r = simulate(flow(), {"start": 0, "step": 1, "bound": 4, "init": 100})
    assert r.status == "completed"
    assert r.results == [100]
    # o = [100, 0, 1, 2]: three wait at the (fired) return, after_value 3 waits at carry.b.
    assert r.residual_tokens == 4
    assert r.channels == {
        "%start": 1, "%step": 1, "%bound": 1, "%idx": 5, "%cont": 5,
        "%ac": 4, "%init": 1, "%av": 4, "%o": 4,
    }
    assert "handshake.return" in r.deadlock_report and "dataflow.carry" in r.deadlock_report


def test_zero_step_is_reported_as_an_error_status() -> None:
    r = simulate(flow(), {"start": 0, "step": 0, "bound": 4, "init": 1})
    assert r.status == "error"
    assert r.error is not None and r.error.code == "RT_DATAFLOW_STREAM_ZERO_STEP"
    assert r.to_json()["error"].startswith("RT_DATAFLOW_STREAM_ZERO_STEP")


DEADLOCK = """
handshake.func @dl(%c: i1, %start: none) -> none {
  %t, %f = handshake.cond_br %c, %start : none
  %j = handshake.join %t : none
  handshake.sink %f : none
  handshake.return %j : none
}
"""


def test_deadlock_is_detected_and_explained() -> None:
    f = func(DEADLOCK)
    r = simulate(f, {"c": False})
    assert r.status == "deadlock"
    assert r.results == []
    assert r.residual_tokens == 0  # nothing is stuck in a channel: the token went down the false branch
    assert r.deadlock_report.startswith("deadlock: the return never fired")
    ok = simulate(f, {"c": True})
    assert ok.status == "completed" and ok.results == [] and ok.residual_tokens == 0


WAITING = """
handshake.func @dl2(%x: i32, %c: i1, %start: none) -> (i32, none) {
  %t, %f = handshake.cond_br %c, %start : none
  %k = handshake.constant %t {value = 1 : i32} : i32
  %sum = arith.addi %x, %k : i32
  handshake.return %sum, %f : i32, none
}
"""


def test_deadlock_report_names_the_waiting_port() -> None:
    f = func(WAITING)
    r = simulate(f, {"x": 4, "c": True})
    assert r.status == "deadlock"
    assert r.residual_tokens == 1  # the sum waits at the return for a done token that went the other way
    assert "'handshake.return' at test.mlir:6:3" in r.deadlock_report and "waits on in1" in r.deadlock_report
    r = simulate(f, {"x": 4, "c": False})
    assert r.status == "deadlock"
    assert "'arith.addi'" in r.deadlock_report and "holds in0 %x x1" in r.deadlock_report


def test_multi_use_values_get_one_channel_per_use() -> None:
    f = func("""
handshake.func @mu(%x: i32, %start: none) -> (i32, none) {
  %y = arith.addi %x, %x : i32
  handshake.return %y, %start : i32, none
}
""")
    r = simulate(f, {"x": 21})
    assert r.results == [42]
    assert r.channels == {"%x[0]": 1, "%x[1]": 1, "%y": 1, "%start": 1}


def test_poison_sources_feed_forever_and_are_never_residual() -> None:
    f = func("""
handshake.func @p(%c: i1, %x: i32, %start: none) -> (i32, none) {
  %p = ub.poison : i32
  %m = handshake.mux %c [%p, %x] : i1, i32
  handshake.return %m, %start : i32, none
}
""")
    r = simulate(f, {"c": 0, "x": 9})
    assert r.status == "completed" and r.results == [0]
    assert r.residual_tokens == 1  # x was never selected; the poison channel does not count
    assert r.channels["%p"] == 1  # one poison token was taken
    r = simulate(f, {"c": 1, "x": 9})
    assert r.results == [9] and r.residual_tokens == 0 and r.channels["%p"] == 0


# c[i] = a[i] + a[i] for i < n: extmemory, stream/gate, invariant ctrl, done via the cond_br exit.
DOUBLING = """
handshake.func @dbl(%a: memref<?xf32>, %c: memref<?xf32>, %n: index, %start: none, ...) -> none
    attributes {argNames = ["a", "c", "n", "start"]} {
  %c0 = handshake.constant %start {value = 0 : index} : index
  %c1 = handshake.constant %start {value = 1 : index} : index
  %idx, %cont = dataflow.stream %c0, %c1, %n : (index, index, index) -> (index, i1)
  %iv, %ac = dataflow.gate %idx, %cont : index, i1 -> index, i1
  %ldctrl = dataflow.invariant %ac, %start : i1, none -> none
  %stctrl = dataflow.invariant %ac, %start : i1, none -> none
  %ld, %ldaddr = handshake.load [%iv] %ma#0, %ldctrl : index, f32
  %ma:2 = handshake.extmemory[ld = 1, st = 0] (%a : memref<?xf32>) (%ldaddr) {id = 0 : i32} : (index) -> (f32, none)
  %dbl = arith.addf %ld, %ld : f32
  %sd, %sa = handshake.store [%iv] %dbl, %stctrl : index, f32
  %mc = handshake.extmemory[ld = 0, st = 1] (%c : memref<?xf32>) (%sd, %sa) {id = 1 : i32} : (f32, index) -> none
  %more, %last = handshake.cond_br %ac, %mc : none
  handshake.sink %more : none
  handshake.sink %ma#1 : none
  handshake.return %last : none
}
"""


@settings(max_examples=25, deadline=None)
@given(xs=st.lists(st.integers(-50, 50), min_size=1, max_size=12))
def test_extmemory_loads_and_stores_reach_the_argument_buffers(xs: list[int]) -> None:
    a = [float(x) / 4 for x in xs]
    c_in = [7.0] * (len(xs) + 2)
    r = simulate(func(DOUBLING), {"a": a, "c": c_in, "n": len(xs)})
    assert r.status == "completed", r.deadlock_report
    assert r.residual_tokens == 0, r.deadlock_report
    assert r.memrefs["a"] == a
    assert r.memrefs["c"] == [2 * x for x in a] + [7.0, 7.0]
    assert r.results == []
    assert r.channels["%ld[0]"] == r.channels["%ld[1]"] == len(xs) and r.channels["%sa"] == len(xs)
    assert r.channels["%ma#0"] == len(xs)


def test_zero_trip_kernel_without_a_guard_deadlocks() -> None:
    """Without the scf.if zero-trip guard the corpus adds, n = 0 never produces a done token."""
    r = simulate(func(DOUBLING), {"a": [1.0], "c": [0.0], "n": 0})
    assert r.status == "deadlock"
    assert r.residual_tokens > 0
    assert "dataflow.invariant" in r.deadlock_report


def test_memref_inputs_are_copied_not_modified() -> None:
    view = MemRefView.from_flat([0.0, 0.0], f32, [2])
    r = simulate(func(DOUBLING), {"a": [1.0, 2.0], "c": view, "n": 2})
    assert r.memrefs["c"] == [2.0, 4.0]
    assert view.to_flat() == [0.0, 0.0]


def test_out_of_bounds_access_is_an_error_status() -> None:
    r = simulate(func(DOUBLING), {"a": [1.0, 2.0], "c": [0.0], "n": 2})
    assert r.status == "error"
    assert r.error.code == "RT_MEMREF_OUT_OF_BOUNDS"
    assert "handshake.extmemory" in r.error.message
    assert str(r.error.loc) == "test.mlir:14:3"


GLOBAL_TABLE = """
module {
  handshake.func @gl(%i: index, %start: none) -> (i32, none) {
    %v, %addr = handshake.load [%i] %m#0, %start : index, i32
    %m:2 = handshake.memory[ld = 1, st = 0] (%addr) {id = 0 : i32, lsq = false, loom.global_memref = @table} : memref<4xi32>, (index) -> (i32, none)
    handshake.return %v, %m#1 : i32, none
  }
  INIT
}
"""


def test_handshake_memory_is_zeroed_or_initialised_from_a_global() -> None:
    f = func(GLOBAL_TABLE.replace("INIT", ""))
    assert simulate(f, {"i": 2}).results == [0]
    r = simulate(f, {"i": 2, "@table": [5, 6, 7, 8]})
    assert r.status == "completed" and r.results == [7] and r.residual_tokens == 0
    assert simulate(f, {"i": 3, "table": [5, 6, 7, -1]}).results == [(1 << 32) - 1]
    with_init = func(GLOBAL_TABLE.replace("INIT", 'memref.global "private" constant @table : memref<4xi32> = dense<[9, 8, 7, 6]>'))
    assert simulate(with_init, {"i": 1}).results == [8]


def test_memref_dim_gives_the_runtime_size_of_an_argument() -> None:
    f = func("""
handshake.func @dim(%a: memref<?x3xf32>, %start: none) -> (index, index, none) {
  handshake.extmemory[ld = 0, st = 0] (%a : memref<?x3xf32>) () {id = 0 : i32} : () -> ()
  %c0 = handshake.constant %start {value = 0 : index} : index
  %c1 = handshake.constant %start {value = 1 : index} : index
  %d0 = memref.dim %a, %c0 : memref<?x3xf32>
  %d1 = memref.dim %a, %c1 : memref<?x3xf32>
  handshake.return %d0, %d1, %start : index, index, none
}
""")
    r = simulate(f, {"a": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]})
    assert r.status == "completed" and r.results == [2, 3]
    assert r.memrefs["a"] == [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]


INFINITE = """
handshake.func @inf(%start: index, %step: index, %bound: index, %go: none) -> none {
  %idx, %cont = dataflow.stream %start, %step, %bound {step_op = "*="} : (index, index, index) -> (index, i1)
  %j = handshake.join %go, %cont : none, i1
  handshake.sink %idx : index
  %t, %f = handshake.cond_br %cont, %j : none
  handshake.sink %t : none
  handshake.return %f : none
}
"""


def test_non_terminating_stream_hits_the_step_limit() -> None:
    r = simulate(flow("*="), {"start": 0, "step": 1, "bound": 5, "init": 3}, max_steps=500)
    # The carry's seed reaches the return at once; 0 *= 1 then never leaves the loop.
    assert r.status == "completed" and r.results == [3]
    assert not r.quiescent and r.steps == 500
    r = simulate(func(INFINITE), {"start": 0, "step": 1, "bound": 5}, max_steps=300)
    assert r.status == "error" and r.error.code == "RT_SIM_STEP_LIMIT"


def test_missing_input_is_a_loom_error() -> None:
    with pytest.raises(LoomError) as ei:
        simulate(func(SUM_LOOP), {"start": 0, "step": 1})
    assert ei.value.code == "IO_INPUT_MISSING" and "'bound'" in str(ei.value)


def test_op_without_semantics_is_a_located_loom_error() -> None:
    f = func("""
handshake.func @bad(%a: memref<4xf32>, %i: index, %start: none) -> (f32, none) {
  %v = memref.load %a[%i] : memref<4xf32>
  handshake.extmemory[ld = 0, st = 0] (%a : memref<4xf32>) () {id = 0 : i32} : () -> ()
  handshake.return %v, %start : f32, none
}
""")
    with pytest.raises(LoomError) as ei:
        simulate(f, {"a": [1.0, 2.0, 3.0, 4.0], "i": 0})
    assert str(ei.value).startswith("test.mlir:3:3: error:")


def test_simulation_is_deterministic() -> None:
    inputs = {"a": [1.0, 2.0, 3.0], "c": [0.0] * 3, "n": 3}
    first, second = simulate(func(DOUBLING), inputs), simulate(func(DOUBLING), inputs)
    assert (first.results, first.memrefs, first.channels, first.steps) == (
        second.results,
        second.memrefs,
        second.channels,
        second.steps,
    )


def test_to_json_has_the_design_shape() -> None:
    f = func(DOUBLING)
    r = simulate(f, {"a": [1.0], "c": [0.0], "n": 1})
    assert isinstance(r, SimResult)
    doc = r.to_json(f)
    assert list(doc) == ["status", "results", "memrefs", "residual_tokens", "channels", "error"]
    assert doc["memrefs"] == {"a": [1.0], "c": [2.0]} and doc["status"] == "completed" and doc["error"] is None
