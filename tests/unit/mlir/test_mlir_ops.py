"""Custom syntax of each op family parses to the IR shape of specs/ir-conventions.md."""

from __future__ import annotations

from loom.ir.attributes import (
    ArrayAttr,
    BoolAttr,
    DenseArrayAttr,
    DenseElementsAttr,
    DictAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)
from loom.ir.core import BlockArgument, Operation
from loom.ir.equality import modules_equal
from loom.ir.types import (
    FunctionType,
    IndexType,
    IntegerType,
    MemRefType,
    NoneType,
    TaggedType,
    f32,
    i1,
    i32,
    i64,
    index,
    none,
)
from loom.mlir import parse_text, print_module, print_op

DYN = -9223372036854775808


def ops_of(text: str, func: str = "f") -> list[Operation]:
    """Parse, check the round trip, and return the ops of function @func in walk order."""
    m = parse_text(text, "t.mlir")
    printed = print_module(m)
    again = parse_text(printed, "printed.mlir")
    assert modules_equal(m, again), printed
    assert print_module(again) == printed
    f = next(op for op in m.functions() if op.attributes["sym_name"] == StringAttr(func))
    return [op for op in f.walk() if op is not f]


def named(ops: list[Operation], name: str) -> list[Operation]:
    return [op for op in ops if op.name == name]


def arg(ops: list[Operation], k: int) -> BlockArgument:
    func = ops[0].ancestors().__next__()
    while func.name not in ("func.func", "handshake.func"):
        func = func.parent_op
    return func.regions[0].entry.args[k]


# ----------------------------------------------------------------------------- func


def test_func_signature_attributes_and_body():
    text = """
    func.func private @decl(i32, f32 {loom.a}) -> (i32 {loom.r})
    func.func @f(%a: i32 {loom.noalias}, %b: f32) -> (i32, f32) attributes {foo = "x"} {
      %0 = func.call @decl(%a, %b) : (i32, f32) -> i32
      return %0, %b : i32, f32
    }
    """
    m = parse_text(text)
    decl, f = m.ops
    assert decl.attributes["sym_visibility"] == StringAttr("private")
    assert decl.attributes["function_type"] == TypeAttr(FunctionType((i32, f32), (i32,)))
    assert decl.attributes["arg_attrs"] == ArrayAttr((DictAttr(()), DictAttr((("loom.a", UnitAttr()),))))
    assert decl.attributes["res_attrs"] == ArrayAttr((DictAttr((("loom.r", UnitAttr()),)),))
    assert decl.regions[0].blocks == []
    assert f.attributes["foo"] == StringAttr("x")
    entry = f.regions[0].entry
    assert [a.type for a in entry.args] == [i32, f32]
    assert [a.name_hint for a in entry.args] == ["a", "b"]
    call, ret = entry.ops
    assert call.name == "func.call" and call.attributes["callee"] == SymbolRefAttr("decl")
    assert call.operands == entry.args
    assert ret.name == "func.return" and ret.operands == [call.results[0], entry.args[1]]
    ops_of(text)


def test_handshake_func_variadic_marker_and_bare_names():
    text = """
    handshake.func @h(%a: i32, %ctl: none, ...) -> (i32, none) attributes {argNames = ["a", "ctl"]} {
      return %a, %ctl : i32, none
    }
    """
    (h,) = parse_text(text).ops
    assert h.attributes["handshake.variadic"] == UnitAttr()
    assert h.attributes["argNames"] == ArrayAttr((StringAttr("a"), StringAttr("ctl")))
    assert h.regions[0].entry.ops[0].name == "handshake.return"
    assert "..." in print_module(parse_text(text))


# ---------------------------------------------------------------------------- arith


