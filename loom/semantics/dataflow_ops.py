"""Tables of LOOM's dataflow.stream / gate / carry / invariant state machines.

Written from spec-dataflow.txt (which wins over the v0 draft): stream latches
its operands in Phase A and emits one (idx, cont) pair per firing in Phase B;
gate, carry and invariant follow their NeedHead/NeedNext and
NeedInit/NeedCond/NeedLoop phases. From the v0 draft come the sign-of-step
direction rule (used when ``cont_cond`` is absent) and the zero-step runtime
error. Each builder is a pure function of the op's parameters.
"""

from __future__ import annotations

from typing import Optional

from loom.ir.types import Type, i1, index
from loom.semantics.expr import Const, Expr, In, Reg, app, is_false, is_true
from loom.semantics.functions import CONT_CONDS, STEP_OPS
from loom.semantics.machine import Fail, Machine, Port, Register, Rule
from loom.semantics.values import zero_of

ZERO_STEP = "RT_DATAFLOW_STREAM_ZERO_STEP"


def continue_condition(cont_cond: Optional[str], idx: Expr, bound: Expr, step: Expr) -> Expr:
    """``idx cont_cond bound``; without ``cont_cond``, ``<`` for a positive step and ``>`` for a negative one."""
    if cont_cond is not None:
        return app("cmp." + cont_cond, idx, bound)
    zero = Const(0)
    up = app("and", app("cmp.>", step, zero), app("cmp.<", idx, bound))
    down = app("and", app("cmp.<", step, zero), app("cmp.>", idx, bound))
    return app("or", up, down)


def stream(step_op: str = "+=", cont_cond: Optional[str] = "<") -> Machine:
    """``%idx, %cont = dataflow.stream %start, %step, %bound``: N+1 indices, N trues then one false."""
    if step_op not in STEP_OPS:
        raise ValueError(f"invalid step_op {step_op!r}")
    if cont_cond is not None and cont_cond not in CONT_CONDS:
        raise ValueError(f"invalid cont_cond {cont_cond!r}")
    nxt, step, bound = Reg("next"), Reg("step"), Reg("bound")
    cond = continue_condition(cont_cond, nxt, bound, step)
    operands = ("start", "step", "bound")
    rules = (
        Rule(
            "zero_step",
            "idle",
            operands,
            "idle",
            guard=app("eq", In("step"), Const(0)),
            effect=Fail(ZERO_STEP, "step is zero"),
        ),
        Rule(
            "activate",
            "idle",
            operands,
            "active",
            guard=app("ne", In("step"), Const(0)),
            updates=(("next", In("start")), ("step", In("step")), ("bound", In("bound"))),
        ),
        Rule(
            "continue",
            "active",
            (),
            "active",
            guard=cond,
            emits=(("idx", nxt), ("cont", Const(1))),
            updates=(("next", app("step." + step_op, nxt, step)),),
        ),
        Rule(
            "exit",
            "active",
            (),
            "idle",
            guard=app("not", cond),
            emits=(("idx", nxt), ("cont", Const(0))),
        ),
    )
    m = Machine(
        "dataflow.stream",
        inputs=tuple(Port(n, index) for n in operands),
        outputs=(Port("idx", index), Port("cont", i1)),
        states=("idle", "active"),
        initial="idle",
        rules=rules,
        registers=(Register("next", index), Register("step", index), Register("bound", index)),
        residual_states=frozenset({"active"}),
        summary=f"index stream, step_op {step_op!r}, cont_cond "
        + (repr(cont_cond) if cont_cond else "by sign of step (< if step > 0, > if step < 0)"),
    )
    m.check()
    return m


def gate(t: Type) -> Machine:
    """``dataflow.gate``: N+1 before-region pairs -> N body values and N conds ending in false."""
    v, c = In("before_value"), In("before_cond")
    both = ("before_value", "before_cond")
    rules = (
        Rule("head_true", "need_head", both, "need_next", guard=is_true(c), emits=(("after_value", v),)),
        Rule("head_false", "need_head", both, "need_head", guard=is_false(c)),
        Rule(
            "next_true",
            "need_next",
            both,
            "need_next",
            guard=is_true(c),
            emits=(("after_value", v), ("after_cond", Const(1))),
        ),
        Rule("next_false", "need_next", both, "need_head", guard=is_false(c), emits=(("after_cond", Const(0)),)),
    )
    m = Machine(
        "dataflow.gate",
        inputs=(Port("before_value", t), Port("before_cond", i1)),
        outputs=(Port("after_value", t), Port("after_cond", i1)),
        states=("need_head", "need_next"),
        initial="need_head",
        rules=rules,
        residual_states=frozenset({"need_next"}),
        summary="before-region to body-region stream alignment",
    )
    m.check()
    return m


def carry(t: Type) -> Machine:
    """``%o = dataflow.carry %d, %a, %b``: one initial value, then one carried value per true."""
    d = In("d")
    rules = (
        Rule("init", "need_init", ("a",), "need_cond", emits=(("o", In("a")),)),
        Rule("cond_true", "need_cond", ("d",), "need_loop", guard=is_true(d)),
        Rule("cond_false", "need_cond", ("d",), "need_init", guard=is_false(d)),
        Rule("loop", "need_loop", ("b",), "need_cond", emits=(("o", In("b")),)),
    )
    m = Machine(
        "dataflow.carry",
        inputs=(Port("d", i1), Port("a", t), Port("b", t)),
        outputs=(Port("o", t),),
        states=("need_init", "need_cond", "need_loop"),
        initial="need_init",
        rules=rules,
        residual_states=frozenset({"need_cond", "need_loop"}),
        summary="loop-carried value: initial value, then one feedback value per true condition",
    )
    m.check()
    return m


def invariant(t: Type) -> Machine:
    """``%o = dataflow.invariant %d, %a``: the seed once, then replayed once per true."""
    d = In("d")
    rules = (
        Rule("init", "need_init", ("a",), "need_cond", emits=(("o", In("a")),), updates=(("value", In("a")),)),
        Rule("cond_true", "need_cond", ("d",), "need_cond", guard=is_true(d), emits=(("o", Reg("value")),)),
        Rule("cond_false", "need_cond", ("d",), "need_init", guard=is_false(d)),
    )
    m = Machine(
        "dataflow.invariant",
        inputs=(Port("d", i1), Port("a", t)),
        outputs=(Port("o", t),),
        states=("need_init", "need_cond"),
        initial="need_init",
        rules=rules,
        registers=(Register("value", t, zero_of(t)),),
        residual_states=frozenset({"need_cond"}),
        summary="loop-invariant repeater: seed once, replayed once per true condition",
    )
    m.check()
    return m

