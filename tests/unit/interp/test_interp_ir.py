"""The SCF interpreter on IR built with the IR API (independent of the parser)."""

from __future__ import annotations

from typing import Optional, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from loom.diagnostics import LoomError, VerifyError
from loom.interp import interpret
from loom.ir.attributes import (
    ArrayAttr,
    DenseArrayAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    i64_attr,
)
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.location import Location
from loom.ir.types import FunctionType, MemRefType, Type, f32, i1, i8, i32, i64, index
from loom.runtime import MemRefView, decode_inputs
from loom.semantics.scalar import mask, to_signed

DYN = -9223372036854775808


class B:
    """Appends ops to a block; a tiny builder for tests."""

    def __init__(self, block: Block) -> None:
        self.block = block
        self.line = 1

    def op(self, name: str, operands: Sequence[Value] = (), types: Sequence[Type] = (),
           attrs: Optional[dict] = None, regions: Sequence[Region] = ()) -> Operation:
        self.line += 1
        o = Operation.create(name, operands, types, attrs or {}, regions, loc=Location("t.mlir", self.line, 5))
        return self.block.append(o)

    def const(self, v: int, t: Type = index) -> Value:
        return self.op("arith.constant", [], [t], {"value": IntegerAttr(v, t)}).result

    def binop(self, name: str, a: Value, b: Value) -> Value:
        return self.op(name, [a, b], [a.type]).result

    def cmp(self, pred: int, a: Value, b: Value) -> Value:
        return self.op("arith.cmpi", [a, b], [i1], {"predicate": i64_attr(pred)}).result


def make_func(module: Module, name: str, arg_types: Sequence[Type], result_types: Sequence[Type],
              arg_names: Sequence[str]) -> tuple[Operation, B]:
    entry = Block.create(arg_types, arg_names)
    f = Operation.create("func.func", attributes={
        "sym_name": StringAttr(name), "function_type": TypeAttr(FunctionType(tuple(arg_types), tuple(result_types)))},
        regions=[Region.of(entry)])
    module.body.append(f)
    return f, B(entry)


def for_loop(b: B, lb: Value, ub: Value, step: Value, inits: Sequence[Value] = (), unsigned: bool = False):
    body = Block.create([lb.type] + [v.type for v in inits])
    attrs = {"unsignedCmp": UnitAttr()} if unsigned else {}
    op = b.op("scf.for", [lb, ub, step, *inits], [v.type for v in inits], attrs, [Region.of(body)])
    return op, B(body)


def mem1(t: Type = i32) -> MemRefType:
    return MemRefType((None,), t)


# ----------------------------------------------------------------------------- kernels


def saxpy_module() -> Module:
    """y[i] = a * x[i] + y[i] for i < n; returns sum of the new y (i32 wrap)."""
    m = Module.empty("t.mlir")
    _, b = make_func(m, "saxpy", [i32, mem1(), mem1(), index], [i32], ["a", "x", "y", "n"])
    a, x, y, n = b.block.args
    c0, c1 = b.const(0), b.const(1)
    z = b.const(0, i32)
    loop, body = for_loop(b, c0, n, c1, [z])
    i, acc = body.block.args
    xv = body.op("memref.load", [x, i], [i32]).result
    yv = body.op("memref.load", [y, i], [i32]).result
    nv = body.binop("arith.addi", body.binop("arith.muli", a, xv), yv)
    body.op("memref.store", [nv, y, i])
    body.op("scf.yield", [body.binop("arith.addi", acc, nv)])
    b.op("func.return", [loop.results[0]])
    return m


def run(m: Module, name: str, obj: dict, max_steps: int = 10**6):
    f = next(op for op in m.functions() if op.attributes["sym_name"].value == name)
    names = [a.name_hint for a in f.regions[0].entry.args]
    types = [a.type for a in f.regions[0].entry.args]
    return interpret(m, name, decode_inputs(names, types, obj, "in.json", module=m), max_steps=max_steps)


