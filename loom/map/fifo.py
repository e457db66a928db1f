"""``map.fifo``: the configured routes' depths cannot deadlock the DFG -- the verifier's own bmc, on the fabric.

The decoded configuration is rebuilt into a handshake.func (``loom.map.execute``): every route is one
``handshake.buffer`` marked ``loom.route`` holding max(1, switch hops + buffered FIFO slots) values (a bypassed
FIFO adds none, as the hardware passes the value through), and a producer stalls while a route it feeds is full
(``loom.semantics.routes``). The registry's ``bmc`` checker -- the same code that decides ``bmc.K*.deadlock``,
``bmc.K*.residual`` and ``bmc.K*.livelock`` for the DFG -- then runs on that function under the same context
(trip-count bound K, assumptions, deterministic limits). Each of its obligations becomes ``map.fifo.<its id>``
with the verdict it gave: proved, refuted with its witness (the arguments of a run that a full route stalls),
or unknown when a limit ran out. The DFG's own channels are unbounded, so a refutation here that the DFG's
``bmc`` does not share is a route too shallow for the tokens a recurrence or a fan-out keeps in flight.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Optional

from loom.ir.core import Operation
from loom.map.adg.model import ADG
from loom.semantics.routes import route_capacity
from loom.verify.ids import ObligationId
from loom.verify.obligation import Obligation, VerifyContext

# the verifier's deadlock / completion checker: whether every run reaches the return is bmc's deadlock obligation.
# Not ``structure`` (done.postdom): it finds memory ports by the DFG's direct wiring, which the route buffers hide
# (on the rebuilt dot it sees 0 done tokens: a vacuous proof), and no route depth changes a graph's postdominance.
CHECKERS = ("bmc",)
ASSUMED = ("routes as the decoded configuration sets them: each holds max(1, switch hops + buffered FIFO slots) "
           "values and stalls its producer when full; bypassed FIFOs add no place; edges inside a compound FU "
           "and a PE's own registers are not bounded")


def fifo_id(inner: str) -> str:
    """``map.fifo.<inner>``: the printed ID of the verifier obligation ``inner`` checked on the fabric."""
    return str(ObligationId("map.fifo", inner))


def fresh_copy(func: Operation) -> Operation:
    """An independent copy of ``func`` with the same value names (so map.json's node ids name its nodes), for
    ``execute.rebuild`` to rewire."""
    from loom.lower.clone import clone_op

    return clone_op(func, {})


def rebuilt_function(func: Operation, adg: ADG, words: list[int], doc: dict[str, Any]) -> Operation:
    """The handshake.func the configuration ``words`` implements, routes bounded (``ExecuteError`` when it
    configures no such function)."""
    from loom.map.dfg import read_dfg
    from loom.map.execute import decoded_connections, rebuild

    fresh = fresh_copy(func)
    dfg = read_dfg(fresh)
    connections, intra = decoded_connections(dfg, adg, words, doc)
    return rebuild(fresh, dfg, connections, intra)


def fifo_obligations(func: Operation, adg: ADG, words: list[int], doc: dict[str, Any], adg_name: str,
                     ctx: VerifyContext, source: Optional[Operation] = None) -> list[Obligation]:
    """The ``map.fifo.*`` obligations of ``func`` configured on ``adg`` by ``words`` (``ctx``: the verify run's
    bound, assumptions and limits; ``source``: its SCF function, for its ``loom.range`` assumptions)."""
    from loom.map.execute import ExecuteError

    try:
        rebuilt = rebuilt_function(func, adg, words, doc)
    except ExecuteError as e:
        return [Obligation(fifo_id(str(ObligationId("bmc.deadlock", "", None, (str(ctx.bmc_k),)))), "mapping",
                           "unknown", 0.0, f"fifo depths: not decided: the configuration rebuilds no function ({e})",
                           {"fabric": adg_name}, func.loc, method="none", rule="fifo depths")]
    return checked(rebuilt, ctx, adg_name, source)


def checked(rebuilt: Operation, ctx: VerifyContext, adg_name: str,
            source: Optional[Operation] = None) -> list[Obligation]:
    """Run the registry's ``CHECKERS`` on ``rebuilt`` (a function with bounded routes) and rename their
    obligations ``map.fifo.*``, verdicts, witnesses and bounds unchanged."""
    from loom.verify.driver import prepare, run_checker
    from loom.verify import registry

    run_ctx = dataclasses.replace(ctx, progress=None, want_smt2=False)
    run_ctx, facts = prepare(rebuilt, run_ctx, source)
    routes = sum(1 for op in rebuilt.regions[0].entry.ops if route_capacity(op) is not None)
    inputs = "; ".join(f"{a.text} ({a.origin})" for a in run_ctx.assumptions) or "none"
    out = []
    for checker in registry.checkers(CHECKERS, rebuilt.loc):
        for o in run_checker(checker, rebuilt, run_ctx, facts):
            cex = dict(o.counterexample or {}, fabric=adg_name) if o.status == "refuted" else o.counterexample
            out.append(dataclasses.replace(
                o, id=fifo_id(o.id), kind="mapping", counterexample=cex,
                detail=f"fifo depths on {adg_name} ({routes} bounded routes; {ASSUMED}; input assumptions as the "
                       f"DFG's own verify: {inputs}): {o.detail}",
                rule=f"fifo depths: {o.rule or o.method}"))
    return out