def test_arith_constants():
    ops = ops_of(
        """
        func.func @f() {
          %c = arith.constant 7 : i32
          %t = arith.constant true
          %x = arith.constant -2.5 : f32
          %h = arith.constant 0x7F800000 : f32
          %i = arith.constant 3 : index
          %d = arith.constant dense<[1, 2]> : vector<2xi32>
          return
        }
        """
    )
    c, t, x, h, i, d = named(ops, "arith.constant")
    assert c.attributes["value"] == IntegerAttr(7, i32) and c.results[0].type == i32
    assert t.attributes["value"] == BoolAttr(True) and t.results[0].type == i1
    assert x.attributes["value"] == FloatAttr(-2.5, f32)
    assert h.attributes["value"].value == float("inf")
    assert i.results[0].type == index
    assert isinstance(d.attributes["value"], DenseElementsAttr) and d.attributes["value"].values == (1, 2)


def test_arith_binary_flags_cmp_select():
    ops = ops_of(
        """
        func.func @f(%a: i32, %b: i32, %x: f32) {
          %0 = arith.subi %a, %b overflow<nsw, nuw> : i32
          %1 = arith.mulf %x, %x fastmath<fast> : f32
          %2 = arith.cmpi uge, %b, %a : i32
          %3 = arith.cmpf une, %x, %x : f32
          %4 = arith.select %2, %b, %a : i32
          return
        }
        """
    )
    sub, mul, cmpi, cmpf, sel = ops[:5]
    a, b, x = arg(ops, 0), arg(ops, 1), arg(ops, 2)
    assert mul.operands == [x, x]
    assert sub.operands == [a, b] and sub.attributes["overflowFlags"] == OpaqueAttr("#arith.overflow<nsw, nuw>")
    assert mul.attributes["fastmath"] == OpaqueAttr("#arith.fastmath<fast>")
    assert cmpi.operands == [b, a] and cmpi.attributes["predicate"] == IntegerAttr(9, i64) and cmpi.results[0].type == i1
    assert cmpf.attributes["predicate"] == IntegerAttr(13, i64)
    assert sel.operands == [cmpi.results[0], b, a] and sel.results[0].type == i32


def test_every_cmp_predicate_by_name():
    from loom.dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES

    lines = [f"%i{k} = arith.cmpi {p}, %a, %a : i32" for k, p in enumerate(CMPI_PREDICATES)]
    lines += [f"%f{k} = arith.cmpf {p}, %x, %x : f32" for k, p in enumerate(CMPF_PREDICATES)]
    body = "\n".join(lines)
    ops = ops_of(f"func.func @f(%a: i32, %x: f32) {{\n{body}\nreturn\n}}")
    got = [op.attributes["predicate"].value for op in ops[:-1]]
    assert got == list(range(10)) + list(range(16))


def test_casts():
    ops = ops_of(
        """
        func.func @f(%a: i32, %x: f32, %i: index) {
          %0 = arith.index_cast %a : i32 to index
          %1 = arith.index_castui %i : index to i64
          %2 = arith.extui %a : i32 to i64
          %3 = arith.trunci %a : i32 to i8
          %4 = arith.extf %x : f32 to f64
          %5 = arith.truncf %x : f32 to f16
          %6 = arith.uitofp %a : i32 to f32
          %7 = arith.fptosi %x : f32 to i16
          %8 = arith.bitcast %x : f32 to i32
          return
        }
        """
    )
    want = [index, i64, i64, IntegerType(8), "f64", "f16", f32, IntegerType(16), i32]
    for op, w in zip(ops, want):
        assert len(op.operands) == 1
        t = op.results[0].type
        assert (t.name == w) if isinstance(w, str) else (t == w), op.name


def test_math_and_poison():
    ops = ops_of(
        """
        func.func @f(%x: f32, %n: i32) {
          %0 = math.fma %x, %x, %x fastmath<contract> : f32
          %1 = math.exp %x : f32
          %2 = math.absi %n : i32
          %3 = math.cbrt %x : f32
          %4 = math.log1p %x : f32
          %5 = ub.poison : i64
          return
        }
        """
    )
    assert len(ops[0].operands) == 3 and ops[0].attributes["fastmath"] == OpaqueAttr("#arith.fastmath<contract>")
    assert [op.name for op in ops[:5]] == ["math.fma", "math.exp", "math.absi", "math.cbrt", "math.log1p"]
    assert ops[5].name == "ub.poison" and ops[5].operands == [] and ops[5].results[0].type == i64


