"""loom verify on ../shared/corpus: what the lemmas, structure and memory checks find, cross-checked.

Recorded in FINDINGS (and in specs/verification.md): every corpus DFG has its
operator lemmas, access invariants, domain independence, done postdominance and
memory order proved. What is not proved is the termination precondition of the
legacy streams whose bound is an *unsigned* C argument: LOOM's legacy output
sign-extends it (``arith.index_cast``) while the ``*_cpu`` twin zero-extends it
(``arith.extui``), so for N >= 2^31 the ``+=``/``!=`` stream from 0 counts up
past the source's trip count and only stops after wrapping around (~2^64 trips).
Inner streams whose bound is replayed through ``dataflow.invariant`` are out of
reach of the operand analysis (unknown). The cross-checks: the twin really
zero-extends the argument, and wherever the simulator completes (the zero-trip
runs) its memory agrees with the interpreter -- no ordering fault the proved
memory obligations would have missed. The legacy DFGs' deadlocks for N > 0 are
length findings (the memory-control carries read the raw N+1 stream), reported
by the length checker, not here.
"""

from __future__ import annotations

import pytest


from loom.ir.core import OpResult
from loom.mlir import parse_file
from loom.verify import VerifyContext, verify_function
from loom.verify.lemmas.check import LemmaCache

from support.paths import SHARED

CORPUS = SHARED / "corpus"
MINE = ("lemmas", "structure", "memory")

# function -> {obligation id: status} for every obligation that is not proved
FINDINGS: dict[str, dict[str, str]] = {
    "_Z17binary_search_dsaPKfS0_Pjjj": {"fsm.stream.pre.%index": "refuted"},
    "_Z9crc32_dsaPKjPjj": {"fsm.stream.pre.%index": "refuted"},
    "_Z10cumsum_dsaPKfPfj": {"fsm.stream.pre.%index": "refuted"},
    "_Z11dotprod_dsaPKfS0_i": {},
    "_Z13vecmul_kernelPKfS0_Pfi": {},
    "_Z13vecsum_kernelPKfPfi": {},
    "_Z14fir_filter_dsaPKfS0_Pfjj": {
        "fsm.stream.pre.%index": "refuted",
        "fsm.stream.pre.%index_2": "unknown",
    },
    "_Z10gather_dsaPKjS0_Pjjj": {"fsm.stream.pre.%index": "refuted"},
    "_Z10matmul_dsaPKjS0_Pjjjj": {
        "fsm.stream.pre.%index": "refuted",
        "fsm.stream.pre.%index_2": "unknown",
        "fsm.stream.pre.%index_8": "unknown",
    },
    "_Z8relu_dsaPKfPfj": {"fsm.stream.pre.%index": "refuted"},
    "_Z15scatter_add_dsaPKjS0_Pjjj": {"fsm.stream.pre.%index": "refuted"},
    "_Z10vecadd_dsaPKfS0_Pfi": {},
    # a standalone test graph whose start/step/bound are free arguments: a huge step wraps the index
    "dataflow_flowops_test": {"fsm.stream.pre.%0": "refuted"},
    "tiny_load": {},
}


def _functions():
    files = sorted((CORPUS / "loom-legacy").glob("*.mlir")) + sorted(
        (CORPUS / "loom-fabric").glob("*.dfg.mlir")
    )
    assert files, f"corpus not found under {CORPUS}"
    out = []
    for path in files:
        module = parse_file(path)
        for f in module.functions():
            if f.name == "handshake.func":
                out.append((path, module, f))
    return out


@pytest.fixture(scope="module")
def verdicts():
    cache = LemmaCache()
    out = {}
    for path, module, f in _functions():
        r = verify_function(f, VerifyContext(timeout=60), cache=cache, checkers=MINE)
        out[r.function] = (path, module, f, r)
    return out


