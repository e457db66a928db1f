"""DFG-level RTL monitors: one SVA property per ``loom verify`` obligation, labelled with the obligation's ID.

The verifier's own analyses say what each obligation is about: the clock
calculus (``loom.verify.lengths``) gives the loops, their gates, the ops with a
balance obligation and each value's length class; the memory layout and the
order check (``loom.verify.memory``) give the domains, the accesses and the
ordered pairs. Each obligation becomes counters over channel transfers plus one
``LOOM_ASSERT_ALWAYS`` (so both backends of ``loom_props.svh`` render it):

* ``len.<L>.raw``   -- at each end of an activation (the gate takes the raw false token): raw = body + 1;
  once ``done`` is out, the loop opener's input channels and latch are empty;
* ``len.<L>.after_cond`` -- at each activation end: after_cond tokens = after_value tokens (N each); once
  ``done`` is out, the gate's input channels and latch are empty;
* ``balance.<op>``  -- once ``done`` is out, no token remains in the op's input FIFOs or in its FSM latch (a primed
  buffer is also re-armed: its copies' consumers took as many tokens as it took in);
* ``class.<v>``     -- once ``done`` is out, v's token count equals the count its clock denotes, read off the
  condition channels (``loom.hdl.monitors.classes``); an empty class never fires;
* ``mem.<D>.order.<X><<Y>`` -- program order by request/done counts where the instances correspond, else
  mutual exclusion of outstanding requests (``loom.hdl.monitors.order``); read-read pairs have no obligation;
* ``fsm.stream.pre.<idx>`` / ``fsm.stream[..].terminates`` -- the termination precondition on the operands a
  stream takes, and the lemma's progress relation between its index tokens (``loom.hdl.monitors.streams``);
* ``mem.access.<X>`` -- every done token of the access answers an outstanding request;
* ``done.postdom``  -- when ``done`` fires, no access of any domain is outstanding.

"Empty" at the end of the run is the simulator's "not residual": a channel whose value copies a primed buffer
(``initValues``) may keep up to that buffer's initial token count, the tokens that re-arm it for the next run
(``loom.semantics.rest.rearm_allowance``), and no more; end-of-run counts leave those tokens out, as the clock
calculus does. ``_Builder.left`` / ``settled_count`` are the one place that encodes it.

The monitors sit in the top under ``LOOM_DFG_MONITORS`` (task ``dfg`` of the ``.sby``, a bounded check):
their counters are not related to FIFO occupancy by helper invariants, so k-induction cannot prove them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from loom.hdl.monitors.classes import class_form
from loom.hdl.monitors.order import order_shape
from loom.hdl.monitors.streams import stream_forms
from loom.hdl.datapath.expr import unique
from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType
from loom.verify.ids import ObligationId

if TYPE_CHECKING:
    from loom.hdl.netlist import Channel, Design

WIDTH = 16  # token counters: a bounded check of depth < 2**16 cycles never wraps them
DEFINE = "LOOM_DFG_MONITORS"
_WORD = re.compile(r"\w+")  # the access names the order and access monitors know
NO_RTL_FORM = {
    "refine": "relates the DFG to its SCF source, which is not in the RTL",
    "mem.indep": "a graph fact (no ctrl token of one domain depends on another's done token): a dependence "
                 "through the network is not a per-cycle observable (the RTL shows when tokens move, not why)",
    "mem.alias": "a fact about which memref arguments may alias; the RTL has one port pair per interface",
    "len.terminates": "termination of a data-dependent while loop: a liveness fact that loom verify proves by a "
                      "ranking function, refutes by a repeating state or a recurrence set, or else assumes; no "
                      "per-cycle safety property states it",
    "fsm": "the table lemmas are p_fsm of each component (task components); pre/terminates are monitors here",
    "bmc": "deadlock/residual: whole-run monitors of loom.hdl.formal.liveness (<stem>_live.sby)",
    "map": "about a placement on a fabric, not the DFG's RTL",
}


@dataclass
class Monitor:
    """One DFG-level property: the obligation it states and its SV condition (true in every cycle)."""

    obligation: str
    label: str
    cond: str
    instance: Optional[str]
    op: Optional[Operation]
    statement: str


@dataclass
class Monitors:
    """The monitors of one design: helper declarations, logic, properties, and obligations left without one."""

    decls: list[str] = field(default_factory=list)
    logic: list[str] = field(default_factory=list)
    props: list[Monitor] = field(default_factory=list)
    skipped: dict[str, str] = field(default_factory=dict)  # obligation ID -> why no RTL form
    note: str = ""

    def lines(self) -> list[str]:
        """The SV text, guarded by ``LOOM_ASSERTIONS`` and ``LOOM_DFG_MONITORS``."""
        if not self.props:
            return []
        out = ["`ifdef LOOM_ASSERTIONS", f"`ifdef {DEFINE}",
               "  // DFG-level monitors (loom/hdl/monitors/__init__.py): label = the loom verify obligation ID"]
        out += self.decls + self.logic
        for p in self.props:
            out.append(f"  // {p.obligation}: {p.statement}")
            out.append(f"  `LOOM_ASSERT_ALWAYS({p.label}, {p.cond})")
        return out + ["`endif", "`endif"]


def label_of(oid: str, taken: set[str]) -> str:
    """A legal, unique SV identifier for obligation ``oid`` (deterministic in the order IDs are given)."""
    s = oid.replace("<", "_lt_").replace("|", "_or_").replace("@", "_at_").replace("%", "")
    return unique("ob_" + re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", s)).strip("_"), taken)


class _Builder:
    """Counters and conditions over the top's signals, each declared once."""

    def __init__(self, d: "Design") -> None:
        self.d = d
        self.m = Monitors()
        self.sig = d.signals
        self.inst = {id(i.op): i for i in d.instances}
        self.counters: dict[str, str] = {}
        self.taken: set[str] = set()
        self.m.decls.append("  logic lm_done_seen;")
        self.m.logic.append("  always @(posedge clk) if (rst) lm_done_seen <= 1'b0; else if (done) lm_done_seen <= 1'b1;")
        # the environment calls the function once: every token argument is offered from the first cycle
        # after reset until it is taken, and never again (as the token simulator starts with all arguments)
        for _, _, port in d.args:
            took = f"lm_took_{port}"
            self.m.decls.append(f"  logic {took};")
            self.m.logic += [
                f"  always @(posedge clk) if (rst) {took} <= 1'b0; else if ({port}_valid && {port}_ready) {took} <= 1'b1;",
                f"  `LOOM_ASSUME_ALWAYS(a_once_{port}, {port}_valid == !{took})"]
        # settled: no transfer anywhere in this cycle, so no register changes and none ever will again
        sources = {ch.producer for ch in d.channels if ch.fifo is None}  # always offered, never "moves"
        moves = [self.fire(v) for v in sorted(set(self.sig), key=lambda v: self.sig[v])
                 if not isinstance(v.type, MemRefType) and self.sig[v] not in sources]
        moves += [f"({ch.fifo}_out_valid && {ch.fifo}_out_ready)" for ch in d.channels if ch.fifo]
        self.m.decls.append("  wire lm_settled;")
        self.m.logic.append(f"  assign lm_settled = !({' || '.join(moves) or chr(48)});")
        self.m.decls.append("  wire lm_end = lm_done_seen && lm_settled;  // done is out and the network has settled")

    def fire(self, v: Value) -> str:
        s = self.sig[v]
        return f"({s}_valid && {s}_ready)"

    @property
    def same_cycle(self) -> bool:
        """A token can pass a channel in the cycle it is sent (a transparent FIFO, loom.hdl.buffers): a transfer
        and one it enables can then fire in one cycle, so a count a condition needs "so far" includes the
        current cycle's transfer (``upto_now``)."""
        return any(ch.buffer is not None and ch.buffer.bypass for ch in self.d.channels)

    def upto_now(self, v: Value) -> str:
        """v's transfers so far: the counter (earlier cycles), plus this cycle's when tokens pass through in one
        cycle (``same_cycle``)."""
        n = self.count(v)
        return f"({n} + {WIDTH}'({self.fire(v)}))" if self.same_cycle else n

    def still_out(self, counter: str, done_fire: str) -> str:
        """Requests of an outstanding ``counter`` not answered by the end of this cycle's done (``same_cycle``)."""
        return f"({counter} - {WIDTH}'({done_fire}))" if self.same_cycle else counter

    def count(self, v: Value, key: str = "", when: str = "") -> str:
        """A counter of v's transfers (those where ``when`` holds too), from reset."""
        name = f"lm_n{key}_{self.sig[v]}"
        if name not in self.counters:
            self.counters[name] = name
            ev = self.fire(v) + (f" && {when}" if when else "")
            self.m.decls.append(f"  logic [{WIDTH - 1}:0] {name};")
            self.m.logic.append(f"  always @(posedge clk) if (rst) {name} <= '0; else if ({ev}) {name} <= {name} + 1'b1;")
        return name

    # What a finished run may leave, in one place: a channel whose value copies a primed buffer may keep up to
    # that buffer's initial token count (``Channel.allowance`` = ``loom.semantics.rest.rearm_allowance``): those
    # tokens re-arm the buffer for the next run and are not residual, as in the simulator and both BMCs. Every
    # end-of-run form reads a channel through ``left`` (residual tokens) or ``settled_count`` (its count as the
    # verifier counts it), never through its FIFO's signals directly.

    def held(self, ch: "Channel") -> str:
        """Tokens in channel ch's FIFO now: pushes (its producer's transfers) minus pops, a counter declared once
        (only a primed channel needs one; any other is read through ``out_valid``)."""
        name = f"lm_held_{ch.fifo}"
        if name not in self.counters:
            self.counters[name] = name
            push, pop = f"({ch.producer}_valid && {ch.producer}_ready)", f"({ch.fifo}_out_valid && {ch.fifo}_out_ready)"
            self.m.decls.append(f"  logic [{WIDTH - 1}:0] {name};  // tokens in {ch.fifo} (it may keep {ch.allowance}: "
                                "they re-arm a primed buffer)")
            self.m.logic.append(f"  always @(posedge clk) if (rst) {name} <= '0; "
                                f"else {name} <= {name} + {WIDTH}'({push}) - {WIDTH}'({pop});")
        return name

    def left(self, ch: "Channel") -> str:
        """Channel ch holds a residual token: more than its re-arm allowance (any token when it has none)."""
        if ch.fifo is None:
            return "1'b0"  # an always-ready source: never residual
        if not ch.allowance:
            return f"{ch.fifo}_out_valid"
        return f"({self.held(ch)} > {WIDTH}'d{ch.allowance})"

    def rearm(self, v: Value) -> Optional[str]:
        """The tokens of v that re-arm a primed buffer at this moment (those its FIFOs keep, up to the allowance;
        every use of v holds its own copy, so the fewest over its channels), or None when v has no allowance."""
        chans = [ch for ch in self.d.channels if ch.value is v and ch.fifo is not None]
        if not chans or not all(ch.allowance for ch in chans):
            return None
        kept = [f"({self.held(ch)} < {WIDTH}'d{ch.allowance} ? {self.held(ch)} : {WIDTH}'d{ch.allowance})"
                for ch in chans]
        while len(kept) > 1:
            a, b = kept.pop(), kept.pop()
            kept.append(f"({a} < {b} ? {a} : {b})")
        return kept[0]

    def settled_count(self, v: Value) -> str:
        """v's token count at the end of a run as the verifier counts it: its transfers, less the tokens that
        re-arm a primed buffer (they belong to the next run: the clock calculus types a primed select's output on
        its condition's clock, without the re-arm token). Equal to ``count(v)`` for any value without allowance."""
        n = self.count(v)
        r = self.rearm(v)
        return n if r is None else f"({n} - {r})"

    def pops(self, ch: "Channel") -> str:
        """A counter of the tokens taken out of channel ch's FIFO, from reset."""
        name = f"lm_pop_{ch.fifo}"
        if name not in self.counters:
            self.counters[name] = name
            self.m.decls.append(f"  logic [{WIDTH - 1}:0] {name};")
            self.m.logic.append(f"  always @(posedge clk) if (rst) {name} <= '0; "
                                f"else if ({ch.fifo}_out_valid && {ch.fifo}_out_ready) {name} <= {name} + 1'b1;")
        return name

    def rearmed(self, op: Operation) -> list[str]:
        """op is a primed buffer: at the end of the run it is re-armed, every consumer at the end of its copies
        (through forks/br/plain buffers) having taken exactly as many tokens as op took in; with ``left`` on those
        channels, each copy keeps exactly its allowance. Empty for any other op."""
        from loom.semantics.handshake_ops import copied_value
        from loom.semantics.rest import rearm_allowance

        inst = self.inst.get(id(op))
        if inst is None or op.name != "handshake.buffer" or not rearm_allowance(op.results[0]):
            return []
        root = op.results[0]
        ins = [ch for ch in self.d.channels if ch.consumer == inst.name and ch.fifo]
        copies = {self.sig[v] for v in self.sig if copied_value(v) is root}
        leaves = [ch for ch in self.d.channels if ch.value is not None and copied_value(ch.value) is root
                  and ch.fifo and not any(self.sig.get(r) in copies for r in self.inst_op(ch.consumer).results)]
        if len(ins) != 1 or not leaves:
            return []
        took = self.pops(ins[0])
        return [f"{self.pops(ch)} == {took}" for ch in leaves]

    def inst_op(self, name: str) -> Operation:
        return next(i.op for i in self.d.instances if i.name == name)

    def empty_at_end(self, op: Operation) -> Optional[str]:
        """Once done is out: no input channel of op holds a residual token (``left``), op holds nothing latched,
        and a primed buffer has been re-armed (``rearmed``)."""
        inst = self.inst.get(id(op))
        if inst is None:
            return None
        parts = [f"!{self.left(ch)}" for ch in self.d.channels if ch.consumer == inst.name and ch.fifo]
        parts.append(f"!{inst.name}_residual")
        parts += self.rearmed(op)
        return f"!lm_end || ({' && '.join(parts)})"

    def add(self, oid: str, cond: str, op: Optional[Operation], statement: str) -> None:
        inst = self.inst.get(id(op)) if op is not None else None
        self.m.props.append(Monitor(oid, label_of(oid, self.taken), cond, inst.name if inst else None, op, statement))


