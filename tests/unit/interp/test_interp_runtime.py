"""Runtime memory views (aliasing, bounds) and the simulation I/O contract (inputs JSON, run JSON)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError, SimulationError
from loom.ir.attributes import StridedLayoutAttr
from loom.ir.core import Block, Operation, Region
from loom.ir.types import FunctionType, IntegerType, MemRefType, f32, i1, i8, i32, index, none
from loom.runtime import (
    MemRefView,
    decode_inputs,
    encode_memref,
    encode_value,
    function_arg_names,
    root_buffer,
    run_result_json,
)
from loom.semantics.scalar import mask


def grid(rows: int, cols: int) -> MemRefView:
    return MemRefView.from_flat(list(range(rows * cols)), i32, [rows, cols], "g")


# ----------------------------------------------------------------------------- views


def test_load_store_row_major_and_bounds():
    g = grid(3, 4)
    assert g.load([2, 1]) == 9
    g.store(99, [1, 3])
    assert g.to_flat()[7] == 99
    with pytest.raises(SimulationError) as e:
        g.load([3, 0])
    assert e.value.code == "RT_MEMREF_OUT_OF_BOUNDS" and "[3, 0]" in str(e.value)
    with pytest.raises(SimulationError):
        g.load([0, mask(-1, 64)])  # a negative index is a huge unsigned pattern
    v = MemRefView.from_flat([1, 2], i32, [2])
    with pytest.raises(SimulationError):
        v.store(0, [2])


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_subview_aliases_root(rows, cols, data):
    g = grid(rows, cols)
    r0 = data.draw(st.integers(0, rows - 1))
    c0 = data.draw(st.integers(0, cols - 1))
    nr = data.draw(st.integers(1, rows - r0))
    nc = data.draw(st.integers(1, cols - c0))
    sv = g.subview([r0, c0], [nr, nc], [1, 1])
    assert root_buffer(sv) is root_buffer(g)
    assert sv.to_flat() == [(r0 + i) * cols + c0 + j for i in range(nr) for j in range(nc)]
    sv.store(-1, [nr - 1, nc - 1])
    assert g.load([r0 + nr - 1, c0 + nc - 1]) == -1
    with pytest.raises(SimulationError):
        sv.load([nr, 0])


def test_strided_and_rank_reducing_subview():
    g = grid(4, 6)
    every_other = g.subview([1, 0], [2, 3], [2, 2])
    assert every_other.to_flat() == [6, 8, 10, 18, 20, 22]
    row = g.subview([2, 0], [1, 6], [1, 1], result_rank=1)
    assert row.sizes == (6,) and row.to_flat() == list(range(12, 18))
    with pytest.raises(SimulationError) as e:
        g.subview([3, 0], [2, 6], [1, 1])
    assert e.value.code == "RT_MEMREF_BAD_VIEW"


def test_reinterpret_collapse_expand():
    g = grid(3, 4)
    flat = g.collapse([[0, 1]])
    assert flat.sizes == (12,) and flat.to_flat() == list(range(12))
    back = flat.expand([[0, 1]], [2, 6])
    assert back.load([1, 2]) == 8
    r = g.subview([1, 0], [1, 4], [1, 1]).reinterpret(2, [5], [2])  # offset counts from the buffer start
    assert r.to_flat() == [2, 4, 6, 8, 10]
    r.store(-5, [4])
    assert g.load([2, 2]) == -5
    with pytest.raises(SimulationError):
        g.reinterpret(0, [13], [1])
    with pytest.raises(SimulationError):
        g.subview([0, 0], [3, 2], [1, 1]).collapse([[0, 1]])  # rows of 2 with a gap: not contiguous
    evens = g.subview([0, 0], [3, 2], [1, 2]).collapse([[0, 1]])  # uniformly strided: fine
    assert evens.strides == (2,) and evens.to_flat() == [0, 2, 4, 6, 8, -5]  # 10 was overwritten above


def test_allocate_is_zeroed():
    assert MemRefView.allocate(f32, [2, 2]).to_flat() == [0.0] * 4
    assert MemRefView.allocate(i8, [0]).to_flat() == []


# ----------------------------------------------------------------------------- inputs


def test_decode_scalars_wrap_and_validate(tmp_path):
    f = tmp_path / "in.json"
    obj = {"a": -1, "b": True, "c": 0.1, "d": "-inf", "e": 0}
    f.write_text(json.dumps(obj))
    got = decode_inputs(["a", "b", "c", "d", "e"], [i8, i1, f32, f32, index], obj, str(f))
    assert got["a"] == 255 and got["b"] == 1 and got["d"] == -math.inf and got["e"] == 0
    assert got["c"] == pytest.approx(0.1, rel=1e-7) and got["c"] != 0.1  # rounded to f32
    for bad, code in [({"a": 256}, "IO_INPUT_TYPE"), ({"a": 1.5}, "IO_INPUT_TYPE"), ({"a": True}, "IO_INPUT_TYPE"),
                      ({}, "IO_INPUT_MISSING"), ({"a": 1, "zz": 2}, "IO_INPUT_EXTRA"), ({"a": [1]}, "IO_INPUT_TYPE")]:
        f.write_text(json.dumps(bad, indent=1))
        with pytest.raises(LoomError) as e:
            decode_inputs(["a"], [i8], bad, str(f))
        assert e.value.code == code
        assert str(e.value).startswith(str(f) + ":")


def test_bad_key_location_points_into_the_file(tmp_path):
    f = tmp_path / "in.json"
    f.write_text('{\n  "a": 1,\n  "zz": 2\n}\n')
    with pytest.raises(LoomError) as e:
        decode_inputs(["a"], [i8], {"a": 1, "zz": 2}, str(f))
    assert e.value.loc.line == 3 and e.value.loc.col == 3


def test_decode_memrefs_nested_flat_dynamic():
    t = MemRefType((None, 3), i32)
    nested = decode_inputs(["m"], [t], {"m": [[1, 2, 3], [4, 5, 6]]}, "x.json")["m"]
    flat = decode_inputs(["m"], [t], {"m": [1, 2, 3, 4, 5, 6]}, "x.json")["m"]
    assert nested.sizes == flat.sizes == (2, 3)
    assert nested.to_flat() == flat.to_flat() == [1, 2, 3, 4, 5, 6]
    empty = decode_inputs(["m"], [MemRefType((None,), f32)], {"m": []}, "x.json")["m"]
    assert empty.sizes == (0,)
    for bad in ([[1, 2], [3]], [[1, 2, 3, 4]], [1, 2, 3, 4], "x"):
        with pytest.raises(LoomError):
            decode_inputs(["m"], [t], {"m": bad}, "x.json")


def test_corpus_style_strided_layout_with_dynamic_offset():
    t = MemRefType((None,), f32, StridedLayoutAttr((1,), None))
    v = decode_inputs(["arg0"], [t], {"arg0": [1, 2.5, "nan"]}, "x.json")["arg0"]
    assert v.offset == 0 and v.sizes == (3,) and math.isnan(v.to_flat()[2])


def test_static_offset_layout_is_honoured():
    t = MemRefType((2,), i32, StridedLayoutAttr((3,), 4))
    v = decode_inputs(["a"], [t], {"a": [7, 8]}, "x.json")["a"]
    assert v.offset == 4 and v.strides == (3,) and v.to_flat() == [7, 8]


def test_none_arguments_need_no_input():
    got = decode_inputs(["a", "start"], [i32, none], {"a": 1}, "x.json")
    assert got == {"a": 1, "start": None}


# ----------------------------------------------------------------------------- output


def test_encode_values():
    assert encode_value(255, i8) == -1
    assert encode_value(1, i1) is True and encode_value(0, i1) is False
    assert encode_value(mask(-3, 64), index) == -3
    assert encode_value(math.nan, f32) == "nan" and encode_value(-math.inf, f32) == "-inf"
    assert encode_value(2**32 - 1, IntegerType(32, "u")) == -1  # signed decimal of the bit pattern
    v = MemRefView.from_flat([1.5, math.inf], f32, [2])
    assert encode_memref(v) == [1.5, "inf"]


def _func(arg_types, result_types, names):
    entry = Block.create(arg_types, names)
    from loom.ir.attributes import StringAttr, TypeAttr

    return Operation.create("func.func", attributes={
        "sym_name": StringAttr("k"), "function_type": TypeAttr(FunctionType(tuple(arg_types), tuple(result_types)))},
        regions=[Region.of(entry)])


def test_run_result_json_shape_and_order():
    mt = MemRefType((None,), i8)
    func = _func([mt, i32], [i32], ["a", "n"])
    assert function_arg_names(func) == ["a", "n"]
    view = MemRefView.from_flat([255, 1], i8, [2])
    err = SimulationError("boom", None, "RT_X")
    doc = run_result_json("error", [mask(-7, 32)], {"a": view}, None, None, err, func=func)
    assert list(doc) == ["status", "results", "memrefs", "residual_tokens", "channels", "error"]
    assert doc == {"status": "error", "results": [-7], "memrefs": {"a": [-1, 1]}, "residual_tokens": 0,
                   "channels": {}, "error": "RT_X boom"}
    # Raw element lists are encoded with the argument's element type; none results are dropped.
    hs = _func([mt, none], [i32, none], ["a", "start"])
    doc2 = run_result_json("completed", [5, None], {"a": [255, 0]}, 0, {"c0": 3}, None, func=hs)
    assert doc2["results"] == [5] and doc2["memrefs"] == {"a": [-1, 0]} and doc2["channels"] == {"c0": 3}
    with pytest.raises(ValueError):
        run_result_json("done", [], {}, 0, {}, None)
