"""Helper invariants that make the DFG-level monitors k-inductive (task ``dfg_prove`` of ``<stem>_prove.sby``).

The monitors (``loom.hdl.monitors``) count channel transfers from reset; k-induction fails on their
unreachable states unless the counters are tied to the state of the FIFOs and components. Every tie here is
itself asserted (label ``inv_*``), so the proof proves it too; none is assumed.

* token counters: ``P(v)`` counts the transfers of value v at its producer (``P1(v)``: those carrying 1, for
  i1 values); a channel c of v has consumed ``C(c) = P(v) - count(c)`` tokens (``C1(c) = P1(v) - ones(c)``),
  where ``count``/``ones`` read the FIFO's occupancy and slots (after ``flatten``, ``connect -nounset -set`` ties
  undriven ``lm_q_*`` wires to them, so no FIFO or component port changes);
* count relations per component, derived from its operator table (``loom.semantics``): with F_r the
  number of firings of rule r, every port count is a sum of F_r and every state's indicator is its entries
  minus its exits; eliminating the F_r leaves linear equalities (cond_br: C(cond) = P(true) + P(false);
  gate: P(after_cond) + [need_next] = P(after_value); return: C(in0) = [done]);
* once values: a value of length class ``once`` (the verifier's clock calculus) carries at most one token;
* FIFO order and history, which counts cannot hold: the newest token of a channel while its producer is in a
  state entered only by emitting a constant, the consumer's state once that token is taken, sticky
  "sent"/"taken" flags and the states entered only by taking from a port;
* inner loops of constant trip count: a stream fed only constants is run from its table; its registers, its
  trues per activation, and the FIFO-order facts by which its gate never takes a false head (a rule that never
  fires then drops out of the gate's count relations);
* the monitors' own counters: ``lm_n_<v>`` = P(v), ``lm_held_<fifo>`` = the FIFO's count (a primed channel's
  occupancy), ``lm_out_<X>`` = P(request) - P(done), per-activation
  gate counters against the gate's state, ``lm_done_seen`` = the return's ``done`` state.

Counters are ``helper_width`` bits and every relation is an equality modulo 2^w, a once bound (values 0 or 1, no
wrap) or a sticky flag: a proof holds for runs of any length. ``prove`` drops what fails its induction step and
retries (Houdini); what passes is proved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from loom.hdl.monitors import WIDTH
from loom.ir.core import Value
from loom.ir.types import IntegerType, MemRefType
from loom.semantics.expr import Apply, Const, In
from loom.semantics.machine import Fail

if TYPE_CHECKING:
    from loom.hdl.netlist import Channel, Design, Instance

DEFINE = "LOOM_DFG_INVARIANTS"
W = WIDTH  # the monitors' counters (loom.hdl.monitors)
MIN_WIDTH = 4  # the helpers' counters: at least this many bits, and more than a FIFO's capacity needs


@dataclass
class Invariants:
    """Helper counters, peeks (undriven wires tied to FIFO/FSM registers by the .sby) and ``inv_*`` assertions."""

    decls: list[str] = field(default_factory=list)
    logic: list[str] = field(default_factory=list)
    props: list[tuple[str, str, str]] = field(default_factory=list)  # (label, condition, statement)
    connects: list[tuple[str, str]] = field(default_factory=list)  # (top wire, flattened register name)

    def lines(self) -> list[str]:
        """SV text for the top, under ``LOOM_ASSERTIONS``, ``LOOM_DFG_MONITORS`` and ``LOOM_DFG_INVARIANTS``."""
        if not self.props:
            return []
        out = ["`ifdef LOOM_ASSERTIONS", "`ifdef LOOM_DFG_MONITORS", f"`ifdef {DEFINE}",
               "  // helper invariants of the unbounded monitor proof (loom/hdl/formal/invariants.py); lm_q_* are tied",
               "  // to FIFO/FSM registers by `connect -nounset -set` in <stem>_prove.sby (formal only)"]
        out += self.decls + self.logic
        for label, cond, text in self.props:
            out.append(f"  // {text}")
            out.append(f"  `LOOM_ASSERT_ALWAYS({label}, {cond})")
        return out + ["`endif", "`endif", "`endif"]


def helper_width(d: "Design") -> int:
    """Bits of the helpers' counters: every relation is an equality modulo 2^w (it holds over the integers, so
    modulo any power of two), a once bound or a sticky flag, so any w is sound; a narrow w keeps the induction
    query small (its modular adders are what the solver's UNSAT proof spends its time on). w exceeds what a
    FIFO can hold (``count``/``ones`` stay exact) and is at least ``MIN_WIDTH``."""
    deepest = max([fifo_depth(d, ch) for ch in d.channels if ch.fifo is not None] or [d.fifo_depth])
    return max(MIN_WIDTH, (deepest + 1).bit_length() + 1)


def fifo_depth(d: "Design", ch: "Channel") -> int:
    """Slots of channel ch's FIFO: its buffer's (loom.hdl.buffers places and sizes each), else the design's.
    A transparent FIFO keeps count, pointers and slots as a registered one (a token passing through is pushed
    and popped in one cycle), so every helper reads both kinds alike."""
    buf = getattr(ch, "buffer", None)
    return buf.depth if buf is not None else d.fifo_depth


def _is_i1(v: Value) -> bool:
    return isinstance(v.type, IntegerType) and v.type.width == 1


def _state_bits(n: int) -> int:
    return max(1, (n - 1).bit_length())


class _Builder:
    """Expressions over the design's counters and peeked registers, each declared once."""

    def __init__(self, d: "Design") -> None:
        self.d = d
        self.inv = Invariants()
        self.declared: set[str] = set()
        self.sources = {ch.producer for ch in d.channels if ch.fifo is None}
        self.labels: set[str] = set()
        self.w = helper_width(d)
        self.never: set[tuple[str, str]] = set()  # (instance, rule) proved never to fire (``_const_streams``)

    def _reg(self, name: str, width: int, hier: str) -> str:
        if name not in self.declared:
            self.declared.add(name)
            self.inv.decls.append(f"  logic [{width - 1}:0] {name};")
            self.inv.connects.append((name, hier))
        return name

    def counted(self, v: Value) -> bool:
        """v's transfers are observable: a token value whose producer fires (not an always-offered source)."""
        s = self.d.signals.get(v)
        return s is not None and not isinstance(v.type, MemRefType) and s not in self.sources

    def p(self, v: Value, ones: bool = False) -> str:
        """P(v) (or P1(v)): transfers of v at its producer since reset (those carrying 1)."""
        s = self.d.signals[v]
        name = f"lm_p{'1' if ones else ''}_{s}"
        if name not in self.declared:
            self.declared.add(name)
            ev = f"{s}_valid && {s}_ready" + (f" && {s}_data[0]" if ones else "")
            self.inv.decls.append(f"  logic [{self.w - 1}:0] {name};")
            self.inv.logic.append(f"  always @(posedge clk) if (rst) {name} <= '0; else if ({ev}) "
                                  f"{name} <= {name} + 1'b1;")
        return name

    def _sticky(self, name: str, fire: str) -> bool:
        """Declare flag ``name``: 0 after reset, 1 from the cycle after ``fire``. False when it already exists (the
        caller then adds no invariant twice)."""
        if name in self.declared:
            return False
        self.declared.add(name)
        self.inv.decls.append(f"  logic {name};")
        self.inv.logic.append(f"  always @(posedge clk) if (rst) {name} <= 1'b0; else if ({fire}) {name} <= 1'b1;")
        return True

    def any_sent(self, v: Value) -> str:
        """1 once v has been sent at all (sticky); tied to P(v) by ``P(v) == 0`` while it is 0."""
        s = self.d.signals[v]
        name = f"lm_any_{s}"
        if self._sticky(name, f"{s}_valid && {s}_ready"):
            self.add(f"inv_any_{s}", f"{name} || {self.p(v)} == '0", f"{s} never sent: none counted")
        return name

    def taken(self, ch: "Channel") -> str:
        """1 once the consumer has taken a token from channel ch (sticky); until then the channel holds all of
        v's tokens, and once it has, v was sent."""
        name = f"lm_tk_{ch.fifo}"
        if self._sticky(name, f"{ch.fifo}_out_valid && {ch.fifo}_out_ready"):
            self.add(f"inv_tk_{ch.fifo}", f"{name} || {self.p(ch.value)} == {self.count(ch)}",
                     f"nothing taken from {ch.name} yet: it holds every token sent")
            self.add(f"inv_tk_any_{ch.fifo}", f"!{name} || {self.any_sent(ch.value)}", f"{ch.name} taken: sent")
        return name

    def depth(self, ch: "Channel") -> int:
        """Slots of channel ch's FIFO: its buffer's (loom.hdl.buffers, per channel), else the design's."""
        return fifo_depth(self.d, ch)

    def count(self, ch: "Channel") -> str:
        depth = self.depth(ch)
        aw = max(1, (depth - 1).bit_length()) if depth > 1 else 1
        return f"{self.w}'({self._reg(f'lm_q_{ch.fifo}_count', aw + 1, f'{ch.fifo}.count')})"

    def ones(self, ch: "Channel") -> str:
        """Tokens carrying 1 that sit in channel ch's FIFO (its slots from the read pointer, count of them)."""
        depth = self.depth(ch)
        aw = max(1, (depth - 1).bit_length()) if depth > 1 else 1
        cnt = self._reg(f"lm_q_{ch.fifo}_count", aw + 1, f"{ch.fifo}.count")
        rp = self._reg(f"lm_q_{ch.fifo}_rptr", aw, f"{ch.fifo}.rptr")
        slots = [self._reg(f"lm_q_{ch.fifo}_s{k}", 1, f"{ch.fifo}.slots[{k}]") for k in range(depth)]
        # slot s holds a token when its distance from the read pointer, (s - rptr) mod depth, is below the count:
        # one term per slot (a term per distance would pick its slot with a depth-way mux: quadratic text)
        inside = "" if depth == 1 << aw else f"{rp} < {aw}'d{depth} && "  # no token read beyond the last slot
        terms = []
        for s in range(depth):
            dist = (f"({rp} <= {aw}'d{s} ? {aw + 1}'d{s} - {aw + 1}'({rp}) : "
                    f"{aw + 1}'d{s + depth} - {aw + 1}'({rp}))")
            terms.append(f"{self.w}'({inside}{dist} < {cnt} && {slots[s]})")
        return self._wire(f"lm_ones_{ch.fifo}", self.w, " + ".join(terms))

    def at(self, ch: "Channel", j: int) -> str:
        """Bit 0 of the j-th oldest token of channel ch's FIFO (slot (rptr + j) mod depth; meaningful for j < count)."""
        depth = self.depth(ch)
        aw = max(1, (depth - 1).bit_length()) if depth > 1 else 1
        rp = self._reg(f"lm_q_{ch.fifo}_rptr", aw, f"{ch.fifo}.rptr")
        slots = [self._reg(f"lm_q_{ch.fifo}_s{k}", 1, f"{ch.fifo}.slots[{k}]") for k in range(depth)]
        picks = [f"{rp} == {aw}'d{r} ? {slots[(r + j) % depth]}" for r in range(depth)]
        return self._wire(f"lm_at{j}_{ch.fifo}", 1, " : ".join(picks) + " : 1'b0")

    def newest(self, ch: "Channel") -> str:
        """Bit 0 of the token most recently pushed into channel ch (the slot before the write pointer)."""
        depth = self.depth(ch)
        aw = max(1, (depth - 1).bit_length()) if depth > 1 else 1
        wp = self._reg(f"lm_q_{ch.fifo}_wptr", aw, f"{ch.fifo}.wptr")
        slots = [self._reg(f"lm_q_{ch.fifo}_s{k}", 1, f"{ch.fifo}.slots[{k}]") for k in range(depth)]
        picks = [f"{wp} == {aw}'d{r} ? {slots[(r + depth - 1) % depth]}" for r in range(depth)]
        return self._wire(f"lm_newest_{ch.fifo}", 1, " : ".join(picks) + " : 1'b0")

    def _wire(self, name: str, width: int, expr: str) -> str:
        """A wire carrying ``expr``, declared once: the invariants that read it name it (an expression over every
        slot of a FIFO, repeated in each, made the text several times the depth)."""
        if name not in self.declared:
            self.declared.add(name)
            self.inv.logic.append(f"  wire [{width - 1}:0] {name} = {expr};")
        return name

    def state(self, inst: "Instance", k: int) -> str:
        """1 when instance ``inst`` is in state number ``k`` of its table."""
        n = len(inst.component.machine.states)
        sb = _state_bits(n)
        reg = self._reg(f"lm_q_{inst.name}_state", sb, f"{inst.name}.state")
        return f"{self.w}'({reg} == {sb}'d{k})"

    def add(self, label: str, cond: str, text: str) -> None:
        from loom.hdl.datapath.expr import unique

        self.inv.props.append((unique(label, self.labels), cond, text))


def build_invariants(d: "Design") -> Invariants:
    """The helper invariants of design ``d`` (empty when it has no DFG-level monitors)."""
    b = _Builder(d)
    if d.monitors is None or not d.monitors.props:
        return b.inv
    once = _at_most_once(b, _once_values(b))
    _const_streams(b)
    _guarded_streams(b)
    for inst in d.instances:
        _component_relations(b, inst, once)
        _last_token(b, inst)
        _entered_by_taking(b, inst)
    for v in sorted(once, key=lambda v: d.signals[v]):
        s = d.signals[v]
        b.add(f"inv_once_{s}", f"{b.p(v)} <= {b.w}'d1", f"{s} is of class once: at most one token per run")
        # ever sent = counted once (the sticky flag rules out a counter wrapped back to 0)
        b.add(f"inv_once_any_{s}", f"{b.any_sent(v)} == ({b.p(v)} != '0)", f"{s} was sent iff its one token was")
        for ch in (c for c in d.channels if c.value is v and c.fifo is not None):  # so C(ch) cannot wrap below 0
            b.add(f"inv_once_{ch.fifo}", f"{b.count(ch)} <= {b.p(v)}", f"channel {ch.name} holds no more than {s} sent")
    _false_tokens(b, once)
    _monitor_links(b)
    return b.inv


def _zero_emits(m, port: str) -> Optional[set[str]]:
    """The rules that emit 0 on i1 output ``port`` (None when some emit of it is not a constant)."""
    out: set[str] = set()
    for r in m.rules:
        e = dict(r.emits).get(port)
        if e is None:
            continue
        if not (isinstance(e, Const) and isinstance(e.value, int)):
            return None
        if e.value & 1 == 0:
            out.add(r.name)
    return out


def _false_tokens(b: _Builder, once: set[Value]) -> None:
    """Inequalities the counters' modular equalities cannot state, on the false tokens Z(v) = P(v) - P1(v) of i1
    values: (a) a two-state component that leaves its initial state only by rules taking from an at-most-once
    input s, and emits 0 on o only by rules returning to it (a stream: activate, exit), has
    [not initial] + Z(o) <= C(s); (b) a component whose every rule emitting 0 on o takes a 0 from input p
    (a gate: next_false) has Z(o) <= the false tokens taken from p. Applied only where the right side is at most
    one (so no counter wraps): the stream's cont and the gate's after_cond of a loop entered once carry at most
    one false token; without them an induction step may start with the gate having ended activations the
    stream never ended."""
    d = b.d
    small: set[Value] = set()  # i1 values with at most one false token per run
    changed = True
    while changed:
        changed = False
        for inst in d.instances:
            m = inst.component.machine
            chans = {ch.port: ch for ch in d.channels if ch.consumer == inst.name and ch.fifo is not None
                     and b.counted(ch.value)}
            for j, o in enumerate(m.outputs):
                v = inst.op.results[j] if j < len(inst.op.results) else None
                if v is None or v in small or not _is_i1(v) or not b.counted(v):
                    continue
                zero = _zero_emits(m, o.name)
                if not zero:
                    continue
                sv = d.signals[v]
                z = f"{b.w}'({b.p(v)} - {b.p(v, True)})"
                if len(m.states) == 2:  # (a)
                    init = m.initial
                    other = next(x for x in m.states if x != init)
                    leave = [r for r in m.rules if r.state == init and r.next != init]
                    back = all(r.state != init and r.next == init for r in m.rules if r.name in zero)
                    ins = set.intersection(*(set(r.reads) for r in leave)) if leave else set()
                    sp = next((p for p in (x.name for x in m.inputs) if p in ins and p in chans
                               and chans[p].value in once), None)
                    if back and sp is not None:
                        c = f"({b.p(chans[sp].value)} - {b.count(chans[sp])})"
                        # Z <= 1 first: a sum of wrapped counters could pass the second bound
                        b.add(f"inv_zero_{sv}", f"{z} <= {b.w}'d1 && {b.state(inst, m.states.index(other))} + {z} <= "
                              f"{b.w}'({c})",
                              f"{inst.name} ends at most the activations {sp} started: [{other}] + Z({o.name}) <= C({sp})")
                        small.add(v)
                        changed = True
                        continue
                for p, ch in chans.items():  # (b)
                    if ch.value not in small or not _is_i1(ch.value):
                        continue
                    if all(p in r.reads and _guard_value(r.guard, p) == 0 for r in m.rules if r.name in zero):
                        taken = f"{b.w}'(({b.p(ch.value)} - {b.count(ch)}) - ({b.p(ch.value, True)} - {b.ones(ch)}))"
                        b.add(f"inv_zero_{sv}", f"{z} <= {taken} && {taken} <= {b.w}'d1",
                              f"{inst.name} emits 0 on {o.name} only taking a 0 from {p}: Z({o.name}) <= its false tokens taken")
                        small.add(v)
                        changed = True
                        break


def _guard_value(guard, port: str) -> Optional[int]:
    """The value an i1 input port must have for the guard to hold (``port == c`` conjuncts), else None."""
    if isinstance(guard, Apply) and guard.fn == "eq" and len(guard.args) == 2:
        a, c = guard.args
        if isinstance(a, In) and a.port == port and isinstance(c, Const) and isinstance(c.value, int):
            return c.value & 1
    if isinstance(guard, Apply) and guard.fn in ("and", "land"):
        for g in guard.args:
            got = _guard_value(g, port)
            if got is not None:
                return got
    return None


def _component_relations(b: _Builder, inst: "Instance", once: set[Value]) -> None:
    """The linear count relations of one component's table, in its ports' observable counters."""
    d, m = b.d, inst.component.machine
    chans = {ch.port: ch for ch in d.channels if ch.consumer == inst.name and ch.fifo is not None}
    obs: dict[str, str] = {}  # observable key -> SV expression of its counter
    i1_in: set[str] = set()
    for k, port in enumerate(m.inputs):
        ch = chans.get(port.name)
        if port.kind != "token" or ch is None or not b.counted(ch.value):
            continue
        obs["C:" + port.name] = f"({b.p(ch.value)} - {b.count(ch)})"
        if _is_i1(ch.value):
            i1_in.add(port.name)
            obs["C1:" + port.name] = f"({b.p(ch.value, True)} - {b.ones(ch)})"
    sources = dict(m.sources)
    i1_out: set[str] = set()
    for k, port in enumerate(m.outputs):
        v = inst.op.results[k] if k < len(inst.op.results) else None
        if v is None or port.name in sources or not b.counted(v):
            continue
        obs["P:" + port.name] = b.p(v)
        if _is_i1(v):
            i1_out.add(port.name)
            obs["P1:" + port.name] = b.p(v, True)
    fails = [r for r in m.rules if isinstance(r.effect, Fail)]
    if fails and inst.component.has_fail:  # error firings: counted from the instance's fail pulse
        e = f"lm_e_{inst.name}"
        b.declared.add(e)
        b.inv.decls.append(f"  logic [{b.w - 1}:0] {e};")
        b.inv.logic.append(f"  always @(posedge clk) if (rst) {e} <= '0; else if ({inst.name}_fail) {e} <= {e} + 1'b1;")
        obs["E"] = e
        # an error firing consumes the inputs it reads: bounded by a once input's count, the counter cannot wrap
        for p in sorted({p for r in fails for p in r.reads}):
            ch = chans.get(p)
            if ch is not None and ch.value in once and "C:" + p in obs:
                b.add(f"inv_err_{inst.name}", f"{e} <= {obs['C:' + p]}",
                      f"{inst.name}: error firings <= tokens taken from {p} (a once input)")
                break
    multi = len(m.states) > 1
    if multi:
        for k, s in enumerate(m.states):
            obs["S:" + s] = b.state(inst, k)
    # one column per rule: what one firing adds to each observable (None: not determined by the table)
    cols: list[dict[str, Optional[int]]] = []
    for r in (r for r in m.rules if (inst.name, r.name) not in b.never):  # a rule never firing adds nothing
        col: dict[str, Optional[int]] = {key: 0 for key in obs}
        vals: dict[str, Optional[int]] = {}
        for p in r.reads:
            if "C:" + p in col:
                col["C:" + p] = 1
            if p in i1_in:
                vals[p] = _guard_value(r.guard, p)
                col["C1:" + p] = vals[p]
        for p, e in r.emits:
            if "P:" + p in col:
                col["P:" + p] = 1
            if p in i1_out:
                if isinstance(e, Const) and isinstance(e.value, int):
                    col["P1:" + p] = e.value & 1
                elif isinstance(e, In) and vals.get(e.port) is not None:
                    col["P1:" + p] = vals[e.port]
                else:
                    col["P1:" + p] = None
        if "E" in col:
            col["E"] = 1 if isinstance(r.effect, Fail) else 0
        if multi:
            col["S:" + r.state] = (col.get("S:" + r.state) or 0) - 1
            col["S:" + r.next] = (col.get("S:" + r.next) or 0) + 1
        cols.append(col)
    keys = [k for k in obs if all(c[k] is not None for c in cols)]
    if not keys:
        return
    for n, y in enumerate(_left_null_space([[c[k] for c in cols] for k in keys])):
        terms = [(y[j], keys[j]) for j in range(len(keys)) if y[j]]
        if not any(not k.startswith("S:") for _, k in terms):
            continue
        lhs = "".join((" + " if coef > 0 else " - ") + (obs[k] if abs(coef) == 1 else f"{b.w}'({abs(coef)}) * {obs[k]}")
                      for coef, k in terms)
        const = sum(coef for coef, k in terms if k == "S:" + m.initial)
        text = " + ".join(f"{coef}*{k}" for coef, k in terms) + f" == {const}"
        b.add(f"inv_{inst.name}_{n}", f"{b.w}'({b.w}'d0{lhs}) == {b.w}'({const % (1 << b.w)})",
              f"{inst.name} ({m.op_name}) count relation: {text}")


def _stream_run(m, ops: dict[str, object], limit: int = 64) -> Optional[tuple[list[dict[str, object]], list[int]]]:
    """One activation of a stream table whose operands are the constants ``ops``, evaluated from the table itself
    (loom.semantics): the registers before each firing in the active state and the i1 values emitted on ``cont``;
    None when it fails, runs past ``limit`` firings or does not return to its initial state."""
    from loom.semantics.functions import evaluate

    regs = {r.name: r.init for r in m.registers}
    state = m.initial

    def fire(rules):
        nonlocal regs, state
        r = next((r for r in rules if evaluate(r.guard, ops, regs)), None) if rules else None
        if r is None or isinstance(r.effect, Fail):
            return None
        new = dict(regs)
        for name, e in r.updates:
            new[name] = evaluate(e, ops, regs)
        emitted = {p: evaluate(e, ops, regs) for p, e in r.emits}
        regs, state = new, r.next
        return emitted

    if fire([r for r in m.rules if r.state == state and set(r.reads) == set(ops)]) is None or state == m.initial:
        return None
    seen: list[dict[str, object]] = []
    conts: list[int] = []
    while state != m.initial:
        if len(seen) >= limit:
            return None
        seen.append(dict(regs))
        out = fire([r for r in m.rules if r.state == state and not r.reads])
        if out is None or "cont" not in out:
            return None
        conts.append(int(out["cont"]) & 1)
    return seen, conts


def _const_streams(b: _Builder) -> None:
    """Per-activation facts of an inner loop whose stream takes only constants (a nest's inner loop of fixed trip
    count, entered once per outer iteration, so none of the once bounds applies): its registers while active
    take only the values one activation passes through (evaluated from its table), every activation's first
    ``cont`` is 1, so the gate that aligns it never takes a false head (``head_false`` never fires). In its
    ``before_cond`` FIFO a token after a 0 (the next activation's first) is 1; the newest token is 0, or the gate
    waits for a head with the FIFO empty, only while the stream is idle or has not emitted in this activation.
    With ``head_false`` ruled out, the gate's count relations tie its false tokens to the stream's activations
    (its table without that rule), which the wrapping counters could not."""
    from loom.hdl.datapath.expr import bits
    from loom.hdl.netlist import constant_output

    d = b.d
    producer = {id(r): i for i in d.instances for r in i.op.results}
    for inst in d.instances:
        m = inst.component.machine
        if m.op_name != "dataflow.stream" or len(inst.op.results) < 2:
            continue
        chans = {ch.port: ch for ch in d.channels if ch.consumer == inst.name}
        ops: dict[str, object] = {}
        for port in m.inputs:
            ch = chans.get(port.name)
            src = producer.get(id(ch.value)) if ch is not None and ch.value is not None else None
            if src is None or ch.const is None:
                break
            k = next(j for j, r in enumerate(src.op.results) if r is ch.value)
            value = constant_output(src.component.machine, src.component.machine.outputs[k].name)
            if value is None:
                break
            ops[port.name] = value
        if len(ops) != len(m.inputs):
            continue
        run = _stream_run(m, ops)
        if run is None or not run[1] or run[1][0] != 1 or run[1][-1] != 0:
            continue
        seen, conts = run
        nexts = [repr(st.get("next")) for st in seen]
        if len(m.states) != 2 or "next" not in seen[0] or len(set(nexts)) != len(nexts):
            continue  # `next` must tell how far the activation got: distinct at every firing
        active = m.states.index(next(s for s in m.states if s != m.initial))
        on = f"{b.state(inst, active)} != '0"
        regs = []
        for reg in m.registers:
            width = bits(reg.type)
            q = b._reg(f"lm_q_{inst.name}_{reg.name}", width, f"{inst.name}.r_{reg.name}")
            vals = sorted({int(s[reg.name]) % (1 << width) for s in seen})
            regs.append(f"({' || '.join(f'{q} == {width}{chr(39)}h{v:x}' for v in vals)})")
            if reg.name == "next":
                first = f"{q} == {width}'h{int(seen[0][reg.name]) % (1 << width):x}"
        b.add(f"inv_cs_regs_{inst.name}", f"!({on}) || " + " && ".join(regs),
              f"{inst.name} takes constants: while active its registers hold only values one activation passes through")
        cont_v = inst.op.results[1]
        if b.counted(cont_v):  # each activation emits the same ones: P1(cont) = T * Z(cont) + those of this one
            nq = f"lm_q_{inst.name}_next"
            width = bits(next(r.type for r in m.registers if r.name == "next"))
            done = [f"{nq} == {width}'h{int(st['next']) % (1 << width):x} ? {b.w}'d{k}" for k, st in enumerate(seen)]
            e = b._wire(f"lm_emitted_{inst.name}", b.w, f"!({on}) ? {b.w}'d0 : " + " : ".join(done) + f" : {b.w}'d0")
            t = sum(conts)
            b.add(f"inv_cs_ones_{inst.name}", f"{b.p(cont_v, True)} == {b.w}'({b.w}'d{t} * {b.w}'({b.p(cont_v)} - "
                  f"{b.p(cont_v, True)}) + {e})",
                  f"{inst.name}: {t} true cont per activation: P1(cont) = {t} * Z(cont) + the trues of this activation")
        _gate_heads(b, inst, f"!({on}) || {first}")


@dataclass(frozen=True)
class GuardedStream:
    """A stream whose bound is routed by a branch on a predicate of the bound itself (a loop of data-dependent trip
    count behind its ``lb < ub`` guard: triangular's ``%ub_t = cond_br(0 < ub, ub)``), its start and step
    constants: the branch passes only bounds the predicate accepts (``taken`` 1: the true output)."""

    stream: "Instance"
    branch: "Instance"
    cmp: "Instance"
    bound: Value  # the branch output the stream reads as its bound
    taken: int  # 1: the branch's true output, 0: its false one


def guarded_streams(d: "Design") -> list[GuardedStream]:
    """Every ``GuardedStream`` of design d entered more than once (a nest's inner loop), found from the netlist's
    structure alone (never a kernel's name)."""
    producer = {id(r): i for i in d.instances for r in i.op.results}
    b = _Builder(d)
    once = _at_most_once(b, _once_values(b)) if d.monitors is not None and d.monitors.props else set()
    out = []
    for inst in d.instances:
        m = inst.component.machine
        if m.op_name != "dataflow.stream" or len(inst.op.results) < 2:
            continue
        chans = {ch.port: ch for ch in d.channels if ch.consumer == inst.name}
        if chans.get("start") is None or chans["start"].value in once:
            continue  # a loop entered once: the once bounds (``_false_tokens``) already close its gate
        bch = chans.get("bound")
        if any(chans.get(p) is None or chans[p].const is None for p in ("start", "step")) or bch is None \
                or bch.const is not None or bch.fifo is None or bch.value is None:
            continue
        br = producer.get(id(bch.value))
        if br is None or br.component.machine.op_name != "handshake.cond_br":
            continue
        bin_ = {ch.port: ch for ch in d.channels if ch.consumer == br.name and ch.fifo is not None}
        if "cond" not in bin_ or "data" not in bin_ or bin_["data"].const is not None:
            continue
        v = bin_["data"].value
        cmp = producer.get(id(bin_["cond"].value))
        if cmp is None or len(cmp.component.machine.states) != 1 or len(cmp.component.machine.rules) != 1:
            continue
        cin = [ch for ch in d.channels if ch.consumer == cmp.name]
        if len(cin) != len(cmp.component.machine.inputs) or sum(ch.const is None for ch in cin) != 1 \
                or not any(ch.value is v and ch.fifo is not None and ch.const is None for ch in cin):
            continue
        out.append(GuardedStream(inst, br, cmp, bch.value, 1 - br.op.results.index(bch.value)))
    return out


class _Render:
    """SV text of an operator-table expression (``loom.hdl.datapath.expr``, the components' own translation) with
    its ports and registers bound to helper signals or literals; its wires are prefixed, declared in the helpers."""

    def __init__(self, b: _Builder, prefix: str) -> None:
        self.b, self.prefix, self.n = b, prefix, 0

    def __call__(self, e, in_types: dict, ins: dict[str, str], reg_types: dict, regs: dict[str, str]) -> Optional[str]:
        import re

        from loom.hdl.datapath.expr import HdlUnsupported, SvExprBuilder

        bld = SvExprBuilder(in_types, reg_types, lambda p: ins[p], lambda r: regs[r])
        try:
            sv, _ = bld.emit(e)
        except (HdlUnsupported, KeyError):
            return None
        if bld.functions or bld.hazards or bld.floats or bld.c_files:
            return None
        tag = f"{self.prefix}_{self.n}_"
        self.n += 1
        ren = lambda text: re.sub(r"\bt(\d+)\b", lambda mo: tag + "t" + mo.group(1), text)  # noqa: E731
        for line in bld.lines:
            self.b.inv.logic.append(ren(line))
        return ren(sv)


def _slot_data(b: _Builder, ch: "Channel", k: int) -> str:
    """The whole datum in slot k of channel ch's FIFO (the i1 helpers read bit 0 of it under another name)."""
    return b._reg(f"lm_q_{ch.fifo}_d{k}", ch.width, f"{ch.fifo}.slots[{k}]")


def _pick(b: _Builder, ch: "Channel", j: int, bits: list[str], name: str) -> str:
    """Of per-slot bits ``bits``, the one of the j-th oldest token of channel ch (slot (rptr + j) mod depth)."""
    depth = b.depth(ch)
    aw = max(1, (depth - 1).bit_length()) if depth > 1 else 1
    rp = b._reg(f"lm_q_{ch.fifo}_rptr", aw, f"{ch.fifo}.rptr")
    picks = [f"{rp} == {aw}'d{r} ? {bits[(r + j) % depth]}" for r in range(depth)]
    return b._wire(f"{name}{j}_{ch.fifo}", 1, " : ".join(picks) + " : 1'b0")


def _guarded_streams(b: _Builder) -> None:
    """Per-activation facts of a ``GuardedStream`` (a loop whose trip count is data, entered behind its guard): on
    the free-data design the guard and the bound it routes stay one token (the bound's data is not cut), so every
    bound the stream activates with passes the guard's predicate, and its first ``cont`` is 1: no activation is
    empty, and its gate never takes a false head (``_gate_heads``). Along the path: the predicate's bit of every
    token in the branch's data FIFO equals the paired guard token (FIFO order: the comparison and the branch take
    the same token of the value), every token in the bound FIFO passes it, the stream's ``bound`` register too while
    active, and ``next`` and ``step`` hold the constants until it emits (``lm_em_<stream>``, per activation)."""
    d = b.d
    for gs in guarded_streams(d):
        cm = gs.cmp.component.machine
        sm = gs.stream.component.machine
        rule = cm.rules[0]
        if len(rule.emits) != 1:
            continue
        expr = rule.emits[0][1]
        cin = {ch.port: ch for ch in d.channels if ch.consumer == gs.cmp.name}
        bin_ = {ch.port: ch for ch in d.channels if ch.consumer == gs.branch.name and ch.fifo is not None}
        v = bin_["data"].value
        vport = next(p for p, ch in cin.items() if ch.const is None)
        in_types = {p.name: p.type for p in cm.inputs}
        render = _Render(b, f"lm_gs_{gs.stream.name}")
        sname = gs.stream.name

        def pred(x: str) -> Optional[str]:
            ins = {p: (x if p == vport else ch.const) for p, ch in cin.items()}
            sv = render(expr, in_types, ins, {}, {})
            return None if sv is None else (sv if gs.taken else f"!{sv}")

        schans = {ch.port: ch for ch in d.channels if ch.consumer == sname}
        cont_rule = next((r for r in sm.rules if r.state != sm.initial and dict(r.emits).get("cont") == Const(1)), None)
        if cont_rule is None or {r.name for r in sm.registers} != {"next", "step", "bound"}:
            continue
        ch_w = schans["bound"].width
        regs = {r.name: b._reg(f"lm_q_{sname}_{r.name}", ch_w, f"{sname}.r_{r.name}") for r in sm.registers}
        reg_types = {r.name: r.type for r in sm.registers}
        first = render(cont_rule.guard, {}, {}, reg_types,
                       {"next": schans["start"].const, "step": schans["step"].const, "bound": regs["bound"]})
        pb = pred(regs["bound"])
        if first is None or pb is None:
            continue
        uch, gch = bin_["data"], bin_["cond"]
        u2 = next(ch for ch in d.channels if ch.consumer == gs.cmp.name and ch.port == vport)
        if uch.value is not v or u2.value is not v or uch.fifo is None or u2.fifo is None:
            continue
        def slot_preds(ch) -> list:
            """The predicate's bit of every slot of FIFO channel ``ch``, one wire each."""
            return [b._wire(f"lm_pr_{ch.fifo}_s{k}", 1, pred(_slot_data(b, ch, k))) for k in range(b.depth(ch))]

        # the predicate's bit of every slot of the two FIFOs of v, and the paired guard tokens
        pu, pu2 = slot_preds(uch), slot_preds(u2)
        cg, cu, cu2 = b.count(gch), b.count(uch), b.count(u2)
        b.add(f"inv_gs_cnt_{uch.fifo}", f"{cu} == {b.w}'({cg} + {cu2})",
              f"{uch.name} holds the tokens of {d.signals[v]} the branch has not taken: those compared but not "
              f"taken ({gch.name}) and those not compared ({u2.name})")
        for j in range(b.depth(gch)):
            gbit = f"!{b.at(gch, j)}" if not gs.taken else b.at(gch, j)
            b.add(f"inv_gs_pair_{gch.fifo}_{j}", f"{cg} <= {b.w}'d{j} || {gbit} == {_pick(b, uch, j, pu, 'lm_pru')}",
                  f"guard token {j} of {gch.name} is the predicate of the paired token of {uch.name}")
        for a in range(b.depth(gch) + 1):
            for j in range(b.depth(u2)):
                if a + j >= b.depth(uch):
                    continue
                b.add(f"inv_gs_pair_{u2.fifo}_{a}_{j}", f"{cg} != {b.w}'d{a} || {cu2} <= {b.w}'d{j} || "
                      f"{_pick(b, u2, j, pu2, 'lm_pru2')} == {_pick(b, uch, a + j, pu, 'lm_pru')}",
                      f"token {j} of {u2.name} is token {a}+{j} of {uch.name} ({a} compared, not taken)")
        bch = schans["bound"]
        pt = slot_preds(bch)
        for j in range(b.depth(bch)):
            b.add(f"inv_gs_bound_{bch.fifo}_{j}", f"{b.count(bch)} <= {b.w}'d{j} || {_pick(b, bch, j, pt, 'lm_prb')}",
                  f"every bound in {bch.name} passed the guard")
        on = f"{b.state(gs.stream, sm.states.index(next(s for s in sm.states if s != sm.initial)))} != '0"
        em = f"lm_em_{sname}"
        if em not in b.declared:
            b.declared.add(em)
            cs = d.signals[gs.stream.op.results[1]]
            b.inv.decls.append(f"  logic {em};")
            b.inv.logic.append(f"  always @(posedge clk) if (rst || !({on})) {em} <= 1'b0; "
                               f"else if ({cs}_valid && {cs}_ready) {em} <= 1'b1;")
        b.add(f"inv_gs_regs_{sname}", f"!({on}) || {pb} && {regs['step']} == {schans['step'].const}",
              f"{sname} active: its bound passed the guard, its step is the constant")
        b.add(f"inv_gs_first_{sname}", f"!({on}) || {em} || {regs['next']} == {schans['start'].const}",
              f"{sname} has not emitted since it activated: next is the start")
        b.add(f"inv_gs_cont_{sname}", f"!({on}) || {em} || {first}",
              f"{sname}'s first cont of an activation is 1")
        _gate_heads(b, gs.stream, f"!({on}) || !{em}")


def _gate_heads(b: _Builder, inst: "Instance", fresh: str) -> None:
    """The gate side of a stream whose every activation's first ``cont`` is 1 (``fresh``: the stream is idle or has
    not emitted since it activated, so its next ``cont`` is 1): with the gate in ``need_head`` the oldest token of
    its ``before_cond`` FIFO is 1; a token after a 0 is 1; the newest token is 0, or the gate waits for a head with
    the FIFO empty, only while ``fresh``; so ``head_false`` never fires (a sticky flag, asserted 0, and the rule
    drops out of the gate's count relations)."""
    d = b.d
    cont_v = inst.op.results[1]
    for ch in (c for c in d.channels if c.value is cont_v and c.fifo is not None and c.port == "before_cond"):
        g = next((i for i in d.instances if i.name == ch.consumer), None)
        if g is None or g.component.machine.op_name != "dataflow.gate":
            continue
        gm = g.component.machine
        head = b.state(g, gm.states.index(gm.initial))
        cnt = b.count(ch)
        b.add(f"inv_cs_head_{ch.fifo}", f"{head} == '0 || {cnt} == '0 || {b.at(ch, 0)}",
              f"{g.name} waits for a head: the oldest token of {ch.name} is an activation's first, a 1")
        for j in range(b.depth(ch) - 1):
            b.add(f"inv_cs_after0_{ch.fifo}_{j}", f"{cnt} <= {b.w}'d{j + 1} || {b.at(ch, j)} || {b.at(ch, j + 1)}",
                  f"in {ch.name} a token after a 0 starts an activation: a 1")
        b.add(f"inv_cs_new0_{ch.fifo}", f"{cnt} == '0 || {b.newest(ch)} || {fresh}",
              f"{ch.name}'s newest token is a 0: {inst.name} is idle or has not emitted since activating")
        b.add(f"inv_cs_empty_{ch.fifo}", f"{head} == '0 || {cnt} != '0 || {fresh}",
              f"{g.name} waits for a head with {ch.name} empty: {inst.name} is idle or has not emitted")
        hf = [r for r in gm.rules if r.state == gm.initial and r.next == gm.initial and "before_cond" in r.reads]
        for r in hf:
            flag = f"lm_never_{g.name}_{r.name}"
            fire = (f"{b.state(g, gm.states.index(gm.initial))} != '0 && {ch.fifo}_out_valid && "
                    f"{ch.fifo}_out_ready && !{ch.fifo}_out_data[0]")
            if b._sticky(flag, fire):
                b.add(f"inv_cs_never_{g.name}_{r.name}", f"!{flag}",
                      f"{g.name} never fires {r.name}: every activation of {inst.name} starts with a 1")
                b.never.add((g.name, r.name))


def _last_token(b: _Builder, inst: "Instance") -> None:
    """FIFO order: when every way into state s emits the constant k on i1 output o (or stays in s without
    emitting o), the last token o carried is k; so in state s the newest token of every channel of o is k
    (a consumer that has taken every k token has emptied the channel). E.g. an idle stream last emitted
    cont = 0, a gate in need_head last emitted after_cond = 0."""
    m = inst.component.machine
    if len(m.states) < 2:
        return
    for j, port in enumerate(m.outputs):
        v = inst.op.results[j] if j < len(inst.op.results) else None
        if v is None or not _is_i1(v) or not b.counted(v):
            continue
        for k, s in enumerate(m.states):
            kappa: set[int] = set()
            ok = True
            for r in (r for r in m.rules if r.next == s):
                e = dict(r.emits).get(port.name)
                if e is None and r.state == s:
                    continue
                if isinstance(e, Const) and isinstance(e.value, int):
                    kappa.add(e.value & 1)
                else:
                    ok = False
            if not ok or len(kappa) != 1:
                continue
            kv = kappa.pop()
            for ch in (c for c in b.d.channels if c.value is v and c.fifo is not None):
                _consumer_after(b, ch, inst, k, kv)
                b.add(f"inv_last_{ch.fifo}_{s}", f"{b.state(inst, k)} == '0 || {b.count(ch)} == '0 || "
                      f"{b.newest(ch)} == 1'b{kv}",
                      f"{inst.name} in {s} last emitted {port.name} = {kv}: so is the newest token of {ch.name}")


def _entered_by_taking(b: _Builder, inst: "Instance") -> None:
    """History the counters cannot hold (they wrap): a state that is entered only by rules taking from port p
    is occupied only after p's channel gave a token; an output emitted only in such states was sent only then.
    E.g. a gate in need_next has taken from before_cond; a stream sent idx only after taking its start."""
    m = inst.component.machine
    if len(m.states) < 2:
        return
    chans = {ch.port: ch for ch in b.d.channels if ch.consumer == inst.name and ch.fifo is not None
             and b.counted(ch.value)}
    entry_port: dict[str, str] = {}
    for k, s in enumerate(m.states):
        if s == m.initial:
            continue
        entering = [r for r in m.rules if r.next == s and r.state != s]
        common = set.intersection(*(set(r.reads) for r in entering)) if entering else set()
        port = next((p for p in (x.name for x in m.inputs) if p in common and p in chans), None)
        if port is None:
            continue
        entry_port[s] = port
        b.add(f"inv_in_{inst.name}_{s}", f"{b.state(inst, k)} == '0 || {b.taken(chans[port])}",
              f"{inst.name} is in {s} only after taking from {port}")
    emitted: dict[frozenset, Value] = {}  # outputs every rule emits together were sent together (or neither)
    for j, o in enumerate(m.outputs):
        v = inst.op.results[j] if j < len(inst.op.results) else None
        if v is None or not b.counted(v):
            continue
        key = frozenset(r.name for r in m.rules if o.name in dict(r.emits))
        if key and key in emitted:
            w = emitted[key]
            b.add(f"inv_together_{b.d.signals[v]}", f"{b.any_sent(v)} == {b.any_sent(w)}",
                  f"{b.d.signals[v]} and {b.d.signals[w]} are emitted by the same rules")
        emitted.setdefault(key, v)
    for j, o in enumerate(m.outputs):
        v = inst.op.results[j] if j < len(inst.op.results) else None
        if v is None or not b.counted(v):
            continue
        states = {r.state for r in m.rules if o.name in dict(r.emits)}
        ports = {entry_port.get(s) for s in states}
        if states and m.initial not in states and len(ports) == 1 and None not in ports:
            p = ports.pop()
            b.add(f"inv_out_{inst.name}_{o.name}".replace(".", "_"),
                  f"!{b.any_sent(v)} || {b.taken(chans[p])}", f"{inst.name} sent {o.name} only after taking from {p}")


def _consumer_after(b: _Builder, ch: "Channel", prod: "Instance", k: int, kv: int) -> None:
    """The consumer's side of ``_last_token``: while the producer is in state number k (its last token on ch
    was kv) and ch is empty after carrying something, the consumer has taken that kv token last, so it is in a
    state that a rule taking kv from ch leads to, or that rules not reading ch lead on to from there."""
    cons = next((i for i in b.d.instances if i.name == ch.consumer), None)
    if cons is None or len(cons.component.machine.states) < 2:
        return
    m = cons.component.machine
    reach = {r.next for r in m.rules if ch.port in r.reads and _guard_value(r.guard, ch.port) in (kv, None)}
    todo = list(reach)
    while todo:
        s = todo.pop()
        for r in m.rules:
            if r.state == s and ch.port not in r.reads and r.next not in reach:
                reach.add(r.next)
                todo.append(r.next)
    if not reach or reach == set(m.states):
        return
    any_ = b.any_sent(ch.value)
    inside = " || ".join(f"{b.state(cons, m.states.index(s))} != '0" for s in sorted(reach, key=m.states.index))
    b.add(f"inv_after_{ch.fifo}", f"{b.state(prod, k)} == '0 || {b.count(ch)} != '0 || !{any_} || {inside}",
          f"{prod.name}'s last token on {ch.name} was {kv} and was taken: {cons.name} is in "
          f"{'/'.join(sorted(reach))}")


def _left_null_space(rows: list[list[int]]) -> list[list[int]]:
    """Integer vectors y (a basis, deterministic) with y^T A = 0 for the matrix A given by its rows."""
    n_rows = len(rows)
    n_cols = len(rows[0]) if rows else 0
    # solve A^T y = 0: A^T has n_cols rows and n_rows columns
    at = [[Fraction(rows[i][j]) for i in range(n_rows)] for j in range(n_cols)]
    pivots: list[int] = []
    r = 0
    for c in range(n_rows):
        piv = next((i for i in range(r, n_cols) if at[i][c] != 0), None)
        if piv is None:
            continue
        at[r], at[piv] = at[piv], at[r]
        pv = at[r][c]
        at[r] = [x / pv for x in at[r]]
        for i in range(n_cols):
            if i != r and at[i][c] != 0:
                f = at[i][c]
                at[i] = [a - f * bb for a, bb in zip(at[i], at[r])]
        pivots.append(c)
        r += 1
    out = []
    for free in (c for c in range(n_rows) if c not in pivots):
        y = [Fraction(0)] * n_rows
        y[free] = Fraction(1)
        for i, pc in enumerate(pivots):
            y[pc] = -at[i][free]
        den = lcm(*(x.denominator for x in y))
        out.append([int(x * den) for x in y])
    return out


def _once_values(b: _Builder) -> set[Value]:
    """The observable values of length class ``once`` (the verifier's clock calculus): one token per run."""
    from loom.verify.lengths.check import describe
    from loom.verify.lengths.clock import AnyClock

    a = b.d.facts.lengths  # the monitors' clock calculus (loom.verify.facts), not a second run of it
    out: set[Value] = set()
    for v in b.d.signals:
        clock = a.clock(v) if b.counted(v) else None
        if clock is not None and not isinstance(clock, AnyClock):
            if describe(clock, a.typing.cond_names, a.logic.free)[0] == "once":
                out.add(v)
    return out


def _at_most_once(b: _Builder, once: set[Value]) -> set[Value]:
    """``once`` closed under stateless producers: an output that every rule emitting it produces while taking a
    token from an input whose value carries at most one token carries at most one (the branches of a cond_br
    on the guard, a constant fired by one of them). Without it those counters can wrap (65536 ``ctrl_t`` tokens
    look like none) and an induction step starts from a run that entered the loop with the guard false."""
    d = b.d
    out = set(once)
    changed = True
    while changed:
        changed = False
        for inst in d.instances:
            m = inst.component.machine
            if len(m.states) > 1:
                continue
            chans = {ch.port: ch for ch in d.channels if ch.consumer == inst.name and ch.fifo is not None}
            for k, port in enumerate(m.outputs):
                v = inst.op.results[k] if k < len(inst.op.results) else None
                if v is None or v in out or not b.counted(v):
                    continue
                rules = [r for r in m.rules if port.name in dict(r.emits)]
                if rules and all(any(p in chans and chans[p].value in out for p in r.reads) for r in rules):
                    out.add(v)
                    changed = True
    return out


def _monitor_links(b: _Builder) -> None:
    """Tie each monitor counter (declared by loom.hdl.monitors) to the counters and registers above."""
    d = b.d
    text = "\n".join(d.monitors.decls + d.monitors.logic)
    for v, s in sorted(d.signals.items(), key=lambda kv: kv[1]):
        if not b.counted(v):
            continue
        if f"lm_n_{s};" in text or f"lm_n_{s}," in text:
            b.add(f"inv_n_{s}", f"{b.w}'(lm_n_{s}) == {b.p(v)}", f"monitor counter of {s} = its transfers")
        if f"lm_nf_{s};" in text:
            b.add(f"inv_nf_{s}", f"{b.w}'(lm_nf_{s}) == {b.w}'({b.p(v)} - {b.p(v, True)})", f"monitor count of false {s} tokens")
    for ch in d.channels:  # primed channels' occupancy (the re-arm allowance of the end-of-run forms)
        if ch.fifo is not None and f"lm_held_{ch.fifo};" in text:
            b.add(f"inv_held_{ch.fifo}", f"{b.w}'(lm_held_{ch.fifo}) == {b.count(ch)}",
                  f"monitor count of the tokens in {ch.fifo} = the FIFO's count")
    for x in d.facts.layout.accesses:  # the monitors' layout (loom.verify.facts)
        c = f"lm_out_{x.name}"
        if (f"{c};" in text and x.op.results and b.counted(x.op.results[-1]) and x.done is not None
                and b.counted(x.done)):
            b.add(f"inv_out_{x.name}", f"{b.w}'({c}) == {b.w}'({b.p(x.op.results[-1])} - {b.p(x.done)})",
                  f"outstanding requests of {x.name} = requests - done tokens")
    for inst in d.instances:
        g = inst.name
        if f"lm_{g}_raw," in text:
            nxt = inst.component.machine.states.index("need_next")
            b.add(f"inv_act_{g}", f"lm_{g}_raw == lm_{g}_body && lm_{g}_bcond + {b.state(inst, nxt)} == lm_{g}_body",
                  f"gate {g}: this activation's raw takes = body tokens = after_cond tokens + [need_next]")
    if d.ret is not None and "done" in d.ret.component.machine.states:
        k = d.ret.component.machine.states.index("done")
        b.add("inv_done_seen", f"{b.w}'(lm_done_seen) == {b.state(d.ret, k)}",
              "done was seen = the return is in state done")
    token_args = [a for a in d.func.regions[0].entry.args if not isinstance(a.type, MemRefType)]
    for v, (_, _, port) in zip(token_args, d.args):
        if f"lm_took_{port};" in text:
            if b.counted(v):
                b.add(f"inv_took_{port}", f"{b.w}'(lm_took_{port}) == {b.p(v)}", f"argument {port} taken = its transfers")


TASK = "dfg_prove"
DEPTH = 2  # k of the k-induction: the invariants are 1-inductive; 2 steps cover the FIFO/FSM helper assertions


def insert(d: "Design", inv: Invariants) -> None:
    """Put the invariants into the top's text, just before its ``endmodule`` (nothing above them moves)."""
    if not inv.props:
        return
    head, sep, tail = d.text.rpartition("endmodule")
    d.text = head + "\n".join(inv.lines()) + "\n" + sep + tail


TARGETS = ("len", "balance")  # the monitor kinds the helpers make inductive; the others keep the bounded verdict


def targets(d: "Design") -> list[str]:
    """The labels of the monitors task dfg_prove tries to prove (kinds ``TARGETS``)."""
    mons = d.monitors.props if d.monitors is not None else []
    return [m.label for m in mons if m.obligation.split(".", 1)[0] in TARGETS]


def data_cuts(d: "Design") -> list[str]:
    """The data wires the proof leaves free: every token value's but an i1's (a decision). The len/balance
    monitors and the helpers read only transfers, i1 tokens and FSM states, so freeing the rest over-approximates
    the design (each value's producer drives one free value to every channel of it, as before): a proof of the
    abstract design holds on the real one, and no multiplier, adder or memory datapath is left in the query. A
    ``GuardedStream``'s bound is not cut: its branch passes the very token its guard compared (data-dependent trip
    counts: otherwise an empty activation behind a true guard is reachable)."""
    kept = {id(gs.bound) for gs in guarded_streams(d)}  # a guarded stream's bound stays the token its guard compared
    return [f"{s}_data" for v, s in sorted(d.values.items(), key=lambda kv: kv[1])
            if not _is_i1(v) and d.signals.get(v) is not None and id(v) not in kept]


def abstract_drops(d: "Design") -> list[str]:
    """Component assertions the free data breaks by construction: the table conformance (``p_fsm``) of every
    instance that produces a freed value (it ties that output's data to the inputs). Proved by task components
    on the real component; dropping an assertion only weakens the induction hypothesis."""
    cut = {v for v in d.values if not _is_i1(v)}
    return [f"{i.name}.p_fsm" for i in d.instances if any(r in cut for r in i.op.results)]


def project(d: "Design", inv: Invariants, files: list[str], drop: Sequence[str] = (), depth: int = DEPTH) -> str:
    """``<stem>_prove.sby``: task ``dfg_prove`` proves (k-induction, smtbmc yices) the len/balance monitors and
    the ``inv_*`` helpers, except the labels in ``drop``, together with the component and FIFO properties, on the
    design with its non-i1 data left free (``data_cuts``)."""
    from loom.hdl.monitors import DEFINE as MONITORS

    from loom.hdl.formal.sby import RUN_COMMENT

    sv = [f for f in files if f.endswith(".sv")]
    lines = ["# generated by loom hdl: unbounded (k-induction) proof of the DFG-level len/balance monitors with the",
             "# helper invariants of loom/hdl/formal/invariants.py (each asserted, so proved too), component and FIFO",
             "# properties, on the design with every non-i1 datum free (cutpoint: an over-approximation)",
             *RUN_COMMENT, "[tasks]", TASK, "", "[options]", "mode prove", f"depth {depth}", "", "[engines]", "smtbmc yices", "",
             "[script]", f"verilog_defines -D{MONITORS} -D{DEFINE}"]
    lines += [f"read_verilog -formal -sv -DLOOM_ASSERTIONS {f}" for f in sv]
    lines += [f"hierarchy -top {d.top}", "proc", "flatten", "memory_map"]
    lines += [f"connect -nounset -set {w} \\{h}" for w, h in inv.connects]
    cuts = data_cuts(d)
    if cuts:
        lines.append("cutpoint " + " ".join(f"w:{w}" for w in cuts))
    # --rtl-bound's argument ranges are assumptions of the top: removed, so a proof covers every argument value
    lines.append("chformal -assume -remove n:a_bound_*")
    keep = set(targets(d))
    others = [m.label for m in (d.monitors.props if d.monitors is not None else []) if m.label not in keep]
    removed = others + abstract_drops(d) + [x for x in drop if x not in others]
    if removed:
        lines.append("chformal -remove " + " ".join(f"n:{x}" for x in removed))
    lines += [f"prep -top {d.top}", "opt -fast", "", "[files]", *files, ""]
    return "\n".join(lines)


@dataclass
class ProofResult:
    """Task dfg_prove after pruning: the monitor labels proved, those dropped (not of a ``TARGETS`` kind, or
    failed in some round), those that failed from reset on the free-data design (``refuted``: not necessarily a
    real run; the bounded task dfg decides them), the SymbiYosys runs and their total seconds."""

    proved: list[str]
    dropped: list[str]
    refuted: list[str]
    runs: list = field(default_factory=list)
    status: str = "unknown"

    @property
    def seconds(self) -> float:
        return sum(v.seconds for v in self.runs)


def prove(wd: Path, stem: str, d: "Design", inv: Invariants, files: list[str], timeout: Optional[float] = None,
          rounds: int = 6) -> ProofResult:
    """Run task dfg_prove, dropping every assertion that fails (its induction step, or the basecase: on the
    design with free data a failure from reset need not be a real run) and trying again (Houdini): what passes
    in the end is proved (k-induction with the remaining helpers, each proved too). The monitors outside
    ``TARGETS`` are not tried (dropped). Stops at a timeout (wall-clock seconds a round, only when the caller asks:
    by default the rounds and the depth are the limits) or a tool error (nothing proved) or after ``rounds``
    rounds; only a passing run proves anything."""
    from loom.hdl.formal.sby import run_task

    mons = [m.label for m in d.monitors.props] if d.monitors is not None else []
    tried = set(targets(d))
    drop: list[str] = []
    res = ProofResult([], [], [])
    for _ in range(rounds):
        (wd / f"{stem}_prove.sby").write_text(project(d, inv, files, drop))
        v = run_task(wd, f"{stem}_prove.sby", TASK, timeout=timeout)
        res.runs.append(v)
        failed = list(v.failed)  # hierarchical below the top: a component's assertion is <instance>.<label>
        if v.status == "pass":
            res.status = "pass"
            break
        if v.status == "fail":
            res.refuted += [x for x in failed if x in mons and x not in res.refuted]
        if v.status not in ("unknown", "fail") or not failed:
            res.status = v.status
            break
        res.status = v.status
        drop += [x for x in failed if x not in drop]
    res.proved = [x for x in mons if x in tried and x not in drop] if res.status == "pass" else []
    res.dropped = [x for x in mons if x not in res.proved and (x in drop or x not in tried)]
    return res
