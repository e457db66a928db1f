"""``bmc.K<k>.deadlock`` / ``bmc.K<k>.residual`` in the RTL: an environment and a whole-run monitor in the top.

``loom verify``'s bounded model check (``loom.verify.bmc``) says every run reaches
the return without a table runtime error (deadlock) and leaves no token behind
(residual). In the RTL the same two questions are asked of the composed
netlist, under ``LOOM_LIVENESS`` (formal only; co-simulation never defines it):

* environment: reset once, then every token argument is offered once (valid
  from the first cycle until taken, its data constant), results are taken
  when ``done`` fires, memory ports answer with free timing and free read
  data (as Z3 abstracts the data), float results are unconstrained, and with ``--rtl-bound N`` every integer argument and memref size is
  in ``[0, N]`` (one memref's sizes agree across its extmemory ports);
* ``moved``: some transfer happens this cycle (any value's producer fires,
  any channel FIFO is popped); ``full``: some channel FIFO is full;
  ``mem_wait``: a memory port transfers a request or a response, or waits on
  the environment (a request it has not taken, a response it has not given);
* ``p_bmc_K<k>_deadlock``: never a cycle with no transfer, no full FIFO, no
  ``mem_wait`` (the memory's timing is free here, while Z3's model answers
  every request) and the return not yet fired. Every component's rules fire only on a transfer
  and its guards read only registers and FIFO heads, so such a cycle repeats
  forever: the token network, whose channels are unbounded, is stuck in the
  same state (no rule is enabled: with no FIFO full every output is ready);
* ``p_bmc_K<k>_deadlock_error``: no table runtime error (stream step zero,
  mux select out of range): Z3 counts those under the deadlock obligation;
* ``p_bmc_K<k>_residual``: once the return has fired and the design is
  quiescent (no transfer, no full FIFO), no FIFO holds more tokens than the
  primed-buffer allowance (``rearm_allowance``) and no component is latched
  in a residual state;
* ``p_live_capacity`` (no obligation): no stall with a full FIFO (a memory
  port waiting on the environment excepted). Such a
  stall may exist only because the channels are bounded (``--fifo-depth``),
  so it is reported on its own, never as the DFG's deadlock.

The checks are bounded (``mode bmc`` of ``<stem>_live.sby``, tasks ``deadlock``
and ``residual``): a pass means no violation within the depth's cycles.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from loom.hdl.netlist import Design
from loom.hdl.datapath.expr import bits
from loom.ir.types import IndexType, IntegerType
from loom.semantics import machine_for
from loom.semantics.machine import Fail
from loom.verify.bmc.explore import control_values
from loom.verify.obligation import VerifyContext

DEFINE = "LOOM_LIVENESS"
ONLY = {"deadlock": "LOOM_LIVE_DEADLOCK", "residual": "LOOM_LIVE_RESIDUAL"}
DEFAULT_DEPTH = 30  # cycles searched from reset by the bounded tasks
DEFAULT_K = VerifyContext.bmc_k  # the K of loom verify's bmc.K<k>.* obligations unless --bmc-k says otherwise


@dataclass(frozen=True)
class LiveProperty:
    """One whole-run property of the top: its SV label, its obligation and its meaning."""

    label: str
    obligation: Optional[str]
    task: str
    statement: str


def live_properties(k: int) -> list[LiveProperty]:
    """The monitor's properties for BMC bound ``k`` (labels carry the obligation ID: ``bmc.K4.deadlock``)."""
    return [
        LiveProperty(f"p_bmc_K{k}_deadlock", f"bmc.K{k}.deadlock", "deadlock",
                     "under the environment (arguments offered once, results and memory always ready) no cycle "
                     "before the return has no transfer anywhere with no channel FIFO full: such a cycle repeats "
                     "forever, and the token network is stuck in the same state"),
        LiveProperty(f"p_bmc_K{k}_deadlock_error", f"bmc.K{k}.deadlock", "deadlock",
                     "no table runtime error (stream step zero, mux select out of range): the run would stop "
                     "without reaching the return"),
        LiveProperty(f"p_bmc_K{k}_residual", f"bmc.K{k}.residual", "residual",
                     "once the return has fired and nothing moves, no channel FIFO holds a token (beyond a primed "
                     "buffer's re-arm allowance) and no component is latched mid-burst"),
        LiveProperty("p_live_capacity", None, "deadlock",
                     "no stall with a full channel FIFO (a stall that bounded channels may cause on their own: "
                     "raise --fifo-depth; not the DFG's deadlock)"),
    ]


