"""The legacy corpus's `_cpu` kernels and an input builder for each, shared by the lowering and RTL differential tests."""

from __future__ import annotations

import random
import struct
from typing import Any, Callable

from support.paths import SHARED



CORPUS = SHARED / "corpus" / "loom-legacy"


def _crc_entry(i: int) -> int:
    """Entry i of the standard reflected CRC-32 table, as a signed i32."""
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
    return struct.unpack("<i", struct.pack("<I", c))[0]


def _floats(r: random.Random, n: int) -> list[float]:
    return [r.choice([0.5, -1.25, 2.0, 3.75, -0.125, 8.0]) for _ in range(n)]


def _ints(r: random.Random, n: int, lo: int = -50, hi: int = 50) -> list[int]:
    return [r.randint(lo, hi) for _ in range(n)]


# kernel -> (cpu function name, inputs builder(rng, n))
CORPUS_KERNELS: dict[str, Callable[[random.Random, int], dict[str, Any]]] = {
    "vecadd": lambda r, n: {
        "arg0": _floats(r, n + 1),
        "arg1": _floats(r, n + 1),
        "arg2": [0.0] * (n + 1),
        "arg3": n,
    },
    "relu": lambda r, n: {"arg0": _floats(r, n + 1), "arg1": [0.0] * (n + 1), "arg2": n},
    "cumsum": lambda r, n: {"arg0": _floats(r, n + 1), "arg1": [0.0] * (n + 1), "arg2": n},
    "dotprod": lambda r, n: {"arg0": _floats(r, n + 1), "arg1": _floats(r, n + 1), "arg2": n},
    "gather": lambda r, n: {
        "arg0": _ints(r, 6),
        "arg1": _ints(r, n + 1, 0, 9),
        "arg2": [0] * (n + 1),
        "arg3": n,
        "arg4": 6,
    },
    "scatter_add": lambda r, n: {
        "arg0": _ints(r, n + 1),
        "arg1": _ints(r, n + 1, 0, 7),
        "arg2": [0] * 5,
        "arg3": n,
        "arg4": 5,
    },
    "fir_filter": lambda r, n: {
        "arg0": _floats(r, n + 1),
        "arg1": _floats(r, 3),
        "arg2": [0.0] * (n + 1),
        "arg3": n,
        "arg4": 3 if n % 2 else n % 3,
    },
    "binary_search": lambda r, n: {
        "arg0": sorted(_floats(r, 6)),
        "arg1": _floats(r, n + 1),
        "arg2": [0] * (n + 1),
        "arg3": 6,
        "arg4": n,
    },
    "matmul": lambda r, n: {
        "arg0": _ints(r, 2 * 3),
        "arg1": _ints(r, 3 * n),
        "arg2": [0] * (2 * n),
        "arg3": 2 if n else 0,
        "arg4": 3,
        "arg5": n,
    },
    "crc32": lambda r, n: {
        "arg0": _ints(r, n + 1, -(2**31), 2**31 - 1),
        "arg1": [0],
        "arg2": n,
        "@.crctable.2": [_crc_entry(i) for i in range(256)],
    },
}


def cpu_function(module) -> str:
    (name,) = [
        f.attributes["sym_name"].value
        for f in module.functions()
        if f.name == "func.func" and "_cpu" in f.attributes["sym_name"].value
    ]
    return name