@pytest.mark.shared
def test_the_recorded_findings_are_exactly_what_verify_reports(verdicts):
    assert set(verdicts) == set(FINDINGS)
    for name, (path, _, _, r) in verdicts.items():
        got = {o.id: o.status for o in r.obligations if o.status not in ("proved", "assumed")}
        assert got == FINDINGS[name], (path.name, name, got, [(o.id, o.detail) for o in r.obligations
                                                              if o.status not in ("proved", "assumed")])
        kinds = {o.kind for o in r.obligations}
        assert "fsm" in kinds
        if any(o.id.startswith("mem.access.") for o in r.obligations):
            assert {"structure"} <= kinds


def _twin_uses(module, dfg, arg_name: str) -> set[str]:
    """The ops through which the *_cpu twin reads the argument the DFG's stream bound comes from."""
    name = dfg.attributes["sym_name"].value
    cpu = next(
        f
        for f in module.functions()
        if f.name == "func.func" and f.attributes["sym_name"].value == name.replace("_dsa", "_cpu")
    )
    dfg_args = [a.value for a in dfg.attributes["argNames"].elements]
    arg = cpu.regions[0].entry.args[dfg_args.index(arg_name)]
    uses = set()
    for op in cpu.walk():
        if arg not in op.operands:
            continue
        other = [v for v in op.operands if v is not arg]
        counter = other and isinstance(other[0], OpResult) and other[0].op.name != "arith.constant"
        if op.name == "arith.cmpi" and op.attributes["predicate"].value == 1 and counter:
            uses.add("cmpi ne (i32 trip counter)")
        else:
            uses.add(op.name)
    return uses


@pytest.mark.shared
def test_unsigned_bounds_are_sign_extended_by_the_legacy_dfgs(verdicts):
    seen = 0
    for name, (path, module, f, r) in verdicts.items():
        for o in r.obligations:
            if o.id != "fsm.stream.pre.%index" or o.status != "refuted" or "_dsa" not in name:
                continue
            seen += 1
            ((arg, value),) = o.counterexample["arguments"].items()
            ops = o.counterexample["operands"]
            # the argument is >= 2^31 as an unsigned i32, and the DFG's bound is its sign extension
            assert value < 0 and ops["bound"] == value and ops["start"] == 0 and ops["step"] == 1
            # the source reads the same argument unsigned: zero-extended, or compared against an i32 counter
            # that wraps at 2^32 -- either way it runs 2^32 + value trips; it never sign-extends it
            uses = _twin_uses(module, f, arg)
            unsigned = {"arith.extui", "cmpi ne (i32 trip counter)"}
            assert uses & unsigned and not uses & {"arith.extsi", "arith.index_cast"}, uses
            stream = next(op for op in f.regions[0].entry.ops if op.name == "dataflow.stream")
            bound_op = stream.operands[2]
            assert isinstance(bound_op, OpResult) and bound_op.op.name == "arith.index_cast"
            source_trips = value + (1 << 32)
            dfg_trips = (ops["bound"] - ops["start"]) % (1 << 64)  # += 1 until the index wraps onto the bound
            assert dfg_trips != source_trips and dfg_trips > (1 << 63)
    assert seen == 8


@pytest.mark.shared
def test_simulation_agrees_wherever_it_completes(verdicts):
    """The zero-trip runs complete; their memory matches the interpreter, as the proved ordering says."""
    from support.sim_corpus import agrees as _agrees, inputs_for as _inputs, reference as _reference

    from loom.sim import simulate

    checked = 0
    for name, (path, module, f, r) in verdicts.items():
        if not any(k in ("N", "n", "M", "input_size") for k in __import__("support.sim_corpus", fromlist=["INPUTS"]).INPUTS[name]):
            continue
        raw = _inputs(name, "zero-trip")
        sim = simulate(f, raw, max_steps=200_000)
        assert sim.status == "completed", (name, sim.status)
        ref = _reference(module, name, raw)
        assert _agrees(sim, ref) in (True, None), name
        assert all(o.status == "proved" for o in r.obligations if o.kind in ("memory", "structure"))
        checked += 1
    assert checked >= 10
