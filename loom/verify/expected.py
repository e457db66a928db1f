"""The obligation ids a checker would report, computed from the IR alone (no proof).

When a checker crashes or is skipped (its function's ``--budget`` used up), the driver
still lists these ids as ``unknown`` -- with the reason -- so a report never silently
loses an obligation it would otherwise have shown. Only ids that follow from the graph
without running the checker are listed (the lengths and refinement ids depend on the
analysis itself; for those the ``internal.<checker>`` entry stands alone).
"""

from __future__ import annotations

from loom.ir.core import Operation
from loom.semantics import machine_for
from loom.verify.ids import ObligationId
from loom.verify.lemmas.contracts import contracts_for, family
from loom.verify.memory.structure import Layout


def _ops(func: Operation) -> list[Operation]:
    return list(func.regions[0].entry.ops) if func.regions and func.regions[0].blocks else []


def lemma_ids(func: Operation) -> list[str]:
    """``fsm.<family>.<property>`` of every table, ``.terminates`` of every stream variant and
    ``fsm.stream.pre.<idx>`` of every stream op."""
    from loom.sim.names import value_name_map

    out: dict[str, None] = {}
    streams = []
    for op in _ops(func):
        m = machine_for(op)
        for c in contracts_for(m):
            out[c.id] = None
        if op.name == "dataflow.stream":
            out[str(ObligationId("fsm", family(m), params=("terminates",)))] = None
            streams.append(op)
    if streams:
        names = value_name_map(func, [op.results[0] for op in streams])
        for op in streams:
            out[str(ObligationId("fsm.stream.pre", names[op.results[0]]))] = None
    return list(out)


def structure_ids(layout: Layout) -> list[str]:
    """``mem.access.<name>`` of every access and ``done.postdom`` when there is one."""
    return ([str(ObligationId("mem.access", a.name)) for a in layout.accesses]
            + ([str(ObligationId("done.postdom"))] if layout.accesses else []))


def memory_ids(layout: Layout) -> list[str]:
    """``mem.<D>.order`` of every domain with a store."""
    return [str(ObligationId("mem.order", d.name)) for d in layout.domains
            if d.accesses and any(a.kind == "store" for a in d.accesses)]


def bmc_ids(k: int) -> list[str]:
    """``bmc.K<k>.deadlock`` and ``.residual``: what the bounded cross-check always reports."""
    return [str(ObligationId("bmc.deadlock", params=(str(k),))), str(ObligationId("bmc.residual", params=(str(k),)))]
