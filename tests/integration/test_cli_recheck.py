"""``loom verify --recheck``: cvc5 and yices re-decide every proved or refuted SMT obligation from the same
SMT-LIB2 text; they agree on the examples, and a verdict the query contradicts is caught."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json

from loom.cli import main
from loom.verify import VerifyContext, verify_function
from loom.verify.recheck import queries, recheck

from support.paths import ROOT


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_both_solvers_agree_with_every_verdict_of_an_example() -> None:
    code, out, err = run("verify", str(ROOT / "examples" / "clamp_count.scf.mlir"), "--json", "--recheck")
    assert code == 0, err
    doc = json.loads(out)
    smt = [o for o in doc["obligations"] if o["method"] == "smt" and o["status"] == "proved"]
    cvc5, yices = doc["recheck"]
    assert cvc5["solver"] == "cvc5" and cvc5["agree"] == len(smt) and not cvc5["disagree"]
    assert yices["solver"] == "yices" and yices["agree"] > 0 and not yices["disagree"]
    # what yices cannot read is named, and counted, never taken as agreement
    assert yices["agree"] + sum(yices["no_answer"].values()) == len(smt)
    assert set(yices["no_answer"]) <= {"unsupported (declare-datatypes)"}


def test_the_human_report_ends_with_one_line_per_solver() -> None:
    code, out, _ = run("verify", str(ROOT / "examples" / "dot.scf.mlir"), "-q", "--recheck")
    assert code == 0
    lines = out.strip().splitlines()
    assert lines[-2].startswith("recheck cvc5 ") and ", 0 disagree, 0 no answer" in lines[-2]
    assert lines[-1].startswith("recheck yices ") and ", 0 disagree, " in lines[-1]


def test_a_refuted_verdict_agrees_and_a_wrong_one_is_a_disagreement() -> None:
    from support.memory import LOOP, lowered, swap_order

    dfg, src, _ = lowered(LOOP)
    swap_order(dfg, "a", "ld0", "st0")
    r = verify_function(dfg, VerifyContext(want_smt2=True), source=src, checkers=("memory", "lemmas"))
    bad = next(o for o in r.obligations if o.id == "mem.a.order.ld0<st0")
    assert bad.status == "refuted" and bad.smt2
    cvc5 = recheck([r])[0]
    assert cvc5.solver == "cvc5" and not cvc5.disagree and cvc5.agree == len(queries([r]))
    # the same query under a verdict it contradicts: both solvers that read it say so
    r.obligations = [dataclasses.replace(bad, status="proved")]
    tallies = recheck([r])
    assert [(t.solver, [(d.obligation, d.verdict, d.answer) for d in t.disagree]) for t in tallies] == [
        ("cvc5", [("mem.a.order.ld0<st0", "proved", "sat")]),
        ("yices", [("mem.a.order.ld0<st0", "proved", "sat")]),
    ]
    assert "DISAGREES" in tallies[0].human()
