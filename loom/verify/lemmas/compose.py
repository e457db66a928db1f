"""Series composition of two operator tables through one i1 channel, so that an idiom is proved to be an operator.

CIRCT writes loop state as a small network (``buffer [1] {initValues = [0]}`` feeding a mux's select)
where loom has one operator (``dataflow.carry``). ``series`` builds the table of such a network from the
tables of its parts (``loom.semantics``), and the operator's contract is then proved of that table with
the ordinary lemma engine (``loom.verify.lemmas.induction``): the recognition is a theorem, not a guess.

The link between producer and consumer is a one-place channel whose content (empty, 0 or 1) is part of
the composite's control state. Both parts are deterministic Kahn processes, so a one-place link computes
the same output streams as an unbounded one: the consumer reads its select only while its data is
available, and a full link only holds the producer back from reading further ahead (see
specs/verification-lengths.md, "CIRCT loop idioms"). A producer state whose only rule reads nothing and
puts a constant on the link (a buffer's initial token) is fired as part of the initial state: it is
internal and always enabled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Optional

from loom.ir.types import IntegerType
from loom.semantics.expr import Apply, Const, Expr, In, ports_read, registers_read
from loom.semantics.functions import evaluate
from loom.semantics.machine import Machine, Port, Rule

LinkState = Optional[int]  # None: the link is empty; 0/1: it holds that i1 token


@dataclass(frozen=True)
class Link:
    """Which producer output feeds which consumer input, and the external port names of the composite."""

    out_port: str
    in_port: str
    rename: Mapping[tuple[str, str], str]  # ("p" | "c", port) -> composite port name


def _sub(e: Expr, side: str, link: Link, value: LinkState) -> Expr:
    """``e`` of one side, with ports renamed and the consumer's link port replaced by the link's token."""
    if isinstance(e, In):
        if side == "c" and e.port == link.in_port:
            assert value is not None
            return Const(value)
        return In(link.rename[(side, e.port)])
    if isinstance(e, Apply):
        return Apply(e.fn, tuple(_sub(a, side, link, value) for a in e.args), e.param)
    return e


def _fold(guard: Optional[Expr]) -> "Optional[Expr] | bool":
    """A guard that reads nothing is decided now (True/False); otherwise it stays."""
    if guard is None:
        return None
    if ports_read(guard) or registers_read(guard):
        return guard
    return bool(evaluate(guard, {}, {}))


def _name(ps: str, link: LinkState, cs: str) -> str:
    return f"{ps}|{'-' if link is None else link}|{cs}"


def _eager_prime(p: Machine, state: str, link: Link) -> Optional[tuple[str, int]]:
    """The constant a state puts on the link by itself (its only rule reads nothing), with the next state."""
    rules = p.rules_in(state)
    if len(rules) != 1:
        return None
    r = rules[0]
    if r.reads or r.guard is not None or r.updates or r.effect is not None or len(r.emits) != 1:
        return None
    port, e = r.emits[0]
    if port != link.out_port or not isinstance(e, Const) or e.value not in (0, 1):
        return None
    return r.next, int(e.value)


def series(p: Machine, c: Machine, link: Link, op_name: str, summary: str = "") -> Machine:
    """The table of ``p`` whose ``link.out_port`` feeds ``c``'s ``link.in_port`` (an i1 one-place channel).

    Raises ``ValueError`` for parts this construction does not cover (registers, memory, effects other
    than a runtime error, a non-i1 link, a link value that is neither a constant nor a read i1 port)."""
    _check_composable(p, c, link)
    ps, lk, cs = p.initial, None, c.initial
    prime = _eager_prime(p, ps, link)
    if prime is not None:
        ps, lk = prime
    initial = _name(ps, lk, cs)
    rules: list[Rule] = []
    states: list[str] = []
    todo = [(ps, lk, cs)]
    seen = {(ps, lk, cs)}
    while todo:
        ps, lk, cs = todo.pop(0)
        here = _name(ps, lk, cs)
        states.append(here)
        found = _producer_moves(p, link, here, ps, lk, cs) + _consumer_moves(c, link, here, ps, lk, cs)
        for r, nxt in found:
            nxt_name = _name(*nxt)
            rules.append(Rule(r.name, r.state, r.reads, nxt_name, r.guard, r.emits, r.updates, r.effect))
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    ins: list[Port] = [Port(link.rename[("p", x.name)], x.type, x.kind) for x in p.inputs]
    ins += [Port(link.rename[("c", x.name)], x.type, x.kind) for x in c.inputs if x.name != link.in_port]
    outs = [Port(link.rename[("p", x.name)], x.type) for x in p.outputs if x.name != link.out_port]
    outs += [Port(link.rename[("c", x.name)], x.type) for x in c.outputs]
    residual = frozenset(s for s in states if s != initial)
    m = Machine(op_name, tuple(ins), tuple(outs), tuple(states), initial, tuple(rules),
                residual_states=residual, choice="independent", summary=summary)
    m.check()
    return m


def _check_composable(p: Machine, c: Machine, link: Link) -> None:
    """ValueError unless the link is an i1 channel and neither table has registers, memory, sources or effects
    other than a runtime error."""
    lt = p.output(link.out_port).type
    if not (isinstance(lt, IntegerType) and lt.width == 1) or c.input(link.in_port).type != lt:
        raise ValueError("the link must be an i1 channel")
    for m in (p, c):
        if m.registers or m.memory is not None or m.sources:
            raise ValueError(f"{m.op_name}: registers, memory or sources are not composed")
        if any(r.effect is not None and type(r.effect).__name__ != "Fail" for r in m.rules):
            raise ValueError(f"{m.op_name}: effects other than a runtime error are not composed")


def _producer_moves(p: Machine, link: Link, here: str, ps: str, lk: LinkState,
                    cs: str) -> list[tuple[Rule, tuple[str, LinkState, str]]]:
    """The producer's rules in composed state ``here`` with their next (producer, link, consumer) states: one
    that emits on the link waits while it is full, and puts its constant (or each value of a read i1) on it."""
    found: list[tuple[Rule, tuple[str, LinkState, str]]] = []
    for r in p.rules_in(ps):
        reads = tuple(link.rename[("p", x)] for x in r.reads)
        outs = tuple((link.rename[("p", q)], _sub(e, "p", link, None)) for q, e in r.emits if q != link.out_port)
        on_link = [e for q, e in r.emits if q == link.out_port]
        guard = None if r.guard is None else _sub(r.guard, "p", link, None)
        if not on_link:
            found.append((Rule(f"p.{r.name}", here, reads, "", guard, outs, (), r.effect), (r.next, lk, cs)))
            continue
        if lk is not None:
            continue  # the link is full: the producer waits
        e = on_link[0]
        if isinstance(e, Const) and e.value in (0, 1):
            found.append((Rule(f"p.{r.name}", here, reads, "", guard, outs, (), r.effect),
                          (r.next, int(e.value), cs)))
        elif isinstance(e, In) and e.port in r.reads and guard is None:
            src = In(link.rename[("p", e.port)])
            for v in (0, 1):
                g = Apply("eq", (src, Const(v)))
                found.append((Rule(f"p.{r.name}.{v}", here, reads, "", g, outs, (), r.effect), (r.next, v, cs)))
        else:
            raise ValueError(f"{p.op_name}.{r.name}: the link value is neither a constant nor a read i1 port")
    return found


def _consumer_moves(c: Machine, link: Link, here: str, ps: str, lk: LinkState,
                    cs: str) -> list[tuple[Rule, tuple[str, LinkState, str]]]:
    """The consumer's rules in composed state ``here`` with their next states: one that reads the link waits
    for a value on it and takes it (its guard folded with the value; a rule whose guard folds to false drops)."""
    found: list[tuple[Rule, tuple[str, LinkState, str]]] = []
    for r in c.rules_in(cs):
        uses = link.in_port in r.reads
        if uses and lk is None:
            continue  # nothing on the link yet
        reads = tuple(link.rename[("c", x)] for x in r.reads if x != link.in_port)
        guard = _fold(None if r.guard is None else _sub(r.guard, "c", link, lk if uses else None))
        if guard is False:
            continue
        outs = tuple((link.rename[("c", q)], _sub(e, "c", link, lk if uses else None)) for q, e in r.emits)
        nxt = (ps, None if uses else lk, r.next)
        found.append((Rule(f"c.{r.name}", here, reads, "", None if guard is True else guard, outs, (), r.effect),
                      nxt))
    return found


__all__ = ["Link", "series"]
