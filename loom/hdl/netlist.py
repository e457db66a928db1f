"""handshake.func -> top module: one component instance per DFG op, one FIFO per channel.

Channels are the simulator's channels (``loom.sim.names``): every use of a
value is its own FIFO, so a multi-use value is an implicit lazy fork (its
producer fires when every use's FIFO has room). Instance and wire names follow
the DFG's value names. Memref arguments are not tokens: each extmemory gets a
request/response port pair per load and per store port on the top
(``<inst>_rd<k>_*``, ``<inst>_wr<k>_*``), and a ``memref.dim`` gets the runtime
sizes of its memref argument as ``<inst>_dim<k>`` inputs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from loom.diagnostics import LoomError
from loom.hdl import buffers as bufs
from loom.hdl.components import Component, MemPort, build_component, handshake_props, sv_name
from loom.hdl.macro_runs import break_macro_runs
from loom.hdl.monitors import Monitors, build_monitors
from loom.hdl.monitors import safety
from loom.hdl.monitors.safety import SafetyMonitor
from loom.hdl.datapath.expr import HdlUnsupported, bits, literal, unique
from loom.ir.core import BlockArgument, Operation, Value
from loom.ir.types import IndexType, IntegerType, MemRefType, Type
from loom.runtime import function_arg_names
from loom.semantics.build import Machines
from loom.semantics.expr import Const
from loom.semantics.machine import Machine
from loom.verify.facts import DfgFacts
from loom.semantics.rest import rearm_allowance
from loom.sim.names import use_channel_names, value_name_map

HDL_UNSUPPORTED = "HDL_UNSUPPORTED"


@dataclass
class Channel:
    """One use of one value: FIFO ``fifo`` (None for an always-ready source) into ``consumer``'s port."""

    name: str
    fifo: Optional[str]
    width: int
    consumer: str
    port: str
    producer: str  # SV signal prefix of the produced value
    value: Optional[Value] = None  # the DFG value the channel carries
    const: Optional[str] = None  # SV literal when every token carries it (``constant_output``): no data in the FIFO
    buffer: Optional[bufs.Buffer] = None  # its FIFO's kind and depth (loom.hdl.buffers), None without a FIFO

    @property
    def allowance(self) -> int:
        """Tokens it may hold at the end without being residual: they re-arm a primed buffer."""
        return rearm_allowance(self.value) if self.value is not None else 0


@dataclass
class Instance:
    """One DFG op in the netlist."""

    name: str
    op: Operation
    component: Component
    index: int


@dataclass
class MemBinding:
    """Top-level memory ports of one extmemory/memref.dim instance bound to memref argument ``arg``."""

    inst: str
    arg: str
    type: MemRefType
    ports: list[MemPort]  # request/response pairs, top-level signals ``<inst>_<port>_<signal>``
    dims: int
    sized: bool = False  # the top has its runtime sizes ``<inst>_dim<k>``: the component or a safety monitor reads them


@dataclass
class Design:
    """A complete RTL design of one handshake.func."""

    top: str
    func: Operation
    instances: list[Instance]
    channels: list[Channel]
    components: dict[str, Component]
    args: list[tuple[str, Type, str]]  # (argument name, type, top-level port prefix) of token args
    memrefs: list[tuple[str, MemRefType]]
    mems: list[MemBinding]
    fifo_depth: int
    ret: Optional[Instance] = None
    result_types: list[Type] = field(default_factory=list)
    text: str = ""
    fail_sources: list[tuple[str, int]] = field(default_factory=list)  # instance, component fail_code count
    signals: dict[Value, str] = field(default_factory=dict)  # DFG value -> its SV signal prefix (v_<name>)
    monitors: Optional["Monitors"] = None  # DFG-level monitors (loom.hdl.monitors)
    safety: list[SafetyMonitor] = field(default_factory=list)  # safety monitors (loom.hdl.monitors.safety)
    source: Optional[Operation] = None  # the SCF func.func lowered to func: program order of the order monitors
    buffers: str = "uniform"  # the buffer policy that chose every channel's FIFO (loom.hdl.buffers)
    # the verifier's facts of func (loom.verify.facts): computed on first read, shared by the monitors and the
    # helper invariants (one clock calculus, one memory layout per design)
    facts: Optional["DfgFacts"] = None

    @property
    def values(self) -> dict[Value, str]:
        """The SV signal prefix of every token value (``signals`` without memrefs)."""
        return {v: s for v, s in self.signals.items() if not isinstance(v.type, MemRefType)}


