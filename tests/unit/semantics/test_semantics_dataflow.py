"""dataflow.stream / gate / carry / invariant tables: every spec example, and properties for all parameters."""

from __future__ import annotations

import functools
from typing import Optional

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from loom.ir.types import f32, i1, i32, index, none
from loom.semantics import dataflow_ops
from loom.semantics.functions import CONT_CONDS, STEP_OPS
from loom.sim.standalone import run_machine

MASK = (1 << 64) - 1
T, F = 1, 0


def u(x: int) -> int:
    """A signed Python int as the runtime's unsigned 64-bit index pattern."""
    return x & MASK


def s(x: int) -> int:
    x &= MASK
    return x - (1 << 64) if x >> 63 else x


@functools.lru_cache(maxsize=None)
def stream_table(step_op: str, cont_cond: Optional[str]):
    return dataflow_ops.stream(step_op, cont_cond)


def run_stream(start: int, step: int, bound: int, step_op: str = "+=", cont_cond: Optional[str] = "<"):
    r = run_machine(stream_table(step_op, cont_cond), {"start": [u(start)], "step": [u(step)], "bound": [u(bound)]})
    assert r.error is None
    return [s(x) for x in r.outputs["idx"]], r.outputs["cont"], r


# ----------------------------------------------------------------------------- spec examples


def test_stream_spec_example_0_1_4() -> None:
    idx, cont, r = run_stream(0, 1, 4)
    assert idx == [0, 1, 2, 3, 4]
    assert cont == [T, T, T, T, F]
    assert r.state == "idle"


def test_stream_zero_trip_example() -> None:
    idx, cont, r = run_stream(3, 1, 3)
    assert idx == [3] and cont == [F]
    assert r.state == "idle"


def test_stream_v0_example_without_cont_cond_uses_sign_of_step() -> None:
    idx, cont, _ = run_stream(0, 1, 5, "+=", None)
    assert idx == [0, 1, 2, 3, 4, 5]
    assert cont == [T, T, T, T, T, F]
    idx, cont, _ = run_stream(5, -1, 0, "+=", None)  # negative step: continue while idx > bound
    assert idx == [5, 4, 3, 2, 1, 0]
    assert cont == [T, T, T, T, T, F]


def test_stream_zero_step_is_a_runtime_error() -> None:
    r = run_machine(dataflow_ops.stream("+=", "<"), {"start": [0], "step": [0], "bound": [4]})
    assert r.error is not None and r.error.code == "RT_DATAFLOW_STREAM_ZERO_STEP"
    assert r.outputs == {"idx": [], "cont": []}


def test_gate_spec_example() -> None:
    r = run_machine(dataflow_ops.gate(index), {"before_value": [0, 1, 2, 3, 4], "before_cond": [T, T, T, T, F]})
    assert r.outputs["after_value"] == [0, 1, 2, 3]
    assert r.outputs["after_cond"] == [T, T, T, F]
    assert r.state == "need_head"


def test_gate_single_false_emits_nothing() -> None:
    r = run_machine(dataflow_ops.gate(f32), {"before_value": [9.0], "before_cond": [F]})
    assert r.outputs == {"after_value": [], "after_cond": []}
    assert r.state == "need_head"


def test_carry_spec_example() -> None:
    r = run_machine(
        dataflow_ops.carry(i32),
        {"a": ["A", "B"], "b": ["C", "D", "E", "F", "G", "H"], "d": [T, T, F, T, T, T, T, F]},
    )
    assert r.outputs["o"] == ["A", "C", "D", "B", "E", "F", "G", "H"]
    assert r.state == "need_init"
    assert all(not v for v in r.leftover.values())


def test_invariant_spec_example() -> None:
    r = run_machine(dataflow_ops.invariant(i32), {"a": ["A", "B"], "d": [T, T, F, T, T, T, T, F]})
    assert r.outputs["o"] == ["A", "A", "A", "B", "B", "B", "B", "B"]
    assert r.state == "need_init"


def test_stream_gate_carry_chain() -> None:
    idx, cont, _ = run_stream(0, 1, 4)
    g = run_machine(dataflow_ops.gate(index), {"before_value": [u(x) for x in idx], "before_cond": cont})
    c = run_machine(
        dataflow_ops.carry(index), {"d": g.outputs["after_cond"], "a": [100], "b": g.outputs["after_value"]}
    )
    # carry emits the seed, then one body value per true after_cond; the last body value is left over.
    assert c.outputs["o"] == [100, 0, 1, 2]
    assert c.leftover["b"] == [3]
    assert c.state == "need_init"


