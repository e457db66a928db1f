"""Memory ordering and ctrl-done structure (obligation 4): no false alarms, and hand-made faults refuted.

Every fault below is also reproduced: the simulator either disagrees with the SCF
interpreter, deadlocks, or leaves tokens behind, so a refutation is a real fault.
"""

from __future__ import annotations

import functools

import pytest


from loom.interp import run_json
from loom.ir.core import Operation
from loom.ir.types import none
from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file, parse_text
from loom.sim import simulate
from loom.verify.memory.order import check_memory_order
from loom.verify.obligation import VerifyContext
from loom.verify.memory.structure import check_structure, memory_layout

from support.paths import ROOT
from support.memory import LOOP, accesses, lowered, swap_order, uses_of

EXAMPLES = ROOT / "examples"
CTX = VerifyContext(timeout=30)

SWAP = """
func.func @swap(%a: memref<8xi32>, %b: memref<8xi32>, %i: index, %j: index, %x: i32) {
  memref.store %x, %a[%i] : memref<8xi32>
  %v = memref.load %a[%j] : memref<8xi32>
  memref.store %v, %b[%i] : memref<8xi32>
  return
}
"""


def make_parallel(func: Operation, domain: str, first: str, second: str) -> None:
    """Give ``second`` the ctrl token of ``first`` and join both done tokens (a race)."""
    _, accs = accesses(func, domain)
    x = next(a for a in accs if a.name == first)
    y = next(a for a in accs if a.name == second)
    assert y.ctrl is x.done
    cont = uses_of(func, y.done)
    y.op.operands[-1] = x.ctrl
    j = Operation.create("handshake.join", [x.done, y.done], [none], result_names=["raced"])
    func.regions[0].entry.insert(len(func.regions[0].entry.ops) - 1, j)
    for op, i in cont:
        op.operands[i] = j.results[0]


def by_id(obs, oid):
    found = [o for o in obs if o.id == oid]
    assert found, (oid, [o.id for o in obs])
    return found[0]


def sim_vs_interp(func, module, src_name, inputs):
    ref = run_json(module, src_name, inputs).to_json()
    got = simulate(func, inputs, max_steps=200_000)
    return ref, got


# ----------------------------------------------------------------------------- no false alarms


@functools.lru_cache(maxsize=None)
def _example(name: str):
    m = parse_file(EXAMPLES / f"{name}.scf.mlir")
    out = lower_module(m, None, LowerOptions())
    return next(f for f in out.functions() if f.name == "handshake.func"), next(
        f for f in m.functions() if f.name == "func.func"
    )


EXAMPLE_NAMES = sorted(p.name[: -len(".scf.mlir")] for p in EXAMPLES.glob("*.scf.mlir"))


@pytest.mark.parametrize("name", EXAMPLE_NAMES)
def test_examples_have_every_memory_and_structure_obligation_proved(name):
    dfg, src = _example(name)
    obs = check_structure(dfg, CTX) + check_memory_order(dfg, CTX, source=src)
    bad = [(o.id, o.status, o.detail) for o in obs if o.status not in ("proved", "assumed")]
    assert not bad
    lay = memory_layout(dfg)
    stores = [a for a in lay.accesses if a.kind == "store"]
    # every store with a loop around it has its cross-iteration obligation, every access its access check
    assert {f"mem.access.{a.name}" for a in lay.accesses} <= {o.id for o in obs}
    if lay.accesses:
        assert "done.postdom" in {o.id for o in obs}
    for s in stores:
        assert any(o.id.startswith(f"mem.{s.domain.name}.order.") and s.name in o.id for o in obs)


def test_without_source_the_examples_are_race_free():
    for name in EXAMPLE_NAMES:
        dfg, _ = _example(name)
        for o in check_memory_order(dfg, CTX):
            assert o.status == "proved", (name, o.id, o.detail)
            assert "race freedom" in o.detail


