"""The mesh generator behind ``loom adg mesh``: R x C tiles of (switch, PE) with a full FU palette.

Tile (r, c) holds switch ``sw_r_c`` and PE ``pe_r_c``. Neighbouring switches are
joined by ``tracks`` wires per direction; a PE reads its inputs from its own
switch and drives its outputs back into it. Module inputs and outputs and the
memory interfaces' ports hang off the border switches, spread round-robin.
Switch tables allow every input to reach every output except a U-turn back to
the neighbour it came from.
"""

from __future__ import annotations

from dataclasses import dataclass

from loom.map.adg.build import ADGBuilder, FUSpec, Wire

WIDTH = 64
INTS = ("i32", "i64", "index")
VALUES = ("i1", "i32", "i64", "index", "f32", "none")
DIRS = ("N", "E", "S", "W")
_OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
_STEP = {"N": (-1, 0), "S": (1, 0), "E": (0, 1), "W": (0, -1)}


def _n(t: str) -> str:
    return t.replace("index", "idx")


def palette(max_join_fanin: int) -> list[FUSpec]:
    """The FU set of every mesh PE: integer, index, float, compare/select, casts, constants,
    the four dataflow ops, load/store (rank 1 and 2), join, mux, cond_br and f32 fma."""
    fus: list[FUSpec] = []
    add = fus.append
    bin_int = "addi subi muli divsi divui remsi remui andi ori xori shli shrsi shrui maxsi maxui minsi minui".split()
    for op in bin_int:
        for t in INTS:
            add(FUSpec(f"{op}_{_n(t)}", (t, t), (t,), f"arith.{op} %i0, %i1 : {t}"))
    for op in ("andi", "ori", "xori"):
        add(FUSpec(f"{op}_i1", ("i1", "i1"), ("i1",), f"arith.{op} %i0, %i1 : i1"))
    for op in ("addf", "subf", "mulf", "divf", "maximumf", "minimumf")[:4]:
        add(FUSpec(f"{op}_f32", ("f32", "f32"), ("f32",), f"arith.{op} %i0, %i1 : f32", latency=3))
    add(FUSpec("negf_f32", ("f32",), ("f32",), "arith.negf %i0 : f32"))
    for t in INTS:
        add(FUSpec(f"cmpi_{_n(t)}", (t, t), ("i1",), f"arith.cmpi slt, %i0, %i1 : {t}"))
    add(FUSpec("cmpf_f32", ("f32", "f32"), ("i1",), "arith.cmpf olt, %i0, %i1 : f32"))
    for t in ("i1", "i32", "i64", "index", "f32"):
        add(FUSpec(f"select_{_n(t)}", ("i1", t, t), (t,), f"arith.select %i0, %i1, %i2 : {t}"))
    casts = [
        ("index_cast", "index", "i32"), ("index_cast", "i32", "index"), ("index_cast", "index", "i64"), ("index_cast", "i64", "index"),
        ("index_castui", "index", "i32"), ("index_castui", "i32", "index"), ("index_castui", "index", "i64"), ("index_castui", "i64", "index"),
        ("extui", "i1", "i32"), ("extui", "i1", "i64"), ("extui", "i32", "i64"), ("extsi", "i32", "i64"), ("extsi", "i1", "i32"),
        ("trunci", "i64", "i32"), ("trunci", "i32", "i1"), ("sitofp", "i32", "f32"), ("uitofp", "i32", "f32"), ("fptosi", "f32", "i32"),
    ]
    for op, a, b in casts:
        add(FUSpec(f"{op}_{_n(a)}_{_n(b)}", (a,), (b,), f"arith.{op} %i0 : {a} to {b}"))
    for t in ("i1", "i32", "i64", "index", "f32"):
        lit = "0.0" if t == "f32" else "0"
        add(FUSpec(f"const_{_n(t)}", ("none",), (t,), f"handshake.constant %i0 {{value = {lit} : {t}}} : {t}", latency=0))
    for step in ("+=", "-="):
        add(FUSpec(f"stream_{'inc' if step == '+=' else 'dec'}", ("index", "index", "index"), ("index", "i1"),
                   f'dataflow.stream %i0, %i1, %i2 {{step_op = "{step}", cont_cond = "<"}} : (index, index, index) -> (index, i1)',
                   latency=-1, interval=-1))
    for t in VALUES:
        if t not in ("i1", "none"):
            add(FUSpec(f"gate_{_n(t)}", (t, "i1"), (t, "i1"), f"dataflow.gate %i0, %i1 : {t}, i1 -> {t}, i1", -1, -1))
        add(FUSpec(f"carry_{_n(t)}", ("i1", t, t), (t,), f"dataflow.carry %i0, %i1, %i2 : i1, {t}, {t} -> {t}", -1, -1))
        add(FUSpec(f"invariant_{_n(t)}", ("i1", t), (t,), f"dataflow.invariant %i0, %i1 : i1, {t} -> {t}", -1, -1))
        add(FUSpec(f"cond_br_{_n(t)}", ("i1", t), (t, t), f"handshake.cond_br %i0, %i1 : {t}"))
        add(FUSpec(f"mux_{_n(t)}", ("i1", t, t), (t,), f"handshake.mux %i0 [%i1, %i2] : i1, {t}"))
    for t in ("i32", "i64", "index"):  # compound multiply-add, product on either side of the add
        add(FUSpec(f"mac_{_n(t)}", (t, t, t), (t,), f"%m = arith.muli %i0, %i1 : {t}\n%r0 = arith.addi %m, %i2 : {t}", latency=2))
        add(FUSpec(f"amc_{_n(t)}", (t, t, t), (t,), f"%m = arith.muli %i0, %i1 : {t}\n%r0 = arith.addi %i2, %m : {t}", latency=2))
    if max_join_fanin >= 2:
        f = max_join_fanin
        add(FUSpec(f"join_{f}", ("none",) * f, ("none",), f"handshake.join {', '.join(f'%i{k}' for k in range(f))} : {', '.join(['none'] * f)}"))
    for t in ("i32", "i64", "f32"):
        for rank in (1, 2):
            addrs = ", ".join(f"%i{k}" for k in range(rank))
            idx = ", ".join(["index"] * rank)
            d, c = f"%i{rank}", f"%i{rank + 1}"
            ins = ("index",) * rank + (t, "none")
            outs = (t,) + ("index",) * rank
            add(FUSpec(f"load{rank}_{t}", ins, outs, f"handshake.load [{addrs}] {d}, {c} : {idx}, {t}"))
            add(FUSpec(f"store{rank}_{t}", ins, outs, f"handshake.store [{addrs}] {d}, {c} : {idx}, {t}"))
    # fused multiply-add (the corpus's dot products and filters); last, so earlier opcodes keep their numbers
    add(FUSpec("fma_f32", ("f32", "f32", "f32"), ("f32",), "math.fma %i0, %i1, %i2 : f32", latency=4))
    return fus


