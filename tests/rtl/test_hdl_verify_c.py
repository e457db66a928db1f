"""issue 26: loom verify --rtl on a C input pairs RTL verdicts with its Z3 verdicts. Its reports name the C file
while the RTL is built from its SCF stage (a temporary file): before, no report matched that path and a C input
got no RTL verdict at all."""

from __future__ import annotations

import json

from support.paths import ROOT

from loom.cli import main
from loom.hdl.formal import verify


def test_a_c_input_gets_rtl_verdicts(monkeypatch, capsys):
    seen = []

    def fake(func, stem, z3_status, opts=None, **kw):  # the SymbiYosys runs are other tests' (tests/rtl/test_hdl_formal.py)
        seen.append((stem, sorted(z3_status)[:1]))
        return verify.RtlReport(func.attributes["sym_name"].value, note="stub")

    monkeypatch.setattr(verify, "check_function", fake)
    main(["verify", "--json", "--rtl", str(ROOT / "examples" / "c" / "gemm.c")])
    doc = json.loads(capsys.readouterr().out)
    assert [s for s, _ in seen] == ["gemm"] and seen[0][1], seen
    assert [r["function"] for r in doc["rtl"]] == ["gemm"]
