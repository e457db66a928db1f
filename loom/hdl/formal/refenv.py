"""The reference environment of task ``dfg_ref``: co-simulation's memory, as assumptions, and a check that the
bounded depth covers whole runs.

Task ``dfg`` leaves the environment free: the memory may answer a request after any delay and back-pressure
its request channels at will, so no finite depth contains a whole run, and its depth (the length of a run
measured in co-simulation) covers every run only as far as the reference schedule goes. Task ``dfg_ref``
constrains every top-level memory port to the memory of that co-simulation (``loom.hdl.rtlsim.responder``
without ``--stall``): it accepts every request at once and answers ``MEM_LATENCY`` cycles after the request,
holding the answer until it is taken. Response data, argument values (within ``--rtl-bound``) and memref
sizes stay free. Under it the assertion ``ref_run_complete`` requires every run to be over -- ``done`` seen
and nothing moving -- at the last step, so a pass shows that the depth contains every whole run within the
bound, for every memory content: the monitors' end-of-run properties were checked at the true end of each
run, not at a cut. A second assertion, ``ref_one_outstanding``, checks the model's premise (a port never has
two requests outstanding, as ``loom.hdl.components.MemPort`` says).

Task ``dfg_mem`` (``loom verify --rtl``'s default bounded check, issue 26) reads the same block without
``LOOM_REF_DONE_BY`` (no completion check: a stall may push a run's end past the depth), with ``LOOM_REF_BOUND``
= N (every integer argument and memref size in [0, N], the runs its depth was measured for; ``--rtl-bound``
assumes that range in the top instead) and with ``LOOM_REF_STALLS`` = S: the memory may also leave the reference schedule -- refuse a request, or hold back a
response that is due -- in at most S port-cycles of the run, so a run that a few memory stalls reorder is still
checked whole. Without that freedom the check is one schedule per argument and memory content, which costs yices
seconds where the free environment of task ``dfg`` costs minutes (specs/hdl.md, "Limits and time").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from loom.hdl.netlist import Design

DEFINE = "LOOM_REF_ENV"
DONE_BY = "LOOM_REF_DONE_BY"  # the cycle (counted from the end of reset) by which every run must be complete
MEM_LATENCY = 2  # cycles from a request to its response in co-simulation without --stall (rtlsim uses it too)
STICKY = "LOOM_STICKY"  # loom_props.svh: an always-property keeps failing once it failed (dfg_ref's last-step check)
PREFIX = "ref_"  # the harness assertions task dfg_ref keeps beside the monitors (ob_*)
STALLS = "LOOM_REF_STALLS"  # port-cycles in which the memory may leave the reference schedule (task dfg_mem)
BOUND = "LOOM_REF_BOUND"  # task dfg_mem without --rtl-bound: integer arguments and memref sizes in [0, N]


def lines(d: "Design") -> list[str]:
    """The top's reference-environment block (under ``LOOM_REF_ENV``, which task ``dfg_ref`` defines together
    with the DFG-level monitors: it reads their end-of-run signal ``lm_end``)."""
    out = ["`ifdef LOOM_ASSERTIONS", f"`ifdef {DEFINE}",
           "  // reference environment (loom/hdl/formal/refenv.py): the co-simulation memory; every run complete by "
           f"`{DONE_BY}",
           "  logic [15:0] ref_cycle;",
           "  always @(posedge clk) if (rst) ref_cycle <= '0; else if (ref_cycle != 16'hffff) "
           "ref_cycle <= ref_cycle + 1'b1;"]
    for mb in d.mems:
        for mp in mb.ports:
            px = f"{mb.inst}_{mp.name}"
            req, resp = f"({px}_req_valid && {px}_req_ready)", f"({px}_resp_valid && {px}_resp_ready)"
            out += [f"  logic ref_{px}_pend;",
                    f"  logic [1:0] ref_{px}_age;",
                    f"  always @(posedge clk) if (rst) begin ref_{px}_pend <= 1'b0; ref_{px}_age <= '0; end",
                    f"  else if {req} begin ref_{px}_pend <= 1'b1; ref_{px}_age <= '0; end",
                    f"  else if {resp} ref_{px}_pend <= 1'b0;",
                    f"  else if (ref_{px}_pend && ref_{px}_age != 2'd3) ref_{px}_age <= ref_{px}_age + 1'b1;",
                    f"  wire ref_{px}_due = ref_{px}_pend && ref_{px}_age >= 2'd{MEM_LATENCY - 1};",
                    f"`ifdef {STALLS}",  # a stall: a refused request or a due response held back
                    f"  `LOOM_ASSUME_ALWAYS(ref_a_{px}_resp_valid, !{px}_resp_valid || ref_{px}_due)",
                    "`else",
                    f"  `LOOM_ASSUME_ALWAYS(ref_a_{px}_req_ready, {px}_req_ready)",
                    f"  `LOOM_ASSUME_ALWAYS(ref_a_{px}_resp_valid, {px}_resp_valid == ref_{px}_due)",
                    "`endif",
                    f"  `LOOM_ASSERT_ALWAYS(ref_one_outstanding_{px}, !({req} && ref_{px}_pend && !{resp}))"]
    stalls = [f"4'({mb.inst}_{mp.name}_req_valid && !{mb.inst}_{mp.name}_req_ready) + "
              f"4'(ref_{mb.inst}_{mp.name}_due && !{mb.inst}_{mp.name}_resp_valid)"
              for mb in d.mems for mp in mb.ports]
    out += [f"`ifdef {STALLS}",
            "  logic [7:0] ref_stalls;  // port-cycles off the reference schedule so far",
            f"  wire [7:0] ref_stall_now = {' + '.join(stalls) or chr(39) + '0'};",
            "  always @(posedge clk) if (rst) ref_stalls <= '0; else ref_stalls <= ref_stalls + ref_stall_now;",
            f"  `LOOM_ASSUME_ALWAYS(ref_a_stalls, ref_stalls + ref_stall_now <= 8'd`{STALLS})",
            "`endif",
            *bound_lines(d),
            f"`ifdef {DONE_BY}",
            f"  `LOOM_ASSERT_ALWAYS(ref_run_complete, ref_cycle < 16'd`{DONE_BY} || lm_end)",
            "`endif", "`endif", "`endif"]
    return out


def bound_lines(d: "Design") -> list[str]:
    """Under ``LOOM_REF_BOUND`` = N: every integer/index argument and memref size in [0, N], the runs whose length
    the depth was measured for (``loom.hdl.formal.depth``): task ``dfg_mem`` claims those whole runs and no more, so
    the larger arguments are not needed, and bounding them spares the solver free 64-bit trip counts. (With
    ``--rtl-bound`` the top already assumes the same range for every task.)"""
    from loom.hdl.datapath.expr import bits
    from loom.ir.types import IndexType, IntegerType

    out = [f"`ifdef {BOUND}"]
    for _name, t, p in d.args:
        if isinstance(t, (IntegerType, IndexType)) and bits(t) > 1:
            out.append(f"  `LOOM_ASSUME_ALWAYS(ref_a_bound_{p}, {p}_data <= {bits(t)}'d`{BOUND})")
    for mb in d.mems:
        if any(inst.name == mb.inst and inst.component.mem.dims for inst in d.instances):
            out += [f"  `LOOM_ASSUME_ALWAYS(ref_a_bound_{mb.inst}_dim{k}, {mb.inst}_dim{k} <= 64'd`{BOUND})"
                    for k in range(mb.dims)]
    return out + ["`endif"]


def insert(d: "Design") -> None:
    """Put the block into the top's text, just before its ``endmodule`` (nothing above it moves)."""
    head, sep, tail = d.text.rpartition("endmodule")
    d.text = head + "\n".join(lines(d)) + "\n" + sep + tail