def test_rar_loads_may_overlap_and_need_no_obligation():
    text = """
    func.func @rar(%a: memref<8xi32>, %b: memref<8xi32>, %i: index, %j: index) {
      %u = memref.load %a[%i] : memref<8xi32>
      %v = memref.load %a[%j] : memref<8xi32>
      %s = arith.addi %u, %v : i32
      memref.store %s, %a[%i] : memref<8xi32>
      return
    }
    """
    dfg, src, _ = lowered(text)
    joins = [op for op in dfg.regions[0].entry.ops if op.name == "handshake.join"]
    assert joins, "the two loads form an RAR group"
    obs = check_memory_order(dfg, CTX, source=src)
    ids = {o.id for o in obs}
    assert ids == {"mem.a.order.ld0<st0", "mem.a.order.ld1<st0"}
    assert all(o.status == "proved" for o in obs)


# ----------------------------------------------------------------------------- faults


def test_swapped_accesses_are_refuted_against_the_source_order():
    dfg, src, m = lowered(SWAP)
    swap_order(dfg, "a", "st0", "ld0")
    obs = check_memory_order(dfg, CTX, source=src)
    o = by_id(obs, "mem.a.order.st0<ld0")
    assert o.status == "refuted"
    cex = o.counterexample
    assert {cex["first"]["access"], cex["second"]["access"]} == {"st0", "ld0"}
    assert cex["schedule"] and "source runs st0" in cex["reason"]
    # without the source the swapped chain is still a total order: no race to report
    assert all(o.status == "proved" for o in check_memory_order(dfg, CTX))
    # the fault is real: the load now reads the old value
    inputs = {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0] * 8, "i": 2, "j": 2, "x": 100}
    ref, got = sim_vs_interp(dfg, m, "swap", inputs)
    assert got.status == "completed"
    assert ref["memrefs"]["b"][2] == 100 and got.memrefs["b"][2] == 3


def test_swapped_accesses_in_a_loop_name_their_iterations():
    dfg, src, m = lowered(LOOP)
    swap_order(dfg, "a", "ld0", "st0")
    obs = check_memory_order(dfg, CTX, source=src)
    o = by_id(obs, "mem.a.order.ld0<st0")
    assert o.status == "refuted"
    first, second = o.counterexample["first"], o.counterexample["second"]
    assert len(first["iterations"]) == 1 and first["iterations"] == second["iterations"]
    assert o.loc is not None and o.loc.line > 0
    inputs = {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0] * 8, "n": 3, "x": 9}
    ref, got = sim_vs_interp(dfg, m, "loop", inputs)
    assert ref["memrefs"]["b"][:3] == [1, 2, 3] and got.memrefs["b"][:3] == [9, 9, 9]


def test_a_load_racing_a_store_is_refuted_even_without_the_source():
    dfg, src, m = lowered(LOOP)
    make_parallel(dfg, "a", "ld0", "st0")
    for source in (None, src):
        o = by_id(check_memory_order(dfg, CTX, source=source), "mem.a.order.ld0<st0")
        assert o.status == "refuted"
        assert "parallel" in o.counterexample["reason"]
        assert len(o.counterexample["schedule"]) == 3
    # the simulator's memory takes ready stores first: this run shows the race's wrong result
    inputs = {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0] * 8, "n": 2, "x": 9}
    ref, got = sim_vs_interp(dfg, m, "loop", inputs)
    assert got.memrefs["b"][:2] != ref["memrefs"]["b"][:2]


def test_a_cross_domain_join_is_cpl_handshake_ctrl_multi_mem():
    dfg, src, m = lowered(SWAP)
    lay = memory_layout(dfg)
    a_load = next(a for a in lay.accesses if a.name == "ld0")
    b_store = next(a for a in lay.accesses if a.domain.name == "b")
    j = Operation.create("handshake.join", [b_store.ctrl, a_load.done], [none], result_names=["x"])
    dfg.regions[0].entry.insert(0, j)
    b_store.op.operands[-1] = j.results[0]
    obs = check_structure(dfg, CTX)
    o = by_id(obs, "mem.indep.a|b")
    assert o.status == "refuted"
    assert o.detail.startswith("[CPL_HANDSHAKE_CTRL_MULTI_MEM]") and "st1 of b" in o.detail
    assert by_id(obs, "done.postdom").status == "proved"  # the join into the return stays allowed


