"""The interpreter on MLIR text: views, globals, calls, casts, float ops and the rarer scf ops.

Ops whose custom syntax the parser does not know (memref.copy/dealloc, scf.execute_region,
scf.index_switch) are written in MLIR's generic form.
"""

from __future__ import annotations

import math

import pytest

from loom.diagnostics import LoomError
from loom.interp import run_json
from loom.mlir import parse_text


def run(text: str, func: str, obj: dict, **kw) -> dict:
    m = parse_text(text, "k.mlir")
    return run_json(m, func, obj, "in.json", **kw).to_json()


def test_expand_collapse_copy_and_cast():
    text = """
    func.func @f(%a: memref<6xi32>, %b: memref<?xi32>) -> index {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %e = memref.expand_shape %a [[0, 1]] output_shape [2, 3] : memref<6xi32> into memref<2x3xi32>
      %v = memref.load %e[%c1, %c2] : memref<2x3xi32>
      memref.store %v, %e[%c0, %c0] : memref<2x3xi32>
      %flat = memref.collapse_shape %e [[0, 1]] : memref<2x3xi32> into memref<6xi32>
      %d = memref.cast %b : memref<?xi32> to memref<6xi32>
      "memref.copy"(%flat, %d) : (memref<6xi32>, memref<6xi32>) -> ()
      %n = memref.dim %b, %c0 : memref<?xi32>
      return %n : index
    }
    """
    doc = run(text, "f", {"a": [1, 2, 3, 4, 5, 6], "b": [0] * 6})
    assert doc["memrefs"] == {"a": [6, 2, 3, 4, 5, 6], "b": [6, 2, 3, 4, 5, 6]} and doc["results"] == [6]
    bad = run(text, "f", {"a": [1, 2, 3, 4, 5, 6], "b": [0] * 5})
    assert bad["status"] == "error" and bad["error"].startswith("RT_MEMREF_CAST_MISMATCH")


def test_alloc_dynamic_and_reinterpret_cast():
    text = """
    func.func @f(%n: index) -> i32 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %m = memref.alloc(%n) : memref<?xi32>
      scf.for %i = %c0 to %n step %c1 {
        %v = arith.index_cast %i : index to i32
        memref.store %v, %m[%i] : memref<?xi32>
      }
      %r = memref.reinterpret_cast %m to offset: [1], sizes: [2], strides: [2] : memref<?xi32> to memref<2xi32, strided<[2], offset: 1>>
      %x = memref.load %r[%c1] : memref<2xi32, strided<[2], offset: 1>>
      "memref.dealloc"(%m) : (memref<?xi32>) -> ()
      return %x : i32
    }
    """
    assert run(text, "f", {"n": 4})["results"] == [3]
    short = run(text, "f", {"n": 3})
    assert short["status"] == "error" and "RT_MEMREF_OUT_OF_BOUNDS" in short["error"]


def test_uninitialized_global_comes_from_inputs_and_constant_global_is_read_only():
    text = """
    memref.global "private" @g : memref<3xi8> = uninitialized
    memref.global "private" constant @k : memref<2xi8> = dense<[7, -7]>
    func.func @f(%w: i1) -> i8 {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %g = memref.get_global @g : memref<3xi8>
      %k = memref.get_global @k : memref<2xi8>
      %a = memref.load %g[%c1] : memref<3xi8>
      %b = memref.load %k[%c1] : memref<2xi8>
      %s = arith.addi %a, %b : i8
      scf.if %w {
        memref.store %s, %k[%c0] : memref<2xi8>
      }
      return %s : i8
    }
    """
    assert run(text, "f", {"w": False, "@g": [1, 100, 3]})["results"] == [93]
    doc = run(text, "f", {"w": 1, "@g": [1, 2, 3]})
    assert doc["status"] == "error" and doc["error"].startswith("RT_MEMREF_STORE_TO_CONSTANT")
    with pytest.raises(LoomError) as e:
        run(text, "f", {"w": False})
    assert e.value.code == "IO_INPUT_MISSING"
    with pytest.raises(LoomError) as e:
        run(text, "f", {"w": False, "@g": [1, 2, 3], "@nope": [1]})
    assert e.value.code == "IO_INPUT_EXTRA"


