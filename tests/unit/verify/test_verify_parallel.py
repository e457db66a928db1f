"""``loom verify --jobs N``, ``--shard I/N`` + ``loom report merge`` and the checker registry (issue 28, items 1
and 9).

Every (function, checker) unit runs in a process of its own, so the report is the same with any number of jobs
and when shards verified on different machines are merged: compared here as JSON, byte for byte once the
wall-clock seconds (the one field a run's timing decides) are zeroed.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from loom.cli import main
from loom.diagnostics import LoomError
from loom.verify import VerifyContext, registry, verify_function
from loom.verify.driver import functions_to_verify
from loom.verify.report import without_seconds
from loom.verify.parallel import parse_shard, selected, plan
from loom.verify.shard import merge

from support.paths import DATA, ROOT

# an assumed while-loop termination (marks the length and refinement obligations that rely on it) and a
# refuted one (a counterexample in the report)
FILES = [ROOT / "examples" / "collatz.scf.mlir", DATA / "termination" / "down_by_two.scf.mlir"]


def _loom(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "loom", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def _canonical(text: str) -> str:
    return json.dumps(without_seconds(json.loads(text)), indent=2, sort_keys=True)


def test_jobs_and_shards_give_the_report_of_one_process(tmp_path):
    files = [str(f) for f in FILES]
    one = _loom("verify", *files, "--jobs", "1", "--json")
    assert one.returncode == 1, one.stderr  # down_by_two is refuted
    two = _loom("verify", *files, "--jobs", "2", "--json")
    assert two.returncode == one.returncode
    assert _canonical(two.stdout) == _canonical(one.stdout)
    shards = []
    for i in range(3):
        got = _loom("verify", *files, "--shard", f"{i}/3", "--jobs", "2")
        assert got.returncode in (0, 1, 3), got.stderr
        path = tmp_path / f"shard{i}.json"
        path.write_text(got.stdout)
        shards.append(str(path))
    merged = _loom("report", "merge", *reversed(shards), "--json")  # any order
    assert merged.returncode == one.returncode, merged.stderr
    assert _canonical(merged.stdout) == _canonical(one.stdout)
    doc = json.loads(one.stdout)
    assert any(o["status"] == "assumed" for o in doc["obligations"])
    assert any(o["assumes"] for o in doc["obligations"] if o["status"] == "proved")  # marked across shards
    # the human report of the merge is the one of the unsharded run, but for the seconds
    human = _loom("report", "merge", *shards)
    assert human.returncode == one.returncode
    assert "refuted" in human.stdout


def test_a_missing_or_foreign_shard_is_a_located_error(tmp_path):
    shard = _loom("verify", str(FILES[1]), "--shard", "0/2")
    path = tmp_path / "s0.json"
    path.write_text(shard.stdout)
    got = _loom("report", "merge", str(path))
    assert got.returncode == 2
    assert "[VERIFY_SHARD_MERGE]" in got.stderr and "Traceback" not in got.stderr
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    got = _loom("report", "merge", str(bad))
    assert got.returncode == 2 and f"{bad}:1:1: error: [VERIFY_SHARD_MERGE]" in got.stderr


@pytest.mark.parametrize("text", ["1", "2/2", "-1/2", "a/b", "0/0"])
def test_a_bad_shard_is_a_usage_error(text):
    with pytest.raises(ValueError):
        parse_shard(text)


def test_shards_split_the_units_and_cover_them_once():
    p = plan([FILES[0]], VerifyContext())
    names = [u.checker for u in p.units]
    assert names == list(registry.names())  # one function: one unit per checker, in report order
    parts = [selected(p.units, (i, 3)) for i in range(3)]
    assert sorted(u.index for part in parts for u in part) == list(range(len(p.units)))


def test_a_checker_that_cannot_be_imported_is_an_error_not_unknown(monkeypatch, capsys):
    func, source = functions_to_verify(FILES[0])[0]
    monkeypatch.setattr(registry, "ENTRIES", registry.ENTRIES + (("broken", "loom.verify.checkers.no_such"),))
    with pytest.raises(LoomError) as e:
        verify_function(func, VerifyContext(), source=source)
    assert e.value.code == registry.IMPORT_ERROR and "broken" in e.value.message
    assert main(["verify", str(FILES[0]), "--jobs", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error: [VERIFY_CHECKER_IMPORT] checker 'broken' cannot be loaded" in err[0]


def test_a_module_without_its_checker_is_an_error(monkeypatch):
    monkeypatch.setattr(registry, "ENTRIES", (("lemmas", "loom.verify.ids"),))
    with pytest.raises(LoomError) as e:
        registry.checkers()
    assert e.value.code == registry.IMPORT_ERROR


def test_an_unknown_checker_name_is_refused():
    func, _ = functions_to_verify(FILES[0])[0]
    with pytest.raises(ValueError):
        verify_function(func, VerifyContext(), checkers=("lemmas", "nope"))


def test_merge_needs_every_shard_once():
    with pytest.raises(LoomError):
        merge([])


def test_the_scripts_of_forked_units_are_the_archived_ones(tmp_path):
    """proofs/ is generated in one process (tools/regen_proofs.py); ``loom verify --jobs 2`` runs every checker
    in a process of its own: the SMT-LIB2 scripts are the same bytes."""
    out = tmp_path / "smt"
    got = _loom("verify", "-q", str(ROOT / "examples" / "dot.scf.mlir"), "--jobs", "2", "--emit-smt2", str(out))
    assert got.returncode == 0, got.stderr
    archived = sorted(p.name for p in (ROOT / "proofs" / "dot").glob("*.smt2"))
    assert archived and sorted(p.name for p in out.glob("*.smt2")) == archived
    for name in archived:
        assert (out / name).read_bytes() == (ROOT / "proofs" / "dot" / name).read_bytes(), name