@dataclass(frozen=True)
class MeshParams:
    rows: int = 10
    cols: int = 10
    extmem: int = 4
    max_join_fanin: int = 4
    tracks: int = 3
    inputs: int = 8
    outputs: int = 4
    mem_ld: int = 5
    mem_st: int = 2
    mem_rank: int = 2
    onchip: int = 1
    onchip_ld: int = 1  # each on-chip fabric.memory's load and store lanes and its shape (static, i64 elements)
    onchip_st: int = 1
    onchip_shape: tuple[int, ...] = (256,)
    mem_regions: int = 1  # numRegion of each extmemory: how many software memories may share it (by tag range)
    extra_fus: tuple[FUSpec, ...] = ()  # appended to the palette (e.g. ``fus_for`` a given DFG)
    temporal: int = 0  # > 0: every PE is a fabric.temporal_pe with this many instruction slots (loom/map/temporal)
    mem_tags: int = 0  # > 0: each extmemory has this many load and store lanes sharing one tagged port per family
    mem_lanes: tuple[tuple[int, int], ...] = ()  # extmemory k's (load, store) lanes when fitted one by one (else mem_ld/mem_st)
    onchip_lanes: tuple[tuple[int, int], ...] = ()  # the same for on-chip memory k (else onchip_ld/onchip_st)


