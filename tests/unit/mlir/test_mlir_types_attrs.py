"""Types, attributes and locations: exact IR values and exact printed text."""

from __future__ import annotations

import math

import pytest

from loom.ir import types as T
from loom.ir.attributes import (
    ArrayAttr,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.equality import modules_equal
from loom.mlir import parse_text, print_module
from loom.mlir.printer import Printer, quote


def attr_of(text: str):
    """The attribute ``a`` of a function written with ``attributes {a = <text>}``."""
    m = parse_text(f"func.func private @f() attributes {{a = {text}}}", "a.mlir")
    return m.ops[0].attributes["a"]


def type_of(text: str):
    m = parse_text(f"func.func private @f({text})", "t.mlir")
    return m.ops[0].attributes["function_type"].type.inputs[0]


def round_trips(text: str) -> str:
    m = parse_text(text, "r.mlir")
    out = print_module(m)
    again = parse_text(out, "r2.mlir")
    assert modules_equal(m, again)
    assert print_module(again) == out
    return out


@pytest.mark.parametrize(
    "text,want",
    [
        ("i1", T.i1),
        ("si8", T.IntegerType(8, "s")),
        ("ui64", T.IntegerType(64, "u")),
        ("index", T.index),
        ("none", T.none),
        ("bf16", T.bf16),
        ("memref<?x4xf32>", T.MemRefType((None, 4), T.f32)),
        ("memref<f32>", T.MemRefType((), T.f32)),
        ("memref<?xf32, strided<[1], offset: ?>>", T.MemRefType((None,), T.f32, StridedLayoutAttr((1,), None))),
        ("memref<4xi32, 1>", T.MemRefType((4,), T.i32, None, IntegerAttr(1))),
        ("tensor<*xf32>", T.TensorType(None, T.f32)),
        ("tensor<2x?xi8>", T.TensorType((2, None), T.i8)),
        ("vector<4xf16>", T.VectorType((4,), T.f16)),
        ("!dataflow.tagged<i32, i4>", T.TaggedType(T.i32, T.IntegerType(4))),
        ("!llvm.ptr", T.OpaqueType("!llvm.ptr")),
        ("!handshake.channel<i32>", T.OpaqueType("!handshake.channel<i32>")),
        ("complex<f32>", T.OpaqueType("complex<f32>")),
        ("(i32, f32) -> i1", T.FunctionType((T.i32, T.f32), (T.i1,))),
        ("() -> ((i32) -> i32)", T.FunctionType((), (T.FunctionType((T.i32,), (T.i32,)),))),
    ],
)
def test_types(text, want):
    assert type_of(text) == want
    round_trips(f"func.func private @f({text})")


@pytest.mark.parametrize(
    "text,want",
    [
        ("42", IntegerAttr(42)),
        ("-7 : i8", IntegerAttr(-7, T.i8)),
        ("255 : i8", IntegerAttr(255, T.i8)),
        ("0x10 : i32", IntegerAttr(16, T.i32)),
        ("true", BoolAttr(True)),
        ("unit", UnitAttr()),
        ("2.5", FloatAttr(2.5)),
        ("1.0e-05 : f64", FloatAttr(1e-5, T.f64)),
        ('"a\\"b\\n\\09"', StringAttr('a"b\n\t')),
        ('"\\E2\\82\\AC"', StringAttr("\u20ac")),
        ("[1, [true], {}]", ArrayAttr((IntegerAttr(1), ArrayAttr((BoolAttr(True),)), DictAttr(())))),
        ('{b, "q k" = 1}', DictAttr((("b", UnitAttr()), ("q k", IntegerAttr(1))))),
        ("@f::@g", SymbolRefAttr("f", ("g",))),
        ('@".crctable.2"', SymbolRefAttr(".crctable.2")),
        ("array<i64: 1, -2>", DenseArrayAttr(T.i64, (1, -2))),
        ("array<i1: true, false>", DenseArrayAttr(T.i1, (True, False))),
        ("array<f32>", DenseArrayAttr(T.f32, ())),
        ("dense<7> : tensor<4xi32>", DenseElementsAttr((7,), T.TensorType((4,), T.i32), True)),
        ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>", DenseElementsAttr((1, 2, 3, 4), T.TensorType((2, 2), T.i8))),
        ("dense<[true, false]> : vector<2xi1>", DenseElementsAttr((True, False), T.VectorType((2,), T.i1))),
        ('dense<"0x0100000002000000"> : tensor<2xi32>', DenseElementsAttr((1, 2), T.TensorType((2,), T.i32))),
        ("strided<[4, 1], offset: 2>", StridedLayoutAttr((4, 1), 2)),
        ("affine_map<(d0) -> (d0 floordiv 2)>", OpaqueAttr("affine_map<(d0) -> (d0 floordiv 2)>")),
        ("#arith.fastmath<nnan, ninf>", OpaqueAttr("#arith.fastmath<nnan, ninf>")),
        ("i32", TypeAttr(T.i32)),
    ],
)
def test_attributes(text, want):
    assert attr_of(text) == want
    round_trips(f"func.func private @f() attributes {{a = {text}}}")


@pytest.mark.parametrize(
    "value,t,text",
    [
        (1.5, T.f32, "1.5 : f32"),
        (0.1, T.f64, "0.1 : f64"),
        (1e-07, T.f64, "1.0e-07 : f64"),
        (-0.0, T.f32, "-0.0 : f32"),
        (1e20, T.f64, "1.0e+20 : f64"),
        (math.inf, T.f32, "0x7F800000 : f32"),
        (-math.inf, T.f16, "0xFC00 : f16"),
        (math.inf, T.bf16, "0x7F80 : bf16"),
        (math.inf, T.f64, "0x7FF0000000000000 : f64"),
    ],
)
def test_float_printing(value, t, text):
    assert Printer().attr(FloatAttr(value, t)) == text
    back = attr_of(text)
    assert back.type == t and (back.value == value) and math.copysign(1, back.value) == math.copysign(1, value)


def test_f32_literals_are_rounded_to_f32():
    a = attr_of("0.1 : f32")
    assert a.value == 0.10000000149011612
    assert Printer().attr(a) == "0.1 : f32"
    assert attr_of("3.4028235677973362e+38 : f32").value == 3.4028234663852886e38  # just below the midpoint: FLT_MAX
    assert attr_of("3.4028235677973366e+38 : f32").value == math.inf  # the midpoint rounds to inf, as in MLIR
    assert math.isnan(attr_of("0x7FC00000 : f32").value)


def test_string_quoting_round_trips_every_control_character():
    s = "".join(chr(c) for c in range(0x80)) + "é€"
    assert attr_of(quote(s)) == StringAttr(s)


def test_location_aliases_are_resolved_even_when_defined_at_the_end():
    text = 'func.func @f() {\n  return loc(#loc1)\n} loc(#loc)\n#loc = loc("k.c":1:1)\n#loc1 = loc("k.c":2:3)\n'
    m = parse_text(text, "l.mlir")
    f = m.ops[0]
    assert f.loc.text == 'loc("k.c":1:1)' and (f.loc.line, f.loc.col) == (1, 1)
    ret = f.regions[0].entry.ops[0]
    assert ret.loc.text == 'loc("k.c":2:3)' and (ret.loc.line, ret.loc.col) == (2, 3)
    out = print_module(m)
    assert 'func.return loc("k.c":2:3)' in out


def test_opaque_locations_kept_verbatim():
    out = round_trips('func.func @f() {\n  return loc(fused["a.c":1:2, callsite("x" at "y":3:4)])\n}')
    assert 'loc(fused["a.c":1:2, callsite("x" at "y":3:4)])' in out


def test_op_location_is_where_the_op_starts():
    m = parse_text("func.func @f(%a: i32) {\n    %x, %y = \"t.two\"(%a) : (i32) -> (i32, i32)\n  return\n}", "p.mlir")
    op = m.ops[0].regions[0].entry.ops[0]
    assert str(op.loc) == "p.mlir:2:5"


def test_memref_global_dense_without_type_and_printed_without_type():
    out = round_trips('memref.global "private" @g : memref<2x2xf32> = dense<[[1.0, 2.0], [3.0, 4.0]]>')
    assert "= dense<[[1.0, 2.0], [3.0, 4.0]]>\n" in out


def test_dense_needs_a_type_elsewhere():
    with pytest.raises(Exception) as info:
        attr_of("dense<1>")
    assert "dense attribute needs a type" in str(info.value)


def test_module_forms():
    assert print_module(parse_text("")) == ""
    assert print_module(parse_text("module {\n}")) == "module {\n}\n"
    out = round_trips("module @m attributes {x = 1 : i32} {\n  module @n {\n  }\n}")
    assert out == "module @m attributes {x = 1 : i32} {\n  module @n {\n  }\n}\n"
    # several top-level ops without a module: printed the same way
    out = round_trips("func.func private @a()\nfunc.func private @b()")
    assert out == "func.func private @a()\nfunc.func private @b()\n"


def test_byte_order_mark_and_crlf_are_accepted():
    m = parse_text("\ufefffunc.func @f() {\r\n  return\r\n}\r\n", "b.mlir")
    assert m.ops[0].regions[0].entry.ops[0].loc.line == 2
