"""Mutation engine for DFGs: small structural faults, each giving a valid (printable, parsable, typed) handshake.func.

The operators are the classic ways a lowering goes wrong (issue 4's list):
body-local invariants or memory carries moved to the raw condition, loop
boundary carries moved to after_cond, ctrl-done edges dropped/re-pointed,
two accesses swapped, cross-domain joins, swapped cond_br exits and mux inputs,
fork outputs dropped or duplicated, gates removed, stream conditions changed,
branch conditions forced. ``mutants(module, func_name)`` yields one ``Mutant``
per (operator, site); every mutant is printed and re-parsed, so what the
verifier and the simulator see is exactly what a user's file would give.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterator, Optional, Sequence

from loom.ir.attributes import BoolAttr, StringAttr
from loom.ir.core import Block, Module, Operation, OpResult, Value
from loom.ir.types import IntegerType, NoneType, i1, none
from loom.semantics import machine_for


@dataclass
class Site:
    """Where one mutation applies: op indices into the function body plus operator-specific data."""

    ops: tuple[int, ...]
    data: tuple = ()


@dataclass
class Mutant:
    """One mutated copy of a function: its module (re-parsed), the function and what was changed."""

    operator: str
    site: str
    module: Module
    func: Operation


@dataclass(frozen=True)
class Operator:
    """A mutation operator: ``sites`` lists where it applies, ``apply`` mutates a body in place."""

    name: str
    description: str
    sites: Callable[["Body"], list[Site]]
    apply: Callable[["Body", Site], str]


class Body:
    """A handshake.func body with the lookups the operators need (uses, gates, accesses, domains)."""

    def __init__(self, func: Operation, names: dict[Value, str]) -> None:
        self.func = func
        self.block: Block = func.regions[0].entry
        self.names = names
        self.ops = list(self.block.ops)
        self.uses: dict[Value, list[tuple[Operation, int]]] = {}
        for op in self.ops:
            for i, v in enumerate(op.operands):
                self.uses.setdefault(v, []).append((op, i))
        self.gate_of_raw: dict[Value, Operation] = {}
        self.gate_of_after: dict[Value, Operation] = {}
        for op in self.ops:
            if op.name == "dataflow.gate":
                self.gate_of_raw.setdefault(op.operands[1], op)
                self.gate_of_after[op.results[1]] = op
        self.done_of: dict[Operation, Value] = {}
        self.domain_of: dict[Operation, Operation] = {}
        self._map_accesses()

    def name(self, v: Value) -> str:
        return self.names.get(v, "%?")

    def _map_accesses(self) -> None:
        """Each load/store -> its done token and memory interface, via the interface's port table."""
        for mem in self.ops:
            if mem.name not in ("handshake.memory", "handshake.extmemory"):
                continue
            m = machine_for(mem)
            outs = {p.name: k for k, p in enumerate(m.outputs)}
            for i, v in enumerate(mem.operands):
                port = m.inputs[i]
                if port.kind != "token" or not isinstance(v, OpResult):
                    continue
                acc = v.op
                if acc.name not in ("handshake.load", "handshake.store"):
                    continue
                kind, _, field = port.name.partition(".")
                if field not in ("data", "addr0") or (kind.startswith("ld") and field != "addr0"):
                    continue
                done = outs.get(f"{kind}.done")
                if done is not None:
                    self.done_of[acc] = mem.results[done]
                    self.domain_of[acc] = mem

    def index(self, op: Operation) -> int:
        return self.ops.index(op)

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        op.loc = anchor.loc
        self.block.insert(self.block.ops.index(anchor), op)
        return op

    def accesses(self) -> list[Operation]:
        return [op for op in self.ops if op in self.done_of]

    def replace_use(self, op: Operation, i: int, new: Value) -> None:
        op.operands[i] = new


# ---------------------------------------------------------------------------- helpers
def _ctrl(acc: Operation) -> Value:
    return acc.operands[-1]