def build_monitors(d: "Design") -> Monitors:
    """The DFG-level monitors of design ``d``, from the verifier's analyses of ``d.func``."""
    b = _Builder(d)
    source = d.source
    try:
        from loom.verify.lengths.check import analyze, balance_targets, obligations
        from loom.verify.memory.order import check_memory_order
        from loom.verify.memory.structure import check_structure, memory_layout
        from loom.verify.obligation import VerifyContext

        ctx = VerifyContext()
        a = analyze(d.func, ctx)
        len_ids = [o.id for o in obligations(a, ctx)]
        layout = memory_layout(d.func)
        mem_ids = [o.id for o in check_structure(d.func, ctx, layout) + check_memory_order(d.func, ctx, source, layout)]
    except Exception as e:  # noqa: BLE001 - a DFG the analyses cannot read still gets its RTL, without monitors
        b.m.note = f"no DFG-level monitors: the verifier's analysis failed ({type(e).__name__}: {e})"
        return b.m
    _lengths(b, a, len_ids, balance_targets(a))
    _memory(b, layout, mem_ids, source)
    stream_forms(b)
    return b.m


def _gate_of(a, lp) -> Optional[Operation]:
    return next((c.op for c in a.typing.checks if c.family == "len.after_cond" and c.loop is lp), None)


