"""The RTL forms of the memory checkers' obligations: every done token of an access answers an outstanding request
(``mem.access.<X>``), the order of two accesses (``mem.<D>.order.<X><<Y>``, ``loom.hdl.monitors.order``) and no
access outstanding when ``done`` fires (``done.postdom``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from loom.hdl.monitors.base import _WORD, NO_RTL_FORM, WIDTH, _Builder, add_parts
from loom.hdl.monitors.order import order_monitor
from loom.verify.ids import ObligationId

if TYPE_CHECKING:
    from loom.verify.facts import DfgFacts


def memory_monitors(b: _Builder, facts: "DfgFacts") -> None:
    """``mem.access.<X>``, ``mem.<D>.order.<X><<Y>`` (``loom.hdl.monitors.order``) and ``done.postdom`` of the
    structure and memory checkers' IDs, over counters of each access's outstanding requests."""
    layout = facts.layout
    acc = {x.name: x for x in layout.accesses}
    out: dict[str, tuple[str, str, str]] = {}

    def outstanding(name: str) -> Optional[tuple[str, str, str]]:
        """(counter, request fire, done fire) of access ``name``: requests not yet answered by a done."""
        x = acc.get(name)
        if x is None or x.done is None or x.done not in b.sig or not x.op.results:
            return None
        if name not in out:
            c = f"lm_out_{name}"
            req, dn = b.fire(x.op.results[-1]), b.fire(x.done)
            b.m.decls.append(f"  logic [{WIDTH - 1}:0] {c};")
            b.m.logic.append(f"  always @(posedge clk) if (rst) {c} <= '0; else {c} <= {c} + {WIDTH}'({req}) - "
                             f"{WIDTH}'({dn});")
            out[name] = (c, req, dn)
        return out[name]

    for oid in facts.memory_ids:
        parsed = ObligationId.try_parse(oid)
        fam = parsed.family if parsed is not None else None
        if fam == "mem.order.pair":
            first, second = parsed.params
            x, y = outstanding(first), outstanding(second)
            if x is None or y is None:
                b.m.skipped[oid] = "an access without a done token"
                continue
            order_monitor(b, oid, acc[first], acc[second], x, y, facts.shape(first, second))
            continue
        if fam == "mem.access" and _WORD.fullmatch(parsed.subject):
            x = outstanding(parsed.subject)
            if x is None:
                b.m.skipped[oid] = "an access without a done token"
                continue
            # with transparent channels a request and its done may fire in one cycle (an on-chip memory answers
            # at once): the request counts as outstanding in the cycle it is made
            pending = f"({x[0]} + {WIDTH}'({x[1]}))" if b.same_cycle else x[0]
            add_parts(b, oid, [f"!{x[2]} || {pending} != '0"], acc[parsed.subject].op,
                 "every done token of the access answers an outstanding request")
            continue
        if fam == "done.postdom":
            outs = [outstanding(x.name) for x in layout.accesses]
            conds = [f"{b.still_out(o[0], o[2])} == '0" for o in outs if o is not None]
            if conds:
                add_parts(b, oid, [f"!done || ({' && '.join(conds)})"], layout.ret,
                     "done fires only after every access of every domain has completed")
            else:
                b.m.skipped[oid] = "no memory access"
            continue
        key = next((k for k in NO_RTL_FORM if oid.startswith(k + ".")), None)
        b.m.skipped[oid] = NO_RTL_FORM[key] if key else "no RTL form"
