"""The monitors' common parts: ``Monitor``/``Monitors`` (what a design carries), SV labels, ``_Builder`` (the
counters and end-of-run conditions over the top's signals that every monitor form reads) and ``add_parts``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Optional

from loom.hdl.datapath.expr import unique
from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType

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
        # nor a memory request waiting or outstanding: while its response is due no channel moves, yet the access
        # fires when it comes (bad_pipelined_race: the return fires before its stores are done, and balance.* were
        # checked in the response's wait, a DISAGREE with Z3's end of run). Task dfg_prove (LOOM_DFG_INVARIANTS)
        # keeps the end without it: lm_end holds in more cycles there, so what it proves is the stronger claim, and
        # its helper invariants say nothing of the pending registers (the dot proof failed with them)
        waits = []
        for mb in d.mems:
            for mp in mb.ports:
                px = f"{mb.inst}_{mp.name}"
                self.m.decls.append(f"  logic lm_{px}_pend;")
                self.m.logic.append(
                    f"  always @(posedge clk) if (rst) lm_{px}_pend <= 1'b0; else if ({px}_req_valid && {px}_req_ready) "
                    f"lm_{px}_pend <= 1'b1; else if ({px}_resp_valid && {px}_resp_ready) lm_{px}_pend <= 1'b0;")
                waits += [f"{px}_req_valid", f"lm_{px}_pend"]
        self.m.decls += ["  wire lm_settled;", "  wire lm_mem_idle;"]
        self.m.logic += ["`ifdef LOOM_DFG_INVARIANTS", "  assign lm_mem_idle = 1'b1;", "`else",
                         f"  assign lm_mem_idle = !({' || '.join(waits) or chr(48)});", "`endif"]
        self.m.logic.append(f"  assign lm_settled = !({' || '.join(moves) or chr(48)}) && lm_mem_idle;")
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


def add_parts(b: _Builder, oid: str, parts: list[Optional[str]], op: Optional[Operation], text: str) -> None:
    """Monitor ``oid`` as the conjunction of ``parts`` (the empty ones dropped; none left: no RTL form)."""
    conds = [p for p in parts if p]
    if not conds:
        b.m.skipped[oid] = "no RTL form"
        return
    b.add(oid, " && ".join(f"({c})" for c in conds), op, text)
