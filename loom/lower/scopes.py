"""Lowering scopes: one per SCF region instance being flattened.

A scope maps SCF values to DFG values that carry exactly one token per
execution of the region (its *regime*), owns the region's control token and
the current ctrl-done token of every memory domain. A value defined in an
enclosing region is brought in on first use by the scope's ``transport``:

* ``BranchScope`` (scf.if side, loop guard): ``cond_br(cond, v)``, one side;
* ``ForBodyScope``: ``dataflow.invariant(after_cond, v)``;
* ``WhileFrameScope`` (scf.while before region, N+1 runs): ``invariant(raw_cond, v)``;
* ``WhileAfterScope`` (scf.while after region, N runs): true side of ``cond_br(raw_cond, v_frame)``.

Constants are never transported: each scope rematerializes them as
``handshake.constant`` triggered by its own control token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Optional

from loom.ir.attributes import Attribute, BoolAttr, FloatAttr, IntegerAttr
from loom.ir.core import OpResult, Value
from loom.ir.location import Location
from loom.ir.types import FloatType, Type, i1, index

if TYPE_CHECKING:  # pragma: no cover
    from loom.lower.builder import DfgBuilder, Forward
    from loom.lower.memrefs import Domain

_CTRL = "ctrl"


def hint(v: Value, default: str = "v") -> str:
    """A readable base name for values derived from ``v`` (source name unless it is just a number)."""
    h = v.name_hint
    if h and not re.fullmatch(r"[0-9]+(#[0-9]+)?", h):
        return h.split("#")[0]
    return default


@dataclass
class DomainState:
    """The current ctrl-done token of one memory domain in one scope, plus an open group of parallel loads."""

    token: Value
    group_entry: Optional[Value] = None
    group_dones: list[Value] = field(default_factory=list)
    group_loc: Optional[Location] = None


class Scope:
    """Base scope: value environment, control token and memory tokens of one region regime."""

    def __init__(self, b: "DfgBuilder", parent: Optional["Scope"], loc: Location) -> None:
        self.b = b
        self.parent = parent
        self.loc = loc
        self.env: dict[Value, Value] = {}
        self.mem: dict[int, DomainState] = {}
        self._ctrl: Optional[Value] = None
        self._consts: dict[tuple[Attribute, Type], Value] = {}

    # ------------------------------------------------------------------ values
    def transport(self, parent_value: Value, name: str) -> Value:  # pragma: no cover - abstract
        raise NotImplementedError

    def ctrl(self) -> Value:
        """The region's control token (one per execution), created on first use."""
        if self._ctrl is None:
            assert self.parent is not None
            self._ctrl = self.transport(self.parent.ctrl(), _CTRL)
        return self.b.current(self._ctrl)

    def bind(self, src: Value, dfg: Value) -> None:
        self.env[src] = dfg

    def lookup(self, v: Value) -> Value:
        """The DFG value standing for SCF value ``v`` in this regime."""
        got = self.env.get(v)
        if got is not None:
            return self.b.current(got)
        op = v.op if isinstance(v, OpResult) else None
        if op is not None and op.name in ("arith.constant", "ub.poison"):
            out = self._materialize(v)
        else:
            if self.parent is None:
                raise AssertionError(f"value {v!r} used outside the scope that defines it")
            out = self.transport(self.parent.lookup(v), hint(v))
        self.env[v] = out
        return out

    def _materialize(self, v: Value) -> Value:
        assert isinstance(v, OpResult)
        op = v.op
        if op.name == "ub.poison":  # loom fixes poison to zero (loom.semantics.scalar)
            t = v.type
            zero: Attribute = FloatAttr(0.0, t) if isinstance(t, FloatType) else IntegerAttr(0, t)
            return self.constant(zero, t, op.loc, "poison")
        value = op.attributes.get("value")
        assert value is not None
        if isinstance(value, BoolAttr):
            value = IntegerAttr(1 if value.value else 0, i1)
        return self.constant(value, v.type, op.loc, hint(v, "cst"))

    def constant(self, value: Attribute, type: Type, loc: Location, name: str) -> Value:
        """A constant in this regime, one per distinct value and type."""
        key = (value, type)
        got = self._consts.get(key)
        if got is None:
            got = self.b.constant(self.ctrl(), value, type, loc, name)
            self._consts[key] = got
        return got

    def index_const(self, value: int, loc: Location) -> Value:
        return self.constant(IntegerAttr(value, index), index, loc, f"c{value}" if value >= 0 else "cneg")

    def emit_index(self, name: str, lhs: Value, rhs: Value, loc: Location) -> Value:
        return self.b.arith(name, [lhs, rhs], index, loc)

    # ------------------------------------------------------------------ memory tokens
    def mem_set(self, d: "Domain", token: Value) -> None:
        self.mem[d.ident] = DomainState(token)

    def _state(self, d: "Domain") -> DomainState:
        st = self.mem.get(d.ident)
        if st is None:
            st = self._initial_state(d)
            self.mem[d.ident] = st
        return st

    def _initial_state(self, d: "Domain") -> DomainState:
        raise AssertionError(f"memory domain '{d.name}' reached a region without an entry token")

    def _close(self, st: DomainState) -> None:
        if st.group_entry is not None:
            dones = st.group_dones
            st.token = (
                dones[0] if len(dones) == 1 else self.b.join(dones, st.group_loc or self.loc, "rar_done")
            )
            st.group_entry, st.group_dones, st.group_loc = None, [], None

    def mem_take(self, d: "Domain") -> Value:
        """The domain's token for a following serial step (closes an open group of parallel loads)."""
        st = self._state(d)
        self._close(st)
        return self.b.current(st.token)

    def mem_final(self, d: "Domain") -> Value:
        return self.mem_take(d)

    def access(
        self, d: "Domain", is_load: bool, rar: bool, loc: Location, issue: Callable[[Value], Value]
    ) -> None:
        """Wire one access: ``issue(ctrl)`` builds it and returns its done token."""
        st = self._state(d)
        if is_load and rar:
            if st.group_entry is None:
                st.group_entry, st.group_loc = self.b.current(st.token), loc
            st.group_dones.append(issue(st.group_entry))
            return
        self._close(st)
        st.token = issue(self.b.current(st.token))