def test_the_return_join_across_domains_is_allowed():
    dfg, src, _ = lowered(SWAP)
    ret_join = [op for op in dfg.regions[0].entry.ops if op.name == "handshake.join"]
    assert ret_join and len(memory_layout(dfg).domains) == 2
    assert by_id(check_structure(dfg, CTX), "mem.indep.a|b").status == "proved"


def test_a_missing_done_is_refuted_and_lets_a_later_store_overtake():
    text = SWAP.replace(
        "memref.store %v, %b[%i] : memref<8xi32>",
        "memref.store %v, %b[%i] : memref<8xi32>\n  %y = arith.addi %x, %x : i32\n"
        "  memref.store %y, %a[%j] : memref<8xi32>",
    )
    dfg, src, m = lowered(text)
    lay = memory_layout(dfg)
    ld = next(a for a in lay.accesses if a.name == "ld0")
    for op, i in uses_of(dfg, ld.done):
        op.operands[i] = ld.ctrl  # the chain bypasses the load; its done token goes nowhere
    obs = check_structure(dfg, CTX)
    acc = by_id(obs, "mem.access.ld0")
    assert acc.status == "refuted" and "never consumed" in acc.detail
    post = by_id(obs, "done.postdom")
    assert post.status == "refuted" and "ld0" in post.detail
    o = by_id(check_memory_order(dfg, CTX, source=src), "mem.a.order.ld0<st2")
    assert o.status == "refuted" and "parallel" in o.counterexample["reason"]
    # real: the later store to a[j] overtakes the load, which then reads the new value
    inputs = {"a": [1, 2, 3, 4, 5, 6, 7, 8], "b": [0] * 8, "i": 1, "j": 4, "x": 10}
    ref, got = sim_vs_interp(dfg, m, "swap", inputs)
    assert ref["memrefs"]["b"][1] == 5 and got.memrefs["b"][1] == 20


def test_ctrl_taken_from_another_domain_is_refuted():
    """One way, the spec violation only serializes independent domains (results stay right)..."""
    dfg, src, m = lowered(SWAP)
    lay = memory_layout(dfg)
    a_load = next(a for a in lay.accesses if a.name == "ld0")
    b_store = next(a for a in lay.accesses if a.domain.name == "b")
    b_store.op.operands[-1] = a_load.done
    o = by_id(check_structure(dfg, CTX), "mem.indep.a|b")
    assert o.status == "refuted" and "CPL_HANDSHAKE_CTRL_MULTI_MEM" in o.detail
    assert o.counterexample["code"] == "CPL_HANDSHAKE_CTRL_MULTI_MEM"
    got = simulate(dfg, {"a": [0] * 8, "b": [0] * 8, "i": 1, "j": 1, "x": 5}, max_steps=10_000)
    assert got.status == "completed"


def test_domains_waiting_for_each_other_deadlock_and_are_refuted():
    """...both ways, the two domains wait for each other: a deadlock."""
    dfg, src, m = lowered(SWAP)
    lay = memory_layout(dfg)
    a_st = next(a for a in lay.accesses if a.name == "st0")
    b_store = next(a for a in lay.accesses if a.domain.name == "b")
    ja = Operation.create("handshake.join", [a_st.ctrl, b_store.done], [none], result_names=["ja"])
    jb = Operation.create("handshake.join", [b_store.ctrl, a_st.done], [none], result_names=["jb"])
    for j in (ja, jb):
        dfg.regions[0].entry.insert(0, j)
    a_st.op.operands[-1] = ja.results[0]
    b_store.op.operands[-1] = jb.results[0]
    o = by_id(check_structure(dfg, CTX), "mem.indep.a|b")
    assert o.status == "refuted" and o.detail.count("waits for a done token") == 2
    got = simulate(dfg, {"a": [0] * 8, "b": [0] * 8, "i": 1, "j": 1, "x": 5}, max_steps=10_000)
    assert got.status == "deadlock"


