"""Handshake and memory tables: token balance and routing, exercised one machine at a time."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loom.ir.types import MemRefType, f32, i1, i32, index, none
from loom.runtime import MemRefView
from loom.semantics import TOKEN, handshake_ops, memory_ops
from loom.sim.standalone import run_machine

values = st.lists(st.integers(min_value=0, max_value=255), max_size=8)
bits = st.lists(st.sampled_from([0, 1]), max_size=8)


@settings(max_examples=80, deadline=None)
@given(xs=values, n=st.integers(1, 4))
def test_fork_copies_every_token_to_every_output(xs: list[int], n: int) -> None:
    r = run_machine(handshake_ops.fork(i32, n), {"in": xs})
    assert r.outputs == {f"out{k}": xs for k in range(n)}
    assert r.leftover["in"] == []


@settings(max_examples=80, deadline=None)
@given(streams=st.lists(values, min_size=1, max_size=4))
def test_join_fires_once_per_complete_set(streams: list[list[int]]) -> None:
    r = run_machine(handshake_ops.join([i32] * len(streams)), {f"in{k}": s for k, s in enumerate(streams)})
    fired = min(len(s) for s in streams)
    assert r.outputs["out"] == [TOKEN] * fired
    for k, s in enumerate(streams):
        assert r.leftover[f"in{k}"] == s[fired:]


@settings(max_examples=80, deadline=None)
@given(pairs=st.lists(st.tuples(st.sampled_from([0, 1]), st.integers(0, 99)), max_size=10))
def test_cond_br_routes_by_condition_and_balances(pairs: list[tuple[int, int]]) -> None:
    r = run_machine(handshake_ops.cond_br(i32), {"cond": [c for c, _ in pairs], "data": [d for _, d in pairs]})
    assert r.outputs["true"] == [d for c, d in pairs if c]
    assert r.outputs["false"] == [d for c, d in pairs if not c]
    assert len(r.outputs["true"]) + len(r.outputs["false"]) == len(pairs)


@settings(max_examples=80, deadline=None)
@given(
    sel=st.lists(st.integers(0, 2), max_size=8),
    data=st.lists(st.lists(st.integers(0, 99), max_size=8), min_size=3, max_size=3),
)
def test_mux_reads_only_the_selected_input(sel: list[int], data: list[list[int]]) -> None:
    r = run_machine(handshake_ops.mux(index, i32, 3), {"select": sel, **{f"data{k}": d for k, d in enumerate(data)}})
    # Replay: each select consumes one token of the selected input; stop at the first starved select.
    expected, pos = [], [0, 0, 0]
    for s in sel:
        if pos[s] >= len(data[s]):
            break
        expected.append(data[s][pos[s]])
        pos[s] += 1
    assert r.outputs["out"] == expected
    for k in range(3):
        assert r.leftover[f"data{k}"] == data[k][pos[k]:]
    assert len(r.leftover["select"]) == len(sel) - len(expected)


def test_mux_with_i1_select_picks_data0_on_false() -> None:
    r = run_machine(handshake_ops.mux(i1, f32, 2), {"select": [0, 1, 1], "data0": [1.0], "data1": [2.0, 3.0]})
    assert r.outputs["out"] == [1.0, 2.0, 3.0]


def test_mux_select_out_of_range_is_a_runtime_error() -> None:
    r = run_machine(handshake_ops.mux(index, i32, 2), {"select": [5], "data0": [1], "data1": [2]})
    assert r.error is not None and r.error.code == "RT_HANDSHAKE_MUX_SELECT_RANGE"


@settings(max_examples=80, deadline=None)
@given(streams=st.lists(values, min_size=1, max_size=4))
def test_merge_forwards_every_token_lowest_index_first(streams: list[list[int]]) -> None:
    r = run_machine(handshake_ops.merge(i32, len(streams)), {f"in{k}": s for k, s in enumerate(streams)})
    assert r.outputs["out"] == [x for s in streams for x in s]  # all inputs ready: in0 drains first


@settings(max_examples=80, deadline=None)
@given(streams=st.lists(values, min_size=1, max_size=4))
def test_control_merge_reports_the_input_taken(streams: list[list[int]]) -> None:
    r = run_machine(
        handshake_ops.control_merge(none, index, len(streams)), {f"in{k}": s for k, s in enumerate(streams)}
    )
    assert r.outputs["out"] == [x for s in streams for x in s]
    assert r.outputs["index"] == [k for k, s in enumerate(streams) for _ in s]


def test_constant_sink_buffer() -> None:
    assert run_machine(handshake_ops.constant(none, i32, 7), {"ctrl": [TOKEN] * 3}).outputs["out"] == [7, 7, 7]
    r = run_machine(handshake_ops.sink(i32), {"in": [1, 2]})
    assert r.leftover["in"] == [] and r.outputs == {}
    assert run_machine(handshake_ops.buffer(i32, 2), {"in": [4, 5, 6]}).outputs["out"] == [4, 5, 6]


def test_load_issue_and_deliver_are_independent() -> None:
    m = handshake_ops.load([index], f32)
    r = run_machine(m, {"addr0": [3, 4], "ctrl": [TOKEN], "mem_data": [1.5, 2.5]})
    assert r.outputs["mem_addr0"] == [3]  # one ctrl token: one address issued
    assert r.outputs["data"] == [1.5, 2.5]  # memory data is forwarded regardless
    assert r.leftover["addr0"] == [4]


def test_store_needs_address_data_and_ctrl() -> None:
    m = handshake_ops.store([index, index], i32)
    r = run_machine(m, {"addr0": [1, 2], "addr1": [3, 4], "data": [9], "ctrl": [TOKEN, TOKEN]})
    assert r.outputs == {"mem_data": [9], "mem_addr0": [1], "mem_addr1": [3]}


def test_return_completes_once_with_all_operands() -> None:
    r = run_machine(handshake_ops.return_([i32, none]), {"in0": [5, 6], "in1": [TOKEN, TOKEN]})
    assert r.completed == [5, TOKEN]
    assert r.state == "done"
    assert r.leftover == {"in0": [6], "in1": [TOKEN]}


def test_combinational_arith_reads_all_operands() -> None:
    from loom.ir import IntegerAttr

    m = handshake_ops.combinational("arith.addi", (), [i32, i32], [i32])
    r = run_machine(m, {"in0": [1, 0xFFFFFFFF, 3], "in1": [2, 2]})
    assert r.outputs["out0"] == [3, 1]  # wraps at 32 bits; the third lhs waits for a rhs
    cmp = handshake_ops.combinational("arith.cmpi", (("predicate", IntegerAttr(2)),), [i32, i32], [i1])
    assert run_machine(cmp, {"in0": [0xFFFFFFFF], "in1": [0]}).outputs["out0"] == [1]  # -1 <s 0


# ----------------------------------------------------------------------------- memory


@settings(max_examples=60, deadline=None)
@given(
    stores=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 99)), max_size=6),
    loads=st.lists(st.integers(0, 7), max_size=6),
)
def test_memory_ports_balance_and_stores_land(stores: list[tuple[int, int]], loads: list[int]) -> None:
    mt = MemRefType((8,), i32)
    view = MemRefView.allocate(i32, [8])
    m = memory_ops.memory(mt, ld_count=1, st_count=1, external=False)
    r = run_machine(
        m,
        {"st0.data": [d for _, d in stores], "st0.addr0": [a for a, _ in stores], "ld0.addr0": loads},
        memory=view,
    )
    assert r.outputs["st0.done"] == [TOKEN] * len(stores)
    assert r.outputs["ld0.done"] == [TOKEN] * len(loads)
    assert len(r.outputs["ld0.data"]) == len(loads)
    final = [0] * 8
    for a, d in stores:
        final[a] = d
    assert view.to_flat() == final


def test_memory_result_and_port_order_follow_ir_conventions() -> None:
    mt = MemRefType((4, 4), f32)
    m = memory_ops.memory(mt, ld_count=2, st_count=1, external=True)
    assert [p.name for p in m.inputs] == [
        "memref",
        "st0.data",
        "st0.addr0",
        "st0.addr1",
        "ld0.addr0",
        "ld0.addr1",
        "ld1.addr0",
        "ld1.addr1",
    ]
    assert m.inputs[0].kind == "memref"
    assert [p.name for p in m.outputs] == ["ld0.data", "ld1.data", "st0.done", "ld0.done", "ld1.done"]


def test_memory_load_reads_row_major_and_out_of_bounds_is_an_error() -> None:
    view = MemRefView.from_flat(list(range(6)), i32, [2, 3])
    m = memory_ops.memory(MemRefType((2, 3), i32), ld_count=1, st_count=0, external=True)
    r = run_machine(m, {"ld0.addr0": [1, 0], "ld0.addr1": [2, 1]}, memory=view)
    assert r.outputs["ld0.data"] == [5, 1]
    bad = run_machine(m, {"ld0.addr0": [2], "ld0.addr1": [0]}, memory=view)
    assert bad.error is not None and bad.error.code == "RT_MEMREF_OUT_OF_BOUNDS"
