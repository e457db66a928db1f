"""RTL forms of the stream obligations ``fsm.stream.pre.<idx>`` and ``fsm.stream[<op>,<cond>].terminates``.

``fsm.stream.pre.<idx>``: the operands the stream instance takes (start, step and bound, taken together when
an activation starts) meet its variant's termination precondition (``Termination.for_dfg``, the term Z3 checks
the DFG's operands against), asserted in every cycle in which the instance takes them.

``fsm.stream[<op>,<cond>].terminates`` is proved on the table with a ranking argument: under the
precondition every firing that stays active makes progress (``Termination.progress``: the index moves
strictly toward the bound, a strict monotone move in a 64-bit domain, so an activation has finitely many
firings). The RTL form checks that progress on every instance of the variant: within an activation, each
index token after the first is related to the one before by the progress relation (with the step latched
at activation), in every activation whose operands met the precondition. The exact-hit variants (``!=`` with ``+=``/``-=``) rank by a ghost trip counter the RTL does
not have; their form is the measure of their DFG precondition instead: |bound - index| strictly decreases.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

import z3

from loom.hdl.monitors.z3sv import Unprintable, to_sv
from loom.ir.core import Operation
from loom.verify.ids import ObligationId

if TYPE_CHECKING:
    from loom.hdl.monitors import _Builder

W = 64


def _ports(b: "_Builder", inst: str) -> Optional[dict[str, str]]:
    """FIFO name of the stream instance's start/step/bound inputs (None: one is an always-ready source)."""
    chans = {ch.port: ch.fifo for ch in b.d.channels if ch.consumer == inst}
    if not all(chans.get(p) for p in ("start", "step", "bound")):
        return None
    return {p: chans[p] for p in ("start", "step", "bound")}


def _ghost_free(progress, domain: str):
    """The progress relation in observable terms: the table's own, or |bound - x| shrinking (ghost rank)."""
    x, x2, t, b = (z3.BitVec(n, W) for n in ("x", "x2", "t", "b"))
    if progress.__name__ == "_ghost":
        w = lambda v: z3.SignExt(2, v)  # noqa: E731
        d1, d2 = w(b) - w(x), w(b) - w(x2)
        mag = lambda d: z3.If(d < 0, -d, d)  # noqa: E731
        return mag(d2) < mag(d1), "|bound - index| strictly decreases (the exact-hit measure)"
    if domain == "int":
        xi, x2i, ti = (z3.BV2Int(v, True) for v in (x, x2, t))
        return progress(xi, x2i, ti, None, None), "the index moves strictly toward the bound"
    return progress(x, x2, t, None, None), "the index moves strictly toward the bound"


def stream_forms(b: "_Builder") -> None:
    """Add the pre and terminates monitors of every dataflow.stream of ``b``'s design."""
    from loom.semantics import machine_for
    from loom.sim.names import value_name_map
    from loom.verify.lemmas.contracts import family
    from loom.verify.lemmas.termination import TERMINATION, stream_variant

    streams = [i for i in b.d.instances if i.op.name == "dataflow.stream"]
    if not streams:
        return
    names = value_name_map(b.d.func, [i.op.results[0] for i in streams])
    progress_of: dict[str, list[str]] = {}
    ops_of: dict[str, Operation] = {}
    texts: dict[str, str] = {}
    for inst in streams:
        op = inst.op
        m = machine_for(op)
        term = TERMINATION.get(stream_variant(m))
        pre_id = str(ObligationId("fsm.stream.pre", names[op.results[0]]))
        term_id = str(ObligationId("fsm", family(m), params=("terminates",)))
        ports = _ports(b, inst.name)
        if term is None or ports is None or any(getattr(v.type, "width", W) != W and str(v.type) != "index"
                                                for v in op.operands):
            why = "no termination precondition" if term is None else "an operand is an always-ready source"
            b.m.skipped.setdefault(pre_id, why)
            b.m.skipped.setdefault(term_id, why)
            continue
        data = {p: f"{f}_out_data" for p, f in ports.items()}
        take = f"({ports['start']}_out_valid && {ports['start']}_out_ready)"
        x, t, bd = (z3.BitVec(n, W) for n in ("start", "step", "bound"))
        try:
            pre = to_sv(term.for_dfg(x, t, bd), data)
            rel, text = _ghost_free(term.progress, term.domain)
            g = inst.name
            env = {"x": f"lm_{g}_x", "x2": f"{b.sig[op.results[0]]}_data", "t": f"lm_{g}_t", "b": f"lm_{g}_b"}
            prog = to_sv(rel, env)
        except Unprintable as e:
            b.m.skipped.setdefault(pre_id, f"the precondition has no SV rendering ({e})")
            continue
        b.add(pre_id, f"!{take} || {pre}", op, f"the stream's operands meet its termination precondition "
              f"({term.dfg_text or term.text}) whenever it takes them")
        if op.results[0] not in b.sig or op.results[1] not in b.sig:
            continue
        fire, cont = b.fire(op.results[0]), f"{b.sig[op.results[1]]}_data[0]"
        latched = [r for r in ("t", "b") if f"lm_{g}_{r}" in prog]  # the step/bound the relation reads
        regs = ", ".join(f"lm_{g}_{r}" for r in ["x"] + latched)
        b.m.decls += [f"  logic lm_{g}_on, lm_{g}_ok;", f"  logic [{W - 1}:0] {regs};"]
        b.m.logic += [
            "  always @(posedge clk) begin  // in an activation: last index (step, bound)",
            f"    if (rst) lm_{g}_on <= 1'b0; else if ({fire}) lm_{g}_on <= {cont};",
            f"    if ({fire}) lm_{g}_x <= {b.sig[op.results[0]]}_data;",
            f"    if ({take}) lm_{g}_ok <= {pre};  // the activation's operands met the precondition"]
        port = {"t": "step", "b": "bound"}
        b.m.logic += [f"    if ({take}) lm_{g}_{r} <= {data[port[r]]};" for r in latched]
        b.m.logic.append("  end")
        # the lemma is progress under the precondition: an activation whose operands broke it (fsm.stream.pre,
        # refuted apart) owes none -- bad_stream_mul_zero's 0 *= 2 was a DISAGREE of a lemma Z3 proves
        progress_of.setdefault(term_id, []).append(f"(!({fire} && lm_{g}_on && lm_{g}_ok) || {prog})")
        ops_of.setdefault(term_id, op)
        texts[term_id] = text
    for term_id, conds in progress_of.items():
        b.m.skipped.pop(term_id, None)
        b.add(term_id, " && ".join(conds), ops_of[term_id],
              f"ranking of the termination lemma on every instance: within an activation {texts[term_id]} at "
              "each firing after the first")
