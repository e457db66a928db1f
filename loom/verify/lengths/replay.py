"""Replaying a length refutation in the token simulator: a behaviour refutation comes with a run that shows it.

A refutation of ``len.*`` / ``balance.*`` / ``class.*`` is a bounded count witness (trip counts, branch
outcomes, argument values) under which a channel carries another number of tokens than its consumer
takes. That is a claim about runs, so before it is reported as a *behaviour* it is replayed: the
witness's argument values (memrefs sized to the trip counts it names, as given, then larger; the
inputs ``loom.verify.refine.replay.input_variants`` builds) are run in the token simulator with a
deterministic cap of ``REPLAY_STEPS`` firings, and the run must show the claimed symptom at the named
op and channel:

* *a token is left over* (the channel carries more tokens than the op consumes): the channel still
  holds a token at the end of the run beyond the tokens that re-arm a primed buffer, or the op took
  it and is left latched mid-burst (a carry or invariant seeded for an activation that never comes);
* *its consumer starves* (fewer): the op consumed fewer tokens of the channel than the witness counts
  and waits -- the run deadlocks, or ends with the op holding tokens on its other inputs or latched;
* *a body-local access fires at the loop's exit* (``class``): the access consumed the counted number of
  tokens (one per raw position, N+1) in a run whose loops ran the counted number of iterations, or the
  run stops with ``RT_MEMREF_OUT_OF_BOUNDS`` at the access's memory port (the address one past the
  loop's last, when the trip count is a memref's size), or the exit position's token is left over;
* *a select out of range*: the run stops with ``RT_HANDSHAKE_MUX_SELECT_RANGE``;
* *a stream that never stops*: the run reaches the step cap (``RT_SIM_STEP_LIMIT``).

The first input that shows it is attached to the counterexample (``replay``: inputs, status, residual
channels, the named channel's count). When none does, the refutation is not reported: the obligation
is ``unknown`` with what the runs showed (``loom.verify.lengths.check``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Optional

import z3

from loom.diagnostics import LoomError
from loom.ir.core import Operation
from loom.ir.types import MemRefType

REPLAY_STEPS = 200_000  # firings per replayed run (deterministic: the simulator's schedule is fixed)
OUT_OF_BOUNDS = "RT_MEMREF_OUT_OF_BOUNDS"
MAX_VARIANTS = 12


@dataclass
class Run:
    """One token-simulator run, reduced to what a symptom is read from."""

    inputs: dict
    status: str  # completed | deadlock | error
    quiescent: bool = True  # False: still firing at the step cap
    code: Optional[str] = None
    message: str = ""
    where: str = ""  # the location of the op a runtime error stopped at
    residual: dict[str, int] = field(default_factory=dict)  # channel -> tokens beyond its re-arm allowance
    latched: list[str] = field(default_factory=list)  # ops left mid-burst
    crossed: dict[tuple[int, int], int] = field(default_factory=dict)  # (value, consumer op) -> tokens in
    left: dict[tuple[int, int], int] = field(default_factory=dict)  # (value, consumer op) -> tokens beyond allowance
    holds: set[int] = field(default_factory=set)  # ops (id) that hold a token beyond allowance on some input
    latched_ops: set[int] = field(default_factory=set)
    by_value: dict[int, int] = field(default_factory=dict)  # value -> tokens into its first channel
    short: dict[int, str] = field(default_factory=dict)  # primed buffer (id) not re-armed -> where, in words

    def summary(self) -> dict:
        out: dict[str, Any] = {"inputs": self.inputs, "status": self.status}
        if not self.quiescent:
            out["still_firing_after"] = REPLAY_STEPS
        if self.code:
            out["error"] = self.code
        out["residual_channels"] = dict(self.residual)
        if self.latched:
            out["latched"] = list(self.latched)
        return out


def run(func: Operation, inputs: dict, steps: int = REPLAY_STEPS) -> Run:
    """Simulate ``func`` on ``inputs`` with a cap of ``steps`` firings (an input the simulator refuses is a
    run with status ``error``)."""
    from loom.sim.engine import STEP_LIMIT, run as fire
    from loom.semantics.handshake_ops import copied_value
    from loom.sim.network import Forever, build_network

    try:
        net = build_network(func, inputs)
    except LoomError as e:
        return Run(inputs, "error", e.code, e.message)
    n, returned, error, quiescent = fire(net, steps)
    out = Run(inputs, "completed", quiescent)
    if error is not None:
        out.status, out.code, out.message = "error", error.code, error.message
        out.where = str(error.loc)
    elif not quiescent and returned is None:
        out.status, out.code, out.message = "error", STEP_LIMIT, f"no completion after {n} firings"
    elif returned is None:
        out.status = "deadlock"
    for ch in net.channels:
        op = ch.consumer.op
        key = (id(op.operands[ch.port]), id(op))
        out.crossed[key] = out.crossed.get(key, 0) + ch.crossed
        out.by_value.setdefault(id(op.operands[ch.port]), ch.crossed)
        extra = 0 if isinstance(ch.q, Forever) else max(0, len(ch.q) - ch.allowance)
        if ch.allowance and not isinstance(ch.q, Forever) and len(ch.q) < ch.allowance:
            root = copied_value(op.operands[ch.port])
            out.short.setdefault(id(root.op), f"{ch.name} holds {len(ch.q)} of its {ch.allowance} re-arm token(s)")
        if extra:
            out.left[key] = out.left.get(key, 0) + extra
            out.residual[ch.name] = extra
            out.holds.add(id(op))
    for a in net.actors:
        if a.state in a.machine.residual_states:
            out.latched.append(a.label())
            out.latched_ops.add(id(a.op))
    return out


def witness_dims(a, w) -> dict:
    """Memref sizes a count witness fixes: ``memref.dim`` results whose value its model assigns (the
    calculus reads them as uninterpreted values of the memref and the dimension), as ``name.dimK``."""
    from loom.runtime import function_arg_names

    func = a.typing.func
    args = func.regions[0].entry.args
    names = dict(zip(args, function_arg_names(func)))
    out: dict[str, int] = {}
    for op in func.regions[0].entry.ops:
        if op.name != "memref.dim" or len(op.operands) != 2 or op.operands[0] not in names:
            continue
        k, d = a.typing.types.get(op.operands[1]), a.typing.types.get(op.results[0])
        if k is None or d is None or not z3.is_bv_value(z3.simplify(k.term)):
            continue
        got = w.model.eval(d.term, model_completion=False)
        if z3.is_bv_value(got):
            out[f"{names[op.operands[0]]}.dim{z3.simplify(k.term).as_long()}"] = max(0, got.as_signed_long())
    return out


def variants(func: Operation, args: dict, trips: dict) -> list[dict]:
    """Inputs to replay a witness on: its arguments (and the memref sizes it fixes, ``name.dimK``), memrefs
    sized to the largest trip count it names (+1, then exactly), filled with that count (a trip count
    loaded from memory), with -1 and with 1 (either outcome of a data-dependent branch) and as
    ``input_variants`` fills them, then its 3 and 6 elements, arguments clamped."""
    from loom.runtime import function_arg_names
    from loom.verify.refine.replay import input_variants

    names = function_arg_names(func)
    mems = [(n, a.type) for n, a in zip(names, func.regions[0].entry.args) if isinstance(a.type, MemRefType)]
    most = max([v for v in trips.values() if isinstance(v, int)] + [0])
    out: list[dict] = []
    for size in (most + 1, most, None):
        given = dict(args)
        if size is not None:
            for n, t in mems:
                for k in range(t.rank):
                    given.setdefault(f"{n}.dim{k}", size)
        for v in input_variants(func, given):
            for value in ((most, -1, 1) if size is not None and mems else ()):
                filled = dict(v)  # uniform contents: a loaded trip count, or one outcome of a data branch
                for n, t in mems:
                    filled[n] = _fill(v[n], value)
                if filled not in out:
                    out.append(filled)
            if v not in out:
                out.append(v)
    return out[:MAX_VARIANTS]


def _fill(x: Any, value: int) -> Any:
    if isinstance(x, list):
        return [_fill(y, value) for y in x]
    if isinstance(x, float):
        return float(value)
    return value if isinstance(x, int) and not isinstance(x, bool) else x


def _loops_ran(a, trips: dict, r: Run) -> bool:
    """The run's function-level for loops ran as many iterations as the witness says (their raw condition
    carried N+1 tokens); loops that are nested, while loops, or have no consumed condition are not read."""
    by_name = {lp.name: lp for lp in a.typing.loops}
    for name, n in trips.items():
        lp = by_name.get(name)
        if lp is None or lp.kind != "for" or lp.activation.levels or not isinstance(n, int):
            continue
        seen = r.by_value.get(id(lp.op.results[1]))
        if seen is not None and seen != n + 1:
            return False
    return True


def shows(a, c, r: Run, got: int, want: int, trips: dict) -> Optional[str]:
    """Why run ``r`` shows check ``c``'s claim (``got`` tokens on its channel where ``want`` are consumed),
    or None."""
    op, x = c.op, c.channel
    name = a.names.get(x, "?") if x is not None else "?"
    opn = op.name
    key = (id(x), id(op)) if x is not None else None
    crossed = r.crossed.get(key, 0) if key else 0
    left = r.left.get(key, 0) if key else 0
    stuck = id(op) in r.holds or id(op) in r.latched_ops
    if c.expected is not None and getattr(c.expected, "is_empty", False) and "select" in c.what:
        if r.status == "error" and r.code == "RT_HANDSHAKE_MUX_SELECT_RANGE":
            return f"stops with {r.code}: {r.message}"
        return None
    if c.family == "class" and r.code == OUT_OF_BOUNDS and r.where in _ports(a, op):
        return f"the run stops at {opn}'s memory port: {r.message}"  # the access past the loop's last address
    if r.status == "error" and r.quiescent:
        return None  # a runtime error (or inputs the simulator refuses): not the symptom claimed
    how = ("the run deadlocks" if r.status == "deadlock" else "the run ends" if r.quiescent
           else f"the run is still firing after {REPLAY_STEPS} firings")
    if c.family == "class":
        if key and r.quiescent and crossed - left == got and _loops_ran(a, trips, r):
            return (f"{opn} consumed {got} token(s) of {name} where its loop body ran {want} time(s)"
                    + (f" (and {how})" if r.status != "completed" else ""))
        if key and r.quiescent and left:
            return f"{how} with {left} token(s) of {name} left before {opn} (it took {crossed - left})"
        return None
    if key is None:
        if r.status == "deadlock" or r.residual or r.latched or not r.quiescent:
            return f"{how} with tokens left" if r.residual or r.latched else how
        return None
    if got > want:
        if left and r.quiescent:
            return f"{how} with {left} token(s) of {name} left before {opn} (it took {crossed - left})"
        if id(op) in r.latched_ops and r.quiescent:  # it took the token and waits, mid-burst, for what follows
            return f"{how} with {opn} latched mid-burst on a token of {name} (it took {crossed})"
        others = sorted(v for (ch, at), v in r.left.items() if at == id(op) and ch != id(x) and v)
        if c.family == "balance" and others and r.quiescent:
            # the balance claim is about the op's inputs together: a run that ends with tokens left on another
            # of its inputs shows them unbalanced (which channel holds the surplus depends on the schedule)
            return f"{how} with {others[-1]} token(s) left on another input of {opn}: its inputs are unbalanced"
        return None
    if id(op) in r.short:
        return (f"{how} with the primed {opn} not re-armed ({r.short[id(op)]}): the next invocation finds it "
                "empty")
    if left:
        return None
    if stuck and r.quiescent:
        return (f"{how} with {opn} waiting for {name} (it took {crossed} token(s) of it) while holding tokens on "
                "its other inputs" + (" or latched mid-burst" if id(op) in r.latched_ops else ""))
    if (r.status == "deadlock" or not r.quiescent) and crossed < want:
        return f"{how} with {opn} waiting for {name} (it took {crossed} of the {want} token(s) it needs)"
    return None


def _ports(a, op: Operation) -> set[str]:
    """Locations of the memory ports an access's address results feed (where the simulator checks bounds)."""
    outs = {id(r) for r in op.results}
    return {str(u.loc) for u in a.typing.func.regions[0].entry.ops
            if any(id(v) in outs for v in u.operands)} | {str(op.loc)}


