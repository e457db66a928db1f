"""``loom sim --rtl``: co-simulate the emitted RTL (Verilator, else iverilog) and report like the token simulator.

A generated testbench offers each argument token once on its top-level port,
models every memref argument as a RAM behind the extmemory ports (contents via
``$readmemh``), runs until the design is quiescent (no channel moved for a
while), and prints the return values, final memories, per-channel token counts,
residual tokens and any runtime error. Python turns that into the same
``SimResult`` the token simulator produces, so ``loom sim`` prints the same
report and the same ``--json`` document. ``--stall SEED`` defines ``LOOM_STALL``:
every channel FIFO then inserts pseudo-random valid gaps and ready stalls.

What differs between runs of one design is read at run time, not compiled: the argument values
(``arg_<port>.hex``), the memories (``mem_*.hex``), the stall seed, each argument's start cycle, the memory
ports' LFSR seeds and the cycle limit (``run.hex``). So the build depends only on the design, whether stalls
are on, the memref arguments' layouts and the options, and loom.hdl.simcache keeps it for later runs.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Optional

from loom.diagnostics import LoomError, SimulationError
from loom.hdl import simcache
from loom.hdl.datapath import libm_c
from loom.hdl.components import MemPort
from loom.hdl.emit import Emitted
from loom.hdl.datapath.expr import bits, decode, encode
from loom.hdl.formal.refenv import MEM_LATENCY  # cycles from an accepted request to its response, without --stall
from loom.ir.core import Module, Operation
from loom.ir.location import Location
from loom.ir.types import FloatType, MemRefType, NoneType, Type
from loom.runtime import MemRefView, global_view
from loom.semantics.expr import TOKEN
from loom.sim.engine import stuck_line
from loom.sim.result import SafetyViolation, SimResult

if TYPE_CHECKING:
    from loom.hdl.netlist import Design

NO_SIMULATOR = "HDL_NO_SIMULATOR"
MAX_CYCLES = 2_000_000
TICK = 100_000  # the testbench prints ``LOOM tick <cycle>`` this often: progress of a long run
VCD = "loom.vcd"  # the waveform's name in the simulation directory (--vcd copies it out)
SETTLE = 4  # idle cycles before a run with nothing held anywhere ends
RUN_FILE, RUN_ARRAY = "run.hex", "loom_run"  # the 32-bit values a run reads at run time (stall seed, cycle limit, ...)
STALL_WIRE = "loom_stall"  # the testbench's stall seed: --stall builds with LOOM_STALL=tb.loom_stall
# -O0 for every C++ file of a Verilator build: its make adds -Os after -CFLAGS for the model's hot code and its
# runtime (OPT_FAST, OPT_GLOBAL), which took 25.5 CPU s to build saxpy where -O0 takes 15.9 (the same output); the
# runs co-simulation (and the datapath's vector bench) make are short, so the build dominates
VERILATOR_O0 = ["-CFLAGS", "-O0", "-MAKEFLAGS", "OPT_FAST=-O0", "-MAKEFLAGS", "OPT_GLOBAL=-O0"]


def find_simulator(prefer: Optional[str] = None) -> Optional[str]:
    """``verilator`` when installed, else ``iverilog`` (``LOOM_RTL_SIM`` or ``prefer`` picks one), else None."""
    want = prefer or os.environ.get("LOOM_RTL_SIM")
    order = [want] if want else ["verilator", "iverilog"]
    for name in order:
        if name == "verilator" and shutil.which("verilator"):
            return "verilator"
        if name == "iverilog" and shutil.which("iverilog") and shutil.which("vvp"):
            return "iverilog"
    return None


def no_simulator(prefer: Optional[str] = None) -> LoomError:
    """Why ``find_simulator`` found none: the one asked for (``LOOM_RTL_SIM``) is unknown or not installed, or
    neither is; located at the environment variable when it made the choice."""
    want = prefer or os.environ.get("LOOM_RTL_SIM")
    where = Location("LOOM_RTL_SIM", 0, 0) if want and not prefer else None
    if want and want not in ("verilator", "iverilog"):
        return LoomError(f"unknown RTL simulator '{want}': LOOM_RTL_SIM names verilator or iverilog", where,
                         NO_SIMULATOR)
    if want:
        return LoomError(f"{want} is not installed (apt-get install {want}), and LOOM_RTL_SIM asks for it", where,
                         NO_SIMULATOR)
    return LoomError("no RTL simulator found: install verilator or iverilog (apt-get install verilator iverilog)",
                     code=NO_SIMULATOR)


@dataclass
class Bench:
    """A generated testbench and what is needed to read its output back."""

    text: str
    hex_files: dict[str, str]
    mem_views: dict[str, MemRefView]  # memref argument -> its view (final contents written back into it)
    max_cycles: int = MAX_CYCLES  # the run is cut after this many cycles


def _hex(values: list[Any], t: Type) -> str:
    w = bits(t)
    return "\n".join(f"{encode(v, t) & ((1 << w) - 1):x}" for v in values) + "\n"


def _fresh_view(op: Operation, machine_mem, inputs: dict[str, Any], module: Optional[Module]) -> Optional[MemRefView]:
    """Initial contents of a handshake.memory bound to a global (as the token simulator reads them), else None."""
    g = machine_mem.global_name
    if g is None:
        return None
    given = inputs.get("@" + g, inputs.get(g))
    if isinstance(given, MemRefView):
        return given
    try:
        return global_view(module, g, {}, "<inputs>", op.loc)
    except LoomError:
        return None


def _array_names(args: list[str]) -> dict[str, str]:
    """``mem_<name>`` for each memref argument, made an SV identifier and unique (``%g.row`` -> ``mem_g_row``)."""
    out: dict[str, str] = {}
    taken: set[str] = set()
    for a in args:
        base = "mem_" + re.sub(r"[^A-Za-z0-9_]", "_", a)
        name, k = base, 1
        while name in taken:
            name, k = f"{base}_{k}", k + 1
        taken.add(name)
        out[a] = name
    return out


@dataclass
class _BenchText:
    """A testbench being written: its lines, the DUT's port connections and what later phases read back."""

    d: "Design"
    lines: list[str] = field(default_factory=list)
    conns: list[str] = field(default_factory=lambda: [".clk(clk)", ".rst(rst)"])
    hex_files: dict[str, str] = field(default_factory=dict)
    views: dict[str, MemRefView] = field(default_factory=dict)
    arrays: dict[str, str] = field(default_factory=dict)  # memref argument -> the bench's array
    oob_terms: list[tuple[str, Any, str, list[str]]] = field(default_factory=list)
    mem_ports: list[str] = field(default_factory=list)
    mem_act: list[str] = field(default_factory=list)  # memory traffic, and a response still on its way
    watched: list[tuple[str, Any]] = field(default_factory=list)  # loop streams whose pushes are timed
    run_words: list[int] = field(default_factory=list)  # run.hex: the 32-bit values read at run time

    def word(self, value: int) -> str:
        """The SV expression of a 32-bit ``value`` the bench reads from ``run.hex`` at run time (the build does
        not depend on it)."""
        self.run_words.append(value & 0xFFFFFFFF)
        return f"{RUN_ARRAY}{len(self.run_words) - 1}"

    @property
    def fifos(self) -> list:
        return [ch for ch in self.d.channels if ch.fifo is not None]

    @property
    def sources(self) -> list:
        return [ch for ch in self.d.channels if ch.fifo is None]