def _spread(sites: list[Site], limit: Optional[int]) -> list[Site]:
    """At most ``limit`` sites, spread evenly over the list (deterministic)."""
    if limit is None or len(sites) <= limit:
        return sites
    if limit == 1:
        return [sites[0]]
    step = (len(sites) - 1) / (limit - 1)
    return [sites[round(k * step)] for k in range(limit)]


def _const_true(body: Body, anchor: Operation, like: Value) -> Value:
    """A fresh i1 ``true`` carrying one token per token of ``like`` (join -> constant)."""
    j = Operation.create("handshake.join", [like], [none], result_names=["mut_tick"])
    body.insert_before(anchor, j)
    k = Operation.create("handshake.constant", [j.results[0]], [i1], {"value": BoolAttr(True)},
                         result_names=["mut_true"])
    body.insert_before(anchor, k)
    return k.results[0]


# ---------------------------------------------------------------------------- operators
def _body_invariants(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops
            if op.name == "dataflow.invariant" and op.operands[0] in b.gate_of_after]


def _inv_to_raw(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    gate = b.gate_of_after[op.operands[0]]
    op.operands[0] = gate.operands[1]
    return f"{b.name(op.results[0])}: d {b.name(gate.results[1])} -> {b.name(gate.operands[1])}"


def _memory_carries(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops
            if op.name == "dataflow.carry" and isinstance(op.results[0].type, NoneType)
            and op.operands[0] in b.gate_of_after]


def _boundary_carries(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops
            if op.name == "dataflow.carry" and op.operands[0] in b.gate_of_raw]


def _carry_to_after(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    gate = b.gate_of_raw[op.operands[0]]
    op.operands[0] = gate.results[1]
    return f"{b.name(op.results[0])}: d {b.name(gate.operands[1])} -> {b.name(gate.results[1])}"


def _done_edges(b: Body) -> list[Site]:
    out = []
    for acc in b.accesses():
        done = b.done_of[acc]
        for user, i in b.uses.get(done, []):
            if user is not acc:
                out.append(Site((b.index(acc), b.index(user)), (i,)))
    return out


def _done_drop(b: Body, s: Site) -> str:
    acc, user = b.ops[s.ops[0]], b.ops[s.ops[1]]
    i = s.data[0]
    b.replace_use(user, i, _ctrl(acc))
    return (f"{user.name} {b.name(user.results[0]) if user.results else ''} waits for "
            f"{b.name(_ctrl(acc))} instead of the done token {b.name(b.done_of[acc])} of {acc.name}")


def _done_repoint_sites(b: Body) -> list[Site]:
    accs = b.accesses()
    out = []
    for s in _done_edges(b):
        acc = b.ops[s.ops[0]]
        others = [a for a in accs if a is not acc and b.domain_of[a] is b.domain_of[acc]] or \
                 [a for a in accs if a is not acc]
        if others:
            out.append(Site(s.ops, s.data + (b.index(others[0]),)))
    return out


def _done_repoint(b: Body, s: Site) -> str:
    acc, user = b.ops[s.ops[0]], b.ops[s.ops[1]]
    i, other = s.data[0], b.ops[s.data[1]]
    b.replace_use(user, i, b.done_of[other])
    return (f"{user.name} {b.name(user.results[0]) if user.results else ''} waits for {b.name(b.done_of[other])} "
            f"instead of {b.name(b.done_of[acc])}")


def _adjacent_accesses(b: Body) -> list[Site]:
    out = []
    for x in b.accesses():
        for y, i in b.uses.get(b.done_of[x], []):
            if y in b.done_of and i == len(y.operands) - 1 and b.domain_of[y] is b.domain_of[x]:
                out.append(Site((b.index(x), b.index(y))))
    return out


def _swap_accesses(b: Body, s: Site) -> str:
    x, y = b.ops[s.ops[0]], b.ops[s.ops[1]]
    dx, dy = b.done_of[x], b.done_of[y]
    cx = _ctrl(x)
    for user, i in list(b.uses.get(dy, [])):
        if user is not x:
            b.replace_use(user, i, dx)
    y.operands[-1] = cx
    x.operands[-1] = dy
    return f"{y.name} {b.name(y.results[0])} now runs before {x.name} {b.name(x.results[0])}"


def _cross_domain(b: Body) -> list[Site]:
    accs = b.accesses()
    out = []
    for k, y in enumerate(accs):
        prior = [a for a in reversed(accs[:k]) if b.domain_of[a] is not b.domain_of[y]]
        if prior:
            out.append(Site((b.index(y), b.index(prior[0]))))
    return out


def _add_cross_join(b: Body, s: Site) -> str:
    y, a = b.ops[s.ops[0]], b.ops[s.ops[1]]
    j = Operation.create("handshake.join", [_ctrl(y), b.done_of[a]], [none], result_names=["mut_xjoin"])
    b.insert_before(y, j)
    y.operands[-1] = j.results[0]
    return f"{y.name} {b.name(y.results[0])} also waits for {b.name(b.done_of[a])} of another memory"


def _cond_brs(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops if op.name == "handshake.cond_br"]


def _swap_exits(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    t, f = op.results
    for user, i in b.uses.get(t, []):
        b.replace_use(user, i, f)
    for user, i in b.uses.get(f, []):
        b.replace_use(user, i, t)
    return f"cond_br {b.name(t)}/{b.name(f)}: exits swapped"


def _fork_uses(b: Body) -> list[Site]:
    out = []
    for v, uses in b.uses.items():
        if len(uses) < 2:
            continue
        op, i = uses[-1]
        if op.name == "handshake.sink":
            op, i = uses[0]
        out.append(Site((b.index(op),), (i,)))
    return out


def _fork_drop(b: Body, s: Site) -> str:
    op, i = b.ops[s.ops[0]], s.data[0]
    v = op.operands[i]
    k = _const_true(b, op, v)
    br = Operation.create("handshake.cond_br", [k, v], [v.type, v.type], result_names=["mut_kept", "mut_dropped"])
    b.insert_before(op, br)
    sink = Operation.create("handshake.sink", [br.results[0]], [])
    b.insert_before(op, sink)
    op.operands[i] = br.results[1]
    return f"fork output of {b.name(v)} into {op.name} dropped"


def _fork_dup(b: Body, s: Site) -> str:
    op, i = b.ops[s.ops[0]], s.data[0]
    v = op.operands[i]
    m = Operation.create("handshake.merge", [v, v], [v.type], result_names=["mut_dup"])
    b.insert_before(op, m)
    op.operands[i] = m.results[0]
    return f"fork output of {b.name(v)} into {op.name} duplicated"


def _muxes(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops if op.name == "handshake.mux" and len(op.operands) == 3]


def _swap_mux(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    op.operands[1], op.operands[2] = op.operands[2], op.operands[1]
    return f"mux {b.name(op.results[0])}: inputs swapped"


def _gates(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops if op.name == "dataflow.gate"]


def _remove_gate(b: Body, s: Site) -> str:
    g = b.ops[s.ops[0]]
    for r, src in zip(g.results, g.operands):
        for user, i in b.uses.get(r, []):
            b.replace_use(user, i, src)
    b.block.remove(g)
    return f"gate {b.name(g.results[1])} removed (body reads the raw streams)"


_NEXT_COND = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "!=": "<="}


def _streams(b: Body) -> list[Site]:
    return [Site((b.index(op),)) for op in b.ops if op.name == "dataflow.stream"]


def _change_cont(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    a = op.attributes.get("cont_cond")
    old = a.value if isinstance(a, StringAttr) else "<"
    new = _NEXT_COND.get(old, "<")
    op.attributes["cont_cond"] = StringAttr(new)
    return f"stream {b.name(op.results[1])}: cont_cond {old!r} -> {new!r}"


def _branch_conds(b: Body) -> list[Site]:
    out = []
    seen: set[int] = set()
    for op in b.ops:
        if op.name in ("handshake.cond_br", "handshake.mux") and isinstance(op.operands[0].type, IntegerType) \
                and op.operands[0].type.width == 1:
            c = op.operands[0]
            if id(c) in seen or c in b.gate_of_raw or c in b.gate_of_after:
                continue
            if any(u.name == "dataflow.gate" or u.name.startswith("dataflow.") for u, _ in b.uses.get(c, [])):
                continue  # loop conditions belong to the loop operators above
            seen.add(id(c))
            out.append(Site((b.index(op),)))
    return out


def _force_true(b: Body, s: Site) -> str:
    op = b.ops[s.ops[0]]
    c = op.operands[0]
    k = _const_true(b, op, c)
    for user, i in b.uses.get(c, []):
        b.replace_use(user, i, k)
    return f"branch condition {b.name(c)} forced to true"


OPERATORS: tuple[Operator, ...] = (
    Operator("inv_after_to_raw", "body-local invariant reads the raw condition instead of after_cond",
             _body_invariants, _inv_to_raw),
    Operator("memcarry_after_to_raw", "memory carry reads the raw condition instead of after_cond",
             _memory_carries, _inv_to_raw),
    Operator("carry_raw_to_after", "loop-boundary carry reads after_cond instead of the raw condition",
             _boundary_carries, _carry_to_after),
    Operator("done_drop", "a ctrl-done edge dropped: the successor waits for the access's ctrl, not its done",
             _done_edges, _done_drop),
    Operator("done_repoint", "a ctrl-done edge re-pointed to another access's done token",
             _done_repoint_sites, _done_repoint),
    Operator("access_swap", "two consecutive accesses of one memory swapped in the ctrl-done chain",
             _adjacent_accesses, _swap_accesses),
    Operator("cross_domain_join", "an access also waits for a done token of another memory",
             _cross_domain, _add_cross_join),
    Operator("cond_br_swap", "a cond_br's true and false exits swapped", _cond_brs, _swap_exits),
    Operator("fork_drop", "one fork output never delivers its token", _fork_uses, _fork_drop),
    Operator("fork_dup", "one fork output delivers every token twice", _fork_uses, _fork_dup),
    Operator("mux_swap", "a mux's data inputs swapped", _muxes, _swap_mux),
    Operator("gate_remove", "a gate removed: its consumers read the raw streams", _gates, _remove_gate),
    Operator("stream_cont_cond", "a stream's cont_cond changed", _streams, _change_cont),
    Operator("branch_force_true", "an if/guard condition replaced by constant true", _branch_conds, _force_true),
)

BY_NAME = {o.name: o for o in OPERATORS}


# ---------------------------------------------------------------------------- driver
def _function(module: Module, name: str) -> Operation:
    for f in module.functions():
        if f.name == "handshake.func" and f.attributes["sym_name"].value == name:  # type: ignore[union-attr]
            return f
    raise KeyError(name)


def mutants(module: Module, func_name: str, operators: Sequence[Operator] = OPERATORS,
            per_operator: Optional[int] = None) -> Iterator[Mutant]:
    """Every mutant of handshake.func ``func_name`` in ``module`` (at most ``per_operator`` sites per operator).

    The source module is never modified: each mutant starts from a fresh parse of its printed text, and
    the mutated module is printed and parsed again (so it is valid MLIR that loom reads back).
    """
    from loom.mlir import parse_text, print_module, value_names

    text = print_module(module, debuginfo=True)  # mutants keep the source locations
    fname = module.filename
    base = _function(parse_text(text, fname), func_name)
    base_body = Body(base, value_names(base))
    for op_ in operators:
        for site in _spread(op_.sites(base_body), per_operator):
            copy = parse_text(text, fname)
            f = _function(copy, func_name)
            desc = op_.apply(Body(f, value_names(f)), site)
            out = print_module(copy)
            reparsed = parse_text(out, f"{fname}:{op_.name}")
            rf = _function(reparsed, func_name)
            for o in rf.regions[0].entry.ops:
                machine_for(o)  # every op still has token semantics (types line up)
            yield Mutant(op_.name, desc, reparsed, rf)


__all__ = ["BY_NAME", "Mutant", "OPERATORS", "Operator", "mutants"]
