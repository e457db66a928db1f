"""Tables of the CIRCT handshake operators (and the combinational arith/math actors).

Port order follows specs/ir-conventions.md. Every builder is a pure function of
the op's types and parameters; ``loom.semantics.build.machine_for`` extracts
them from a concrete op.
"""

from __future__ import annotations

from typing import Sequence

from loom.ir.core import Operation, OpResult, Value
from loom.ir.types import IntegerType, Type, none
from loom.semantics.expr import TOKEN, Const, Expr, In, ScalarInfo, app, is_false, is_true
from loom.semantics.functions import TUPLE_GET, TUPLE_MAKE, TupleIndex
from loom.semantics.machine import Complete, Fail, Machine, Port, Rule

READY = ("ready",)
MUX_SELECT_RANGE = "RT_HANDSHAKE_MUX_SELECT_RANGE"


def _single_state(
    name: str,
    inputs: Sequence[Port],
    outputs: Sequence[Port],
    rules: Sequence[Rule],
    *,
    choice: str = "exclusive",
    summary: str = "",
) -> Machine:
    m = Machine(name, tuple(inputs), tuple(outputs), READY, "ready", tuple(rules), choice=choice, summary=summary)
    m.check()
    return m


def fork(t: Type, n: int) -> Machine:
    """``handshake.fork``: one input token copied to each of ``n`` outputs."""
    outs = [Port(f"out{i}", t) for i in range(n)]
    rule = Rule("fire", "ready", ("in",), "ready", emits=tuple((p.name, In("in")) for p in outs))
    return _single_state("handshake.fork", [Port("in", t)], outs, [rule], summary=f"{n}-way copy")


def join(types: Sequence[Type]) -> Machine:
    """``handshake.join``: waits for one token on every input, emits one none token."""
    ins = [Port(f"in{i}", t) for i, t in enumerate(types)]
    rule = Rule("fire", "ready", tuple(p.name for p in ins), "ready", emits=(("out", Const(TOKEN)),))
    return _single_state("handshake.join", ins, [Port("out", none)], [rule], summary=f"{len(ins)}-input barrier")


def cond_br(t: Type) -> Machine:
    """``handshake.cond_br``: routes the data token to the true or the false output."""
    c, d = In("cond"), In("data")
    rules = [
        Rule("to_true", "ready", ("cond", "data"), "ready", guard=is_true(c), emits=(("true", d),)),
        Rule("to_false", "ready", ("cond", "data"), "ready", guard=is_false(c), emits=(("false", d),)),
    ]
    return _single_state(
        "handshake.cond_br",
        [Port("cond", IntegerType(1)), Port("data", t)],
        [Port("true", t), Port("false", t)],
        rules,
        summary="two-way branch",
    )


def mux(select_t: Type, t: Type, n: int) -> Machine:
    """``handshake.mux``: reads the select and only the selected data input (i1 false picks data0)."""
    sel = In("select")
    rules = [
        Rule(
            f"pick{k}",
            "ready",
            ("select", f"data{k}"),
            "ready",
            guard=app("eq", sel, Const(k)),
            emits=(("out", In(f"data{k}")),),
        )
        for k in range(n)
    ]
    if not (isinstance(select_t, IntegerType) and select_t.width == 1 and n >= 2):
        rules.append(
            Rule(
                "out_of_range",
                "ready",
                ("select",),
                "ready",
                guard=app("ucmp.>=", sel, Const(n)),
                effect=Fail(MUX_SELECT_RANGE, f"select is not below {n}"),
            )
        )
    ins = [Port("select", select_t)] + [Port(f"data{k}", t) for k in range(n)]
    return _single_state("handshake.mux", ins, [Port("out", t)], rules, summary=f"{n}-way select")


def merge(t: Type, n: int) -> Machine:
    """``handshake.merge``: forwards a token from any ready input (lowest index first in the simulator)."""
    rules = [Rule(f"take{k}", "ready", (f"in{k}",), "ready", emits=(("out", In(f"in{k}")),)) for k in range(n)]
    return _single_state(
        "handshake.merge",
        [Port(f"in{k}", t) for k in range(n)],
        [Port("out", t)],
        rules,
        choice="arbitrary",
        summary=f"{n}-way nondeterministic merge",
    )


def control_merge(t: Type, index_t: Type, n: int) -> Machine:
    """``handshake.control_merge``: like merge, and also emits the index of the input taken."""
    rules = [
        Rule(f"take{k}", "ready", (f"in{k}",), "ready", emits=(("out", In(f"in{k}")), ("index", Const(k))))
        for k in range(n)
    ]
    return _single_state(
        "handshake.control_merge",
        [Port(f"in{k}", t) for k in range(n)],
        [Port("out", t), Port("index", index_t)],
        rules,
        choice="arbitrary",
        summary=f"{n}-way nondeterministic merge reporting the chosen input",
    )


