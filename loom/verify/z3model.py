"""Operator tables (``loom.semantics``) as Z3 terms and transition relations.

This module is the verifier's only reading of operator behaviour: it walks the
``Machine`` a ``machine_for(op)`` returns (states, registers, rules with guard /
emit / update expressions) and builds Z3 terms for it. Nothing here restates what
an operator does; lemmas, memory-order operand analysis and V2's bounded model
checker all go through ``MachineModel``.

Value encoding: every runtime value is a bit-vector of its type's width (index =
64, i1 = 1 with 0/1, none = a 1-bit constant 0, floats = their IEEE bit pattern,
tagged = value and tag packed). ``scalar:<op>`` calls are encoded per
``DataMode``: ``exact`` (integer arith ops bit-precisely, everything else — floats,
math — as an uninterpreted function of the operands), ``uf`` (every scalar op an
uninterpreted function: deterministic but otherwise unknown) or ``free`` (every
evaluation a fresh unconstrained value). ``mem.read`` (and any other ``mem.*`` query) is always a
fresh value (memory contents are abstracted). All three are sound over-approximations of the
tables' behaviour for proofs of control properties.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Optional, Sequence

import z3

from loom.ir.types import IndexType, IntegerType, TupleType, Type, i1, index
from loom.semantics.expr import Apply, Const, Expr, In, Reg, ScalarInfo
from loom.semantics.functions import TUPLE_GET, TUPLE_MAKE, TupleIndex
from loom.semantics.layout import bus_width, to_bus, tuple_fields
from loom.semantics.machine import Complete, Fail, Machine, Rule, Write
from loom.semantics.ops import INT_OPS
from loom.semantics.undefined import UbSig
from loom.verify.solve import conjunction, constant, disjunction, equal, ite, negation

DATA_MODES = ("exact", "uf", "free")
STEP_UF_NAMES = {"+=": "add", "-=": "sub", "*=": "mul", "/=": "div", "<<=": "shl", ">>=": "shr"}
INDEX_BITS = 64

Fresh = Callable[[str, z3.SortRef], z3.ExprRef]
"""Makes a new unconstrained constant of a sort; ``name`` is a readable hint."""


_SYMBOL_BAD = re.compile(r"[^A-Za-z0-9._~!@$%^&*+=<>?/-]")


def smt_symbol(text: str) -> str:
    """``text`` as an SMT-LIB simple symbol (Z3's printer does not quote names; other solvers must parse them)."""
    s = _SYMBOL_BAD.sub("_", text)
    return s if s and not s[0].isdigit() else "_" + s


class UnsupportedExpr(Exception):
    """An expression the translator cannot encode; callers turn it into an ``unknown`` verdict."""


def width_of(t: Type) -> int:
    """Bit width of the Z3 encoding of a runtime value of type ``t``: ``loom.semantics.layout.bus_width`` (at least
    1; none and ``tuple<>`` one bit, a tuple its elements side by side, element 0 in the low bits)."""
    try:
        return bus_width(t)
    except ValueError:
        raise UnsupportedExpr(f"type {t} has no bit-vector encoding") from None


def sort_of(t: Type) -> z3.BitVecSortRef:
    """The Z3 sort of a runtime value of type ``t``."""
    return z3.BitVecSort(width_of(t))


def const_term(value: object, t: Type) -> z3.BitVecRef:
    """A runtime value (int bit pattern, float, bool or ``TOKEN``) as a Z3 literal of type ``t`` (its bus pattern,
    ``loom.semantics.layout.to_bus``)."""
    w = width_of(t)
    try:
        return z3.BitVecVal(to_bus(int(value) if isinstance(value, bool) else value, t), w)
    except (TypeError, ValueError, AttributeError):
        raise UnsupportedExpr(f"constant {value!r} of type {t}") from None


def as_bool(x: z3.ExprRef) -> z3.BoolRef:
    """An i1 term (or a Bool) as a Z3 Bool: true iff the bit is 1."""
    if isinstance(x, z3.BitVecRef):
        return equal(x, z3.BitVecVal(1, bv_width(x)))
    if z3.is_bool(x):
        return x
    return x == z3.BitVecVal(1, x.size())


def as_bit(x: z3.ExprRef) -> z3.BitVecRef:
    """A Bool as the i1 bit-vector 0/1 (bit-vectors pass through)."""
    if z3.is_bool(x):
        return z3.If(x, z3.BitVecVal(1, 1), z3.BitVecVal(0, 1))
    return x


def bv_width(x: z3.BitVecRef) -> int:
    """``x.size()``, asked of the C API without a sort wrapper (tables ask it of every emitted value)."""
    ctx = x.ctx_ref()
    return z3.Z3_get_bv_sort_size(ctx, z3.Z3_get_sort(ctx, x.as_ast()))


def _fit(x: z3.BitVecRef, w: int) -> z3.BitVecRef:
    size = bv_width(x)
    if size == w:
        return x
    if size < w:
        return z3.ZeroExt(w - size, x)
    return z3.Extract(w - 1, 0, x)


# ----------------------------------------------------------------------------- expressions


@dataclass
class ExprEncoder:
    """Translates table expressions to Z3 for one machine (port/register types known).

    ``data_mode`` picks the encoding of ``scalar:<op>`` calls (see the module doc);
    ``fresh`` supplies unconstrained constants (needed for ``free`` mode and for
    ``mem.read``). Uninterpreted functions are cached per (op, signature) so two
    applications of the same op to equal operands give equal results.
    """

    port_types: Mapping[str, Type]
    reg_types: Mapping[str, Type]
    data_mode: str = "exact"
    fresh: Optional[Fresh] = None
    mem_elem: Optional[Type] = None
    abstract_steps: bool = False
    _ufs: dict = field(default_factory=dict)
    _vals: dict = field(default_factory=dict)  # (value, width) -> bit-vector literal, built once

    def __post_init__(self) -> None:
        if self.data_mode not in DATA_MODES:
            raise ValueError(f"data_mode must be one of {DATA_MODES}")

    # -- type inference (needed to give literals a width) --
    def type_of(self, e: Expr) -> Optional[Type]:
        if isinstance(e, In):
            return self.port_types[e.port]
        if isinstance(e, Reg):
            return self.reg_types[e.name]
        if isinstance(e, Const):
            return None
        assert isinstance(e, Apply)
        fn = e.fn
        if fn in ("not", "and", "or", "eq", "ne") or fn.startswith(("cmp.", "ucmp.")):
            return i1
        if fn.startswith("step."):
            return index
        if fn.startswith("scalar:"):
            info = e.param
            return info.result_types[info.result_index] if isinstance(info, ScalarInfo) else None
        if fn == "mem.read":
            return self.mem_elem
        if fn == TUPLE_GET and isinstance(e.param, TupleIndex) and isinstance(e.param.tuple_type, TupleType):
            return e.param.tuple_type.types[e.param.index]
        if fn == TUPLE_MAKE:
            types = [self.type_of(a) for a in e.args]
            return TupleType(tuple(types)) if all(t is not None for t in types) else None  # type: ignore[arg-type]
        return None

    def encode(
        self,
        e: Expr,
        heads: Mapping[str, z3.ExprRef],
        regs: Mapping[str, z3.ExprRef],
        want: Optional[Type] = None,
    ) -> z3.ExprRef:
        """The Z3 term of ``e`` given head values of read ports and current registers."""
        if isinstance(e, In):
            return heads[e.port]
        if isinstance(e, Reg):
            return regs[e.name]
        if isinstance(e, Const):
            return const_term(e.value, want if want is not None else i1)
        if not isinstance(e, Apply):
            raise UnsupportedExpr(f"not an expression: {e!r}")
        fn = e.fn
        if fn in ("eq", "ne", "not", "and", "or") or fn.startswith(("cmp.", "ucmp.")):
            return self._bit(self._bool(e, heads, regs))
        if fn.startswith("step."):
            a, b = self._pair(e, heads, regs)
            return self._binary(fn, a, b)
        if fn == "mem.read":
            return self._fresh_value("mem", self.mem_elem)
        if fn.startswith("mem."):  # other memory queries (e.g. mem.dim): an unconstrained value
            return self._fresh_value(fn.replace(".", "_"), want if want is not None else self.type_of(e))
        if fn.startswith("scalar:"):
            return self._scalar(e, heads, regs)
        if fn == TUPLE_MAKE and not e.args:  # () is one zero bit, like a none token
            return z3.BitVecVal(0, 1)
        if fn == TUPLE_MAKE:  # element 0 in the low bits (``tuple_fields``)
            parts = [self.encode(a, heads, regs, self.type_of(a)) for a in e.args]
            return parts[0] if len(parts) == 1 else z3.Concat(*reversed(parts))
        if fn == TUPLE_GET and isinstance(e.param, TupleIndex) and isinstance(e.param.tuple_type, TupleType):
            width_of(e.param.tuple_type)
            lo, w = tuple_fields(e.param.tuple_type)[e.param.index]
            whole = self.encode(e.args[0], heads, regs, e.param.tuple_type)
            return z3.Extract(lo + w - 1, lo, whole)
        raise UnsupportedExpr(f"function {fn!r} has no Z3 encoding")

    def guard(self, e: Optional[Expr], heads, regs) -> z3.BoolRef:
        """A rule guard as a Bool (true when absent)."""
        if e is None:
            return z3.BoolVal(True)
        return self._bool(e, heads, regs)

    # -- helpers --
    def _bool(self, e: Expr, heads, regs) -> z3.BoolRef:
        """A truth-valued expression as a Z3 Bool, built directly (no detour through the i1 bit)."""
        if isinstance(e, Apply):
            fn = e.fn
            if fn in ("eq", "ne") or fn.startswith(("cmp.", "ucmp.")):
                a, b = self._pair(e, heads, regs)
                return self._compare(fn, a, b)
            if fn == "not":
                return negation(self._bool(e.args[0], heads, regs))
            if fn in ("and", "or"):
                xs = [self._bool(a, heads, regs) for a in e.args]
                return conjunction(xs) if fn == "and" else disjunction(xs)
        return self._truthy(self.encode(e, heads, regs, i1))

    def _lit(self, value: int, w: int) -> z3.BitVecRef:
        c = self._vals.get((value, w))
        if c is None:
            c = self._vals[(value, w)] = z3.BitVecVal(value, w)
        return c

    def _bit(self, x: z3.BoolRef) -> z3.BitVecRef:
        return ite(x, self._lit(1, 1), self._lit(0, 1))

    def _truthy(self, x: z3.ExprRef) -> z3.BoolRef:
        if z3.is_bool(x):
            return x
        return x != self._lit(0, x.size())

    def _pair(self, e: Apply, heads, regs) -> tuple[z3.ExprRef, z3.ExprRef]:
        lhs, rhs = e.args
        tl, tr = self.type_of(lhs), self.type_of(rhs)
        if e.fn.startswith("step."):
            tl = tr = index
        a = self.encode(lhs, heads, regs, tl if tl is not None else tr)
        b = self.encode(rhs, heads, regs, tr if tr is not None else tl)
        if z3.is_bv(a) and z3.is_bv(b) and bv_width(a) != bv_width(b):
            w = max(bv_width(a), bv_width(b))
            a, b = _fit(a, w), _fit(b, w)
        return a, b

    @staticmethod
    def _compare(fn: str, a, b) -> z3.BoolRef:
        if fn in ("eq", "cmp.==") and isinstance(a, z3.BitVecRef) and isinstance(b, z3.BitVecRef):
            return equal(a, b)  # one width (``_pair``): z3py's ``==`` without its coercion
        if fn in ("eq", "cmp.=="):
            return a == b
        if fn in ("ne", "cmp.!="):
            return a != b
        ops: dict[str, Callable] = {
            "cmp.<": lambda: a < b,
            "cmp.<=": lambda: a <= b,
            "cmp.>": lambda: a > b,
            "cmp.>=": lambda: a >= b,
            "ucmp.<": lambda: z3.ULT(a, b),
            "ucmp.>=": lambda: z3.UGE(a, b),
        }
        if fn in ops:
            return ops[fn]()
        raise UnsupportedExpr(f"function {fn!r} has no Z3 encoding")

    def _binary(self, fn: str, a, b) -> z3.ExprRef:
        if fn in ("eq", "ne") or fn.startswith(("cmp.", "ucmp.")):
            return self._bit(self._compare(fn, a, b))
        steps: dict[str, Callable] = {
            "step.+=": lambda: a + b,
            "step.-=": lambda: a - b,
            "step.*=": lambda: a * b,
            "step./=": lambda: a / b,  # bvsdiv: truncation toward zero, like the table
            "step.<<=": lambda: a << b,  # bvshl: shift >= width gives 0, like the table
            "step.>>=": lambda: a >> b,  # bvashr: shift >= width fills the sign, like the table
        }
        if fn in steps:
            if self.abstract_steps:
                f = self._ufs.get(fn)
                if f is None:
                    f = z3.Function(f"step_{STEP_UF_NAMES[fn[5:]]}", a.sort(), b.sort(), a.sort())
                    self._ufs[fn] = f
                return f(a, b)
            return steps[fn]()
        raise UnsupportedExpr(f"function {fn!r} has no Z3 encoding")

    def step_term(self, step_op: str, x: z3.ExprRef, step: z3.ExprRef) -> z3.ExprRef:
        """``x step_op step`` as the tables' ``step.<op>`` vocabulary function computes it."""
        return self._binary("step." + step_op, x, step)

    def _fresh_value(self, hint: str, t: Optional[Type]) -> z3.ExprRef:
        if self.fresh is None or t is None:
            raise UnsupportedExpr(f"{hint}: needs a fresh-value supplier")
        return self.fresh(hint, sort_of(t))

    def _scalar(self, e: Apply, heads, regs) -> z3.ExprRef:
        info = e.param
        if not isinstance(info, ScalarInfo):
            raise UnsupportedExpr(f"{e.fn} without ScalarInfo")
        name = e.fn[len("scalar:") :]
        rt = info.result_types[info.result_index]
        args = [self.encode(a, heads, regs, t) for a, t in zip(e.args, info.operand_types)]
        if self.data_mode == "free":
            return self._fresh_value(name, rt)
        if self.data_mode == "exact":
            exact = exact_scalar(
                name, dict(info.attrs), info.operand_types, info.result_types, info.result_index, args
            )
            if exact is not None:
                return exact
        return self._uf(name, info, args)

    def _uf(self, name: str, info: ScalarInfo, args: Sequence[z3.ExprRef]) -> z3.ExprRef:
        key = (
            name,
            tuple(sorted((k, str(v)) for k, v in info.attrs)),
            info.operand_types,
            info.result_types,
            info.result_index,
        )
        f = self._ufs.get(key)
        if f is None:
            sig = "_".join(str(t) for t in info.operand_types) or "void"
            fname = smt_symbol(f"{name.replace('.', '_')}__{sig}__{info.result_index}")
            doms = [sort_of(t) for t in info.operand_types]
            f = z3.Function(fname, *doms, sort_of(info.result_types[info.result_index]))
            self._ufs[key] = f
        return f(*args) if args else f()


# The integer ops the models encode bit-precisely (their descriptors' Z3 terms, ``loom.semantics.ops``); every
# other scalar op is an uninterpreted function (``ExprEncoder._uf``). Which ops are worth a bit-precise term is
# this engine's choice (counting ops, ipowi and the extended multiplications stay uninterpreted: they cost the
# solver much and no control property needs them); what the term is, is the descriptor's.
EXACT_OPS = frozenset({
    "arith.addi", "arith.subi", "arith.muli", "arith.andi", "arith.ori", "arith.xori",
    "arith.maxsi", "arith.minsi", "arith.maxui", "arith.minui", "arith.shli", "arith.shrui", "arith.shrsi",
    "arith.divui", "arith.remui", "arith.divsi", "arith.remsi",
    "arith.cmpi", "arith.select",
    "arith.extsi", "arith.index_cast", "arith.extui", "arith.trunci", "arith.index_castui",
})


def exact_scalar(
    name: str,
    attrs: Mapping[str, object],
    operand_types: Sequence[Type],
    result_types: Sequence[Type],
    result_index: int,
    args: Sequence[z3.ExprRef],
) -> Optional[z3.ExprRef]:
    """Bit-precise Z3 term of an integer arith op (``EXACT_OPS``), or ``None`` when the op is not encoded exactly.

    The term is the op's descriptor's (``loom.semantics.ops.INT_OPS``); a case where the tables raise a runtime
    error (division by zero, the descriptor's ``traps``) is an uninterpreted value: the run stops there, so any
    value is sound.
    """
    if result_index != 0 or len(result_types) != 1:
        return None
    op = INT_OPS.get(name)
    if op is None or name not in EXACT_OPS or len(args) != op.arity:
        return None
    if not all(isinstance(t, (IntegerType, IndexType)) for t in list(operand_types) + list(result_types)):
        if name != "arith.select":
            return None
    info = ScalarInfo(tuple(attrs.items()), tuple(operand_types), tuple(result_types), 0)
    if name == "arith.select":
        return op.z3([as_bool(args[0]), args[1], args[2]], info)
    try:
        term = op.z3(args, info)
    except ValueError:  # an attribute the op cannot be built with (a cmpi predicate out of range)
        return None
    if op.bool_result:
        return as_bit(term)
    for trap in op.traps:
        a = args[0]
        sig = UbSig(name, dict(attrs), tuple(operand_types), tuple(result_types))
        undefined = z3.Function(f"{name.replace('.', '_')}_by_zero_w{width_of(result_types[0])}", a.sort(), a.sort())
        term = z3.If(trap.term(args, sig), undefined(a), term)
    return term


# ----------------------------------------------------------------------------- machines


@dataclass
class MState:
    """One symbolic configuration of a machine: its control state and its registers."""

    state: z3.ExprRef
    regs: dict[str, z3.ExprRef]


@dataclass
class Firing:
    """One rule applied symbolically to one configuration with given input heads.

    ``enabled`` is ``state == rule.state and guard`` (token presence on
    ``rule.reads`` is the caller's business: the caller owns the channels).
    """

    rule: Rule
    enabled: z3.BoolRef
    consumes: tuple[str, ...]
    emits: dict[str, z3.ExprRef]
    next_state: z3.ExprRef
    next_regs: dict[str, z3.ExprRef]
    fails: Optional[str] = None
    completes: bool = False
    writes: bool = False


_ENUMS = "_loom_enum_sorts"  # the attribute of a z3.Context that holds its enumeration sorts (they die with it)


_UREM = (z3.Z3_OP_BUREM, z3.Z3_OP_BUREM_I)
_SREM = (z3.Z3_OP_BSREM, z3.Z3_OP_BSREM_I, z3.Z3_OP_BSMOD, z3.Z3_OP_BSMOD_I)
_UDIV = (z3.Z3_OP_BUDIV, z3.Z3_OP_BUDIV_I)


def division_facts(term: z3.ExprRef, seen: Optional[set] = None) -> list[z3.BoolRef]:
    """Valid range facts about the bit-vector divisions and remainders inside ``term``.

    ``x urem d < d``, ``|x srem d| < |d|`` (also smod) and ``x udiv d <= max/d`` for a
    non-zero constant divisor, and ``y != 0 -> x urem y < y`` otherwise. They hold in
    every model, so adding them changes no verdict; they let the SAT back end refute
    e.g. ``(y urem 5) > 4`` at once instead of searching a 64-bit divider circuit.
    ``seen`` (term ids) skips subterms already covered by an earlier call.
    """
    seen = set() if seen is None else seen
    out: list[z3.BoolRef] = []
    stack = [term]
    while stack:
        t = stack.pop()
        i = t.get_id()
        if i in seen:
            continue
        seen.add(i)
        if not z3.is_app(t):
            continue
        kids = t.children()
        stack.extend(kids)
        k = t.decl().kind()
        if len(kids) != 2 or k not in _UREM + _SREM + _UDIV:
            continue
        d = kids[1]
        w = t.size()
        if not z3.is_bv_value(d):
            if k in _UREM:
                out.append(z3.Implies(d != 0, z3.ULT(t, d)))
            continue
        v = d.as_long()
        if v == 0:
            continue
        if k in _UREM:
            out.append(z3.ULT(t, d))
        elif k in _UDIV:
            out.append(z3.ULE(t, z3.BitVecVal(((1 << w) - 1) // v, w)))
        else:
            mag = v if v < (1 << (w - 1)) else (1 << w) - v  # |d| (d = INT_MIN: no bound)
            if mag < (1 << (w - 1)):
                out.append(z3.And(t < z3.BitVecVal(mag, w), t > z3.BitVecVal(-mag, w)))
    return out


def enum_sort(name: str, values: tuple[str, ...]) -> tuple[z3.DatatypeSortRef, list]:
    """Z3 enumeration sort ``name`` with ``values``; the same request gives the same sort.

    Z3 refuses to declare one enumeration name twice in a context, so sorts are
    memoized (this mirrors Z3's own declaration table; a name reused with other
    values is a caller error). Per context: z3py's default one (a verification unit's own, see
    ``loom.verify.isolation``).
    """
    ctx = z3.main_ctx()
    enums: dict[tuple[str, tuple[str, ...]], tuple[z3.DatatypeSortRef, list]] = ctx.__dict__.setdefault(_ENUMS, {})
    key = (name, values)
    hit = enums.get(key)
    if hit is None:
        if any(k[0] == name for k in enums):
            raise ValueError(f"enumeration sort {name!r} already declared with other values")
        hit = z3.EnumSort(name, list(values))
        enums[key] = hit
    return hit


class MachineModel:
    """The Z3 view of one operator table: a state enum, typed registers and one ``Firing`` per rule.

    ``name`` must be unique among the models that share one solver (it prefixes
    the enum sort and every constant). Typical use::

        m = MachineModel(machine_for(op), "gate0")
        s0, s1 = m.new_state("t0"), m.new_state("t1")
        heads = m.new_heads("t0")
        step = z3.Or([z3.And(f.enabled, m.goes_to(f, s1)) for f in m.firings(s0, heads)])
    """

    def __init__(
        self,
        machine: Machine,
        name: str,
        data_mode: str = "exact",
        fresh: Optional[Fresh] = None,
        abstract_steps: bool = False,
    ) -> None:
        self.machine = machine
        self.name = name = smt_symbol(name)
        self.state_sort, consts = enum_sort(f"{name}_State", tuple(f"{name}_{s}" for s in machine.states))
        self.state_of = dict(zip(machine.states, consts))
        self.port_types = {p.name: p.type for p in machine.inputs if p.kind == "token"}
        self.out_types = {p.name: p.type for p in machine.outputs}
        self.reg_types = {r.name: r.type for r in machine.registers}
        # the sorts, made once: configurations are made often
        self._reg_sorts = {r: sort_of(t) for r, t in self.reg_types.items()}
        self._port_sorts = {p: sort_of(t) for p, t in self.port_types.items()}
        self._fresh_count = itertools.count()
        self.fresh = fresh if fresh is not None else self._default_fresh
        mem_elem = machine.memory.type.element if machine.memory is not None else None
        self.encoder = ExprEncoder(
            self.port_types, self.reg_types, data_mode, self.fresh, mem_elem, abstract_steps
        )

    def _default_fresh(self, hint: str, sort: z3.SortRef) -> z3.ExprRef:
        return z3.Const(smt_symbol(f"{self.name}.{hint}.{next(self._fresh_count)}"), sort)

    # -- configurations --
    def new_state(self, tag: str) -> MState:
        """Fresh symbolic configuration named ``<name>.<tag>.*``."""
        st = constant(smt_symbol(f"{self.name}.{tag}.st"), self.state_sort)
        regs = {r: constant(smt_symbol(f"{self.name}.{tag}.{r}"), t) for r, t in self._reg_sorts.items()}
        return MState(st, regs)

    def new_heads(self, tag: str) -> dict[str, z3.ExprRef]:
        """Fresh head value for every token input port (the value a firing would read)."""
        return {p: constant(smt_symbol(f"{self.name}.{tag}.in.{p}"), t) for p, t in self._port_sorts.items()}

    def initial(self, s: MState) -> z3.BoolRef:
        """``s`` is the machine's initial configuration (initial state, registers at ``init``)."""
        return conjunction([equal(x, v) for x, v in self.initial_values(s)])

    def initial_values(self, s: MState) -> list[tuple[z3.ExprRef, z3.ExprRef]]:
        """The initial configuration as definitions: (state, initial state), (register, its ``init``) --
        every variable of ``s`` once."""
        pairs = [(s.state, self.state_of[self.machine.initial])]
        for r in self.machine.registers:
            pairs.append((s.regs[r.name], const_term(r.init, r.type)))
        return pairs

    def in_state(self, s: MState, *names: str) -> z3.BoolRef:
        return disjunction([s.state == self.state_of[n] for n in names]) if names else z3.BoolVal(False)

    def same(self, a: MState, b: MState) -> z3.BoolRef:
        """Configurations ``a`` and ``b`` are equal (a stutter step)."""
        return conjunction([equal(a.state, b.state)] + [equal(a.regs[r], b.regs[r]) for r in self.reg_types])

    # -- rules --
    def firing(self, rule: Rule, s: MState, heads: Mapping[str, z3.ExprRef]) -> Firing:
        """The symbolic effect of ``rule`` from ``s`` with head values ``heads``."""
        enc = self.encoder
        at = equal(s.state, self.state_of[rule.state])
        enabled = conjunction([at, enc.guard(rule.guard, heads, s.regs)])
        emits = {p: enc.encode(e, heads, s.regs, self.out_types[p]) for p, e in rule.emits}
        emits = {
            p: _fit(v, width_of(self.out_types[p])) if z3.is_bv(v) else as_bit(v) for p, v in emits.items()
        }
        next_regs = dict(s.regs)
        for r, e in rule.updates:
            v = enc.encode(e, heads, s.regs, self.reg_types[r])
            next_regs[r] = _fit(as_bit(v), width_of(self.reg_types[r]))
        fails = rule.effect.code if isinstance(rule.effect, Fail) else None
        return Firing(
            rule,
            enabled,
            tuple(rule.reads),
            emits,
            self.state_of[rule.next],
            next_regs,
            fails,
            isinstance(rule.effect, Complete),
            isinstance(rule.effect, Write),
        )

    def firings(self, s: MState, heads: Mapping[str, z3.ExprRef]) -> list[Firing]:
        """One ``Firing`` per rule of the table, in table order."""
        return [self.firing(r, s, heads) for r in self.machine.rules]

    def goes_to(self, f: Firing, t: MState) -> z3.BoolRef:
        """``t`` is the configuration after firing ``f``."""
        regs = [equal(t.regs[r], f.next_regs[r]) for r in self.reg_types]
        return conjunction([equal(t.state, f.next_state)] + regs)

    def state_name(self, model: z3.ModelRef, s: MState) -> str:
        """The state name ``s`` takes in a Z3 model (for counterexample traces)."""
        v = model.eval(s.state, model_completion=True)
        for n, c in self.state_of.items():
            if z3.eq(v, c):
                return n
        return str(v)


def bv_value(model: z3.ModelRef, term: z3.ExprRef, signed: bool = True) -> int:
    """The integer a model gives a bit-vector term (two's complement when ``signed``)."""
    v = model.eval(term, model_completion=True)
    if z3.is_bool(v):
        return 1 if z3.is_true(v) else 0
    if z3.is_int_value(v):
        return v.as_long()
    n = v.as_long()
    w = v.size()
    return n - (1 << w) if signed and w > 1 and n >> (w - 1) else n
