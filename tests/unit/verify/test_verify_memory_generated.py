"""No false alarms on generated programs: every lemma, stream precondition, structure and memory-order
obligation of a lowered random SCF kernel is proved (hypothesis, seeded generator)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from loom.lower import LowerOptions, lower_module
from loom.testing.scf_gen import GenConfig, scf_programs
from loom.verify import VerifyContext, verify_function
from loom.verify.lemmas.check import LemmaCache

CACHE = LemmaCache()  # lemma verdicts depend only on the table text: share them across examples


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scf_programs(GenConfig(max_ops=70), seeded=True))
def test_generated_kernels_verify_without_false_alarms(prog):
    out = lower_module(prog.module, prog.func_name, LowerOptions())
    dfg = next(f for f in out.functions() if f.name == "handshake.func")
    src = next(
        f
        for f in prog.module.functions()
        if f.name == "func.func" and f.attributes["sym_name"].value == prog.func_name
    )
    r = verify_function(
        dfg, VerifyContext(timeout=60), source=src, cache=CACHE, checkers=("lemmas", "structure", "memory")
    )
    bad = [(o.id, o.status, o.detail) for o in r.obligations if o.status not in ("proved", "assumed")]
    assert not bad, (prog.seed, bad)
    assert any(
        o.id.endswith(".terminates") or o.id.startswith("fsm.stream.pre") for o in r.obligations
    ) or not any(op.name == "dataflow.stream" for op in dfg.regions[0].entry.ops)
