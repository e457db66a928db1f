"""Random SCF kernels for differential tests and benchmarks.

``generate_program(rng, config)`` builds one ``func.func`` (plus the globals
it reads) with nested scf.for / scf.while / scf.if, iter_args, loads and stores
over several memrefs and views, data-dependent addresses, bounds and branch
conditions, and a broad mix of arith/math ops, together with matching inputs.
Every generated program is well defined and terminates:

* every loop runs at most about ``max_trip`` times: for-loop bounds are small
  constants, small remainders of data, or outer induction variables; while
  loops count a dedicated counter up to a small limit (trip counts include 0);
* every address is reduced ``remui`` the dimension size, so accesses are in
  bounds; every divisor is forced odd (never zero), a signed dividend is kept above
  INT_MIN (no INT_MIN / -1), a shift amount is reduced below the width and a float
  converted to an integer is clamped to the integer type's range (MLIR leaves each
  of these undefined or poison, and the reference interpreter stops there);
* only allocations at function level are read (their contents start at zero).

``scf_programs(config)`` wraps the generator as a hypothesis strategy.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

from loom.ir.attributes import StridedLayoutAttr
from loom.ir.core import Module, Value
from loom.ir.types import (
    FloatType,
    IndexType,
    IntegerType,
    MemRefType,
    Type,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
    index,
)
from loom.semantics.layout import width_of
from loom.semantics.scalar import is_scalar_op
from loom.testing.scf_builder import CMPF, CMPI, ScfBuilder


@dataclass(frozen=True)
class GenConfig:
    """Shape limits of generated programs."""

    max_ops: int = 60  # approximate number of source ops
    max_depth: int = 3  # SCF nesting depth
    max_trip: int = 4  # iterations of any one loop, roughly
    floats: bool = True
    views: bool = True  # subview / cast / reinterpret_cast / collapse / expand
    locals: bool = True  # memref.alloca / alloc and memref.global
    while_loops: bool = True
    unsigned_loops: bool = True
    max_results: int = 3
    two_result_ops: bool = True  # arith.addui_extended / mulsi_extended / mului_extended
    exclude: frozenset[str] = frozenset()  # op names never generated (e.g. ops a back end has no model for)


@dataclass
class GeneratedProgram:
    """A generated kernel: the module, the function to run and inputs keyed by argument name."""

    module: Module
    func_name: str
    inputs: dict[str, Any]
    ops: int = 0  # number of ops in the function
    seed: Optional[int] = None  # the seed it was generated from, when known

    def __repr__(self) -> str:
        return f"GeneratedProgram(@{self.func_name}, {self.ops} ops, seed={self.seed}, inputs={self.inputs})"


@dataclass
class _Mem:
    value: Value
    sizes: tuple[int, ...]  # concrete sizes (dynamic dims have their runtime size here)
    element: Type
    writable: bool = True


INT_TYPES: tuple[Type, ...] = (i8, i16, i32, i64, index)
INT_BINARY = (
    "arith.addi",
    "arith.subi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.shli",
    "arith.shrui",
    "arith.shrsi",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
)
INT_DIVISION = (
    "arith.divsi",
    "arith.divui",
    "arith.remsi",
    "arith.remui",
    "arith.ceildivsi",
    "arith.ceildivui",
    "arith.floordivsi",
)
FLOAT_BINARY = (
    "arith.addf",
    "arith.subf",
    "arith.mulf",
    "arith.divf",
    "arith.maximumf",
    "arith.minimumf",
    "arith.maxnumf",
    "arith.minnumf",
    "arith.remf",
    "math.copysign",
    "math.powf",
)
FLOAT_UNARY = (
    "arith.negf",
    "math.absf",
    "math.sqrt",
    "math.floor",
    "math.ceil",
    "math.trunc",
    "math.exp",
    "math.sin",
    "math.tanh",
    "math.roundeven",
)
INT_UNARY = ("math.absi", "math.ctpop", "math.ctlz", "math.cttz")
MULTI_RESULT = ("arith.addui_extended", "arith.mulsi_extended", "arith.mului_extended")


def _supported(names: Sequence[str], exclude: frozenset[str] = frozenset()) -> tuple[str, ...]:
    return tuple(n for n in names if is_scalar_op(n) and n not in exclude)


def _f32_int_range(w: int, signed: bool) -> tuple[float, float]:
    """The f32 values at the ends of an integer type's range (the largest below its top: f32 has 24 bits)."""
    top = w - 1 if signed else w
    hi = (1 << top) - (1 << max(0, top - 24)) if top > 24 else (1 << top) - 1
    return (float(-(1 << (w - 1))) if signed else 0.0), float(hi)