def test_carry_and_invariant_wait_for_the_seed_before_reading_d() -> None:
    r = run_machine(dataflow_ops.carry(i32), {"d": [T, F], "b": [1]})
    assert r.outputs["o"] == [] and r.leftover["d"] == [T, F] and r.state == "need_init"
    r = run_machine(dataflow_ops.invariant(none), {"d": [T]})
    assert r.outputs["o"] == [] and r.leftover["d"] == [T]


# ----------------------------------------------------------------------------- stream properties


def _step(op: str, x: int, y: int) -> int:
    """Reference index update on signed Python ints, wrapped to 64 bits."""
    if op == "+=":
        r = x + y
    elif op == "-=":
        r = x - y
    elif op == "*=":
        r = x * y
    elif op == "/=":
        q = abs(x) // abs(y)
        r = q if (x < 0) == (y < 0) else -q
    elif op == "<<=":
        r = 0 if u(y) >= 64 else x << u(y)
    else:
        r = x >> min(u(y), 63)
    return s(r)


def _cmp(cc: Optional[str], x: int, b: int, step: int) -> bool:
    if cc is None:
        return (step > 0 and x < b) or (step < 0 and x > b)
    return {"<": x < b, "<=": x <= b, ">": x > b, ">=": x >= b, "!=": x != b}[cc]


def reference_stream(start: int, step: int, bound: int, op: str, cc: Optional[str], cap: int = 40):
    """The body indices of ``for (i = start; i cc bound; i op= step)``; None if more than ``cap``."""
    out, x = [], start
    while _cmp(cc, x, bound, step):
        out.append(x)
        if len(out) > cap:
            return None
        x = _step(op, x, step)
    return out, x


small = st.integers(min_value=-40, max_value=40)


@settings(max_examples=250, deadline=None)
@given(
    op=st.sampled_from(STEP_OPS),
    cc=st.sampled_from(CONT_CONDS + (None,)),
    start=small,
    step=st.integers(min_value=-6, max_value=6).filter(lambda v: v != 0),
    bound=small,
)
def test_stream_matches_reference_loop(op: str, cc: Optional[str], start: int, step: int, bound: int) -> None:
    ref = reference_stream(start, step, bound, op, cc)
    assume(ref is not None)
    body, last = ref
    idx, cont, r = run_stream(start, step, bound, op, cc)
    n = len(body)
    assert len(idx) == n + 1 and len(cont) == n + 1
    assert cont == [T] * n + [F]
    assert idx == body + [last]
    assert r.state == "idle"  # back in its initial state after the terminating false


@settings(max_examples=60, deadline=None)
@given(
    params=st.lists(st.tuples(st.integers(-10, 10), st.integers(1, 3), st.integers(-10, 10)), min_size=1, max_size=4),
    cc=st.sampled_from(("<", "<=", "!=")),
)
def test_stream_handles_consecutive_activations(params: list, cc: str) -> None:
    if cc == "!=":
        params = [(a, st_, a + st_ * abs(b)) for a, st_, b in params]  # reachable bounds only
    r = run_machine(
        dataflow_ops.stream("+=", cc),
        {
            "start": [u(a) for a, _, _ in params],
            "step": [u(b) for _, b, _ in params],
            "bound": [u(c) for _, _, c in params],
        },
    )
    expected_idx, expected_cont = [], []
    for a, b, c in params:
        body, last = reference_stream(a, b, c, "+=", cc, cap=100)
        expected_idx += body + [last]
        expected_cont += [T] * len(body) + [F]
    assert [s(x) for x in r.outputs["idx"]] == expected_idx
    assert r.outputs["cont"] == expected_cont
    assert r.state == "idle"


def test_stream_index_compares_are_signed_and_wrap() -> None:
    idx, cont, _ = run_stream(-3, 1, 0)  # -3 < 0 only under a signed compare
    assert idx == [-3, -2, -1, 0] and cont == [T, T, T, F]
    big = (1 << 63) - 2
    idx, cont, _ = run_stream(big, 1, -(1 << 63), "+=", "!=")  # wraps through INT64_MAX
    assert idx == [big, big + 1, -(1 << 63)] and cont == [T, T, F]


