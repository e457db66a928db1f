"""Bit-exactness evidence: drive generated scalar components with vectors whose answers come from loom.semantics.

``vector_bench`` builds, for a list of scalar op signatures, one component per
signature (through the same ``build_component`` the netlist uses) and one
testbench that applies every vector combinationally and prints what the RTL
computed; ``expected`` evaluates the same vectors with
``loom.semantics.scalar.eval_scalar`` (an integer division by zero is expected
to raise the component's ``fail``). ``check_vectors`` runs it with iverilog or
Verilator and returns the mismatches.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from loom.diagnostics import LoomError
from loom.hdl.datapath import libm_c
from loom.hdl.components import build_component
from loom.hdl.properties import LIB
from loom.hdl.datapath.expr import bits
from loom.ir.attributes import Attribute
from loom.ir.types import FloatType, Type
from loom.semantics.handshake_ops import combinational
from loom.semantics.layout import FLOAT_FORMATS
from loom.semantics.scalar import eval_scalar, from_bits, to_bits, width_of


@dataclass(frozen=True)
class OpSig:
    """One scalar op at fixed types and attributes."""

    name: str
    operands: tuple[Type, ...]
    results: tuple[Type, ...]
    attrs: tuple[tuple[str, Attribute], ...] = ()


def edge_values(t: Type, rng: random.Random, n_random: int = 6) -> list[int]:
    """Interesting bit patterns of ``t``: 0, 1, all ones, sign boundaries, small shifts, and random ones."""
    w = width_of(t)
    m = (1 << w) - 1
    if isinstance(t, FloatType):
        # zeros, ones, halves (rounding ties), the edges of asin/acos/acosh/atanh/log, large values (overflow of
        # exp and cosh, saturation of fptosi), a subnormal, infinities and NaNs of both signs
        fs = [0.0, -0.0, 1.0, -1.0, -1.5, 2.5, -2.5, 0.5, 3.25, 100.0, -100.0, 1e30, -1e-30, 2.5e-40,
              float("inf"), float("-inf"), float("nan"), -float("nan"), 0.1, 65504.0,
              1.5 * 2.0 ** -151, 1.5 * 2.0 ** -134, 1.5 * 2.0 ** -25]  # below half of f32's/bf16's/f16's least subnormal
        out = []
        for f in fs:
            try:
                out.append(to_bits(eval_scalar("arith.truncf", {}, [FloatType("f64")], [t], [f])[0], t)
                           if t.name != "f64" else to_bits(f, t))  # type: ignore[attr-defined]
            except Exception:  # noqa: BLE001 - values the type cannot hold are skipped
                pass
        # NaNs with a payload, of both signs (the semantics keeps only a NaN's sign)
        payload = {16: [0x7D01, 0xFE01], 32: [0x7FA00001, 0xFF800001], 64: [0x7FF4000000000001, 0xFFF0000000000001]}
        return out + payload[w] + [rng.getrandbits(w) & 0x7F7FFFFF for _ in range(n_random)]
    vals = {0, 1, m, m >> 1, (m >> 1) + 1, 2, w - 1, w, w + 1, 3}
    vals |= {rng.getrandbits(w) for _ in range(n_random)}
    # just past a tie of bf16/f16/f32/f64 precision, both signs: converting through a wider float rounds twice
    for prec in sorted({f.precision for f in FLOAT_FORMATS.values()}):
        if w - 2 - prec >= 1:
            v = (1 << (w - 2)) + (1 << (w - 2 - prec)) + 1
            vals |= {v, -v}
    return sorted(v & m for v in vals)


def vectors_for(sig: OpSig, rng: random.Random, limit: int = 120) -> list[tuple[int, ...]]:
    """Operand tuples (bit patterns): the cross product of edge values, sampled down to ``limit``."""
    pools = [edge_values(t, rng) for t in sig.operands]
    combos: list[tuple[int, ...]] = [()]
    for p in pools:
        combos = [c + (v,) for c in combos for v in p]
    if len(combos) > limit:
        combos = rng.sample(combos, limit)
    return combos


def expected(sig: OpSig, vec: Sequence[int]) -> Optional[list[int]]:
    """The semantics' result bit patterns for one vector (None: the op raises, e.g. division by zero)."""
    vals = [from_bits(v, t) for v, t in zip(vec, sig.operands)]
    try:
        res = eval_scalar(sig.name, dict(sig.attrs), list(sig.operands), list(sig.results), vals)
    except LoomError:
        return None
    return [to_bits(r, t) & ((1 << bits(t)) - 1) for r, t in zip(res, sig.results)]