class _Pools:
    """The generator's state and its value pools: the values each open region can use, by type (a
    region's pool is pushed on entry and popped on exit), and the op budget."""

    b: ScfBuilder  # set by ``_Gen.build`` once the arguments are chosen

    def __init__(self, rng: random.Random, cfg: GenConfig, name: str) -> None:
        self.rng = rng
        self.cfg = cfg
        self.budget = cfg.max_ops
        self.inputs: dict[str, Any] = {}
        self.pools: list[dict[Type, list[Value]]] = []
        self.ivs: list[list[Value]] = []
        self.mems: list[_Mem] = []
        self.hoisted: dict[tuple[str, Type], Value] = {}
        self.name = name
        x = cfg.exclude
        self.int_binary = _supported(INT_BINARY, x)
        self.int_division = _supported(INT_DIVISION, x)
        self.float_binary = _supported(FLOAT_BINARY, x)
        self.float_unary = _supported(FLOAT_UNARY, x)
        self.int_unary = _supported(INT_UNARY, x)
        self.multi_result = _supported(MULTI_RESULT, x) if cfg.two_result_ops else ()
        self.fp_to_int = _supported(("arith.fptosi", "arith.fptoui"), x)

    def push(self) -> None:
        self.pools.append({})
        self.ivs.append([])

    def pop(self) -> None:
        self.pools.pop()
        self.ivs.pop()

    def add(self, v: Value) -> Value:
        self.pools[-1].setdefault(v.type, []).append(v)
        return v

    def visible(self, t: Type) -> list[Value]:
        out: list[Value] = []
        for p in self.pools:
            out.extend(p.get(t, ()))
        return out

    def spend(self, n: int = 1) -> None:
        self.budget -= n


