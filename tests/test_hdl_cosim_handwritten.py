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

import pytest

from hdl_support import need
from loom.diagnostics import LoomError
from loom.hdl.emit import emit
from loom.hdl.rtlsim import run
from loom.mlir import parse_file
from loom.runtime import decode_inputs, function_arg_names, run_result_json
from loom.sim import simulate

DATA = Path(__file__).resolve().parent / "data"
FIFO_DEPTH = 64  # deep enough that no file needs more buffering than the token simulator's unbounded channels
# ops without an RTL model (specs/hdl.md): a file using one must be refused with HDL_UNSUPPORTED
NO_RTL_MODEL = ("handshake.pack", "handshake.unpack", "tuple")


def _cases() -> list[tuple[str, dict]]:
    """(file, inputs) of every hand-written simulation case."""
    from test_verify_handwritten import FILES, spec

    out = [(f"handwritten/{n}", c.inputs) for n in FILES for c in spec(n).sims]
    for p in sorted((DATA / "circt").glob("*.expect.json")):
        want = json.loads(p.read_text())
        if "sim" in want:
            out.append((f"circt/{p.name[: -len('.expect.json')]}.mlir", want.get("inputs", {})))
    return out


CASES = _cases()


def _docs(name: str, inputs: dict, stall):
    module = parse_file(DATA / name)
    func = [f for f in module.functions() if f.name == "handshake.func"][-1]
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    as_doc = lambda r: run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error,
                                       func=func)
    ref = simulate(func, decode_inputs(names, types, inputs, "<inputs>", module=module), max_steps=20_000)
    try:
        e = emit(func, Path(name).stem, fifo_depth=FIFO_DEPTH)
    except LoomError as err:
        return as_doc(ref), err
    endless = ref.error is not None and ref.error.code == "RT_SIM_STEP_LIMIT"
    rtl = run(e, decode_inputs(names, types, inputs, "<inputs>", module=module), module, stall=stall,
              simulator="iverilog", **({"max_cycles": 50_000} if endless else {}))
    return as_doc(ref), as_doc(rtl)


def test_the_collection_is_large():
    assert len(CASES) >= 80 and any(n.startswith("circt/") for n, _ in CASES)


@pytest.mark.parametrize("stall", [None, 3], ids=["nostall", "stall3"])
@pytest.mark.parametrize("name,inputs", CASES, ids=[f"{n}#{k}" for k, (n, _) in enumerate(CASES)])
def test_rtl_shows_what_the_token_simulator_shows(name, inputs, stall):
    need("iverilog")
    ref, rtl = _docs(name, inputs, stall)
    if isinstance(rtl, LoomError):
        assert rtl.code == "HDL_UNSUPPORTED" and any(op in str(rtl) for op in NO_RTL_MODEL), str(rtl)
        return
    if ref["error"] is not None and ref["error"].startswith("RT_SIM_STEP_LIMIT"):
        # a run that never ends: both give up (after a different amount of work)
        assert (rtl["status"], rtl["error"].split()[0]) == (ref["status"], "RT_SIM_STEP_LIMIT")
        return
    if stall is not None and ref["status"] == "error":
        # a run stops at its error; what is still in flight then depends on timing (specs/hdl.md)
        assert (rtl["status"], rtl["error"], rtl["memrefs"]) == (ref["status"], ref["error"], ref["memrefs"])
        return
    assert rtl == ref
