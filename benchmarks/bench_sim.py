"""Token-simulator throughput: firings per second, and the worklist scheduler against a naive one.

Run: ``python benchmarks/bench_sim.py [--firings N]``. The workload is K
independent accumulation loops (stream -> gate -> carry -> cond_br -> addi)
joined at the end, about 8 firings per loop iteration. The naive baseline
executes the same compiled tables but, for every firing, scans all ops from
the first and fires the first one that can -- the "scan-all-ops" scheduler the
worklist replaces. Prints both rates and their ratio; not a timed test.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from loom.ir import ArrayAttr, Block, FunctionType, Operation, Region, StringAttr, TypeAttr  # noqa: E402
from loom.ir.types import i1, i64, index, none  # noqa: E402
from loom.sim import simulate  # noqa: E402
from loom.sim.network import Network, build_network  # noqa: E402


def accumulation_loops(k: int) -> Operation:
    """A handshake.func with ``k`` independent ``acc += i for i < bound`` loops, results joined."""
    names = ["bound", "start"]
    block = Block.create([index, none], names)
    bound, start = block.args
    ops: list[Operation] = []

    def op(name, operands, types, **attrs):
        o = Operation.create(name, operands, types, attrs)
        block.append(o)
        ops.append(o)
        return o

    from loom.ir import IntegerAttr

    exits = []
    for _ in range(k):
        c0 = op("handshake.constant", [start], [index], value=IntegerAttr(0, index))
        c1 = op("handshake.constant", [start], [index], value=IntegerAttr(1, index))
        z = op("handshake.constant", [start], [i64], value=IntegerAttr(0, i64))
        s = op("dataflow.stream", [c0.results[0], c1.results[0], bound], [index, i1], step_op=StringAttr("+="),
               cont_cond=StringAttr("<"))
        g = op("dataflow.gate", list(s.results), [index, i1])
        acc = op("dataflow.carry", [s.results[1], z.results[0], z.results[0]], [i64])
        br = op("handshake.cond_br", [s.results[1], acc.results[0]], [i64, i64])
        iv = op("arith.index_cast", [g.results[0]], [i64])
        add = op("arith.addi", [br.results[0], iv.results[0]], [i64])
        acc.operands[2] = add.results[0]
        op("handshake.sink", [g.results[1]], [])
        exits.append(br.results[1])
    total = exits[0]
    for e in exits[1:]:
        total = op("arith.addi", [total, e], [i64]).results[0]
    op("handshake.return", [total], [])
    return Operation.create(
        "handshake.func",
        attributes={
            "sym_name": StringAttr("bench"),
            "function_type": TypeAttr(FunctionType((index, none), (i64,))),
            "argNames": ArrayAttr(tuple(StringAttr(n) for n in names)),
        },
        regions=[Region.of(block)],
    )


def naive_run(net: Network, max_steps: int) -> tuple[int, list]:
    """Scan-all-ops scheduler over the same compiled rules: per firing, the first op (in body order) that can fire.

    Returns (firings, return values). Only the effects this workload uses (completion) are handled.
    """
    steps = 0
    returned: list = []
    actors = net.actors
    while steps < max_steps:
        fired = False
        for actor in actors:
            heads = actor.heads
            for rule in actor.rules[actor.state]:
                if not all(q for _, q in rule.reads):
                    continue
                for i, q in rule.reads:
                    heads[i] = q[0]
                regs, mem = actor.regs, actor.memory
                if rule.guard is not None and not rule.guard(heads, regs, mem):
                    continue
                values = [(f(heads, regs, mem), appends) for f, appends in rule.emits]
                for n, v in [(n, f(heads, regs, mem)) for n, f in rule.updates]:
                    regs[n] = v
                if rule.effect is not None and rule.effect[0] == "complete" and not returned:
                    returned = [f(heads, regs, mem) for f in rule.effect[1]]
                for _, q in rule.reads:
                    q.popleft()
                for v, appends in values:
                    for ap in appends:
                        ap(v)
                rule.fired += 1
                actor.state = rule.next
                fired = True
                break
            if fired:
                break
        if not fired:
            return steps, returned
        steps += 1
    return steps, returned


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--firings", type=int, default=1_000_000, help="approximate firings for the main run")
    ap.add_argument("--loops", type=int, default=8, help="independent loops in the graph")
    args = ap.parse_args()
    k = args.loops
    func = accumulation_loops(k)
    per_iter = 8 * k
    n = max(1, args.firings // per_iter)

    t0 = time.perf_counter()
    r = simulate(func, {"bound": n})
    dt = time.perf_counter() - t0
    expect = k * (n * (n - 1) // 2)
    assert r.status == "completed" and r.results == [expect] and r.residual_tokens == 0, r
    rate = r.steps / dt
    print(f"worklist: {r.steps} firings in {dt:.2f} s = {rate:,.0f} firings/s ({k} loops x {n} iterations)")

    small = max(1, n // 20)
    net = build_network(func, {"bound": small})
    t0 = time.perf_counter()
    steps, returned = naive_run(net, 10 * per_iter * small + 1000)
    naive_dt = time.perf_counter() - t0
    assert returned == [k * (small * (small - 1) // 2)], returned
    naive_rate = steps / naive_dt
    print(f"naive scan-all-ops: {steps} firings in {naive_dt:.2f} s = {naive_rate:,.0f} firings/s (bound {small})")
    print(f"ratio worklist / naive: {rate / naive_rate:.1f}x")


if __name__ == "__main__":
    main()
