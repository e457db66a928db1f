"""The property manifest (``<stem>.props.json``): every SVA property, its obligation, where it is.

One description per property lives in the RTL as a ``LOOM_ASSERT_*`` macro call
(``lib/loom_props.svh`` maps it to full SVA or to the Yosys subset); this module
only indexes them: the property's ID (``<instance>.<label>``), the ``loom verify``
obligation it corresponds to (``fsm.<family>.<prop>`` for the table-conformance
property of an operator; None for protocol and FIFO properties, which Z3 does not
state), its file:line in the RTL and the DFG location of its op. The DFG-level
monitors of the top (``loom.hdl.monitors``, kind ``dfg``) carry the exact ID of
the ``len``/``balance``/``class``/``mem``/``done``/``fsm.stream`` obligation they state; they are
checked by the bounded task ``dfg`` only (``mode: "bounded"``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from loom.hdl.formal.liveness import DEFAULT_K, manifest_entries
from loom.hdl.netlist import Design

LIB = Path(__file__).parent / "lib"

STATEMENTS = {
    "p_fsm": "the port transfers of every cycle are exactly one enabled rule of the operator table (or none): "
             "the RTL refines the table that the fsm lemma is proved on",
    "p_state_legal": "the state register holds one of the table's states",
    "valid_stays": "an offered token stays valid until it is taken",
    "data_stable": "an offered token's data is stable until it is taken",
    "p_count_bounded": "a channel FIFO never holds more than its depth",
    "p_ptrs_consistent": "the FIFO's pointers agree with its occupancy",
    "p_ptrs_in_range": "the FIFO's pointers stay within its depth",
}


def statement(label: str) -> str:
    """The one-line meaning of property ``label``."""
    for key, text in STATEMENTS.items():
        if label == key or label.endswith(key):
            return text
    return ""


def fifo_properties() -> list[tuple[str, int]]:
    """(label, line) of every assertion in ``loom_fifo.sv``."""
    out = []
    for k, line in enumerate((LIB / "loom_fifo.sv").read_text().splitlines(), 1):
        m = re.search(r"`LOOM_ASSERT_\w+\((\w+),", line)
        if m:
            out.append((m.group(1), k))
    return out


def _assert_lines(text: str, pattern: str) -> dict[str, int]:
    """The line of each assertion label ``pattern``'s group 1 matches in the emitted text."""
    where = {}
    for k, line in enumerate(text.splitlines(), 1):
        m = re.search(pattern, line)
        if m:
            where[m.group(1)] = k
    return where


def monitor_properties(d: Design, stem: str) -> list[dict[str, Any]]:
    """The DFG-level monitors of the top (``loom.hdl.monitors``): label = the obligation ID made an identifier."""
    if d.monitors is None:
        return []
    where = _assert_lines(d.text, r"`LOOM_ASSERT_\w+\((ob_\w+),")
    return [{
        "id": f"{d.top}.{p.label}",
        "obligation": p.obligation,
        "kind": "dfg",
        "mode": "bounded",
        "file": f"{stem}.sv",
        "line": where[p.label],
        "instance": p.instance,
        "op": p.op.name if p.op is not None else None,
        "dfg_loc": str(p.op.loc) if p.op is not None else None,
        "statement": p.statement,
    } for p in d.monitors.props]


def safety_properties(d: Design, stem: str) -> list[dict[str, Any]]:
    """The safety monitors of the top (``loom.hdl.monitors.safety``): the ``safe.*`` ID of the source op, the runtime
    error the SCF interpreter stops with there, and the flag wire the co-simulation watches."""
    where = _assert_lines(d.text, r"`LOOM_ASSERT_ALWAYS\((ob_safe_\w+),")
    return [{
        "id": f"{d.top}.{s.label}",
        "obligation": s.obligation,
        "kind": "safety",
        "mode": "simulation",
        "file": f"{stem}.sv",
        "line": where[s.label],
        "instance": s.instance,
        "op": s.op.name,
        "dfg_loc": str(s.op.loc),
        "flag": s.flag,
        "code": s.code,
        "statement": s.statement,
    } for s in d.safety]


def manifest(d: Design, stem: str, sva: str, bmc_k: int = DEFAULT_K) -> dict[str, Any]:
    """The ``<stem>.props.json`` document of design ``d`` (``bmc_k``: the K of the bmc.* property labels)."""
    props: list[dict[str, Any]] = []
    for inst in d.instances:
        c = inst.component
        for label, obligation, line in c.properties:
            props.append({
                "id": f"{inst.name}.{label}",
                "obligation": obligation,
                "kind": "fsm" if label == "p_fsm" else ("state" if label == "p_state_legal" else "protocol"),
                "file": f"{c.module}.sv",
                "line": line,
                "instance": inst.name,
                "op": inst.op.name,
                "dfg_loc": str(inst.op.loc),
                "statement": statement(label),
            })
    fifo_props = fifo_properties()
    for ch in d.channels:
        if ch.fifo is None:
            continue
        for label, line in fifo_props:
            props.append({
                "id": f"{ch.fifo}.{label}",
                "obligation": None,
                "kind": "fifo" if label.startswith(("p_count", "p_ptrs")) else "protocol",
                "file": "loom_fifo.sv",
                "line": line,
                "instance": ch.fifo,
                "channel": ch.name,
                "dfg_loc": None,
                "statement": statement(label),
            })
    props += monitor_properties(d, stem)
    props += safety_properties(d, stem)
    props += manifest_entries(d, stem, bmc_k)
    floats = sorted({c.module for c in d.components.values() if c.float_behavioural})
    return {
        "top": d.top,
        "file": f"{stem}.sv",
        "sva": sva,
        "float_behavioural_modules": floats,
        "notes": [
            "integer/index/i1 datapaths are synthesizable and bit-exact with loom.semantics.scalar",
            "float ops are behavioural simulation models ($bitstoshortreal/$realtobits); under Yosys (synth and "
            "formal) their results are unconstrained (anyseq), so no property depends on float values",
            "DFG-level obligations (len.*, balance.*, class.*, mem.*.order, mem.access.*, done.postdom, "
            "fsm.stream.pre.*, fsm.stream[...].terminates) are "
            "monitors in the top (kind dfg, under LOOM_DFG_MONITORS), checked by the bounded task dfg only: "
            "a bounded check, not a proof for all trip counts",
            "bmc.K*.deadlock / bmc.K*.residual are whole-run monitors (kind liveness, under LOOM_LIVENESS), "
            "checked by the bounded tasks of <stem>_live.sby",
            "safe.* (the SCF source's undefined cases: bounds, divzero, overflow, shift) are flags and assertions in "
            "the top (kind safety, under LOOM_SAFETY), checked in co-simulation, in no SymbiYosys task (loom verify "
            "proves them under the function's preconditions, which the RTL does not state)",
            "no RTL form: refine.* (the SCF source is not in the RTL), mem.indep.*/mem.alias.* (graph facts) and "
            "len.*.terminates (termination of a data-dependent while loop, assumed by loom verify)",
        ],
        "dfg_monitors_note": d.monitors.note if d.monitors is not None and d.monitors.note else None,
        "properties": props,
    }