def replay_check(a, c, w) -> dict:
    """Replay count witness ``w`` of check ``c`` (``loom.verify.lengths.inference.Check``): ``shown`` (bool),
    ``why``, and the run (``inputs``, ``status``, ``residual_channels``, the channel's count)."""
    got, want = w.totals[1], w.totals[0]
    func = a.typing.func
    tried: list[str] = []
    first: Optional[Run] = None
    runs = a.__dict__.setdefault("_replayed", {})  # one run per input of the analysis (checks share witnesses)
    for inputs in variants(func, {**witness_dims(a, w), **w.args}, w.trips):
        key = json.dumps(inputs, sort_keys=True, default=repr)
        r = runs.get(key)
        if r is None:
            r = runs[key] = run(func, inputs)
        first = first or r
        why = shows(a, c, r, got, want, w.trips)
        if why is not None:
            return {**r.summary(), **_count(a, c, r), "shown": True, "why": why}
        tried.append(r.status + (f" {r.code}" if r.code else "") + (" with residual tokens" if r.residual else ""))
    out = first.summary() if first is not None else {}
    return {**out, "shown": False, "why": f"no run shows it ({len(tried)} input(s) tried: "
                                         f"{', '.join(dict.fromkeys(tried)) or 'none could be built'})"}


def _count(a, c, r: Run) -> dict:
    if c.channel is None:
        return {}
    name = a.names.get(c.channel, "?")
    return {"channel": name, "channel_tokens": r.crossed.get((id(c.channel), id(c.op)), 0)}


def replay_forever(func: Operation, args: Optional[dict] = None) -> dict:
    """A stream that never stops: the run on ``args`` (unnamed ones as ``input_variants`` picks) must reach
    the step cap."""
    from loom.sim.engine import STEP_LIMIT

    inputs = variants(func, args or {}, {})[0]
    r = run(func, inputs)
    shown = not r.quiescent and r.code in (None, STEP_LIMIT)
    why = (f"the run is still firing after {REPLAY_STEPS} firings (status {r.status})" if shown
           else f"the run {r.status}s" + (f" ({r.code})" if r.code else ""))
    return {**r.summary(), "shown": shown, "why": why}


__all__ = ["REPLAY_STEPS", "Run", "replay_check", "replay_forever", "run", "shows", "variants"]
