"""Operator table -> one SystemVerilog component (valid/ready ports, its own properties).

The component is generated from ``loom.semantics.machine_for`` (the one operator
table), so it cannot disagree with the simulator or the Z3 model about which
tokens a firing reads and writes: each rule becomes an enable (state, valid
inputs, guard), rules are prioritised in table order (the simulator's choice),
and the chosen rule fires when every port it emits to is ready. A firing
consumes its read tokens and offers its emitted tokens in the same cycle;
outputs are combinational and the netlist puts a FIFO on every channel. An
extmemory's load and store rules talk to the memory over request/response port
pairs (``MemPort``): such a rule fires in the cycle its response is accepted.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from typing import Optional

from loom.hdl.datapath.expr import SvExprBuilder, bits, literal
from loom.ir.types import IntegerType, MemRefType, Type, index
from loom.semantics import describe
from loom.semantics.machine import Complete, Fail, Machine, Write
from loom.verify.lemmas.contracts import family  # the one spelling of lemma ids (RTL labels = Z3 ids)

MEM_OOB = "RT_MEMREF_OUT_OF_BOUNDS"


def sv_name(port: str) -> str:
    """An SV identifier for a table port name (``st0.data`` -> ``st0_data``)."""
    return re.sub(r"[^A-Za-z0-9_]", "_", port)


def obligation_id(m: Machine) -> Optional[str]:
    """The ``fsm.*`` obligation whose table the component implements (None for always-ready sources)."""
    if not m.rules:
        return None
    prop = "shape" if m.op_name in ("dataflow.stream", "dataflow.gate", "dataflow.carry",
                                    "dataflow.invariant") else "balance"
    return f"fsm.{family(m)}.{prop}"


@dataclass
class MemPort:
    """One request/response port pair of an extmemory, serving table rule ``rule`` (a load or a store port).

    Request (component -> memory): ``<name>_req_valid``, ``_req_ready`` (in), ``_req_addr<i>`` (64-bit
    indices) and, for a store, ``_req_data``. Response (memory -> component): ``<name>_resp_valid`` (in),
    ``_resp_ready`` and, for a load, ``_resp_data`` (in). One request is outstanding per port at a time: it
    is issued while the rule's input tokens wait at the inputs, and the rule fires -- taking those tokens
    and emitting its outputs -- in the cycle its response is accepted, so the table's firing stays atomic.
    """

    name: str  # rd<k> or wr<k>
    kind: str  # load or store
    addrs: int
    type: Type  # the element type
    rule: int

    def signals(self) -> list[tuple[str, str, int]]:
        """Every signal of the pair as (direction seen from the component, suffix, width)."""
        w = bits(self.type)
        out = [("output", "req_valid", 1), ("input", "req_ready", 1)]
        out += [("output", f"req_addr{i}", 64) for i in range(self.addrs)]
        if self.kind == "store":
            out.append(("output", "req_data", w))
        out += [("input", "resp_valid", 1), ("output", "resp_ready", 1)]
        if self.kind == "load":
            out.append(("input", "resp_data", w))
        return out


@dataclass
class MemPorts:
    """External memory ports of a component: request/response pairs, plus dimension inputs."""

    ports: list[MemPort] = field(default_factory=list)
    dims: int = 0

    @property
    def loads(self) -> list[MemPort]:
        return [p for p in self.ports if p.kind == "load"]

    @property
    def stores(self) -> list[MemPort]:
        return [p for p in self.ports if p.kind == "store"]


@dataclass
class Component:
    """One generated module: its name, text, the errors it can flag, its properties and memory ports."""

    module: str
    text: str
    machine: Machine
    errors: list[tuple[str, str]]  # fail_code -> (code, message)
    properties: list[tuple[str, Optional[str], int]]  # (label, obligation id, line in text)
    mem: MemPorts
    float_behavioural: bool
    result_count: int = 0
    has_fail: bool = False
    c_files: tuple[str, ...] = ()  # C sources its float models call (loom_libm.c: loom.hdl.datapath.libm_c)


def module_name(m: Machine) -> str:
    """A stable module name: op kind plus a hash of the full table text."""
    kind = sv_name(m.op_name.split(".", 1)[-1] if "." in m.op_name else m.op_name)
    digest = hashlib.sha1(table_key(m).encode()).hexdigest()[:8]
    return f"loom_{kind}_{digest}"


def table_key(m: Machine) -> str:
    """Everything that decides a component's RTL: the table text plus the static data of its scalar calls
    (a cmpi's predicate is an attribute, not part of the printed table)."""
    from loom.semantics.expr import Apply, ScalarInfo, subexprs

    params = []
    for r in m.rules:
        for e in r.expressions():
            for x in subexprs(e):
                if isinstance(x, Apply) and isinstance(x.param, ScalarInfo):
                    params.append(repr(x.param))
    return describe(m) + "\n" + "\n".join(params)


def _state_bits(m: Machine) -> int:
    return max(1, (len(m.states) - 1).bit_length())


@dataclass
class _Memory:
    """The component's memory binding as SV: an internal array (``fresh``: row-major, out-of-bounds checked) or
    request/response ports to the top (an ``operand`` memref); ``read``/``dim`` are the expression builder's
    hooks, called while a rule (``rule``) is translated."""

    mem_t: Optional[Type]
    internal: bool
    shape: list[int]
    ports: list[str]  # the module's port list (``dim`` adds the memref's sizes)
    body: list[str]  # request payload assignments
    mem: MemPorts = field(default_factory=MemPorts)
    rule: int = 0
    bld: Optional[SvExprBuilder] = None

    @property
    def elem_t(self) -> Optional[Type]:
        return self.mem_t.element if isinstance(self.mem_t, MemRefType) else None

    @property
    def size(self) -> int:
        size = 1
        for s in self.shape:
            size *= s
        return size

    @property
    def aw(self) -> int:
        """The index width of the internal array."""
        return max(1, (self.size - 1).bit_length())

    def lin(self, addrs: list[str]) -> tuple[str, str]:
        """Row-major linear address of an internal memory and its in-bounds condition."""
        terms, ok = [], []
        stride = 1
        for a, s in reversed(list(zip(addrs, self.shape))):
            terms.append(f"({a} * 64'd{stride})" if stride != 1 else a)
            ok.append(f"({a} < 64'd{s})")
            stride *= s
        return (" + ".join(reversed(terms)) or "64'd0"), (" && ".join(ok) or "1'b1")

    def read(self, addrs: list[str]) -> tuple[str, Type]:
        """A load of the current rule: the array's element (internal) or a new read port's response."""
        elem_t, bld = self.elem_t, self.bld
        assert elem_t is not None and bld is not None
        if self.internal:
            la, ok = self.lin(addrs)
            a = bld.wire(IntegerType(self.aw), f"{self.aw}'({la})")  # exactly the array's index width
            okw = bld.wire(IntegerType(1), ok)
            bld.hazards.append((f"!{okw}", MEM_OOB, "memory access out of bounds"))
            return bld.wire(elem_t, f"{okw} ? mem[{a}] : '0"), elem_t
        k = len(self.mem.loads)
        self.mem.ports.append(MemPort(f"rd{k}", "load", len(addrs), elem_t, self.rule))
        for i, a in enumerate(addrs):
            self.body.append(f"  assign rd{k}_req_addr{i} = {a};")
        return f"rd{k}_resp_data", elem_t

    def dim(self, x: str) -> str:
        """The size of dimension ``x`` of an operand memref (its ``dim<i>`` inputs join the port list)."""
        assert isinstance(self.mem_t, MemRefType)
        self.mem.dims = self.mem_t.rank
        for i in range(self.mem_t.rank):
            if f"input  logic [63:0] dim{i}" not in self.ports:
                self.ports.append(f"input  logic [63:0] dim{i}")
        sel = "64'h0"
        for i in reversed(range(self.mem_t.rank)):
            sel = f"({x} == 64'd{i}) ? dim{i} : {sel}"
        return sel


@dataclass
class _Rules:
    """The table's rules translated to SV: per rule its guard, emitted data, register updates, enable (``en``),
    priority select (``sel``) and fire (``go``) conditions; the runtime errors it may raise (``errors``, raised
    when a ``fail_terms`` condition holds), an internal memory's writes and the return values (``results``)."""

    guards: list[str] = field(default_factory=list)
    emits: list[dict[str, str]] = field(default_factory=list)
    updates: list[list[tuple[str, str]]] = field(default_factory=list)
    base: list[str] = field(default_factory=list)
    en: list[str] = field(default_factory=list)
    sel: list[str] = field(default_factory=list)
    go: list[str] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    fail_terms: list[tuple[str, int]] = field(default_factory=list)
    writes: list[tuple[int, list[str], str]] = field(default_factory=list)
    results: list[str] = field(default_factory=list)


def _token_ports(m: Machine, ins) -> list[str]:
    """clk, rst and the handshake ports of every token input and output."""
    ports: list[str] = ["input  logic clk", "input  logic rst"]
    for p in ins:
        n = sv_name(p.name)
        ports += [f"input  logic {n}_valid", f"output logic {n}_ready", f"input  logic [{bits(p.type) - 1}:0] {n}_data"]
    for p in m.outputs:
        n = sv_name(p.name)
        ports += [f"output logic {n}_valid", f"input  logic {n}_ready",
                  f"output logic [{bits(p.type) - 1}:0] {n}_data"]
    return ports


def _memory_of(m: Machine, ports: list[str], body: list[str]) -> _Memory:
    """The SV form of ``m``'s memory binding (none: no memory)."""
    binding = m.memory
    mem_t = binding.type if binding is not None else None
    internal = binding is not None and binding.source == "fresh"
    shape: list[int] = []
    if internal:
        assert isinstance(mem_t, MemRefType)
        shape = [int(s) for s in mem_t.shape]
    return _Memory(mem_t, internal, shape, ports, body)


def _translate(m: Machine, bld: SvExprBuilder, memory: _Memory, reg_t: dict[str, Type]) -> _Rules:
    """Every rule's expressions as SV wires of ``bld``, and its enable/select/fire conditions, in rule order."""
    out = _Rules()
    mem, elem_t = memory.mem, memory.elem_t
    for i, r in enumerate(m.rules):
        bld.hazards = []
        memory.rule = i
        g = bld.emit(r.guard)[0] if r.guard is not None else "1'b1"
        out.guards.append(g)
        emits = {}
        for port, e in r.emits:
            emits[port] = bld.emit(e, m.output(port).type)[0]
        out.emits.append(emits)
        out.updates.append([(n, bld.emit(e, reg_t[n])[0]) for n, e in r.updates])
        eff = r.effect
        if isinstance(eff, Write):
            addr = [bld.emit(a, index)[0] for a in eff.address]
            data = bld.emit(eff.data, elem_t)[0]
            if memory.internal:
                out.writes.append((i, addr, data))
            else:
                assert elem_t is not None
                k = len(mem.stores)
                mem.ports.append(MemPort(f"wr{k}", "store", len(addr), elem_t, i))
                memory.body += [f"  assign wr{k}_req_addr{j} = {a};" for j, a in enumerate(addr)]
                memory.body.append(f"  assign wr{k}_req_data = {data};")
        elif isinstance(eff, Complete):
            out.results = [bld.emit(v, m.inputs[k].type)[0] for k, v in enumerate(eff.values)]
        elif isinstance(eff, Fail):
            out.errors.append((eff.code, eff.message))
            out.fail_terms.append((f"go{i}", len(out.errors) - 1))
        for cond, code, msg in bld.hazards:
            out.errors.append((code, msg))
            out.fail_terms.append((f"(go{i} && {cond})", len(out.errors) - 1))
        valid = [f"{sv_name(p)}_valid" for p in r.reads]
        out.base.append(" && ".join([f"(state == S_{sv_name(r.state)})"] + valid + [g]))
        mp = next((x for x in mem.ports if x.rule == i), None)
        # a rule served by a memory port is enabled once its response is there
        out.en.append(out.base[i] if mp is None else f"{mp.name}_pend && {mp.name}_resp_valid")
        out.sel.append(" && ".join([f"en{i}"] + [f"!en{j}" for j in range(i)]))
        out.go.append(" && ".join([f"sel{i}"] + [f"{sv_name(p)}_ready" for p, _ in r.emits]))
    return out


def _declarations(m: Machine, memory: _Memory, rules: _Rules) -> list[str]:
    """State encoding, state and register declarations, the internal array and the memory ports' pending bits."""
    sb = _state_bits(m)
    lines = [f"  localparam logic [{sb - 1}:0] S_{sv_name(s)} = {sb}'d{k};" for k, s in enumerate(m.states)]
    lines.append(f"  logic [{sb - 1}:0] state;")
    for r in m.registers:
        lines.append(f"  logic [{bits(r.type) - 1}:0] r_{sv_name(r.name)};")
    if memory.internal:
        assert memory.elem_t is not None
        decl = f"  logic [{bits(memory.elem_t) - 1}:0] mem [0:{memory.size - 1}];"
        if not rules.writes:  # a ROM: its contents come from outside (the testbench's $readmemh), see specs/hdl.md
            decl = f"  /* verilator lint_off UNDRIVEN */{decl[1:]}  /* verilator lint_on UNDRIVEN */"
        lines.append(decl)
    for mp in memory.mem.ports:
        lines.append(f"  logic {mp.name}_pend;  // a request of port {mp.name} awaits its response")
    return lines


def _outputs(m: Machine, ins, rules: _Rules, mem: MemPorts) -> list[str]:
    """The combinational assignments: input readies, output valid/data by rule priority, residual, fail,
    complete/results and the memory ports' request/response handshakes."""
    lines = []
    for p in ins:
        readers = [f"go{i}" for i, r in enumerate(m.rules) if p.name in r.reads]
        lines.append(f"  assign {sv_name(p.name)}_ready = {' || '.join(readers) or chr(49) + chr(39) + 'b0'};")
    sources = dict(m.sources)
    for p in m.outputs:
        n = sv_name(p.name)
        if p.name in sources:
            lines.append(f"  assign {n}_valid = 1'b1;")
            lines.append(f"  assign {n}_data = {bld_const(sources[p.name], p.type)};")
            continue
        emitters = [i for i, r in enumerate(m.rules) if p.name in dict(r.emits)]
        lines.append(f"  assign {n}_valid = {' || '.join(f'go{i}' for i in emitters) or chr(49) + chr(39) + 'b0'};")
        data = "'0"
        for i in reversed(emitters):
            data = f"sel{i} ? {rules.emits[i][p.name]} : {data}"
        lines.append(f"  assign {n}_data = {data};")
    res = " || ".join(f"(state == S_{sv_name(s)})" for s in sorted(m.residual_states)) or "1'b0"
    lines.append(f"  assign residual = {res};")
    if rules.fail_terms:
        lines.append(f"  assign fail = {' || '.join(t for t, _ in rules.fail_terms)};")
        code = "8'd0"
        for t, k in reversed(rules.fail_terms):
            code = f"{t} ? 8'd{k} : {code}"
        lines.append(f"  assign fail_code = {code};")
    if rules.results:
        ret_rule = next(i for i, r in enumerate(m.rules) if isinstance(r.effect, Complete))
        lines.append(f"  assign complete = go{ret_rule};")
        for k, v in enumerate(rules.results):
            lines.append(f"  assign result{k} = {v};")
    for mp in mem.ports:
        # the request goes out while the rule's tokens wait (not yet taken); the response fires the rule
        lines.append(f"  assign {mp.name}_req_valid = !{mp.name}_pend && {rules.base[mp.rule]};")
        lines.append(f"  assign {mp.name}_resp_ready = go{mp.rule};")
    return lines


def _registers(m: Machine, rules: _Rules, memory: _Memory) -> list[str]:
    """The one clocked block: reset, each rule's next state and register updates, pending bits, array writes."""
    mem = memory.mem
    lines = ["  always @(posedge clk) begin", "    if (rst) begin", f"      state <= S_{sv_name(m.initial)};"]
    lines += [f"      {mp.name}_pend <= 1'b0;" for mp in mem.ports]
    for r in m.registers:
        lines.append(f"      r_{sv_name(r.name)} <= {literal(r.init, r.type)};")
    lines.append("    end else begin")
    for i, r in enumerate(m.rules):
        stmts = [f"state <= S_{sv_name(r.next)};"] + [f"r_{sv_name(n)} <= {v};" for n, v in rules.updates[i]]
        lines.append(f"      if (go{i}) begin {' '.join(stmts)} end")
    for mp in mem.ports:
        lines.append(f"      if ({mp.name}_req_valid && {mp.name}_req_ready) {mp.name}_pend <= 1'b1;"
                     f" else if (go{mp.rule}) {mp.name}_pend <= 1'b0;")
    if memory.internal:
        for i, addr, data in rules.writes:
            la, ok = memory.lin(addr)
            lines.append(f"      if (go{i} && {ok}) mem[{memory.aw}'({la})] <= {data};")
    return lines + ["    end", "  end"]


def _property_list(m: Machine, text: str) -> list[tuple[str, Optional[str], int]]:
    """(label, obligation ID of ``p_fsm``, line) of every assertion of the module text."""
    plist = []
    for k, line in enumerate(text.splitlines(), 1):
        mm = re.search(r"`LOOM_ASSERT_\w+\((\w+),", line)
        if mm:
            label = mm.group(1)
            plist.append((label, obligation_id(m) if label == "p_fsm" else None, k))
    return plist


def build_component(m: Machine) -> Component:
    """Generate the SV module of table ``m`` (raises ``HdlUnsupported`` for what has no RTL model): translate
    its rules (``_translate``), then write header, declarations, wires, assignments and the clocked block."""
    name = module_name(m)
    ins = [p for p in m.inputs if p.kind == "token"]
    in_t = {p.name: p.type for p in ins}
    reg_t = {r.name: r.type for r in m.registers}
    ports = _token_ports(m, ins)
    body: list[str] = []
    memory = _memory_of(m, ports, body)
    bound = m.memory is not None
    bld = SvExprBuilder(in_t, reg_t, lambda p: f"{sv_name(p)}_data", lambda r: f"r_{sv_name(r)}",
                        memory.read if bound else None, memory.dim if bound else None)
    memory.bld = bld
    rules = _translate(m, bld, memory, reg_t)
    mem = memory.mem

    lines: list[str] = [f"// {m.op_name}: {m.summary}".rstrip(": "), "// generated by loom.hdl.components from the operator table:"]
    lines += ["//   " + x for x in describe(m).splitlines()]
    lines += ['`include "loom_props.svh"', f"module {name} ("]
    if rules.results:
        for k, v in enumerate(rules.results):
            ports.append(f"output logic [{bits(m.inputs[k].type) - 1}:0] result{k}")
        ports.append("output logic complete")
    ports.append("output logic residual")
    if rules.fail_terms:  # only a component that can raise a runtime error has the fail port pair
        ports += ["output logic fail", "output logic [7:0] fail_code"]
    for mp in mem.ports:
        ports += [f"{d:6} logic {f'[{w - 1}:0] ' if w > 1 else ''}{mp.name}_{x}" for d, x, w in mp.signals()]
    port_line = len(lines)
    lines.append("")  # the port list, filled in once the body shows which inputs it reads
    lines.append(");")
    lines += _declarations(m, memory, rules)
    lines += list(bld.functions.values())
    lines += bld.lines
    lines += body  # memory request payloads: after the wires they read
    for i in range(len(m.rules)):
        lines.append(f"  wire en{i} = {rules.en[i]};")
    for i in range(len(m.rules)):
        lines.append(f"  wire sel{i} = {rules.sel[i]};")
        lines.append(f"  wire go{i} = {rules.go[i]};")
    lines += _outputs(m, ins, rules, mem)
    lines += _registers(m, rules, memory)
    unread = _unread_inputs("\n".join(lines[port_line + 1:]), ins)
    lines[port_line] = ",\n".join("  " + _waive_unused(p, unread) for p in ports)
    lines += _properties(m, ins, rules.emits, rules.guards, mem.ports, base=rules.base)
    lines.append("endmodule")
    text = "\n".join(lines) + "\n"
    return Component(name, text, m, rules.errors, _property_list(m, text), mem, bld.floats, len(rules.results),
                     bool(rules.fail_terms), tuple(sorted(bld.c_files)))


def _unread_inputs(body: str, ins) -> set[str]:
    """Data buses the component reads in part or not at all by design (a sink's or join's data, a control
    token's ignored bit, the high bits a truncation drops, all but the sign copysign takes): their port
    declarations get a lint waiver."""
    out: set[str] = set()
    for p in ins:
        n, w = sv_name(p.name), bits(p.type)
        sels = re.findall(rf"\b{n}_data\b(\[[^\]]*\])?", body)
        if all(sel and sel != f"[{w - 1}:0]" for sel in sels):  # never read whole (or not at all)
            out.add(f"{n}_data")
    return out


def _waive_unused(port: str, unread: set[str]) -> str:
    """``port``'s declaration, inside a Verilator UNUSEDSIGNAL waiver when it is in ``unread``."""
    if port.split()[-1] not in unread:
        return port
    return f"/* verilator lint_off UNUSEDSIGNAL */ {port} /* verilator lint_on UNUSEDSIGNAL */"


def bld_const(e, t: Type) -> str:
    from loom.semantics.expr import Const

    assert isinstance(e, Const)
    return literal(e.value, t)


def handshake_props(macro: str, label: str, valid: str, ready: str, data: Optional[str]) -> list[str]:
    """One port's handshake protocol as properties ``<label>_valid_stays`` and ``<label>_data_stable`` (none for
    ``data`` None): offered and not taken, the token stays valid, its data stable, the next cycle. ``macro`` is
    ``LOOM_ASSUME_NEXT`` (what a module assumes of an input) or ``LOOM_ASSERT_NEXT`` (what it guarantees of an
    output); the composition's tasks restate the same formulas on the top's wires (``netlist._ag_lines``)."""
    out = [f"  `{macro}({label}_valid_stays, {valid} && !{ready}, {valid})"]
    if data is not None:
        out.append(f"  `{macro}({label}_data_stable, {valid} && !{ready}, $stable({data}))")
    return out


def _properties(m: Machine, ins, rule_emit_sv: list[dict[str, str]], guard_sv: list[str],
                mem_ports: list[MemPort], base: list[str]) -> list[str]:
    """Protocol assumptions/assertions and the table-conformance property (labelled with its fsm obligation)."""
    out = ["`ifdef LOOM_ASSERTIONS", "  `LOOM_PAST_VALID"]
    for p in ins:
        n = sv_name(p.name)
        out += handshake_props("LOOM_ASSUME_NEXT", f"a_{n}", f"{n}_valid", f"{n}_ready", f"{n}_data")
    for p in m.outputs:
        n = sv_name(p.name)
        out += handshake_props("LOOM_ASSERT_NEXT", f"p_{n}", f"{n}_valid", f"{n}_ready", f"{n}_data")
    for mp in mem_ports:
        n = mp.name
        payload = "{" + ", ".join(f"{n}_{x}" for _, x, _ in mp.signals() if x.startswith("req_a") or x == "req_data") + "}"
        # the memory: answers only an outstanding request, and holds its response until taken
        out.append(f"  `LOOM_ASSUME_ALWAYS(a_{n}_resp_requested, !{n}_resp_valid || {n}_pend)")
        out += handshake_props("LOOM_ASSUME_NEXT", f"a_{n}_resp", f"{n}_resp_valid", f"{n}_resp_ready",
                               f"{n}_resp_data" if mp.kind == "load" else None)
        # the request: valid and stable until taken; while it is outstanding the tokens that made it stay
        # at the inputs unchanged, so the response fires the rule on exactly those tokens
        out += handshake_props("LOOM_ASSERT_NEXT", f"p_{n}_req", f"{n}_req_valid", f"{n}_req_ready", payload)
        out.append(f"  `LOOM_ASSERT_ALWAYS(p_{n}_one_request, !({n}_pend && {n}_req_valid))")
        out.append(f"  `LOOM_ASSERT_ALWAYS(p_{n}_resp_fires, !({n}_resp_valid && {n}_resp_ready) || go{mp.rule})")
        out.append(f"  `LOOM_ASSERT_ALWAYS(p_{n}_held, !{n}_pend || ({base[mp.rule]}))")
        out.append(f"  `LOOM_ASSERT_NEXT(p_{n}_held_stable, {n}_pend && !{n}_resp_ready, {n}_pend && $stable({payload}))")
    if m.rules:
        legal = " || ".join(f"(state == S_{sv_name(s)})" for s in m.states)
        out.append(f"  `LOOM_ASSERT_ALWAYS(p_state_legal, {legal})")
        # observation: which ports transfer this cycle
        xin = {p.name: f"({sv_name(p.name)}_valid && {sv_name(p.name)}_ready)" for p in ins}
        xout = {p.name: f"({sv_name(p.name)}_valid && {sv_name(p.name)}_ready)" for p in m.outputs
                if p.name not in dict(m.sources)}
        # one bit per port, first port in the MSB; each rule compares it with its own mask, so a wide table
        # (an extmemory with a hundred ports) stays linear in text (a conjunction over every port per rule was
        # quadratic: a 1.3 MB line that Verilator's preprocessor refused)
        xfer = list(xin.values()) + list(xout.values())
        names = list(xin) + list(xout)
        idle = "1'b1"
        if xfer:
            out.append(f"  wire [{len(xfer) - 1}:0] fsm_xfer = {{{', '.join(xfer)}}};")
            idle = "fsm_xfer == '0"
        alts = []
        for i, r in enumerate(m.rules):
            terms = [f"(state == S_{sv_name(r.state)})", guard_sv[i]]
            if xfer:
                fired = set(r.reads) | set(dict(r.emits))
                terms.append(f"fsm_xfer == {len(xfer)}'b" + "".join("1" if q in fired else "0" for q in names))
            terms += [f"({sv_name(p)}_data == {v})" for p, v in rule_emit_sv[i].items()]
            out.append(f"  wire fsm_rule{i} = {' && '.join(terms)};")
            alts.append(f"fsm_rule{i}")
        out.append(f"  wire fsm_conforms = ({idle}) || {' || '.join(alts)};")
        out.append("  // the port transfers of every cycle are exactly one enabled table rule (or none)")
        out.append("  `LOOM_ASSERT_ALWAYS(p_fsm, fsm_conforms)")
    out.append("`endif")
    return out


def is_integer_only(c: Component) -> bool:
    """True when the component has no behavioural float model (synthesizable as is)."""
    return not c.float_behavioural