# ----------------------------------------------------------------------------- gate / carry / invariant properties


bursts = st.lists(st.integers(min_value=0, max_value=5), min_size=0, max_size=5)  # trip counts N per burst


def _cond_stream(trips: list[int]) -> list[int]:
    out: list[int] = []
    for n in trips:
        out += [T] * n + [F]
    return out


@settings(max_examples=150, deadline=None)
@given(trips=bursts)
def test_gate_maps_each_burst_to_n_values_and_n_conds(trips: list[int]) -> None:
    conds = _cond_stream(trips)
    values = list(range(100, 100 + len(conds)))
    r = run_machine(dataflow_ops.gate(i32), {"before_value": values, "before_cond": conds})
    exp_v, exp_c, pos = [], [], 0
    for n in trips:
        exp_v += values[pos : pos + n]
        exp_c += ([T] * (n - 1) + [F]) if n else []
        pos += n + 1
    assert r.outputs["after_value"] == exp_v
    assert r.outputs["after_cond"] == exp_c
    assert r.state == "need_head"
    assert r.leftover == {"before_value": [], "before_cond": []}


@settings(max_examples=150, deadline=None)
@given(trips=bursts)
def test_carry_emits_seed_plus_one_per_true(trips: list[int]) -> None:
    d = _cond_stream(trips)
    a = [1000 + k for k in range(len(trips))]
    b = list(range(sum(trips)))
    r = run_machine(dataflow_ops.carry(i32), {"d": d, "a": a, "b": b})
    assert len(r.outputs["o"]) == len(a) + sum(d)
    expected, pos = [], 0
    for k, n in enumerate(trips):
        expected += [a[k]] + b[pos : pos + n]
        pos += n
    assert r.outputs["o"] == expected
    assert r.state == "need_init"
    assert all(not v for v in r.leftover.values())


@settings(max_examples=150, deadline=None)
@given(trips=bursts)
def test_invariant_emits_seed_plus_one_per_true(trips: list[int]) -> None:
    d = _cond_stream(trips)
    a = [1000 + k for k in range(len(trips))]
    r = run_machine(dataflow_ops.invariant(i32), {"d": d, "a": a})
    assert len(r.outputs["o"]) == len(a) + sum(d)
    assert r.outputs["o"] == [x for k, n in enumerate(trips) for x in [a[k]] * (n + 1)]
    assert r.state == "need_init"


@settings(max_examples=60, deadline=None)
@given(trips=st.lists(st.integers(0, 4), min_size=1, max_size=4))
def test_every_machine_is_initial_after_each_terminating_false(trips: list[int]) -> None:
    """Cut the streams after each burst: every machine must be back in its initial state there."""
    for k in range(1, len(trips) + 1):
        prefix = trips[:k]
        d = _cond_stream(prefix)
        runs = {
            "gate": run_machine(dataflow_ops.gate(i1), {"before_value": d, "before_cond": d}),
            "carry": run_machine(dataflow_ops.carry(i1), {"d": d, "a": [0] * k, "b": [1] * sum(prefix)}),
            "invariant": run_machine(dataflow_ops.invariant(i1), {"d": d, "a": [0] * k}),
        }
        for name, r in runs.items():
            m = {"gate": dataflow_ops.gate, "carry": dataflow_ops.carry, "invariant": dataflow_ops.invariant}[name](i1)
            assert r.state == m.initial, name
            assert r.state not in m.residual_states


@pytest.mark.parametrize("n", [0, 1, 3])
def test_machines_mid_burst_are_in_a_residual_state(n: int) -> None:
    carry = run_machine(dataflow_ops.carry(i32), {"a": [7], "d": [T] * n, "b": [1] * n})
    assert carry.state in dataflow_ops.carry(i32).residual_states
    gate = run_machine(dataflow_ops.gate(i32), {"before_value": [1] * (n + 1), "before_cond": [T] * (n + 1)})
    assert gate.state in dataflow_ops.gate(i32).residual_states
    stream = run_machine(dataflow_ops.stream("*=", "<"), {"start": [0], "step": [1], "bound": [5]}, max_steps=50)
    assert stream.state in dataflow_ops.stream("*=", "<").residual_states  # 0 *= 1 never terminates