def _ident(name: str, taken: set[str]) -> str:
    base = re.sub(r"[^A-Za-z0-9_]", "_", name.lstrip("%")).strip("_") or "v"
    if base[0].isdigit():
        base = "v" + base
    return unique(base, taken)


def _unsupported(op: Operation, e: HdlUnsupported) -> LoomError:
    return LoomError(f"'{op.name}' has no RTL model: {e}", op.loc, HDL_UNSUPPORTED)


def _check_types(func: Operation, ops: list[Operation]) -> None:
    """Every token carries a type with a bit encoding (an empty tuple has none): else HDL_UNSUPPORTED where it
    appears."""
    def encodable(ty: Type) -> bool:
        if isinstance(ty, MemRefType):
            return True
        try:
            bits(ty)
        except ValueError:
            return False
        return True

    for a in func.regions[0].entry.args:
        if not encodable(a.type):
            raise LoomError(f"argument of type {a.type} has no RTL encoding", func.loc, HDL_UNSUPPORTED)
    for op in ops:
        for v in list(op.operands) + list(op.results):
            if not encodable(v.type):
                raise LoomError(f"'{op.name}' has no RTL model: values of type {v.type} have no RTL encoding",
                                op.loc, HDL_UNSUPPORTED)


def constant_output(m: Machine, port: str) -> Optional[object]:
    """The value every token on output ``port`` of table ``m`` carries, when each rule that emits there emits
    the same literal (a ``handshake.constant``); None otherwise. Its channels' FIFOs then keep only the tokens,
    and the top drives the data with the literal (a 64-bit index constant's FIFO held 128 flip-flops of it)."""
    exprs = [e for r in m.rules for q, e in r.emits if q == port]
    if not exprs or not all(isinstance(e, Const) for e in exprs):
        return None
    values = {repr(e.value) for e in exprs}  # type: ignore[union-attr]
    return exprs[0].value if len(values) == 1 else None  # type: ignore[union-attr]


def build_design(func: Operation, fifo_depth: int = 2, rtl_bound: Optional[int] = None,
                 monitors: bool = True, source: Optional[Operation] = None,
                 buffers: str = bufs.DEFAULT_POLICY) -> Design:
    """The netlist of ``func`` (a handshake.func); bad or unsupported ops raise ``LoomError`` at their location.
    ``buffers``: the policy that places and sizes the channel FIFOs (loom.hdl.buffers.POLICIES)."""
    if buffers not in bufs.POLICIES:
        raise LoomError(f"--buffers must be one of {', '.join(bufs.POLICIES)}, got {buffers!r}")
    if func.name != "handshake.func" or not func.regions or not func.regions[0].blocks:
        raise LoomError(f"'{func.name}' is not a handshake.func with a body", func.loc)
    body = func.regions[0].entry
    ops = list(body.ops)
    _check_types(func, ops)
    tables = Machines()  # ops of one signature share one (immutable) table: a large DFG has few distinct ones
    machines: list[Machine] = [tables(op) for op in ops]
    components, inst_comp = _components(ops, machines)
    vsig, instances = _named_instances(func, ops, inst_comp)
    channels = _channels(func, instances, machines, vsig)
    arg_names, args, memrefs, arg_prefix = _arguments(func)
    mems = _mem_bindings(body, instances, machines, arg_names)
    design = Design(
        top=_ident(func.attributes["sym_name"].value + "_dfg", set()),  # type: ignore[union-attr]
        func=func, instances=instances, channels=channels, components=components, args=args,
        memrefs=memrefs, mems=mems, fifo_depth=fifo_depth, signals=vsig, source=source, buffers=buffers,
        facts=DfgFacts(func, source),
    )
    plan = bufs.place(instances, channels, buffers, fifo_depth)
    for ch in channels:
        if ch.fifo is not None:
            ch.buffer = plan[ch.fifo]
    for inst in instances:
        if inst.op.name == "handshake.return" and design.ret is None:
            design.ret = inst
            design.result_types = [v.type for v in inst.op.operands]
    design.text = _top_text(design, machines, vsig, arg_prefix, rtl_bound, monitors)
    return design


