"""The corpus' SCF reference functions (``*_cpu``) in the interpreter vs Python references of their C meaning."""

from __future__ import annotations

import functools
import struct
import zlib
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.interp import run_json
from loom.mlir import parse_file

from support.paths import SHARED

CORPUS = SHARED / "corpus" / "loom-legacy"
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])

f32s = st.floats(-1e3, 1e3, width=32)
u32s = st.integers(0, 2**32 - 1)


@functools.lru_cache(maxsize=None)
def cpu_function(kernel: str):
    m = parse_file(CORPUS / f"{kernel}.mlir")
    (f,) = [f for f in m.functions() if f.name == "func.func" and "_cpu" in f.attributes["sym_name"].value]
    return m, f.attributes["sym_name"].value


def run(kernel: str, obj: dict) -> dict:
    m, name = cpu_function(kernel)
    r = run_json(m, name, obj, f"{kernel}.inputs.json")
    doc = r.to_json()
    assert doc["status"] == "completed", doc["error"]
    return doc


def f32(x) -> float:
    return float(np.float32(x))


def s32(x: int) -> int:
    return (x + 2**31) % 2**32 - 2**31


def fma_f32(a: float, b: float, c: float) -> float:
    """Single-rounding f32 fma: the exact value, then the nearest f32 among neighbours (ties to even)."""
    q = Fraction(a) * Fraction(b) + Fraction(c)
    if q == 0:
        return 0.0
    guess = np.float32(float(q))
    cands = [guess, np.nextafter(guess, np.float32(np.inf)), np.nextafter(guess, np.float32(-np.inf))]
    best = min((c for c in cands if np.isfinite(c)),
               key=lambda c: (abs(Fraction(float(c)) - q), int(np.array(c).view(np.uint32)) & 1))
    return float(best)


@pytest.mark.shared
def test_every_corpus_file_has_a_cpu_function():
    files = sorted(p.stem for p in CORPUS.glob("*.mlir"))
    assert len(files) == 10
    for k in files:
        cpu_function(k)


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.tuples(f32s, f32s), max_size=8), st.integers(-3, 0))
def test_vecadd(ab, shrink):
    a, b = [p[0] for p in ab], [p[1] for p in ab]
    n = len(a) + shrink  # n <= 0 skips the loop (signed n > 0 guard)
    doc = run("vecadd", {"arg0": a, "arg1": b, "arg2": [0.0] * len(a), "arg3": n})
    k = max(n, 0)
    assert doc["memrefs"]["arg2"] == [f32(np.float32(x) + np.float32(y)) for x, y in zip(a[:k], b[:k])] + [0.0] * (
        len(a) - k)


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.tuples(f32s, f32s), max_size=8))
def test_dotprod_uses_fused_multiply_add(ab):
    a, b = [p[0] for p in ab], [p[1] for p in ab]
    acc = 0.0
    for x, y in zip(a, b):
        acc = fma_f32(x, y, acc)
    assert run("dotprod", {"arg0": a, "arg1": b, "arg2": len(a)})["results"] == [acc]


@pytest.mark.shared
@SETTINGS
@given(st.lists(f32s, max_size=8))
def test_cumsum(a):
    out, acc = [], np.float32(0)
    for x in a:
        acc = np.float32(acc + np.float32(x))
        out.append(float(acc))
    doc = run("cumsum", {"arg0": a, "arg1": [0.0] * len(a), "arg2": len(a)})
    assert doc["memrefs"]["arg1"] == out


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.one_of(f32s, st.just(float("nan")), st.just(-0.0)), max_size=8))
def test_relu(a):
    doc = run("relu", {"arg0": [x if x == x else "nan" for x in a], "arg1": [9.0] * len(a), "arg2": len(a)})
    assert doc["memrefs"]["arg1"] == [f32(x) if x > 0 else 0.0 for x in a]  # NaN > 0 is false (ogt)


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=6), st.lists(u32s, max_size=8), st.data())
def test_gather(src, idx_raw, data):
    idx = [i % (len(src) + 2) if data.draw(st.booleans()) else i for i in idx_raw]
    src_len = data.draw(st.integers(0, len(src)))
    doc = run("gather", {"arg0": src, "arg1": [s32(i) for i in idx], "arg2": [5] * len(idx), "arg3": len(idx),
                         "arg4": src_len})
    assert doc["memrefs"]["arg2"] == [src[i] if i < src_len else 0 for i in idx]


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.tuples(st.integers(-2**31, 2**31 - 1), st.integers(0, 7)), max_size=10), st.integers(0, 6))
def test_scatter_add(pairs, dst_len):
    src, idx = [p[0] for p in pairs], [p[1] for p in pairs]
    dst = list(range(100, 100 + dst_len))
    ref = dst[:]
    for v, i in zip(src, idx):
        if i < dst_len:
            ref[i] = s32(ref[i] + v)
    doc = run("scatter_add", {"arg0": src, "arg1": idx, "arg2": dst, "arg3": len(src), "arg4": dst_len})
    assert doc["memrefs"]["arg2"] == ref