def _border(rows: int, cols: int) -> list[tuple[int, int]]:
    """Border tiles clockwise from the top-left corner."""
    ring = [(0, c) for c in range(cols)] + [(r, cols - 1) for r in range(1, rows)]
    ring += [(rows - 1, c) for c in range(cols - 2, -1, -1)] + [(r, 0) for r in range(rows - 2, 0, -1)]
    seen, out = set(), []
    for t in ring:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


Mem = tuple[str, str, int, int, int, int]  # (name, memref type, load lanes, store lanes, border inputs, border outputs)
Layout = tuple[list, list]  # a switch's inputs and outputs: ("nb", dir, track) | ("pe", k) | ("x", k) (border extras)


@dataclass
class _Plan:
    """What the phases of ``mesh`` share: the PE's port counts, and where the border extras hang."""

    p: MeshParams
    pe_in: int
    pe_out: int
    slots: int  # instruction slots of a temporal PE (1: spatial)
    tag_width: int
    border: list[tuple[int, int]]
    extra_in: dict[tuple[int, int], list[Wire]]  # wires entering border switches
    extra_out: dict[tuple[int, int], list[tuple[str, int]]]  # (consumer key, slot) read from border switches
    mems: list[Mem]
    layouts: dict[tuple[int, int], Layout]


def mesh(p: MeshParams) -> str:
    """The fabric MLIR text of the mesh described by ``p``."""
    if p.rows < 1 or p.cols < 1:
        raise ValueError("rows and cols must be >= 1")
    fus = palette(p.max_join_fanin) + list(p.extra_fus)
    pe_in = max(len(f.inputs) for f in fus)
    pe_out = max(len(f.outputs) for f in fus)
    b = ADGBuilder(f"mesh_{p.rows}x{p.cols}")
    b.attrs["loom.adg_max_join_fanin"] = str(p.max_join_fanin)
    slots = max(p.temporal, 1)
    tag_width = max(1, (slots - 1).bit_length())
    if p.temporal:  # slot s reads PE inputs [s*pe_in, (s+1)*pe_in), each through an add_tag giving tag s
        b.tpe("mesh_pe", pe_in * slots, pe_out * slots, WIDTH, tag_width, slots, fus, registers=slots)
    else:
        b.pe("mesh_pe", pe_in, pe_out, WIDTH, fus)
    border = _border(p.rows, p.cols)
    plan = _Plan(p, pe_in, pe_out, slots, tag_width, border, {t: [] for t in border}, {t: [] for t in border}, [], {})
    _hang_border_extras(b, plan)
    plan.layouts = _layouts(plan)
    out_index = _border_reads(plan)
    _memories(b, plan, out_index)
    _switches(b, plan)
    _pes(b, plan)
    for k in range(p.outputs):
        b.add_output(out_index[("$out", k)])
    return b.text()


def _mems(p: MeshParams) -> list[Mem]:
    """The external interfaces, then the on-chip memories, with their lanes and border port counts."""
    mems: list[Mem] = []
    lanes = p.mem_tags  # tagged external interfaces: this many load and store lanes each (0: untagged)
    for k in range(p.extmem):
        if lanes:  # tagged: every lane of a family port has its own border wires (add_tag / del_tag per lane)
            mems.append((f"extmem{k}", "memref<" + "?x" * p.mem_rank + "i64>", lanes, lanes,
                         (2 * p.mem_rank + 1) * lanes, 3 * lanes))
            continue
        ld, st = p.mem_lanes[k] if k < len(p.mem_lanes) else (p.mem_ld, p.mem_st)
        mems.append((f"extmem{k}", "memref<" + "?x" * p.mem_rank + "i64>", ld, st, (ld + st) * p.mem_rank + st, 2 * ld + st))
    rank = len(p.onchip_shape)
    for k in range(p.onchip):
        ld, st = p.onchip_lanes[k] if k < len(p.onchip_lanes) else (p.onchip_ld, p.onchip_st)
        mems.append((f"mem{k}", "memref<" + "".join(f"{d}x" for d in p.onchip_shape) + "i64>", ld, st,
                     (ld + st) * rank + st, 2 * ld + st))
    return mems


