"""A kernel op outside upstream's FU-body allowlist with no exact rewrite (libm's tanh, atan2): ``loom map`` and
``loom adg mesh --fit`` refuse it at the op, one located line, exit 2, nothing written -- not "does not fit"."""

from __future__ import annotations

import json
from pathlib import Path

from support.cli import loom_here

HEADER = "static inline float halve(float x) { return x * 0.5f; }\n"

KERNELS = """#include <math.h>
#include "halve.h"

void gelu(float *d, int n) {
    for (int i = 0; i < n; i++)
        d[i] = halve(d[i]) * (1.0f + tanhf(d[i]));
}

void angle(const float *y, const float *x, float *o, int n) {
    for (int i = 0; i < n; i++)
        o[i] = atan2f(y[i], x[i]);
}

void scale(float *d, int n) {
    for (int i = 0; i < n; i++)
        d[i] = halve(d[i]);
}
"""

CODE = "error: [CPL_FABRIC_FU_OP_NOT_ALLOWED]"


def _at(call: str) -> tuple[int, int]:
    """The 1-based line and column of ``call`` in KERNELS: where the C front end locates the libm call's op."""
    line = next(k for k, s in enumerate(KERNELS.splitlines(), 1) if call in s)
    return line, KERNELS.splitlines()[line - 1].index(call) + 1


def _source(tmp_path: Path) -> tuple[Path, Path]:
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "halve.h").write_text(HEADER)
    src = tmp_path / "k.c"
    src.write_text(KERNELS)
    return src, inc


def _mesh(tmp_path: Path) -> Path:
    fabric = tmp_path / "m.fabric.mlir"
    assert loom_here("adg", "mesh", "--rows", "4", "--cols", "4", "--extmem", "3", "-o", fabric, "-q").returncode == 0
    return fabric


def _one_located_line(err: str, where: str, op: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(where) and f"{CODE} '{op}' is outside upstream's FU-body allowlist" in lines[0], lines
    assert "no fabric can map it" in lines[0]


def test_map_of_c_and_of_its_dfg_refuses_tanh_and_atan2_at_the_op(tmp_path: Path) -> None:
    src, inc = _source(tmp_path)
    fabric = _mesh(tmp_path)
    for func, op, call in (("gelu", "math.tanh", "tanhf("), ("angle", "math.atan2", "atan2f(")):
        line, col = _at(call)
        out = tmp_path / f"out_{func}"
        r = loom_here("map", src, "--func", func, "-I", inc, "--adg", fabric, "-o", out, "-q")
        assert r.returncode == 2, r
        _one_located_line(r.stderr, f"{src}:{line}:{col}:", op)
        assert not out.exists() or not any(out.iterdir())  # nothing written half-way
        dfg = tmp_path / f"{func}.dfg.mlir"
        assert loom_here("compile", src, "--func", func, "-I", inc, "-o", dfg, "-q").returncode == 0
        text = dfg.read_text().splitlines()
        at = next(k for k, s in enumerate(text, 1) if f"= {op} " in s)
        r = loom_here("map", dfg, "--adg", fabric, "-o", out, "-q")
        assert r.returncode == 2, r
        _one_located_line(r.stderr, f"{dfg}:{at}:", op)
        assert not out.exists() or not any(out.iterdir())


def test_map_of_an_allowed_op_missing_from_the_fabric_still_does_not_fit(tmp_path: Path) -> None:
    """math.sqrt is allowlisted: a mesh without it is a fabric too small for the kernel (exit 1), not bad input."""
    src = tmp_path / "r.c"
    src.write_text("#include <math.h>\nvoid root(float *d, int n) {\n"
                   "    for (int i = 0; i < n; i++) d[i] = sqrtf(d[i]);\n}\n")
    r = loom_here("map", src, "--func", "root", "--adg", _mesh(tmp_path), "-o", tmp_path / "o", "-q")
    assert r.returncode == 1 and "does not fit" in r.stderr and "math.sqrt" in r.stderr, r


def test_adg_mesh_fit_of_a_c_kernel_takes_func_and_includes(tmp_path: Path) -> None:
    src, inc = _source(tmp_path)
    out = tmp_path / "f.fabric.mlir"
    r = loom_here("adg", "mesh", "--rows", "4", "--cols", "4", "--fit", src, "--func", "angle", "-I", inc, "-o", out)
    assert r.returncode == 2, r
    _one_located_line(r.stderr, "{}:{}:{}:".format(src, *_at("atan2f(")), "math.atan2")
    assert not out.exists()
    r = loom_here("adg", "mesh", "--rows", "4", "--cols", "4", "--fit", src, "--func", "scale", "-I", inc, "-o", out,
                  "-q")
    assert r.returncode == 0 and out.exists(), r
    r = loom_here("adg", "mesh", "--fit", src, "--func", "scale", "-o", tmp_path / "g.fabric.mlir")
    assert r.returncode == 2 and "'halve.h' file not found" in r.stderr, r  # the include directory is what -I gave


def test_verify_adg_maps_the_legalized_graph_as_map_does(tmp_path: Path) -> None:
    """rintf (math.roundeven) has an exact rewrite that ``loom map`` maps; ``loom verify --adg`` maps the same
    graph, so its map.fit is not refuted for want of a roundeven FU (it was, while ``loom map`` proved the mapping)."""
    src = tmp_path / "rnd.c"
    src.write_text("#include <math.h>\nvoid rnd(float *d, int n) {\n"
                   "    for (int i = 0; i < n; i++) d[i] = rintf(d[i]);\n}\n")
    fabric = tmp_path / "rnd.fabric.mlir"
    assert loom_here("adg", "mesh", "--rows", "8", "--cols", "8", "--extmem", "1", "--fit", src, "--func", "rnd",
                     "-o", fabric, "-q").returncode == 0
    r = loom_here("map", src, "--func", "rnd", "--adg", fabric, "-o", tmp_path / "out", "-q")
    assert r.returncode == 0 and "checker: proved" in r.stdout, r
    r = loom_here("verify", src, "--func", "rnd", "--adg", fabric)
    ids = {line.split()[1]: line.split()[0] for line in r.stdout.splitlines() if " map." in line[:20]}
    assert "map.fit" not in ids and ids.get("map.iso") == "proved", r.stdout


def test_verify_adg_refutes_fit_naming_the_op_outside_the_allowlist(tmp_path: Path) -> None:
    """``loom verify --adg`` of the tanh kernel: map.fit is refuted because no fabric has an FU for math.tanh, said
    so (not 'no compatible function unit', which a larger fabric might cure)."""
    src, inc = _source(tmp_path)
    r = loom_here("verify", src, "--func", "gelu", "-I", inc, "--adg", _mesh(tmp_path), "--json")
    fit = [o for o in json.loads(r.stdout)["obligations"] if o["id"] == "map.fit"]
    assert len(fit) == 1 and fit[0]["status"] == "refuted", fit
    assert "'math.tanh' is outside upstream's FU-body allowlist" in fit[0]["detail"], fit
    assert fit[0]["counterexample"]["reasons"] == [fit[0]["detail"].split(": ", 1)[1]], fit