# ------------------------------------------------------------------------------ scf


def test_scf_for_with_iter_args_unsigned_and_iv_type():
    ops = ops_of(
        """
        func.func @f(%lb: index, %ub: index, %s: index, %x: i32, %n: i32) -> i32 {
          %r = scf.for %i = %lb to %ub step %s iter_args(%acc = %x) -> (i32) {
            %y = arith.addi %acc, %x : i32
            scf.yield %y : i32
          }
          scf.for unsigned %j = %n to %n step %n : i32 {
          }
          return %r : i32
        }
        """
    )
    loop, _, _, loop2, _, _ = ops
    assert loop.operands == [arg(ops, 0), arg(ops, 1), arg(ops, 2), arg(ops, 3)]
    body = loop.regions[0].entry
    assert [a.type for a in body.args] == [index, i32] and [a.name_hint for a in body.args] == ["i", "acc"]
    assert loop.results[0].type == i32
    assert "unsignedCmp" not in loop.attributes
    assert loop2.attributes["unsignedCmp"] == UnitAttr()
    assert loop2.regions[0].entry.args[0].type == i32
    # the elided terminator is present in the IR
    assert [o.name for o in loop2.regions[0].entry.ops] == ["scf.yield"]


def test_scf_while_and_condition():
    ops = ops_of(
        """
        func.func @f(%x: i32) -> i32 {
          %r:2 = scf.while (%a = %x, %b = %x) : (i32, i32) -> (i32, i32) {
            %c = arith.cmpi slt, %a, %b : i32
            scf.condition(%c) %a, %b : i32, i32
          } do {
          ^bb0(%p: i32, %q: i32):
            scf.yield %q, %p : i32, i32
          } attributes {loom.stream = {iv = 0 : i64}}
          return %r#1 : i32
        }
        """
    )
    w = ops[0]
    assert w.name == "scf.while" and w.operands == [arg(ops, 0), arg(ops, 0)]
    before, after = w.regions
    assert [a.name_hint for a in before.entry.args] == ["a", "b"]
    cond = before.entry.ops[-1]
    assert cond.name == "scf.condition" and cond.operands == [before.entry.ops[0].results[0], *before.entry.args]
    assert [a.type for a in after.entry.args] == [i32, i32]
    assert w.attributes["loom.stream"] == DictAttr((("iv", IntegerAttr(0, i64)),))
    ret = ops[-1]
    assert ret.operands == [w.results[1]]


def test_scf_if_with_and_without_else():
    ops = ops_of(
        """
        func.func @f(%c: i1, %x: i32) -> i32 {
          %r = scf.if %c -> (i32) {
            scf.yield %x : i32
          } else {
            %y = arith.addi %x, %x : i32
            scf.yield %y : i32
          }
          scf.if %c {
            %z = arith.addi %x, %x : i32
          }
          return %r : i32
        }
        """
    )
    if1 = ops[0]
    assert if1.operands == [arg(ops, 0)] and if1.results[0].type == i32
    assert len(if1.regions) == 2 and len(if1.regions[1].blocks) == 1
    if2 = next(op for op in ops[1:] if op.name == "scf.if")
    assert if2.regions[1].blocks == []
    assert [o.name for o in if2.regions[0].entry.ops] == ["arith.addi", "scf.yield"]


# --------------------------------------------------------------------------- memref


