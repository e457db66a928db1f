"""Property tests over random SCF kernels (loom.testing.scf_gen): lowered, given a fabric whose palette
covers their ops (builder API + ``fus_for``), mapped, proved by the checker; a random bit flip is refuted."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, assume, given, settings, strategies as st

from loom.diagnostics import LoomError
from loom.lower import LowerOptions, lower_function
from loom.map.adg.mesh import MeshParams, fus_for, mesh
from loom.map.adg.read import FU_ALLOWED, read_adg
from loom.map.check import check
from loom.map.dfg import read_dfg
from loom.mlir import parse_text
from loom.testing.scf_gen import GenConfig, generate_program

from support.map import map_and_check

CFG = GenConfig(max_ops=24, max_depth=2, floats=True, views=False, locals=False, two_result_ops=False)


def fabric_for(dfg):
    ops = [n.op for n in dfg.nodes if n.kind == "op"]
    mems = [n for n in dfg.nodes if n.kind == "mem"]
    side = max(4, int((len(ops) * 1.6) ** 0.5) + 1)
    params = MeshParams(
        rows=side, cols=side, onchip=0, extmem=sum(n.name == "handshake.extmemory" for n in mems),
        mem_rank=max([n.memref.rank for n in mems] + [1]), mem_ld=max([n.ld for n in mems] + [1]),
        mem_st=max([n.st for n in mems] + [1]), extra_fus=tuple(fus_for(ops)))
    return read_adg(parse_text(mesh(params)))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1), flip=st.integers(0, 2**31))
def test_random_kernels_map_and_are_proved_and_flips_refuted(seed: int, flip: int) -> None:
    prog = generate_program(random.Random(seed), CFG)
    func = [f for f in prog.module.functions() if f.name == "func.func"][0]
    try:
        dfg = read_dfg(lower_function(func, LowerOptions(max_join_fanin=4)))
    except LoomError:
        assume(False)
    assume(all(n.op.name in FU_ALLOWED for n in dfg.nodes if n.kind == "op"))
    assume(len([n for n in dfg.nodes if n.kind == "mem"]) <= 6)
    adg = fabric_for(dfg)
    m, words, doc, rep = map_and_check(dfg, adg, seed=seed % 7)
    assert rep.ok, (seed, rep.violations[:5])
    w = list(words)
    w[flip % len(w)] ^= 1 << (flip // len(w) % 32)
    assert not check(dfg, adg, w, doc).ok, (seed, flip)


def pair_fu(dfg, rng: random.Random):
    """A compound FU made from one random DFG edge u -> v whose producer feeds only v (or None)."""
    from loom.map.adg.build import FUSpec

    uses: dict[str, int] = {}
    for e in dfg.edges:
        uses[e.src[0]] = uses.get(e.src[0], 0) + 1
    pairs = [e for e in dfg.edges
             if dfg.by_id[e.src[0]].kind == "op" and dfg.by_id[e.dst[0]].kind == "op" and e.src[0] != e.dst[0]
             and not dfg.by_id[e.src[0]].name.startswith("dataflow.") and not dfg.by_id[e.dst[0]].name.startswith("dataflow.")
             and len(dfg.by_id[e.src[0]].out_types) == 1 and uses[e.src[0]] == 1
             and sum(1 for x in dfg.edges if x.src[0] == e.src[0] and x.dst[0] == e.dst[0]) == 1]
    if not pairs:
        return None
    e = rng.choice(pairs)
    u, v = dfg.by_id[e.src[0]].op, dfg.by_id[e.dst[0]].op

    def generic(op, args, results) -> str:
        attrs = ", ".join(f"{k} = {a}" for k, a in sorted(op.attributes.items()))
        ins = ", ".join(str(x.type) for x in op.operands)
        outs = ", ".join(str(r.type) for r in op.results)
        return f'{results} = "{op.name}"({", ".join(args)})' + (f" {{{attrs}}}" if attrs else "") + f" : ({ins}) -> ({outs})"

    n_u = len(u.operands)
    u_args = [f"%i{k}" for k in range(n_u)]
    v_args, nxt = [], n_u
    for k in range(len(v.operands)):
        if k == e.dst[1]:
            v_args.append("%t")
        else:
            v_args.append(f"%i{nxt}")
            nxt += 1
    ins = tuple(str(x.type) for x in u.operands) + tuple(str(x.type) for k, x in enumerate(v.operands) if k != e.dst[1])
    outs = tuple(str(r.type) for r in v.results)
    res = ", ".join(f"%r{k}" for k in range(len(outs)))
    body = generic(u, u_args, "%t") + "\n" + generic(v, v_args, res)
    return FUSpec("pair", ins, outs, body), (e.src[0], e.dst[0])


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_compound_units_map_and_are_proved(seed: int) -> None:
    prog = generate_program(random.Random(seed), CFG)
    func = [f for f in prog.module.functions() if f.name == "func.func"][0]
    try:
        dfg = read_dfg(lower_function(func, LowerOptions(max_join_fanin=4)))
    except LoomError:
        assume(False)
    assume(all(n.op.name in FU_ALLOWED for n in dfg.nodes if n.kind == "op"))
    assume(len([n for n in dfg.nodes if n.kind == "mem"]) <= 6)
    made = pair_fu(dfg, random.Random(seed))
    assume(made is not None)
    fu, (u, v) = made
    ops = [n.op for n in dfg.nodes if n.kind == "op"]
    mems = [n for n in dfg.nodes if n.kind == "mem"]
    side = max(4, int((len(ops) * 1.6) ** 0.5) + 1)
    params = MeshParams(
        rows=side, cols=side, onchip=0, extmem=sum(n.name == "handshake.extmemory" for n in mems),
        mem_rank=max([n.memref.rank for n in mems] + [1]), mem_ld=max([n.ld for n in mems] + [1]),
        mem_st=max([n.st for n in mems] + [1]), extra_fus=tuple(fus_for(ops)) + (fu,))
    adg = read_adg(parse_text(mesh(params)))
    m, words, doc, rep = map_and_check(dfg, adg, seed=seed % 5)
    assert rep.ok, (seed, rep.violations[:5])
    assert m.units, "the pair is a compound unit"
    t = {n["id"]: n["target"] for n in doc["nodes"]}
    assert any(x.get("fu") == "pair" for x in t.values())
    w = list(words)
    w[seed % len(w)] ^= 1 << (seed % 31)
    assert not check(dfg, adg, w, doc).ok