def _bench_args(b: _BenchText, inputs: dict[str, Any], stall: Optional[int]) -> None:
    """Each token argument: offered once from its (stall-seeded) start cycle until taken; its value and start
    cycle are read at run time (``arg_<port>.hex``, ``run.hex``)."""
    for k, (name, t, p) in enumerate(b.d.args):
        w = bits(t)
        b.hex_files[f"arg_{p}.hex"] = _hex([inputs.get(name, TOKEN)], t)
        delay = b.word(0 if stall is None else (stall * 7 + k * 13) % 5)
        b.lines += [f"  logic {p}_valid, {p}_ready, {p}_sent;", f"  logic [{w - 1}:0] {p}_value [0:0];",
                    # a variable set after the read: iverilog does not re-evaluate a net reading an array word
                    # when $readmemh fills it
                    f"  logic [{w - 1}:0] {p}_data;",
                    f'  initial begin $readmemh("arg_{p}.hex", {p}_value); {p}_data = {p}_value[0]; end',
                    f"  assign {p}_valid = !rst && !{p}_sent && cycle >= {delay};",
                    f"  always @(posedge clk) if (rst) {p}_sent <= 1'b0; else if ({p}_valid && {p}_ready) {p}_sent <= 1'b1;"]
        b.conns += [f".{p}_valid({p}_valid)", f".{p}_ready({p}_ready)", f".{p}_data({p}_data)"]


def _bench_memories(b: _BenchText, inputs: dict[str, Any], module: Optional[Module], stall: Optional[int]) -> None:
    """Each memref argument's array and its ports' responders; each fresh memory's initial contents."""
    d = b.d
    L = b.lines
    # each memref argument's array in the bench: an SV identifier even when the MLIR name is not one (%g.row)
    b.arrays = arrays = _array_names([name for name, _ in d.memrefs])
    for name, mt in d.memrefs:
        view = inputs.get(name)
        if not isinstance(view, MemRefView):
            raise LoomError(f"no input value for memref argument '{name}'")
        b.views[name] = view
        data = list(view.buffer.data)
        ew = bits(mt.element)
        n = max(1, len(data))
        L.append(f"  logic [{ew - 1}:0] {arrays[name]} [0:{n - 1}];")
        b.hex_files[f"{arrays[name]}.hex"] = _hex(data, mt.element) if data else "0\n"
        L.append(f'  initial $readmemh("{arrays[name]}.hex", {arrays[name]});')
    for mb in d.mems:
        view = b.views[mb.arg]
        sizes, strides, off = list(view.sizes), list(view.strides), view.offset
        n = max(1, len(view.buffer.data))

        def linear(addrs: list[str], strides=strides, sizes=sizes, off=off) -> tuple[str, str]:
            lin = " + ".join([f"64'd{off}"] + [f"{a} * 64'd{s}" for a, s in zip(addrs, strides)])
            ok = " && ".join([f"({a} < 64'd{z})" for a, z in zip(addrs, sizes)] or ["1'b1"])
            return lin, ok

        for mp in mb.ports:
            px = f"{mb.inst}_{mp.name}"
            b.mem_ports.append(px)
            L += responder(px, mp, arrays[mb.arg], n, linear, stall, b.word(_port_seed(px, stall or 0)))
            b.conns += [f".{px}_{x}({px}_{x})" for _, x, _ in mp.signals()]
            addrs = [f"{px}_req_addr{i}" for i in range(mp.addrs)]
            b.oob_terms.append((f"({px}_req_fire && !({linear(addrs)[1]}))", mb, mp.kind, addrs))
            b.mem_act.append(f"{px}_req_fire || {px}_resp_fire || ({px}_n != 0 && !{px}_resp_valid)")
        if mb.sized:
            for k, z in enumerate(sizes):
                L.append(f"  logic [63:0] {mb.inst}_dim{k} = 64'd{z};")
                b.conns.append(f".{mb.inst}_dim{k}({mb.inst}_dim{k})")
    for inst in d.instances:
        m = inst.component.machine
        if m.memory is not None and m.memory.source == "fresh":
            view = _fresh_view(inst.op, m.memory, inputs, module)
            mt = m.memory.type
            assert isinstance(mt, MemRefType)
            size = 1
            for s in mt.shape:
                size *= int(s)
            vals = view.to_flat() if view is not None else []
            vals = (vals + [0.0 if isinstance(mt.element, FloatType) else 0] * size)[:size]
            b.hex_files[f"mem_{inst.name}.hex"] = _hex(vals, mt.element)
            L.append(f'  initial $readmemh("mem_{inst.name}.hex", dut.{inst.name}.mem);')


