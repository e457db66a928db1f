"""The ``bmc.K<k>.*`` obligations from an exploration's result: proved, refuted with a witness, or unknown."""

from __future__ import annotations

from typing import Optional

from loom.ir.core import Operation
from loom.verify.bmc.limits import CAPS
from loom.verify.bmc.outcome import BmcResult
from loom.verify.bmc.search import explore
from loom.verify.ids import oid as obligation_id
from loom.verify.obligation import Obligation, VerifyContext


def _caps_text(capped: dict) -> str:
    """The runs each cap cut, in words."""
    return ", ".join(f"{n} run(s) cut by the {CAPS[c]}" for c, n in sorted(capped.items()))


NOTE = "not a single SMT query: an explicit-control exploration, each branch decided by z3"
HOW = dict(method="simulation", rule="explicit-control exploration")


def check_bmc(func: Operation, ctx: VerifyContext) -> list[Obligation]:
    """``bmc.K<k>.deadlock`` (every run within the bound reaches the return, without runtime error) and
    ``bmc.K<k>.residual`` (no run leaves a token), for every loop activation running at most K times;
    ``bmc.K<k>.livelock`` when a run cycles forever with no loop activation bounding it.

    Only the loop bound K may drop a run: a run cut by a cap (``CAPS``) or by a limit (the explored states,
    a query's resource units, or the time limit when one is set) makes the obligations unknown, naming the
    cap or limit and the largest bound fully explored."""
    k = ctx.bmc_k
    if not func.regions or len(func.regions[0].blocks) != 1:
        return [Obligation(obligation_id("bmc.deadlock", "", None, k), "bmc", "unknown", 0.0,
                           "the function has no single-block body",
                           loc=func.loc, **HOW)]
    budget = _budget(ctx)
    if ctx.progress is not None:
        ctx.progress(f"bmc: exploring runs with at most {k} iterations per loop activation")
    res = explore(func, k, budget, assumptions=ctx.assumptions, rlimit=ctx.rlimit, max_states=ctx.max_states,
                  max_units=ctx.bmc_rlimit)
    ids = {"deadlock": obligation_id("bmc.deadlock", "", None, k),
           "residual": obligation_id("bmc.residual", "", None, k)}
    if res.status == "violation":
        return _refuted(func, res, ids, k)
    return _explored(func, res, ids, k)


def _refuted(func: Operation, res: BmcResult, ids: dict, k: int) -> list[Obligation]:
    """A violation: its obligation refuted with the witness, the other ones not decided."""
    cex = {"bound": res.bound, "kind": res.kind, "arguments": res.arguments, "report": res.detail}
    hit = "residual" if res.kind == "residual" else "deadlock"
    args = f" (arguments {res.arguments})" if res.arguments else ""
    out = []
    if res.kind == "livelock":
        cex["schedule"] = res.schedule
        cycle = "; ".join(res.schedule[:12]) + (" ..." if len(res.schedule) > 12 else "")
        out.append(Obligation(obligation_id("bmc.livelock", "", None, k), "bmc", "refuted", res.seconds,
                              f"{res.detail}{args}: {cycle}", cex, func.loc, None, res.bound,
                              nature="behaviour", **HOW))
        for key in ("deadlock", "residual"):
            out.append(Obligation(ids[key], "bmc", "unknown", 0.0, f"not decided: the exploration stopped at "
                                  f"a livelock with bound {res.bound} ({NOTE})", None, func.loc, None, res.bound,
                                  **HOW))
        return sorted(out, key=lambda o: o.id)
    out.append(Obligation(ids[hit], "bmc", "refuted", res.seconds,
                          f"{res.kind} with at most {res.bound} iteration(s) per loop activation: "
                          f"{res.detail}{args}", cex, func.loc, None, res.bound, nature="behaviour", **HOW))
    other = "deadlock" if hit == "residual" else "residual"
    out.append(Obligation(ids[other], "bmc", "unknown", 0.0, f"not decided: the exploration stopped at a "
                          f"{res.kind} with bound {res.bound} ({NOTE})", None, func.loc, None, res.bound, **HOW))
    return sorted(out, key=lambda o: o.id)


def _explored(func: Operation, res: BmcResult, ids: dict, k: int) -> list[Obligation]:
    """No violation: proved when every run within K was explored, else unknown with the bound reached."""
    caps = f"; {_caps_text(res.capped)}, so those runs were not checked" if res.capped else ""
    if res.bound < 0:
        why = res.why if res.status == "budget" else "a cap was hit"
        reached = (f"; reached: {res.paths} complete run(s), {res.pruned} run prefix(es) dropped, "
                   f"{res.queries} branch queries, {res.states} states")
        return [Obligation(oid, "bmc", "unknown", res.seconds,
                           f"{why} before bound 0 was explored{caps}{reached} ({NOTE})",
                           None, func.loc, None, None, **HOW) for oid in ids.values()]
    if res.bound < k and res.status == "budget":
        short = f" (requested K={k}: {res.why})"
    elif res.bound < k:
        short = f" (requested K={k}: a cap cut runs with {res.bound + 1} iteration(s))"
    else:
        short = ""
    scope = (f"{res.paths} run(s) with every loop activation at most {res.bound} iteration(s){short}; "
             f"{res.pruned} run prefix(es) dropped{caps}; {NOTE}")
    # data are abstracted here: a runtime error that depends on data values (an index, a divisor) is the safe.*
    # obligations' business, so the claim names control only
    what = {"deadlock": "every run's control reaches the return (data abstracted: data-dependent runtime errors are "
                        "the safe.* obligations')",
            "residual": "no run leaves a token in a channel or an operator"}
    # The obligation is named for K: a run cut short by the budget or by a cap is "unknown" (holding only
    # up to the smaller bound it reached), never "proved".
    status = "proved" if res.bound >= k and res.status == "ok" else "unknown"
    if res.paths == 0:  # every run was cut at the bound (a loop that may never end): nothing was checked
        status = "unknown"
        scope = f"no run ends within the bound, nothing was checked; {scope}"
    return [Obligation(ids[key], "bmc", status, res.seconds, f"{what[key]}: {scope}", None, func.loc, None,
                       res.bound, **HOW) for key in ("deadlock", "residual")]


def _budget(ctx: VerifyContext) -> Optional[float]:
    """Seconds the exploration may take: the per-obligation timeout, cut to what is left of the function's
    budget; None when neither is set (then only the deterministic limits apply)."""
    return ctx.limit()


__all__ = ["check_bmc"]
