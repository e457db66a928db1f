"""The scalar integer op descriptors (loom.semantics.ops): each op's Python evaluation, Z3 term and SystemVerilog
expression compute the same bits, and its UB rules (loom.semantics.undefined) hold in the three forms on the same
operands, including the edges: division by zero, INT_MIN / -1, shifts by the width or more, nsw/nuw wrap-around.

Python against Z3 runs in-process, on hypothesis-generated operands and on every signature's edge vectors; the SV
of every signature is simulated with iverilog on the edge vectors in one run, next to a deliberately wrong module
the comparison must reject."""

from __future__ import annotations

import dataclasses
import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st


from loom.diagnostics import SimulationError
from loom.hdl.datapath.expr import SvExprBuilder
from loom.ir.attributes import Attribute, IntegerAttr, OpaqueAttr
from loom.ir.types import IndexType, IntegerType, Type, i1
from loom.semantics import ops
from loom.semantics.expr import ScalarInfo
from loom.semantics.layout import FLOAT_FORMATS, bus_width, from_bus, int_width, to_bus, tuple_fields, width_of
from loom.semantics.ops import INT_OPS
from loom.semantics.predicates import CMPI_PREDICATES
from loom.semantics.scalar import BINARY_FLOAT, DIV_BY_ZERO, FLOAT_CLASS, SCALAR_OPS, UNARY_FLOAT, scalar_fn
from loom.semantics.undefined import ub_rules

from support.operands import draw_vector
from support.hdl import need

I8, I32, IDX = IntegerType(8), IntegerType(32), IndexType()
CASTS = ("arith.extsi", "arith.extui", "arith.trunci", "arith.index_cast", "arith.index_castui")
FLAGGED = ("arith.addi", "arith.subi", "arith.muli", "arith.shli")


@dataclass(frozen=True)
class Sig:
    """One integer op at fixed types and attributes, one of its results."""

    name: str
    operands: tuple[Type, ...]
    results: tuple[Type, ...]
    attrs: tuple[tuple[str, Attribute], ...] = ()
    result_index: int = 0

    @property
    def info(self) -> ScalarInfo:
        return ScalarInfo(self.attrs, self.operands, self.results, self.result_index)

    def __str__(self) -> str:
        attrs = "".join(f" {k}={v}" for k, v in self.attrs)
        return f"{self.name}#{self.result_index}({', '.join(map(str, self.operands))}){attrs}"


def signatures() -> list[Sig]:
    out: list[Sig] = []
    for t in (I8, I32, IDX):
        for name, d in INT_OPS.items():
            if name == "arith.cmpi":
                out += [Sig(name, (t, t), (i1,), (("predicate", IntegerAttr(k)),)) for k in range(len(CMPI_PREDICATES))]
            elif name == "arith.select":
                out.append(Sig(name, (i1, t, t), (t,)))
            elif name == "arith.addui_extended":
                out += [Sig(name, (t, t), (t, i1), (), k) for k in (0, 1)]
            elif name in ("arith.mului_extended", "arith.mulsi_extended"):
                out += [Sig(name, (t, t), (t, t), (), k) for k in (0, 1)]
            elif name not in CASTS:
                out.append(Sig(name, (t,) * d.arity, (t,)))
        for name in FLAGGED:
            for f in ("nsw", "nuw", "nsw, nuw"):
                out.append(Sig(name, (t, t), (t,), (("overflowFlags", OpaqueAttr(f"#arith.overflow<{f}>")),)))
    for a, b in ((I8, I32), (I32, I8), (I32, IDX), (IDX, I32), (i1, I32), (I8, I8)):
        out += [Sig(n, (a,), (b,)) for n in CASTS]
    out += [Sig("arith.addi", (i1, i1), (i1,)), Sig("arith.select", (i1, i1, i1), (i1,))]
    return out


SIGS = signatures()


def edges(t: Type) -> list[int]:
    """0, 1, 2, the shift edges (width - 1, width), INT_MAX, INT_MIN and -1 (all ones) of ``t``."""
    w = width_of(t)
    m = (1 << w) - 1
    return sorted({v & m for v in (0, 1, 2, w - 1, w, m >> 1, (m >> 1) + 1, m)})


def edge_vectors(sig: Sig, rng: random.Random, limit: int = 80) -> list[tuple[int, ...]]:
    combos: list[tuple[int, ...]] = [()]
    for t in sig.operands:
        combos = [c + (v,) for c in combos for v in edges(t)]
    if len(combos) > limit:
        combos = rng.sample(combos, limit)
    return combos + [tuple(rng.getrandbits(width_of(t)) for t in sig.operands) for _ in range(8)]