def _bench_dut(b: _BenchText) -> str:
    """The results and status signals, the DUT instance, the always-ready sources' counters and the loop streams'
    timers; returns the activity condition (any transfer, memory traffic or ``done`` in this cycle)."""
    d = b.d
    L = b.lines
    for k, t in enumerate(d.result_types):
        L += [f"  logic [{bits(t) - 1}:0] result{k}, res{k};"]
        b.conns.append(f".result{k}(result{k})")
    L += ["  logic done, latched, fail;", "  logic [15:0] fail_inst;", "  logic [7:0] fail_code;"]
    b.conns += [".done(done)", ".residual(latched)", ".fail(fail)", ".fail_inst(fail_inst)", ".fail_code(fail_code)"]
    L.append(f"  {d.top} dut ({', '.join(b.conns)});")
    fifos, sources = b.fifos, b.sources
    for i, ch in enumerate(sources):
        port = re.sub(r"[^A-Za-z0-9_]", "_", ch.port)
        L.append(f"  integer src{i} = 0;")
        L.append(f"  always @(posedge clk) if (!rst && dut.{ch.consumer}.{port}_ready) src{i} <= src{i} + 1;")
    act = " || ".join([f"dut.{c.fifo}.push || dut.{c.fifo}.pop" for c in fifos] +
                      [f"dut.{c.consumer}.{re.sub(r'[^A-Za-z0-9_]', '_', c.port)}_ready" for c in sources] +
                      [f"{p}_valid" for _, _, p in d.args] + b.mem_act + ["done"])
    loops = loop_streams(d)
    # each loop's index stream and carries: tokens pushed, first and last cycle (its II)
    b.watched = [(f"{k}_{j}", ch) for k, (_, chs) in enumerate(loops) for j, ch in enumerate(chs)]
    for k, ch in b.watched:
        L += [f"  integer ii_n{k} = 0, ii_first{k} = -1, ii_last{k} = -1;",
              f"  always @(posedge clk) if (!rst && dut.{ch.fifo}.push) begin",
              f"    if (ii_first{k} < 0) ii_first{k} <= cycle;",
              f"    ii_last{k} <= cycle; ii_n{k} <= ii_n{k} + 1;",
              "  end"]
    return act


def _bench_report(b: _BenchText, shown: str) -> None:
    """The reset sequence and the ``report`` task: the ``LOOM ...`` lines ``run_rtl`` parses, then $finish."""
    d = b.d
    L = b.lines
    oob = " || ".join(t for t, *_ in b.oob_terms) or "1'b0"
    L += [
        "  logic oob;",
        f"  assign oob = !rst && ({oob});",
        "  initial begin",
        "    repeat (3) @(posedge clk);",
        "    rst <= 1'b0;",
        "  end",
        "  task automatic report(input integer why);",
        "    begin",
        '      $display("LOOM end %0d %0d", why, cycle);',
        '      $display("LOOM idle %0d", idle);',  # cycles since the last transfer (loom.hdl.formal.depth reads it)
        '      $display("LOOM done %0d", done_seen);',
        '      $display("LOOM done_cycle %0d", done_cycle);',  # the cycle the return fired (-1: never)
        *[f'      $display("LOOM loop {k.replace(chr(95), chr(32))} %0d %0d %0d", ii_n{k}, ii_first{k}, ii_last{k});'
          for k, _ in b.watched],
    ]
    for k in range(len(d.result_types)):
        L.append(f'      $display("LOOM result {k} %h", res{k});')
    for k, (name, _) in enumerate(d.memrefs):  # by position: an MLIR name may hold characters a bench line splits on
        n = max(1, len(b.views[name].buffer.data))
        L.append(f'      for (int i = 0; i < {n}; i++) $display("LOOM mem {k} %0d %h", i, {b.arrays[name]}[i]);')
    sources = b.sources
    for i, c in enumerate(d.channels):
        if c.fifo is not None:
            L.append(f'      $display("LOOM chan {i} %0d %0d", {_pushed(c, "pushes", d)}, {_pushed(c, "count", d)});')
        else:
            L.append(f'      $display("LOOM chan {i} %0d 0", src{sources.index(c)});')
    for inst in d.instances:
        L.append(f'      $display("LOOM state {inst.index} %0d", dut.{inst.name}.state);')
    L += [f'      $display("LOOM residual %0d", {shown});',
          '      $display("LOOM fail %0d %0d %0d", fail, fail_inst, fail_code);']
    for j, (_, mb, kind, addrs) in enumerate(b.oob_terms):
        fmt = " ".join(["%0d"] * len(addrs))
        L.append(f'      if ({b.oob_terms[j][0]}) $display("LOOM oob {mb.inst} {kind} {fmt}", {", ".join(addrs)});')
    L += [
        "      $finish;",
        "    end",
        "  endtask",
    ]