def _hang_border_extras(b: ADGBuilder, plan: _Plan) -> None:
    """Module inputs and memory outputs feed border switches; memory inputs and module outputs read them,
    spread round-robin over the border tiles."""
    p, border, lanes = plan.p, plan.border, plan.p.mem_tags
    rr = [0]

    def next_tile() -> tuple[int, int]:
        t = border[rr[0] % len(border)]
        rr[0] += 1
        return t

    for k in range(p.inputs):
        plan.extra_in[next_tile()].append(b.add_input(f"in{k}", f"!fabric.bits<{WIDTH}>"))
    plan.mems = _mems(p)
    for name, _, _, _, n_in, _ in plan.mems:
        for slot in range(n_in):
            plan.extra_out[next_tile()].append((name, slot))
    for k in range(p.outputs):
        plan.extra_out[next_tile()].append(("$out", k))
    for name, _, _, _, _, n_out in plan.mems:
        for k in range(n_out):
            plan.extra_in[next_tile()].append(_lane_wire(name, k, lanes) if lanes and name.startswith("extmem") else (name, k))


def _sw_name(r: int, c: int) -> str:
    return f"sw_{r}_{c}"


def _layouts(plan: _Plan) -> dict[tuple[int, int], Layout]:
    """Each tile's switch port layout: neighbour tracks, PE ports, border extras."""
    p = plan.p
    layouts: dict[tuple[int, int], Layout] = {}
    for r in range(p.rows):
        for c in range(p.cols):
            dirs = [d for d in DIRS if 0 <= r + _STEP[d][0] < p.rows and 0 <= c + _STEP[d][1] < p.cols]
            ins: list = [("nb", d, t) for d in dirs for t in range(p.tracks)] + [("pe", k) for k in range(plan.pe_out * plan.slots)]
            ins += [("x", k) for k in range(len(plan.extra_in.get((r, c), [])))]
            outs: list = [("nb", d, t) for d in dirs for t in range(p.tracks)] + [("pe", k) for k in range(plan.pe_in * plan.slots)]
            outs += [("x", k) for k in range(len(plan.extra_out.get((r, c), [])))]
            layouts[(r, c)] = (ins, outs)
    return layouts


def _border_reads(plan: _Plan) -> dict[tuple[str, int], Wire]:
    """The border switch output each (consumer key, slot) reads."""
    out_index: dict[tuple[str, int], Wire] = {}
    for t in plan.border:
        ins, outs = plan.layouts[t]
        for k, (key, slot) in enumerate(plan.extra_out[t]):
            out_index[(key, slot)] = (_sw_name(*t), outs.index(("x", k)))
    return out_index