def _activation(b: _Builder, gate: Operation) -> tuple[str, str, str]:
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


def _lengths(b: _Builder, a, ids: list[str], targets: list[tuple[str, Operation]]) -> None:
    loops = {lp.name: lp for lp in a.typing.loops}
    by_name = {n: v for v, n in a.names.items()}
    ops_of = dict(targets)
    for oid in ids:
        parsed = ObligationId.try_parse(oid)
        fam = parsed.family if parsed is not None else None
        if fam in ("len.raw", "len.after_cond") and parsed.subject in loops:
            lp = loops[parsed.subject]
            gate = _gate_of(a, lp)
            if fam == "len.raw":
                parts = [b.empty_at_end(lp.op)]
                if gate is not None:
                    end, raw, body, _ = _activation(b, gate)
                    parts.append(f"!{end} || {raw} == {body} + {WIDTH}'d1")
                text = "at each activation's end raw = body + 1 tokens; at done the loop opener's inputs are empty"
                _add(b, oid, parts, lp.op, text)
            elif gate is not None:
                end, _, body, cond = _activation(b, gate)
                _add(b, oid, [b.empty_at_end(gate), f"!{end} || {cond} == {body}"], gate,
                     "at each activation's end after_cond and after_value carried N tokens each; at done the "
                     "gate's inputs are empty")
            continue
        if fam == "balance" and oid in ops_of:
            op = ops_of[oid]
            _add(b, oid, [b.empty_at_end(op)], op,
                 "once done is out, no token remains in the op's input FIFOs or FSM latch")
            continue
        if fam == "class":
            v = by_name.get(parsed.subject)
            form = class_form(a, b, v) if v is not None else None
            if form is None:
                b.m.skipped[oid] = "no channel of the design denotes this clock's token count"
                continue
            cond, text = form
            _add(b, oid, [cond], v.op if hasattr(v, "op") else None, text)
            continue
        terminates = fam == "len.terminates" or (fam == "fsm" and parsed.params == ("terminates",))
        b.m.skipped[oid] = NO_RTL_FORM["len.terminates"] if terminates else "no RTL form"