def testbench(e: Emitted, inputs: dict[str, Any], module: Optional[Module], stall: Optional[int],
              max_cycles: int = MAX_CYCLES) -> Bench:
    """The SV testbench driving design ``e`` with decoded ``inputs`` (runtime values keyed by argument name):
    arguments, memories, the DUT, the report task, then the clocked block that ends the run."""
    d = e.design
    b = _BenchText(d, ["`timescale 1ns/1ps", "module tb;", "  logic clk = 1'b0, rst = 1'b1;", "  always #5 clk = ~clk;",
                       "  integer cycle = 0, idle = 0, done_cycle = -1;", "  logic done_seen = 1'b0;",
                       # loom sim --rtl --vcd: every signal of the bench and the design, from time 0
                       "`ifdef LOOM_VCD", "  initial begin $dumpfile(`LOOM_VCD); $dumpvars(0, tb); end", "`endif"])
    at = len(b.lines)  # run.hex's array is declared here once its length is known
    # the stall seed every channel FIFO's LFSR starts from (LOOM_STALL names this wire) and the cycle limit
    b.lines += [f"  wire [31:0] {STALL_WIRE} = {b.word(0 if stall is None else stall & 0x7FFFFFFF)};",
                f"  wire [31:0] loom_max_cycles = {b.word(min(max_cycles, 0x7FFFFFFF))};"]
    _bench_args(b, inputs, stall)
    _bench_memories(b, inputs, module, stall)
    act = _bench_dut(b)
    fifos = b.fifos
    resid = " + ".join(["32'd0"] + [_left_over(c) for c in fifos] + [f"dut.{i.name}.residual" for i in d.instances]) or "0"
    # what the report shows: a transparent FIFO's token offered in the last cycle counts as arrived (when a
    # component fails, its inputs may be passing through in that very cycle; the token simulator shows them held)
    shown = " + ".join(["32'd0"] + [_left_over(c, True, d) for c in fifos] + [f"dut.{i.name}.residual" for i in d.instances])
    idle_limit = 200 if stall is None else 2000
    # nothing held anywhere (no FIFO token, no latched component, no memory request out, every argument
    # sent): no rule can fire again (only latched states fire without reading), so the run is over
    empty = " && ".join([f"({resid}) == 0"] + [f"{px}_n == 3'd0" for px in b.mem_ports] +
                        [f"{p}_sent" for _, _, p in d.args])
    _bench_report(b, shown)
    L = b.lines
    L += [
        "  always @(posedge clk) if (!rst) begin",
        "    cycle <= cycle + 1;",
    ]
    for k in range(len(d.result_types)):
        L.append(f"    if (done && !done_seen) res{k} <= result{k};")
    # a safety monitor (loom.hdl.monitors.safety): logged, in this block so that it precedes the report of an error
    # it coincides with. A division by zero is also the component's fail; an index out of bounds ends the run when
    # the memory is asked for it (the monitor fires earlier, when the load or store sends the address); the other
    # kinds (overflow, shift, wrap) have only the monitor, and end the run where the source stops
    L += [f'    if (dut.{s.flag}) $display("LOOM safe {k} %0d", cycle);' for k, s in enumerate(d.safety)]
    stops = " || ".join(f"dut.{s.flag}" for s in d.safety if s.stops) or "1'b0"
    L += [
        "    if (done && !done_seen) done_cycle <= cycle;",
        f"    if (cycle % {TICK} == 0 && cycle > 0) $display(\"LOOM tick %0d\", cycle);",  # progress (run's stderr)
        "    if (done) done_seen <= 1'b1;",
        f"    if (fail || oob || {stops}) report(2);",
        f"    if ({act}) idle <= 0; else idle <= idle + 1;",
        # the emptiness check (a sum over every FIFO) only in idle cycles: iverilog evaluates all of an && each
        # cycle, and on a large design (ofdm_pipeline) that sum was about an eighth of the run's CPU
        f"    if (idle > {idle_limit}) report(0); else if (idle > {SETTLE}) begin if ({empty}) report(0); end",
        "    if (cycle > loom_max_cycles) report(1);",
        "  end",
        "endmodule",
    ]
    n = len(b.run_words)
    # each word a variable set after the read (as an argument's value: iverilog's nets miss $readmemh's writes)
    L[at:at] = [f"  logic [31:0] {RUN_ARRAY} [0:{n - 1}];",
                f"  logic [31:0] {', '.join(f'{RUN_ARRAY}{i}' for i in range(n))};",
                f'  initial begin $readmemh("{RUN_FILE}", {RUN_ARRAY}); '
                + " ".join(f"{RUN_ARRAY}{i} = {RUN_ARRAY}[{i}];" for i in range(n)) + " end"]
    b.hex_files[RUN_FILE] = "".join(f"{w:x}\n" for w in b.run_words)
    return Bench("\n".join(L) + "\n", b.hex_files, b.views, max_cycles)


MEM_SLOTS = 4  # requests the testbench memory accepts before it back-pressures


def _port_seed(name: str, stall: int) -> int:
    """A stable nonzero LFSR seed per memory port and run (FNV-1a of the port's name, mixed with the seed)."""
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return ((h ^ (stall * 2654435761)) & 0xFFFFFFFF) | 1


