"""The contract of every operator kind, written against observable events only.

A contract says what an operator must do to its token streams -- it never
says how (that is the table's job). Each contract is a monitor over the events
of a firing (ports consumed with their head values, ports emitted with their
values) plus the strengthening invariant that ties the monitor to the table's
control states for the induction proof (``loom.verify.lemmas.induction``).

* ``stream``: per activation (one token on each of start/step/bound), N+1
  (idx, cont) pairs: N trues then one false, idx = start, start op step, ...; a
  zero step is the runtime error RT_DATAFLOW_STREAM_ZERO_STEP, nothing else.
* ``gate``: each burst of N+1 before-pairs ending in false gives N values (the
  true-headed ones) and N conds, N-1 trues and a final false; nothing for N = 0.
* ``carry`` / ``invariant``: per burst, |a| + #true(d) outputs (the seed, then one
  feedback value per true for carry, the seed replayed for invariant), then back
  to the initial state after each false.
* single-state handshake ops: every firing matches one allowed firing *shape*
  (which ports it consumes, which it emits with which values, under which
  condition); the port counts then balance (e.g. cond_br: #cond = #data =
  #true + #false and #true = #(cond = 1)).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Callable, Optional, Union

import z3

from loom.ir.types import IntegerType, Type, index
from loom.semantics.machine import Machine
from loom.verify.lemmas.induction import Contract, Counter, Step, bv_var, int_vars, zero_init
from loom.verify.solve import conjunction, disjunction, ite, negation
from loom.verify.lemmas.termination import stream_variant, variant_name
from loom.verify.z3model import MachineModel, as_bool, const_term, width_of

# ----------------------------------------------------------------------------- helpers


def _tstr(t: Type) -> str:
    return str(t).replace(" ", "")


def family(machine: Machine) -> str:
    """The lemma family of a table: op kind plus the parameters that change its shape, e.g. ``gate[index]``."""
    name = machine.op_name
    kind = name.split(".", 1)[1] if name.startswith(("handshake.", "dataflow.")) else name
    ins = [p for p in machine.inputs if p.kind == "token"]
    outs = list(machine.outputs)
    if name == "dataflow.stream":
        return f"stream[{variant_name(*stream_variant(machine))}]"
    if name in ("dataflow.gate",):
        return f"gate[{_tstr(ins[0].type)}]"
    if name in ("dataflow.carry", "dataflow.invariant"):
        return f"{kind}[{_tstr(outs[0].type)}]"
    if name in ("handshake.memory", "handshake.extmemory"):
        st = sum(1 for p in outs if p.name.startswith("st") and p.name.endswith(".done"))
        ld = sum(1 for p in outs if p.name.startswith("ld") and p.name.endswith(".done"))
        mt = machine.memory.type if machine.memory is not None else "?"
        return f"{kind}[ld={ld},st={st};{_tstr(mt)}]"
    if name == "handshake.mux":
        return f"mux[{_tstr(ins[0].type)};{len(ins) - 1};{_tstr(outs[0].type)}]"
    if name == "handshake.fork":
        return f"fork[{len(outs)};{_tstr(ins[0].type)}]"
    if name in ("handshake.merge", "handshake.control_merge"):
        return f"{kind}[{len(ins)};{_tstr(outs[0].type)}]"
    in_s = ",".join(_tstr(p.type) for p in ins)
    out_s = ",".join(_tstr(p.type) for p in outs)
    primed = [r for r in machine.rules if not r.reads and r.emits]  # a buffer's initial tokens
    if primed:
        init = ",".join(str(getattr(e, "value", e)) for r in primed for _, e in r.emits)
        return f"{kind}[{in_s}->{out_s};init={init}]"
    return f"{kind}[{in_s}->{out_s}]"


# ----------------------------------------------------------------------------- dataflow contracts


def gate_contract(machine: Machine) -> Contract:
    fam = family(machine)

    def step(st: Step):
        m, m2 = st.m, st.m2
        rv, rc = st.reads("before_value"), st.reads("before_cond")
        if not (rv and rc):
            return st.keep("n", "v", "c", "ct"), z3.BoolVal(True)  # a gate consumes value and cond together
        b = as_bool(st.head("before_cond"))
        ev, ec = st.emits("after_value"), st.emits("after_cond")
        bad = []
        bad.append(b if not ev else negation(b))  # a value is emitted exactly for a true head
        if ev:
            bad.append(st.out("after_value") != st.head("before_value"))
        bad.append(m["n"] >= 1 if not ec else m["n"] == 0)  # a cond for every pair but the burst's first
        if ec:
            bad.append(as_bool(st.out("after_cond")) != b)
        v2 = m["v"] + int(ev)
        c2 = m["c"] + int(ec)
        ct2 = m["ct"] + (z3.If(as_bool(st.out("after_cond")), 1, 0) if ec else 0)
        # burst end (false head): N values, N conds = N-1 trues + final false, back to the initial state
        n = m["n"]
        ok_end = conjunction(
            [
                v2 == n,
                c2 == n,
                ct2 == z3.If(n >= 1, n - 1, 0),
                st.s2.state == st.model.state_of[st.model.machine.initial],
            ]
        )
        bad.append(conjunction([negation(b), negation(ok_end)]))
        upd = ite(
            b,
            conjunction([m2["n"] == n + 1, m2["v"] == v2, m2["c"] == c2, m2["ct"] == ct2]),
            conjunction([m2["n"] == 0, m2["v"] == 0, m2["c"] == 0, m2["ct"] == 0]),
        )
        return upd, disjunction(bad)

    def invariant(model: MachineModel, s, m):
        init = s.state == model.state_of[model.machine.initial]
        return conjunction(
            [
                z3.Implies(init, conjunction([m["n"] == 0, m["v"] == 0, m["c"] == 0, m["ct"] == 0])),
                z3.Implies(
                    negation(init),
                    conjunction([m["n"] >= 1, m["v"] == m["n"], m["c"] == m["n"] - 1, m["ct"] == m["n"] - 1]),
                ),
            ]
        )

    return Contract(
        fam,
        "shape",
        "each burst of N+1 (value, cond) pairs ending in false gives the N true-headed values and N conds "
        "(N-1 trues, then false), nothing for N = 0, and returns to the initial state",
        int_vars("n", "v", "c", "ct"),
        zero_init("n", "v", "c", "ct"),
        step,
        invariant,
    )


def _states_reading(machine: Machine, port: str) -> list[str]:
    return sorted({r.state for r in machine.rules if port in r.reads})


def carry_contract(machine: Machine) -> Contract:
    """The carry's shape: per burst the seed a, then one feedback value b per true d, and back to the initial
    state after each false (the step's checks in ``_carry_step``, the inductive strengthening in
    ``_carry_invariant``)."""
    fam = family(machine)
    b_states = _states_reading(machine, "b")
    return Contract(
        fam,
        "shape",
        "per burst: the seed a, then one feedback value b per true d -- |a| + #true(d) outputs -- and back to "
        "the initial state after each false",
        int_vars("a", "b", "t", "o"),
        zero_init("a", "b", "t", "o"),
        _carry_step,
        functools.partial(_carry_invariant, b_states),
    )


def _carry_step(st: Step):
    """One firing of a carry: (the counters' update, what makes it a violation) -- the seed once, a feedback
    value only for a pending true, each output the a or b token taken, and the burst's end exact."""
    m, m2 = st.m, st.m2
    ra, rb, rd = st.reads("a"), st.reads("b"), st.reads("d")
    bad = []
    if ra and rb:
        bad.append(z3.BoolVal(True))
    if st.emits("o"):
        if ra == rb:  # an output is exactly the a or b token consumed by the same firing
            bad.append(z3.BoolVal(True))
        else:
            bad.append(st.out("o") != st.head("a" if ra else "b"))
    if ra:
        bad.append(m["a"] >= 1)  # one seed per burst
    if rb:
        bad.append(m["b"] >= m["t"])  # a feedback value only for a pending true
    if rd:
        # d read after the seed, never with a pending true
        bad.append(disjunction([m["a"] == 0, m["t"] > m["b"]]))
    d_true = as_bool(st.head("d")) if rd else z3.BoolVal(False)
    a2, b2 = m["a"] + int(ra), m["b"] + int(rb)
    t2 = m["t"] + (z3.If(d_true, 1, 0) if rd else 0)
    o2 = m["o"] + int(st.emits("o"))
    if rd:
        end = negation(d_true)
        ok_end = conjunction(
            [o2 == a2 + t2, a2 == 1, b2 == t2, st.s2.state == st.model.state_of[st.model.machine.initial]]
        )
        bad.append(conjunction([end, negation(ok_end)]))
        upd = ite(
            end,
            conjunction([m2["a"] == 0, m2["b"] == 0, m2["t"] == 0, m2["o"] == 0]),
            conjunction([m2["a"] == a2, m2["b"] == b2, m2["t"] == t2, m2["o"] == o2]),
        )
    else:
        upd = conjunction([m2["a"] == a2, m2["b"] == b2, m2["t"] == t2, m2["o"] == o2])
    return upd, disjunction(bad) if bad else z3.BoolVal(False)


def _carry_invariant(b_states: list[str], model: MachineModel, s, m):
    """The carry's counters in each state: zero initially, else one seed, one output per feedback value and a
    pending true exactly in the states that wait for b (``b_states``)."""
    init = s.state == model.state_of[model.machine.initial]
    waits = [s.state == model.state_of[x] for x in b_states]
    wait_b = disjunction(waits) if waits else z3.BoolVal(False)
    return conjunction(
        [
            z3.Implies(init, conjunction([m["a"] == 0, m["b"] == 0, m["t"] == 0, m["o"] == 0])),
            z3.Implies(
                negation(init),
                conjunction(
                    [
                        m["a"] == 1,
                        m["o"] == 1 + m["b"],
                        ite(wait_b, m["t"] == m["b"] + 1, m["t"] == m["b"]),
                    ]
                ),
            ),
        ]
    )


def invariant_contract(machine: Machine) -> Contract:
    fam = family(machine)
    t = machine.outputs[0].type

    def step(st: Step):
        m, m2 = st.m, st.m2
        ra, rd = st.reads("a"), st.reads("d")
        bad = []
        g2 = st.head("a") if ra else m["g"]
        if st.emits("o"):
            bad.append(st.out("o") != g2)  # every output is this burst's seed
        if ra:
            bad.append(m["a"] >= 1)
        if rd:
            bad.append(m["a"] == 0)
        d_true = as_bool(st.head("d")) if rd else z3.BoolVal(False)
        a2 = m["a"] + int(ra)
        t2 = m["t"] + (z3.If(d_true, 1, 0) if rd else 0)
        o2 = m["o"] + int(st.emits("o"))
        if rd:
            end = negation(d_true)
            ok_end = conjunction(
                [o2 == a2 + t2, a2 == 1, st.s2.state == st.model.state_of[st.model.machine.initial]]
            )
            bad.append(conjunction([end, negation(ok_end)]))
            upd = conjunction(
                [
                    m2["g"] == g2,
                    ite(
                        end,
                        conjunction([m2["a"] == 0, m2["t"] == 0, m2["o"] == 0]),
                        conjunction([m2["a"] == a2, m2["t"] == t2, m2["o"] == o2]),
                    ),
                ]
            )
        else:
            upd = conjunction([m2["g"] == g2, m2["a"] == a2, m2["t"] == t2, m2["o"] == o2])
        return upd, disjunction(bad) if bad else z3.BoolVal(False)

    regs_t = [r.name for r in machine.registers if width_of(r.type) == width_of(t)]

    def invariant(model: MachineModel, s, m):
        init = s.state == model.state_of[model.machine.initial]
        holds = disjunction([s.regs[r] == m["g"] for r in regs_t]) if regs_t else z3.BoolVal(False)
        return conjunction(
            [
                z3.Implies(init, conjunction([m["a"] == 0, m["t"] == 0, m["o"] == 0])),
                z3.Implies(negation(init), conjunction([m["a"] == 1, m["o"] == 1 + m["t"], holds])),
            ]
        )

    return Contract(
        fam,
        "shape",
        "per burst: the seed a once, then replayed once per true d -- |a| + #true(d) outputs, all equal to "
        "the seed -- and back to the initial state after each false",
        int_vars("a", "t", "o") + (bv_var("g", t),),
        zero_init("a", "t", "o"),
        step,
        invariant,
    )


_STREAM_OPERANDS = ("start", "step", "bound")


def stream_contract(machine: Machine) -> Contract:
    """Per activation (start, step, bound): N+1 (idx, cont) pairs, then back to the initial state; a zero step
    is the one runtime error. Ghosts: ``act`` (inside an activation), ``e``/``t`` (pairs emitted / trues),
    ``x`` (the next idx), ``stp`` and ``bnd`` (the latched operands)."""
    fam = family(machine)
    step_op, _ = stream_variant(machine)
    return Contract(
        fam,
        "shape",
        "per activation (start, step, bound): N+1 (idx, cont) pairs -- idx = start, start "
        f"{step_op} step, ... and N trues then one false -- then back to the initial state; a zero step is "
        "RT_DATAFLOW_STREAM_ZERO_STEP",
        (("act", "bool"),)
        + int_vars("e", "t")
        + (bv_var("x", index), bv_var("stp", index), bv_var("bnd", index)),
        lambda m: conjunction([negation(m["act"]), m["e"] == 0, m["t"] == 0]),
        functools.partial(_stream_step, step_op),
        _stream_invariant,
        abstract_steps=True,
    )


def _stream_step(step_op: str, st: Step):
    """The ghosts' update and the violation of one firing of a stream table."""
    r = [st.reads(p) for p in _STREAM_OPERANDS]
    bad = []
    keep_ghosts = st.keep("x", "stp", "bnd")
    if any(r) and not all(r):
        return st.keep("act", "e", "t", "x", "stp", "bnd"), z3.BoolVal(True)
    if any(st.reads(p) for p in st.model.port_types if p not in _STREAM_OPERANDS):
        return st.keep("act", "e", "t", "x", "stp", "bnd"), z3.BoolVal(True)
    ei, ec = st.emits("idx"), st.emits("cont")
    if ei != ec:
        bad.append(z3.BoolVal(True))  # idx and cont come in pairs
    if all(r):  # activation: one token of each operand
        return _stream_activation(st, bad, ei or ec, keep_ghosts)
    if not (ei and ec):
        keep = conjunction([st.keep("act", "e", "t"), keep_ghosts])
        return keep, disjunction(bad) if bad else z3.BoolVal(False)
    return _stream_emission(step_op, st, bad, keep_ghosts)


def _stream_activation(st: Step, bad: list, emits: bool, keep_ghosts: z3.BoolRef):
    """A firing that takes one token of each operand: it only latches them (or reports a zero step)."""
    m, m2 = st.m, st.m2
    if emits:
        bad.append(z3.BoolVal(True))  # Phase A only latches
    bad.append(m["act"])
    zero = st.head("step") == 0
    if st.firing.fails is not None:
        bad.append(negation(zero))  # the only error is the zero step
        upd = conjunction([m2["act"] == m["act"], st.keep("e", "t"), keep_ghosts])
    else:
        bad.append(zero)  # a zero step must be reported
        upd = conjunction(
            [
                m2["act"],
                m2["e"] == 0,
                m2["t"] == 0,
                m2["x"] == st.head("start"),
                m2["stp"] == st.head("step"),
                m2["bnd"] == st.head("bound"),
            ]
        )
    return upd, disjunction(bad)


def _stream_emission(step_op: str, st: Step, bad: list, keep_ghosts: z3.BoolRef):
    """A firing that emits an (idx, cont) pair: inside an activation, idx the next value, a false only after
    as many pairs as trues and back in the initial state."""
    m, m2 = st.m, st.m2
    bad.append(negation(m["act"]))  # emits only inside an activation
    bad.append(st.out("idx") != m["x"])  # idx = start, start op step, ...
    c = as_bool(st.out("cont"))
    nxt = st.model.encoder.step_term(step_op, m["x"], m["stp"]) if step_op != "?" else m["x"]
    initial = st.s2.state == st.model.state_of[st.model.machine.initial]
    # the false is pair N+1 after N trues, and the activation is over
    bad.append(conjunction([negation(c), negation(conjunction([m["e"] == m["t"], initial]))]))
    upd = ite(
        c,
        conjunction(
            [
                m2["act"] == m["act"],
                m2["e"] == m["e"] + 1,
                m2["t"] == m["t"] + 1,
                m2["x"] == nxt,
                st.keep("stp", "bnd"),
            ]
        ),
        conjunction([negation(m2["act"]), m2["e"] == 0, m2["t"] == 0, keep_ghosts]),
    )
    return upd, disjunction(bad)


def _stream_invariant(model: MachineModel, s, m):
    """Outside an activation exactly in the initial state, as many pairs as trues so far, and inside one the
    table's registers hold the latched operands (a nonzero step)."""
    init = s.state == model.state_of[model.machine.initial]
    regs = s.regs
    latched = conjunction(
        [
            *([regs["next"] == m["x"]] if "next" in regs else []),
            *([regs["step"] == m["stp"]] if "step" in regs else []),
            *([regs["bound"] == m["bnd"]] if "bound" in regs else []),
        ]
    )
    return conjunction(
        [
            init == negation(m["act"]),
            m["e"] == m["t"],
            z3.Implies(m["act"], conjunction([latched, m["stp"] != 0])),
        ]
    )

# ----------------------------------------------------------------------------- single-state shapes

Source = Union[str, tuple[str, object], None]  # an input port name (value copied), ("const", v) or None (any)


@dataclass(frozen=True)
class Shape:
    """One allowed firing: exactly ``consumes`` is read, exactly ``emits`` is written (with value sources)."""

    name: str
    consumes: frozenset[str]
    emits: tuple[tuple[str, Source], ...]
    when: Optional[Callable[[dict], z3.BoolRef]] = None
    fails: bool = False
    completes: bool = False


def _eq_const(port: str, k: int, width: int) -> Callable[[dict], z3.BoolRef]:
    return lambda h: h[port] == z3.BitVecVal(k, width)


ShapeSet = tuple[list[Shape], str]  # the allowed firing shapes of an op and its balance statement
F = frozenset


def shapes_for(machine: Machine) -> Optional[ShapeSet]:
    """The allowed firing shapes of a single-state handshake/arith op, with the balance statement."""
    name = machine.op_name
    ins = [p.name for p in machine.inputs if p.kind == "token"]
    outs = [p.name for p in machine.outputs]
    build = _SHAPES.get(name)
    if build is not None and (name not in ("handshake.buffer", "handshake.br") or len(machine.states) == 1):
        return build(machine, ins, outs)
    return _pointwise_shapes(machine, ins, outs)


def _fork(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [
        Shape("copy", F(["in"]), tuple((o, "in") for o in outs))
    ], "each input token is copied once to every output: #out_i = #in"


def _join(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [Shape("sync", F(ins), (("out", None),))], "one output per token on every input: #out = #in_i"


def _cond_br(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [
        Shape("true", F(["cond", "data"]), (("true", "data"),), lambda h: as_bool(h["cond"])),
        Shape("false", F(["cond", "data"]), (("false", "data"),), lambda h: negation(as_bool(h["cond"]))),
    ], "#cond = #data = #true + #false, #true = #(cond = 1), data routed unchanged"


def _mux(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    data = [p for p in ins if p.startswith("data")]
    st = {p.name: p.type for p in machine.inputs}["select"]
    w = width_of(st)
    shapes = [
        Shape(f"pick{k}", F(["select", d]), (("out", d),), _eq_const("select", k, w))
        for k, d in enumerate(data)
    ]
    if not (isinstance(st, IntegerType) and st.width == 1 and len(data) >= 2):
        n = len(data)
        shapes.append(
            Shape(
                "range",
                F(["select"]),
                (),
                lambda h, n=n, w=w: (
                    z3.UGE(h["select"], z3.BitVecVal(n, w)) if n < (1 << w) else z3.BoolVal(False)
                ),
                fails=True,
            )
        )
    return (
        shapes,
        "#select = #out (+ range errors), #data_k = #(select = k), the selected token routed unchanged",
    )


def _merge(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [
        Shape(f"take{k}", F([p]), (("out", p),)) for k, p in enumerate(ins)
    ], "#out = sum of #in_k, tokens routed unchanged"


def _control_merge(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [
        Shape(f"take{k}", F([p]), (("out", p), ("index", ("const", k)))) for k, p in enumerate(ins)
    ], "#out = #index = sum of #in_k, index names the input taken"


def _constant(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [Shape("fire", F(["ctrl"]), (("out", None),))], "one value per control token: #out = #ctrl"


def _sink(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [Shape("drop", F(["in"]), ())], "consumes every token, emits nothing"


def _pass(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [Shape("pass", F(["in"]), (("out", "in"),))], "#out = #in, order and values preserved"


def _load(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    addrs = [p for p in ins if p.startswith("addr")]
    return [
        Shape("issue", F(addrs + ["ctrl"]), tuple((f"mem_addr{i}", a) for i, a in enumerate(addrs))),
        Shape("deliver", F(["mem_data"]), (("data", "mem_data"),)),
    ], "#ctrl = #addr_i = #mem_addr_i (one memory request per control token), #data = #mem_data"


def _store(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    addrs = [p for p in ins if p.startswith("addr")]
    return [
        Shape(
            "issue",
            F(addrs + ["data", "ctrl"]),
            (("mem_data", "data"),) + tuple((f"mem_addr{i}", a) for i, a in enumerate(addrs)),
        ),
    ], "#ctrl = #data = #addr_i = #mem_data = #mem_addr_i"


def _memory(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    shapes = []
    of_port: dict[str, list[str]] = {}  # port ``j`` -> its inputs ``j.*`` (one pass: wide memories have thousands)
    for p in ins:
        j, dot, _ = p.partition(".")
        members = of_port.setdefault(j, [])
        if dot:
            members.append(p)
    st_ports = sorted(j for j in of_port if j.startswith("st"))
    ld_ports = sorted(j for j in of_port if j.startswith("ld"))
    for j in st_ports:
        shapes.append(Shape(f"{j}", F(of_port[j]), ((f"{j}.done", None),)))
    for j in ld_ports:
        shapes.append(
            Shape(
                f"{j}",
                F(of_port[j]),
                ((f"{j}.data", None), (f"{j}.done", None)),
            )
        )
    return (
        shapes,
        "per port: one done token per executed access (#st_j.done = #st_j.data = #st_j.addr, "
        "#ld_j.done = #ld_j.data = #ld_j.addr)",
    )


def _return(machine: Machine, ins: list[str], outs: list[str]) -> ShapeSet:
    return [
        Shape("complete", F(ins), (), completes=True)
    ], "completes once, reading one token of every operand"


def _pointwise_shapes(machine: Machine, ins: list[str], outs: list[str]) -> Optional[ShapeSet]:
    """Any other op of one rule reading every operand and emitting every result (arith, math): one shape."""
    if len(machine.rules) == 1 and len(machine.states) == 1 and not machine.registers:
        (r,) = machine.rules
        if set(r.reads) == set(ins) and {p for p, _ in r.emits} == set(outs) and r.effect is None:
            return [
                Shape("fire", F(ins), tuple((o, None) for o in outs))
            ], "one result per operand set: #out_k = #in_i"
    return None


_SHAPES: dict[str, Callable[[Machine, list[str], list[str]], ShapeSet]] = {
    "handshake.fork": _fork,
    "handshake.join": _join,
    "handshake.cond_br": _cond_br,
    "handshake.mux": _mux,
    "handshake.merge": _merge,
    "handshake.control_merge": _control_merge,
    "handshake.constant": _constant,
    "handshake.sink": _sink,
    "handshake.buffer": _pass,  # single-state only (a multi-state buffer has no shapes)
    "handshake.br": _pass,
    "handshake.load": _load,
    "handshake.store": _store,
    "handshake.memory": _memory,
    "handshake.extmemory": _memory,
    "handshake.return": _return,
}

def shape_contract(machine: Machine) -> Optional[Contract]:
    """The balance contract of a single-state op from its allowed shapes (None when the op has none)."""
    got = shapes_for(machine)
    if got is None:
        return None
    shapes, statement = got
    b = _ShapeBalance(shapes, [p.name for p in machine.inputs if p.kind == "token"], [p.name for p in machine.outputs])
    names = b.cvars + [f"in.{p}" for p in b.in_ports] + [f"out.{p}" for p in b.out_ports] + ["done"]
    return Contract(family(machine), "balance", statement, int_vars(*names), zero_init(*names), b.step, b.invariant)


class _ShapeBalance:
    """The monitor of a shape contract: a counter per shape (``n.<shape>``), per input (``in.<p>``), per output
    (``out.<p>``) and of completions (``done``); every firing must match one shape, and the invariant ties the
    port counters to the shapes'."""

    def __init__(self, shapes: list[Shape], in_ports: list[str], out_ports: list[str]) -> None:
        self.shapes, self.in_ports, self.out_ports = shapes, in_ports, out_ports
        self.cvars = [f"n.{s.name}" for s in shapes]
        self.once = any(s.completes for s in shapes)
        self.false = z3.BoolVal(False)  # one object for every mismatch: the monitor's update memo then hits
        self.by_consumes: dict[frozenset, list[Shape]] = {}
        for s in shapes:
            self.by_consumes.setdefault(s.consumes, []).append(s)
        self.in_set, self.out_set = set(in_ports), set(out_ports)

    def match(self, st: Step, s: Shape) -> z3.BoolRef:
        """When the step's firing is shape ``s``: its ports, failure and completion, then its condition and values."""
        f = st.firing
        if frozenset(f.consumes) != s.consumes or set(f.emits) != {p for p, _ in s.emits}:
            return self.false
        if (f.fails is not None) != s.fails or f.completes != s.completes:
            return self.false
        parts = [s.when(st.heads)] if s.when is not None else []
        for p, src in s.emits:
            if isinstance(src, str):
                parts.append(st.out(p) == st.head(src))
            elif isinstance(src, tuple):
                parts.append(st.out(p) == const_term(src[1], st.model.out_types[p]))
        return conjunction(parts) if parts else z3.BoolVal(True)

    def framed_step(self, st: Step):
        """``step`` for a framed part: only the shapes that consume what the firing consumes can match, and the
        counters it does not move are left to the Counter's frame (unchanged) -- the same step, at the cost of
        what it moves, not of every shape and port of a wide table."""
        f = st.firing
        ms = [(s, self.match(st, s)) for s in self.by_consumes.get(frozenset(f.consumes), ())]
        c = Counter(st, complete=True)
        for s, mt in ms:
            c.inc(f"n.{s.name}", mt)
        for p in dict.fromkeys(f.consumes):
            if p in self.in_set:
                c.inc(f"in.{p}")
        for p in f.emits:
            if p in self.out_set:
                c.inc(f"out.{p}")
        c.inc("done", f.completes)
        bad = negation(disjunction([mt for _, mt in ms])) if ms else z3.BoolVal(True)
        if self.once and f.completes:
            bad = disjunction([bad, st.m["done"] >= 1])
        return c.build(), bad

    def step(self, st: Step):
        """The counters' update and the violation (no shape matches; a second completion) of one firing."""
        if st.framed:
            return self.framed_step(st)
        ms = [self.match(st, s) for s in self.shapes]
        c = Counter(st)
        for s, mt in zip(self.shapes, ms):
            c.inc(f"n.{s.name}", mt)
        for p in self.in_ports:
            c.inc(f"in.{p}", st.reads(p))
        for p in self.out_ports:
            c.inc(f"out.{p}", st.emits(p))
        c.inc("done", st.firing.completes)
        bad = negation(disjunction(ms)) if ms else z3.BoolVal(True)
        if self.once and st.firing.completes:
            bad = disjunction([bad, st.m["done"] >= 1])
        return c.build(), bad

    def invariant(self, model: MachineModel, s, m):
        """Each port's counter is the sum of the counters of the shapes that use it; at most one completion."""
        parts = []
        using_in: dict[str, list[str]] = {}  # port -> the counters of the shapes that use it, in shape order
        using_out: dict[str, list[str]] = {}  # (one pass over the shapes: a wide memory has thousands of each)
        for x in self.shapes:
            for p in x.consumes:
                using_in.setdefault(p, []).append(f"n.{x.name}")
            for p in dict(x.emits):
                using_out.setdefault(p, []).append(f"n.{x.name}")
        for p in self.in_ports:
            parts.append(m[f"in.{p}"] == _total([m[c] for c in using_in.get(p, ())]))
        for p in self.out_ports:
            parts.append(m[f"out.{p}"] == _total([m[c] for c in using_out.get(p, ())]))
        parts += [m[v] >= 0 for v in self.cvars]
        if self.once:
            init = s.state == model.state_of[model.machine.initial]
            parts.append(m["done"] <= 1)
            parts.append(init == (m["done"] == 0))
        return conjunction(parts)


def _total(terms: list) -> z3.ArithRef:
    """The sum of ``terms`` (0 when none; the term itself when one)."""
    if not terms:
        return z3.IntVal(0)
    return terms[0] if len(terms) == 1 else z3.Sum(*terms)

def contracts_for(machine: Machine) -> list[Contract]:
    """Every contract that applies to a table (empty for always-ready sources)."""
    name = machine.op_name
    if not machine.rules:
        return []
    if name == "dataflow.stream":
        return [stream_contract(machine)]
    if name == "dataflow.gate":
        return [gate_contract(machine)]
    if name == "dataflow.carry":
        return [carry_contract(machine)]
    if name == "dataflow.invariant":
        return [invariant_contract(machine)]
    c = shape_contract(machine)
    return [c] if c is not None else []
