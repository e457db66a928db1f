"""The RTL forms of the lengths checker's obligations: ``len.<L>.raw`` and ``len.<L>.after_cond`` (per-activation
counters at the loop's gate, and empty inputs once ``done`` is out), ``balance.<op>`` (empty inputs and latch at
the end) and ``class.<v>`` (``loom.hdl.monitors.classes``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from loom.hdl.monitors.base import NO_RTL_FORM, WIDTH, _Builder, add_parts
from loom.hdl.monitors.classes import class_form
from loom.ir.core import Operation
from loom.verify.ids import ObligationId

if TYPE_CHECKING:
    from loom.verify.facts import DfgFacts


def _activation(b: _Builder, gate: Operation) -> tuple[str, str, str, str]:
    """(end, raw, body, cond) per-activation counters at ``gate``: ``end`` is true in the cycle it takes the
    raw false token; the counters hold this activation's transfers before this cycle."""
    inst = b.inst[id(gate)]
    g = inst.name
    ch = next(c for c in b.d.channels if c.consumer == g and c.port == "before_cond")
    take = f"({ch.fifo}_out_valid && {ch.fifo}_out_ready)" if ch.fifo else "1'b0"
    bit = f"{ch.fifo}_out_data[0]" if ch.fifo else "1'b1"
    av, ac = b.fire(gate.results[0]), b.fire(gate.results[1])
    r, bv, bc = f"lm_{g}_raw", f"lm_{g}_body", f"lm_{g}_bcond"
    if r not in b.counters:
        b.counters[r] = r
        b.m.decls += [f"  logic [{WIDTH - 1}:0] {r}, {bv}, {bc};", f"  wire lm_{g}_end = {take} && !{bit};"]
        b.m.logic += [
            "  always @(posedge clk) begin",
            f"    if (rst || lm_{g}_end) begin {r} <= '0; {bv} <= '0; {bc} <= '0; end",
            "    else begin",
            f"      if ({take}) {r} <= {r} + 1'b1;",
            f"      if ({av}) {bv} <= {bv} + 1'b1;",
            f"      if ({ac}) {bc} <= {bc} + 1'b1;",
            "    end",
            "  end"]
    end = f"lm_{g}_end"
    body_now = f"({bv} + {WIDTH}'({av}))"
    return end, f"({r} + {WIDTH}'d1)", body_now, f"({bc} + {WIDTH}'({ac}))"


def length_monitors(b: _Builder, facts: "DfgFacts") -> None:
    """``len.<L>.raw``, ``len.<L>.after_cond``, ``balance.<op>`` and ``class.<v>`` of the lengths checker's IDs."""
    a = facts.lengths
    loops = {lf.loop.name: lf for lf in facts.loops}
    by_name = {n: v for v, n in a.names.items()}
    ops_of = dict(facts.balance)
    for oid in facts.length_ids:
        parsed = ObligationId.try_parse(oid)
        fam = parsed.family if parsed is not None else None
        if fam in ("len.raw", "len.after_cond") and parsed.subject in loops:
            lp, gate = loops[parsed.subject].loop, loops[parsed.subject].gate
            if fam == "len.raw":
                parts = [b.empty_at_end(lp.op)]
                if gate is not None:
                    end, raw, body, _ = _activation(b, gate)
                    parts.append(f"!{end} || {raw} == {body} + {WIDTH}'d1")
                text = "at each activation's end raw = body + 1 tokens; at done the loop opener's inputs are empty"
                add_parts(b, oid, parts, lp.op, text)
            elif gate is not None:
                end, _, body, cond = _activation(b, gate)
                add_parts(b, oid, [b.empty_at_end(gate), f"!{end} || {cond} == {body}"], gate,
                     "at each activation's end after_cond and after_value carried N tokens each; at done the "
                     "gate's inputs are empty")
            continue
        if fam == "balance" and oid in ops_of:
            op = ops_of[oid]
            add_parts(b, oid, [b.empty_at_end(op)], op,
                 "once done is out, no token remains in the op's input FIFOs or FSM latch")
            continue
        if fam == "class":
            v = by_name.get(parsed.subject)
            form = class_form(a, b, v) if v is not None else None
            if form is None:
                b.m.skipped[oid] = "no channel of the design denotes this clock's token count"
                continue
            cond, text = form
            add_parts(b, oid, [cond], v.op if hasattr(v, "op") else None, text)
            continue
        terminates = fam == "len.terminates" or (fam == "fsm" and parsed.params == ("terminates",))
        b.m.skipped[oid] = NO_RTL_FORM["len.terminates"] if terminates else "no RTL form"