def responder(px: str, mp: MemPort, mem: str, n: int, linear, stall: Optional[int], seed: str) -> list[str]:
    """The testbench side of one extmemory port pair: an in-order memory with a latency.

    A request is performed when it is accepted (a load reads ``mem``, a store writes it); its response
    comes ``MEM_LATENCY`` cycles later, responses in request order. Under ``--stall`` each response takes
    1 to 32 cycles (drawn per request) and the request channel is back-pressured about a quarter of the
    cycles, from a per-port LFSR started at ``seed`` (an SV expression: the bench reads it at run time).
    """
    w = bits(mp.type)
    addrs = [f"{px}_req_addr{i}" for i in range(mp.addrs)]
    lin, ok = linear(addrs)
    L = [f"  logic {px}_req_valid, {px}_req_ready, {px}_resp_valid, {px}_resp_ready;"]
    L += [f"  logic [63:0] {a};" for a in addrs]
    data = f"{px}_req_data" if mp.kind == "store" else f"{px}_resp_data"
    L.append(f"  logic [{w - 1}:0] {data};")
    L += [f"  integer {px}_due [0:{MEM_SLOTS - 1}];", f"  logic [1:0] {px}_head, {px}_tail;", f"  logic [2:0] {px}_n;",
          f"  logic [31:0] {px}_rng;",
          f"  wire {px}_req_fire = {px}_req_valid && {px}_req_ready;",
          f"  wire {px}_resp_fire = {px}_resp_valid && {px}_resp_ready;"]
    stall_ready = "1'b1" if stall is None else f"!({px}_rng[6] && {px}_rng[13])"
    latency = f"{MEM_LATENCY}" if stall is None else f"1 + {px}_rng[20:16]"
    L += [f"  assign {px}_req_ready = !rst && {px}_n != 3'd{MEM_SLOTS} && {stall_ready};",
          f"  assign {px}_resp_valid = {px}_n != 3'd0 && cycle >= {px}_due[{px}_head];"]
    if mp.kind == "load":
        L += [f"  logic [{w - 1}:0] {px}_q [0:{MEM_SLOTS - 1}];", f"  assign {px}_resp_data = {px}_q[{px}_head];"]
    L += ["  always @(posedge clk) begin",
          f"    if (rst) begin {px}_head <= 2'd0; {px}_tail <= 2'd0; {px}_n <= 3'd0; {px}_rng <= {seed}; end",
          "    else begin",
          f"      {px}_rng <= {{{px}_rng[30:0], {px}_rng[31] ^ {px}_rng[21] ^ {px}_rng[1] ^ {px}_rng[0]}};",
          f"      if ({px}_req_fire) begin"]
    if mp.kind == "load":
        L.append(f"        {px}_q[{px}_tail] <= ({ok}) ? {mem}[({lin}) % {n}] : '0;")
    else:
        L.append(f"        if ({ok}) {mem}[({lin}) % {n}] <= {px}_req_data;")
    L += [f"        {px}_due[{px}_tail] <= cycle + {latency};",
          f"        {px}_tail <= {px}_tail + 2'd1;",
          "      end",
          f"      if ({px}_resp_fire) {px}_head <= {px}_head + 2'd1;",
          f"      {px}_n <= {px}_n + ({px}_req_fire ? 3'd1 : 3'd0) - ({px}_resp_fire ? 3'd1 : 3'd0);",
          "    end",
          "  end"]
    return L


def loop_streams(d) -> list[tuple[str, list[Any]]]:
    """Each loop's index stream (the first result of a ``dataflow.stream``), in instance order, named by the DFG
    value, with the channel FIFO its tokens go into (the tokens pushed there are the loop's iterations), then
    one output channel of each of the loop's carries (loom.hdl.throughput.loop_carries)."""
    from loom.hdl.throughput import loop_carries

    carries = loop_carries(d)
    first = {}
    for c in d.channels:
        if c.fifo is not None and c.value is not None:
            first.setdefault(c.value, c)
    by_name = {i.name: i for i in d.instances}
    out = []
    for inst in d.instances:
        if inst.op.name != "dataflow.stream" or not inst.op.results:
            continue
        v = inst.op.results[0]
        if v in first:
            chs = [first[v]] + [first[by_name[c].op.results[0]] for c in carries.get(inst.name, [])
                                if by_name[c].op.results[0] in first]
            out.append((d.signals.get(v, f"stream{inst.index}").removeprefix("v_"), chs))
    return out


def loop_ii(out: str, d) -> list[dict[str, Any]]:
    """Per loop (``loop_streams``): the tokens its index stream pushed (one per test of the loop condition, so
    the iterations plus one per activation), the cycles of the first and last, the measured II and the DFG's
    bound (loom.hdl.throughput). The II is the largest (last - first) / (tokens - 1) of the index stream's
    channel and of each of the loop's carries' (None below 2 tokens): a carry fires once per iteration at its
    recurrence's pace, where a short run's stream runs ahead into its FIFOs. ``bound_run`` adds the inner loops'
    iterations of this run to an outer loop's bound (loom.hdl.throughput.run_bound)."""
    from loom.hdl.throughput import loop_bounds, run_bound

    names = [n for n, _ in loop_streams(d)]
    listed = loop_bounds(d)
    bounds = {b.stream: b for b in listed}
    seen: dict[tuple[int, int], tuple[int, int, int]] = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 7 and f[:2] == ["LOOM", "loop"]:
            k, j, n, first, last = (int(x) for x in f[2:])
            seen[(k, j)] = (n, first, last)
    tokens = {name: seen.get((k, 0), (0, -1, -1))[0] for k, name in enumerate(names)}
    per_run = run_bound(listed, tokens)
    got = []
    for k, name in enumerate(names):
        n, first, last = seen.get((k, 0), (0, -1, -1))
        # the slowest of the stream and the carries: a short run's stream runs ahead into its FIFOs
        rates = [(b - a) / (m - 1) for (kk, _), (m, a, b) in sorted(seen.items()) if kk == k and m >= 2]
        b = bounds.get(name)
        got.append({"stream": name, "tokens": n, "first_cycle": first if n else None,
                    "last_cycle": last if n else None, "ii": round(max(rates), 2) if rates else None,
                    "bound": b.bound if b is not None else None, "bound_run": per_run.get(name)})
    return got


