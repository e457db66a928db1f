"""Tables of the ops issue 12 adds or completes: a buffer primed with initial values, and what the
verifier's copy analysis makes of it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from loom.ir.types import i32
from loom.mlir import parse_text
from loom.semantics import handshake_ops, machine_for
from loom.semantics.handshake_ops import copied_value, is_copy
from loom.sim.standalone import run_machine

values = st.lists(st.integers(min_value=0, max_value=255), max_size=8)


@settings(max_examples=60, deadline=None)
@given(init=st.lists(st.integers(0, 255), min_size=1, max_size=4), xs=values)
def test_primed_buffer_emits_its_initial_values_first_then_its_input(init: list[int], xs: list[int]) -> None:
    m = handshake_ops.buffer(i32, len(init), init)
    r = run_machine(m, {"in": xs})
    assert r.outputs["out"] == init + xs
    assert r.leftover["in"] == []
    assert m.initial in m.residual_states  # holding tokens before it has emitted them


@settings(max_examples=30, deadline=None)
@given(xs=values)
def test_plain_buffer_is_an_identity(xs: list[int]) -> None:
    r = run_machine(handshake_ops.buffer(i32, 2), {"in": xs})
    assert r.outputs["out"] == xs


BUFS = """
handshake.func @f(%a: i32, %c: none, ...) -> (i32, i32, none) attributes {argNames = ["a", "c"], resNames = ["x", "y", "d"]} {
  %p = buffer [2] seq %a {initValues = [7, -1]} : i32
  %q = buffer [2] seq %a : i32
  return %p, %q, %c : i32, i32, none
}
"""


def test_primed_buffer_is_not_a_copy_for_the_verifier() -> None:
    func = parse_text(BUFS).functions()[0]
    primed, plain = func.regions[0].entry.ops[:2]
    assert not is_copy(primed) and is_copy(plain)
    assert copied_value(primed.results[0]) is primed.results[0]
    assert copied_value(plain.results[0]) is plain.operands[0]
    m = machine_for(primed)
    emitted = [e.value for r in m.rules if not r.reads for _, e in r.emits]
    assert emitted == [7, 0xFFFFFFFF]  # -1 as the i32 bit pattern the runtime uses


def test_primed_control_buffer_emits_tokens() -> None:
    from loom.ir.types import none
    from loom.semantics import TOKEN

    func = parse_text("""
handshake.func @f(%c: none, ...) -> (none) attributes {argNames = ["c"], resNames = ["d"]} {
  %p = buffer [2] seq %c {initValues = [0, 5]} : none
  return %p : none
}
""").functions()[0]
    m = machine_for(func.regions[0].entry.ops[0])
    assert [e.value for r in m.rules if not r.reads for _, e in r.emits] == [TOKEN, TOKEN]
    r = run_machine(handshake_ops.buffer(none, 1, [TOKEN]), {"in": [TOKEN]})
    assert r.outputs["out"] == [TOKEN, TOKEN]


def test_tuple_encoding_in_z3_takes_back_what_it_packs() -> None:
    import z3

    from loom.ir.types import TupleType, i1, i64
    from loom.verify.z3model import ExprEncoder, const_term

    t = TupleType((i32, i1, i64))
    pack_m = handshake_ops.pack(list(t.types), t)
    unpack_m = handshake_ops.unpack(t, list(t.types))
    heads = {f"in{k}": z3.BitVec(f"x{k}", w) for k, w in enumerate((32, 1, 64))}
    packed = ExprEncoder({p.name: p.type for p in pack_m.inputs}, {}).encode(
        pack_m.rules[0].emits[0][1], heads, {}, t)
    unpack = ExprEncoder({"in": t}, {})
    s = z3.Solver()
    for k, (_, e) in enumerate(unpack_m.rules[0].emits):
        s.add(unpack.encode(e, {"in": packed}, {}, t.types[k]) != heads[f"in{k}"])
    assert s.check() == z3.unsat  # unpack(pack(x)) == x for every x
    # a concrete tuple literal agrees with the Python evaluator's element order
    lit = const_term((5, 1, 7), t)
    got = z3.simplify(unpack.encode(unpack_m.rules[0].emits[2][1], {"in": lit}, {}, i64))
    assert got.as_long() == 7