# ----------------------------------------------------------------------------- the three forms


def python_value(sig: Sig, vec: Sequence[int]) -> Optional[int]:
    """The Python evaluation's result; None where it traps (integer division by zero)."""
    fn = scalar_fn(sig.name, dict(sig.attrs), list(sig.operands), list(sig.results))
    try:
        return fn(list(vec))[sig.result_index]
    except SimulationError as e:
        assert e.code == DIV_BY_ZERO, e
        return None


def _z3_args(sig: Sig, vec: Sequence[int]) -> list[z3.ExprRef]:
    return [z3.BoolVal(v == 1) if sig.name == "arith.select" and k == 0 else z3.BitVecVal(v, bus_width(t))
            for k, (v, t) in enumerate(zip(vec, sig.operands))]


def _z3_constant(term: z3.ExprRef) -> int:
    r = z3.simplify(term)
    if z3.is_bool(r):
        assert z3.is_true(r) or z3.is_false(r), r
        return 1 if z3.is_true(r) else 0
    assert z3.is_bv_value(r), r
    return r.as_long()


def z3_value(sig: Sig, vec: Sequence[int]) -> int:
    return _z3_constant(INT_OPS[sig.name].z3(_z3_args(sig, vec), sig.info))


def ub_flags(sig: Sig, vec: Sequence[int]) -> list[tuple[str, bool, bool]]:
    """(rule, holds in Python, holds in Z3) for every UB rule the op's attributes and types enable."""
    rules, usig = ub_rules(sig.name, dict(sig.attrs), sig.operands, sig.results)
    args = _z3_args(sig, vec)
    return [(r.what, bool(r.holds(list(vec), usig)), bool(_z3_constant(r.term(args, usig)))) for r in rules]


def python_vs_z3(sig: Sig, vec: Sequence[int]) -> list[str]:
    """Disagreements between the Python and Z3 forms on one vector (values, UB rules, traps)."""
    bad = []
    py = python_value(sig, vec)
    traps = [w for w, holds, _ in ub_flags(sig, vec) if holds and w == "divzero"]
    if (py is None) != bool(traps):
        bad.append(f"{sig} {vec}: Python {'traps' if py is None else 'does not trap'}, trap rules {traps}")
    if py is not None and py != z3_value(sig, vec):
        bad.append(f"{sig} {[hex(v) for v in vec]}: Python {py:#x}, Z3 {z3_value(sig, vec):#x}")
    for what, holds, term in ub_flags(sig, vec):
        if holds != term:
            bad.append(f"{sig} {vec}: rule {what}: Python {holds}, Z3 {term}")
    return bad


def test_every_integer_op_of_the_python_semantics_has_a_descriptor():
    """The table covers the scalar semantics: every op is an integer op with a descriptor, a float op, or one of
    the ops that are neither (a constant, a poison source, a bitcast between formats, a conversion to or from a
    float)."""
    floats = set(BINARY_FLOAT) | set(UNARY_FLOAT) | set(FLOAT_CLASS) | {
        "arith.cmpf", "math.fma", "math.fpowi", "arith.extf", "arith.truncf", "arith.sitofp", "arith.uitofp",
        "arith.fptosi", "arith.fptoui"}
    neither = {"arith.constant", "ub.poison", "arith.bitcast"}
    assert set(INT_OPS) <= SCALAR_OPS
    assert SCALAR_OPS - set(INT_OPS) - floats - neither == set()
    assert {s.name for s in SIGS} == set(INT_OPS)
    assert {n for n, d in INT_OPS.items() if d.traps} == {
        "arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.ceildivui",
        "arith.floordivsi", "math.ipowi"}


@pytest.mark.parametrize("name", sorted(INT_OPS))
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_python_and_z3_agree_on_generated_operands(name, data):
    sig = data.draw(st.sampled_from([s for s in SIGS if s.name == name]), label="signature")
    vec = draw_vector(data, sig.operands, edges)
    assert python_vs_z3(sig, vec) == []


def test_python_and_z3_agree_on_every_edge():
    rng = random.Random(3)
    bad = [b for sig in SIGS for vec in edge_vectors(sig, rng, limit=40) for b in python_vs_z3(sig, vec)]
    assert bad == [], bad[:10]