@settings(max_examples=60, deadline=None)
@given(st.integers(-(2**31), 2**31 - 1), st.lists(st.tuples(st.integers(-(2**31), 2**31 - 1),
                                                             st.integers(-(2**31), 2**31 - 1)), max_size=12))
def test_saxpy_with_iter_args_and_zero_trips(a, xy):
    m = saxpy_module()
    x, y = [p[0] for p in xy], [p[1] for p in xy]
    r = run(m, "saxpy", {"a": a, "x": x, "y": y, "n": len(x)})
    assert r.status == "completed", r.error
    want = [((a * xi + yi + 2**31) % 2**32) - 2**31 for xi, yi in zip(x, y)]
    assert [to_signed(v, 32) for v in r.memrefs["y"].to_flat()] == want
    assert to_signed(r.results[0], 32) == ((sum(want) + 2**31) % 2**32) - 2**31
    doc = r.to_json()
    assert doc["memrefs"]["y"] == want and doc["memrefs"]["x"] == x


def test_inputs_are_not_mutated_and_aliasing_args_stay_aliased():
    m = saxpy_module()
    shared = MemRefView.from_flat([1, 2, 3], i32, [3])
    r = interpret(m, "saxpy", {"a": 2, "x": shared, "y": shared, "n": 3})
    # x and y are the same buffer: y[i] = 2*y[i] + y[i] = 3*y[i], visible through x as well.
    assert r.memrefs["y"].to_flat() == [3, 6, 9] and r.memrefs["x"].to_flat() == [3, 6, 9]
    assert shared.to_flat() == [1, 2, 3]


def test_out_of_bounds_is_a_located_runtime_error():
    m = saxpy_module()
    r = run(m, "saxpy", {"a": 1, "x": [1, 2], "y": [1, 2, 3], "n": 3})
    assert r.status == "error" and r.error.code == "RT_MEMREF_OUT_OF_BOUNDS"
    assert r.error.loc.file == "t.mlir" and r.error.loc.line > 1
    assert r.memrefs["y"].to_flat() == [2, 4, 3]  # memory as it was when the fault struck
    assert r.to_json()["error"].startswith("RT_MEMREF_OUT_OF_BOUNDS")


def test_step_limit_gives_error_status():
    m = saxpy_module()
    r = run(m, "saxpy", {"a": 1, "x": [0] * 100, "y": [0] * 100, "n": 100}, max_steps=50)
    assert r.status == "error" and r.error.code == "RT_STEP_LIMIT" and "50" in r.error.message


def test_unsupported_op_raises_loom_error():
    m = Module.empty("t.mlir")
    _, b = make_func(m, "f", [], [], [])
    b.op("affine.for", [], [])
    b.op("func.return")
    with pytest.raises(LoomError) as e:
        interpret(m, "f", {})
    assert "affine.for" in str(e.value) and "t.mlir:2:5" in str(e.value)


def test_missing_terminator_is_a_verify_error():
    m = Module.empty("t.mlir")
    _, b = make_func(m, "f", [], [], [])
    b.const(1)
    with pytest.raises(VerifyError):
        interpret(m, "f", {})


