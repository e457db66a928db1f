"""``describe(machine)``: a plain-text rendering of a table for docs and reports."""

from __future__ import annotations

from loom.semantics.expr import format_expr
from loom.semantics.machine import Complete, Fail, Machine, Rule, Write


def _rule_line(r: Rule) -> str:
    parts = [f"[{r.state}] {r.name}:"]
    parts.append("read " + ", ".join(r.reads) if r.reads else "read nothing")
    if r.guard is not None:
        parts.append("when " + format_expr(r.guard))
    acts = [f"{p} <- {format_expr(e)}" for p, e in r.emits]
    acts += [f"${n} := {format_expr(e)}" for n, e in r.updates]
    if isinstance(r.effect, Write):
        addr = ", ".join(format_expr(a) for a in r.effect.address)
        acts.append(f"mem[{addr}] := {format_expr(r.effect.data)}")
    elif isinstance(r.effect, Fail):
        acts.append(f"error {r.effect.code}")
    elif isinstance(r.effect, Complete):
        acts.append("complete(" + ", ".join(format_expr(v) for v in r.effect.values) + ")")
    parts.append("=> " + ("; ".join(acts) if acts else "nothing"))
    parts.append(f"-> {r.next}")
    return "  " + " ".join(parts)


def describe(m: Machine) -> str:
    """Multi-line description: ports, registers, states, sources and one line per rule."""
    lines = [m.op_name + (f"  -- {m.summary}" if m.summary else "")]
    ins = ", ".join(f"{p.name}: {p.type}" + (" (memory)" if p.kind == "memref" else "") for p in m.inputs)
    outs = ", ".join(f"{p.name}: {p.type}" for p in m.outputs)
    lines.append(f"  inputs: {ins or '-'}")
    lines.append(f"  outputs: {outs or '-'}")
    if m.registers:
        lines.append("  registers: " + ", ".join(f"${r.name}: {r.type}" for r in m.registers))
    states = " ".join(s + ("*" if s == m.initial else "") for s in m.states)
    resid = f"  (residual in: {', '.join(sorted(m.residual_states))})" if m.residual_states else ""
    lines.append(f"  states: {states}{resid}")
    if m.choice != "exclusive":
        lines.append(f"  choice: {m.choice}")
    if m.memory is not None:
        src = m.memory.source + (f" @{m.memory.global_name}" if m.memory.global_name else "")
        lines.append(f"  memory: {m.memory.type} ({src})")
    for port, e in m.sources:
        lines.append(f"  source: {port} <- {format_expr(e)} forever")
    lines += [_rule_line(r) for r in m.rules]
    return "\n".join(lines)