def _add(b: _Builder, oid: str, parts: list[Optional[str]], op: Optional[Operation], text: str) -> None:
    conds = [p for p in parts if p]
    if not conds:
        b.m.skipped[oid] = "no RTL form"
        return
    b.add(oid, " && ".join(f"({c})" for c in conds), op, text)


def _memory(b: _Builder, layout, ids: list[str], source: Optional[Operation] = None) -> None:
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

    for oid in ids:
        parsed = ObligationId.try_parse(oid)
        fam = parsed.family if parsed is not None else None
        if fam == "mem.order.pair":
            first, second = parsed.params
            x, y = outstanding(first), outstanding(second)
            if x is None or y is None:
                b.m.skipped[oid] = "an access without a done token"
                continue
            _order(b, oid, acc[first], acc[second], x, y, layout, source)
            continue
        if fam == "mem.access" and _WORD.fullmatch(parsed.subject):
            x = outstanding(parsed.subject)
            if x is None:
                b.m.skipped[oid] = "an access without a done token"
                continue
            # with transparent channels a request and its done may fire in one cycle (an on-chip memory answers
            # at once): the request counts as outstanding in the cycle it is made
            pending = f"({x[0]} + {WIDTH}'({x[1]}))" if b.same_cycle else x[0]
            _add(b, oid, [f"!{x[2]} || {pending} != '0"], acc[parsed.subject].op,
                 "every done token of the access answers an outstanding request")
            continue
        if fam == "done.postdom":
            outs = [outstanding(x.name) for x in layout.accesses]
            conds = [f"{b.still_out(o[0], o[2])} == '0" for o in outs if o is not None]
            if conds:
                _add(b, oid, [f"!done || ({' && '.join(conds)})"], layout.ret,
                     "done fires only after every access of every domain has completed")
            else:
                b.m.skipped[oid] = "no memory access"
            continue
        key = next((k for k in NO_RTL_FORM if oid.startswith(k + ".")), None)
        b.m.skipped[oid] = NO_RTL_FORM[key] if key else "no RTL form"


