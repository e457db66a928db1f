"""Inputs and references for every handshake.func of the upstream corpus, shared by the sim, report and RTL tests."""

from __future__ import annotations

from typing import Any, Optional

from loom.interp import run_json
from loom.ir.core import Module, Operation
from loom.runtime import function_arg_names

from support.paths import SHARED


CORPUS = SHARED / "corpus"


def crc_table() -> list[int]:
    """The standard reflected CRC-32 table (polynomial 0xEDB88320), the contents of @.crctable.2."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (0xEDB88320 ^ (c >> 1)) if c & 1 else c >> 1
        table.append(c)
    return table


# Inputs keyed by the DFG's argNames; "@g" supplies memref.global @g. Sizes are chosen so every
# access is in bounds, and the data exercise both branches of each kernel's conditionals.
INPUTS: dict[str, dict[str, Any]] = {
    "_Z17binary_search_dsaPKfS0_Pjjj": {
        "input_sorted": [1.0, 3.0, 5.0, 7.0, 9.0, 11.0, 13.0, 15.0],
        "input_targets": [7.0, 2.0, 15.0, 1.0],
        "output_indices": [99] * 4,
        "N": 8,
        "M": 4,
    },
    "_Z9crc32_dsaPKjPjj": {
        "input_data": [0x12345678, 0x9ABCDEF0, 0, 0xFFFFFFFF],
        "output_checksum": [0],
        "N": 4,
        "@.crctable.2": crc_table(),
    },
    "_Z10cumsum_dsaPKfPfj": {"input": [1.0, 2.0, 3.0, 4.0, 5.0], "output": [0.0] * 5, "N": 5},
    "_Z11dotprod_dsaPKfS0_i": {"a": [1.0, 2.0, 3.0, 4.0], "b": [0.5, 0.5, 2.0, -1.0], "n": 4},
    "_Z13vecmul_kernelPKfS0_Pfi": {"a": [1.0, 2.0, 3.0, 4.0], "b": [0.5, 0.5, 2.0, -1.0], "products": [0.0] * 4, "n": 4},
    "_Z13vecsum_kernelPKfPfi": {"data": [1.0, 2.0, 3.0, 4.0], "result": [0.0], "n": 4},
    "_Z14fir_filter_dsaPKfS0_Pfjj": {
        "input": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
        "coeffs": [0.5, 0.25, 0.125],
        "output": [0.0] * 6,
        "input_size": 6,
        "num_taps": 3,
    },
    "_Z10gather_dsaPKjS0_Pjjj": {"src": [10, 20, 30, 40, 50], "indices": [4, 0, 7, 2, 1, 9], "dst": [0] * 6, "N": 6, "src_size": 5},
    "_Z10matmul_dsaPKjS0_Pjjjj": {"A": [1, 2, 3, 4], "B": [1, 0, 2, 1, 3, 1], "C": [0] * 6, "M": 2, "N": 2, "K": 3},
    "_Z8relu_dsaPKfPfj": {"input": [-1.0, 2.0, -3.0, 4.0, 0.0], "output": [9.0] * 5, "N": 5},
    "_Z15scatter_add_dsaPKjS0_Pjjj": {
        "src": [1, 2, 3, 4, 5],
        "indices": [0, 3, 9, 3, 1],
        "dst": [100, 200, 300, 400],
        "N": 5,
        "dst_size": 4,
    },
    "_Z10vecadd_dsaPKfS0_Pfi": {"a": [1.0, 2.0, 3.0], "b": [1.0, 1.0, 1.0], "c": [0.0] * 3, "n": 3},
    "dataflow_flowops_test": {"start": 0, "step": 1, "bound": 4, "init": 100},
    "tiny_load": {"mem": [5, 6, 7, 8], "idx": 2},
}


# The trip-count scalars set to 0 for the zero-trip run.
TRIP_COUNTS = {"N", "n", "M", "input_size"}


# Python references for the two functions of dotprod.mlir that have no *_cpu twin.
PY_REFERENCE = {
    "_Z13vecmul_kernelPKfS0_Pfi": lambda i: {
        "memrefs": {
            "products": [x * y for x, y in zip(i["a"][: i["n"]], i["b"])] + i["products"][i["n"]:],
        }
    },
    "_Z13vecsum_kernelPKfPfi": lambda i: {"memrefs": {"result": [sum(i["data"][: i["n"]])]}},
}


def func_named(module: Module, name: str) -> Operation:
    for fn in module.functions():
        if fn.attributes["sym_name"].value == name:
            return fn
    raise AssertionError(f"no function {name}")


def inputs_for(name: str, run_kind: str) -> dict[str, Any]:
    raw = dict(INPUTS[name])
    if run_kind == "zero-trip":
        raw.update({k: 0 for k in raw if k in TRIP_COUNTS})
    return raw


def reference(module: Module, name: str, raw: dict[str, Any]) -> Optional[dict]:
    """Expected results/memrefs (keyed like the DFG's arguments) from the *_cpu twin or a Python reference."""
    if name in PY_REFERENCE:
        return PY_REFERENCE[name](raw)
    cpu_name = name.replace("_dsa", "_cpu")
    twins = [f for f in module.functions() if f.name == "func.func" and f.attributes["sym_name"].value == cpu_name]
    if not twins:
        if name == "tiny_load":
            return {"results": [raw["mem"][raw["idx"]]], "memrefs": {"mem": raw["mem"]}}
        return None
    dfg_names = [n for n in function_arg_names(func_named(module, name)) if n in raw]
    cpu_names = function_arg_names(func_named(module, cpu_name))
    rename = dict(zip(dfg_names, cpu_names))
    cpu_inputs = {rename[k]: v for k, v in raw.items() if k in rename}
    cpu_inputs.update({k: v for k, v in raw.items() if k.startswith("@")})
    ref = run_json(module, cpu_name, cpu_inputs)
    assert ref.status == "completed", ref.error
    back = {v: k for k, v in rename.items()}
    return {"results": list(ref.results), "memrefs": {back[k]: v.to_flat() for k, v in ref.memrefs.items()}}


def agrees(sim, ref: Optional[dict]) -> Optional[bool]:
    if ref is None:
        return None
    if "results" in ref and sim.results != ref["results"]:
        return False
    return all(sim.memrefs[k] == v for k, v in ref["memrefs"].items())