def test_memref_ops():
    ops = ops_of(
        """
        memref.global "private" constant @tbl : memref<4xi32> = dense<[1, 2, 3, 4]>
        func.func @f(%m: memref<?x4xf32>, %i: index, %v: f32) {
          %0 = memref.load %m[%i, %i] : memref<?x4xf32>
          memref.store %v, %m[%i, %i] : memref<?x4xf32>
          %a = memref.alloc(%i) {alignment = 64 : i64} : memref<?xf32>
          %b = memref.alloca() : memref<2xi32>
          %d = memref.dim %m, %i : memref<?x4xf32>
          %c = memref.cast %m : memref<?x4xf32> to memref<?x?xf32>
          %s = memref.subview %m[%i, 0] [2, 4] [1, 1] : memref<?x4xf32> to memref<2x4xf32, strided<[4, 1], offset: ?>>
          %r = memref.reinterpret_cast %a to offset: [0], sizes: [%i, 1], strides: [1, 1] : memref<?xf32> to memref<?x1xf32>
          %k = memref.collapse_shape %m [[0, 1]] : memref<?x4xf32> into memref<?xf32>
          %e = memref.expand_shape %k [[0, 1]] output_shape [%i, 4] : memref<?xf32> into memref<?x4xf32>
          %g = memref.get_global @tbl : memref<4xi32>
          return
        }
        """
    )
    m, i, v = arg(ops, 0), arg(ops, 1), arg(ops, 2)
    load, store, alloc, alloca, dim, cast, sub, rc, col, exp, gg = ops[:11]
    assert load.operands == [m, i, i] and load.results[0].type == f32
    assert store.operands == [v, m, i, i] and store.results == []
    assert alloc.operands == [i] and alloc.attributes["alignment"] == IntegerAttr(64, i64)
    assert alloca.operands == [] and isinstance(alloca.results[0].type, MemRefType)
    assert dim.operands == [m, i] and dim.results[0].type == index
    assert cast.operands == [m]
    assert sub.operands == [m, i]
    assert sub.attributes["static_offsets"] == DenseArrayAttr(i64, (DYN, 0))
    assert sub.attributes["static_sizes"] == DenseArrayAttr(i64, (2, 4))
    assert sub.attributes["static_strides"] == DenseArrayAttr(i64, (1, 1))
    assert rc.operands == [alloc.results[0], i] and rc.attributes["static_sizes"] == DenseArrayAttr(i64, (DYN, 1))
    assert col.attributes["reassociation"] == ArrayAttr((ArrayAttr((IntegerAttr(0), IntegerAttr(1))),))
    assert exp.operands == [col.results[0], i] and exp.attributes["static_output_shape"] == DenseArrayAttr(i64, (DYN, 4))
    assert gg.attributes["name"] == SymbolRefAttr("tbl")
    glob = parse_text(print_module(parse_text(
        'memref.global "private" constant @tbl : memref<4xi32> = dense<[1, 2, 3, 4]>\n'
        "memref.global @u : memref<2xf32> = uninitialized"
    ))).ops
    assert glob[0].attributes["constant"] == UnitAttr()
    assert glob[0].attributes["initial_value"].values == (1, 2, 3, 4)
    assert glob[0].attributes["type"] == TypeAttr(MemRefType((4,), i32))
    assert glob[1].attributes["initial_value"] == UnitAttr()


# ------------------------------------------------------------------------ handshake


HS = """
handshake.func @f(%a: i32, %ctl: none, %mem: memref<?xi32>, ...) -> (i32, none) {
  %0:2 = fork [2] %a : i32
  %1 = join %ctl, %0#0 : none, i32
  %k = constant %ctl {value = 0 : index} : index
  %c = constant %ctl {value = true} : i1
  %t, %f = cond_br %c, %0#1 : i32
  %m = mux %k [%t, %f] : index, i32
  %g = merge %m, %a : i32
  %o, %ix = control_merge %ctl, %1 : none, index
  %b = buffer [2] fifo %g : i32
  %ld, %la = load [%k] %em#0, %ctl : index, i32
  %sd, %sa = store [%k] %b, %ctl : index, i32
  %em:3 = extmemory[ld = 1, st = 1] (%mem : memref<?xi32>) (%sd, %sa, %la) {id = 0 : i32} : (i32, index, index) -> (i32, none, none)
  %im:2 = memory[ld = 1, st = 0] (%k) {id = 1 : i32, lsq = false} : memref<4xi32>, (index) -> (i32, none)
  sink %ix : index
  sink %o : none
  sink %em#1 : none
  sink %im#0 : i32
  sink %im#1 : none
  return %ld, %em#2 : i32, none
}
"""


