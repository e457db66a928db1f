"""Hypothesis: random IR (types, attributes, arith chains, scf nests, handshake graphs with cycles)
verifies, prints, parses back structurally equal, and prints to a fixed point."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.dialects import verify_module
from loom.dialects.arith import CMPF_PREDICATES, CMPI_PREDICATES
from loom.ir.attributes import (
    ArrayAttr,
    Attribute,
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
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.equality import first_difference, modules_equal
from loom.ir.types import (
    FloatType,
    FunctionType,
    IntegerType,
    MemRefType,
    OpaqueType,
    TupleType,
    TaggedType,
    TensorType,
    Type,
    VectorType,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
    index,
    none,
)
from loom.mlir import parse_text, print_module, value_names
from loom.mlir.numbers import int_range, round_float

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

# ------------------------------------------------------------------------------ types

SCALARS = [i1, i8, i16, i32, i64, IntegerType(7), IntegerType(32, "s"), IntegerType(8, "u"), index, f16, bf16, f32, f64]
OPAQUE_TYPES = ["!llvm.ptr", "!foo.bar<i32, [1, 2]>", "complex<f32>", "f80", "tensor<4xf32, #foo.enc>"]
OPAQUE_ATTRS = ["#arith.overflow<nsw>", "affine_map<(d0, d1) -> (d0 * 4 + d1)>", "#foo.bar<\"x\", [1]>", "#dlti.spec"]

scalar = st.sampled_from(SCALARS)
dim = st.one_of(st.none(), st.integers(1, 64))
tagged = st.builds(
    TaggedType,
    st.sampled_from([i1, i8, i16, i32, i64, bf16, f16, f32, f64, index]),
    st.builds(IntegerType, st.integers(1, 16)),
)
strided = st.builds(
    StridedLayoutAttr,
    st.lists(st.one_of(st.none(), st.integers(-8, 64)), min_size=1, max_size=3).map(tuple),
    st.one_of(st.none(), st.integers(0, 100)),
)


def memrefs():
    return st.builds(
        MemRefType,
        st.lists(dim, max_size=3).map(tuple),
        st.one_of(scalar, tagged),
        st.one_of(st.none(), strided, st.just(OpaqueAttr("affine_map<(d0) -> (d0)>"))),
        st.one_of(st.none(), st.builds(IntegerAttr, st.integers(0, 7))),
    )


def types() -> st.SearchStrategy[Type]:
    base = st.one_of(
        scalar,
        st.just(none),
        tagged,
        memrefs(),
        st.builds(VectorType, st.lists(st.integers(1, 8), min_size=1, max_size=3).map(tuple), scalar),
        st.builds(TensorType, st.one_of(st.none(), st.lists(dim, max_size=3).map(tuple)), scalar),
        st.sampled_from(OPAQUE_TYPES).map(OpaqueType),
        st.builds(TupleType, st.lists(scalar, max_size=3).map(tuple)),  # handshake.pack/unpack (issue 12)
    )
    fn = st.builds(FunctionType, st.lists(base, max_size=3).map(tuple), st.lists(base, max_size=2).map(tuple))
    return st.one_of(base, fn, st.builds(FunctionType, st.just(()), st.tuples(fn)))


# ------------------------------------------------------------------------- attributes

names = st.one_of(st.from_regex(r"[A-Za-z_][A-Za-z0-9_$.]{0,8}", fullmatch=True), st.text(max_size=8))


@st.composite
def integer_attrs(draw):
    t = draw(st.one_of(st.none(), st.sampled_from([i1, i8, i32, i64, IntegerType(8, "u"), IntegerType(16, "s"), index])))
    if t is None:
        return IntegerAttr(draw(st.integers(-(2**70), 2**70)), None)
    lo, hi = int_range(t)
    return IntegerAttr(draw(st.integers(lo, hi)), t)


@st.composite
def float_attrs(draw):
    t = draw(st.one_of(st.none(), st.sampled_from([f16, bf16, f32, f64])))
    if t is None:
        return FloatAttr(draw(st.floats(allow_nan=False, allow_infinity=False)), None)
    return FloatAttr(round_float(draw(st.floats()), t), t)


def _elements(t: Type):
    if t == i1:
        return st.booleans()
    if isinstance(t, FloatType):
        return st.floats(width=32 if t.width <= 32 else 64).map(lambda v: round_float(v, t))
    lo, hi = int_range(t)
    return st.integers(lo, hi)


@st.composite
def dense_elements(draw):
    elem = draw(st.sampled_from([i1, i8, i32, i64, f32, f64, index]))
    shape = tuple(draw(st.lists(st.integers(1, 3), min_size=0, max_size=3)))
    t = draw(st.sampled_from([TensorType, VectorType]))(shape or (1,), elem) if shape else TensorType((), elem)
    if draw(st.booleans()):
        return DenseElementsAttr((draw(_elements(elem)),), t, True)
    count = math.prod(t.shape)
    return DenseElementsAttr(tuple(draw(st.lists(_elements(elem), min_size=count, max_size=count))), t, False)


@st.composite
def dense_arrays(draw):
    elem = draw(st.sampled_from([i1, i8, i16, i32, i64, f32, f64]))
    return DenseArrayAttr(elem, tuple(draw(st.lists(_elements(elem), max_size=4))))


leaf_attrs = st.one_of(
    integer_attrs(),
    float_attrs(),
    st.builds(BoolAttr, st.booleans()),
    st.builds(StringAttr, st.text(max_size=12)),
    st.just(UnitAttr()),
    st.builds(TypeAttr, types()),
    dense_elements(),
    dense_arrays(),
    st.builds(SymbolRefAttr, names.filter(bool), st.lists(names.filter(bool), max_size=2).map(tuple)),
    strided,
    st.sampled_from(OPAQUE_ATTRS).map(OpaqueAttr),
)


def _dict(children):
    return st.dictionaries(names, children, max_size=3).map(lambda d: DictAttr(tuple(d.items())))


attributes = st.recursive(
    leaf_attrs,
    lambda children: st.one_of(st.lists(children, max_size=3).map(lambda xs: ArrayAttr(tuple(xs))), _dict(children)),
    max_leaves=8,
)

HINTS = st.one_of(
    st.none(),
    st.sampled_from(["x", "x", "arg0", "0", "5", "c0_i32", "a.b", "x-y", "trueResult", "bad name", "#k", "é", "x_0", "1a"]),
)


def check_round_trip(module: Module) -> None:
    verify_module(module)
    text = print_module(module)
    again = parse_text(text, "printed.mlir")
    assert modules_equal(module, again), f"{first_difference(module.op, again.op)}\n{text}"
    assert print_module(again) == text


def func_op(name: str, arg_types: list[Type], result_types: list[Type], data, arg_attrs=None) -> tuple[Operation, Block]:
    block = Block.create(arg_types, [data.draw(HINTS) for _ in arg_types])
    attrs: dict[str, Attribute] = {
        "sym_name": StringAttr(name),
        "function_type": TypeAttr(FunctionType(tuple(arg_types), tuple(result_types))),
    }
    if arg_attrs is not None:
        attrs["arg_attrs"] = arg_attrs
    return Operation.create("func.func", attributes=attrs, regions=[Region.of(block)]), block


# ------------------------------------------------------------- types and attributes


@SETTINGS
@given(st.data())
def test_random_types_and_attributes_round_trip(data):
    operand_types = data.draw(st.lists(types(), max_size=3))
    result_types = data.draw(st.lists(types(), max_size=3))
    attrs = data.draw(st.dictionaries(names, attributes, max_size=4))
    f, block = func_op("f", operand_types, [], data)
    op = Operation.create("test.op", list(block.args), result_types, attrs, result_names=[data.draw(HINTS) for _ in result_types])
    block.append(op)
    block.append(Operation.create("func.return"))
    m = Module.empty("gen")
    m.body.append(f)
    check_round_trip(m)


# ------------------------------------------------------------------ SCF functions

INT_BINARY = ["arith.addi", "arith.subi", "arith.muli", "arith.divsi", "arith.remui", "arith.andi", "arith.xori", "arith.maxsi", "arith.shrui"]
FLOAT_BINARY = ["arith.addf", "arith.mulf", "arith.divf", "arith.maximumf"]


class FuncGen:
    """Draws a verifiable func.func body: arith chains, memory accesses and scf nests."""

    def __init__(self, data) -> None:
        self.data = data

    def draw(self, s):
        return self.data.draw(s)

    def pick(self, env: dict[Type, list[Value]], t: Type) -> Value:
        return self.draw(st.sampled_from(env[t]))

    def add(self, block: Block, env: dict, op: Operation) -> Operation:
        block.append(op)
        for r in op.results:
            env.setdefault(r.type, []).append(r)
        return op

    def op(self, name, operands, result_types, attrs=None, regions=(), hints=None):
        hints = hints or [self.draw(HINTS) for _ in result_types]
        return Operation.create(name, operands, result_types, attrs or {}, list(regions), result_names=hints)

    def block(self, block: Block, env: dict, depth: int, n: int) -> None:
        for _ in range(n):
            kind = self.draw(st.sampled_from(["const", "int", "float", "cmp", "select", "cast", "mem", "math", "poison"] + (["for", "if", "while"] if depth < 3 else [])))
            getattr(self, "gen_" + kind)(block, env, depth)

    def gen_const(self, block, env, depth):
        t = self.draw(st.sampled_from([i32, i64, index, f32, i1]))
        if t == i1:
            v: Attribute = BoolAttr(self.draw(st.booleans()))
        elif t == f32:
            v = FloatAttr(round_float(self.draw(st.floats()), f32), f32)
        else:
            lo, hi = int_range(t)
            v = IntegerAttr(self.draw(st.integers(lo, hi)), t)
        self.add(block, env, self.op("arith.constant", [], [t], {"value": v}))

    def gen_int(self, block, env, depth):
        t = self.draw(st.sampled_from([i32, i64, index]))
        name = self.draw(st.sampled_from(INT_BINARY))
        attrs = {}
        if name in ("arith.addi", "arith.subi", "arith.muli") and self.draw(st.booleans()):
            attrs["overflowFlags"] = OpaqueAttr(self.draw(st.sampled_from(["#arith.overflow<nsw>", "#arith.overflow<nsw, nuw>"])))
        self.add(block, env, self.op(name, [self.pick(env, t), self.pick(env, t)], [t], attrs))

    def gen_float(self, block, env, depth):
        attrs = {"fastmath": OpaqueAttr("#arith.fastmath<fast>")} if self.draw(st.booleans()) else {}
        self.add(block, env, self.op(self.draw(st.sampled_from(FLOAT_BINARY)), [self.pick(env, f32), self.pick(env, f32)], [f32], attrs))

    def gen_cmp(self, block, env, depth):
        if self.draw(st.booleans()):
            t = self.draw(st.sampled_from([i32, i64, index]))
            p = self.draw(st.integers(0, len(CMPI_PREDICATES) - 1))
            self.add(block, env, self.op("arith.cmpi", [self.pick(env, t), self.pick(env, t)], [i1], {"predicate": IntegerAttr(p, i64)}))
        else:
            p = self.draw(st.integers(0, len(CMPF_PREDICATES) - 1))
            self.add(block, env, self.op("arith.cmpf", [self.pick(env, f32), self.pick(env, f32)], [i1], {"predicate": IntegerAttr(p, i64)}))

    def gen_select(self, block, env, depth):
        t = self.draw(st.sampled_from([i32, i64, index, f32]))
        self.add(block, env, self.op("arith.select", [self.pick(env, i1), self.pick(env, t), self.pick(env, t)], [t]))

    def gen_cast(self, block, env, depth):
        name, a, b = self.draw(st.sampled_from([
            ("arith.index_cast", i32, index), ("arith.index_cast", index, i32), ("arith.extsi", i32, i64),
            ("arith.trunci", i64, i32), ("arith.sitofp", i32, f32), ("arith.fptosi", f32, i32), ("arith.extui", i1, i32),
        ]))
        self.add(block, env, self.op(name, [self.pick(env, a)], [b]))

    def gen_mem(self, block, env, depth):
        m = self.pick(env, MEM)
        idx = self.pick(env, index)
        if self.draw(st.booleans()):
            self.add(block, env, self.op("memref.load", [m, idx], [f32]))
        else:
            self.add(block, env, self.op("memref.store", [self.pick(env, f32), m, idx], []))

    def gen_math(self, block, env, depth):
        if self.draw(st.booleans()):
            self.add(block, env, self.op("math.fma", [self.pick(env, f32) for _ in range(3)], [f32]))
        else:
            self.add(block, env, self.op(self.draw(st.sampled_from(["math.sqrt", "math.exp", "math.absf"])), [self.pick(env, f32)], [f32]))

    def gen_poison(self, block, env, depth):
        self.add(block, env, self.op("ub.poison", [], [self.draw(st.sampled_from([i32, f32]))]))

    def _inner(self, env, block: Block) -> dict:
        inner = {t: list(vs) for t, vs in env.items()}
        for a in block.args:
            inner.setdefault(a.type, []).append(a)
        return inner

    def _yield(self, env, types):
        return self.op("scf.yield", [self.pick(env, t) for t in types], [])

    def gen_for(self, block, env, depth):
        iter_types = self.draw(st.lists(st.sampled_from([i32, f32, index]), max_size=2))
        inits = [self.pick(env, t) for t in iter_types]
        body = Block.create([index, *iter_types], [self.draw(HINTS) for _ in range(1 + len(iter_types))])
        inner = self._inner(env, body)
        self.block(body, inner, depth + 1, self.draw(st.integers(0, 3)))
        body.append(self._yield(inner, iter_types))
        attrs = {"unsignedCmp": UnitAttr()} if self.draw(st.booleans()) else {}
        lb, ub, step = (self.pick(env, index) for _ in range(3))
        self.add(block, env, self.op("scf.for", [lb, ub, step, *inits], iter_types, attrs, [Region.of(body)]))

    def gen_if(self, block, env, depth):
        types_ = self.draw(st.lists(st.sampled_from([i32, f32]), max_size=2))
        regions = []
        for has in (True, bool(types_) or self.draw(st.booleans())):
            if not has:
                regions.append(Region())
                continue
            b = Block()
            inner = self._inner(env, b)
            self.block(b, inner, depth + 1, self.draw(st.integers(0, 2)))
            b.append(self._yield(inner, types_))
            regions.append(Region.of(b))
        self.add(block, env, self.op("scf.if", [self.pick(env, i1)], types_, {}, regions))

    def gen_while(self, block, env, depth):
        t = self.draw(st.sampled_from([i32, index]))
        before = Block.create([t], [self.draw(HINTS)])
        inner = self._inner(env, before)
        self.block(before, inner, depth + 1, self.draw(st.integers(0, 2)))
        cmp = self.add(before, inner, self.op("arith.cmpi", [before.args[0], self.pick(inner, t)], [i1], {"predicate": IntegerAttr(2, i64)}))
        before.append(self.op("scf.condition", [cmp.results[0], self.pick(inner, t)], []))
        after = Block.create([t], [self.draw(HINTS)])
        inner2 = self._inner(env, after)
        self.block(after, inner2, depth + 1, self.draw(st.integers(0, 2)))
        after.append(self._yield(inner2, [t]))
        attrs = {"loom.stream": DictAttr((("iv", IntegerAttr(0, i64)),))} if self.draw(st.booleans()) else {}
        self.add(block, env, self.op("scf.while", [self.pick(env, t)], [t], attrs, [Region.of(before), Region.of(after)]))


MEM = MemRefType((None,), f32, StridedLayoutAttr((1,), None))
FUNC_ARGS = [i32, i64, index, f32, i1, MEM]


@SETTINGS
@given(st.data())
def test_random_scf_functions_round_trip(data):
    gen = FuncGen(data)
    m = Module.empty("gen")
    arg_attrs = None
    if data.draw(st.booleans()):
        arg_attrs = ArrayAttr(tuple(DictAttr((("loom.noalias", UnitAttr()),)) if t == MEM else DictAttr(()) for t in FUNC_ARGS))
    results = data.draw(st.lists(st.sampled_from([i32, f32, index]), max_size=2))
    f, block = func_op("kernel", FUNC_ARGS, results, data, arg_attrs)
    env: dict[Type, list[Value]] = {}
    for a in block.args:
        env.setdefault(a.type, []).append(a)
    gen.block(block, env, 0, data.draw(st.integers(1, 8)))
    block.append(gen.op("func.return", [gen.pick(env, t) for t in results], []))
    m.body.append(f)
    check_round_trip(m)
    names = value_names(f)
    text = print_module(m)
    assert all(n.split("#")[0] in text for n in names.values())
    assert len(set(names.values())) == len(names)  # unique within the function
    assert value_names(f) == names


# --------------------------------------------------------------- handshake graphs

HS_TYPES = [i32, i1, index, none]


@SETTINGS
@given(st.data())
def test_random_handshake_graphs_with_cycles_round_trip(data):
    draw = data.draw
    hints = lambda n: [draw(HINTS) for _ in range(n)]
    block = Block.create([i32, i1, index, none, MemRefType((8,), i32)], hints(5))
    mem = block.args[4]
    ops: list[tuple[Operation, list[Type]]] = []  # op and the types its operands need

    def new(name, operand_types, result_types, attrs=None, group=False):
        names_ = [draw(HINTS)] * len(result_types) if group else hints(len(result_types))
        op = Operation.create(name, [], result_types, attrs or {}, result_names=names_)
        ops.append((op, operand_types))
        return op

    # a memory interface whose ports form a cycle with its load and store
    ld = new("handshake.load", [index, i32, none], [i32, index])
    stt = new("handshake.store", [index, i32, none], [i32, index])
    em = new("handshake.extmemory", [], [i32, none, none], {"ldCount": IntegerAttr(1, i32), "stCount": IntegerAttr(1, i32), "id": IntegerAttr(0, i32)}, group=True)
    for _ in range(draw(st.integers(1, 10))):
        kind = draw(st.sampled_from(["fork", "join", "const", "cond_br", "mux", "merge", "cmerge", "buffer", "sink", "carry", "invariant", "gate", "stream", "addi", "cmpi"]))
        t = draw(st.sampled_from(HS_TYPES))
        if kind == "fork":
            new("handshake.fork", [t], [t] * draw(st.integers(1, 3)), group=draw(st.booleans()))
        elif kind == "join":
            new("handshake.join", draw(st.lists(st.sampled_from(HS_TYPES), min_size=1, max_size=3)), [none])
        elif kind == "const":
            new("handshake.constant", [none], [i32], {"value": IntegerAttr(draw(st.integers(-5, 5)), i32)})
        elif kind == "cond_br":
            new("handshake.cond_br", [i1, t], [t, t])
        elif kind == "mux":
            n = draw(st.integers(1, 3))
            new("handshake.mux", [index] + [t] * n, [t])
        elif kind == "merge":
            new("handshake.merge", [t] * draw(st.integers(1, 3)), [t])
        elif kind == "cmerge":
            new("handshake.control_merge", [t] * draw(st.integers(1, 3)), [t, index])
        elif kind == "buffer":
            new("handshake.buffer", [t], [t], {"slots": IntegerAttr(draw(st.integers(1, 4)), i32), "bufferType": StringAttr(draw(st.sampled_from(["seq", "fifo"])))})
        elif kind == "sink":
            new("handshake.sink", [t], [])
        elif kind == "carry":
            new("dataflow.carry", [i1, t, t], [t])
        elif kind == "invariant":
            new("dataflow.invariant", [i1, t], [t])
        elif kind == "gate":
            new("dataflow.gate", [t, i1], [t, i1])
        elif kind == "stream":
            new("dataflow.stream", [index] * 3, [index, i1], {"step_op": StringAttr("+="), "cont_cond": StringAttr("<")})
        elif kind == "addi":
            new("arith.addi", [i32, i32], [i32])
        else:
            new("arith.cmpi", [i32, i32], [i1], {"predicate": IntegerAttr(draw(st.integers(0, 9)), i64)})
    order = draw(st.permutations(range(len(ops))))
    pool: dict[Type, list[Value]] = {t: [a for a in block.args if a.type == t] for t in HS_TYPES}
    for op, _ in ops:
        for r in op.results:
            pool[r.type].append(r)
    for op, need in ops:
        op.operands = [draw(st.sampled_from(pool[t])) for t in need]
    em.operands = [mem, stt.results[0], stt.results[1], ld.results[1]]
    ld.operands[1] = em.results[0]
    for i in order:
        block.append(ops[i][0])
    block.append(Operation.create("handshake.return", [draw(st.sampled_from(pool[i32])), draw(st.sampled_from(pool[none]))]))
    func = Operation.create(
        "handshake.func",
        attributes={
            "sym_name": StringAttr("g"),
            "function_type": TypeAttr(FunctionType(tuple(a.type for a in block.args), (i32, none))),
            "handshake.variadic": UnitAttr(),
            "argNames": ArrayAttr(tuple(StringAttr(s) for s in ["x", "c", "k", "ctl", "mem"])),
        },
        regions=[Region.of(block)],
    )
    m = Module.empty("gen")
    m.body.append(func)
    check_round_trip(m)
