"""Lowering options and output contract: RAR on/off, join fan-in legalization, domain independence,
signature, determinism, re-parse, and located errors for unsupported input."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, StringAttr, TypeAttr
from loom.ir.core import Block, Operation, Region, Value
from loom.ir.types import FunctionType, MemRefType, f32, i32, index, none
from loom.lower import LowerOptions, legalize_join_fanin, lower_function, lower_module
from loom.mlir import parse_text, print_module
from loom.sim import simulate
from loom.testing.differential import check_lowering
from loom.testing.scf_builder import ScfBuilder

MEM = MemRefType((16,), i32)


def body_ops(hs: Operation, name: str) -> list[Operation]:
    return [op for op in hs.regions[0].entry.ops if op.name == name]


def many_loads_kernel(loads: int = 6, domains: int = 1) -> ScfBuilder:
    """for i in [0, n): for each domain d: d[i] = d[i] + d[i+1] + ... (``loads`` loads, then one store)."""
    b = ScfBuilder("ld", [MEM] * domains + [index], [], [f"m{k}" for k in range(domains)] + ["n"])
    mems, n = b.args[:-1], b.args[-1]
    c0, c1 = b.const(0, index), b.const(1, index)

    def body(i: Value, _: list[Value]) -> list[Value]:
        for m in mems:
            acc = None
            for k in range(loads):
                idx = b.arith("arith.addi", [i, b.const(k, index)])
                v = b.load(m, [idx])
                acc = v if acc is None else b.arith("arith.addi", [acc, v])
            assert acc is not None
            b.store(acc, m, [i])
        return []

    b.for_(c0, n, c1, [], body)
    b.ret([])
    return b


def inputs_for(domains: int, n: int) -> dict:
    out: dict = {f"m{k}": [(7 * j + k) % 11 - 5 for j in range(16)] for k in range(domains)}
    out["n"] = n
    return out


# ----------------------------------------------------------------------------- RAR


def test_rar_issues_consecutive_loads_in_parallel() -> None:
    hs = lower_function(many_loads_kernel(4).func, LowerOptions(rar=True))
    loads = body_ops(hs, "handshake.load")
    assert len(loads) == 4
    assert len({id(ld.operands[-1]) for ld in loads}) == 1, "the loads share one entry token"
    (store,) = body_ops(hs, "handshake.store")
    ctrl = store.operands[-1]
    assert ctrl.op.name == "handshake.join" and len(ctrl.op.operands) == 4, (
        "the store waits for all four loads"
    )


def test_without_rar_every_access_is_serial() -> None:
    hs = lower_function(many_loads_kernel(4).func, LowerOptions(rar=False))
    loads = body_ops(hs, "handshake.load")
    assert len({id(ld.operands[-1]) for ld in loads}) == 4
    assert not body_ops(hs, "handshake.join")
    (iface,) = body_ops(hs, "handshake.extmemory")
    load_dones = iface.results[len(loads) + 1 :]
    # load k+1 is controlled by load k's done; the store by the last load's done
    for k in range(1, len(loads)):
        assert loads[k].operands[-1] is load_dones[k - 1]
    (store,) = body_ops(hs, "handshake.store")
    assert store.operands[-1] is load_dones[-1]


@pytest.mark.parametrize("rar", [True, False])
@pytest.mark.parametrize("n", [0, 1, 5])
def test_rar_on_and_off_both_correct(rar: bool, n: int) -> None:
    b = many_loads_kernel(3, domains=2)
    cmp = check_lowering(b.module(), "ld", inputs_for(2, n), LowerOptions(rar=rar))
    assert cmp.ok, cmp.detail


# ----------------------------------------------------------------------------- domains


def interfaces_reached(ctrl: Value) -> set[int]:
    """Memory interfaces whose done tokens reach ``ctrl`` through token (none) edges only."""
    seen: set[int] = set()
    found: set[int] = set()
    work = [ctrl]
    while work:
        v = work.pop()
        op = getattr(v, "op", None)
        if op is None or id(op) in seen:
            continue
        seen.add(id(op))
        if op.name in ("handshake.extmemory", "handshake.memory"):
            found.add(op.attributes["id"].value)
            continue
        work.extend(x for x in op.operands if x.type == none)
    return found


def test_domains_are_independent_until_the_done_token() -> None:
    hs = lower_function(many_loads_kernel(2, domains=3).func)
    ifaces = body_ops(hs, "handshake.extmemory")
    assert len(ifaces) == 3
    for acc in body_ops(hs, "handshake.load") + body_ops(hs, "handshake.store"):
        mem = next(i for i in ifaces if any(r in i.operands for r in acc.results[1:]))
        assert interfaces_reached(acc.operands[-1]) == {mem.attributes["id"].value}
    (ret,) = body_ops(hs, "handshake.return")
    done = ret.operands[-1]
    assert done.op.name == "handshake.join" and len(done.op.operands) == 3
    assert interfaces_reached(done) == {0, 1, 2}


def test_no_memory_means_done_is_the_start_token() -> None:
    b = ScfBuilder("pure", [i32], [i32], ["x"])
    b.ret([b.arith("arith.muli", [b.args[0], b.args[0]])])
    hs = lower_function(b.func)
    (ret,) = body_ops(hs, "handshake.return")
    assert ret.operands[-1] is hs.regions[0].entry.args[-1]
    r = simulate(hs, {"x": 7})
    assert r.status == "completed" and r.results == [49] and r.residual_tokens == 0


# ----------------------------------------------------------------------------- join fan-in


@pytest.mark.parametrize("k", [2, 3, 5, 64])
def test_join_fanin_legalization_keeps_semantics(k: int) -> None:
    b = many_loads_kernel(9, domains=5)
    opts = LowerOptions(max_join_fanin=k)
    cmp = check_lowering(b.module(), "ld", inputs_for(5, 4), opts)
    assert cmp.ok, cmp.detail
    joins = body_ops(cmp.dfg, "handshake.join")
    assert joins and all(len(j.operands) <= k for j in joins)
    wide = lower_function(b.func)
    assert max(len(j.operands) for j in body_ops(wide, "handshake.join")) == 9


def join_graph(width: int) -> Operation:
    """handshake.func(width tokens) -> join of all of them."""
    block = Block.create([none] * width, [f"t{i}" for i in range(width)])
    ft = FunctionType(tuple([none] * width), (none,))
    hs = Operation.create(
        "handshake.func",
        attributes={
            "sym_name": StringAttr("j"),
            "function_type": TypeAttr(ft),
            "argNames": ArrayAttr(tuple(StringAttr(f"t{i}") for i in range(width))),
            "resNames": ArrayAttr((StringAttr("done"),)),
        },
        regions=[Region.of(block)],
    )
    j = Operation.create("handshake.join", list(block.args), [none])
    block.append(j)
    block.append(Operation.create("handshake.return", [j.results[0]]))
    return hs


def leaves(v: Value) -> list[Value]:
    op = getattr(v, "op", None)
    if op is None or op.name != "handshake.join":
        return [v]
    return [x for o in op.operands for x in leaves(o)]


@settings(max_examples=60, deadline=None)
@given(width=st.integers(1, 140), k=st.integers(2, 64))
def test_join_tree_shape(width: int, k: int) -> None:
    hs = join_graph(width)
    legalize_join_fanin(hs, k)
    block = hs.regions[0].entry
    joins = [op for op in block.ops if op.name == "handshake.join"]
    assert all(1 <= len(j.operands) <= k for j in joins)
    ret = block.ops[-1]
    assert ret.name == "handshake.return"
    assert leaves(ret.operands[0]) == list(block.args), "each input feeds the tree exactly once, in order"
    r = simulate(hs, {})
    assert r.status == "completed" and r.residual_tokens == 0


@pytest.mark.parametrize("k", [0, 1])
def test_join_fanin_below_two_is_rejected_for_wide_joins(k: int) -> None:
    b = many_loads_kernel(3)
    with pytest.raises(LoomError) as e:
        lower_function(b.func, LowerOptions(max_join_fanin=k))
    assert "fan-in" in str(e.value)
    assert e.value.code == "CPL_JOIN_FANIN"


def test_join_fanin_one_accepts_joins_of_one() -> None:
    hs = join_graph(1)
    legalize_join_fanin(hs, 1)
    assert len(body_ops(hs, "handshake.join")) == 1


@pytest.mark.parametrize("k", [65, 1000])
def test_join_fanin_above_64_is_rejected(k: int) -> None:
    with pytest.raises(LoomError) as e:
        legalize_join_fanin(join_graph(3), k)
    assert "64" in str(e.value)


# ----------------------------------------------------------------------------- signature, text, determinism


def test_signature_keeps_names_and_adds_tokens() -> None:
    b = ScfBuilder("sig", [MEM, index, f32], [], ["buf", "count", "scale"])
    b.ret([b.args[2]])
    hs = lower_function(b.func)
    assert hs.name == "handshake.func"
    assert hs.attributes["sym_name"].value == "sig"
    names = [a.value for a in hs.attributes["argNames"].elements]
    assert names == ["buf", "count", "scale", "start_token"]
    ft = hs.attributes["function_type"].type
    assert ft.inputs == (MEM, index, f32, none) and ft.results == (f32, none)
    assert [a.value for a in hs.attributes["resNames"].elements] == ["result0", "done_token"]
    r = simulate(hs, {"buf": [0] * 16, "count": 3, "scale": 1.5})
    assert r.status == "completed" and r.results == [1.5] and r.residual_tokens == 0


def test_lowering_is_deterministic_and_reparses() -> None:
    text = print_module(many_loads_kernel(3, domains=2).module())
    outs = [print_module(lower_module(parse_text(text), "ld", LowerOptions())) for _ in range(2)]
    assert outs[0] == outs[1]
    again = print_module(parse_text(outs[0]))
    assert again == outs[0], "the printed DFG is a fixpoint of parse + print"
    assert "handshake.func @ld" in outs[0] and "dataflow.stream" in outs[0]


# ----------------------------------------------------------------------------- errors


def test_unsupported_op_is_a_located_error() -> None:
    text = """