def simulator_version(sim: str) -> str:
    """The first line of ``verilator --version`` / ``iverilog -V`` (e.g. ``Verilator 5.006 2023-01-22``)."""
    cmd = ["verilator", "--version"] if sim == "verilator" else ["iverilog", "-V"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return sim
    return next((ln.strip() for ln in (p.stdout + p.stderr).splitlines() if ln.strip()), sim)


def run(e: Emitted, inputs: dict[str, Any], module: Optional[Module] = None, *, stall: Optional[int] = None,
        simulator: Optional[str] = None, max_cycles: int = MAX_CYCLES, workdir: Optional[Path] = None,
        timings: Optional[dict[str, float]] = None, defines: tuple[str, ...] = (),
        info: Optional[dict[str, Any]] = None, vcd: Optional[Path] = None,
        progress: Optional[Callable[[str], None]] = None, cache: bool = True) -> SimResult:
    """Simulate the design on ``inputs`` and return what the token simulator would return (``timings``, when
    given, receives the wall seconds of the ``build`` and of the ``run``: benchmarks/bench_rtl.py; ``defines``:
    more macros, e.g. ``LOOM_SAFETY``, which makes a safety monitor an assertion that stops the run). ``info``,
    when given, receives ``simulator``, ``version``, ``cycles`` (the cycle the run ended, counted from the end
    of reset), ``return_cycle`` (the cycle the return fired, None if never) and ``monitors`` (each monitor label that
    failed and its first cycle, with ``LOOM_SIM_MONITORS``: loom.hdl.formal.replay); ``vcd`` writes the waveform
    there; ``progress`` receives one line per phase and every ``TICK`` cycles of the run. The build comes from
    the cache of built simulations (loom.hdl.simcache) when it holds one; ``cache=False`` neither reads nor
    writes it (a benchmark timing the build)."""
    sim = find_simulator(simulator)
    if sim is None:
        raise no_simulator(simulator)
    say = progress or (lambda _msg: None)
    version = _installed(sim)[1] if (info is not None or progress is not None) else sim
    bench = testbench(e, inputs, module, stall, max_cycles)
    own = workdir is None
    wd = Path(tempfile.mkdtemp(prefix="loom-rtlsim-")) if workdir is None else workdir
    try:
        for name, text in list(e.files.items()) + [("tb.sv", bench.text)] + list(bench.hex_files.items()):
            (wd / name).write_text(text)
        # the stall seed is read at run time: every seed shares one build (loom_fifo reads `LOOM_STALL)
        defines = list(defines) + ([] if stall is None else [f"LOOM_STALL=tb.{STALL_WIRE}"])
        if vcd is not None:
            defines.append(f'LOOM_VCD="{VCD}"')
        t0 = time.perf_counter()
        where = simcache.root() if cache else None
        name = simcache.key(sim, " ".join(_installed(sim)), _command(sim, defines, vcd is not None, e, ["<libm>"])
                            + _CODE, {**e.files, "tb.sv": bench.text}) if where is not None else ""
        made = _artifacts(sim, e)
        entry = simcache.lookup(where, name, made) if where is not None else None
        if entry is not None:
            simcache.link_into(entry, wd, made)
            say(f"reusing the simulation built with {version} ({entry})")
        else:
            say(f"building the simulation with {version}")
            _build(sim, defines, vcd is not None, e, wd)
            if where is not None:
                simcache.store(where, name, wd, made)
        exe = ["vvp", "-n", "sim.vvp"] if sim == "iverilog" else ["obj/Vtb"]
        t1 = time.perf_counter()
        say(f"built in {t1 - t0:.1f}s; running (at most {max_cycles} cycles)")
        out = _run_streaming(exe, wd, lambda c: say(f"cycle {c} ({time.perf_counter() - t1:.0f}s)"))
        if timings is not None:
            timings.update(build=t1 - t0, run=time.perf_counter() - t1)
        r = parse_output(e, bench, out)
        cycles, ret = _cycles(out)
        say(f"{r.status} after {cycles} cycles in {time.perf_counter() - t1:.1f}s")
        if info is not None:
            info.update(simulator=sim, version=version, cycles=cycles, return_cycle=ret, loops=loop_ii(out, e.design),
                        monitors=monitor_failures(out))
        if vcd is not None:
            if not (wd / VCD).exists():
                raise LoomError(f"{sim} wrote no waveform", code="HDL_SIM_BUILD")
            shutil.copyfile(wd / VCD, vcd)
        return r
    finally:
        if own:
            shutil.rmtree(wd, ignore_errors=True)


def _command(sim: str, defines: list[str], trace: bool, e: Emitted, foreign: list[str]) -> list[str]:
    """The build command of ``sim`` on the design's SV and the testbench (``foreign``: the C libm options)."""
    srcs = e.sv_files + ["tb.sv"]
    if sim == "iverilog":
        return (["iverilog", "-g2012", "-I", ".", "-s", "tb", "-o", "sim.vvp"] + foreign + [f"-D{x}" for x in defines]
                + srcs)
    return (["verilator", "--binary", "--timing", "--assert", *VERILATOR_O0, "-Wno-fatal", "-Wno-lint", "-Wno-style",
             "-DLOOM_ASSERTIONS", "-I.", "--top-module", "tb", "-Mdir", "obj", "-o", "Vtb"]
            + (["--trace"] if trace else []) + [f"-D{x}" for x in defines] + srcs + foreign)


def _build(sim: str, defines: list[str], trace: bool, e: Emitted, wd: Path) -> None:
    """Compile the files written in ``wd`` (C libm first: a VPI module for iverilog, sources for Verilator)."""
    try:
        foreign = libm_c.simulator_args(sim, wd, e.c_files)
    except libm_c.LibmBuildError as err:
        raise LoomError(str(err), code="HDL_SIM_BUILD") from None
    _check(subprocess.run(_command(sim, defines, trace, e, foreign), cwd=wd, capture_output=True, text=True), sim)


def _artifacts(sim: str, e: Emitted) -> list[str]:
    """What a run needs of a build, relative to its directory: the vvp file (and the libm VPI module), or the binary."""
    if sim == "verilator":
        return ["obj/Vtb"]
    return ["sim.vvp"] + ([f"{libm_c.VPI_MODULE}.vpi"] if e.c_files else [])


# the code that writes the build commands, in every cache key: a changed command never reuses an old build
_CODE = [hashlib.sha256(Path(m.__file__).read_bytes()).hexdigest() for m in (libm_c, simcache)] + \
    [hashlib.sha256(Path(__file__).read_bytes()).hexdigest()]


@functools.lru_cache(maxsize=None)
def _installed(sim: str) -> tuple[str, str]:
    """The simulator's path and version (``simulator_version``), looked up once per process: the run's report
    names the version, and every cache key holds both."""
    tool = "verilator" if sim == "verilator" else "iverilog"
    return str(shutil.which(tool)), simulator_version(sim)


def _run_streaming(exe: list[str], wd: Path, tick: Callable[[int], None]) -> str:
    """Run the built simulation, passing each ``LOOM tick <cycle>`` line to ``tick``; all of its output."""
    p = subprocess.Popen(exe, cwd=wd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines = []
    assert p.stdout is not None
    for line in p.stdout:
        if line.startswith("LOOM tick "):
            tick(int(line.split()[2]))
        else:
            lines.append(line)
    p.wait()
    return "".join(lines)


def monitor_failures(out: str) -> dict[str, int]:
    """Monitor label -> the first cycle it failed, from the ``LOOM assert <scope> <cycle>`` lines a design compiled
    with ``LOOM_SIM_MONITORS`` prints (loom_props.svh; loom.hdl.formal.replay)."""
    got: dict[str, int] = {}
    for line in out.splitlines():
        f = line.split()
        if len(f) == 4 and f[:2] == ["LOOM", "assert"]:
            got.setdefault(f[2].rsplit(".", 1)[-1], int(f[3]))
    return got


def _cycles(out: str) -> tuple[Optional[int], Optional[int]]:
    """The cycle of ``LOOM end`` and of ``LOOM done_cycle`` (None when the return never fired)."""
    end = ret = None
    for line in out.splitlines():
        f = line.split()
        if len(f) >= 4 and f[:2] == ["LOOM", "end"]:
            end = int(f[3])
        elif len(f) >= 3 and f[:2] == ["LOOM", "done_cycle"]:
            ret = int(f[2]) if int(f[2]) >= 0 else None
    return end, ret


def _check(p: subprocess.CompletedProcess, tool: str) -> None:
    if p.returncode != 0:
        first = next((ln for ln in (p.stdout + p.stderr).splitlines() if ln.strip()), "")
        raise LoomError(f"{tool} failed on the emitted RTL: {first}", code="HDL_SIM_BUILD")


def parse_output(e: Emitted, bench: Bench, out: str) -> SimResult:
    """Turn the testbench's ``LOOM ...`` lines into a ``SimResult``."""
    d = e.design
    results: dict[int, int] = {}
    mems: dict[int, dict[int, int]] = {}  # memref argument # -> index -> bits
    chans: dict[int, int] = {}
    held: dict[int, int] = {}
    states: dict[int, int] = {}
    why, done, residual, fail = None, False, 0, (0, 0, 0)
    oob: Optional[list[str]] = None
    safety: dict[int, int] = {}  # safety monitor -> the first cycle it fired
    for line in out.splitlines():
        f = line.split()
        if not f or f[0] != "LOOM":
            if "Assertion failed" in line or "%Error" in line:
                raise LoomError(f"RTL assertion failed during simulation: {line.strip()}", code="HDL_ASSERTION")
            continue
        if f[1] == "end":
            why = int(f[2])
        elif f[1] == "done":
            done = f[2] == "1"
        elif f[1] == "result":
            results[int(f[2])] = int(f[3], 16) if "x" not in f[3].lower() else 0
        elif f[1] == "mem":
            mems.setdefault(int(f[2]), {})[int(f[3])] = int(f[4], 16) if "x" not in f[4].lower() else 0
        elif f[1] == "chan":
            chans[int(f[2])] = int(f[3])
            held[int(f[2])] = int(f[4])
        elif f[1] == "state":
            states[int(f[2])] = int(f[3])
        elif f[1] == "residual":
            residual = int(f[2])
        elif f[1] == "fail":
            fail = (int(f[2]), int(f[3]), int(f[4]))
        elif f[1] == "oob":
            oob = f[2:]
        elif f[1] == "safe":
            safety.setdefault(int(f[2]), int(f[3]))
    if why is None:
        raise LoomError("the RTL simulation ended without a report", code="HDL_SIM_BUILD")
    memrefs: dict[str, list[Any]] = {}
    for k, (name, mt) in enumerate(d.memrefs):
        view = bench.mem_views[name]
        buf = [decode(mems.get(k, {}).get(i, 0), mt.element) for i in range(len(view.buffer.data))]
        copy = MemRefView(type(view.buffer)(buf, view.buffer.element, view.buffer.name, view.buffer.readonly),
                          view.offset, view.sizes, view.strides)
        memrefs[name] = copy.to_flat()
    error: Optional[LoomError] = None
    if fail[0]:
        inst = d.instances[fail[1]]
        code, msg = inst.component.errors[fail[2]]
        error = SimulationError.of_op(inst.op.name, msg, inst.op.loc, code)
    elif oob is not None:
        error = _oob_error(e, bench, oob)
    elif any(d.safety[k].stops for k in safety):
        s = d.safety[min((k for k in safety if d.safety[k].stops), key=lambda k: (safety[k], k))]
        error = SimulationError.of_op(s.op.name, s.message, s.op.loc, s.code)
    elif why == 1 and not done:  # as the token simulator: a run cut after its return fired has completed
        error = SimulationError(f"no completion after {bench.max_cycles} RTL cycles", d.func.loc, "RT_SIM_STEP_LIMIT")
    vals: list[Any] = []
    if done:
        vals = [decode(results.get(k, 0), t) for k, t in enumerate(d.result_types)]
        if d.result_types and isinstance(d.result_types[-1], NoneType):
            vals = vals[:-1]
    status = "error" if error is not None else ("completed" if done else "deadlock")
    channels = {c.name: chans.get(i, 0) for i, c in enumerate(d.channels)}
    report = ""
    if status == "deadlock" or (status == "completed" and residual):
        title = "deadlock: the return never fired" if status == "deadlock" else f"{residual} residual token(s)"
        report = title + "\n" + stuck_report(d, held, states)
    fired = [SafetyViolation(d.safety[k].obligation, d.safety[k].code, c, d.safety[k].op.loc)
             for k, c in sorted(safety.items(), key=lambda kc: (kc[1], kc[0]))]
    return SimResult(status=status, results=vals, memrefs=memrefs, residual_tokens=residual, channels=channels,
                     error=error, deadlock_report=report, safety=fired)


def _pushed(c, counter: str, d=None) -> str:
    """A FIFO's ``pushes`` or ``count`` as the report shows it: a transparent FIFO's also counts the token pushed in
    the current cycle, and not the one popped (the consumer's firing in the cycle the run stops is not shown),
    unless its producer is the component failing in that cycle (a failed firing emits nothing)."""
    if c.buffer is None or not c.buffer.bypass:
        return f"dut.{c.fifo}.{counter}"
    push = f"dut.{c.fifo}.push"
    prod = _producer(d, c) if d is not None else None
    if prod is not None and prod.component.has_fail:
        push += f" && !dut.{prod.name}_fail"
    return f"(32'(dut.{c.fifo}.{counter}) + ({push} ? 32'd1 : 32'd0))"


def _producer(d, c):
    """The instance producing channel ``c``'s tokens (None for a function argument)."""
    from loom.ir.core import BlockArgument

    if c.value is None or isinstance(c.value, BlockArgument):
        return None
    return next((i for i in d.instances if i.op is c.value.op), None)


def _left_over(c, shown: bool = False, d=None) -> str:
    """The SV expression of a FIFO's residual tokens: its count less the tokens that re-arm a primed buffer
    (``shown``: the count as the report shows it, ``_pushed``)."""
    count = _pushed(c, "count", d) if shown else f"dut.{c.fifo}.count"
    if not c.allowance:
        return count
    return f"({count} > {c.allowance} ? {count} - {c.allowance} : 32'd0)"


def stuck_report(d, held: dict[int, int], states: dict[int, int]) -> str:
    """The token simulator's stuck report (``loom.sim.engine.stuck_report``), from FIFO occupancy and states."""
    by_port = {(c.consumer, c.port): (i, c) for i, c in enumerate(d.channels)}
    lines = []
    for inst in d.instances:
        m = inst.component.machine
        state = m.states[states.get(inst.index, 0)] if states.get(inst.index, 0) < len(m.states) else m.initial
        tokens = [p for p in m.inputs if p.kind == "token"]
        hold = []
        for p in tokens:
            i, c = by_port[(inst.name, p.name)]
            if c.fifo is not None and held.get(i, 0) > c.allowance:
                hold.append(f"{p.name} {c.name} x{held[i]}")
        latched = state in m.residual_states
        if not hold and not latched:
            continue
        empty = {p.name for p in tokens if by_port[(inst.name, p.name)][1].fifo is not None
                 and held.get(by_port[(inst.name, p.name)][0], 0) <= by_port[(inst.name, p.name)][1].allowance}
        waits = sorted({p for r in m.rules_in(state) for p in r.reads if p in empty})
        lines.append(stuck_line(f"'{inst.op.name}' at {inst.op.loc}", state, latched, hold, waits))
    return "\n".join(lines)


def _oob_error(e: Emitted, bench: Bench, f: list[str]) -> LoomError:
    """The token simulator's out-of-bounds error, rebuilt with its own memory view."""
    inst = next(i for i in e.design.instances if i.name == f[0])
    mb = next(m for m in e.design.mems if m.inst == f[0])
    view = bench.mem_views[mb.arg]
    idx = [int(x) for x in f[2:]]
    try:
        if f[1] == "load":
            view.load(idx, inst.op.name, inst.op.loc)
        else:
            view.load(idx, inst.op.name, inst.op.loc)
    except LoomError as err:
        return err
    return SimulationError(f"{inst.op.name}: out-of-bounds access", inst.op.loc, "RT_MEMREF_OUT_OF_BOUNDS")