def constant(ctrl_t: Type, t: Type, value: object) -> Machine:
    """``handshake.constant``: each control token becomes one token carrying ``value``."""
    rule = Rule("fire", "ready", ("ctrl",), "ready", emits=(("out", Const(value)),))
    return _single_state("handshake.constant", [Port("ctrl", ctrl_t)], [Port("out", t)], [rule])


def sink(t: Type) -> Machine:
    """``handshake.sink``: consumes and drops every token."""
    return _single_state("handshake.sink", [Port("in", t)], [], [Rule("drop", "ready", ("in",), "ready")])


def buffer(t: Type, slots: int, init: Sequence[object] = ()) -> Machine:
    """``handshake.buffer``: order-preserving; with unbounded channels its capacity does not change behaviour.

    ``init`` (CIRCT's ``initValues``) are tokens the buffer holds in its initial state: state ``init<i>``
    emits ``init[i]`` without reading anything, and only after the last one does the buffer pass its input
    on. While primed it holds tokens, so those states are residual.
    """
    rule = Rule("pass", "ready", ("in",), "ready", emits=(("out", In("in")),))
    if not init:
        return _single_state("handshake.buffer", [Port("in", t)], [Port("out", t)], [rule], summary=f"{slots} slots")
    states = tuple(f"init{i}" for i in range(len(init))) + ("ready",)
    primes = tuple(
        Rule(f"prime{i}", states[i], (), states[i + 1], emits=(("out", Const(v)),)) for i, v in enumerate(init)
    )
    m = Machine(
        "handshake.buffer",
        (Port("in", t),),
        (Port("out", t),),
        states,
        states[0],
        primes + (rule,),
        residual_states=frozenset(states[:-1]),
        summary=f"{slots} slots holding {len(init)} initial token(s)",
    )
    m.check()
    return m


def sync(types: Sequence[Type]) -> Machine:
    """``handshake.sync``: waits for one token on every input, then passes each on unchanged (join + copy)."""
    ins = [Port(f"in{i}", t) for i, t in enumerate(types)]
    rule = Rule("fire", "ready", tuple(p.name for p in ins), "ready",
                emits=tuple((f"out{i}", In(p.name)) for i, p in enumerate(ins)))
    outs = [Port(f"out{i}", t) for i, t in enumerate(types)]
    return _single_state("handshake.sync", ins, outs, [rule], summary=f"{len(ins)}-input barrier")


def always_ready(op_name: str, in_t: Type, out_types: Sequence[Type], value: object) -> Machine:
    """A constant or copy op fed by a ``handshake.source``: each output offers ``value`` forever.

    With unbounded channels a constant or fork firing on every token of an always-ready source would
    flood its consumers; in hardware it offers its value whenever asked, which is what a source means.
    Its input port is ``static``: wired to a source, it carries no tokens.
    """
    outs = tuple(Port(f"out{k}" if len(out_types) > 1 else "out", t) for k, t in enumerate(out_types))
    m = Machine(
        op_name,
        (Port("in", in_t, kind="static"),),
        outs,
        READY,
        "ready",
        (),
        sources=tuple((p.name, Const(value)) for p in outs),
        summary="always ready (fed by a source)",
    )
    m.check()
    return m


def pack(types: Sequence[Type], t: Type) -> Machine:
    """``handshake.pack``: one token on every input becomes one tuple token (a join that keeps the values)."""
    ins = [Port(f"in{i}", x) for i, x in enumerate(types)]
    rule = Rule("fire", "ready", tuple(p.name for p in ins), "ready",
                emits=(("out", app(TUPLE_MAKE, *(In(p.name) for p in ins))),))
    return _single_state("handshake.pack", ins, [Port("out", t)], [rule], summary=f"{len(ins)}-element tuple")


def unpack(t: Type, types: Sequence[Type]) -> Machine:
    """``handshake.unpack``: one tuple token becomes one token per element, on its own output."""
    rule = Rule("fire", "ready", ("in",), "ready",
                emits=tuple((f"out{k}", app(TUPLE_GET, In("in"), param=TupleIndex(k, t))) for k in range(len(types))))
    outs = [Port(f"out{k}", x) for k, x in enumerate(types)]
    return _single_state("handshake.unpack", [Port("in", t)], outs, [rule], summary=f"{len(types)}-element tuple")


def br(t: Type) -> Machine:
    """``handshake.br``: an unconditional branch, passing every token on unchanged (an identity)."""
    rule = Rule("pass", "ready", ("in",), "ready", emits=(("out", In("in")),))
    return _single_state("handshake.br", [Port("in", t)], [Port("out", t)], [rule], summary="pass-through")