func.func @f(%a: i32) -> i32 {
  %t = arith.constant true
  cf.assert %t, "never fails"
  return %a : i32
}
"""
    with pytest.raises(LoomError) as e:
        lower_module(parse_text(text, "bad.scf.mlir"), "f", LowerOptions())
    msg = str(e.value)
    assert re.match(r"bad\.scf\.mlir:4:\d+: error: \[CPL_LOWER_UNSUPPORTED\] operation 'cf.assert'", msg), msg


def test_memref_iter_arg_is_rejected_at_the_access() -> None:
    text = """
func.func @f(%a: memref<4xi32>, %b: memref<4xi32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> (memref<4xi32>) {
    %v = memref.load %m[%c0] : memref<4xi32>
    scf.yield %b : memref<4xi32>
  }
  return
}
"""
    with pytest.raises(LoomError) as e:
        lower_module(parse_text(text, "m.scf.mlir"), None, LowerOptions())
    assert "m.scf.mlir:" in str(e.value) and "CPL_LOWER_UNSUPPORTED" in str(e.value)


def test_unknown_function_name_is_an_error() -> None:
    with pytest.raises(LoomError) as e:
        lower_module(many_loads_kernel().module(), "nope", LowerOptions())
    assert "nope" in str(e.value)


def test_start_token_name_never_collides_with_a_source_argument() -> None:
    text = "func.func @f(%start_token: i32) -> i32 { return %start_token : i32 }"
    hs = lower_module(parse_text(text), "f", LowerOptions()).ops[-1]
    names = [a.value for a in hs.attributes["argNames"].elements]
    assert names == ["start_token", "start_token_0"]
    r = simulate(hs, {"start_token": 9})
    assert r.status == "completed" and r.results == [9] and r.residual_tokens == 0