def _ors(terms: list[str]) -> str:
    """The OR of ``terms`` as a balanced tree: Yosys's front end simplifies a flat ``a || b || ...`` recursively,
    one level per operand, and the WebAssembly build's stack overflowed on corpus matmul's ~300 transfer terms."""
    if not terms:
        return "1'b0"
    if len(terms) <= 8:
        return " || ".join(terms)
    mid = len(terms) // 2
    return f"({_ors(terms[:mid])}) || ({_ors(terms[mid:])})"


def _table_fail_codes(inst) -> list[int]:
    """Indices into the component's fail codes that come from a table rule's ``Fail`` effect."""
    codes = {r.effect.code for r in inst.component.machine.rules if isinstance(r.effect, Fail)}
    return [k for k, (code, _) in enumerate(inst.component.errors) if code in codes]


def monitor(d: Design, k: int, bound: Optional[int] = None) -> list[str]:
    """The environment and monitor lines (inside the top, under ``LOOM_LIVENESS``)."""
    dead, error, residual, capacity = (p.label for p in live_properties(k))
    L = ["`ifdef LOOM_LIVENESS",
         "  // whole-run environment and monitor (loom.hdl.formal.liveness): bmc.*.deadlock and bmc.*.residual",
         "  `LOOM_ASSUME_RESET_ONCE"]
    for name, t, p in d.args:
        L += [f"  logic live_taken_{p}, live_seen_{p};",
              f"  logic [{bits(t) - 1}:0] live_q_{p};",
              "  always @(posedge clk) begin",
              f"    if (rst) begin live_taken_{p} <= 1'b0; live_seen_{p} <= 1'b0; end",
              f"    else begin live_seen_{p} <= 1'b1; if ({p}_valid && {p}_ready) live_taken_{p} <= 1'b1; end",
              f"    live_q_{p} <= {p}_data;",
              "  end",
              f"  // argument {name}: offered once, from the first cycle until taken, its data constant",
              f"  `LOOM_ASSUME_ALWAYS(a_env_{p}_once, {p}_valid == !live_taken_{p})",
              f"  `LOOM_ASSUME_ALWAYS(a_env_{p}_const, !live_seen_{p} || {p}_data == live_q_{p})"]
        if bound is not None and isinstance(t, (IntegerType, IndexType)) and bits(t) > 1:
            L.append(f"  `LOOM_ASSUME_ALWAYS(a_env_{p}_bound, {p}_data <= {bits(t)}'d{bound})")
    dims: dict[str, list[str]] = {}
    for mb in d.mems:
        if any(i.name == mb.inst and i.component.mem.dims for i in d.instances):
            for j in range(mb.dims):
                dims.setdefault(f"{mb.arg}.{j}", []).append(f"{mb.inst}_dim{j}")
    for key, sigs in sorted(dims.items()):
        for s in sigs[1:]:
            L.append(f"  `LOOM_ASSUME_ALWAYS(a_env_{s}_same, {s} == {sigs[0]})")
        if bound is not None:
            L.append(f"  `LOOM_ASSUME_ALWAYS(a_env_{sigs[0]}_bound, {sigs[0]} <= 64'd{bound})")
    fifos = [ch for ch in d.channels if ch.fifo is not None]
    sources = {inst.op.results[j] for inst in d.instances for j, o in enumerate(machine_for(inst.op).outputs)
               if o.name in dict(machine_for(inst.op).sources)}  # always valid and ready: not a transfer
    moved = [f"({s}_valid && {s}_ready)" for v, s in d.values.items() if v not in sources]
    moved += [f"({c.fifo}_out_valid && {c.fifo}_out_ready)" for c in fifos]
    full = [f"!{c.fifo}_in_ready" for c in fifos]
    left: list[str] = []
    for c in fifos:
        allow = c.allowance
        if allow == 0:
            left.append(f"{c.fifo}_out_valid")
            continue
        w = max(1, (d.fifo_depth).bit_length())
        push, pop = f"({c.producer}_valid && {c.producer}_ready)", f"({c.fifo}_out_valid && {c.fifo}_out_ready)"
        L += [f"  logic [{w}:0] live_n_{c.fifo};  // tokens in {c.fifo} (it may keep {allow}: a primed buffer)",
              f"  always @(posedge clk) if (rst) live_n_{c.fifo} <= '0; "
              f"else live_n_{c.fifo} <= live_n_{c.fifo} + {w + 1}'({push}) - {w + 1}'({pop});"]
        left.append(f"(live_n_{c.fifo} > {w + 1}'d{allow})")
    left += [f"{i.name}_residual" for i in d.instances if machine_for(i.op).residual_states]
    errs = []
    for i in d.instances:
        codes = _table_fail_codes(i)
        if codes and i.component.has_fail:
            which = " || ".join(f"{i.name}_fail_code == 8'd{c}" for c in codes)
            errs.append(f"({i.name}_fail && ({which}))")
    # a memory port whose request the environment refuses, or whose response it has not yet given: the environment's
    # turn (its timing is left free here, while Z3's model answers every request), never a stuck token network; a
    # response the design does not take is the design's stall and counts as none
    waits: list[str] = []
    for mb in d.mems:
        for mp in mb.ports:
            px = f"{mb.inst}_{mp.name}"
            req, resp = f"({px}_req_valid && {px}_req_ready)", f"({px}_resp_valid && {px}_resp_ready)"
            L += [f"  logic live_pend_{px};  // a request of {px} accepted, its response not yet taken",
                  f"  always @(posedge clk) if (rst) live_pend_{px} <= 1'b0; else if ({req} && !{resp}) "
                  f"live_pend_{px} <= 1'b1; else if ({resp} && !{req}) live_pend_{px} <= 1'b0;"]
            # a request offered (taken: a transfer; refused: the environment's stall), a response taken (a
            # transfer), or one the environment has not given yet
            waits.append(f"({px}_req_valid || {resp} || (live_pend_{px} && !{px}_resp_valid))")
    L += [f"  wire live_mem_wait = {_ors(waits)};",
          "  logic live_done_seen;  // the return fired in an earlier cycle",
          "  always @(posedge clk) if (rst) live_done_seen <= 1'b0; else if (done) live_done_seen <= 1'b1;",
          f"  wire live_moved = {_ors(moved)};",
          f"  wire live_full = {_ors(full)};",
          f"  wire live_left = {_ors(left)};",
          f"  wire live_error = {_ors(errs)};",
          "`ifndef LOOM_LIVE_RESIDUAL",
          f"  `LOOM_ASSERT_ALWAYS({dead}, live_moved || live_full || live_done_seen || live_mem_wait)",
          f"  `LOOM_ASSERT_ALWAYS({error}, !live_error)",
          f"  `LOOM_ASSERT_ALWAYS({capacity}, live_moved || !live_full || live_mem_wait)",
          "`endif",
          "`ifndef LOOM_LIVE_DEADLOCK",
          f"  `LOOM_ASSERT_ALWAYS({residual}, !(live_done_seen && !live_moved && !live_full && "
          "live_left))",
          "`endif",
          "`endif"]
    return L


