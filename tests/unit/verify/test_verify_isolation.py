"""The library's verdicts and witnesses do not depend on what the process did before (issue 25, determinism).

Z3's search -- what a resource limit cuts, which model a satisfiable query returns -- follows its terms' ids, which
followed every term the process had made before and when Python freed terms. ``verify_file`` after other work
(or alone: its checkers ran one after another in one context) then reported other witnesses than ``loom verify``:
``branch_spin``'s ``safe.load@18:3.bounds`` here, upstream ``orb_descriptor_tiled``'s ``safe.load@109:46.bounds``
(refuted by ``loom verify``, unknown through the library). Every checker now runs in a solver state of its own
(``loom.verify.isolation``).
"""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import z3

from loom.verify import VerifyContext, json_of, verify_file
from loom.verify.isolation import fresh_solver_state
from loom.verify.report import without_seconds

from support.paths import DATA, EXAMPLES_DIR, ROOT

# a kernel with refuted safety obligations (their witnesses' values are the model Z3 returned), verified after
# other kernels in this process
TARGET = DATA / "safety" / "branch_spin.scf.mlir"
BEFORE = [EXAMPLES_DIR / "dot.scf.mlir", EXAMPLES_DIR / "matmul.scf.mlir", EXAMPLES_DIR / "histogram.scf.mlir"]


def _cli_json(path) -> dict:
    """``loom verify --json PATH`` in a fresh process, seconds zeroed."""
    r = subprocess.run([sys.executable, "-m", "loom", "verify", "--json", str(path)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    assert r.returncode in (0, 1, 3), r.stderr
    return without_seconds(json.loads(r.stdout))


def test_verify_file_after_other_kernels_reports_what_loom_verify_reports():
    """Verdicts, details and counterexamples of ``verify_file`` after other kernels equal a fresh ``loom verify``'s."""
    for p in BEFORE:
        verify_file(p, VerifyContext())
    made_before = z3.Int("a_term_made_before")  # and a term in z3py's default context, alive meanwhile
    got = without_seconds(json_of(verify_file(TARGET, VerifyContext())))
    assert made_before.ctx is z3.main_ctx()
    want = _cli_json(TARGET)
    refuted = [o for o in want["obligations"] if o["status"] == "refuted"]
    assert refuted and all(o.get("counterexample") for o in refuted)  # witnesses to compare
    assert {o["id"]: o for o in got["obligations"]} == {o["id"]: o for o in want["obligations"]}
    assert got == want


def test_fresh_solver_state_is_a_context_of_its_own_and_gives_the_previous_one_back():
    """Inside: a new default context (terms made there are its own) and the cycle collector off; after: the
    previous context, and the collector and its freeze as they were."""
    before = z3.main_ctx()
    frozen, enabled = gc.get_freeze_count(), gc.isenabled()
    with fresh_solver_state() as ctx:
        assert z3.main_ctx() is ctx and ctx is not before
        assert z3.Int("x").ctx is ctx
        assert not gc.isenabled()  # only reference counts free terms in the block: no collector pass at a moment
        # that depends on what the process allocated before
    assert z3.main_ctx() is before
    assert (gc.get_freeze_count(), gc.isenabled()) == (frozen, enabled)
