"""Safety monitors: where the SCF source would stop with a runtime error, as RTL flags and assertions.

``loom verify`` states, for every op of the source that MLIR's semantics can leave undefined, a safety
obligation ``safe.<op>@<line>:<col>.<what>`` (``loom.verify.safety``). The lowering copies each source op's
location onto the DFG ops it emits, so the DFG op that does the same work names the same obligation
(``loom.verify.refine.model.source_position``; a DFG op without a source location uses its own). Each becomes,
in the top module:

* a flag ``lm_<label>``: high in a cycle where the op fires on operands on which its source op is undefined.
  Always emitted (plain logic: the co-simulation testbench watches it, synthesis drops it);
* an assertion ``LOOM_ASSERT_ALWAYS(<label>, !lm_<label>)`` under ``LOOM_ASSERTIONS`` and ``LOOM_SAFETY``
  (``<label>`` = the ID made an identifier, ``loom.hdl.monitors.label_of``).

The forms:

* ``bounds`` of a ``handshake.load`` / ``handshake.store``: when the op sends its address tokens to the memory
  (the ``mem_addr<i>`` output transfers), some index is not below the memref's dimension (unsigned: a negative
  index is a huge pattern, as in ``loom.verify.safety.sites``). The sizes are the memory's static shape, or the
  runtime sizes ``<inst>_dim<i>`` of the extmemory (top-level inputs, driven by the testbench);
* every scalar rule of ``loom.semantics.undefined`` with an ``sv`` form (``divzero``, ``overflow``, ``shift``,
  ``wrap``), with ``a``, ``b`` the operand data the op takes when it fires. The rule table is the one the
  interpreter and the safety checker read, so the three cannot state different conditions.

With the SCF source at hand, only a DFG op of a source op's kind at that op's position gets a monitor (an op the
lowering adds carries the location of the op it serves, and names no source op).

In co-simulation (``loom.hdl.rtlsim``) the testbench logs every flag that rises, and a run ends with the
source's error where only a monitor sees it (``SafetyMonitor.stops``: overflow, shift, wrap; the datapath
computes ``loom.semantics.scalar``'s fixed answer there). They are not part of any SymbiYosys task: ``loom
verify`` proves the obligations under the function's preconditions (``loom.assume``), which the RTL
environment does not state, so a free-input check would report what the source excludes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

from loom.hdl.datapath.expr import bits
from loom.ir.core import Operation
from loom.ir.types import MemRefType
from loom.semantics.scalar import DIV_BY_ZERO
from loom.semantics.undefined import ub_rules
from loom.verify.ids import ObligationId, with_copy
from loom.hdl.components import MEM_OOB as OOB

if TYPE_CHECKING:
    from loom.hdl.netlist import Design
    from loom.semantics.machine import Machine

DEFINE = "LOOM_SAFETY"
MEMORY_OPS = ("handshake.load", "handshake.store")


@dataclass
class SafetyMonitor:
    """One safety obligation in the RTL: its ID, SV label, the flag wire and the condition it is high on."""

    obligation: str
    label: str
    flag: str
    cond: str
    code: str  # the runtime error the SCF interpreter stops with there
    message: str
    instance: str
    op: Operation
    statement: str

    @property
    def stops(self) -> bool:
        """A co-simulation ends with this monitor's error in the cycle it fires: no other part of the design raises
        it (a division by zero is also the component's ``fail``; an index out of bounds ends the run when the memory
        is asked for it, as in the token simulator)."""
        return self.code not in (OOB, DIV_BY_ZERO)


def obligation_id(op: Operation, what: str) -> str:
    """The ID ``loom verify`` gives the source op of ``op`` (``safe.<op>@<line>:<col>.<what>``)."""
    from loom.verify.refine.model import source_position

    loc = source_position(op.loc)
    return str(ObligationId("safe", op.name.split(".", 1)[-1], (loc.line, loc.col), (what,)))


SOURCE_NAME = {"handshake.load": "memref.load", "handshake.store": "memref.store"}


def _copy_number(op: Operation, seen: dict[tuple[str, int, int], int]) -> int:
    """Which copy of its source op ``op`` is (1, 2, ... in program order): ops that share a source position (an
    inlined call, a macro) are told apart the way ``loom verify``'s safety checker numbers their IDs, so each
    monitor names the obligation of its own copy."""
    from loom.verify.refine.model import source_position

    loc = source_position(op.loc)
    key = (SOURCE_NAME.get(op.name, op.name), loc.line, loc.col)
    seen[key] = seen.get(key, 0) + 1
    return seen[key]


def _source_ops(source: Optional[Operation]) -> Optional[set[tuple[str, int, int]]]:
    """(name, line, col) of every op of the SCF source, or None without one."""
    from loom.verify.refine.model import source_position

    if source is None:
        return None
    out = set()
    for op in source.walk():
        loc = source_position(op.loc)
        out.add((op.name, loc.line, loc.col))
    return out


def _from_source(op: Operation, known: Optional[set[tuple[str, int, int]]]) -> bool:
    """The DFG op does its source op's work: the source has an op of its kind at its position. An op the lowering
    adds carries the location of the op it serves (the ``divui``/``remui`` that split a flat index into a 2-D
    address carry the store's): it names no source op and gets no monitor. Without the source, every op counts."""
    if known is None:
        return True
    from loom.verify.refine.model import source_position

    loc = source_position(op.loc)
    return (SOURCE_NAME.get(op.name, op.name), loc.line, loc.col) in known


def substitute(sv: str, a: str, b: str) -> str:
    """A rule's SV text (over operand buses ``a``, ``b``) with the design's signals in their place; a literal's
    base letter (``1'b0``) and hex digits are never an operand."""
    return re.sub(r"(?<![\w'$])([ab])(?!\w)", lambda m: f"({a if m.group(1) == 'a' else b})", sv)


def build_safety(d: "Design", machines: "list[Machine]") -> list[SafetyMonitor]:
    """The safety monitors of design ``d`` (marks each extmemory whose runtime sizes they read: ``sized``)."""
    from loom.hdl.monitors import label_of

    taken: set[str] = set()
    out: list[SafetyMonitor] = []
    chan = {(ch.consumer, ch.port): ch for ch in d.channels}
    inst_of = {i.name: i for i in d.instances}
    mem_of = {mb.inst: mb for mb in d.mems}

    def operand(inst, k: int) -> str:
        """The data bus operand k of ``inst`` is taken from in a cycle where it fires."""
        p = machines[inst.index].inputs[k]
        ch = chan.get((inst.name, p.name)) if p.kind == "token" else None
        if ch is not None and ch.fifo is not None:
            return f"{ch.fifo}_out_data"
        return f"{d.signals[inst.op.operands[k]]}_data"

    def fire(v) -> str:
        s = d.signals[v]
        return f"{s}_valid && {s}_ready"

    def add(inst, what: str, cond: str, code: str, message: str, statement: str) -> None:
        oid = with_copy(obligation_id(inst.op, what), copy)
        label = label_of(oid, taken)
        out.append(SafetyMonitor(oid, label, f"lm_{label}", cond, code, message, inst.name, inst.op, statement))

    known = _source_ops(d.source)
    copies: dict[tuple[str, int, int], int] = {}
    for inst in d.instances:
        op = inst.op
        if not _from_source(op, known):
            continue
        copy = _copy_number(op, copies)
        if op.name in MEMORY_OPS:
            sizes = _sizes(d, op, inst_of, mem_of, machines)
            if sizes is None:
                continue
            addrs = op.results[1:]
            bad = " || ".join(f"{d.signals[v]}_data >= {s}" for v, s in zip(addrs, sizes))
            add(inst, "bounds", f"({fire(addrs[0])}) && ({bad})", OOB, "an index is not below its dimension",
                "when the op sends its address to the memory, every index is below the memref's dimension")
            continue
        rules, sig = ub_rules(op.name, op.attributes, [v.type for v in op.operands], [r.type for r in op.results])
        for rule in rules:
            if rule.sv is None or len(op.operands) != 2 or len(op.results) != 1:
                continue
            cond = substitute(rule.sv(sig), operand(inst, 0), operand(inst, 1))
            add(inst, rule.what, f"({fire(op.results[0])}) && ({cond})", rule.code, rule.message,
                f"when the op fires, its operands are not a case its source op leaves undefined ({rule.message}): "
                f"{rule.sv(sig)}")
    return out


def _sizes(d: "Design", op: Operation, inst_of, mem_of, machines) -> Optional[list[str]]:
    """The SV size of each dimension of the memory op ``op`` sends its addresses to (None: no memory found)."""
    addrs = op.results[1:]
    if not addrs:
        return None
    users = [ch for ch in d.channels if ch.value is addrs[0]]
    if not users:
        return None
    target = inst_of[users[0].consumer]
    w = bits(addrs[0].type)
    mb = mem_of.get(target.name)
    if mb is not None:
        mt = mb.type
    else:
        memory = machines[target.index].memory
        mt = memory.type if memory is not None else None
    if not isinstance(mt, MemRefType) or mt.rank != len(addrs):
        return None
    if mb is not None and any(s is None for s in mt.shape):
        # the runtime sizes: a binding of the same memref whose sizes the top already has (a memref.dim), else
        # this extmemory's, which the top then gets (one input per memref, so a formal run cannot tell them apart)
        mb = next((x for x in d.mems if x.arg == mb.arg and x.sized), mb)
        mb.sized = True
    out = []
    for k, s in enumerate(mt.shape):
        if isinstance(s, int) and s >= 0:
            out.append(f"{w}'d{s}")
        elif mb is not None:
            out.append(f"{mb.inst}_dim{k}")
        else:  # an on-chip memory has a static size (its component needs one)
            return None
    return out


def lines(mons: list[SafetyMonitor]) -> list[str]:
    """The top's text: a flag per monitor (always), its assertion under ``LOOM_ASSERTIONS`` and ``LOOM_SAFETY``."""
    if not mons:
        return []
    out = ["  // safety monitors (loom/hdl/monitors/safety.py): lm_<label> is high when an op fires on operands where "
           "its SCF source op is undefined"]
    for m in mons:
        out.append(f"  /* verilator lint_off UNUSEDSIGNAL */ wire {m.flag} = {m.cond}; "
                   f"/* verilator lint_on UNUSEDSIGNAL */  // {m.obligation}")
    out += ["`ifdef LOOM_ASSERTIONS", f"`ifdef {DEFINE}"]
    for m in mons:
        out.append(f"  // {m.obligation}: {m.statement}")
        out.append(f"  `LOOM_ASSERT_ALWAYS({m.label}, !{m.flag})")
    return out + ["`endif", "`endif"]