def collatz_module() -> Module:
    """scf.while: number of collatz steps to reach 1 (i64)."""
    m = Module.empty("t.mlir")
    _, b = make_func(m, "collatz", [i64], [i64], ["n"])
    (n,) = b.block.args
    zero, one, two, three = (b.const(v, i64) for v in (0, 1, 2, 3))
    before = Block.create([i64, i64])
    after = Block.create([i64, i64])
    w = b.op("scf.while", [n, zero], [i64, i64], {}, [Region.of(before), Region.of(after)])
    bb = B(before)
    x, k = before.args
    bb.op("scf.condition", [bb.cmp(8, x, one), x, k])  # ugt
    ab = B(after)
    x, k = after.args
    odd = ab.binop("arith.andi", x, one)
    is_odd = ab.cmp(1, odd, zero)
    then, other = Block.create(), Block.create()
    iff = ab.op("scf.if", [is_odd], [i64], {}, [Region.of(then), Region.of(other)])
    tb = B(then)
    tb.op("scf.yield", [tb.binop("arith.addi", tb.binop("arith.muli", x, three), one)])
    eb = B(other)
    eb.op("scf.yield", [eb.binop("arith.divui", x, two)])
    ab.op("scf.yield", [iff.results[0], ab.binop("arith.addi", k, one)])
    b.op("func.return", [w.results[1]])
    return m


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 27, 97])
def test_scf_while_and_if_with_results(n):
    def ref(x):
        k = 0
        while x > 1:
            x = 3 * x + 1 if x % 2 else x // 2
            k += 1
        return k

    r = run(collatz_module(), "collatz", {"n": n})
    assert r.status == "completed" and r.results == [ref(n)]


def test_call_and_recursion():
    """fact(n) = n <= 1 ? 1 : n * fact(n - 1), via func.call."""
    m = Module.empty("t.mlir")
    _, b = make_func(m, "fact", [i64], [i64], ["n"])
    (n,) = b.block.args
    one = b.const(1, i64)
    then, other = Block.create(), Block.create()
    iff = b.op("scf.if", [b.cmp(3, n, one)], [i64], {}, [Region.of(then), Region.of(other)])
    B(then).op("scf.yield", [one])
    eb = B(other)
    sub = eb.op("func.call", [eb.binop("arith.subi", n, one)], [i64], {"callee": SymbolRefAttr("fact")})
    eb.op("scf.yield", [eb.binop("arith.muli", n, sub.results[0])])
    b.op("func.return", [iff.results[0]])
    assert run(m, "fact", {"n": 20}).results == [2432902008176640000]
    assert run(m, "fact", {"n": 21}).results == [mask(51090942171709440000, 64)]
    deep = run(m, "fact", {"n": 100000})
    assert deep.status == "error" and deep.error.code == "RT_CALL_DEPTH"


def test_unsigned_for_loop_and_small_iv_type():
    """Loop over i8 IVs from 250 to 4 (unsigned compare: zero trips) and 0..200 step 50."""
    m = Module.empty("t.mlir")
    _, b = make_func(m, "f", [i8, i8, i8], [i8], ["lb", "ub", "step"])
    lb, ub, step = b.block.args
    z = b.const(0, i8)
    loop, body = for_loop(b, lb, ub, step, [z], unsigned=True)
    iv, acc = body.block.args
    body.op("scf.yield", [body.binop("arith.addi", acc, body.const(1, i8))])
    b.op("func.return", [loop.results[0]])
    assert run(m, "f", {"lb": 0, "ub": 200, "step": 50}).results == [4]
    assert run(m, "f", {"lb": 250, "ub": 4, "step": 1}).results == [0]
    # 100, 200, then 300 is past the range: the IV never wraps around (trip count = ceildiv).
    assert run(m, "f", {"lb": 100, "ub": 250, "step": 100}).results == [2]
    bad = run(m, "f", {"lb": 0, "ub": 4, "step": 0})
    assert bad.status == "error" and bad.error.code == "RT_SCF_FOR_STEP"


def test_signed_for_loop_negative_bounds():
    m = Module.empty("t.mlir")
    _, b = make_func(m, "f", [i32, i32], [i32], ["lb", "ub"])
    lb, ub = b.block.args
    loop, body = for_loop(b, lb, ub, b.const(3, i32), [b.const(0, i32)])
    iv, acc = body.block.args
    body.op("scf.yield", [body.binop("arith.addi", acc, iv)])
    b.op("func.return", [loop.results[0]])
    r = run(m, "f", {"lb": -10, "ub": 5})
    assert to_signed(r.results[0], 32) == sum(range(-10, 5, 3))
    assert run(m, "f", {"lb": 5, "ub": -10}).results == [0]