class FuncScope(Scope):
    """The function body: control is the start token; every domain starts from it."""

    def __init__(self, b: "DfgBuilder", start: Value, loc: Location) -> None:
        super().__init__(b, None, loc)
        self._ctrl = start

    def transport(self, parent_value: Value, name: str) -> Value:  # pragma: no cover - never called
        raise AssertionError("the function scope has no parent")

    def _initial_state(self, d: "Domain") -> DomainState:
        assert self._ctrl is not None
        return DomainState(self._ctrl)


class BranchScope(Scope):
    """One side of a two-way branch (scf.if, loop guard): values enter through a shared cond_br."""

    def __init__(
        self, b: "DfgBuilder", parent: Scope, cond: Value, side: bool, shared: dict, loc: Location
    ) -> None:
        super().__init__(b, parent, loc)
        self.cond = cond
        self.side = side
        self.shared = shared  # id(parent value) -> (true, false), shared by both sides

    def transport(self, parent_value: Value, name: str) -> Value:
        pair = self.shared.get(parent_value)
        if pair is None:
            pair = self.b.cond_br(self.cond, parent_value, self.loc, name)
            self.shared[parent_value] = pair
        return pair[0] if self.side else pair[1]


class ForBodyScope(Scope):
    """The body of a loop known to run at least once: values replay through invariant(after_cond)."""

    def __init__(self, b: "DfgBuilder", parent: Scope, after_cond: Value, loc: Location) -> None:
        super().__init__(b, parent, loc)
        self.after_cond = after_cond

    def transport(self, parent_value: Value, name: str) -> Value:
        return self.b.invariant(self.after_cond, parent_value, self.loc, f"{name}_inv")


class WhileFrameScope(Scope):
    """An scf.while before region (runs N+1 times): values replay through invariant(raw_cond)."""

    def __init__(self, b: "DfgBuilder", parent: Scope, raw_cond: "Forward", loc: Location) -> None:
        super().__init__(b, parent, loc)
        self.raw_cond = raw_cond

    def transport(self, parent_value: Value, name: str) -> Value:
        return self.b.invariant(self.raw_cond.get(), parent_value, self.loc, f"{name}_w")


class WhileAfterScope(Scope):
    """An scf.while after region (runs N times): the true side of cond_br(raw_cond, frame value)."""

    def __init__(self, b: "DfgBuilder", parent: WhileFrameScope, raw_cond: Value, loc: Location) -> None:
        super().__init__(b, parent, loc)
        self.raw_cond = raw_cond

    def transport(self, parent_value: Value, name: str) -> Value:
        return self.b.cond_br(self.raw_cond, parent_value, self.loc, f"{name}_do")[0]