class _Exprs(_Pools):
    """Values: an existing one of the wanted type or a new constant or op over existing values, conversions,
    bounded data-dependent values and in-bounds addresses."""

    def data_types(self) -> list[Type]:
        ts: list[Type] = [i32, i32, i64, index, i1, i16, i8]
        if self.cfg.floats:
            ts += [f32, f32]
        return ts

    def const(self, t: Type) -> Value:
        r = self.rng
        if isinstance(t, FloatType):
            v: Any = r.choice([0.0, 1.0, -1.5, 2.25, 0.5, 3.0, -7.75, 1e3])
        elif t == i1:
            v = r.randint(0, 1)
        else:
            v = r.choice([0, 1, 2, 3, 5, 7, -1, -3, 100, r.randint(-50, 50)])
        self.spend()
        if self.rng.random() < 0.5:  # hoisted to the function entry and shared, so used across regions
            key = (repr(v), t)
            got = self.hoisted.get(key)
            if got is None:
                got = self.hoisted[key] = self.b.const(v, t, at_entry=True)
                self.pools[0].setdefault(t, []).append(got)
            return got
        return self.add(self.b.const(v, t))

    def get(self, t: Type, fresh: float = 0.15, depth: int = 0) -> Value:
        """A value of type ``t``: mostly an existing one (recent preferred), sometimes a new expression."""
        vals = self.visible(t)
        r = self.rng
        if vals and r.random() > fresh:
            if r.random() < 0.6:
                k = 0  # geometric: the most recent value is the likeliest
                while k < len(vals) - 1 and r.random() < 0.5:
                    k += 1
                return vals[-1 - k]
            return r.choice(vals)
        if self.budget > 0 and depth < 3 and r.random() < 0.7:
            return self.expr(t, depth)
        return self.const(t)

    def expr(self, t: Type, depth: int = 0) -> Value:
        """A new op producing type ``t`` from existing values."""
        self.spend()
        d = depth + 1

        def g(ty: Type) -> Value:
            return self.get(ty, depth=d)

        if t == i1:
            return self.bool_expr(g, d)
        if isinstance(t, FloatType):
            return self.float_expr(t, g)
        return self.int_expr(t, g)

    def bool_expr(self, g: Callable[[Type], Value], d: int) -> Value:
        """An ``i1``: a comparison, a logic op or a select (``g`` gives an operand of a type)."""
        b, r = self.b, self.rng
        k = r.random()
        if k < 0.45:
            it = r.choice([i32, i64, index, i8])
            lhs = g(it)
            rhs = g(it)
            if rhs is lhs:
                rhs = self.get(it, fresh=1.0, depth=d)
            return self.add(b.cmpi(r.choice(list(CMPI)), lhs, rhs))
        if k < 0.6 and self.cfg.floats:
            return self.add(b.cmpf(r.choice(list(CMPF)), g(f32), g(f32)))
        if k < 0.85:
            return self.add(b.arith(r.choice(["arith.andi", "arith.ori", "arith.xori"]), [g(i1), g(i1)]))
        return self.add(b.select(g(i1), g(i1), g(i1)))

    def float_expr(self, t: Type, g: Callable[[Type], Value]) -> Value:
        """A float of type ``t``: arithmetic, math, an int-to-float cast, a round trip or a select."""
        b, r = self.b, self.rng
        k = r.random()
        if k < 0.5:
            return self.add(b.arith(r.choice(self.float_binary), [g(t), g(t)]))
        if k < 0.65 and self.float_unary:
            return self.add(b.arith(r.choice(self.float_unary), [g(t)]))
        if k < 0.75 and "math.fma" not in self.cfg.exclude:
            return self.add(b.arith("math.fma", [g(t), g(t), g(t)]))
        if k < 0.82:
            src = r.choice([i32, i64, i8])
            return self.add(b.cast(r.choice(["arith.sitofp", "arith.uitofp"]), g(src), t))
        if k < 0.88 and t == f32:  # through f64 and back, or reinterpret i32 bits
            if r.random() < 0.5:
                wide = b.cast("arith.extf", g(t), f64)
                wide = b.arith(r.choice(["arith.addf", "arith.mulf"]), [wide, wide])
                self.spend(2)
                return self.add(b.cast("arith.truncf", wide, t))
            return self.add(b.cast("arith.bitcast", g(i32), t))
        return self.add(b.select(g(i1), g(t), g(t)))

    def int_expr(self, t: Type, g: Callable[[Type], Value]) -> Value:
        """An integer or index of type ``t``: arithmetic (shifts and divisions kept defined), a select, a
        conversion, or a clamped float-to-int cast."""
        b, r = self.b, self.rng
        k = r.random()
        if k < 0.45:
            name = r.choice(self.int_binary)
            if name in ("arith.shli", "arith.shrui", "arith.shrsi"):  # an amount below the width
                amount = b.arith("arith.andi", [g(t), b.const(width_of(t) - 1, t)])
                self.spend()
                return self.add(b.arith(name, [g(t), amount]))
            return self.add(b.arith(name, [g(t), g(t)]))
        if k < 0.55:
            divisor = b.arith("arith.ori", [g(t), b.const(1, t)])  # odd, so never zero
            self.spend(2)
            name = r.choice(self.int_division)
            dividend = g(t)
            if name in ("arith.divsi", "arith.ceildivsi", "arith.floordivsi"):  # never INT_MIN / -1
                dividend = b.arith("arith.maxsi", [dividend, b.const(-(1 << (width_of(t) - 1)) + 1, t)])
                self.spend()
            return self.add(b.arith(name, [dividend, divisor]))
        if k < 0.6 and self.int_unary and not isinstance(t, IndexType):
            return self.add(b.arith(r.choice(self.int_unary), [g(t)]))
        if k < 0.64 and self.multi_result and not isinstance(t, IndexType):  # two-result ops: keep one result
            name = r.choice(self.multi_result)
            types = [t, i1] if name == "arith.addui_extended" else [t, t]
            res = b.op(name, [g(t), g(t)], types).results
            return self.add(res[0] if r.random() < 0.5 or types[1] != t else res[1])
        if k < 0.7:
            return self.add(b.select(g(i1), g(t), g(t)))
        if k < 0.92:
            return self.add(self.convert(g(r.choice([x for x in (i8, i16, i32, i64, index) if x != t])), t))
        if self.cfg.floats and not isinstance(t, IndexType) and self.fp_to_int:
            name = r.choice(list(self.fp_to_int))
            lo, hi = _f32_int_range(width_of(t), name == "arith.fptosi")
            # clamped into the integer range (a NaN becomes hi: minnumf/maxnumf take the number)
            x = b.arith("arith.maxnumf", [b.arith("arith.minnumf", [g(f32), b.const(hi, f32)]), b.const(lo, f32)])
            self.spend(4)
            return self.add(b.cast(name, x, t))
        return self.add(b.arith("arith.addi", [g(t), g(t)]))

    def convert(self, v: Value, t: Type) -> Value:
        """An integer/index conversion of ``v`` to ``t`` (ext, trunc or index_cast[ui])."""
        b, r = self.b, self.rng
        s = v.type
        if s == t:
            return v
        if isinstance(s, IndexType) or isinstance(t, IndexType):
            return b.cast(r.choice(["arith.index_cast", "arith.index_castui"]), v, t)
        assert isinstance(s, IntegerType) and isinstance(t, IntegerType)
        if s.width < t.width:
            return b.cast(r.choice(["arith.extsi", "arith.extui"]), v, t)
        return b.cast("arith.trunci", v, t)

    def small(self, t: Type, bound: int) -> Value:
        """A data-dependent value in [0, bound) of integer/index type ``t``."""
        b = self.b
        src = self.get(self.rng.choice([i32, i64, index, i16]))
        v = self.convert(src, t) if src.type != t else src
        self.spend(2)
        return b.arith("arith.remui", [v, b.const(bound, t)])

    def address(self, size: int) -> Value:
        """An index in [0, size), preferring induction variables."""
        b, r = self.b, self.rng
        ivs = [v for frame in self.ivs for v in frame]
        if ivs and r.random() < 0.6:
            v = r.choice(ivs)
            if r.random() < 0.4:
                v = b.arith("arith.addi", [v, self.convert(self.get(r.choice([i32, index])), v.type)])
                self.spend()
        else:
            v = self.get(r.choice([i32, i64, index, i8]))
        if not isinstance(v.type, IndexType):
            v = b.cast(r.choice(["arith.index_cast", "arith.index_castui"]), v, index)
        self.spend(2)
        return b.arith("arith.remui", [v, b.const(size, index)])


