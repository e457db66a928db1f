"""Control slicing: which values and registers can reach a guard (the only data the explorer computes)."""

from __future__ import annotations

from typing import Optional

from loom.ir.core import BlockArgument, Operation, Value
from loom.semantics.build import Machines
from loom.semantics.expr import Apply, Expr, ports_read, registers_read
from loom.semantics.functions import MEMORY_READ
from loom.semantics.machine import Machine


def _reg_deps(m: Machine) -> dict[str, set[str]]:
    """Input ports each register (transitively) depends on."""
    deps: dict[str, set[str]] = {r.name: set() for r in m.registers}
    changed = True
    while changed:
        changed = False
        for rule in m.rules:
            for r, e in rule.updates:
                new = set(ports_read(e))
                for q in registers_read(e):
                    new |= deps[q]
                if not new <= deps[r]:
                    deps[r] |= new
                    changed = True
    return deps


def relevant_registers(m: Machine, outputs: set[str]) -> set[str]:
    """Registers whose value can reach a guard or one of ``outputs`` (directly or through other registers);
    the others only carry data nothing observes, so the explorer does not compute them."""
    need: set[str] = set()
    for rule in m.rules:
        if rule.guard is not None:
            need |= set(registers_read(rule.guard))
        for p, e in rule.emits:
            if p in outputs:
                need |= set(registers_read(e))
    changed = True
    while changed:
        changed = False
        for rule in m.rules:
            for r, e in rule.updates:
                if r in need and not set(registers_read(e)) <= need:
                    need |= set(registers_read(e))
                    changed = True
    return need


def _expr_ports(e: Expr, deps: dict[str, set[str]]) -> set[str]:
    """The input ports ``e`` depends on, through the registers it reads."""
    out = set(ports_read(e))
    for r in registers_read(e):
        out |= deps[r]
    return out


def havoc_read(e: Expr) -> bool:
    """Memory contents are abstracted: a loaded value is unconstrained."""
    return isinstance(e, Apply) and (e.fn == MEMORY_READ or any(havoc_read(a) for a in e.args))


def control_values(func: Operation, machines: Optional[dict] = None) -> set[Value]:
    """Values whose tokens can influence a guard (backward closure through the tables' data flow)."""
    body = func.regions[0].entry
    if machines is None:
        tables = Machines()
        machines = {op: tables(op) for op in body.ops}
    guard_in: dict[Operation, set[int]] = {}
    flow: dict[Operation, dict[int, set[int]]] = {}
    for op, m in machines.items():
        deps = _reg_deps(m)
        idx = {p.name: i for i, p in enumerate(m.inputs)}
        outs = {p.name: i for i, p in enumerate(m.outputs)}
        g: set[int] = set()
        f: dict[int, set[int]] = {i: set() for i in range(len(m.outputs))}
        for rule in m.rules:
            if rule.guard is not None:
                g |= {idx[p] for p in _expr_ports(rule.guard, deps)}
            for p, e in rule.emits:
                if not havoc_read(e):
                    f[outs[p]] |= {idx[q] for q in _expr_ports(e, deps)}
        guard_in[op] = g
        flow[op] = f
    relevant: set[Value] = set()
    work: list[Value] = []

    def mark(v: Value) -> None:
        if v not in relevant:
            relevant.add(v)
            work.append(v)

    for op in body.ops:
        for i in guard_in[op]:
            mark(op.operands[i])
    while work:
        v = work.pop()
        if isinstance(v, BlockArgument):
            continue
        op = v.op
        if op not in flow:
            continue
        for i in flow[op].get(v.index, ()):
            mark(op.operands[i])
    return relevant
