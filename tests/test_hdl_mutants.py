"""Mutants matched to SymbiYosys: a DFG fault Z3 refutes fails bounded SBY on the emitted RTL with the same ID.

Every mutant of the sampled examples (``loom.verify.mutate``, one per operator, as test_verify_mutation.py) is
verified by Z3 and emitted as RTL. The RTL properties are read from ``props.json`` (their ``obligation``
fields), so the check grows by itself as more obligation families get an RTL form. A mutant is

* ``matched``: Z3 refutes an ID that has an RTL property, its counterexample lies within the SBY scope
  (loop iterations and integer arguments at most ``BOUND``): bounded SBY must fail, with a property whose
  obligation is one of Z3's refuted IDs;
* ``beyond``: its RTL-form refutation needs more than ``BOUND`` (counted, not run);
* ``no RTL form``: refuted by ``refine.*`` only (the source program is not in the RTL);
* ``not in the RTL yet``: refuted only by families with no RTL property in this build (counted and named).

CI time: the default run verifies the 12 mutants of ``dot`` and runs SBY on the ``PER_EXAMPLE`` = 2 matched
ones with the smallest counterexample: 15 s in all (SBY 11 s). ``LOOM_SBY_EXAMPLES=a,b`` picks other examples,
``LOOM_SBY_MUTANTS=all`` runs every matched mutant, ``LOOM_SBY_ALL=1`` both for every example. Measured: dot
7 matched / 1 beyond / 4 not in the RTL yet, all 7 fail SBY with Z3's ID (55 s); saxpy 7 matched, all agree
(49 s); find_first 0 matched (its counterexamples need arguments above 1: 4 beyond), 1 refine-only.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter
from pathlib import Path

import pytest

from hdl_support import need
from loom.hdl.emit import emit, write_all
from loom.hdl.liveness import run_live
from loom.verify.driver import verify_function
from loom.verify.lemmas.check import LemmaCache
from loom.verify.mutate import mutants
from test_verify_mutation import CTX, EXAMPLES, lowered, source

ALL = os.environ.get("LOOM_SBY_ALL") == "1"
SAMPLE = EXAMPLES if ALL else os.environ.get("LOOM_SBY_EXAMPLES", "dot").split(",")
PER_EXAMPLE = None if ALL or os.environ.get("LOOM_SBY_MUTANTS") == "all" else 2
# the default run checks a mutant in the whole-run tasks only when Z3 refutes a bmc.* id (seconds), not also in
# task dfg (minutes at a whole-run depth; tests/test_hdl_monitors.py matches a dfg-monitor ID to Z3's there)
QUICK_DFG = ALL or os.environ.get("LOOM_SBY_MUTANTS") == "all"
BOUND, DEPTH = 1, 30


def _rtl_obligations(files: dict[str, str], stem: str) -> set[str]:
    return {p["obligation"] for p in json.loads(files[f"{stem}.props.json"])["properties"] if p["obligation"]}


def _within(ob) -> bool:
    cex = ob.counterexample or {}
    bound = cex.get("bound")
    args = [v for v in (cex.get("arguments") or {}).values() if isinstance(v, int)]
    return bound is not None and bound <= BOUND and all(0 <= v <= BOUND for v in args)


def _classify(name: str):
    cache = LemmaCache()
    _, src = source(name)
    rows = []
    for mu in mutants(lowered(name), name, per_operator=1):
        rep = verify_function(mu.func, CTX, source=src, cache=cache)
        refuted = {o.id: o for o in rep.obligations if o.status == "refuted"}
        if not refuted:
            continue  # not behaviour-changing for Z3 (test_verify_mutation judges those)
        e = emit(mu.func, name, rtl_bound=BOUND, bmc_k=CTX.bmc_k, live_depth=DEPTH)
        rtl = sorted(i for i in refuted if i in _rtl_obligations(e.files, name))
        if not rtl:
            kind = "no RTL form" if all(i.startswith("refine.") for i in refuted) else "not in the RTL yet"
        elif any(_within(refuted[i]) for i in rtl):
            kind = "matched"
        else:
            kind = "beyond"
        key = min(((refuted[i].counterexample or {}).get("bound", 99) for i in rtl), default=99)
        rows.append({"mutant": mu, "kind": kind, "refuted": sorted(refuted), "rtl": rtl, "files": e.files,
                     "key": key, "families": sorted({i.split(".")[0] for i in refuted})})
    return rows


@pytest.fixture(scope="module")
def classified():
    return {name: _classify(name) for name in SAMPLE}


def test_every_refuted_mutant_is_accounted_for(classified, capsys):
    counts = Counter(r["kind"] for rows in classified.values() for r in rows)
    with capsys.disabled():
        print(f"\n  mutants of {', '.join(SAMPLE)}: " + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())))
        for name, rows in classified.items():
            for r in rows:
                if r["kind"] != "matched":
                    print(f"    {r['kind']:<19} {name} {r['mutant'].operator}: refuted {', '.join(r['refuted'][:4])}")
    assert counts["matched"] >= 2  # the sample exercises both bmc.* properties
    for rows in classified.values():
        for r in rows:
            if r["kind"] == "no RTL form":
                assert all(i.startswith("refine.") for i in r["refuted"])


def _sample(classified) -> list[tuple[str, dict]]:
    out = []
    for name in SAMPLE:
        rows = sorted((r for r in classified[name] if r["kind"] == "matched"), key=lambda r: r["key"])
        out += [(name, r) for r in rows[:PER_EXAMPLE]]
    return out


def _sby_failures(wd: Path, stem: str, rtl_ids: list[str]) -> tuple[list[tuple[str, str]], list[str]]:
    """Run the SBY tasks that check ``rtl_ids``; the (label, obligation) of every failed property and the traces.

    bmc.* ids: the bounded whole-run tasks of ``<stem>_live.sby``; any other id: task ``dfg`` of ``<stem>.sby``
    (the DFG-level monitors' bounded task) where the project has one, else ``top``. Labels map to obligations
    through props.json."""
    from loom.hdl.sby import run_task_retry

    props = json.loads((wd / f"{stem}.props.json").read_text())["properties"]
    oblig = {p["id"].split(".")[-1]: p["obligation"] for p in props}
    live = tuple(t for t in ("deadlock", "residual") if f"bmc.K{CTX.bmc_k}.{t}" in rtl_ids)
    runs = [(v.failed, v.trace) for v in run_live(wd, stem, CTX.bmc_k, live).values()]
    if any(not i.startswith("bmc.") for i in rtl_ids) and (QUICK_DFG or not live):
        tasks = (wd / f"{stem}.sby").read_text().split("[options]")[0].split()
        v = run_task_retry(wd, f"{stem}.sby", "dfg" if "dfg" in tasks else "top", 900)  # dfg: bounded monitors
        runs.append(([f.rsplit(".", 1)[-1] for f in v.failed], v.trace))
    failed = [(lbl, oblig.get(lbl)) for labels, _ in runs for lbl in labels]
    return failed, [t for labels, t in runs if labels and t]


def test_matched_mutants_fail_sby_with_a_z3_refuted_id(classified, tmp_path, capsys):
    need("yowasp-sby")
    need("yices-smt2")
    sample = _sample(classified)
    assert sample
    t0 = time.monotonic()
    for k, (name, r) in enumerate(sample):
        wd = tmp_path / f"m{k}"
        write_all(wd, r["files"])
        failed, traces = _sby_failures(wd, name, r["rtl"])
        hits = sorted({o for _, o in failed if o})
        assert failed, (name, r["mutant"].operator, "SBY found no failure")
        assert set(hits) & set(r["refuted"]), (name, r["mutant"].operator, failed, r["refuted"])
        assert traces and all(Path(t).exists() for t in traces)
        with capsys.disabled():
            print(f"  {name} {r['mutant'].operator}: z3 refutes {', '.join(r['rtl'])}; SBY fails "
                  f"{', '.join(f'{lbl} ({o})' for lbl, o in failed)}")
    with capsys.disabled():
        print(f"  {len(sample)} mutant(s) through SBY in {time.monotonic() - t0:.0f}s")