def test_edges_reach_every_ub_kind():
    """The edge vectors do hit each undefined case (so the agreement above covers it), in every engine."""
    rng = random.Random(3)
    hit = {(sig.name, w) for sig in SIGS for vec in edge_vectors(sig, rng, limit=40)
           for w, holds, _ in ub_flags(sig, vec) if holds}
    for name in ("arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi",
                 "arith.ceildivui", "math.ipowi"):
        assert (name, "divzero") in hit, name
    for name in ("arith.divsi", "arith.ceildivsi", "arith.floordivsi"):
        assert (name, "overflow") in hit, name
    for name in ("arith.shli", "arith.shrui", "arith.shrsi"):
        assert (name, "shift") in hit, name
    for name in FLAGGED:
        assert (name, "wrap") in hit, name


def test_python_vs_z3_catches_a_wrong_term(monkeypatch):
    """The comparison can fail: an arithmetic shift modelled as a logical one is caught on the edges."""
    wrong = dataclasses.replace(INT_OPS["arith.shrsi"], z3=lambda t, info: z3.LShR(t[0], t[1]))
    monkeypatch.setitem(INT_OPS, "arith.shrsi", wrong)
    rng = random.Random(3)
    bad = [b for sig in SIGS if sig.name == "arith.shrsi" for vec in edge_vectors(sig, rng) for b in python_vs_z3(sig, vec)]
    assert len(bad) > 10


# ----------------------------------------------------------------------------- SystemVerilog


def sv_module(k: int, sig: Sig) -> tuple[str, int]:
    """Module ``s<k>``: ports a, b, c (the operands), y (the result), haz (the hazards: where the op traps) and
    ub (one bit per UB rule that has an SV form); returns its text and the number of ub bits."""
    b = SvExprBuilder({}, {}, lambda p: p, lambda r: r)
    names = ["a", "b", "c"][: len(sig.operands)]
    y = INT_OPS[sig.name].sv(names, sig.info, b)
    rules, usig = ub_rules(sig.name, dict(sig.attrs), sig.operands, sig.results)
    ub = [r.sv(usig) for r in rules if r.sv is not None]
    ports = [f"input [{bus_width(t) - 1}:0] {n}" for n, t in zip(names, sig.operands)]
    ports += [f"output [{bus_width(sig.results[sig.result_index]) - 1}:0] y", "output haz"]
    ports += [f"output [{len(ub) - 1}:0] ub"] if ub else []
    haz = " || ".join(h[0] for h in b.hazards) or "1'b0"
    body = list(b.functions.values()) + b.lines + [f"  assign y = {y};", f"  assign haz = {haz};"]
    body += [f"  assign ub[{j}] = {u};" for j, u in enumerate(ub)]
    return "\n".join([f"module s{k}({', '.join(ports)});"] + body + ["endmodule", ""]), len(ub)


def simulate(modules: Sequence[tuple[Sig, str, int]], vectors: Sequence[Sequence[tuple[int, ...]]]
             ) -> dict[tuple[int, int], list[str]]:
    """One iverilog run: module k (``sv_module``'s text and ub bits for signature k) driven with its vectors;
    (k, vector index) -> [y, haz, ub bits]."""
    text, tb, run = [], ["module tb;"], ["  initial begin"]
    for k, ((sig, mod, n_ub), vecs) in enumerate(zip(modules, vectors)):
        text.append(mod)
        names = ["a", "b", "c"][: len(sig.operands)]
        conns = []
        for n, t in zip(names, sig.operands):
            tb.append(f"  logic [{bus_width(t) - 1}:0] {n}{k};")
            conns.append(f".{n}({n}{k})")
        tb += [f"  wire [{bus_width(sig.results[sig.result_index]) - 1}:0] y{k};", f"  wire h{k};"]
        conns += [f".y(y{k})", f".haz(h{k})"]
        if n_ub:
            tb.append(f"  wire [{n_ub - 1}:0] u{k};")
            conns.append(f".ub(u{k})")
        tb.append(f"  s{k} m{k}({', '.join(conns)});")
        for j, vec in enumerate(vecs):
            sets = " ".join(f"{n}{k} = {bus_width(t)}'h{v:x};" for n, v, t in zip(names, vec, sig.operands))
            shown = f"y{k}, h{k}" + (f", u{k}" if n_ub else "")
            run.append(f"    {sets} #1; $display(\"V {k} {j} %h %b{' %b' if n_ub else ''}\", {shown});")
    run += ["    $finish;", "  end", "endmodule"]
    wd = Path(tempfile.mkdtemp(prefix="loom-descriptors-"))
    try:
        (wd / "ops.sv").write_text("\n".join(text))
        (wd / "tb.sv").write_text("\n".join(tb + run) + "\n")
        subprocess.run(["iverilog", "-g2012", "-s", "tb", "-o", "v.vvp", "ops.sv", "tb.sv"], cwd=wd, check=True,
                       capture_output=True, text=True)
        out = subprocess.run(["vvp", "-n", "v.vvp"], cwd=wd, capture_output=True, text=True, check=True).stdout
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    got = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "V":
            got[(int(f[1]), int(f[2]))] = f[3:]
    return got


