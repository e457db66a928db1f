"""Safety obligations: how many are proved, refuted and unknown, and what they cost against the rest of verify.

Run: ``python benchmarks/bench_safety.py [--kernels 1000] [--sample 10] [--seed 0]``.

* examples: every ``examples/*.scf.mlir``, ``verify_function`` with the safety checker alone and with every
  other checker, CPU seconds of each;
* generated kernels: ``--kernels`` random SCF kernels (``loom.testing.scf_gen``, the differential tests'
  generator: defined on the inputs it builds, while other memref sizes and argument values may make them fault,
  so refutations are expected and each is replayed by the interpreter before it is reported); the safety
  checker on every kernel, and every ``--sample``-th kernel also through every other checker for the time ratio.

The target (issue 24): safety adds at most 30% to the time of the rest of ``loom verify``. Progress on stderr.
CPU seconds of this process (``time.process_time``): the ratio does not depend on the machine's load.

Measured 2026-11-27, second time (2-core machine shared with other jobs), ``--kernels 1000 --sample 10 --seed 0``:

* examples: 52 safety obligations, 52 proved; safety 0.27 s CPU against 2.56 s for the rest of verify: +11%;
* 1,000 generated kernels: 18,401 safety obligations: 18,053 proved, 302 refuted (each replayed by the
  interpreter: sizes and values the generator's own inputs avoid), 46 unknown (0.25%: witnesses that did not
  replay); 92 s CPU in all; on the 100 sampled kernels safety 7.9 s against 33.5 s for the rest: +24% (view,
  reshape and copy obligations, the facts of loops that ended, and the steered replays are in since the
  +19% of the first measurement).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loom.ir.core import Module  # noqa: E402
from loom.lower import LowerOptions, lower_module  # noqa: E402
from loom.testing.scf_gen import GenConfig, generate_program  # noqa: E402
from loom.verify.driver import functions_to_verify, verify_function  # noqa: E402
from loom.verify.lemmas.check import LemmaCache  # noqa: E402
from loom.verify.obligation import VerifyContext  # noqa: E402
from loom.verify.safety.check import check_safety  # noqa: E402

REST = ("lemmas", "lengths", "structure", "memory", "refine", "bmc")


def _timed(fn):
    t0 = time.process_time()
    out = fn()
    return out, time.process_time() - t0


def examples(ctx: VerifyContext) -> tuple[Counter, float, float]:
    counts: Counter = Counter()
    safety_s = rest_s = 0.0
    for path in sorted((ROOT / "examples").glob("*.scf.mlir")):
        for func, source in functions_to_verify(path):
            rep, s = _timed(lambda: verify_function(func, ctx, source, checkers=("safety",)))
            _, r = _timed(lambda: verify_function(func, ctx, source, cache=LemmaCache(), checkers=REST))
            counts.update(o.status for o in rep.obligations)
            safety_s, rest_s = safety_s + s, rest_s + r
            print(f"  {path.name:28s} safety {len(rep.obligations):3d} obligations {s:6.2f} s   rest {r:6.2f} s",
                  file=sys.stderr)
    return counts, safety_s, rest_s


def generated(n: int, sample: int, seed: int, ctx: VerifyContext) -> tuple[Counter, float, float, float, Counter]:
    counts: Counter = Counter()
    unknown_why: Counter = Counter()
    all_safety = sampled_safety = sampled_rest = 0.0
    for k in range(n):
        prog = generate_program(random.Random(seed * 1_000_003 + k), GenConfig(), seed=k)
        func = next(f for f in prog.module.functions() if f.name == "func.func")
        obs, s = _timed(lambda: check_safety(func, ctx))
        counts.update(o.status for o in obs)
        for o in obs:
            if o.status == "unknown":
                unknown_why[o.detail.split(" -- ")[-1][:90]] += 1
        all_safety += s
        if k % sample == 0:
            name = func.attributes["sym_name"].value
            lowered = lower_module(Module(prog.module.op), name, LowerOptions())
            dfg = next(f for f in lowered.functions() if f.name == "handshake.func")
            _, r = _timed(lambda: verify_function(dfg, ctx, func, cache=LemmaCache(), checkers=REST))
            sampled_safety, sampled_rest = sampled_safety + s, sampled_rest + r
        if (k + 1) % 50 == 0:
            print(f"  {k + 1}/{n} kernels: {dict(counts)}", file=sys.stderr)
    return counts, all_safety, sampled_safety, sampled_rest, unknown_why


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", type=int, default=1000)
    ap.add_argument("--sample", type=int, default=10)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    ctx = VerifyContext()
    print("examples:", file=sys.stderr)
    c, s, r = examples(ctx)
    print(f"examples: {sum(c.values())} safety obligations: {c['proved']} proved, {c['refuted']} refuted, "
          f"{c['unknown']} unknown; safety {s:.2f} s CPU, the rest of verify {r:.2f} s: +{100 * s / r:.0f}%")
    c, total, ss, rr, why = generated(args.kernels, args.sample, args.seed, ctx)
    n = sum(c.values())
    print(f"{args.kernels} generated kernels: {n} safety obligations: {c['proved']} proved, {c['refuted']} refuted "
          f"(each replayed), {c['unknown']} unknown ({100 * c['unknown'] / max(n, 1):.1f}%); safety {total:.1f} s "
          f"CPU in all; on every {args.sample}th kernel safety {ss:.2f} s, the rest of verify {rr:.2f} s: "
          f"+{100 * ss / max(rr, 1e-9):.0f}%")
    for text, k in why.most_common(5):
        print(f"  unknown x{k}: {text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