def insert_monitor(d: Design, k: int, bound: Optional[int] = None) -> None:
    """Put the monitor into the top's text, just before its ``endmodule``."""
    head, sep, tail = d.text.rpartition("endmodule")
    d.text = head + "\n".join(monitor(d, k, bound)) + "\n" + sep + tail


def manifest_entries(d: Design, stem: str, k: int) -> list[dict[str, Any]]:
    """props.json entries of the monitor's properties (file:line in the top)."""
    lines = d.text.splitlines()
    out = []
    for p in live_properties(k):
        line = next(n for n, t in enumerate(lines, 1) if f"({p.label}," in t)
        out.append({"id": f"{d.top}.{p.label}", "obligation": p.obligation, "kind": "liveness",
                    "file": f"{stem}.sv", "line": line, "instance": d.top, "op": "handshake.func",
                    "dfg_loc": str(d.func.loc), "statement": p.statement, "task": p.task,
                    "bounded": True})
    return out


def project(d: Design, stem: str, files: list[str], depth: int = DEFAULT_DEPTH) -> str:
    """``<stem>_live.sby``: bounded tasks ``deadlock`` and ``residual`` on the top with the monitor."""
    sv = [f for f in files if f.endswith(".sv")]
    top = f"{stem}.sv"
    from loom.hdl.formal.sby import RUN_COMMENT

    lines = ["# generated by loom hdl: bounded checks of bmc.*.deadlock and bmc.*.residual on the whole design",
             *RUN_COMMENT, "[tasks]", "deadlock", "residual", "", "[options]", "mode bmc", f"depth {depth}", "",
             "[engines]", "smtbmc yices", "", "[script]"]
    lines += [f"read_verilog -formal -sv {f}" for f in sv if f != top]  # components: no properties, no defines
    lines += [f"{task}: read_verilog -formal -sv -D{DEFINE} -D{only} {top}" for task, only in ONLY.items()]
    # data no guard can see is cut (an unconstrained value), as loom verify's BMC does not compute it
    control = control_values(d.func)
    cut = [f"w:{c.fifo}_out_data" for c in d.channels if c.fifo is not None and c.value not in control]
    lines += [f"hierarchy -top {d.top}", "proc", "flatten"]
    if cut:
        lines.append("cutpoint " + " ".join(cut))
    # FIFO slot arrays become flip-flops: left as memories, smtbmc unrolls them as SMT arrays, and yices took
    # 70 s for step 15 of corpus fir_filter's deadlock task alone; mapped, the task fails at step 19 in 16 s
    lines += [f"prep -top {d.top}", "memory_map", "opt -fast", "", "[files]", *files, ""]
    return "\n".join(lines)


