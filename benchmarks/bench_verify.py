"""Verification time against DFG size, and against the plain BMC baseline on the same networks.

Run: ``python benchmarks/bench_verify.py [--sizes 100 1000 5000] [--plain-timeout S] [--bmc-k K] [--no-plain]``;
``--checkers bmc lemmas`` instead times each named checker alone (CPU seconds of the process, with its verdicts);
``--jobs 1 2 4`` instead times ``loom verify --jobs N`` (``loom.verify.parallel``: one process per function x
checker unit) on each size's DFG and prints the speed-up against N (and checks the reports are equal).

For each size a random SCF kernel (``loom.testing.scf_gen``) is lowered with
``loom.lower``; the table reports its op count and the seconds of

* ``lengths``: stream lengths / balance / classification for all trip counts (obligation 2),
* ``structural``: every structural obligation (``verify_function`` without BMC: operator lemmas,
  lengths, structure, memory order) -- the "proved for all N" part,
* ``bmc``: the explicit-control bounded cross-check at bound K (``check_bmc``, default K = 4, the
  ``loom verify`` default),
* ``full``: ``verify_function`` with every checker (what ``loom verify`` runs on the DFG),
* ``plain``: the plain unrolled-transition-relation BMC (``bmc_plain``) over as many steps as one
  complete simulated run of the kernel needs (a lower bound for covering the same bound K),

and the ratios plain/structural and plain/bmc (``>`` when the baseline timed out: a lower bound).
The examples line is ``verify_file`` on every examples/*.scf.mlir with all obligations, in one
process (``loom verify`` spreads the files over the cores).
Targets (issue 4): all examples under 3 s wall with ``loom verify`` on 2 cores, a 5,000-op DFG's
full verification under 35 s. Not a timed test.

Measured on the 2-core reference machine while other jobs shared it (load 5-8 on 2 cores: wall
times were 2-4x the CPU times, so CPU seconds of one process are given; same-conditions A/B
runs against the code before the speed work, 2026-11-21):

* examples, BMC at K=4 over all 11 kernels: 2.5-2.8 s CPU (before: 3.8-4.4 s in the same
  conditions). clamp_count 121 runs -> 11 (runs that meet after a data branch are merged),
  0.95 -> 0.45 s; matmul 1.85 -> 1.05 s; memory order of all examples: no solver call.
  Sequential ``verify_file`` over the examples, per checker (CPU): bmc ~2.7, lemmas ~1.2,
  refine ~1.5, lengths ~1.0, parse+lower 0.15, structure and memory ~0.02 each.
* 5,218-op DFG, full ``verify_function`` (every checker, BMC at K=4, 5,166 obligations all
  proved): 16.3 s CPU (32 s wall at load ~6). Per checker: lemmas 9.8 s (the three wide
  extmemory tables, 268/158/86 rules, most of it; was ~13 s), lengths 2.6, bmc 2.3 (was 4.2:
  one machine_for and one compiled evaluator per distinct expression), structure 0.9, memory
  order 0.7 (was ~34 s: pair queries decided on their structure).
* 1,054-op DFG, full ``verify_function``: 4.6 s CPU; BMC K=4 1.6 s (was 7.4 s wall: 64-bit
  remainder guards now come with range facts).

Issue 28 item 9 (2026-11-27, CPU seconds of one process, load 8-10 on the 2 cores): where a generated DFG's
verification grows worse than linearly, per checker (``verify_function(checkers=(name,))``):

=========  ======  =======  =========  ======  =====  ==============================================
ops        lemmas  lengths  structure  memory  bmc    safety (no SCF source: the DFG's own model)
=========  ======  =======  =========  ======  =====  ==============================================
382        -       -        -          -       -      4.5 (75 sites, 72 queries: 4.1 s in Z3)
5,022      1.47    0.89     0.15       0.20    1.04   not done after several minutes
18,039     24.25   6.70     2.83       2.61    15.89  -- (bmc: unknown, its state limit ran out)
=========  ======  =======  =========  ======  =====  ==============================================

* ``structure`` was quadratic: ``done.postdom`` searched forward from every done token; now a backward
  pass picks the few that can leak: 2.83 s -> 1.07 s at 18,039 ops (0.17 s at 5,022;
  ``tests/unit/verify/test_verify_scaling.py``).
  ``memory`` (2.61 s at 18k) is the pairs of accesses of a domain, which the spec asks for one by one.
* ``lemmas``: the wide ``extmemory`` balance tables, whose rules (one per port combination) each define
  every port's counter: 239 rules 0.36 s, 536 rules 2.29 s (about rules^2.3); not changed here.
* ``safety`` without a source (``check_dfg_safety``, added after the issue's measurement) dominates every
  size above a few hundred ops: py-spy puts all its time in Z3 checks -- the one query over all sites of a
  loop context, the Houdini invariant queries and the witness searches of the replays; not changed here.
  So the target (50,000 ops in under 60 s with 2 jobs) is not met.

2026-11-28 (CPU seconds of one process, load 2-8 on the 2 cores; the same generated DFGs, seed 1):

=========  ======  =====  ================================================================================
ops        lemmas  bmc    safety (DFG alone)
=========  ======  =====  ================================================================================
2,122      0.50    0.52   10.04 -> 1.08 (588 proved either way)
5,022      1.0-1.3 0.6-0.8  not done in 20 min wall, before or after (see below)
9,333      2.57    4.91
=========  ======  =====  ================================================================================

* ``safety``: every query carried every division lemma of the function (542 at 5,022 ops), so O(n) queries
  of O(n) terms; a query now carries the lemmas its terms reach (``loom/verify/safety/slicing.py``,
  equisatisfiable; specs/verification-safety.md): at 5,022 ops most queries drop from ~545 assertions to
  2-9. What still stops 5,022 ops: the sites whose query is satisfiable need a witness, which comes from the
  whole query (the same witness, so the same replay and verdict) -- those and a few grouped queries whose
  slice keeps almost everything (a division result with facts only pulls every lemma of its function) run
  to the rlimit, ~12 s CPU each. ``tests/unit/verify/test_verify_scaling.py`` counts the assertions handed
  to the solver at 432 and 1,705 ops: x5.5 with the slice, x16.2 before (the test allows 2x the op ratio).
* ``bmc`` grew about n^2-n^3 (0.6 s -> 4.9 s for 1.9x the ops): the explorer copied the whole network
  state (every actor, every channel) at each decision and keyed every waiting state by all of it
  (``_coarse_key``, ``_merge_waiting``). Since 2026-11-28 a fork shares registers and channels (copy on
  write), a waiting run is filed by a running fingerprint, the cycle collector is paused while exploring and a
  rule's port index is built once per actor; ``--checkers bmc``, one process per size, before -> after (CPU s):
  2,122 ops 0.44 -> 0.28, 5,022 0.89 -> 0.52, 9,333 6.37 -> 2.54, 18,039 15.61 -> 4.90 (unknown both: the
  branch queries' joint rlimit), 46,463 15.74 -> 4.88; the same reports (specs/verification-lengths.md 6).
* ``lemmas`` about n^1.5 (the wide extmemory tables, above); not changed.
* ``--jobs 1 2 --sizes 2000`` (every checker, 7 units, wall under load): 17.65 s and 12.87 s, x1.37, the same
  report; the safety unit is most of it, so two jobs cannot halve it.

2026-11-28, later (CPU seconds, load 10-13 on the 2 cores; seed 1), issue 28 item 9 at 50,000 ops:

=========  ======  =======  =========  ======  =====  ======  ==========================================
ops        lemmas  lengths  structure  memory  bmc    refine  safety (DFG alone) before -> after
=========  ======  =======  =========  ======  =====  ======  ==========================================
5,022      --      --       --         --      --     --      10.68 -> 5.1
18,039     --      --       --         --      --     --      84.2 -> 19.6 (same status per obligation)
27,692     --      --       --         --      --     --      -- -> 81.5 (85 unknown; 23 s: one query)
46,463     14.98   22.07    7.79       15.44   5.44   0.58    over 650 (44,376 ops) -> 68 (29 s: one query)
=========  ======  =======  =========  ======  =====  ======  ==========================================

* ``safety``: the one grouped query over all the sites of a loop context (thousands at the top level) ran to the
  rlimit as first slice, closed slice and whole query (~3,550 assertions, 25 s each at 41,169 ops); sites are now
  grouped 32 at a time, and the slicer no longer reads every base lemma per query (specs/verification.md).
* whole ``loom verify /tmp/gen46463.mlir --jobs 2 --json`` (``_module_text`` of ``kernel(50000)``): 102,513
  obligations, exit 3 (29 safety unknowns), 114.9 s CPU with its units, 630 s wall at load ~12. Not under 60 s:
  safety is one unit of 68 s CPU, and the rest add up to ~67 s.

2026-11-28, issue 28 item 9 closed out: CPU seconds of each ``--jobs 2`` unit (``time.process_time`` in its
forked worker, so these include no fork set-up and are lower than one process's ``--checkers`` figures above)
and of the parent's parsing and lowering (``plan``), the tree before -> after, load 15-18 on the 2 cores:

=========  ===========  ===========  ===========  =========  =========  ===========  =================  ===========
ops        plan         lemmas       lengths      structure  memory     bmc          safety             units sum
=========  ===========  ===========  ===========  =========  =========  ===========  =================  ===========
5,022      0.56 / 0.58  0.80 / 0.84  0.70 / 0.71  .04 / .05  .07 / .08  0.46 / 0.50  4.88 / 5.02        6.95 / 7.20
18,039     1.50 / 1.47  2.33 / 2.42  4.56 / 3.76  .23 / .23  .82 / .79  4.79 / 4.77  19.00 / 19.44      31.7 / 31.4
46,463     3.64 / 3.75  9.49 / 7.96  12.75 / 8.63 .94 / 1.02 5.60 / 6.69 4.07 / 4.10  68.14 / 14.33+23.51 101.0 / 66.2
=========  ===========  ===========  ===========  =========  =========  ===========  =================  ===========

* ``safety`` of a function of 20,000 DFG ops or more is cut into parts of its sites, in order, one ``--jobs`` unit
  each (``SafetyChecker.parts``; each part builds the model again, ~8 s at 46,463 ops); a Houdini query whose
  closed slice was the whole query (4,166 assertions, 29 s at the rlimit) takes its first slice's counter-model.
* ``lengths``: ``_hypothesize`` scanned every group and ``_while_view`` every check once per loop member.
* Every obligation (id, status, detail) is the same before and after at all three sizes; ``memory`` stays about
  n^2 (the pairs of a domain's accesses: 52,738 batch obligations at 46,463 ops), the rest about linear: the
  whole run 5,022 -> 46,463 ops grew x13.9 CPU before (n^1.18), x9.0 after (n^0.99).
* Wall with 2 jobs on two idle cores is at least plan + max(units / 2, largest unit): before 3.6 + 68.1 = 71.8 s,
  after 3.8 + max(33.1, 23.5) = 36.9 s, plus the parent's report; the whole run measured 71.0 s CPU (process and units) and 384 s wall at load 15-18.

2026-11-28, session 20, at the target size: ``kernel(54000)`` = 50,009 ops (seed 1), CPU seconds (``process_time``;
load 15-22 on the 2 cores, so walls were 5-13x CPU), ``loom verify /tmp/gen.mlir --json --jobs 2 -v``:

* Before, the run did not finish: the parent's parse + lower + plan was 4.3 s CPU (not ~55: that was wall under
  load), but safety part 2/2 was past 142 s CPU and 4 GB after 15 min wall (stopped). py-spy: every site whose
  first slice was satisfiable and whose witness did not replay (the part's replay budget, five runs of 50k ops,
  was spent) asked the whole query, 4,532 assertions (the closure keeps nearly every division lemma: 4,883 bvmul),
  without and with the loops' invariants, each to the rlimit (~30 s CPU, ``plain`` and the pipeline alike).
* Now (``loom/verify/safety``): those whole queries share a fifth of one rlimit per function (split over its parts;
  once spent, unknown saying so); no witness is searched for once a part cannot afford another run; the
  replay network is built with the cycle collector paused (``loom.sim.prepare`` 11.8 -> 4.0 s CPU); ``plan``
  pauses it too (4.3 -> 2.6 s). Every obligation (id, status, detail) of DFG safety at 5,022 and 18,039 ops, and
  the whole ``--jobs 2 --json`` report at 5,022 ops (6,343 obligations, seconds zeroed), are unchanged.

=======  =====  ==========  ==========  =======  ======  ======  ===  =========  ======  =========  =========
ops      plan   safety 1/2  safety 2/2  lengths  lemmas  memory  bmc  structure  refine  units sum  whole run
=======  =====  ==========  ==========  =======  ======  ======  ===  =========  ======  =========  =========
50,009   2.6    32.3        75.7/67.5   11.7     11.5    7.5     5.6  1.1        0.0     145.4      157.9
=======  =====  ==========  ==========  =======  ======  ======  ===  =========  ======  =========  =========

* Units: CPU of each ``--jobs 2`` worker (its ``-v`` line), with the whole queries' share at one rlimit; safety 2/2
  with a fifth (the committed value) measured alone in one process: 67.5 (its first whole query 15.8 s instead of
  23.7; at 5M units that query still costs ~16 s: bit-blasting its multiplications is most of it and counts little
  against the rlimit). Whole run: ``/usr/bin/time`` user+sys of the parent and its workers, 918 s wall at load ~20.
* 120,968 obligations: 120,806 proved, 160 unknown (145 safety sites whose witness did not replay, 15 whose large
  whole query's share was spent, one length and one refinement obligation), exit 3; safety 2/2 alone gives the
  same counts (7,436 proved, 158 unknown) with a fifth.
* Two idle cores: safety 2/2 on one core, everything else (69.7 s) on the other, so the wall is about plan 2.6 +
  67.5 + the parent's collecting and printing (its own CPU was 157.9 - 145.4 - 2.6 = ~10 s): about 80 s. NOT under
  60 s: safety 2/2 is one unit (its sites in order with their share of the replay budget: cutting it further
  moves verdicts), and the sites it cannot prove, each decided through several slice queries, are most of it.
* Another seed (``kernel(54000, seed=2)`` = 45,376 ops, the committed tree): it finishes too, 148,178 obligations
  (147,966 proved, 209 safety and 2 bmc unknown), 230.9 s CPU, 924 s wall at load ~16-20; units safety 63.7 +
  91.2, bmc 33.7, lemmas 11.4, lengths 9.5, memory 9.4, structure 0.8: about 110 s on two idle cores. The cost
  follows the sites safety cannot prove (209 here, 160 at 50,009 ops) more than the op count.
* Later (h6): safety 2/2 alone at 50,009 ops (one process, ``process_time``, load ~12): 58.7 s CPU, 33.8 of it in
  3,825 queries -- one whole query of 4,532 assertions, 15.5 s to its 5M-unit share and unknown; 918 satisfiable slice
  queries of ~35 assertions, 17.6 s (602 of them the second decision of a site whose witness did not replay);
  the rest is the model, slicing and replays. A whole query over 2,000
  assertions is no longer asked (``WHOLE_QUERY_MAX``; none at 5,022 or 18,039 ops) and a site's satisfiable first
  slices are remembered for its second decision (316 of those 602 were the same first slices, now not asked; the
  other 286 are closed slices, which may decide): 58.7 -> 34.6 s CPU (queries 33.8 -> 9.5 s), the same 7,436
  proved and 158 unknown, 15 unknowns' reason now naming the size; DFG safety at 5,022 and 18,039 ops unchanged
  (id, status, detail). Not re-measured as a whole ``--jobs 2`` run (15 min wall at this load): with safety 1/2
  (32.3 as a unit; 27.0 alone in one process now, 7,592 proved, 2 unknown) and the other units as above, two
  idle cores would need about plan 2.6 + (112 s of units / 2) + the parent's ~10 s, some 68 s -- still over the
  60 s target, now set by the sum of the units, not one of them.

2026-11-28, session 21: the target is met. The same 50,009-op DFG, ``loom verify gen.mlir --jobs 2 --json -v`` at
4a1ca66 with every other process on the machine stopped (SIGSTOP) for the run, so each unit's wall equals its CPU:
**41.4 s wall**, 72.2 s user + 2.4 s sys, 720 MB peak. Units (CPU s, each worker's ``-v`` line): safety 1/2 24.4,
safety 2/2 23.8, bmc 5.4, lengths 5.4, lemmas 3.4, memory 2.6, structure 0.5, refine 0.1 (session 20's 11.7, 11.5
and 7.5 for lengths, lemmas and memory were taken at load 15-22, so only in part a saving); the last unit ended 34.1 s into the run, the rest is the parent's parse and plan before the fork and
its report after. The report is the one before these changes: the same 120,968 obligations (120,806 proved, 160
unknown, 1 assumed) with the same id, status and detail each. What changed since the 68 s estimate:

* every checker run in a Z3 context of its own with the cycle collector off inside it (``loom/verify/isolation.py``,
  for the API's determinism): no collector passes over the units' millions of live objects;
* ``semantics.build.Machines``: one op table per op signature (536 distinct ones at 50,009 ops), not one per op,
  in lengths and lemmas; contracts' memory shapes indexed in one pass (they scanned every port per port);
* the safety model: a sort's name printed once (``Values._sort_name``), data carries indexed by their condition
  (``DfgModel.data_carries``), a loop context's facts built once (``LoopFacts.at_site``).

Again at d011435 (bmc and the netlist on ``Machines`` too), the machine idle with nothing stopped: 41.6 s wall, 70.4 s
user + 2.5 s sys, 629 MB peak; bmc 4.3 s CPU; the same report (id, status and detail of all 120,968).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.lower import LowerOptions, lower_module  # noqa: E402
from loom.sim import simulate  # noqa: E402
from loom.testing.scf_gen import GenConfig, generate_program  # noqa: E402
from loom.verify.bmc.explore import check_bmc  # noqa: E402
from loom.verify.bmc.plain import PlainResult, plain_bmc  # noqa: E402
from loom.verify.driver import parts, verify_file, verify_function  # noqa: E402
from loom.verify.lemmas.check import LemmaCache  # noqa: E402
from loom.verify.lengths.check import check_lengths  # noqa: E402
from loom.verify.obligation import VerifyContext  # noqa: E402
from loom.verify.registry import checkers as registry_checkers  # noqa: E402
from loom.verify.registry import names as registry_names  # noqa: E402
from loom.verify.report import without_seconds  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def kernel(target: int, seed: int = 1):
    """A lowered generated kernel with about ``target`` DFG ops, and its inputs."""
    best = None
    for k in range(6):
        p = generate_program(random.Random(seed + 101 * k), GenConfig(max_ops=target))
        m = lower_module(p.module, p.func_name, LowerOptions())
        f = [g for g in m.functions() if g.name == "handshake.func"][0]
        n = len(f.regions[0].entry.ops)
        if best is None or abs(n - target) < abs(best[2] - target):
            best = (f, p.inputs, n)
        if abs(n - target) <= target // 5:
            break
    assert best is not None
    return best


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def timed_cpu(fn):
    """Result, wall seconds and CPU seconds of this process (a fairer figure on a shared machine)."""
    c0, t0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def summary(obs) -> str:
    c: dict[str, int] = {}
    for o in obs:
        c[o.status] = c.get(o.status, 0) + 1
    return "/".join(f"{c.get(s, 0)}{s[0]}" for s in ("proved", "refuted", "unknown"))


def ratio(plain, plain_s: float, other: float) -> str:
    if plain.status == "skipped":
        return "-"
    mark = ">" if plain.status == "timeout" else ""
    return f"{mark}{plain_s / other:.1f}x" if other > 0 else "-"


def jobs_table(sizes: list[int], jobs: list[int], bmc_k: int) -> None:
    """Wall seconds of ``loom verify --jobs N --json`` (a process of its own, as users run it) on each size's
    DFG (every checker), the speed-up over the first N, and whether every N gave the same report (it must:
    the units run in processes forked from a parent that did no solver work). In one long-lived process,
    runs one after another are not comparable: what a run leaves behind (caches holding Z3 terms) changes
    the term ids the next run's units inherit, so a witness's values may differ (never a verdict under the
    deterministic limits)."""
    import json
    import subprocess
    import tempfile

    print(f"{'ops':>6} {'units':>5} " + " ".join(f"{'jobs=' + str(j):>9}" for j in jobs) + "  speed-up  same")
    for target in sizes:
        f, _, n = kernel(target)
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "gen.mlir"
            path.write_text(_module_text(f))
            walls, docs = [], []
            for j in jobs:
                cmd = [sys.executable, "-m", "loom", "verify", str(path), "--json", "--jobs", str(j),
                       "--bmc-k", str(bmc_k)]
                got, t = timed(lambda: subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT))
                walls.append(t)
                docs.append(without_seconds(json.loads(got.stdout)))
        units = sum(parts(c, f) for c in registry_checkers())  # a large function's safety is several units
        speed = " ".join(f"{walls[0] / w:.2f}x" for w in walls)
        print(f"{n:6d} {units:5d} " + " ".join(f"{w:8.2f}s" for w in walls) + f"  {speed}  "
              f"{all(d == docs[0] for d in docs)}")
        for j, d in zip(jobs, docs):  # a difference is a bug: name the first one
            diff = next(((o, p) for o, p in zip(docs[0]["obligations"], d["obligations"]) if o != p), None)
            if diff is not None or d != docs[0]:
                o, p = diff if diff is not None else ({}, {})
                print(f"  jobs={j} differs from jobs={jobs[0]}: {o.get('id')} "
                      f"{ {k: (o[k], p.get(k)) for k in o if o[k] != p.get(k)} }")


def checkers_table(sizes: list[int], names: list[str], bmc_k: int) -> None:
    """CPU seconds of this process for each checker alone (``verify_function(checkers=(name,))``) on each size's
    generated DFG, with its verdicts: where a checker's time grows worse than linearly. Kernel generation and
    lowering are not timed. Sizes run in one process, so for before/after comparisons run one size per process
    (what a run leaves behind changes the Z3 term ids the next one sees)."""
    print(f"{'ops':>6} " + " ".join(f"{n:>16}" for n in names))
    for target in sizes:
        f, _, n = kernel(target)
        cells = []
        for name in names:
            rep, _, cpu = timed_cpu(lambda: verify_function(f, VerifyContext(bmc_k=bmc_k), checkers=(name,)))
            cells.append(f"{cpu:7.2f}s {summary(rep.obligations):>8}")
        print(f"{n:6d} " + " ".join(cells), flush=True)


def _module_text(func) -> str:
    """The text of the module ``func`` was lowered into (what ``loom compile`` writes)."""
    from loom.mlir import print_op

    return "\n".join(print_op(op) for op in func.parent.ops) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    ap.add_argument("--plain-timeout", type=float, default=60.0)
    ap.add_argument("--bmc-k", type=int, default=VerifyContext().bmc_k)
    ap.add_argument("--bmc-budget", type=float, default=30.0)
    ap.add_argument("--no-examples", action="store_true")
    ap.add_argument("--no-plain", action="store_true", help="skip the plain BMC baseline (slow)")
    ap.add_argument("--jobs", type=int, nargs="+", help="time `loom verify --jobs N` for each N instead")
    ap.add_argument("--checkers", nargs="+", choices=registry_names(), metavar="NAME",
                    help="time each named checker alone (CPU seconds, with its verdicts) instead: "
                         + ", ".join(registry_names()))
    args = ap.parse_args(argv)
    if args.jobs:
        jobs_table(args.sizes, args.jobs, args.bmc_k)
        return 0
    if args.checkers:
        checkers_table(args.sizes, args.checkers, args.bmc_k)
        return 0

    if not args.no_examples:
        cache = LemmaCache()
        paths = sorted((ROOT / "examples").glob("*.scf.mlir"))
        reports, t, cpu = timed_cpu(lambda: [r for p in paths for r in verify_file(p, VerifyContext(), cache=cache)])
        obs = [o for r in reports for o in r.obligations]
        print(f"examples: {len(paths)} kernels, {len(obs)} obligations ({summary(obs)}) in {t:.2f}s "
              f"({cpu:.2f}s CPU), one process "
              f"(loom verify target < 3 s on 2 cores; default bmc_k={VerifyContext().bmc_k})")

    print(f"{'ops':>6} {'lengths':>9} {'structural':>11} {'bmc K=' + str(args.bmc_k):>10} {'full':>9} "
          f"{'plain':>10} {'steps':>6} {'plain/struct':>13} {'plain/bmc':>10}  verdicts")
    for target in args.sizes:
        f, inputs, n = kernel(target)
        run = simulate(f, inputs)
        steps = max(8, run.steps)
        lobs, t_len = timed(lambda: check_lengths(f, VerifyContext()))
        rep, t_struct = timed(lambda: verify_function(
            f, VerifyContext(), checkers=("lemmas", "lengths", "structure", "memory")))
        bobs, t_bmc = timed(lambda: check_bmc(f, VerifyContext(bmc_k=args.bmc_k, timeout=args.bmc_budget)))
        full, t_full, cpu_full = timed_cpu(lambda: verify_function(f, VerifyContext(bmc_k=args.bmc_k)))
        if args.no_plain:
            plain, t_plain = PlainResult("skipped", steps, 0.0, 0.0), 0.0
        else:
            plain, t_plain = timed(lambda: plain_bmc(f, steps, timeout=args.plain_timeout))
        bounded = min((o.bounded for o in bobs if o.bounded is not None), default=None)
        shown = "-" if args.no_plain else ('>' if plain.status == 'timeout' else '') + f"{t_plain:.2f}s"
        print(f"{n:6d} {t_len:8.2f}s {t_struct:10.2f}s {t_bmc:9.2f}s {t_full:8.2f}s "
              f"{shown:>10} {steps:6d} "
              f"{ratio(plain, t_plain, t_struct):>13} {ratio(plain, t_plain, t_bmc):>10}  "
              f"lengths {summary(lobs)}, structural {summary(rep.obligations)}, bmc {summary(bobs)} "
              f"(bounded={bounded}), full {summary(full.obligations)} ({cpu_full:.2f}s CPU), plain {plain.status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
