"""RTL co-simulation of DFGs written by hand (tests/data/handwritten, tests/data/circt), correct and faulty:
the emitted RTL shows what the token simulator shows (status, results, memories, residual tokens, per-channel
counts, error), on every input the file names, with and without random stalls.

These DFGs are in styles loom's lowering never emits (CIRCT's primed buffers and cmerge loops, races,
deadlocks, leftover tokens), so they exercise the RTL library beyond the lowered examples. A file the RTL
cannot express must be refused with ``HDL_UNSUPPORTED`` for an op listed in ``NO_RTL_MODEL``, never skipped.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import pytest

from loom.cli import _dataflow_function, _read_module
from loom.diagnostics import LoomError
from loom.hdl.emit import emit
from loom.hdl.rtlsim import run
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.sim import simulate

from support.paths import DATA
from support.hdl import need

DATA = DATA
FIFO_DEPTH = 64  # deep enough that no file needs more buffering than the token simulator's unbounded channels
# ops without an RTL model (specs/hdl.md): a file using one must be refused with HDL_UNSUPPORTED
NO_RTL_MODEL: tuple[str, ...] = ()
# faulty DFGs whose fault is a memory race: the values they compute depend on the schedule by design
RACES = {"bad_missing_edge_war", "bad_pipelined_race", "bad_loops_race", "bad_cross_domain", "bad_alias_two_domains"}


def _cases() -> list[tuple[str, dict, Optional[str]]]:
    """(file, inputs, function) of every hand-written simulation case."""
    from support.handwritten import FILES, spec

    out = [(f"handwritten/{n}", c.inputs, None) for n in FILES for c in spec(n).sims]
    for p in sorted((DATA / "circt").glob("*.expect.json")):
        want = json.loads(p.read_text())
        if "sim" in want:
            out.append((f"circt/{p.name[: -len('.expect.json')]}.mlir", want.get("inputs", {}), want.get("func")))
    return out


CASES = _cases()


def _docs(name: str, inputs: dict, func_name: Optional[str], stall):
    """The token simulator's and the RTL's result documents (the RTL's: the LoomError refusing the design),
    and whether the token simulator's outcome depends on how long it runs (a network that never quiesces)."""
    path = DATA / name
    module = _read_module(path)
    func = _dataflow_function(module, func_name, path)
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    as_doc = lambda r: run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error,
                                       func=func)
    decoded = lambda: decode_inputs(names, types, inputs, "<inputs>", module=module)
    ref = simulate(func, decoded(), max_steps=20_000)
    endless = as_doc(simulate(func, decoded(), max_steps=30_000)) != as_doc(ref)
    try:
        e = emit(func, Path(name).stem, fifo_depth=FIFO_DEPTH, monitors=False)
    except LoomError as err:
        return as_doc(ref), err, endless
    rtl = run(e, decoded(), module, stall=stall, simulator="iverilog",
              **({"max_cycles": 50_000} if endless else {}))
    return as_doc(ref), as_doc(rtl), endless


def test_the_collection_is_large():
    assert len(CASES) >= 80 and any(n.startswith("circt/") for n, _, _ in CASES)


def _runs() -> list:
    """The correct DFGs (and CIRCT's forms) under random stalls, the faulty ones without (their fault shows
    without stalls, which there only move where a run ends); the examples run both ways in test_hdl_cosim.py."""
    out = []
    for k, (n, inputs, f) in enumerate(CASES):
        stall = None if n.split("/")[-1].startswith("bad_") else 3
        out.append(pytest.param(n, inputs, f, stall, id=f"{n}#{k}-{'stall3' if stall else 'nostall'}"))
    return out


@pytest.mark.parametrize("name,inputs,func_name,stall", _runs())
def test_rtl_shows_what_the_token_simulator_shows(name, inputs, func_name, stall):
    need("iverilog")
    ref, rtl, endless = _docs(name, inputs, func_name, stall)
    if isinstance(rtl, LoomError):
        assert rtl.code == "HDL_UNSUPPORTED" and any(op in str(rtl) for op in NO_RTL_MODEL), str(rtl)
        return
    if endless:
        # a network that never quiesces (a livelock, an endless stream): how many tokens are in flight when a
        # run is cut depends on when; both cut it with the same status, results and error kind, tokens left
        assert (rtl["status"], rtl["results"], (rtl["error"] or "").split(" ")[0]) == \
            (ref["status"], ref["results"], (ref["error"] or "").split(" ")[0])
        assert (rtl["residual_tokens"] > 0) == (ref["residual_tokens"] > 0)
        return
    if ref["status"] == "error":
        # a run stops at its error; what is still in flight then depends on the schedule (specs/hdl.md)
        assert (rtl["status"], rtl["error"], rtl["memrefs"]) == (ref["status"], ref["error"], ref["memrefs"])
        return
    if name.split("/")[-1].split(".")[0] in RACES:
        # a race: which access wins depends on the schedule, so only the outcome's kind is the same
        assert (rtl["status"], rtl["residual_tokens"] > 0) == (ref["status"], ref["residual_tokens"] > 0)
        return
    assert rtl == ref