def test_a_ctrl_that_is_not_a_token_of_the_network_is_refuted():
    dfg, src, m = lowered(SWAP)
    lay = memory_layout(dfg)
    st = next(a for a in lay.accesses if a.name == "st0")
    ld = next(a for a in lay.accesses if a.name == "ld0")
    bogus = Operation.create("ub.poison", [], [none], result_names=["p"])
    dfg.regions[0].entry.insert(0, bogus)
    for op, i in uses_of(dfg, st.done):
        op.operands[i] = bogus.results[0]
    o = by_id(check_structure(dfg, CTX), "mem.access.ld0")
    assert o.status == "refuted" and "does not come from the ctrl-done network" in o.detail
    assert ld.ctrl is not None


def test_an_unrecognized_network_is_unknown_never_proved():
    dfg, src, _ = lowered(LOOP)
    lay = memory_layout(dfg)
    st = next(a for a in lay.accesses if a.name == "st0")
    # feed the store its ctrl through a dataflow.invariant: every iteration would start at once
    inv_src = st.ctrl
    carry = next(
        op for op in dfg.regions[0].entry.ops if op.name == "dataflow.carry" and op.results[0].type == none
    )
    inv = Operation.create("dataflow.invariant", [carry.operands[0], inv_src], [none], result_names=["rep"])
    dfg.regions[0].entry.insert(len(dfg.regions[0].entry.ops) - 1, inv)
    st.op.operands[-1] = inv.results[0]
    obs = check_memory_order(dfg, CTX, source=src)
    assert any(o.status == "unknown" and "not recognized" in o.detail for o in obs)
    assert not any(o.status == "proved" for o in obs if o.id.startswith("mem.a."))


DONE_FORK = """module {
  handshake.func @stflag(%buf: memref<4xi32>, %x: i32, %go: none, ...) -> (i32, none) attributes {argNames = ["buf", "x", "go"], resNames = ["status", "done"]} {
    %g:2 = fork [2] %go : none
    %one = constant %g#0 {value = 1 : index} : index
    %st_d, %st_a = store [%one] %x, %g#1 : index, i32
    %d:2 = fork [2] %st_done : none
    %ok = constant %d#0 {value = 0 : i32} : i32
    %st_done = extmemory[ld = 0, st = 1] (%buf : memref<4xi32>) (%st_d, %st_a) {id = 0 : i32} : (i32, index) -> (none)
    return %ok, %d#1 : i32, none
  }
}
"""


# the same store, its done copied by the fork %d only to the constant and to a sink, the return's control taken
# from the start token instead: nothing the return waits for depends on the store's done
DONE_DROPPED = (DONE_FORK.replace("%st_d, %st_a = store [%one] %x, %g#1",
                                  "%gg:2 = fork [2] %g#1 : none\n    %st_d, %st_a = store [%one] %x, %gg#0")
                .replace("return %ok, %d#1 : i32, none", "sink %d#1 : none\n    return %ok, %gg#1 : i32, none"))


@pytest.mark.parametrize("text, want", [(DONE_FORK, "proved"), (DONE_DROPPED, "refuted")], ids=["awaited", "dropped"])
def test_a_done_token_forked_into_a_constant_trigger_is_awaited(text, want):
    """done.postdom treats an explicit fork like one value with two uses: a copy that only data consumers read
    (CIRCT's constant trigger) is no path out of the ctrl-done network while a sibling copy reaches the return
    (it was refuted). Without such a sibling the done is still refuted."""
    func = next(op for op in parse_text(text, "f.mlir").walk() if op.name == "handshake.func")
    post = by_id(check_structure(func, CTX), "done.postdom")
    assert post.status == want, post.detail


def test_where_a_chain_walk_stops_reads_as_words():
    """An unrecognized ctrl-done network says where its chain stopped in words ("ends at a dead" was printed)."""
    from loom.verify.memory.order import Stop

    words = {k: Stop(k).describe() for k in ("return", "join", "mux", "feedback", "exit", "dead")}
    assert words["dead"] == "a token nothing takes onward" and words["feedback"] == "a loop's back edge"
    assert all(w != k and " " in w for k, w in words.items())