@dataclass
class LiveVerdict:
    """The bounded SBY verdict of one task (``deadlock`` or ``residual``): which properties failed, the trace."""

    task: str
    status: str  # pass | fail | unknown | error
    seconds: float
    failed: list[str]
    obligations: list[str]  # obligation IDs of the failed properties
    capacity: bool  # p_live_capacity failed: a stall caused by a full FIFO
    trace: Optional[str]
    log: str


def run_live(workdir: Path, stem: str, k: int, tasks: tuple[str, ...] = ("deadlock", "residual"),
             timeout: Optional[float] = None, progress=None, depth: Optional[int] = None) -> dict[str, LiveVerdict]:
    """Run the bounded tasks of a written ``<stem>_live.sby`` and name the obligations of what failed."""
    from loom.hdl.formal.sby import run_task_retry

    oblig = {p.label: p.obligation for p in live_properties(k)}
    out: dict[str, LiveVerdict] = {}
    for task in tasks:
        v = run_task_retry(workdir, f"{stem}_live.sby", task, timeout, progress=progress, depth=depth)
        labels = [f.rsplit(".", 1)[-1] for f in v.failed]
        obs = sorted({oblig[x] for x in labels if oblig.get(x)})
        out[task] = LiveVerdict(task, v.status, v.seconds, labels, obs, "p_live_capacity" in labels, v.trace, v.log)
    return out
