"""The BMC explorer's shared state (loom.verify.bmc.state): a fork shares registers and channels until one
side writes them, and a state's running fingerprint (what waiting runs are filed by) is always the one
computed from scratch -- a step rule that forgot to update it would file equal runs apart (lost merges) or
different runs together."""

from __future__ import annotations

import functools

import pytest

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.verify.bmc.explore import Explorer
from loom.verify.bmc.outcome import Pruned

from support.paths import ROOT


@functools.cache
def kernel(name: str):
    m = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    return next(f for f in m.functions() if f.name == "handshake.func")


def test_a_fork_shares_registers_and_channels_until_one_side_writes():
    ex = Explorer(kernel("dot"), None)
    st = ex.initial()
    cid = next(c for c, q in enumerate(st.chans) if q)  # a channel holding an argument's token
    k = next(i for i, r in enumerate(st.regs) if r)  # an actor with registers
    reg = next(iter(st.regs[k]))
    other = st.copy()
    assert other.chans[cid] is st.chans[cid] and other.regs[k] is st.regs[k]
    before = list(st.chans[cid]), dict(st.regs[k])
    other.chan(cid).popleft()
    other.regs_of(k)[reg] = 12345
    assert list(st.chans[cid]) == before[0] and st.regs[k] == before[1]
    assert len(other.chans[cid]) == len(before[0]) - 1 and other.regs[k][reg] == 12345
    st.chan(cid).append("x")
    assert len(other.chans[cid]) == len(before[0]) - 1  # the original's write is its own too


@pytest.mark.parametrize("name", ["clamp_count", "collatz", "find_first", "dot", "matmul"])
def test_the_running_fingerprint_equals_the_state_s(name):
    ex = Explorer(kernel(name), None)
    ex.k = 2
    todo, checked = [ex.initial()], 0
    while todo and checked < 60:
        st = todo.pop()
        pending: list = []
        try:
            out = ex.run_path(st, pending, 2)
        except Pruned:
            continue
        for s in [st] + pending:
            assert s.fp == ex.fingerprint(s), (name, checked)
            checked += 1
        todo += pending
        if out in ("requeue", "checkpoint"):
            todo.append(st)
    assert checked >= 3
