"""Differential check of the lowering: SCF interpreter vs token simulation of the lowered DFG.

``check_lowering`` runs one kernel both ways (optionally through the MLIR
printer and parser on both sides) and reports whether results and final
memories agree bit for bit, the simulation completed and no token is left.
``token_counts`` gives, per DFG value, how many tokens it carried in a run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional

from loom.ir.core import Module, Operation, Value
from loom.lower import LowerOptions, lower_module
from loom.runtime.compare import same_value


@dataclass
class Comparison:
    """Outcome of one differential run."""

    ok: bool
    detail: str
    dfg_module: Module
    interp: Any  # loom.interp.InterpResult
    sim: Any  # loom.sim.SimResult

    @property
    def dfg(self) -> Operation:
        return [op for op in self.dfg_module.ops if op.name == "handshake.func"][0]


def _roundtrip(module: Module) -> Module:
    from loom.mlir import parse_text, print_module

    return parse_text(print_module(module), module.filename)


def check_lowering(
    module: Module,
    func_name: str,
    inputs: dict[str, Any],
    options: Optional[LowerOptions] = None,
    *,
    text: bool = True,
    max_steps: int = 5_000_000,
) -> Comparison:
    """Interpret ``func_name`` and simulate its lowering on the same JSON-style ``inputs``.

    With ``text`` the source goes through print+parse before both runs and the
    DFG through print+parse before the simulation, so what is compared is what
    ``loom compile`` writes and ``loom sim`` reads.
    """
    from loom.interp import run_json
    from loom.sim import simulate

    src = _roundtrip(module) if text else module
    ref = run_json(src, func_name, inputs, max_steps=max_steps)
    dfg_module = lower_module(src, func_name, options or LowerOptions())
    if text:
        dfg_module = _roundtrip(dfg_module)
    hs = [op for op in dfg_module.ops if op.name == "handshake.func"][0]
    got = simulate(hs, inputs, max_steps=max_steps)
    problems: list[str] = []
    if ref.status != got.status:
        problems.append(
            f"status: interpreter {ref.status} ({ref.error}), simulator {got.status} ({got.error})"
        )
    elif ref.status == "error" and error_kind(ref.error) != error_kind(got.error):
        # both failing is agreement only when they fail the same way (a wrong lowering could turn a
        # division by zero into an out-of-bounds access)
        problems.append(f"error: interpreter {ref.error}, simulator {got.error}")
    if ref.status == "completed" and got.status == "completed":
        if len(ref.results) != len(got.results) or not all(
            same_value(a, b) for a, b in zip(ref.results, got.results)
        ):
            problems.append(f"results: interpreter {ref.results}, simulator {got.results}")
        for name, view in ref.memrefs.items():
            want = view.to_flat()
            have = got.memrefs.get(name)
            if (
                have is None
                or len(have) != len(want)
                or not all(same_value(a, b) for a, b in zip(want, have))
            ):
                problems.append(f"memref {name}: interpreter {want}, simulator {have}")
    if got.status == "completed" and got.residual_tokens:
        problems.append(f"{got.residual_tokens} residual token(s):\n{got.deadlock_report}")
    if got.status == "deadlock":
        problems.append(got.deadlock_report)
    return Comparison(not problems, "\n".join(problems), dfg_module, ref, got)


STEP_LIMITS = ("RT_STEP_LIMIT", "RT_SIM_STEP_LIMIT")  # the interpreter's and the simulator's own budgets


def error_kind(error: Any) -> Optional[str]:
    """The spec code of a run's error (both step limits are one kind: the run did not end in time)."""
    code = getattr(error, "code", None)
    if code is None and error is not None:
        m = re.search(r"\b(RT_[A-Z0-9_]+)", str(error))
        code = m.group(1) if m else str(error)
    return "STEP_LIMIT" if code in STEP_LIMITS else code


def token_counts(func: Operation, inputs: dict[str, Any], max_steps: int = 5_000_000) -> dict[Value, int]:
    """Simulate ``func`` to quiescence and return the tokens carried by each used value.

    SSA multi-use is an implicit fork (one channel per use), so every channel of
    a value carries all of its tokens; the count is read from any of them.
    """
    from loom.sim.engine import run
    from loom.sim.network import build_network

    net = build_network(func, inputs)
    run(net, max_steps)
    out: dict[Value, int] = {}
    for ch in net.channels:
        v = ch.consumer.op.operands[ch.port]
        out[v] = max(out.get(v, 0), ch.crossed)
    return out