def _components(ops: list[Operation], machines: list[Machine]) -> tuple[dict[str, Component], list[Component]]:
    """(one component per module, by module name; each op's component): ops of one module share it."""
    components: dict[str, Component] = {}
    inst_comp: list[Component] = []
    for op, m in zip(ops, machines):
        try:
            c = build_component(m)
        except HdlUnsupported as e:
            raise _unsupported(op, e) from None
        components.setdefault(c.module, c)
        inst_comp.append(components[c.module])
    return components, inst_comp


def _named_instances(func: Operation, ops: list[Operation],
                     inst_comp: list[Component]) -> tuple[dict[Value, str], list[Instance]]:
    """(every value's SV signal prefix ``v_<name>``, one instance ``u_<name>`` per op), named after the DFG."""
    body = func.regions[0].entry
    all_values: list[Value] = list(body.args) + [r for op in ops for r in op.results]
    vnames = value_name_map(func, all_values)
    vtaken: set[str] = set()
    vsig: dict[Value, str] = {v: "v_" + _ident(vnames[v], vtaken) for v in all_values}
    itaken: set[str] = set()
    instances: list[Instance] = []
    for i, (op, c) in enumerate(zip(ops, inst_comp)):
        base = vnames[op.results[0]] if op.results else op.name.split(".")[-1]
        instances.append(Instance("u_" + _ident(base, itaken), op, c, i))
    return vsig, instances


def _channels(func: Operation, instances: list[Instance], machines: list[Machine],
              vsig: dict[Value, str]) -> list[Channel]:
    """One channel per use of a token value, in the simulator's use order (memref operands carry no tokens, a
    static input none): a FIFO unless its producer is an always-ready source, its data a literal when every
    token carries one."""
    uses: list[tuple[Value, int]] = []
    slots: list[tuple[Instance, int]] = []
    seen: dict[Value, int] = {}
    for inst, m in zip(instances, machines):
        for k, v in enumerate(inst.op.operands):
            if m.inputs[k].kind == "memref":
                continue
            u = seen.get(v, 0)
            seen[v] = u + 1
            uses.append((v, u))
            slots.append((inst, k))
    cnames = use_channel_names(func, uses)
    producer_of: dict[int, tuple[Instance, Machine]] = {id(inst.op): (inst, m) for inst, m in zip(instances, machines)}
    channels: list[Channel] = []
    ftaken: set[str] = set()
    for (v, _), (inst, k), cname in zip(uses, slots, cnames):
        m = machines[inst.index]
        if m.inputs[k].kind == "static":  # wired to a source: carries no tokens, the component has no port
            continue
        port = m.inputs[k].name
        src = None
        if not isinstance(v, BlockArgument):
            pinst, pm = producer_of[id(v.op)]
            if pm.outputs[v.index].name in dict(pm.sources):
                src = pinst
        fifo = None if src is not None else "f_" + _ident(cname, ftaken)
        const = None
        if fifo is not None and not isinstance(v, BlockArgument) and bits(v.type) > 1:
            pm = producer_of[id(v.op)][1]
            value = constant_output(pm, pm.outputs[v.index].name)
            const = None if value is None else literal(value, v.type)
        channels.append(Channel(cname, fifo, bits(v.type), inst.name, port, vsig[v], v, const))
    return channels


def _arguments(func: Operation) -> tuple[list[str], list[tuple[str, Type, str]], list[tuple[str, MemRefType]],
                                         dict[Value, str]]:
    """(argument names; token arguments with their top-level port prefix ``in_<name>``; memref arguments;
    token argument -> its port prefix). Top-level ports have their own namespace."""
    body = func.regions[0].entry
    taken: set[str] = {"clk", "rst", "done", "residual", "fail", "fail_inst", "fail_code"}
    arg_names = function_arg_names(func)
    args = []
    memrefs = []
    for name, a in zip(arg_names, body.args):
        if isinstance(a.type, MemRefType):
            memrefs.append((name, a.type))
        else:
            args.append((name, a.type, "in_" + _ident(name, taken)))  # top-level ports: their own namespace
    arg_prefix = {a: p for a, (_, _, p) in zip([x for x in body.args if not isinstance(x.type, MemRefType)], args)}
    return arg_names, args, memrefs, arg_prefix


