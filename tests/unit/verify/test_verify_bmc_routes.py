"""Bounded routes (loom.semantics.routes): a ``loom.route`` buffer of C places stalls its producer when full, in the
token simulator and in the bmc explorer alike -- the rule map.fifo's verdicts rest on."""

from __future__ import annotations

import pytest

from loom.mlir import parse_text
from loom.semantics.routes import route_capacity
from loom.sim import simulate
from loom.verify.assume import parse_assumption
from loom.verify.bmc.explore import check_bmc
from loom.verify.obligation import VerifyContext

from support.paths import DATA

LATE_SUM = (DATA / "map" / "late_sum.dfg.mlir").read_text()
USE = "%y = arith.addi %iv, %sw_t : index"


def _func(route: str):
    """late_sum with ``route`` (a buffer line defining %late) between the stream's index and the late loop."""
    text = LATE_SUM.replace(USE, f"{route}\n    {USE.replace('%iv,', '%late,')}")
    return [f for f in parse_text(text, "late.mlir").functions() if f.name == "handshake.func"][0]


def _bmc(func, n: int) -> str:
    ctx = VerifyContext(bmc_k=6, assumptions=(parse_assumption(f"n == {n}"),))
    return next(o.status for o in check_bmc(func, ctx) if o.id.endswith(".deadlock"))


@pytest.mark.parametrize("places", [1, 2, 3])
def test_a_route_of_c_places_deadlocks_exactly_the_runs_that_need_more(places: int) -> None:
    """The late loop's index route must hold n values while the sum runs: n > C stalls it, in both engines."""
    func = _func(f"%late = handshake.buffer [{places}] fifo %iv {{loom.route}} : index")
    for n in range(6):
        res = simulate(func, {"n": n})
        run = res.status
        assert run == ("deadlock" if n > places else "completed"), n
        assert ("room in the full route of %iv" in res.deadlock_report) == (n > places)  # who waits, and why
        assert _bmc(func, n) == ("refuted" if n > places else "proved"), n


def test_unmarked_and_primed_buffers_stay_unbounded() -> None:
    """A DFG's own buffers keep unbounded channels (its verdicts hold for any buffering); a marked buffer with
    initial tokens is loop state (a primed buffer), not a route."""
    func = _func("%late = handshake.buffer [1] fifo %iv : index")
    assert simulate(func, {"n": 5}).results == [60]  # s = 0+1+2+3+4 = 10; r = sum of (i + 10) = 60
    assert _bmc(func, 5) == "proved"
    primed = _func("%late = handshake.buffer [1] seq %iv {loom.route, initValues = [0]} : index")
    bufs = [op for op in primed.regions[0].entry.ops if op.name == "handshake.buffer"]
    assert [route_capacity(op) for op in bufs] == [None]
    assert [route_capacity(op) for op in _func("%late = handshake.buffer [3] fifo %iv {loom.route} : index")
            .regions[0].entry.ops if op.name == "handshake.buffer"] == [3]
