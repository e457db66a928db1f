"""Refinement over fresh random kernels: how many obligations are proved, and which are not.

Run: ``python benchmarks/sweep_refine.py [--seed S] [--count N] [--ops M]``. Every non-proved
obligation is listed with the kernel's seed (``loom.testing.scf_gen.generate_program`` rebuilds it).
A refutation here would be a lowering bug or a refinement false alarm: each one is replayed by the
checker itself, so it comes with the inputs on which interpreter and simulator disagree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.lower import LowerOptions, lower_module  # noqa: E402
from loom.testing.scf_gen import GenConfig, generate_program  # noqa: E402
from loom.verify.obligation import VerifyContext  # noqa: E402
from loom.verify.refine.check import check_refinement  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--ops", type=int, default=60)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    verdicts: Counter = Counter()
    failing: list[tuple[int, str, str, str]] = []
    t0 = time.process_time()
    for _ in range(args.count):
        seed = rng.randrange(2**32)
        prog = generate_program(random.Random(seed), GenConfig(max_ops=args.ops), seed=seed)
        dfg = next(f for f in lower_module(prog.module, prog.func_name, LowerOptions()).functions()
                   if f.name == "handshake.func")
        src = next(f for f in prog.module.functions()
                   if f.name == "func.func" and f.attributes["sym_name"].value == prog.func_name)
        for ob in check_refinement(dfg, VerifyContext(timeout=30), src):
            verdicts[ob.status] += 1
            if ob.status != "proved":
                failing.append((seed, ob.id, ob.status, ob.detail[:160]))
    cpu = time.process_time() - t0
    total = sum(verdicts.values())
    print(f"{args.count} kernels of ~{args.ops} ops: {total} refinement obligations, "
          f"{verdicts['proved']} proved, {verdicts['unknown']} unknown, {verdicts['refuted']} refuted "
          f"({cpu:.1f} s CPU)")
    for row in failing:
        print("  seed %d  %s  %s  %s" % row)
    return 1 if verdicts["refuted"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