def _mem_bindings(body, instances: list[Instance], machines: list[Machine], arg_names: list[str]) -> list[MemBinding]:
    """The top-level memory ports of every instance that reads a memref operand, which must be an argument."""
    mems: list[MemBinding] = []
    for inst, m in zip(instances, machines):
        if m.memory is not None and m.memory.source == "operand":
            mv = inst.op.operands[0]
            if not isinstance(mv, BlockArgument) or mv.block is not body:
                raise LoomError(f"'{inst.op.name}': its memref must be a function argument", inst.op.loc)
            mt = mv.type
            assert isinstance(mt, MemRefType)
            c = inst.component
            mems.append(MemBinding(inst.name, arg_names[mv.index], mt, list(c.mem.ports), mt.rank, bool(c.mem.dims)))
    return mems


def _top_ports(d: Design) -> list[str]:
    """The top's ports: clock/reset, each argument's handshake, each memory port and size, results and status."""
    ports = ["input  logic clk", "input  logic rst"]
    for name, t, p in d.args:
        ports += [f"input  logic {p}_valid", f"output logic {p}_ready", f"input  logic [{bits(t) - 1}:0] {p}_data"]
    for mb in d.mems:
        for mp in mb.ports:
            ports += [f"{dr:6} logic {f'[{w - 1}:0] ' if w > 1 else ''}{mb.inst}_{mp.name}_{x}"
                      for dr, x, w in mp.signals()]
        if mb.sized:
            ports += [f"input  logic [63:0] {mb.inst}_dim{k}" for k in range(mb.dims)]
    for k, t in enumerate(d.result_types):
        ports.append(f"output logic [{bits(t) - 1}:0] result{k}")
    ports += ["output logic done", "output logic residual", "output logic fail", "output logic [15:0] fail_inst",
              "output logic [7:0] fail_code"]
    return ports


def _value_signals(d: Design, vsig: dict[Value, str], arg_prefix: dict, by_producer: dict[str, list[Channel]],
                   decl: list[str], stmts: list[str]) -> None:
    """Each value's producer signals (ready = every FIFO of its channels can take a token) and the arguments'
    connection to the top's ports."""
    for v, s in vsig.items():
        if isinstance(v.type, MemRefType):
            continue
        fifos = [ch for ch in by_producer.get(s, []) if ch.fifo is not None]
        data = f"logic [{bits(v.type) - 1}:0] {s}_data;"
        if fifos and all(ch.const is not None for ch in by_producer[s]):  # its FIFOs take the literal instead
            data = f"/* verilator lint_off UNUSEDSIGNAL */ {data} /* verilator lint_on UNUSEDSIGNAL */"
        decl += [f"  logic {s}_valid, {s}_ready;", f"  {data}"]
        ready = " && ".join(f"{ch.fifo}_in_ready" for ch in fifos) or "1'b1"
        stmts.append(f"  assign {s}_ready = {ready};")
    for a in d.func.regions[0].entry.args:
        if isinstance(a.type, MemRefType):
            continue
        p, s = arg_prefix[a], vsig[a]
        stmts += [f"  assign {s}_valid = {p}_valid;", f"  assign {s}_data = {p}_data;", f"  assign {p}_ready = {s}_ready;"]


