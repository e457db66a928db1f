"""What values can a DFG channel carry? A symbolic over-approximation for checking operand preconditions.

``Summary(value, cond, exact)`` of a channel means: every token that crosses
the channel in any run has ``value`` for some assignment of the summary's
symbols that satisfies ``cond``. Function arguments are symbols shared by the
whole run (``arg.<name>``); anything loop-carried, loaded from memory or merged
is an *opaque* symbol private to one token, so symbols of two different tokens
are renamed apart before they meet in one op. Arithmetic goes through the
operator tables (``MachineModel`` of the op, exact integer encoding), so the
summary never restates an op's meaning.

``exact`` is True when the summary is also complete: the channel carries a
token with ``value`` for *every* satisfying assignment of the arguments (only
straight-line code outside loops: arguments, constants, arith, cond_br, mux,
join). Only then may a failed check be reported as a refutation with concrete
inputs; otherwise it is ``unknown``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Optional

import z3

from loom.diagnostics import LoomError
from loom.ir.core import BlockArgument, Operation, OpResult, Value
from loom.ir.types import MemRefType, NoneType
from loom.semantics import machine_for
from loom.semantics.handshake_ops import is_copy
from loom.verify.z3model import MachineModel, UnsupportedExpr, as_bool, const_term, smt_symbol, sort_of

MAX_SIZE = 4000  # summaries larger than this (parentheses in their text) become opaque


@dataclass(frozen=True)
class Summary:
    """Value term, existence condition, the token-private symbols, and whether it is exact."""

    value: z3.ExprRef
    cond: z3.BoolRef
    private: tuple[z3.ExprRef, ...] = ()
    exact: bool = False


class OperandAnalysis:
    """Summaries of the values of one handshake.func, computed on demand and memoized."""

    def __init__(self, func: Operation, arg_names: dict[Value, str]) -> None:
        self.func = func
        self.arg_names = arg_names
        self.memo: dict[Value, Summary] = {}
        self.busy: set[Value] = set()
        self.counter = itertools.count()
        self.models: dict[int, MachineModel] = {}

    def argument(self, name: str) -> Optional[z3.BitVecRef]:
        """The constant that stands for integer argument ``name`` (None: no such argument or not an integer)."""
        for v, n in self.arg_names.items():
            if n == name and isinstance(v, BlockArgument) and not isinstance(v.type, (NoneType, MemRefType)):
                return z3.Const(smt_symbol(f"arg.{name}"), sort_of(v.type))
        return None

    # -- symbols --
    def _opaque(self, v: Value) -> Summary:
        x = z3.Const(f"opaque.{next(self.counter)}", sort_of(v.type))
        return Summary(x, z3.BoolVal(True), (x,), False)

    def rename(self, s: Summary) -> Summary:
        """A copy of ``s`` whose private symbols are fresh (another token of the same channel)."""
        if not s.private:
            return s
        fresh = [z3.Const(f"opaque.{next(self.counter)}", p.sort()) for p in s.private]
        pairs = list(zip(s.private, fresh))
        return Summary(z3.substitute(s.value, *pairs), z3.substitute(s.cond, *pairs), tuple(fresh), s.exact)

    # -- analysis --
    def summary(self, v: Value) -> Summary:
        hit = self.memo.get(v)
        if hit is not None:
            return hit
        if v in self.busy:  # a cycle: loop-carried value
            return self._opaque(v)
        self.busy.add(v)
        try:
            s = self._compute(v)
        except (UnsupportedExpr, LoomError, z3.Z3Exception, KeyError, ValueError):
            s = self._opaque(v)
        finally:
            self.busy.discard(v)
        if s.value.sexpr().count("(") + s.cond.sexpr().count("(") > MAX_SIZE:
            s = self._opaque(v)
        self.memo[v] = s
        return s

    def _loop_index(self, gate: Operation, v: Value) -> Optional[Summary]:
        """The body index of a ``+=``/``<`` (``<=``) or ``-=``/``>`` (``>=``) stream: start <= idx < bound.

        A true-headed index meets the continue condition (the table's guard); that
        it also lies on the start side relies on the stream's own termination
        precondition (no wrap-around), which is assumed here and proved by that
        stream's ``fsm.stream.pre`` obligation.
        """
        idx, cont = gate.operands
        if not (isinstance(idx, OpResult) and isinstance(cont, OpResult) and idx.op is cont.op):
            return None
        s_op = idx.op
        if s_op.name != "dataflow.stream" or idx.index != 0 or cont.index != 1:
            return None
        from loom.verify.lemmas.termination import TERMINATION, stream_variant

        variant = stream_variant(machine_for(s_op))
        if variant not in (("+=", "<"), ("+=", "<="), ("-=", ">"), ("-=", ">=")):
            return None
        start, step, bound = (self.rename(self.summary(x)) for x in s_op.operands)
        x = z3.Const(f"opaque.{next(self.counter)}", sort_of(v.type))
        lo, hi = start.value, bound.value
        op_ = variant[1]
        inside = {
            "<": z3.And(lo <= x, x < hi),
            "<=": z3.And(lo <= x, x <= hi),
            ">": z3.And(hi < x, x <= lo),
            ">=": z3.And(hi <= x, x <= lo),
        }[op_]
        pre = TERMINATION[variant].for_dfg(lo, step.value, hi)
        cond = z3.And(start.cond, step.cond, bound.cond, pre, inside)
        return Summary(x, cond, start.private + step.private + bound.private + (x,), False)

    def _compute(self, v: Value) -> Summary:
        """The summary of ``v`` by its producer: an argument, a copy, a join, a branch, a mux, a loop's
        invariant or gate, a constant, an arith/math op; any other value is opaque."""
        if isinstance(v, BlockArgument):
            return self._argument(v)
        assert isinstance(v, OpResult)
        op, k = v.op, v.index
        name = op.name
        if is_copy(op):
            return self.rename(self.summary(op.operands[0]))
        if name == "handshake.join":
            parts = [self.rename(self.summary(x)) for x in op.operands]
            return Summary(
                const_term(None, v.type),
                z3.And(*[p.cond for p in parts]),
                tuple(x for p in parts for x in p.private),
                all(p.exact for p in parts),
            )
        if name == "handshake.cond_br":
            c, d = (self.rename(self.summary(x)) for x in op.operands)
            taken = as_bool(c.value) if k == 0 else z3.Not(as_bool(c.value))
            return Summary(d.value, z3.And(d.cond, c.cond, taken), c.private + d.private, c.exact and d.exact)
        if name == "handshake.mux":
            return self._mux(op, v)
        if name == "dataflow.invariant":
            a = self.summary(op.operands[1])
            return Summary(a.value, a.cond, a.private, False)
        if name == "dataflow.gate" and k == 0:
            ranged = self._loop_index(op, v)
            if ranged is not None:
                return ranged
            a = self.summary(op.operands[0])
            return Summary(a.value, a.cond, a.private, False)
        if name == "handshake.constant" or (not op.operands and op.dialect in ("arith", "ub")):
            return self._constant(op, v)
        if op.dialect in ("arith", "math"):
            return self._arith(op, k)
        return self._opaque(v)

    def _argument(self, v: BlockArgument) -> Summary:
        """A function argument: its own constant ``arg.<name>`` (a none token: the unit value)."""
        if isinstance(v.type, NoneType):
            return Summary(const_term(None, v.type), z3.BoolVal(True), (), True)
        if isinstance(v.type, MemRefType):
            raise ValueError("memref")
        name = self.arg_names.get(v, f"arg{v.index}")
        return Summary(z3.Const(smt_symbol(f"arg.{name}"), sort_of(v.type)), z3.BoolVal(True), (), True)

    def _mux(self, op: Operation, v: OpResult) -> Summary:
        """A mux: a fresh value equal to the selected input's, under its select's and that input's conditions."""
        sel = self.rename(self.summary(op.operands[0]))
        out = z3.Const(f"opaque.{next(self.counter)}", sort_of(v.type))
        alts = []
        private = list(sel.private) + [out]
        exact = sel.exact
        for j, x in enumerate(op.operands[1:]):
            d = self.rename(self.summary(x))
            private += list(d.private)
            exact = exact and d.exact
            pick = sel.value == z3.BitVecVal(j, sel.value.size())
            alts.append(z3.And(pick, d.cond, out == d.value))
        return Summary(out, z3.And(sel.cond, z3.Or(*alts)), tuple(private), exact)

    def _constant(self, op: Operation, v: OpResult) -> Summary:
        """A constant (triggered by a control token, or a source): the value its table emits."""
        m = machine_for(op)
        if op.operands:
            ctrl = self.rename(self.summary(op.operands[0]))
            (rule,) = m.rules
            model = MachineModel(m, f"opd{next(self.counter)}")
            emitted = dict(model.firing(rule, model.new_state("x"), {}).emits)
            return Summary(emitted["out"], ctrl.cond, ctrl.private, ctrl.exact)
        ((_, e),) = m.sources
        model = MachineModel(m, f"opd{next(self.counter)}")
        return Summary(model.encoder.encode(e, {}, {}, v.type), z3.BoolVal(True), (), True)

    def _arith(self, op: Operation, k: int) -> Summary:
        """An arith/math op: its table's exact output ``k`` over its operands' summaries."""
        m = machine_for(op)
        (rule,) = m.rules
        ins = [self.rename(self.summary(x)) for x in op.operands]
        model = MachineModel(m, f"opd{next(self.counter)}", data_mode="exact")
        heads = {f"in{i}": s.value for i, s in enumerate(ins)}
        f = model.firing(rule, model.new_state("x"), heads)
        value = z3.simplify(f.emits[f"out{k}"])
        return Summary(
            value,
            z3.And(*[s.cond for s in ins]),
            tuple(x for s in ins for x in s.private),
            all(s.exact for s in ins) and not _abstracted(value),
        )


def _abstracted(term: z3.ExprRef) -> bool:
    """Does ``term`` still apply an uninterpreted function (an abstracted float/math op or division by zero)?"""
    seen: set[int] = set()
    stack = [term]
    while stack:
        t = stack.pop()
        if t.get_id() in seen:
            continue
        seen.add(t.get_id())
        if z3.is_app(t):
            d = t.decl()
            if d.kind() == z3.Z3_OP_UNINTERPRETED and d.arity() > 0:
                return True
            stack.extend(t.children())
    return False


def arg_name_map(func: Operation) -> dict[Value, str]:
    """Function argument -> its name (``argNames`` when present, else the SSA name hint)."""
    from loom.ir.attributes import ArrayAttr, StringAttr

    block = func.regions[0].entry
    names = func.attributes.get("argNames")
    out: dict[Value, str] = {}
    for i, a in enumerate(block.args):
        n: Optional[str] = None
        if (
            isinstance(names, ArrayAttr)
            and i < len(names.elements)
            and isinstance(names.elements[i], StringAttr)
        ):
            n = names.elements[i].value
        out[a] = n or a.name_hint or f"arg{i}"
    return out