def test_handshake_ops():
    ops = ops_of(HS)
    a, ctl, mem = arg(ops, 0), arg(ops, 1), arg(ops, 2)
    fork, join, k, c, cbr, mux, merge, cm, buf, ld, st, em, im = ops[:13]
    assert fork.operands == [a] and [r.type for r in fork.results] == [i32, i32]
    assert join.operands == [ctl, fork.results[0]] and join.results[0].type == NoneType()
    assert k.operands == [ctl] and k.attributes["value"] == IntegerAttr(0, index)
    assert cbr.operands == [c.results[0], fork.results[1]] and len(cbr.results) == 2
    assert mux.operands == [k.results[0], *cbr.results]
    assert cm.operands == [ctl, join.results[0]] and [r.type for r in cm.results] == [none, index]
    assert buf.attributes["slots"] == IntegerAttr(2, i32) and buf.attributes["bufferType"] == StringAttr("fifo")
    # load: [*addresses, data_from_mem, ctrl] -> [data_out, *addresses_to_mem]
    assert ld.operands == [k.results[0], em.results[0], ctl] and [r.type for r in ld.results] == [i32, index]
    assert st.operands == [k.results[0], buf.results[0], ctl] and [r.type for r in st.results] == [i32, index]
    assert em.operands == [mem, st.results[0], st.results[1], ld.results[1]]
    assert em.attributes["ldCount"] == IntegerAttr(1, i32) and em.attributes["stCount"] == IntegerAttr(1, i32)
    assert [r.type for r in em.results] == [i32, none, none]
    assert im.attributes["memRefType"] == TypeAttr(MemRefType((4,), i32)) and im.attributes["lsq"] == BoolAttr(False)
    assert im.operands == [k.results[0]]
    assert merge.operands == [mux.results[0], a]


def test_handshake_printed_names_are_qualified():
    text = print_module(parse_text(HS))
    assert "handshake.fork [2] %a : i32" in text
    assert "handshake.extmemory[ld = 1, st = 1] (%mem : memref<?xi32>)" in text


# ------------------------------------------------------------------------- dataflow


def test_dataflow_ops_spec_and_legacy_syntax():
    ops = ops_of(
        """
        handshake.func @f(%s: index, %t: !dataflow.tagged<index, i2>, %init: i32, %ctl: none, ...) -> (i32) {
          %0, %1 = dataflow.stream %s, %s, %s {step_op = "+=", cont_cond = "<"} : (index, index, index) -> (index, i1)
          %2, %3 = dataflow.stream %s, %s, %s {step_op = "-="}
          %4, %5 = dataflow.stream %t, %t, %t : (!dataflow.tagged<index, i2>, !dataflow.tagged<index, i2>, !dataflow.tagged<index, i2>) -> (index, i1)
          %6, %7 = dataflow.gate %0, %1 : index, i1 -> index, i1
          %8 = dataflow.carry %7, %init, %init : i1, i32, i32 -> i32
          %9 = dataflow.invariant %7, %init : i1, i32 -> i32
          sink %2 : index
          sink %3 : i1
          sink %4 : index
          sink %5 : i1
          sink %6 : index
          sink %9 : i32
          return %8 : i32
        }
        """
    )
    s0, s1, s2, gate, carry, inv = ops[:6]
    s = arg(ops, 0)
    assert s0.operands == [s, s, s] and [r.type for r in s0.results] == [index, i1]
    assert s0.attributes["step_op"] == StringAttr("+=") and s0.attributes["cont_cond"] == StringAttr("<")
    assert [r.type for r in s1.results] == [index, i1] and "cont_cond" not in s1.attributes
    assert isinstance(s2.operands[0].type, TaggedType)
    assert gate.operands == [s0.results[0], s0.results[1]]
    assert carry.operands == [gate.results[1], arg(ops, 2), arg(ops, 2)]
    assert inv.operands == [gate.results[1], arg(ops, 2)]
    assert isinstance(s0.operands[0].type, IndexType)