def _channel_fifos(d: Design, by_producer: dict[str, list[Channel]], decl: list[str], stmts: list[str]) -> None:
    """One ``loom_fifo`` per channel (a producer pushes into all its channels' FIFOs at once); a constant
    channel's FIFO keeps only the tokens."""
    for ch in d.channels:
        if ch.fifo is None:
            stmts.append(f"  // channel {ch.name}: always-ready source, no FIFO")
            continue
        others = [c.fifo for c in by_producer[ch.producer] if c.fifo is not None and c.fifo != ch.fifo]
        push_ok = " && ".join(f"{o}_in_ready" for o in others)
        valid = f"{ch.producer}_valid" + (f" && {push_ok}" if push_ok else "")
        decl += [f"  logic {ch.fifo}_in_ready, {ch.fifo}_out_valid, {ch.fifo}_out_ready;",
                 f"  logic [{ch.width - 1}:0] {ch.fifo}_out_data;"]
        width, in_data, out_data = ch.width, f"{ch.producer}_data", f"{ch.fifo}_out_data"
        if ch.const is not None:  # the FIFO keeps the tokens only; every one carries the literal
            decl.append(f"  /* verilator lint_off UNUSEDSIGNAL */ logic {ch.fifo}_out_none; "
                        "/* verilator lint_on UNUSEDSIGNAL */")
            stmts.append(f"  assign {ch.fifo}_out_data = {ch.const};  // constant channel: no data in its FIFO")
            width, in_data, out_data = 1, "1'b0", f"{ch.fifo}_out_none"
        buf = ch.buffer or bufs.Buffer(bufs.REGISTERED, d.fifo_depth)
        stmts += [f"  // channel {ch.name}" + (" (transparent)" if buf.bypass else ""),
                  f"  loom_fifo #(.WIDTH({width}), .DEPTH({buf.depth})" + (", .BYPASS(1'b1)" if buf.bypass else ""),
                  "`ifdef LOOM_STALL",  # co-simulation only: synthesis sees one FIFO module per width and depth
                  f"    , .STALL_SEED({_seed(ch.fifo)})",
                  "`endif",
                  f"  ) {ch.fifo} (",
                  "    .clk(clk), .rst(rst),",
                  f"    .in_valid({valid}), .in_ready({ch.fifo}_in_ready), .in_data({in_data}),",
                  f"    .out_valid({ch.fifo}_out_valid), .out_ready({ch.fifo}_out_ready), .out_data({out_data}));"]


def _instances(d: Design, machines: list[Machine], vsig: dict[Value, str], decl: list[str],
               stmts: list[str]) -> list[tuple[str, int]]:
    """One component instance per op, wired to its input FIFOs, output signals, memory ports and status wires;
    returns (instance, index) of every instance that can fail."""
    in_ch: dict[tuple[str, str], Channel] = {(ch.consumer, ch.port): ch for ch in d.channels}
    fails: list[tuple[str, int]] = []
    for inst, m in zip(d.instances, machines):
        c = inst.component
        conns = [".clk(clk)", ".rst(rst)"]
        for p in m.inputs:
            if p.kind != "token":
                continue
            n = sv_name(p.name)
            ch = in_ch[(inst.name, p.name)]
            if ch.fifo is None:
                conns += [f".{n}_valid(1'b1)", f".{n}_ready()", f".{n}_data({ch.producer}_data)"]
            else:
                conns += [f".{n}_valid({ch.fifo}_out_valid)", f".{n}_ready({ch.fifo}_out_ready)",
                          f".{n}_data({ch.fifo}_out_data)"]
        for k, p in enumerate(m.outputs):
            n = sv_name(p.name)
            s = vsig[inst.op.results[k]]
            conns += [f".{n}_valid({s}_valid)", f".{n}_ready({s}_ready)", f".{n}_data({s}_data)"]
        mb = next((x for x in d.mems if x.inst == inst.name), None)
        if mb is not None:
            for mp in mb.ports:
                conns += [f".{mp.name}_{x}({inst.name}_{mp.name}_{x})" for _, x, _ in mp.signals()]
            if c.mem.dims:
                conns += [f".dim{k}({inst.name}_dim{k})" for k in range(mb.dims)]
        decl.append(f"  logic {inst.name}_residual;")
        conns.append(f".residual({inst.name}_residual)")
        if c.has_fail:
            decl += [f"  logic {inst.name}_fail;", f"  logic [7:0] {inst.name}_fail_code;"]
            conns += [f".fail({inst.name}_fail)", f".fail_code({inst.name}_fail_code)"]
        if c.result_count:
            for k in range(c.result_count):
                decl.append(f"  logic [{bits(m.inputs[k].type) - 1}:0] {inst.name}_result{k};")
                conns.append(f".result{k}({inst.name}_result{k})")
            decl.append(f"  logic {inst.name}_complete;")
            conns.append(f".complete({inst.name}_complete)")
        if c.has_fail:
            fails.append((inst.name, inst.index))
        loc = inst.op.loc
        stmts.append(f"  // {inst.op.name} at {loc}")
        stmts.append(f"  {c.module} {inst.name} (")
        stmts.append(",\n".join("    " + x for x in conns))
        stmts.append("  );")
    return fails


