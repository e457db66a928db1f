"""The token simulator on hand-built graphs: completion, results, memory, deadlock, residual tokens, errors."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_sim_builder import Graph, stream_gate_carry

from loom.diagnostics import LoomError
from loom.ir import IntegerAttr, StringAttr, SymbolRefAttr, TypeAttr
from loom.ir.types import MemRefType, f32, i1, i32, i64, index, none
from loom.runtime import MemRefView
from loom.sim import SimResult, simulate


def sum_loop() -> Graph:
    """acc = init; for i in [start, bound) step: acc += i; return acc -- carry on the raw cont, like scf.for iter_args."""
    g = Graph("sum", [index, index, index, i64], ["start", "step", "bound", "init"])
    a = g.args
    s = g.op(
        "dataflow.stream",
        [a["start"], a["step"], a["bound"]],
        [index, i1],
        ["idx", "cont"],
        step_op=StringAttr("+="),
        cont_cond=StringAttr("<"),
    )
    gt = g.op("dataflow.gate", list(s.results), [index, i1], ["iv", "ac"])
    acc = g.op("dataflow.carry", [s.results[1], a["init"], a["init"]], [i64], ["acc"])
    br = g.op("handshake.cond_br", [s.results[1], acc.results[0]], [i64, i64], ["body", "exit"])
    ivc = g.op("arith.index_cast", [gt.results[0]], [i64], ["ivc"])
    add = g.op("arith.addi", [br.results[0], ivc.results[0]], [i64], ["next"])
    acc.operands[2] = add.results[0]
    g.op("handshake.sink", [gt.results[1]], [])
    g.ret(br.results[1])
    return g


@settings(max_examples=40, deadline=None)
@given(start=st.integers(-5, 5), step=st.integers(1, 3), bound=st.integers(-5, 20), init=st.integers(-100, 100))
def test_sum_loop_completes_with_the_reference_result(start: int, step: int, bound: int, init: int) -> None:
    g = sum_loop()
    r = simulate(g.func, {"start": start, "step": step, "bound": bound, "init": init})
    assert r.status == "completed", r.deadlock_report
    assert r.error is None and r.quiescent
    expected = init + sum(range(start, bound, step))
    assert r.results == [expected & ((1 << 64) - 1)]
    assert r.residual_tokens == 0, r.deadlock_report
    n = len(range(start, bound, step))
    assert r.channels["%cont[0]"] == n + 1  # cont has three uses: carry, cond_br, gate
    assert r.channels["%iv"] == n
    assert r.to_json(g.func)["results"] == [expected]


def test_flowops_graph_completes_but_leaves_tokens() -> None:
    """The corpus dataflow-flowops graph returns the carry's first token; the rest stay behind."""
    r = simulate(stream_gate_carry().func, {"start": 0, "step": 1, "bound": 4, "init": 100})
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
    r = simulate(stream_gate_carry().func, {"start": 0, "step": 0, "bound": 4, "init": 1})
    assert r.status == "error"
    assert r.error is not None and r.error.code == "RT_DATAFLOW_STREAM_ZERO_STEP"
    assert r.to_json()["error"].startswith("RT_DATAFLOW_STREAM_ZERO_STEP")


def test_deadlock_is_detected_and_explained() -> None:
    g = Graph("dl", [i1, none], ["c", "start"])
    a = g.args
    br = g.op("handshake.cond_br", [a["c"], a["start"]], [none, none], ["t", "f"])
    j = g.op("handshake.join", [br.results[0]], [none], ["j"])
    g.op("handshake.sink", [br.results[1]], [])
    g.ret(j.results[0])
    r = simulate(g.func, {"c": False})
    assert r.status == "deadlock"
    assert r.results == []
    assert r.residual_tokens == 0  # nothing is stuck in a channel: the token went down the false branch
    assert r.deadlock_report.startswith("deadlock: the return never fired")
    ok = simulate(g.func, {"c": True})
    assert ok.status == "completed" and ok.results == [] and ok.residual_tokens == 0


def test_deadlock_report_names_the_waiting_port() -> None:
    g = Graph("dl2", [i32, i1, none], ["x", "c", "start"])
    a = g.args
    br = g.op("handshake.cond_br", [a["c"], a["start"]], [none, none], ["t", "f"])
    k = g.op("handshake.constant", [br.results[0]], [i32], ["k"], value=IntegerAttr(1, i32))
    add = g.op("arith.addi", [a["x"], k.results[0]], [i32], ["sum"])
    g.ret(add.results[0], br.results[1])
    r = simulate(g.func, {"x": 4, "c": True})
    assert r.status == "deadlock"
    assert r.residual_tokens == 1  # the sum waits at the return for a done token that went the other way
    assert "'handshake.return'" in r.deadlock_report and "waits on in1" in r.deadlock_report
    r = simulate(g.func, {"x": 4, "c": False})
    assert r.status == "deadlock"
    assert "'arith.addi'" in r.deadlock_report and "holds in0 %x x1" in r.deadlock_report


