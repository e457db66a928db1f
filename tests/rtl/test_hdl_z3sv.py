"""loom/hdl/monitors/z3sv.py: the SV rendering of the stream termination terms has Z3's value on edge and random
operands (every precondition and progress relation of the termination table, simulated with iverilog)."""

from __future__ import annotations

import random
import subprocess

import z3

from loom.hdl.monitors.streams import _ghost_free
from loom.hdl.monitors.z3sv import to_sv
from loom.verify.lemmas.termination import TERMINATION

from support.hdl import need

W = 64
EDGE = [0, 1, 2, 3, 10, 62, 64, (1 << 63) - 1, (1 << 63) - 2, 1 << 63, (1 << 63) + 1, (1 << 64) - 1,
        (1 << 64) - 2]


def _terms():
    """(name, term) of every precondition (over start/step/bound) and progress relation (over x/x2/t/b)."""
    x, t, b = (z3.BitVec(n, W) for n in ("start", "step", "bound"))
    out = []
    for (op, cond), term in sorted(TERMINATION.items(), key=str):
        out.append((f"pre {op} {cond}", term.for_dfg(x, t, b)))
        out.append((f"progress {op} {cond}", _ghost_free(term.progress, term.domain)[0]))
    return out


def test_sv_rendering_agrees_with_z3(tmp_path):
    need("iverilog")
    rng = random.Random(7)
    vecs = [tuple(rng.choice(EDGE) if rng.random() < 0.5 else rng.getrandbits(64) for _ in range(3))
            for _ in range(60)]
    vecs += [(0, 3, 10), (9, 3, 10), (12, 3, 10), (0, 1, (1 << 63) - 1), (5, 2, 1), (1 << 63, 1, 0)]
    env = {"start": "a", "step": "c", "bound": "d", "x": "a", "x2": "c", "t": "d", "b": "e"}
    terms = _terms()
    lines = ["module t;", "  logic [63:0] a, c, d, e;", "  initial begin"]
    want = []
    for i, (a, c, d) in enumerate(vecs):
        e = (a + c) % (1 << 64)
        lines.append(f"    a = 64'h{a:x}; c = 64'h{c:x}; d = 64'h{d:x}; e = 64'h{e:x};")
        for name, term in terms:
            lines.append(f"    $display(\"%0d\", {to_sv(term, env)});")
            sub = [(z3.BitVec(n, W), z3.BitVecVal(v, W)) for n, v in
                   (("start", a), ("step", c), ("bound", d), ("x", a), ("x2", c), ("t", d), ("b", e))]
            want.append(f"{int(z3.is_true(z3.simplify(z3.substitute(term, *sub))))}")
    lines += ["  end", "endmodule"]
    (tmp_path / "t.sv").write_text("\n".join(lines) + "\n")
    subprocess.run(["iverilog", "-g2012", "-o", "t.vvp", "t.sv"], cwd=tmp_path, check=True)
    got = subprocess.run(["vvp", "-n", "t.vvp"], cwd=tmp_path, capture_output=True, text=True, check=True)
    lines_got = [ln for ln in got.stdout.splitlines() if ln.strip() in ("0", "1")]
    assert len(lines_got) == len(want)
    bad = [(vecs[k // len(terms)], terms[k % len(terms)][0], g, w)
           for k, (g, w) in enumerate(zip(lines_got, want)) if g != w]
    assert not bad, bad[:5]