def _status(d: Design, fails: list[tuple[str, int]]) -> list[str]:
    """done/results from the return, residual (a component holds a token latched mid-burst: the FSM half of
    the residual tokens) and the first failing instance with its code."""
    lines = []
    if d.ret is not None:
        lines.append(f"  assign done = {d.ret.name}_complete;")
        for k in range(len(d.result_types)):
            lines.append(f"  assign result{k} = {d.ret.name}_result{k};")
    else:
        lines.append("  assign done = 1'b0;")
    lines.append(f"  assign residual = {' || '.join(f'{i.name}_residual' for i in d.instances) or chr(49) + chr(39) + 'b0'};")
    lines.append(f"  assign fail = {' || '.join(f'{n}_fail' for n, _ in fails) or chr(49) + chr(39) + 'b0'};")
    fi, fc = "16'd0", "8'd0"
    for n, idx in reversed(fails):
        fi = f"{n}_fail ? 16'd{idx} : {fi}"
        fc = f"{n}_fail ? {n}_fail_code : {fc}"
    return lines + [f"  assign fail_inst = {fi};", f"  assign fail_code = {fc};"]


def _bound_assumptions(d: Design, rtl_bound: int) -> list[str]:
    """``loom verify --rtl --rtl-bound N``: integer/index arguments and memref sizes in [0, N]."""
    lines = ["`ifdef LOOM_ASSERTIONS", "  `LOOM_PAST_VALID"]
    for name, t, p in d.args:
        if isinstance(t, (IntegerType, IndexType)) and bits(t) > 1:
            w = bits(t)
            lines.append(f"  `LOOM_ASSUME_ALWAYS(a_bound_{p}, {p}_data <= {w}'d{rtl_bound})")
    for mb in d.mems:  # memref sizes bound trip counts too
        if any(inst.name == mb.inst and inst.component.mem.dims for inst in d.instances):
            lines += [f"  `LOOM_ASSUME_ALWAYS(a_bound_{mb.inst}_dim{k}, {mb.inst}_dim{k} <= 64'd{rtl_bound})"
                      for k in range(mb.dims)]
    return lines + ["`endif"]


AG_OUT = "LOOM_AG_OUT"  # task top: the cut components' output guarantees, restated as assumptions on the top's wires
AG_IN = "LOOM_AG_IN"  # task top_in: the cut components' input assumptions, restated as assertions


def ag_cut(d: Design) -> list[str]:
    """The instances tasks ``top``/``top_in`` cut out (``cutpoint``), their handshake properties restated on the
    top's wires (``_ag_lines``): every component but the always-valid sources, whose constant data a consumer's
    ``data_stable`` assumption reads."""
    return [i.name for i in d.instances if not i.component.machine.sources]