def test_subview_store_is_visible_in_root_and_globals():
    """Write through a 2x2 subview of a 3x4 argument, and read a global given in the inputs."""
    m = Module.empty("t.mlir")
    g = Operation.create("memref.global", attributes={
        "sym_name": StringAttr("tbl"), "type": TypeAttr(MemRefType((2,), i32)), "sym_visibility": StringAttr("private")})
    m.body.append(g)
    t = MemRefType((3, 4), i32)
    _, b = make_func(m, "f", [t, index], [], ["A", "o"])
    A, o = b.block.args
    sv_t = MemRefType((2, 2), i32)
    sv = b.op("memref.subview", [A, o], [sv_t], {
        "static_offsets": DenseArrayAttr(i64, (1, DYN)), "static_sizes": DenseArrayAttr(i64, (2, 2)),
        "static_strides": DenseArrayAttr(i64, (1, 1))}).result
    tbl = b.op("memref.get_global", [], [MemRefType((2,), i32)], {"name": SymbolRefAttr("tbl")}).result
    c0, c1 = b.const(0), b.const(1)
    v = b.op("memref.load", [tbl, c1], [i32]).result
    b.op("memref.store", [v, sv, c1, c0])
    b.op("memref.store", [v, sv, c0, c1])
    flat = b.op("memref.collapse_shape", [A], [MemRefType((12,), i32)], {
        "reassociation": ArrayAttr((ArrayAttr((i64_attr(0), i64_attr(1))),))}).result
    b.op("memref.store", [b.const(-1, i32), flat, b.const(11)])
    b.op("func.return")
    obj = {"A": [[0] * 4] * 3, "o": 2, "@tbl": [5, 7]}
    r = run(m, "f", obj)
    assert r.status == "completed", r.error
    assert r.to_json()["memrefs"]["A"] == [0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 7, -1]
    with pytest.raises(LoomError) as e:
        run(m, "f", {"A": [[0] * 4] * 3, "o": 2})
    assert e.value.code == "IO_INPUT_MISSING" and "@tbl" in str(e.value)
    oob = run(m, "f", {**obj, "o": 3})
    assert oob.status == "error" and oob.error.code == "RT_MEMREF_BAD_VIEW"


def test_alloc_dim_and_float_reduction():
    """alloca a dynamic buffer sized by memref.dim, fill it, reduce with f32 adds."""
    m = Module.empty("t.mlir")
    _, b = make_func(m, "f", [mem1(f32)], [f32], ["x"])
    (x,) = b.block.args
    c0, c1 = b.const(0), b.const(1)
    n = b.op("memref.dim", [x, c0], [index]).result
    tmp = b.op("memref.alloca", [n], [mem1(f32)]).result
    loop, body = for_loop(b, c0, n, c1)
    (i,) = body.block.args
    xv = body.op("memref.load", [x, i], [f32]).result
    body.op("memref.store", [body.op("arith.mulf", [xv, xv], [f32]).result, tmp, i])
    body.op("scf.yield")
    zero = b.op("arith.constant", [], [f32], {"value": __import__("loom.ir.attributes", fromlist=["FloatAttr"])
                                               .FloatAttr(0.0, f32)}).result
    loop2, body2 = for_loop(b, c0, n, c1, [zero])
    i2, acc = body2.block.args
    tv = body2.op("memref.load", [tmp, i2], [f32]).result
    body2.op("scf.yield", [body2.op("arith.addf", [acc, tv], [f32]).result])
    b.op("func.return", [loop2.results[0]])
    import numpy as np

    xs = [0.1, 1e-3, 3.5, -2.25]
    r = run(m, "f", {"x": xs})
    acc_ref = np.float32(0)
    for v in xs:
        acc_ref = np.float32(acc_ref + np.float32(v) * np.float32(v))
    assert r.results == [float(acc_ref)]