# ----------------------------------------------------------------------- generic


def test_generic_form_with_properties_successors_and_unknown_ops():
    text = """
    func.func @f(%a: i32) -> i32 {
      "cf.br"(%a)[^bb1] : (i32) -> ()
    ^bb1(%x: i32):
      %0:2 = "foo.bar"(%x) <{p = 1 : i32}> ({
      ^bb0(%y: i32):
        "foo.yield"(%y) : (i32) -> ()
      }) {q = "s"} : (i32) -> (i32, !foo.t<x>) loc("k.c":3:4)
      "func.return"(%0#0) : (i32) -> ()
    }
    """
    ops = ops_of(text)
    br, bar, inner, ret = ops
    assert br.successors == [bar.parent]
    assert bar.attributes == {"p": IntegerAttr(1, i32), "q": StringAttr("s")}
    assert bar.loc.text == 'loc("k.c":3:4)' and (bar.loc.line, bar.loc.col) == (5, 7)
    assert inner.operands == [bar.regions[0].entry.args[0]]
    assert ret.name == "func.return" and ret.operands == [bar.results[0]]
    # a known op written generically prints in its custom form
    assert "func.return %0#0 : i32" in print_module(parse_text(text))


def test_aliases_are_resolved_and_nested_modules_kept():
    text = """
    #map = affine_map<(d0) -> (d0)>
    !elem = f32
    module @outer attributes {a = 1 : i64} {
      module @inner {
        func.func @f(%m: memref<4x!elem, #map>) { return }
      }
    }
    """
    m = parse_text(text)
    assert m.explicit and m.op.attributes["sym_name"] == StringAttr("outer")
    inner = m.ops[0]
    assert inner.name == "builtin.module" and inner.attributes["sym_name"] == StringAttr("inner")
    f = m.functions()[0]
    t = f.regions[0].entry.args[0].type
    assert t == MemRefType((4,), f32, OpaqueAttr("affine_map<(d0) -> (d0)>"))
    assert m.attribute_aliases["map"] == OpaqueAttr("affine_map<(d0) -> (d0)>") and m.type_aliases["elem"] == f32
    again = parse_text(print_module(m))
    assert modules_equal(m, again)


def test_print_op_uses_function_names():
    m = parse_text(HS)
    f = m.functions()[0]
    fork = f.regions[0].entry.ops[0]
    assert print_op(fork) == "%0:2 = handshake.fork [2] %a : i32"
    assert print_op(f).startswith("handshake.func @f(%a: i32, %ctl: none, %mem: memref<?xi32>, ...)")


def test_empty_operand_list_does_not_swallow_the_next_op():
    text = """
    handshake.func @h(%ctl: none, ...) -> (none) {
      %j = "handshake.join"() : () -> none
      %k = join %j : none
      return %k : none
    }
    """
    m = parse_text(text, verify=False)
    printed = print_module(m)
    assert "%j = handshake.join\n" in printed
    assert modules_equal(m, parse_text(printed, verify=False))


def test_values_outside_the_scope_print_under_undefined_names():
    m = parse_text("func.func @f(%a: i32) {\n  %0 = arith.addi %a, %a : i32\n  return\n}")
    add = m.ops[0].regions[0].entry.ops[0]
    add.parent.remove(add)
    assert print_op(add).startswith("%0 = arith.addi %undef_")