def load(addr_types: Sequence[Type], t: Type, ctrl_t: Type = none) -> Machine:
    """``handshake.load``: address+ctrl -> address to memory; data from memory -> data out (independent)."""
    addrs = [f"addr{i}" for i in range(len(addr_types))]
    rules = [
        Rule(
            "issue",
            "ready",
            tuple(addrs) + ("ctrl",),
            "ready",
            emits=tuple((f"mem_addr{i}", In(a)) for i, a in enumerate(addrs)),
        ),
        Rule("deliver", "ready", ("mem_data",), "ready", emits=(("data", In("mem_data")),)),
    ]
    ins = [Port(a, at) for a, at in zip(addrs, addr_types)] + [Port("mem_data", t), Port("ctrl", ctrl_t)]
    outs = [Port("data", t)] + [Port(f"mem_addr{i}", at) for i, at in enumerate(addr_types)]
    return _single_state("handshake.load", ins, outs, rules, choice="independent")


def store(addr_types: Sequence[Type], t: Type, ctrl_t: Type = none) -> Machine:
    """``handshake.store``: address+data+ctrl -> data and address to memory."""
    addrs = [f"addr{i}" for i in range(len(addr_types))]
    rule = Rule(
        "issue",
        "ready",
        tuple(addrs) + ("data", "ctrl"),
        "ready",
        emits=(("mem_data", In("data")),) + tuple((f"mem_addr{i}", In(a)) for i, a in enumerate(addrs)),
    )
    ins = [Port(a, at) for a, at in zip(addrs, addr_types)] + [Port("data", t), Port("ctrl", ctrl_t)]
    outs = [Port("mem_data", t)] + [Port(f"mem_addr{i}", at) for i, at in enumerate(addr_types)]
    return _single_state("handshake.store", ins, outs, [rule])


def return_(types: Sequence[Type]) -> Machine:
    """``handshake.return``: reads one token per operand and completes the function (fires once)."""
    ins = tuple(Port(f"in{i}", t) for i, t in enumerate(types))
    rule = Rule(
        "complete",
        "ready",
        tuple(p.name for p in ins),
        "done",
        effect=Complete(tuple(In(p.name) for p in ins)),
    )
    m = Machine("handshake.return", ins, (), ("ready", "done"), "ready", (rule,), summary="function completion")
    m.check()
    return m


def source(op_name: str, t: Type, value: object) -> Machine:
    """An always-ready source (``ub.poison``, an operand-less constant): offers ``value`` forever, never residual."""
    m = Machine(
        op_name,
        (),
        (Port("out", t),),
        READY,
        "ready",
        (),
        sources=(("out", Const(value)),),
        summary="always-ready source",
    )
    m.check()
    return m


def combinational(
    op_name: str, attrs: tuple, operand_types: Sequence[Type], result_types: Sequence[Type]
) -> Machine:
    """An arith/math op as a one-rule actor: reads every operand, emits ``scalar:<op>`` of them."""
    ins = [Port(f"in{i}", t) for i, t in enumerate(operand_types)]
    args: tuple[Expr, ...] = tuple(In(p.name) for p in ins)
    emits = tuple(
        (
            f"out{k}",
            app(
                "scalar:" + op_name,
                *args,
                param=ScalarInfo(attrs, tuple(operand_types), tuple(result_types), k),
            ),
        )
        for k in range(len(result_types))
    )
    rule = Rule("fire", "ready", tuple(p.name for p in ins), "ready", emits=emits)
    outs = [Port(f"out{k}", t) for k, t in enumerate(result_types)]
    return _single_state(op_name, ins, outs, [rule], summary="combinational")


COPY_OPS = ("handshake.fork", "handshake.lazy_fork", "handshake.buffer", "handshake.br")
"""Ops whose outputs carry exactly the tokens of their one data input (copies in time or in space)."""


def is_copy(op: Operation) -> bool:
    """True when ``op``'s outputs carry exactly the tokens of its one input: a COPY_OPS op, except a buffer
    with initial values (it emits those first, so it adds tokens)."""
    return op.name in COPY_OPS and "initValues" not in op.attributes


def initial_tokens(m: Machine) -> int:
    """How many tokens ``m`` holds in its initial state: the rules that fire without reading anything
    (a buffer's ``initValues``), each emitting once on the way from the initial state to the others."""
    return sum(len(r.emits) for r in m.rules if not r.reads)


def copied_value(v: Value) -> Value:
    """The value ``v`` copies token for token through forks, buffers and br (``v`` itself otherwise).
    A cycle of copies (a malformed graph) stops where it closes."""
    seen: set[int] = set()
    while isinstance(v, OpResult) and is_copy(v.op) and id(v) not in seen:
        seen.add(id(v))
        v = v.op.operands[0]
    return v
