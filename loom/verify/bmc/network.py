"""The network the explorer runs: actors (one per op, its table rules prepared) wired by channel ids."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from loom.ir.core import Operation
from loom.semantics.expr import Expr
from loom.semantics.functions import compile_expr
from loom.semantics.machine import Machine, Rule
from loom.verify.bmc.values import SKIP, expr_leaves, fast_eval
from loom.verify.z3model import ExprEncoder


class CRule:
    """A table rule prepared for the explorer: channels resolved, leaves listed, concrete code compiled."""

    __slots__ = ("rule", "name", "reads", "guard", "gleaves", "gfast", "gports", "emits", "updates", "effect",
                 "next", "loop", "reset", "pull", "heads0", "room")

    def __init__(self, rule: Rule, a: "Actor") -> None:
        index = a.port_index  # built once per actor: a wide table has as many rules as ports
        self.rule = rule
        self.name = rule.name
        self.reads = tuple((p, index[p], a.inputs[index[p]]) for p in rule.reads)
        forever = a.forever
        self.pull = tuple((i, cid) for _, i, cid in self.reads if cid not in forever)  # FIFO heads to read
        self.heads0 = [None] * len(a.machine.inputs)  # the always-ready inputs' values filled in
        for _, i, cid in self.reads:
            if cid in forever:
                self.heads0[i] = forever[cid]
        self.guard = rule.guard
        self.gleaves = expr_leaves(rule.guard) if rule.guard is not None else ((), ())
        self.gfast = a.compile(rule.guard, index) if rule.guard is not None else None
        self.gports = tuple(index[p] for p in self.gleaves[0])
        emits = []
        for p, e in rule.emits:
            oi = a.out_index[p]
            t = a.machine.outputs[oi].type
            lv = expr_leaves(e)
            emits.append((oi, a.relevant_out[oi], e, lv, fast_eval(e, index, a.compile), t,
                          tuple(index[q] for q in lv[0])))
        self.emits = tuple(emits)
        self.updates = tuple((r, e, lv, fast_eval(e, index, a.compile) if r in a.relevant_regs else SKIP,
                              a.encoder.reg_types[r],
                              tuple(index[q] for q in lv[0])) for r, e in rule.updates for lv in (expr_leaves(e),))
        self.effect = rule.effect
        self.next = rule.next
        self.loop = rule.name == a.loop_rule
        self.reset = rule.name == a.reset_rule
        self.room: tuple = ()  # (entry, exits, places) of each bounded route it emits into (loom.semantics.routes)



@dataclass(eq=False)
class Actor:
    """One operator of the network: its table, its channels, its prepared rules, what bounds its loop."""

    op: Operation
    machine: Machine
    index: int
    inputs: list[Optional[int]]  # channel id per input port (None: memref port)
    outputs: list[list[int]]  # channel ids per output port
    relevant_out: list[bool]
    encoder: ExprEncoder
    rules: dict[str, tuple[Rule, ...]]
    port_index: dict[str, int]
    out_index: dict[str, int]
    loop_rule: Optional[str] = None  # the rule whose repetition is bounded (stream continue, carry/inv true)
    reset_rule: Optional[str] = None  # the rule that starts a new activation
    crules: dict[str, tuple[CRule, ...]] = field(default_factory=dict)
    arbitrary: bool = False  # a merge: any ready input may be taken (the explorer forks)
    relevant_regs: set = field(default_factory=set)  # registers that reach a guard or a tracked output
    forever: dict = field(default_factory=dict)  # the explorer's always-ready channels (by channel id)
    compiled: dict = field(default_factory=dict)  # the explorer's compiled expressions, shared by its actors
    state_code: dict = field(default_factory=dict)  # state name -> its number in the state fingerprint
    index_key: Optional[tuple] = None  # ``port_index``'s items, sorted (part of the compiled-expression key)

    def compile(self, e: Expr, index: dict[str, int]):
        """``compile_expr(e, index)``, once per distinct (expression, port positions) of the explorer."""
        if index is self.port_index:  # every rule's: its sorted items once per actor
            if self.index_key is None:
                self.index_key = tuple(sorted(index.items()))
            positions = self.index_key
        else:
            positions = tuple(sorted(index.items()))
        key = (repr(e), positions)  # repr: Const(0) and Const(0.0) are == in Python
        fn = self.compiled.get(key)
        if fn is None:
            fn = self.compiled[key] = compile_expr(e, index)
        return fn