def _memories(b: ADGBuilder, plan: _Plan, out_index: dict[tuple[str, int], Wire]) -> None:
    """Every memory, reading its inputs from border switches (a tagged interface through its lane adapters)."""
    p, lanes = plan.p, plan.p.mem_tags
    for name, memref, ld, st, n_in, _ in plan.mems:
        reads = [out_index[(name, s)] for s in range(n_in)]
        if name.startswith("extmem") and lanes:
            ref = b.add_input(f"{name}_ref", memref)
            tagged_ports(b, name, reads, lanes, len(reads) // lanes, 3)
            b.extmemory(name, ld, st, memref, ref, [(f"{name}_in{q}", 0) for q in range(len(reads) // lanes)], WIDTH,
                         p.mem_regions, lane_tag_width(lanes))
        elif name.startswith("extmem"):
            ref = b.add_input(f"{name}_ref", memref)
            b.extmemory(name, ld, st, memref, ref, reads, WIDTH, p.mem_regions)
        else:
            b.memory(name, ld, st, memref, reads, WIDTH)


def _switches(b: ADGBuilder, plan: _Plan) -> None:
    """One switch definition per distinct (ports, table) -- every input reaches every output but a U-turn --
    and each tile's instance, wired to its neighbours, its PE (a temporal PE's results untagged) and extras."""
    shapes: dict[tuple, str] = {}
    sw_def: dict[tuple[int, int], str] = {}
    for (r, c), (ins, outs) in plan.layouts.items():
        table = [[not (i[0] == "nb" and o[0] == "nb" and i[1] == o[1]) for i in ins] for o in outs]
        key = (len(ins), len(outs), tuple(tuple(row) for row in table))
        if key not in shapes:
            shapes[key] = b.switch(f"mesh_sw{len(shapes)}", len(ins), len(outs), WIDTH, table)
        sw_def[(r, c)] = shapes[key]
    for (r, c), (ins, _) in plan.layouts.items():
        wires: list[Wire] = []
        for i in ins:
            if i[0] == "nb":
                d, t = i[1], i[2]
                nr, nc = r + _STEP[d][0], c + _STEP[d][1]
                nouts = plan.layouts[(nr, nc)][1]
                wires.append((_sw_name(nr, nc), nouts.index(("nb", _OPP[d], t))))
            elif i[0] == "pe":
                wires.append((f"pe_{r}_{c}", i[1]) if not plan.p.temporal else
                             b.tag(f"untag_{r}_{c}_{i[1]}", (f"pe_{r}_{c}", i[1]), WIDTH, plan.tag_width, None))
            else:
                wires.append(plan.extra_in[(r, c)][i[1]])
        b.instance(sw_def[(r, c)], _sw_name(r, c), wires)


def _pes(b: ADGBuilder, plan: _Plan) -> None:
    """Each tile's PE, reading its switch (a temporal PE's slot s through add_tags giving tag s)."""
    p = plan.p
    for r in range(p.rows):
        for c in range(p.cols):
            outs = plan.layouts[(r, c)][1]
            reads = [(_sw_name(r, c), outs.index(("pe", k))) for k in range(plan.pe_in * plan.slots)]
            if p.temporal:
                reads = [b.tag(f"tag_{r}_{c}_{k}", w, WIDTH, plan.tag_width, k // plan.pe_in) for k, w in enumerate(reads)]
            b.instance("mesh_pe", f"pe_{r}_{c}", reads)

def fus_for(ops) -> list[FUSpec]:
    """One FU per distinct (op, types, attributes) among ``ops``, written in generic form.

    Lets tests and users build a fabric whose palette covers exactly what a DFG needs.
    """
    seen: dict[str, FUSpec] = {}
    for op in ops:
        ins = ", ".join(str(v.type) for v in op.operands)
        outs = ", ".join(str(r.type) for r in op.results)
        attrs = ", ".join(f"{k} = {v}" for k, v in sorted(op.attributes.items()))
        args = ", ".join(f"%i{k}" for k in range(len(op.operands)))
        line = f'"{op.name}"({args})' + (f" {{{attrs}}}" if attrs else "") + f" : ({ins}) -> ({outs})"
        if line in seen:
            continue
        flow = op.name.startswith("dataflow.")
        seen[line] = FUSpec(f"x{len(seen)}_{op.name.split('.')[-1]}", tuple(str(v.type) for v in op.operands),
                            tuple(str(r.type) for r in op.results), line, -1 if flow else 1, -1 if flow else 1)
    return list(seen.values())


def lane_tag_width(lanes: int) -> int:
    """Tag bits a tagged memory port of ``lanes`` lanes needs (spec-fabric-memory-interface: log2Ceil, >= 1)."""
    return max(1, (lanes - 1).bit_length())


def _lane_wire(mem: str, k: int, lanes: int) -> Wire:
    """The border wire of lane ``k % lanes`` of tagged memory output port ``k // lanes``: its del_tag."""
    return (f"{mem}_out{k // lanes}_l{k % lanes}", 0)


def tagged_ports(b: ADGBuilder, mem: str, reads: list[Wire], lanes: int, n_in: int, n_out: int) -> None:
    """The adapters of a tagged memory: per input port, ``lanes`` border wires each tagged with its lane
    (add_tag) merged by a tagged switch (``{mem}_in{q}``); per output port, a temporal switch
    (``{mem}_demux{q}``) that splits the responses by tag into ``lanes`` del_tags (``_lane_wire``)."""
    tw = lane_tag_width(lanes)
    merge = b.tagged_switch(f"{mem}_merge", lanes, 1, WIDTH, tw)
    split = b.temporal_switch(f"{mem}_split", 1, lanes, WIDTH, tw, lanes)
    for q in range(n_in):
        tagged = [b.tag(f"{mem}_in{q}_l{l}", reads[q * lanes + l], WIDTH, tw, l) for l in range(lanes)]
        b.instance(merge, f"{mem}_in{q}", tagged)
    for q in range(n_out):
        b.instance(split, f"{mem}_demux{q}", [(mem, q)])
        for l in range(lanes):
            b.tag(f"{mem}_out{q}_l{l}", (f"{mem}_demux{q}", l), WIDTH, tw, None)


def fit_params(p: MeshParams, dfgs: list) -> MeshParams:
    """``p`` extended so every DFG of ``dfgs`` (``loom.map.dfg.DFG``) finds its ops and memory ports: one FU (in
    generic form) per op no palette FU implements (a math.sqrt, an i16 truncation), and the memory interfaces'
    load/store lanes and rank raised to the most any memory of them uses, and on-chip memories for its static
    local arrays, tables and allocations (``_onchip_fit``). Rows, columns and external interface counts are the
    caller's: whether the kernel then fits the mesh is the mapper's answer."""
    from dataclasses import replace

    from loom.map.adg.read import read_adg
    from loom.map.legalize import refuse_unallowed
    from loom.map.rules import fu_mismatch
    from loom.mlir import parse_text

    for d in dfgs:  # refused here, at the kernel's op, rather than written into a fabric no reader accepts
        refuse_unallowed(d)
    base = read_adg(parse_text(mesh(p), "<mesh>"), "<mesh>")
    fus = [fu for pe in base.pes()[:1] for fu in pe.defn.fus]  # every mesh PE has the one palette
    ops = [n for d in dfgs for n in d.nodes if n.kind == "op" and n.op is not None and n.name != "fabric.compound"]
    missing = [n.op for n in ops if all(fu_mismatch(n, fu) is not None for fu in fus)]
    mems = [n for d in dfgs for n in d.nodes if n.kind == "mem" and n.name == "handshake.extmemory"]
    onchip = [n for d in dfgs for n in d.nodes if n.kind == "mem" and n.name == "handshake.memory"]
    return replace(
        p, extra_fus=tuple(p.extra_fus) + tuple(fus_for(missing)),
        mem_ld=max([p.mem_ld] + [n.ld for n in mems]), mem_st=max([p.mem_st] + [n.st for n in mems]),
        mem_tags=max([p.mem_tags] + [max(n.ld, n.st) for n in mems]) if p.mem_tags else 0,
        mem_lanes=_lanes_one_by_one(mems) if len(dfgs) == 1 and _one_per_memref(p, mems) else p.mem_lanes,
        mem_rank=max([p.mem_rank] + [n.memref.rank for n in mems if n.memref is not None]),
        **(_onchip_fit(p, onchip, max(sum(n.kind == "mem" and n.name == "handshake.memory" for n in d.nodes)
                                      for d in dfgs)) if onchip else {}))


# border wires (memory ports, module inputs and outputs) per border tile above which --fit gives 4 tracks.
# Measured on the tapestry kernels that did not map in c_corpus with 3 tracks: imu_integrate_ref (2.9 a tile on
# 22x22) leaves 422 ports shared and routes with 4; ofdm_pipeline (1.86 on 23x23) still had 2 ports shared after 5
# of its 50 placements and topk_select_heap (1.83 on 28x28) ran past 300 s, and with 4 both map; kernels with a
# few narrow memrefs (kv_proj_int8: 0.77 on 16x16) keep 3
CROWDED_BORDER = 1.5
# the kernel's memory lanes (loads and stores of all its memories) per border tile above which --fit gives 4
# tracks. Each lane's address, data and done ports hang on different border tiles (round-robin), so every memory
# operation pulls routes in from several points of the border; the wires alone undercount this once each memory
# has only its memref's lanes: poseidon_permutation (30 lanes, 9 loads and 9 stores on one memref: 0.30 a tile on
# 26x26, 1.34 wires) was congested there with 3 tracks and took 487 CPU s to map on 31x31; with 4 it maps on 26x26
CROWDED_LANES = 0.25


def border_tracks(p: MeshParams, lanes: int = 0) -> int:
    """The tracks for a fitted mesh: ``p.tracks``, or 4 (the most the CLI offers) when the border wires per
    border tile exceed ``CROWDED_BORDER`` or the kernel's ``lanes`` (``memory_lanes``) per border tile exceed
    ``CROWDED_LANES``: each border switch then passes more values inwards than 3 tracks per direction leave
    room for beside the traffic along the border."""
    wires = sum(n_in + n_out for _, _, _, _, n_in, n_out in _mems(p)) + p.inputs + p.outputs
    tiles = len(_border(p.rows, p.cols))
    crowded = wires > CROWDED_BORDER * tiles or lanes > CROWDED_LANES * tiles
    return max(p.tracks, 4) if crowded else p.tracks


def memory_lanes(dfgs: list) -> int:
    """The most load and store lanes, summed over its memories (external and on chip), of any of ``dfgs``."""
    return max([sum(n.ld + n.st for n in d.nodes if n.kind == "mem") for d in dfgs] or [0])


def _one_per_memref(p: MeshParams, mems: list) -> bool:
    """Whether the kernel's memrefs each get their own extmemory (untagged, unshared, as many as memrefs)."""
    return not p.mem_tags and p.mem_regions == 1 and not p.mem_lanes and len(mems) == p.extmem


def _lanes_one_by_one(nodes: list) -> tuple[tuple[int, int], ...]:
    """Memory k's (load, store) lanes for one kernel's memories ``nodes``: their lanes, largest loads first, each
    memory as many as the largest of it and the ones after it need (so memref k of that order always fits
    memory k). The border then carries the lanes the kernel uses: every memory sized for the busiest crowded
    imu_integrate_ref's border (5 memrefs of 3 to 10 loads: 320 extmemory border wires, 162 this way)."""
    need = sorted(((max(n.ld, 1), max(n.st, 1)) for n in nodes), reverse=True)
    return tuple((max(ld for ld, _ in need[k:]), max(st for _, st in need[k:])) for k in range(len(need)))


def _onchip_fit(p: MeshParams, onchip: list, count: int) -> dict:
    """The on-chip memories' parameters that hold every static local array, table or allocation of a kernel
    (``handshake.memory``): as many as it has, the most lanes any uses, and a shape of the highest rank whose
    every dimension (counted from the last, as accesses address the last ports) is the largest there."""
    rank = max(n.memref.rank for n in onchip)
    dims = [1] * rank
    for n in onchip:
        for k, d in enumerate(reversed(n.memref.shape)):
            dims[rank - 1 - k] = max(dims[rank - 1 - k], d or 1)
    if rank == len(p.onchip_shape):
        dims = [max(a, b) for a, b in zip(dims, p.onchip_shape)]
    lanes = _lanes_one_by_one(onchip) if len(onchip) == count >= p.onchip and not p.onchip_lanes else p.onchip_lanes
    return {"onchip": max(p.onchip, count), "onchip_ld": max([p.onchip_ld] + [n.ld for n in onchip]),
            "onchip_st": max([p.onchip_st] + [n.st for n in onchip]), "onchip_shape": tuple(dims),
            "onchip_lanes": lanes}