def _order(b: _Builder, oid: str, xa, ya, x: tuple[str, str, str], y: tuple[str, str, str], layout,
           source: Optional[Operation]) -> None:
    """``mem.<D>.order.<X><<Y>``: program order by request/done counts where the instance correspondence is
    derivable (``loom.hdl.monitors.order``), else mutual exclusion of outstanding requests."""
    shape = order_shape(layout, xa, ya, source)
    if shape.kind == "self":
        n_req, n_done = b.count(xa.op.results[-1]), b.upto_now(xa.done)
        _add(b, oid, [f"!{x[1]} || {n_done} == {n_req}"], xa.op,
             f"program order ({shape.why}): a request of {xa.name} fires only when all its earlier requests "
             "have completed")
        return
    if shape.kind == "seq":
        f, s = (xa, ya) if shape.first == xa.name else (ya, xa)
        conds = [_before(b, s, shape.gate(s.name), f, shape.gate(f.name), True),
                 _before(b, f, shape.gate(f.name), s, shape.gate(s.name), False)]
        if None not in conds:
            _add(b, oid, conds, ya.op,
                 f"program order ({shape.why}): a request of {s.name} fires only after the instance of {f.name} "
                 f"of the same iteration (if any) completed, and a request of {f.name} only after the instances of "
                 f"{s.name} of the earlier iterations completed")
            return
    why = shape.why if shape.kind != "seq" else "a branch output of the ctrl chain has no signal to count"
    conds = [f"!{y[1]} || {b.still_out(x[0], x[2])} == '0", f"!{x[1]} || {b.still_out(y[0], y[2])} == '0"]
    if b.same_cycle and xa is not ya:  # two requests in one cycle: neither waited for the other (a race)
        conds.append(f"!({x[1]} && {y[1]})")
    _add(b, oid, conds, ya.op,
         f"mutual exclusion, since the instance correspondence is not derivable ({why}): a request of "
         f"{ya.name} fires only when no request of {xa.name} is outstanding, and vice versa")


