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

from map_helpers import map_and_check

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
