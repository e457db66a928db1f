"""DISAGREEs issue 26's closing audit found (`verify --rtl` on every hand-written DFG of up to ~40 ops), each a monitor
that checked more than Z3's obligation states: the end of a run while a memory response was still due
(bad_pipelined_race), and a stream's progress in an activation whose operands broke the termination precondition
(bad_stream_mul_zero, bad_stream_ne_miss). RTL simulation with the monitors live shows each fixed."""

from __future__ import annotations

import pytest
from support.hdl import hand, need

from loom.hdl.emit import emit
from loom.hdl.formal import replay
from loom.hdl.formal.depth import inputs_at


def _fired(name: str, n: int, stall=None, cycles: int = 3000) -> dict[str, str]:
    """Obligation -> label of every monitor that fails in a run of ``name`` at integer arguments ``n``."""
    func = hand(name)
    e = emit(func, "a", dfg_depth=30, free_depth=12)
    by = {m.label: m.obligation for m in e.design.monitors.props}
    run = replay.run(e, func, inputs_at(func, n, "ramp"), stall=stall, max_cycles=cycles)
    assert run.status != "no run", run.why
    return {by[lbl]: lbl for lbl in run.fired}


@pytest.mark.parametrize("stall", [None, 1])
def test_the_end_of_a_run_waits_for_due_memory_responses(stall):
    """bad_pipelined_race's return fires before its stores complete (Z3: done.postdom refuted, balance.* proved):
    only done.postdom fails; the balance monitors no longer read a run that is waiting on its memory."""
    need("iverilog")
    assert set(_fired("bad_pipelined_race", 3, stall)) == {"done.postdom"}


@pytest.mark.parametrize("name", ["bad_stream_mul_zero", "bad_stream_ne_miss"])
def test_a_broken_stream_precondition_owes_no_progress(name):
    """The stream's precondition monitor fails (as Z3 refutes it); the terminates lemma, progress under the
    precondition, which Z3 proves, is not claimed of that activation."""
    need("iverilog")
    got = _fired(name, 1)
    assert any(o.startswith("fsm.stream.pre.") for o in got), got
    assert not any(o.endswith(".terminates") for o in got), got