def test_multi_use_values_get_one_channel_per_use() -> None:
    g = Graph("mu", [i32, none], ["x", "start"])
    a = g.args
    add = g.op("arith.addi", [a["x"], a["x"]], [i32], ["y"])
    g.ret(add.results[0], a["start"])
    r = simulate(g.func, {"x": 21})
    assert r.results == [42]
    assert r.channels == {"%x[0]": 1, "%x[1]": 1, "%y": 1, "%start": 1}


def test_poison_sources_feed_forever_and_are_never_residual() -> None:
    g = Graph("p", [i1, i32, none], ["c", "x", "start"])
    a = g.args
    p = g.op("ub.poison", [], [i32], ["p"])
    sel = g.op("arith.extui", [a["c"]], [index], ["sel"])
    m = g.op("handshake.mux", [sel.results[0], p.results[0], a["x"]], [i32], ["m"])
    g.ret(m.results[0], a["start"])
    r = simulate(g.func, {"c": 0, "x": 9})
    assert r.status == "completed" and r.results == [0]
    assert r.residual_tokens == 1  # x was never selected; the poison channel does not count
    assert r.channels["%p"] == 1  # one poison token was taken
    r = simulate(g.func, {"c": 1, "x": 9})
    assert r.results == [9] and r.residual_tokens == 0 and r.channels["%p"] == 0


def doubling_kernel() -> Graph:
    """c[i] = a[i] + a[i] for i < n, with extmemory, stream/gate, invariant ctrl, done via cond_br exit."""
    mt = MemRefType((None,), f32)
    g = Graph("dbl", [mt, mt, index, none], ["a", "c", "n", "start"])
    a = g.args
    c0 = g.op("handshake.constant", [a["start"]], [index], ["c0"], value=IntegerAttr(0, index))
    c1 = g.op("handshake.constant", [a["start"]], [index], ["c1"], value=IntegerAttr(1, index))
    s = g.op("dataflow.stream", [c0.results[0], c1.results[0], a["n"]], [index, i1], ["idx", "cont"])
    gt = g.op("dataflow.gate", list(s.results), [index, i1], ["iv", "ac"])
    ldctrl = g.op("dataflow.invariant", [gt.results[1], a["start"]], [none], ["ldctrl"])
    stctrl = g.op("dataflow.invariant", [gt.results[1], a["start"]], [none], ["stctrl"])
    ld = g.op("handshake.load", [gt.results[0], a["start"], ldctrl.results[0]], [f32, index], ["ld", "ldaddr"])
    mem_a = g.op(
        "handshake.extmemory", [a["a"], ld.results[1]], [f32, none], ["ma"], ldCount=IntegerAttr(1), stCount=IntegerAttr(0)
    )
    ld.operands[1] = mem_a.results[0]
    dbl = g.op("arith.addf", [ld.results[0], ld.results[0]], [f32], ["dbl"])
    stv = g.op("handshake.store", [gt.results[0], dbl.results[0], stctrl.results[0]], [f32, index], ["sd", "sa"])
    mem_c = g.op(
        "handshake.extmemory", [a["c"], stv.results[0], stv.results[1]], [none], ["mc"], ldCount=IntegerAttr(0), stCount=IntegerAttr(1)
    )
    done = g.op("handshake.cond_br", [gt.results[1], mem_c.results[0]], [none, none], ["more", "last"])
    g.op("handshake.sink", [done.results[0]], [])
    g.op("handshake.sink", [mem_a.results[1]], [])
    g.ret(done.results[1])
    return g


@settings(max_examples=25, deadline=None)
@given(xs=st.lists(st.integers(-50, 50), min_size=1, max_size=12))
def test_extmemory_loads_and_stores_reach_the_argument_buffers(xs: list[int]) -> None:
    a = [float(x) / 4 for x in xs]
    c_in = [7.0] * (len(xs) + 2)
    r = simulate(doubling_kernel().func, {"a": a, "c": c_in, "n": len(xs)})
    assert r.status == "completed", r.deadlock_report
    assert r.residual_tokens == 0, r.deadlock_report
    assert r.memrefs["a"] == a
    assert r.memrefs["c"] == [2 * x for x in a] + [7.0, 7.0]
    assert r.results == []
    assert r.channels["%ld[0]"] == r.channels["%ld[1]"] == len(xs) and r.channels["%sa"] == len(xs)