def _branch_counts(b: _Builder, gate) -> Optional[tuple[str, str]]:
    """(firings, tokens sent to the side) of a ctrl cond_br (None: an output has no signal to count)."""
    cb, side = gate
    if any(r not in b.sig for r in cb.results):
        return None
    fired = f"({b.upto_now(cb.results[0])} + {b.upto_now(cb.results[1])})"
    return fired, b.upto_now(cb.results[side])


def _before(b: _Builder, a, ga, p, gp, same: bool) -> Optional[str]:
    """At a request of access ``a`` (conditional on branch ``ga``, or not), every instance of ``p`` (on ``gp``)
    of the earlier iterations -- and of the same one when ``same`` (``p`` runs first) -- has completed."""
    req = b.fire(a.op.results[-1])
    if ga is None:
        n = b.count(a.op.results[-1])
        upto = f"({n} + {WIDTH}'d1)" if same else n  # instances of p that must be complete
    else:
        counts = _branch_counts(b, ga)
        if counts is None:
            return None
        upto = counts[0] if same else f"({counts[0]} - {WIDTH}'d1)"
    done = b.upto_now(p.done)
    if gp is None:
        return f"!{req} || {done} >= {upto}"
    counts = _branch_counts(b, gp)
    if counts is None:
        return None
    return f"!{req} || ({counts[0]} == {upto} && {done} >= {counts[1]})"
