"""CIRCT loop idioms the length calculus types as loom operators, each recognition backed by a lemma proof.

A *primed select* is CIRCT's loop state: ``%s = buffer [1] seq %c {initValues = [0]} : i1``, copied through
forks to the select of i1 muxes ``mux %s [%entry, %back]``. The buffer puts a 0 in front of the condition
stream, so each mux takes ``entry`` first and then ``back`` for each true ``c``, and ``entry`` again after
each false: token for token, ``dataflow.carry(c, entry, back)``. That is not assumed: the table of
"buffer -> mux" (``loom.verify.lemmas.compose.series``, built from the two ops' own tables) is proved to
satisfy the carry contract (``carry_contract``, 1-induction; a counterexample otherwise). Only a proved
composite is typed as a carry; any other primed buffer (other initial values, more slots, a non-mux
consumer) stays untyped, with the lemma's verdict as the reason.

A *cmerge loop* is CIRCT's loop header (SCF-to-handshake output): a ``control_merge`` with one entry and one
or more back edges, each sent back from the true output of the loop's ``cond_br %c, <its own output>``
(split further by the body's last branches). With at most one entry token per run (the calculus checks
its clock has no loop level) no back token exists before the merge's first output and no entry token
after it, so the merge takes the entry, then one back token per true ``c``: ``dataflow.carry(c, entry,
back)``; its index muxes take their entry input first and then input k exactly when back edge k fed the
merge.

A *token ring* is a buffer primed with one token, read by one-firing ops (join, sync) and re-armed by
their output: with its consumer firing at most once per run (checked) it is typed on that firing's clock,
and its input must return one token per firing. See specs/verification-lengths.md, section 2.1.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Optional

from loom.ir.core import OpResult, Operation, Value
from loom.ir.types import IntegerType
from loom.semantics import describe, machine_for
from loom.semantics.handshake_ops import copied_value, is_copy
from loom.semantics.machine import Machine
from loom.verify.lemmas.compose import Link, series
from loom.verify.lemmas.contracts import carry_contract
from loom.verify.lemmas.induction import ProofResult, prove
from loom.verify.obligation import DEFAULT_RLIMIT

CARRY_PORTS = {("p", "in"): "d", ("c", "data0"): "a", ("c", "data1"): "b", ("c", "out"): "o"}
LINK = Link("out", "select", CARRY_PORTS)


@dataclass
class PrimedSelect:
    """A primed i1 buffer whose every (copied) use is the select of a two-way i1 mux."""

    buffer: Operation
    copies: list[Operation]  # forks/br/plain buffers between the buffer and the muxes
    muxes: list[Operation]
    proof: Optional[ProofResult] = None  # the composite's carry lemma (None: not attempted)
    why: str = ""  # why it is not typed as a carry (empty when it is)

    @property
    def proved(self) -> bool:
        return self.proof is not None and self.proof.status == "proved"


def _i1(t: object) -> bool:
    return isinstance(t, IntegerType) and t.width == 1


Uses = dict[int, list[tuple[Operation, int]]]  # id of a value -> (op, operand index) of each of its uses


def operand_uses(ops: list[Operation]) -> Uses:
    """Every use of every value ``ops`` read (the finders below share one: a large DFG has ~10^5 operands)."""
    out: dict[int, list[tuple[Operation, int]]] = {}
    for op in ops:
        for i, v in enumerate(op.operands):
            out.setdefault(id(v), []).append((op, i))
    return out


def _select_fanout(start: Value, uses: dict[int, list[tuple[Operation, int]]], ways: int, copies: list[Operation],
                   muxes: list[Operation], sinks: bool) -> Optional[tuple[Operation, int]]:
    """Follow ``start`` through copies (appended to ``copies``) to the selects of ``ways``-input muxes (appended to
    ``muxes``), sinks too when ``sinks``; the first other use (op, operand index) stops the walk and is returned."""
    todo: list[Value] = [start]
    while todo:
        v = todo.pop(0)
        for user, i in uses.get(id(v), []):
            if is_copy(user) and i == 0:
                copies.append(user)
                todo.extend(user.results)
            elif user.name == "handshake.mux" and i == 0 and len(user.operands) == ways + 1:
                muxes.append(user)
            elif not (sinks and user.name == "handshake.sink"):
                return user, i
    return None


def find_primed_selects(ops: list[Operation], uses: Optional[Uses] = None) -> list[PrimedSelect]:
    """Every primed i1 buffer of ``ops`` whose result reaches, through copies only, the selects of two-way
    i1 muxes and nothing else. Those that fail the shape are returned with ``why`` set. ``uses``: the
    ``operand_uses`` of ``ops`` (computed when None)."""
    uses = operand_uses(ops) if uses is None else uses
    found: list[PrimedSelect] = []
    for op in ops:
        if op.name != "handshake.buffer" or "initValues" not in op.attributes or len(op.results) != 1:
            continue
        if not _i1(op.results[0].type):
            continue
        ps = PrimedSelect(op, [], [])
        other = _select_fanout(op.results[0], uses, 2, ps.copies, ps.muxes, sinks=False)
        if other is not None:
            ps.why = (f"the primed buffer's token reaches {other[0].name} (operand {other[1]}), not only the select "
                      "of two-way muxes")
        if not ps.why and not ps.muxes:
            ps.why = "the primed buffer feeds no mux"
        found.append(ps)
    return found


def composite(buffer: Machine, mux: Machine) -> Machine:
    """The table of ``buffer`` feeding ``mux``'s select, with ports named as a carry's (d, a, b -> o)."""
    return series(buffer, mux, LINK, "idiom.primed_select",
                  summary="primed i1 buffer feeding a two-way mux's select")


def prove_carry(ps: PrimedSelect, timeout: Optional[float], cache: dict[str, ProofResult],
                rlimit: Optional[int] = DEFAULT_RLIMIT) -> None:
    """Prove (or refute) that each buffer -> mux composite of ``ps`` satisfies the carry contract (each check
    within ``rlimit`` resource units and, when given, the proof within ``timeout`` seconds)."""
    if ps.why:
        return
    bm = machine_for(ps.buffer)
    for mux in ps.muxes:
        try:
            m = composite(bm, machine_for(mux))
        except ValueError as e:
            ps.why = f"the buffer and mux tables do not compose: {e}"
            return
        key = describe(m)
        r = cache.get(key)
        if r is None:
            name = "P" + hashlib.sha1(key.encode()).hexdigest()[:10]
            r = cache[key] = prove(m, carry_contract(m), name, timeout=timeout, use_spacer=False, rlimit=rlimit)
        ps.proof = r
        if r.status != "proved":
            ps.why = f"buffer -> mux is not a dataflow.carry ({r.status}: {r.method}: {r.detail})"
            return


@dataclass
class CmergeLoop:
    """CIRCT's loop header: ``%ctl, %idx = control_merge ...`` with one *entry* input and one or more *back
    edges*, each (a copy of) an output of a chain of cond_brs that starts at the true output of the loop's
    ``cond_br %c, %ctl`` (on a copy of the merge's own output): the loop body's last branches each send
    the state back. Every (copied) use of ``%idx`` is the select of a mux with one data input per merge
    input, or a sink."""

    cmerge: Operation
    branch: Operation  # the loop's cond_br: its true output (split further or not) is the back edge
    entry: int  # the input position of the entry
    backs: list[int]  # the input positions of the back edges
    muxes: list[Operation]
    copies: list[Operation]
    why: str = ""
    typed: bool = False  # the calculus typed it as a carry (its side condition held)

    @property
    def condition(self) -> Value:
        return self.branch.operands[0]


def _loop_branch(v: Value, out: Value) -> Optional[Operation]:
    """The cond_br on (a copy of) ``out`` whose true output ``v`` descends from through copies and the data
    outputs of further cond_brs (None: ``v`` is not sent back from ``out``)."""
    seen: set[int] = set()
    v = copied_value(v)
    while isinstance(v, OpResult) and v.op.name == "handshake.cond_br" and id(v) not in seen:
        seen.add(id(v))
        data = copied_value(v.op.operands[1])
        if data is out:
            return v.op if v.index == 0 else None
        v = data
    return None


def find_cmerge_loops(ops: list[Operation], uses: Optional[Uses] = None) -> list[CmergeLoop]:
    """Every control_merge with exactly one entry whose other inputs are its own output sent back by one
    loop cond_br (see ``CmergeLoop``); ``uses`` as for ``find_primed_selects``."""
    uses = operand_uses(ops) if uses is None else uses
    found: list[CmergeLoop] = []
    for op in ops:
        if op.name != "handshake.control_merge" or len(op.operands) < 2 or len(op.results) != 2:
            continue
        branches = [_loop_branch(v, op.results[0]) for v in op.operands]
        entries = [k for k, b in enumerate(branches) if b is None]
        loops = {id(b) for b in branches if b is not None}
        if len(entries) != 1 or len(loops) != 1:
            continue
        branch = next(b for b in branches if b is not None)
        n = len(op.operands)
        cl = CmergeLoop(op, branch, entries[0], [k for k in range(n) if k != entries[0]], [], [])
        other = _select_fanout(op.results[1], uses, n, cl.copies, cl.muxes, sinks=True)
        if other is not None:
            cl.why = (f"the loop header's index reaches {other[0].name} (operand {other[1]}), not only the select "
                      f"of {n}-way muxes")
        found.append(cl)
    return found


@dataclass
class TokenRing:
    """A buffer primed with one token whose (copied) uses are all one-firing ops that read every input
    each time (join, sync, arith...): CIRCT's way to let one task at a time into a circuit
    (``buffer [1] %back {initValues = [0]} : none`` joined with the start token, ``%back`` made from the
    join's output)."""

    buffer: Operation
    consumers: list[Operation]
    why: str = ""
    typed: bool = False


def find_token_rings(ops: list[Operation], skip: set[int], uses: Optional[Uses] = None) -> list[TokenRing]:
    """Every buffer primed with exactly one token (not in ``skip``: the primed selects) whose copies feed
    only one-firing, read-everything ops; ``uses`` as for ``find_primed_selects``."""
    from loom.semantics import machine_for

    uses = operand_uses(ops) if uses is None else uses
    found: list[TokenRing] = []
    for op in ops:
        if op.name != "handshake.buffer" or id(op) in skip or len(op.results) != 1:
            continue
        init = op.attributes.get("initValues")
        if init is None or len(getattr(init, "elements", ())) != 1:
            continue
        ring = TokenRing(op, [])
        todo: list[Value] = [op.results[0]]
        while todo and not ring.why:
            v = todo.pop(0)
            for user, i in uses.get(id(v), []):
                if is_copy(user) and i == 0:
                    todo.extend(user.results)
                    continue
                m = machine_for(user)
                toks = {p.name for p in m.inputs if p.kind == "token"}
                if len(m.rules) == 1 and set(m.rules[0].reads) == toks and not m.sources and len(m.states) == 1:
                    ring.consumers.append(user)
                else:
                    ring.why = f"the primed buffer's token reaches {user.name}, which does not read it on every firing"
                    break
        if not ring.why and not ring.consumers:
            ring.why = "the primed buffer feeds nothing"
        found.append(ring)
    return found


def carry_operands(ps: PrimedSelect, mux: Operation) -> tuple[Value, Value, Value]:
    """(d, a, b) of the carry a proved primed-select mux stands for."""
    return ps.buffer.operands[0], mux.operands[1], mux.operands[2]


__all__ = ["CmergeLoop", "PrimedSelect", "TokenRing", "Uses", "carry_operands", "operand_uses", "find_token_rings", "composite", "find_cmerge_loops", "find_primed_selects",
           "prove_carry"]
