"""A small builder API for ADGs that prints fabric MLIR text (which ``read_adg`` reads back).

Components are declared first (PE, switch definitions), then instantiated in a
module whose wires may name instances defined later (fabric.module bodies are
graph regions). A ``Wire`` is ``(instance, output)``; module inputs are
``("$in", k)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

Wire = tuple[str, int]


def _rank(memref: str) -> int:
    """Rank of a memref type written as text (``memref<?x?xi64>`` -> 2)."""
    return len(re.findall(r"(?:\?|[0-9]+)x", memref))


@dataclass(frozen=True)
class FUSpec:
    """One function unit over inputs ``%i0..`` yielding ``%r0..``: ``line`` is its single op (whose results
    become ``%r0..``), or several ops separated by newlines that define ``%r0..`` themselves (a compound FU)."""

    name: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    line: str
    latency: int = 1
    interval: int = 1

    def text(self, indent: str) -> str:
        args = ", ".join(f"%i{k}: {t}" for k, t in enumerate(self.inputs))
        res = ", ".join(f"%r{k}" for k in range(len(self.outputs)))
        outs = ", ".join(self.outputs)
        body = "".join(f"{indent}  {ln.strip()}\n" for ln in self.line.split("\n")) if "\n" in self.line \
            else f"{indent}  {res} = {self.line}\n"
        return (
            f"{indent}fabric.function_unit @{self.name}({args}) -> ({outs}) [latency = {self.latency}, interval = {self.interval}] {{\n"
            f"{body}"
            f"{indent}  fabric.yield {res} : {outs}\n"
            f"{indent}}}\n"
        )


@dataclass
class _Inst:
    name: str
    text_head: str  # what follows "= " up to the operand list
    inputs: list[Wire]
    in_types: list[str]
    out_types: list[str]
    tail: str  # text after the operand list, before " : "
    form: str = "call"  # "call": head (operands) tail; "tag": head operand tail (add_tag / del_tag)


@dataclass
class ADGBuilder:
    """Collects definitions and instances; ``text()`` prints the fabric file."""

    name: str
    defs: list[str] = field(default_factory=list)
    def_ports: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)
    inputs: list[tuple[str, str]] = field(default_factory=list)
    outputs: list[Wire] = field(default_factory=list)
    insts: list[_Inst] = field(default_factory=list)
    attrs: dict[str, str] = field(default_factory=dict)

    # --------------------------------------------------------------- definitions
    def pe(self, name: str, n_in: int, n_out: int, width: int, fus: list[FUSpec]) -> str:
        t = f"!fabric.bits<{width}>"
        ins, outs = [t] * n_in, [t] * n_out
        args = ", ".join(f"%p{k}: {t}" for k in range(n_in))
        body = "".join(f.text("    ") for f in fus)
        self.defs.append(f"  fabric.spatial_pe @{name}({args}) -> ({', '.join(outs)}) {{\n{body}    fabric.yield\n  }}\n")
        self.def_ports[name] = (ins, outs)
        return name

    def tpe(self, name: str, n_in: int, n_out: int, width: int, tag_width: int, slots: int, fus: list[FUSpec],
            registers: int = 0) -> str:
        """A fabric.temporal_pe definition: ``slots`` instruction slots, ``registers`` registers, tagged ports."""
        t = f"!fabric.tagged<!fabric.bits<{width}>, i{tag_width}>"
        ins, outs = [t] * n_in, [t] * n_out
        args = ", ".join(f"%p{k}: {t}" for k in range(n_in))
        body = "".join(f.text("    ") for f in fus)
        depth = 2 if registers else 0
        params = f"[num_register = {registers} : i64, num_instruction = {slots} : i64, reg_fifo_depth = {depth} : i64]"
        self.defs.append(f"  fabric.temporal_pe @{name}({args}) -> ({', '.join(outs)}) {params} {{\n{body}    fabric.yield\n  }}\n")
        self.def_ports[name] = (ins, outs)
        return name

    def tag(self, name: str, wire: Wire, width: int, tag_width: int, tag: int | None) -> Wire:
        """An inline fabric.add_tag (``tag`` given) or fabric.del_tag between ``!fabric.bits<width>`` and its tagged form."""
        plain, tagged = f"!fabric.bits<{width}>", f"!fabric.tagged<!fabric.bits<{width}>, i{tag_width}>"
        if tag is None:
            self.insts.append(_Inst(name, "fabric.del_tag", [wire], [tagged], [plain], f' {{sym_name = "{name}"}}', "tag"))
        else:
            self.insts.append(_Inst(name, "fabric.add_tag", [wire], [plain], [tagged],
                                    f' {{sym_name = "{name}", tag = {tag} : i64}}', "tag"))
        return (name, 0)

    def switch(self, name: str, n_in: int, n_out: int, width: int, table: list[list[bool]]) -> str:
        t = f"!fabric.bits<{width}>"
        ins, outs = [t] * n_in, [t] * n_out
        rows = ", ".join('"' + "".join("1" if b else "0" for b in row) + '"' for row in table)
        self.defs.append(f"  fabric.spatial_sw @{name} [connectivity_table = [{rows}]] : ({', '.join(ins)}) -> ({', '.join(outs)})\n")
        self.def_ports[name] = (ins, outs)
        return name

    def tagged_switch(self, name: str, n_in: int, n_out: int, width: int, tag_width: int) -> str:
        """A fully connected fabric.spatial_sw over tagged values: it merges them tag-agnostically (their tags
        keep them apart, spec-fabric-memory-interface)."""
        t = f"!fabric.tagged<!fabric.bits<{width}>, i{tag_width}>"
        ins, outs = [t] * n_in, [t] * n_out
        rows = ", ".join('"' + "1" * n_in + '"' for _ in range(n_out))
        self.defs.append(f"  fabric.spatial_sw @{name} [connectivity_table = [{rows}]] : ({', '.join(ins)}) -> ({', '.join(outs)})\n")
        self.def_ports[name] = (ins, outs)
        return name

    def temporal_switch(self, name: str, n_in: int, n_out: int, width: int, tag_width: int, slots: int) -> str:
        """A fully connected fabric.temporal_sw with ``slots`` route-table slots: it routes each value by its tag."""
        t = f"!fabric.tagged<!fabric.bits<{width}>, i{tag_width}>"
        ins, outs = [t] * n_in, [t] * n_out
        rows = ", ".join('"' + "1" * n_in + '"' for _ in range(n_out))
        self.defs.append(f"  fabric.temporal_sw @{name} [num_route_table = {slots}, connectivity_table = [{rows}]] : "
                         f"({', '.join(ins)}) -> ({', '.join(outs)})\n")
        self.def_ports[name] = (ins, outs)
        return name

    # --------------------------------------------------------------- module
    def add_input(self, name: str, type_text: str) -> Wire:
        self.inputs.append((name, type_text))
        return ("$in", len(self.inputs) - 1)

    def add_output(self, wire: Wire) -> None:
        self.outputs.append(wire)

    def instance(self, defn: str, name: str, inputs: list[Wire]) -> list[Wire]:
        ins, outs = self.def_ports[defn]
        if len(inputs) != len(ins):
            raise ValueError(f"{name}: {len(inputs)} inputs for @{defn}, which has {len(ins)}")
        self.insts.append(_Inst(name, f"fabric.instance @{defn}", inputs, ins, outs, f' {{sym_name = "{name}"}}'))
        return [(name, k) for k in range(len(outs))]

    def extmemory(self, name: str, ld: int, st: int, memref: str, memref_input: Wire, inputs: list[Wire], width: int,
                  regions: int = 1, tag_width: int = 0) -> list[Wire]:
        """An inline fabric.extmemory; ``inputs`` are its routed inputs (after the memref); ``regions`` software
        memories may share it (``numRegion``). With ``tag_width`` its lanes share one tagged port per family
        (upstream's form: address ports per rank, store data; load data, load done, store done)."""
        rank = _rank(memref)
        t = f"!fabric.bits<{width}>"
        n_in, n_out = (ld + st) * rank + st, 2 * ld + st
        if tag_width:
            t = f"!fabric.tagged<{t}, i{tag_width}>"
            n_in, n_out = (min(ld, 1) + min(st, 1)) * rank + min(st, 1), 2 * min(ld, 1) + min(st, 1)
        if len(inputs) != n_in:
            raise ValueError(f"{name}: needs {n_in} routed inputs, got {len(inputs)}")
        shared = f", numRegion = {regions}" if regions > 1 else ""
        head = f"fabric.extmemory @{name} [ldCount = {ld}, stCount = {st}, lsqDepth = 0{shared}, memrefType = {memref}]"
        self.insts.append(_Inst(name, head, [memref_input, *inputs], [memref] + [t] * n_in, [t] * n_out, ""))
        return [(name, k) for k in range(n_out)]

    def memory(self, name: str, ld: int, st: int, memref: str, inputs: list[Wire], width: int) -> list[Wire]:
        """An inline on-chip fabric.memory."""
        rank = _rank(memref)
        t = f"!fabric.bits<{width}>"
        n_in, n_out = (ld + st) * rank + st, 2 * ld + st
        if len(inputs) != n_in:
            raise ValueError(f"{name}: needs {n_in} routed inputs, got {len(inputs)}")
        head = f"fabric.memory @{name} [ldCount = {ld}, stCount = {st}, lsqDepth = 0, memrefType = {memref}]"
        self.insts.append(_Inst(name, head, inputs, [t] * n_in, [t] * n_out, ""))
        return [(name, k) for k in range(n_out)]

    # --------------------------------------------------------------- text
    def _ref(self, w: Wire) -> str:
        node, k = w
        return f"%{self.inputs[k][0]}" if node == "$in" else f"%{node}#{k}"

    def text(self) -> str:
        names = {i.name for i in self.insts}
        for i in self.insts:
            for w in i.inputs:
                if w[0] != "$in" and w[0] not in names:
                    raise ValueError(f"{i.name} reads unknown instance {w[0]}")
        args = ", ".join(f"%{n}: {t}" for n, t in self.inputs)
        out_t = [self._out_type(w) for w in self.outputs]
        attrs = ", ".join(f"{k} = {v}" for k, v in sorted(self.attrs.items()))
        head = f"  fabric.module @{self.name}({args}) -> ({', '.join(out_t)})"
        if attrs:
            head += f" attributes {{{attrs}}}"
        lines = ["module {\n", *self.defs, head + " {\n"]
        for i in self.insts:
            ops = ", ".join(self._ref(w) for w in i.inputs)
            if i.form == "tag":
                lines.append(f"    %{i.name}:1 = {i.text_head} {ops}{i.tail} : {i.in_types[0]} -> {i.out_types[0]}\n")
                continue
            lines.append(
                f"    %{i.name}:{len(i.out_types)} = {i.text_head} ({ops}){i.tail} : ({', '.join(i.in_types)}) -> ({', '.join(i.out_types)})\n"
            )
        refs = ", ".join(self._ref(w) for w in self.outputs)
        lines.append(f"    fabric.yield {refs} : {', '.join(out_t)}\n" if self.outputs else "    fabric.yield\n")
        lines.append("  }\n}\n")
        return "".join(lines)

    def _out_type(self, w: Wire) -> str:
        node, k = w
        if node == "$in":
            return self.inputs[k][1]
        inst = next(i for i in self.insts if i.name == node)
        return inst.out_types[k]