@pytest.mark.shared
@SETTINGS
@given(st.integers(0, 3), st.integers(0, 3), st.integers(0, 3), st.data())
def test_matmul_row_major_flat(M, N, P, data):
    A = [data.draw(st.integers(-2**31, 2**31 - 1)) for _ in range(M * N)]
    B = [data.draw(st.integers(-2**31, 2**31 - 1)) for _ in range(N * P)]
    C = [-1] * (M * P)
    doc = run("matmul", {"arg0": A, "arg1": B, "arg2": C, "arg3": M, "arg4": N, "arg5": P})
    ref = [s32(sum(A[i * N + k] * B[k * P + j] for k in range(N))) for i in range(M) for j in range(P)]
    assert doc["memrefs"]["arg2"] == ref


@pytest.mark.shared
@SETTINGS
@given(st.lists(f32s, max_size=7), st.lists(f32s, max_size=4))
def test_fir_filter(x, h):
    out = []
    for i in range(len(x)):
        acc = 0.0
        for j in range(len(h)):
            if i - j >= 0:
                acc = fma_f32(h[j], x[i - j], acc)
        out.append(acc)
    doc = run("fir_filter", {"arg0": x, "arg1": h, "arg2": [3.0] * len(x), "arg3": len(x), "arg4": len(h)})
    assert doc["memrefs"]["arg2"] == out


def bsearch(arr: list[float], q: float) -> int:
    lo, hi = 0, len(arr) - 1
    while lo <= hi:
        mid = lo + (hi - lo) // 2
        if arr[mid] == q:
            return mid
        if arr[mid] < q:
            lo = mid + 1
        else:
            hi = mid - 1
    return -1


@pytest.mark.shared
@SETTINGS
@given(st.lists(st.integers(-50, 50), max_size=9, unique=True), st.lists(st.integers(-55, 55), max_size=6))
def test_binary_search(keys, queries):
    arr = sorted(float(k) for k in keys)
    qs = [float(q) for q in queries]
    doc = run("binary_search", {"arg0": arr, "arg1": qs, "arg2": [7] * len(qs), "arg3": len(arr),
                                "arg4": len(qs)})
    assert doc["memrefs"]["arg2"] == [bsearch(arr, q) for q in qs]


def crc_table() -> list[int]:
    """The standard reflected CRC-32 table (polynomial 0xEDB88320)."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)
    return table


@pytest.mark.shared
@SETTINGS
@given(st.lists(u32s, max_size=8))
def test_crc32_matches_zlib_with_the_table_supplied_as_global(words):
    table = [s32(t) for t in crc_table()]
    doc = run("crc32", {"arg0": [s32(w) for w in words], "arg1": [0], "arg2": len(words), "@.crctable.2": table})
    want = zlib.crc32(b"".join(struct.pack("<I", w) for w in words))
    assert doc["memrefs"]["arg1"] == [s32(want)]


@pytest.mark.shared
def test_crc32_without_its_table_is_an_input_error():
    from loom.diagnostics import LoomError

    m, name = cpu_function("crc32")
    with pytest.raises(LoomError) as e:
        run_json(m, name, {"arg0": [1], "arg1": [0], "arg2": 1}, "in.json")
    assert e.value.code == "IO_INPUT_MISSING" and "@.crctable.2" in str(e.value)