def three_way(sig: Sig, vec: Sequence[int], row: Optional[list[str]]) -> list[str]:
    """Disagreements of the SV row with the Python value, its trap and the UB rules (and of Python with Z3)."""
    bad = python_vs_z3(sig, vec)
    if row is None:
        return bad + [f"{sig} {vec}: no SV output"]
    py = python_value(sig, vec)
    y = int(row[0], 16) if all(c in "0123456789abcdef" for c in row[0]) else None
    if (py is None) != (row[1] == "1"):
        bad.append(f"{sig} {vec}: Python {'traps' if py is None else 'does not trap'}, SV hazard {row[1]}")
    elif py is not None and y != py:
        bad.append(f"{sig} {[hex(v) for v in vec]}: Python {py:#x}, SV {row[0]}")
    rules, usig = ub_rules(sig.name, dict(sig.attrs), sig.operands, sig.results)
    with_sv = [r for r in rules if r.sv is not None]
    if with_sv:
        bits = row[2][::-1]  # ub[0] is the last character
        for j, r in enumerate(with_sv):
            if (bits[j] == "1") != bool(r.holds(list(vec), usig)):
                bad.append(f"{sig} {vec}: rule {r.what}: Python {r.holds(list(vec), usig)}, SV {bits[j]}")
    return bad


def test_python_z3_and_sv_agree_in_one_simulation(monkeypatch):
    need("iverilog")
    rng = random.Random(11)
    modules = [(sig, *sv_module(k, sig)) for k, sig in enumerate(SIGS)]
    vectors = [edge_vectors(sig, rng) for sig in SIGS]
    # a canary the comparison must reject, in the same run: arith.addi's module emitted with a subtraction
    canary = Sig("arith.addi", (I32, I32), (I32,))
    monkeypatch.setitem(ops.PLAIN, "arith.addi", "-")
    modules.append((canary, *sv_module(len(SIGS), canary)))
    monkeypatch.undo()
    canary_vectors = edge_vectors(canary, rng)
    got = simulate(modules, vectors + [canary_vectors])
    bad = [b for k, sig in enumerate(SIGS) for j, vec in enumerate(vectors[k])
           for b in three_way(sig, vec, got.get((k, j)))]
    assert sum(len(v) for v in vectors) > 8000
    assert bad == [], bad[:10]
    caught = [b for j, vec in enumerate(canary_vectors) for b in three_way(canary, vec, got.get((len(SIGS), j)))]
    assert len(caught) > len(canary_vectors) // 2


# ----------------------------------------------------------------------------- layout


def test_float_formats_give_the_encodings():
    """The format table's quiet NaN and infinity are the IEEE encodings (the RTL's constants are read from it)."""
    import struct

    for name, fmt in FLOAT_FORMATS.items():
        assert fmt.width == {"bf16": 16, "f16": 16, "f32": 32, "f64": 64}[name]
    assert FLOAT_FORMATS["f32"].qnan == struct.unpack("<I", struct.pack("<f", float("nan")))[0] & 0x7FFFFFFF
    assert FLOAT_FORMATS["f64"].inf_mag == struct.unpack("<Q", struct.pack("<d", float("inf")))[0]
    assert FLOAT_FORMATS["f16"].inf_mag == struct.unpack("<H", struct.pack("<e", float("inf")))[0]
    assert (FLOAT_FORMATS["bf16"].qnan, FLOAT_FORMATS["f16"].qnan) == (0x7FC0, 0x7E00)


def test_widths_value_layout_and_bus():
    """none carries no value bits but travels on a one-bit bus; a tuple's bus is its elements side by side."""
    from loom.ir.types import FloatType, NoneType, TupleType
    from loom.semantics.expr import TOKEN
    from loom.verify.z3model import const_term, width_of as z3_width

    none, f16 = NoneType(), FloatType("f16")
    assert (width_of(none), bus_width(none), int_width(none)) == (0, 1, None)
    assert (width_of(IDX), bus_width(IDX), int_width(IDX)) == (64, 64, 64)
    t = TupleType((I8, none, f16, TupleType(())))
    assert tuple_fields(t) == [(0, 8), (8, 1), (9, 16), (25, 1)] and bus_width(t) == z3_width(t) == 26
    v = (0x85, TOKEN, -2.0, ())
    pattern = to_bus(v, t)
    assert pattern == 0x85 | (0xC000 << 9) and from_bus(pattern, t) == v
    assert const_term(v, t).as_long() == pattern
