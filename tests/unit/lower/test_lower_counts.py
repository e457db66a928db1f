"""Per-loop token counts of lowered loops (specs/lowering.md section 6), for trip counts 0, 1, 2 and 5.

Each kernel is lowered, simulated, and the tokens carried by every channel class
are checked against the N / N+1 table: stream N+1, gate N, body invariants N,
iter_arg carries N+1, for-body memory-control carry N; while: raw-regime
structures N+1, after-region splits N.
"""

from __future__ import annotations

import pytest

from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType, i1, i32, index
from loom.lower import lower_function
from loom.testing.differential import token_counts
from loom.testing.scf_builder import ScfBuilder

TRIPS = [0, 1, 2, 5]
MEM = MemRefType((8,), i32)


def ops(hs: Operation, name: str) -> list[Operation]:
    return [op for op in hs.regions[0].entry.ops if op.name == name]


def one(hs: Operation, name: str) -> Operation:
    found = ops(hs, name)
    assert len(found) == 1, f"expected one {name}, got {len(found)}"
    return found[0]


def for_kernel(const_bounds: int | None = None) -> Operation:
    """acc = 0; for i in [0, n): a[i] = a[i] + x; acc += a[i] (live-in x, an iter_arg, one domain)."""
    b = ScfBuilder("k", [MEM, index, i32], [i32], ["a", "n", "x"])
    a, n, x = b.args
    c0 = b.const(0, index)
    ub = n if const_bounds is None else b.const(const_bounds, index)
    c1 = b.const(1, index)
    zero = b.const(0, i32)

    def body(i: Value, it: list[Value]) -> list[Value]:
        v = b.load(a, [i])
        w = b.arith("arith.addi", [v, x])
        b.store(w, a, [i])
        return [b.arith("arith.addi", [it[0], w])]

    b.ret(b.for_(c0, ub, c1, [zero], body))
    return b.func


def classify_for(hs: Operation) -> dict[str, Value]:
    stream = one(hs, "dataflow.stream")
    gate = one(hs, "dataflow.gate")
    raw, after = stream.results[1], gate.results[1]
    carries = ops(hs, "dataflow.carry")
    iter_carry = [c for c in carries if c.operands[0] is raw]
    mem_carry = [c for c in carries if c.operands[0] is after]
    assert len(iter_carry) == 1 and len(mem_carry) == 1
    invariants = ops(hs, "dataflow.invariant")
    assert invariants and all(inv.operands[0] is after for inv in invariants), (
        "body invariants use after_cond"
    )
    splits = [op for op in ops(hs, "handshake.cond_br") if op.operands[0] is raw]
    (iter_split,) = [s for s in splits if s.operands[1] is iter_carry[0].results[0]]
    (done_split,) = [op for op in ops(hs, "handshake.cond_br") if op.operands[0] is after]
    (body_add,) = [op for op in ops(hs, "arith.addi") if any(v is iter_split.results[0] for v in op.operands)]
    return {
        "index": stream.results[0],
        "raw": raw,
        "iv": gate.results[0],
        "after": after,
        "iter_carry": iter_carry[0].results[0],
        "iter_body": iter_split.results[0],
        "iter_exit": iter_split.results[1],
        "iter_feedback": iter_carry[0].operands[2],
        "mem_carry": mem_carry[0].results[0],
        "mem_feedback": done_split.results[0],
        "mem_exit": done_split.results[1],
        "body_value": body_add.results[0],
        **{f"inv{i}": inv.results[0] for i, inv in enumerate(invariants)},
    }


@pytest.mark.parametrize("n", TRIPS)
def test_guarded_for_loop_counts(n: int) -> None:
    hs = lower_function(for_kernel())
    ch = classify_for(hs)
    counts = token_counts(hs, {"a": list(range(8)), "n": n, "x": 3})
    c = {k: counts.get(v, 0) for k, v in ch.items()}
    # The guard (lb < ub) keeps a zero-trip loop from being activated at all.
    guards = [op for op in ops(hs, "arith.cmpi") if op.results[0].name_hint == "guard"]
    assert len(guards) == 1 and counts[guards[0].results[0]] == 1
    act = 1 if n >= 1 else 0
    assert c["index"] == c["raw"] == act * (n + 1)
    assert c["iv"] == c["after"] == n
    assert c["iter_carry"] == act * (n + 1)
    assert c["iter_body"] == n and c["iter_exit"] == act and c["iter_feedback"] == n
    assert c["mem_carry"] == n, "body memory control sees N tokens"
    assert c["mem_feedback"] == max(n - 1, 0) and c["mem_exit"] == act
    assert c["body_value"] == n
    for k in c:
        if k.startswith("inv"):
            assert c[k] == n, f"body-local invariant {k} carries N tokens"