class _Stmts(_Exprs):
    """Statements: loads, stores, and nested scf.for / scf.while / scf.if regions within the budget."""

    def stmt(self, depth: int) -> None:
        r = self.rng
        k = r.random()
        nested_ok = depth < self.cfg.max_depth and self.budget > 6
        if k < 0.12 and self.mems:
            self.load()
        elif k < 0.22 and self.mems:
            self.store()
        elif k < 0.33 and nested_ok:
            self.for_loop(depth)
        elif k < 0.40 and nested_ok and self.cfg.while_loops:
            self.while_loop(depth)
        elif k < 0.50 and nested_ok:
            self.if_stmt(depth)
        else:
            self.expr(r.choice(self.data_types()))

    def block(self, depth: int, budget: int) -> None:
        stop = self.budget - budget
        n = 0
        while self.budget > stop and self.budget > 0 and n < 200:
            self.stmt(depth)
            n += 1

    def load(self) -> None:
        m = self.rng.choice(self.mems)
        idx = [self.address(s) for s in m.sizes]
        self.spend()
        self.add(self.b.load(m.value, idx))

    def store(self) -> None:
        writable = [m for m in self.mems if m.writable]
        if not writable:
            return self.load()
        m = self.rng.choice(writable)
        val = self.get(m.element)
        idx = [self.address(s) for s in m.sizes]
        self.spend()
        self.b.store(val, m.value, idx)

    def sub_budget(self) -> int:
        return max(3, int(self.budget * self.rng.uniform(0.2, 0.5)))

    def for_loop(self, depth: int) -> None:
        b, r, cfg = self.b, self.rng, self.cfg
        t = r.choice([index, index, index, i32, i64])
        unsigned = cfg.unsigned_loops and r.random() < 0.25
        outer = [v for frame in self.ivs for v in frame if v.type == t]
        k = r.random()
        if unsigned and k < 0.15:
            lb = b.const(-2, t)  # a huge unsigned lower bound: zero trips (a signed loop would run)
        elif k < 0.45:
            lb = b.const(r.randint(0, 3), t)
        elif k < 0.7 or not outer:
            lb = self.small(t, 4)
        else:
            lb = r.choice(outer)
        k = r.random()
        if k < 0.45:
            ub = b.arith("arith.addi", [lb, b.const(r.choice([0, 1, 2, 3, cfg.max_trip, cfg.max_trip]), t)])
        elif k < 0.75:
            ub = b.arith("arith.addi", [lb, self.small(t, cfg.max_trip + 1)])
        elif k < 0.9 or not outer or unsigned:
            ub = b.const(r.randint(0, cfg.max_trip), t)  # may be below lb: zero trips
        else:
            ub = b.arith("arith.addi", [r.choice(outer), b.const(r.randint(0, 2), t)])
        if unsigned and _is_const_neg(lb):
            ub = b.const(r.randint(0, cfg.max_trip), t)
        step = (
            b.const(r.choice([1, 1, 1, 2, 3]), t)
            if r.random() < 0.8
            else b.arith("arith.addi", [self.small(t, 3), b.const(1, t)])
        )
        self.spend(4)
        inits = [self.get(r.choice(self.data_types())) for _ in range(r.choice([0, 0, 1, 1, 2, 3]))]
        budget = self.sub_budget()

        def body(iv: Value, args: list[Value]) -> list[Value]:
            self.push()
            self.ivs[-1].append(iv)
            self.add(iv)
            for a in args:
                self.add(a)
            self.block(depth + 1, budget)
            ys = [self.get(a.type, fresh=0.3) for a in args]
            self.pop()
            return ys

        for v in b.for_(lb, ub, step, inits, body, unsigned=unsigned):
            self.add(v)

    def while_loop(self, depth: int) -> None:
        b, r, cfg = self.b, self.rng, self.cfg
        ct = r.choice([i32, index, i64])
        init = b.const(r.randint(0, 2), ct) if r.random() < 0.6 else self.small(ct, 3)
        limit = (
            b.const(r.randint(0, cfg.max_trip), ct) if r.random() < 0.5 else self.small(ct, cfg.max_trip + 1)
        )
        others = [self.get(r.choice(self.data_types())) for _ in range(r.choice([0, 1, 1, 2]))]
        inits = [init] + others
        cond_types = [ct] + [r.choice(self.data_types()) for _ in range(r.choice([0, 1, 2]))]
        do_while = r.random() < 0.5
        budget = self.sub_budget()
        self.spend(4)

        def before(args: list[Value]) -> tuple[Value, list[Value]]:
            self.push()
            for a in args:
                self.add(a)
            i = args[0]
            if do_while:
                self.block(depth + 1, budget // 2 + 1)
                i = b.arith("arith.addi", [i, b.const(1, ct)])
            c = b.cmpi(r.choice(["slt", "ult"]), i, limit)
            if r.random() < 0.3:
                c = b.arith("arith.andi", [c, self.get(i1)])
            elif not do_while and r.random() < 0.5:
                self.block(depth + 1, budget // 3 + 1)
            vals = [i] + [self.get(t, fresh=0.3) for t in cond_types[1:]]
            self.pop()
            return c, vals

        def after(args: list[Value]) -> list[Value]:
            self.push()
            for a in args:
                self.add(a)
            i = args[0]
            if not do_while:
                self.block(depth + 1, budget // 2 + 1)
                step = b.const(r.randint(1, 2), ct)
                i = b.arith("arith.addi", [i, step])
            elif r.random() < 0.4:
                self.block(depth + 1, budget // 4 + 1)
            ys = [i] + [self.get(v.type, fresh=0.3) for v in others]
            self.pop()
            return ys

        for v in b.while_(inits, before, cond_types, after):
            self.add(v)

    def if_stmt(self, depth: int) -> None:
        b, r = self.b, self.rng
        cond = self.get(i1, fresh=0.5)
        has_else = r.random() < 0.7
        types = [r.choice(self.data_types()) for _ in range(r.choice([0, 1, 1, 2]))] if has_else else []
        budget = self.sub_budget()
        self.spend()

        def side(share: int) -> Callable[[], list[Value]]:
            def fill() -> list[Value]:
                self.push()
                self.block(depth + 1, share)
                ys = [self.get(t, fresh=0.3) for t in types]
                self.pop()
                return ys

            return fill

        results = b.if_(cond, types, side(budget // 2 + 1), side(budget // 2 + 1) if has_else else None)
        for v in results:
            self.add(v)


class _Gen(_Stmts):
    """One random kernel: its arguments and inputs, memories (views, locals, globals), then a body."""

    def build(self) -> GeneratedProgram:
        r, cfg = self.rng, self.cfg
        arg_specs: list[tuple[str, Type, Any]] = []
        dyn_len = r.randint(6, 12)
        mem_choices: list[tuple[str, MemRefType, tuple[int, ...]]] = [
            ("A", MemRefType((16,), i32), (16,)),
            ("B", MemRefType((None,), i32, StridedLayoutAttr((1,), None)), (dyn_len,)),
            ("M", MemRefType((4, 6), i64), (4, 6)),
        ]
        if cfg.floats:
            mem_choices.append(("F", MemRefType((8,), f32), (8,)))
        chosen = [m for m in mem_choices if r.random() < 0.6] or [mem_choices[0]]
        for name, t, sizes in chosen:
            n = 1
            for s in sizes:
                n *= s
            if isinstance(t.element, FloatType):
                data: Any = [r.choice([0.0, 1.5, -2.0, 0.25, 3.0, -0.5, 10.0]) for _ in range(n)]
            else:
                data = [r.randint(-100, 100) for _ in range(n)]
            arg_specs.append((name, t, data))
        scalars: list[tuple[str, Type, Any]] = [
            ("n", i32, r.randint(-5, 20)),
            ("k", index, r.randint(0, 9)),
            ("y", i64, r.randint(-1000, 1000)),
        ]
        if cfg.floats:
            scalars.append(("x", f32, r.choice([0.5, -1.25, 2.0, 3.5])))
        scalars = [s for s in scalars if r.random() < 0.8] or scalars[:1]
        arg_specs += scalars
        r.shuffle(arg_specs)
        self.b = ScfBuilder(self.name, [t for _, t, _ in arg_specs], [], [n for n, _, _ in arg_specs])
        self.push()
        for (name, t, data), a in zip(arg_specs, self.b.args):
            self.inputs[name] = data
            if isinstance(t, MemRefType):
                sizes = next(s for n, _, s in chosen if n == name)
                self.mems.append(_Mem(a, sizes, t.element))
            else:
                self.add(a)
        if cfg.views:
            self.make_views()
        if cfg.locals:
            self.make_locals()
        self.block(0, self.budget)
        n_res = r.randint(1, cfg.max_results)
        results = [self.get(r.choice(self.data_types()), fresh=0.0) for _ in range(n_res)]
        self.b.ret(results)
        module = self.b.module()
        nops = sum(1 for _ in self.b.func.walk()) - 1
        return GeneratedProgram(module, self.name, self.inputs, nops)

    def make_views(self) -> None:
        b, r = self.b, self.rng
        by_name = {m.value.name_hint: m for m in self.mems}
        a = by_name.get("A")
        if a is not None:
            if r.random() < 0.5:
                o = r.randint(0, 8)
                t = MemRefType((8,), i32, StridedLayoutAttr((1,), o))
                self.mems.append(_Mem(b.subview(a.value, [o], [8], [1], t), (8,), i32))
            if r.random() < 0.4:
                t = MemRefType((5,), i32, StridedLayoutAttr((3,), 1))
                self.mems.append(_Mem(b.subview(a.value, [1], [5], [3], t), (5,), i32))
            if r.random() < 0.4:
                off = self.small(index, 9)
                t = MemRefType((8,), i32, StridedLayoutAttr((1,), None))
                self.mems.append(_Mem(b.subview(a.value, [off], [8], [1], t), (8,), i32))
            if r.random() < 0.3:
                t = MemRefType((None,), i32)
                self.mems.append(_Mem(b.memref_cast(a.value, t), (16,), i32))
            if r.random() < 0.3:
                t = MemRefType((4, 4), i32)
                self.mems.append(_Mem(b.expand_shape(a.value, [[0, 1]], t), (4, 4), i32))
            if r.random() < 0.3:
                t = MemRefType((3, 4), i32, StridedLayoutAttr((4, 1), 2))
                self.mems.append(_Mem(b.reinterpret_cast(a.value, 2, [3, 4], [4, 1], t), (3, 4), i32))
        m = by_name.get("M")
        if m is not None:
            if r.random() < 0.4:
                t = MemRefType((2, 3), i64, StridedLayoutAttr((6, 1), 8))
                self.mems.append(_Mem(b.subview(m.value, [1, 2], [2, 3], [1, 1], t), (2, 3), i64))
            if r.random() < 0.3:
                t = MemRefType((6,), i64, StridedLayoutAttr((1,), 12))
                self.mems.append(_Mem(b.subview(m.value, [2, 0], [1, 6], [1, 1], t), (6,), i64))
            if r.random() < 0.3:
                t = MemRefType((24,), i64)
                self.mems.append(_Mem(b.collapse_shape(m.value, [[0, 1]], t), (24,), i64))

    def make_locals(self) -> None:
        b, r = self.b, self.rng
        if r.random() < 0.35:
            t = MemRefType((8,), i32)
            self.mems.append(_Mem(b.alloca(t, "buf", r.choice(["memref.alloca", "memref.alloc"])), (8,), i32))
        if r.random() < 0.3:
            t = MemRefType((6,), i32)
            vals = [r.randint(-9, 9) for _ in range(6)]
            constant = r.random() < 0.5
            b.global_("table", t, vals, constant=constant)
            self.mems.append(_Mem(b.get_global("table", t), (6,), i32, writable=not constant))


def _is_const_neg(v: Value) -> bool:
    op = getattr(v, "op", None)
    a = op.attributes.get("value") if op is not None and op.name == "arith.constant" else None
    return a is not None and getattr(a, "value", 0) < 0


def generate_program(
    rng: random.Random, config: Optional[GenConfig] = None, name: str = "kernel", seed: Optional[int] = None
) -> GeneratedProgram:
    """One random, terminating, well-defined SCF kernel with its inputs (``seed`` is only recorded)."""
    prog = _Gen(rng, config or GenConfig(), name).build()
    prog.seed = seed
    return prog


def scf_programs(config: Optional[GenConfig] = None, seeded: bool = False):
    """A hypothesis strategy of ``GeneratedProgram`` (imports hypothesis lazily: a test dependency).

    By default every random choice is a hypothesis draw, so failures shrink to
    smaller programs; ``seeded`` draws one seed instead, which suits programs of
    hundreds of ops (too many draws for hypothesis' buffer) and reproduces from
    the seed shown in the failure.
    """
    from hypothesis import strategies as st

    cfg = config or GenConfig()
    if seeded:
        seeds = st.integers(0, 2**32 - 1)
        return seeds.map(lambda seed: generate_program(random.Random(seed), cfg, seed=seed))
    return st.randoms(use_true_random=False).map(lambda rng: generate_program(rng, cfg))


__all__ = ["GenConfig", "GeneratedProgram", "generate_program", "scf_programs"]
