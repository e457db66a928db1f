"""Compile throughput of ``loom compile``: source ops lowered per second, and how it scales.

Run: ``python benchmarks/bench_compile.py [--ops N] [--repeat R]``. A random SCF
kernel of about N source ops (default 10,000: nested for/while/if, loads and
stores over several memrefs and views) is generated with loom.testing, printed
as MLIR, and then timed in two ways: the lowering alone (func.func ->
handshake.func) and the whole text pipeline (parse + lower + print, what
``loom compile`` does). The baseline is the same generator at N/10 ops; the
ratio of the two rates shows the scaling (about 1.0 means linear time).
Prints numbers; not a timed test.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.lower import LowerOptions, lower_function, lower_module  # noqa: E402
from loom.mlir import parse_text, print_module  # noqa: E402
from loom.testing.scf_gen import GenConfig, generate_program  # noqa: E402


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def measure(ops: int, repeat: int, seed: int) -> dict[str, float]:
    # two-result arith ops are left out: loom's text front end does not round-trip them yet
    prog = generate_program(random.Random(seed), GenConfig(max_ops=ops, max_depth=4, two_result_ops=False))
    text = print_module(prog.module)
    func = [f for f in prog.module.functions() if f.name == "func.func"][0]
    dfg_ops = len(lower_function(func).regions[0].entry.ops)
    lower_s = best_of(repeat, lambda: lower_function(func, LowerOptions()))
    pipe_s = best_of(
        repeat, lambda: print_module(lower_module(parse_text(text), prog.func_name, LowerOptions()))
    )
    return {
        "src_ops": prog.ops,
        "dfg_ops": dfg_ops,
        "lower_s": lower_s,
        "pipeline_s": pipe_s,
        "lower_rate": prog.ops / lower_s,
        "pipeline_rate": prog.ops / pipe_s,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ops", type=int, default=10_000, help="source ops of the large kernel")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    small = measure(max(args.ops // 10, 50), args.repeat, args.seed)
    big = measure(args.ops, args.repeat, args.seed)
    for label, m in (("baseline", small), ("kernel", big)):
        print(
            f"{label:9s} {m['src_ops']:7d} source ops -> {m['dfg_ops']:7d} DFG ops | "
            f"lower {m['lower_s'] * 1e3:8.1f} ms ({m['lower_rate']:9.0f} ops/s) | "
            f"parse+lower+print {m['pipeline_s'] * 1e3:8.1f} ms ({m['pipeline_rate']:9.0f} ops/s)"
        )
    lower_ratio = big["lower_rate"] / small["lower_rate"]
    pipe_ratio = big["pipeline_rate"] / small["pipeline_rate"]
    print(
        f"scaling: lowering rate at {big['src_ops']} ops / rate at {small['src_ops']} ops = "
        f"{lower_ratio:.2f} "
        f"(pipeline {pipe_ratio:.2f}; 1.0 = linear time)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