@pytest.mark.parametrize("n", [1, 3])
def test_statically_running_for_loop_has_no_guard(n: int) -> None:
    hs = lower_function(for_kernel(const_bounds=n))
    assert not [op for op in ops(hs, "arith.cmpi") if op.results[0].name_hint == "guard"]
    assert not ops(hs, "handshake.mux")
    ch = classify_for(hs)
    counts = token_counts(hs, {"a": list(range(8)), "n": 0, "x": 3})
    assert counts[ch["raw"]] == n + 1 and counts[ch["after"]] == n
    assert counts[ch["mem_carry"]] == n and counts[ch["iter_carry"]] == n + 1


def while_kernel() -> Operation:
    """i = 0, s = 0; while (i < n) { s += a[i % 8] + x; a[i % 8] = s; i += 1 }; before region loads a[0]."""
    b = ScfBuilder("w", [MEM, i32, i32], [i32], ["a", "n", "x"])
    a, n, x = b.args
    zero = b.const(0, i32)

    def before(args: list[Value]) -> tuple[Value, list[Value]]:
        i, s = args
        c = b.cmpi("slt", i, n)
        head = b.load(a, [b.const(0, index)])
        return c, [i, b.arith("arith.addi", [s, head])]

    def after(args: list[Value]) -> list[Value]:
        i, s = args
        k = b.arith("arith.remui", [b.cast("arith.index_cast", i, index), b.const(8, index)])
        v = b.load(a, [k])
        t = b.arith("arith.addi", [b.arith("arith.addi", [s, v]), x])
        b.store(t, a, [k])
        return [b.arith("arith.addi", [i, b.const(1, i32)]), t]

    res = b.while_([zero, zero], before, [i32, i32], after)
    b.ret([res[1]])
    return b.func


@pytest.mark.parametrize("n", TRIPS)
def test_while_loop_counts(n: int) -> None:
    hs = lower_function(while_kernel())
    assert not ops(hs, "dataflow.gate"), "scf.while needs no gate"
    assert not ops(hs, "dataflow.stream")
    carries = ops(hs, "dataflow.carry")
    raw = carries[0].operands[0]
    assert all(c.operands[0] is raw for c in carries), "every while carry is on the raw condition"
    assert raw.type == i1
    counts = token_counts(hs, {"a": [1] * 8, "n": n, "x": 2})
    assert counts[raw] == n + 1
    none_carries = [c for c in carries if str(c.results[0].type) == "none"]
    value_carries = [c for c in carries if str(c.results[0].type) != "none"]
    assert len(none_carries) == 1 and len(value_carries) == 2
    for c in carries:
        assert counts[c.results[0]] == n + 1
        assert counts[c.operands[2]] == n, "feedback comes from the after region"
    invariants = ops(hs, "dataflow.invariant")
    assert invariants and all(inv.operands[0] is raw for inv in invariants)
    for inv in invariants:
        assert counts[inv.results[0]] == n + 1
    splits = [op for op in ops(hs, "handshake.cond_br") if op.operands[0] is raw]
    assert splits
    for s in splits:
        assert counts.get(s.results[0], 0) == n and counts.get(s.results[1], 0) == 1
    # after-region memory chain: the store runs N times, the before-region load N+1 times.
    (store,) = ops(hs, "handshake.store")
    loads = ops(hs, "handshake.load")
    assert counts[store.operands[-1]] == n
    assert sorted(counts[ld.operands[-1]] for ld in loads) == [n, n + 1]


def nested_kernel() -> Operation:
    """for i in [0, n): for j in [i, n): a[j] += 1 -- the inner loop's zero trips are data dependent."""
    b = ScfBuilder("nest", [MEM, index], [], ["a", "n"])
    a, n = b.args
    c0, c1, one_ = b.const(0, index), b.const(1, index), b.const(1, i32)

    def outer(i: Value, _: list[Value]) -> list[Value]:
        def inner(j: Value, __: list[Value]) -> list[Value]:
            b.store(b.arith("arith.addi", [b.load(a, [j]), one_]), a, [j])
            return []

        b.for_(i, n, c1, [], inner)
        return []

    b.for_(c0, n, c1, [], outer)
    b.ret([])
    return b.func


@pytest.mark.parametrize("n", [0, 1, 4])
def test_nested_loop_streams_per_activation(n: int) -> None:
    hs = lower_function(nested_kernel())
    streams = ops(hs, "dataflow.stream")
    assert len(streams) == 2
    counts = token_counts(hs, {"a": [0] * 8, "n": n})
    outer, inner = streams
    assert counts.get(outer.results[1], 0) == (n + 1 if n else 0)
    # inner loop i runs n - i times, guarded when n - i == 0 (never, for i < n): sum of (n - i + 1)
    assert counts.get(inner.results[1], 0) == sum(n - i + 1 for i in range(n))
    gates = ops(hs, "dataflow.gate")
    assert counts.get(gates[1].results[1], 0) == sum(n - i for i in range(n))