def test_calls_unsigned_loop_casts_and_poison():
    text = """
    func.func private @sq(%x: i16) -> i16 {
      %y = arith.muli %x, %x : i16
      return %y : i16
    }
    func.func @f(%lb: i16, %ub: i16) -> (i16, i32, i64) {
      %c1 = arith.constant 1 : i16
      %z = arith.constant 0 : i16
      %p = ub.poison : i16
      %s = scf.for unsigned %i = %lb to %ub step %c1 iter_args(%acc = %z) -> (i16) : i16 {
        %q = func.call @sq(%i) : (i16) -> i16
        %t = arith.addi %acc, %q : i16
        scf.yield %t : i16
      }
      %ext = arith.extsi %s : i16 to i32
      %u = arith.extui %s : i16 to i64
      %pp = arith.addi %s, %p : i16
      return %pp, %ext, %u : i16, i32, i64
    }
    """
    doc = run(text, "f", {"lb": 0, "ub": 200})
    total = sum(i * i for i in range(200)) % 2**16
    signed = total - 2**16 if total >= 2**15 else total
    assert doc["results"] == [signed, signed, total]
    # Unsigned compare: lb = 0xFFFF (-1) is above any ub, so zero trips.
    assert run(text, "f", {"lb": -1, "ub": 5})["results"] == [0, 0, 0]


def test_float_ops_and_special_values_in_json():
    text = """
    func.func @f(%a: f32, %b: f32) -> (f32, f32, i1, f64, i32, f32) {
      %d = arith.divf %a, %b : f32
      %m = math.fma %a, %b, %a : f32
      %c = arith.cmpf uno, %d, %d : f32
      %e = arith.extf %m : f32 to f64
      %i = arith.fptosi %d : f32 to i32
      %s = math.sqrt %b : f32
      return %d, %m, %c, %e, %i, %s : f32, f32, i1, f64, i32, f32
    }
    """
    doc = run(text, "f", {"a": 1.5, "b": 0.5})
    assert doc["results"][:5] == [3.0, 2.25, False, 2.25, 3]
    assert abs(doc["results"][5] - math.sqrt(0.5)) < 1e-7
    # fptosi of inf (1.5 / 0) is poison in MLIR: the reference interpreter stops there
    doc = run(text, "f", {"a": 1.5, "b": 0})
    assert doc["status"] == "error" and doc["error"].startswith("RT_ARITH_CAST_RANGE arith.fptosi")
    doc = run(text.replace("%i = arith.fptosi %d : f32 to i32", "%i = arith.constant 0 : i32"), "f",
              {"a": 0.0, "b": "-inf"})
    assert doc["results"][0] == -0.0 and doc["results"][1] == "nan" and doc["results"][2] is False
    assert doc["results"][5] == "nan"
    doc = run(text, "f", {"a": "nan", "b": 2})  # fptosi of a NaN: poison too
    assert doc["status"] == "error" and doc["error"].startswith("RT_ARITH_CAST_RANGE arith.fptosi")
    doc = run(text.replace("%i = arith.fptosi %d : f32 to i32", "%i = arith.constant 0 : i32"), "f",
              {"a": "nan", "b": 2})
    assert doc["results"][2] is True


def test_execute_region_and_index_switch():
    text = """
    func.func @f(%k: index) -> i32 {
      %r = "scf.execute_region"() ({
        %s = "scf.index_switch"(%k) ({
          %cm1 = arith.constant -1 : i32
          scf.yield %cm1 : i32
        }, {
          %c20 = arith.constant 20 : i32
          scf.yield %c20 : i32
        }, {
          %c50 = arith.constant 50 : i32
          scf.yield %c50 : i32
        }) {cases = array<i64: 2, 5>} : (index) -> i32
        scf.yield %s : i32
      }) : () -> i32
      return %r : i32
    }
    """
    assert [run(text, "f", {"k": k})["results"][0] for k in (2, 5, 3)] == [20, 50, -1]


def test_while_with_step_limit_and_division_by_zero_location():
    text = """
    func.func @spin(%d: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %t = arith.constant true
      %r = scf.while (%x = %c0) : (i32) -> i32 {
        scf.condition(%t) %x : i32
      } do {
      ^bb0(%x: i32):
        %q = arith.divsi %x, %d : i32
        %y = arith.addi %q, %x : i32
        scf.yield %y : i32
      }
      return %r : i32
    }
    """
    doc = run(text, "spin", {"d": 1}, max_steps=1000)
    assert doc["status"] == "error" and doc["error"].startswith("RT_STEP_LIMIT")
    doc = run(text, "spin", {"d": 0})
    assert doc["error"].startswith("RT_ARITH_DIV_BY_ZERO") and "k.mlir:9:" in doc["error"]


def test_bad_inputs_are_loom_errors():
    text = "func.func @f(%a: memref<2x2xf32>, %n: i8) { return }"
    for obj in ({"a": [[1, 2], [3]], "n": 1}, {"a": [1, 2, 3], "n": 1}, {"a": [[1, 2], [3, 4]], "n": 1000},
                {"a": [[1, 2], [3, 4]]}, {"a": [[1, 2], [3, "x"]], "n": 0}):
        with pytest.raises(LoomError):
            run(text, "f", obj)
    assert run(text, "f", {"a": [1, 2, 3, math.inf], "n": -128})["memrefs"]["a"] == [1.0, 2.0, 3.0, "inf"]