def test_zero_trip_kernel_without_a_guard_deadlocks() -> None:
    """Without the scf.if zero-trip guard the corpus adds, n = 0 never produces a done token."""
    r = simulate(doubling_kernel().func, {"a": [1.0], "c": [0.0], "n": 0})
    assert r.status == "deadlock"
    assert r.residual_tokens > 0
    assert "dataflow.invariant" in r.deadlock_report


def test_memref_inputs_are_copied_not_modified() -> None:
    view = MemRefView.from_flat([0.0, 0.0], f32, [2])
    r = simulate(doubling_kernel().func, {"a": [1.0, 2.0], "c": view, "n": 2})
    assert r.memrefs["c"] == [2.0, 4.0]
    assert view.to_flat() == [0.0, 0.0]


def test_out_of_bounds_access_is_an_error_status() -> None:
    r = simulate(doubling_kernel().func, {"a": [1.0, 2.0], "c": [0.0], "n": 2})
    assert r.status == "error"
    assert r.error.code == "RT_MEMREF_OUT_OF_BOUNDS"
    assert "handshake.extmemory" in r.error.message


def test_handshake_memory_is_zeroed_or_initialised_from_a_global() -> None:
    g = Graph("gl", [index, none], ["i", "start"])
    a = g.args
    ld = g.op("handshake.load", [a["i"], a["start"], a["start"]], [i32, index], ["v", "addr"])
    mem = g.op(
        "handshake.memory",
        [ld.results[1]],
        [i32, none],
        ["m"],
        ldCount=IntegerAttr(1),
        stCount=IntegerAttr(0),
        memRefType=TypeAttr(MemRefType((4,), i32)),
        **{"loom.global_memref": SymbolRefAttr("table")},
    )
    ld.operands[1] = mem.results[0]
    g.ret(ld.results[0], mem.results[1])
    assert simulate(g.func, {"i": 2}).results == [0]
    r = simulate(g.func, {"i": 2, "@table": [5, 6, 7, 8]})
    assert r.status == "completed" and r.results == [7] and r.residual_tokens == 0
    assert simulate(g.func, {"i": 3, "table": [5, 6, 7, -1]}).results == [(1 << 32) - 1]


def test_non_terminating_stream_hits_the_step_limit() -> None:
    r = simulate(stream_gate_carry("*=", "<").func, {"start": 0, "step": 1, "bound": 5, "init": 3}, max_steps=500)
    # The carry's seed reaches the return at once; 0 *= 1 then never leaves the loop.
    assert r.status == "completed" and r.results == [3]
    assert not r.quiescent and r.steps == 500
    g = Graph("inf", [index, index, index, none], ["start", "step", "bound", "go"])
    a = g.args
    s = g.op("dataflow.stream", [a["start"], a["step"], a["bound"]], [index, i1], ["idx", "cont"], step_op=StringAttr("*="))
    j = g.op("handshake.join", [a["go"], s.results[1]], [none], ["j"])
    g.op("handshake.sink", [s.results[0]], [])
    br = g.op("handshake.cond_br", [s.results[1], j.results[0]], [none, none], ["t", "f"])
    g.op("handshake.sink", [br.results[0]], [])
    g.ret(br.results[1])
    r = simulate(g.func, {"start": 0, "step": 1, "bound": 5}, max_steps=300)
    assert r.status == "error" and r.error.code == "RT_SIM_STEP_LIMIT"


def test_missing_input_is_a_loom_error() -> None:
    with pytest.raises(LoomError) as ei:
        simulate(sum_loop().func, {"start": 0, "step": 1})
    assert ei.value.code == "IO_INPUT_MISSING" and "'bound'" in str(ei.value)


def test_simulation_is_deterministic() -> None:
    inputs = {"a": [1.0, 2.0, 3.0], "c": [0.0] * 3, "n": 3}
    first, second = simulate(doubling_kernel().func, inputs), simulate(doubling_kernel().func, inputs)
    assert (first.results, first.memrefs, first.channels, first.steps) == (
        second.results,
        second.memrefs,
        second.channels,
        second.steps,
    )


def test_to_json_has_the_design_shape() -> None:
    g = doubling_kernel()
    r = simulate(g.func, {"a": [1.0], "c": [0.0], "n": 1})
    assert isinstance(r, SimResult)
    doc = r.to_json(g.func)
    assert list(doc) == ["status", "results", "memrefs", "residual_tokens", "channels", "error"]
    assert doc["memrefs"] == {"a": [1.0], "c": [2.0]} and doc["status"] == "completed" and doc["error"] is None