def vector_bench(sigs: Sequence[OpSig], seed: int = 1, limit: int = 120) -> tuple[dict[str, str], list[tuple[int, int, tuple]]]:
    """SV files (components + tb) and the list of (signature index, vector index, vector) they print."""
    rng = random.Random(seed)
    files: dict[str, str] = {"loom_props.svh": (LIB / "loom_props.svh").read_text()}
    tb = ["module tb;", "  logic clk = 1'b0, rst = 1'b1;"]
    body: list[str] = ["  initial begin", "    #1 clk = 1'b1; #1 clk = 1'b0; rst = 1'b0; #1;"]
    plan: list[tuple[int, int, tuple]] = []
    c_files: set[str] = set()
    for i, sig in enumerate(sigs):
        m = combinational(sig.name, sig.attrs, list(sig.operands), list(sig.results))
        c = build_component(m)
        files[f"{c.module}.sv"] = c.text
        c_files.update(c.c_files)
        conns = [".clk(clk)", ".rst(rst)"]
        for k, t in enumerate(sig.operands):
            tb.append(f"  logic [{bits(t) - 1}:0] a{i}_{k};")
            conns += [f".in{k}_valid(1'b1)", f".in{k}_ready()", f".in{k}_data(a{i}_{k})"]
        for k, t in enumerate(sig.results):
            tb.append(f"  logic [{bits(t) - 1}:0] y{i}_{k};")
            conns += [f".out{k}_valid()", f".out{k}_ready(1'b1)", f".out{k}_data(y{i}_{k})"]
        if c.has_fail:
            tb.append(f"  logic f{i};")
            conns += [".residual()", f".fail(f{i})", ".fail_code()"]
        else:  # no runtime error: the component has no fail port
            tb.append(f"  logic f{i} = 1'b0;")
            conns.append(".residual()")
        tb.append(f"  {c.module} u{i} ({', '.join(conns)});")
        for j, vec in enumerate(vectors_for(sig, rng, limit)):
            sets = " ".join(f"a{i}_{k} = {bits(t)}'h{v:x};" for k, (v, t) in enumerate(zip(vec, sig.operands)))
            outs = ", ".join(f"y{i}_{k}" for k in range(len(sig.results)))
            fmt = " ".join("%h" for _ in sig.results)
            body.append(f"    {sets} #1; $display(\"V {i} {j} %0d {fmt}\", f{i}, {outs});")
            plan.append((i, j, vec))
    body += ["    $finish;", "  end"]
    files["tb.sv"] = "\n".join(tb + body + ["endmodule"]) + "\n"
    files.update(libm_c.files_for(c_files))
    return files, plan


def check_vectors(sigs: Sequence[OpSig], simulator: str = "iverilog", seed: int = 1,
                  limit: int = 120) -> tuple[int, list[str]]:
    """Run the vector bench (at most ``limit`` vectors per op); returns (vectors checked, mismatch descriptions)."""
    files, plan = vector_bench(sigs, seed, limit)
    wd = Path(tempfile.mkdtemp(prefix="loom-vectors-"))
    try:
        for n, t in files.items():
            (wd / n).write_text(t)
        srcs = [n for n in files if n.endswith(".sv")]
        foreign = libm_c.simulator_args(simulator, wd, [n for n in files if n.endswith(".c")])
        if simulator == "iverilog":
            subprocess.run(["iverilog", "-g2012", "-I", ".", "-s", "tb", "-o", "v.vvp", *foreign, *srcs], cwd=wd,
                           check=True, capture_output=True, text=True)
            out = subprocess.run(["vvp", "-n", "v.vvp"], cwd=wd, capture_output=True, text=True).stdout
        else:
            from loom.hdl.rtlsim import VERILATOR_O0  # the bench runs each vector once: the C++ build is its cost

            subprocess.run(["verilator", "--binary", "--timing", *VERILATOR_O0, "-Wno-fatal", "-Wno-lint", "-Wno-style",
                            "-I.", "--top-module", "tb", "-Mdir", "obj", "-o", "Vtb", *srcs, *foreign], cwd=wd,
                           check=True, capture_output=True, text=True)
            out = subprocess.run(["obj/Vtb"], cwd=wd, capture_output=True, text=True).stdout
    finally:
        shutil.rmtree(wd, ignore_errors=True)
    got: dict[tuple[int, int], list[str]] = {}
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == "V":
            got[(int(f[1]), int(f[2]))] = f[3:]
    bad: list[str] = []
    for i, j, vec in plan:
        sig = sigs[i]
        want = expected(sig, vec)
        row = got.get((i, j))
        if row is None:
            bad.append(f"{sig.name}{list(map(str, sig.operands))} {vec}: no output")
            continue
        fail = row[0] == "1"
        vals = [int(x, 16) if "x" not in x.lower() and "z" not in x.lower() else None for x in row[1:]]
        if want is None:
            if not fail:
                bad.append(f"{sig.name} {vec}: semantics raise, RTL did not flag fail")
        elif fail or vals != want:
            bad.append(f"{sig.name}({', '.join(map(str, sig.operands))}) {[hex(v) for v in vec]}: "
                       f"RTL {'fail' if fail else [hex(v) if v is not None else 'x' for v in vals]} "
                       f"semantics {[hex(v) for v in want]}")
    return len(plan), bad
