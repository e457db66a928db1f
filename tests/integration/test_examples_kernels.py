"""Every examples/ kernel in the interpreter vs a plain-Python reference (given inputs + generated ones)."""

from __future__ import annotations

import functools
import json

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.interp import run_json
from loom.mlir import parse_file

from support.paths import ROOT

EXAMPLES = ROOT / "examples"
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

i32s = st.integers(-(2**31), 2**31 - 1)
small = st.integers(-1000, 1000)
f32s = st.floats(-1e4, 1e4, width=32)


@functools.lru_cache(maxsize=None)
def module(name: str):
    return parse_file(EXAMPLES / f"{name}.scf.mlir")


def run(name: str, obj: dict):
    m = module(name)
    (func,) = [f for f in m.functions() if f.name == "func.func"]
    r = run_json(m, func.attributes["sym_name"].value, obj, f"{name}.inputs.json")
    return r, r.to_json()


def given_inputs(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.inputs.json").read_text())


def w32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def f32(x) -> float:
    return float(np.float32(x))


def test_every_example_has_inputs_and_one_function():
    kernels = sorted(p.name[: -len(".scf.mlir")] for p in EXAMPLES.glob("*.scf.mlir"))
    assert len(kernels) >= 8
    for k in kernels:
        assert (EXAMPLES / f"{k}.inputs.json").is_file(), k
        assert len([f for f in module(k).functions() if f.name == "func.func"]) == 1
        r, doc = run(k, given_inputs(k))
        assert doc["status"] == "completed", (k, doc["error"])


# ----------------------------------------------------------------------------- saxpy / dot


def saxpy_ref(a, x, y):
    return [f32(np.float32(np.float32(a) * np.float32(xi)) + np.float32(yi)) for xi, yi in zip(x, y)]


@SETTINGS
@given(f32s, st.lists(st.tuples(f32s, f32s), max_size=10), st.integers(0, 3))
def test_saxpy(a, xy, extra):
    x, y = [p[0] for p in xy], [p[1] for p in xy]
    # n may be smaller than the vectors (the tail stays untouched); n = 0 runs zero times.
    n = max(0, len(x) - extra)
    _, doc = run("saxpy", {"a": a, "x": x, "y": y, "n": n})
    assert doc["memrefs"]["y"] == saxpy_ref(a, x[:n], y[:n]) + [f32(v) for v in y[n:]]
    assert doc["memrefs"]["x"] == [f32(v) for v in x]


def test_saxpy_given_inputs_and_out_of_bounds():
    obj = given_inputs("saxpy")
    _, doc = run("saxpy", obj)
    assert doc["memrefs"]["y"] == saxpy_ref(obj["a"], obj["x"], obj["y"])
    _, doc = run("saxpy", {**obj, "n": 7})
    assert doc["status"] == "error" and doc["error"].startswith("RT_MEMREF_OUT_OF_BOUNDS")


def dot_ref(x, y):
    acc = np.float32(0)
    for a, b in zip(x, y):
        acc = np.float32(acc + np.float32(np.float32(a) * np.float32(b)))
    return f32(acc)


@SETTINGS
@given(st.lists(st.tuples(f32s, f32s), max_size=12))
def test_dot(xy):
    x, y = [p[0] for p in xy], [p[1] for p in xy]
    _, doc = run("dot", {"x": x, "y": y, "n": len(x)})
    assert doc["results"] == [dot_ref(x, y)]


def test_dot_given_inputs():
    obj = given_inputs("dot")
    assert run("dot", obj)[1]["results"] == [dot_ref(obj["x"], obj["y"])]


# ----------------------------------------------------------------------------- matmul / triangular / stencil


def matmul_ref(A, B):
    k = len(B)
    n = len(B[0]) if B else 0
    return [[w32(sum(A[i][l] * B[l][j] for l in range(k))) for j in range(n)] for i in range(len(A))]


@SETTINGS
@given(st.integers(0, 4), st.integers(1, 4), st.integers(1, 4), st.data())
def test_matmul(m, k, n, data):
    A = [[data.draw(i32s) for _ in range(k)] for _ in range(m)]
    B = [[data.draw(i32s) for _ in range(n)] for _ in range(k)]
    C = [[7] * n for _ in range(m)]
    _, doc = run("matmul", {"A": A, "B": B, "C": C})
    assert doc["memrefs"]["C"] == [v for row in matmul_ref(A, B) for v in row]


def test_matmul_given_inputs():
    obj = given_inputs("matmul")
    assert run("matmul", obj)[1]["memrefs"]["C"] == [v for row in matmul_ref(obj["A"], obj["B"]) for v in row]


@SETTINGS
@given(st.integers(0, 5), st.data())
def test_triangular(n, data):
    L = [[data.draw(i32s) for _ in range(n)] for _ in range(n)]
    x = [data.draw(i32s) for _ in range(n)]
    _, doc = run("triangular", {"L": L, "x": x, "y": [0] * n})
    assert doc["memrefs"]["y"] == [w32(sum(L[i][j] * x[j] for j in range(i + 1))) for i in range(n)]


def stencil_ref(grid, out):
    rows, cols = len(grid), len(grid[0]) if grid else 0
    out = [row[:] for row in out]
    for i in range(1, rows - 1):
        for j in range(1, cols - 1):
            t = w32(4 * grid[i][j] + grid[i - 1][j] + grid[i + 1][j] + grid[i][j - 1] + grid[i][j + 1])
            out[i][j] = int(t / 8) if abs(t) < 2**52 else None  # C division truncates toward zero
    return [v for row in out for v in row]


@SETTINGS
@given(st.integers(0, 5), st.integers(0, 5), st.data())
def test_stencil2d(rows, cols, data):
    grid = [[data.draw(i32s) for _ in range(cols)] for _ in range(rows)]
    out = [[data.draw(small) for _ in range(cols)] for _ in range(rows)]
    if rows == 0:
        grid, out = [], []
    _, doc = run("stencil2d", {"in": grid, "out": out})
    assert doc["status"] == "completed"
    assert doc["memrefs"]["out"] == stencil_ref(grid, out)


def test_stencil2d_given_inputs():
    obj = given_inputs("stencil2d")
    assert run("stencil2d", obj)[1]["memrefs"]["out"] == stencil_ref(obj["in"], obj["out"])


# ----------------------------------------------------------------------------- control flow


def clamp_ref(v, lo, hi):
    out, count = [], 0
    for x in v:
        y = lo if x < lo else hi if x > hi else x  # the kernel tests lo first, also when lo > hi
        count += y != x
        out.append(y)
    return out, count


@SETTINGS
@given(st.lists(i32s, max_size=10), small, small)
def test_clamp_count(v, lo, hi):
    _, doc = run("clamp_count", {"v": v, "lo": lo, "hi": hi})
    out, count = clamp_ref(v, lo, hi)
    assert doc["memrefs"]["v"] == out and doc["results"] == [count]


def collatz_ref(n):
    x, steps, peak = n, 0, n
    while x > 1:
        x = 3 * x + 1 if x % 2 else x // 2
        steps += 1
        peak = max(peak, x)
    return [steps, peak]


@SETTINGS
@given(st.integers(0, 10**6))
def test_collatz(n):
    assert run("collatz", {"n": n})[1]["results"] == collatz_ref(n)


def test_collatz_zero_trips_and_given():
    assert run("collatz", {"n": 0})[1]["results"] == [0, 0]
    assert run("collatz", {"n": 1})[1]["results"] == [0, 1]
    assert run("collatz", given_inputs("collatz"))[1]["results"] == [111, 9232]


@SETTINGS
@given(st.lists(st.integers(-3, 3), max_size=8), st.integers(-3, 3))
def test_find_first(a, key):
    _, doc = run("find_first", {"a": a, "key": key})
    assert doc["results"] == [a.index(key) if key in a else len(a)]


def test_find_first_given():
    assert run("find_first", given_inputs("find_first"))[1]["results"] == [3]


# ----------------------------------------------------------------------------- memory


def histogram_ref(data, bins):
    hist = [0] * bins
    for d in data:
        hist[(d % 2**32) % bins] += 1
    return hist


@SETTINGS
@given(st.lists(i32s, max_size=20), st.integers(1, 6))
def test_histogram(data, bins):
    _, doc = run("histogram", {"data": data, "hist": [0] * bins})
    assert doc["memrefs"]["hist"] == histogram_ref(data, bins)


def test_histogram_given_and_division_by_zero():
    obj = given_inputs("histogram")
    assert run("histogram", obj)[1]["memrefs"]["hist"] == histogram_ref(obj["data"], len(obj["hist"]))
    _, doc = run("histogram", {"data": [1], "hist": []})
    assert doc["status"] == "error" and doc["error"].startswith("RT_ARITH_DIV_BY_ZERO")
    assert run("histogram", {"data": [], "hist": []})[1]["status"] == "completed"  # zero trips: no division


def tile_ref(m, row, col, s):
    out = [[f32(v) for v in r] for r in m]
    for i in range(2):
        for j in range(3):
            out[row + i][col + 2 * j] = f32(np.float32(out[row + i][col + 2 * j]) * np.float32(s))
    out[5][7] = f32(s)
    return [v for r in out for v in r]


@SETTINGS
@given(st.integers(0, 4), st.integers(0, 3), f32s, st.data())
def test_tile_scale_views_alias_the_argument(row, col, s, data):
    m = [[data.draw(f32s) for _ in range(8)] for _ in range(6)]
    _, doc = run("tile_scale", {"m": m, "row": row, "col": col, "s": s})
    assert doc["memrefs"]["m"] == tile_ref(m, row, col, s)


def test_tile_scale_given_and_out_of_range_window():
    obj = given_inputs("tile_scale")
    assert run("tile_scale", obj)[1]["memrefs"]["m"] == tile_ref(obj["m"], obj["row"], obj["col"], obj["s"])
    _, doc = run("tile_scale", {**obj, "col": 4})  # columns 4, 6, 8: the window leaves the matrix
    assert doc["status"] == "error" and doc["error"].startswith("RT_MEMREF_BAD_VIEW")


@SETTINGS
@given(st.lists(i32s, max_size=10))
def test_popcount_lut_reads_a_constant_global(v):
    _, doc = run("popcount_lut", {"v": v, "out": [0] * len(v)})
    assert doc["memrefs"]["out"] == [bin(x % 2**32).count("1") for x in v]


def test_popcount_lut_given():
    obj = given_inputs("popcount_lut")
    assert run("popcount_lut", obj)[1]["memrefs"]["out"] == [0, 1, 8, 32, 13, 1, 3]