def _ag_lines(d: Design, machines: list[Machine], vsig: dict[Value, str], past_valid: bool) -> list[str]:
    """The assume-guarantee restatement (loom.hdl.formal.sby.top_lines): for every cut instance, its output
    handshake guarantees (``p_<port>_valid_stays``/``_data_stable``, proved by task components) as assumptions
    ``g_<inst>_<port>_*`` under ``AG_OUT``, and its input assumptions (``a_<port>_*``) as assertions
    ``i_<inst>_<port>_*`` under ``AG_IN``: the same formulas as the component's (loom.hdl.components), on the
    wires its ports are bound to."""
    cut = set(ag_cut(d))
    in_ch: dict[tuple[str, str], Channel] = {(ch.consumer, ch.port): ch for ch in d.channels}
    outs, ins = [], []
    for inst, m in zip(d.instances, machines):
        if inst.name not in cut:
            continue
        for k, p in enumerate(m.outputs):
            s = vsig[inst.op.results[k]]
            outs += handshake_props("LOOM_ASSUME_NEXT", f"g_{inst.name}_{sv_name(p.name)}", f"{s}_valid",
                                    f"{s}_ready", f"{s}_data")
        for p in m.inputs:
            if p.kind != "token":
                continue
            ch = in_ch[(inst.name, p.name)]
            if ch.fifo is None:
                continue  # an always-valid source's constant: valid and stable by its own (uncut) module
            f = ch.fifo
            ins += handshake_props("LOOM_ASSERT_NEXT", f"i_{inst.name}_{sv_name(p.name)}", f"{f}_out_valid",
                                   f"{f}_out_ready", f"{f}_out_data")
    # the environment: an argument offered stays valid and stable until the top takes it (the contract every
    # FIFO it pushes into assumes of its input, here on the top's port: a fork's FIFOs are then internal)
    env = []
    for _, ty, a in d.args:
        if not isinstance(ty, MemRefType):
            env += handshake_props("LOOM_ASSUME_NEXT", f"e_{a}", f"{a}_valid", f"{a}_ready", f"{a}_data")
    past = ["  `LOOM_PAST_VALID"] if past_valid else []  # with --rtl-bound the top declares it already
    return ["`ifdef LOOM_ASSERTIONS", "  // the composition's premises, tasks top and top_in (loom.hdl.formal.sby."
            "top_lines): the cut components' handshake properties on the top's wires", f"`ifdef {AG_OUT}", *past,
            *env, *outs, f"`elsif {AG_IN}", *past, *ins, "`endif", "`endif"]


def _top_text(d: Design, machines: list[Machine], vsig: dict[Value, str], arg_prefix: dict,
              rtl_bound: Optional[int] = None, monitors: bool = True) -> str:
    """The top module's SV text: ports, value signals, channel FIFOs, instances, status, then the assumptions,
    safety monitors and DFG-level monitors."""
    d.safety = safety.build_safety(d, machines)  # first: it marks the extmemories whose sizes it reads
    ports = _top_ports(d)
    fname = d.func.attributes["sym_name"].value  # type: ignore[union-attr]
    lines = [f"// top of handshake.func @{fname}: one instance per DFG op, one loom_fifo per channel",
             "// generated by loom hdl; instance and wire names follow the DFG's value names",
             '`include "loom_props.svh"',
             "// the file is named after the input (<stem>.sv), the module after the function (see specs/hdl.md)",
             f"/* verilator lint_off DECLFILENAME */ module {d.top} ( /* verilator lint_on DECLFILENAME */",
             ",\n".join("  " + p for p in ports), ");"]
    by_producer: dict[str, list[Channel]] = {}
    for ch in d.channels:
        by_producer.setdefault(ch.producer, []).append(ch)
    decl: list[str] = []  # every declaration comes before its first use (pyslang insists)
    stmts: list[str] = []
    _value_signals(d, vsig, arg_prefix, by_producer, decl, stmts)
    _channel_fifos(d, by_producer, decl, stmts)
    fails = _instances(d, machines, vsig, decl, stmts)
    lines += decl + stmts
    lines += _status(d, fails)
    if rtl_bound is not None:
        lines += _bound_assumptions(d, rtl_bound)
    lines += safety.lines(d.safety)
    lines += _ag_lines(d, machines, vsig, past_valid=rtl_bound is None)
    if monitors:
        d.monitors = build_monitors(d)
        lines += d.monitors.lines()
        # task dfg checks one run from reset: a later reset only restarts it (every register the monitors and the
        # control read is reset), so assuming none loses no run and spares the solver every restart (1.6x CPU)
        lines += ["`ifdef LOOM_DFG_MONITORS", "`ifndef LOOM_LIVENESS", "  `LOOM_ASSUME_RESET_ONCE", "`endif", "`endif"]
    lines.append("endmodule")
    d.fail_sources = fails
    return "\n".join(break_macro_runs(lines)) + "\n"


def _seed(name: str) -> int:
    """A stable per-FIFO stall seed (FNV-1a of the FIFO's name, 31 bits)."""
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xFFFFFFFF
    return h & 0x7FFFFFFF

