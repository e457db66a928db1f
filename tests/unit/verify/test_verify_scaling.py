"""What keeps ``loom verify`` linear in the size of a DFG (issue 28, item 9), checked against the plain searches.

``done.postdom`` searched forward from every done token (quadratic in the accesses); now one backward pass
(``_may_leak``) says which done tokens can reach a value the return does not wait for, and only those are
searched. The pass must never miss one: checked here on every mutant of the examples (dropped and re-pointed
ctrl-done edges are among the operators).
"""

from __future__ import annotations

import pytest

from loom.lower import LowerOptions, lower_module
from loom.mlir import parse_file
from loom.verify.memory import structure
from loom.diagnostics import LoomError
from loom.verify.mutate import OPERATORS, mutants

from support.paths import ROOT


def _funcs(name: str):
    """The example's DFG and every mutant of it, operator by operator (an operator whose mutant the IR
    verifier rejects ends that operator's list: those are not DFGs the checker sees)."""
    module = lower_module(parse_file(ROOT / "examples" / f"{name}.scf.mlir"), None, LowerOptions())
    func = next(f for f in module.functions() if f.name == "handshake.func")
    yield func
    for op in OPERATORS:
        found = mutants(module, func.attributes["sym_name"].value, [op])
        while True:
            try:
                yield next(found).func
            except (StopIteration, LoomError):
                break


@pytest.mark.parametrize("name", ["saxpy", "histogram", "matmul"])
def test_the_backward_pass_finds_every_done_the_search_would_refute(name):
    refuted = 0
    for func in _funcs(name):
        layout = structure.memory_layout(func)
        good, preds, ctrl = structure.return_reach(layout, layout.done_owner())
        leaks = structure._may_leak(layout, ctrl - good, preds, good)
        for d in layout.done_owner():
            if structure._first_bad(layout, d, good) is not None:
                refuted += 1
                assert d in leaks
    assert refuted > 0  # the mutants do break the network somewhere
