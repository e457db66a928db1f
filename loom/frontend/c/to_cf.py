"""LLVM IR (after loom's pipeline) -> loom's CF stage: one multi-block ``func.func`` per C function.

Rules (specs/frontend-c.md): a phi becomes a block argument; ``br`` becomes ``cf.br``/``cf.cond_br``;
integer/float instructions become ``arith`` ops of the same semantics; a pointer is never a value: it is a
memref plus one index per dimension, so a GEP chain becomes the indices of the ``memref.load``/``store``
that uses it (a pointer parameter is ``memref<?x...xT>``, its inner dimensions from the array type it is
indexed with; a local array is ``memref.alloca``; a ``const`` global table is ``memref.global``). math.h
calls and LLVM's math intrinsics become ``math``/``arith`` ops. Anything else is a located CPL_C_UNSUPPORTED
error at the C source line of the instruction (clang's debug locations).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from loom.diagnostics import LoomError
from loom.frontend.c import llvm_text as lt
from loom.ir.location import Location

UNSUPPORTED = "CPL_C_UNSUPPORTED"

INT_BINOPS = {"add": "addi", "sub": "subi", "mul": "muli", "sdiv": "divsi", "udiv": "divui", "srem": "remsi",
              "urem": "remui", "shl": "shli", "lshr": "shrui", "ashr": "shrsi", "and": "andi", "or": "ori",
              "xor": "xori"}
FLOAT_BINOPS = {"fadd": "addf", "fsub": "subf", "fmul": "mulf", "fdiv": "divf", "frem": "remf"}
CASTS = {"sext": "extsi", "zext": "extui", "trunc": "trunci", "sitofp": "sitofp", "uitofp": "uitofp",
         "fptosi": "fptosi", "fptoui": "fptoui", "fpext": "extf", "fptrunc": "truncf"}
# math.h functions (and LLVM's intrinsics of the same name) -> (op, operand count)
MATH = {"fabs": ("math.absf", 1), "sqrt": ("math.sqrt", 1), "exp": ("math.exp", 1), "exp2": ("math.exp2", 1),
        "expm1": ("math.expm1", 1), "log": ("math.log", 1), "log2": ("math.log2", 1), "log10": ("math.log10", 1),
        "log1p": ("math.log1p", 1), "sin": ("math.sin", 1), "cos": ("math.cos", 1), "tan": ("math.tan", 1),
        "asin": ("math.asin", 1), "acos": ("math.acos", 1), "atan": ("math.atan", 1), "sinh": ("math.sinh", 1),
        "cosh": ("math.cosh", 1), "tanh": ("math.tanh", 1), "cbrt": ("math.cbrt", 1), "erf": ("math.erf", 1),
        "erfc": ("math.erfc", 1), "floor": ("math.floor", 1), "ceil": ("math.ceil", 1),
        "trunc": ("math.trunc", 1), "round": ("math.round", 1), "roundeven": ("math.roundeven", 1),
        "rint": ("math.roundeven", 1), "nearbyint": ("math.roundeven", 1),
        "pow": ("math.powf", 2), "atan2": ("math.atan2", 2), "copysign": ("math.copysign", 2),
        "fma": ("math.fma", 3), "fmax": ("arith.maxnumf", 2), "fmin": ("arith.minnumf", 2),
        "maxnum": ("arith.maxnumf", 2), "minnum": ("arith.minnumf", 2), "smax": ("arith.maxsi", 2),
        "smin": ("arith.minsi", 2), "umax": ("arith.maxui", 2), "umin": ("arith.minui", 2)}
IGNORED_CALLS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias", "llvm.var.annotation")
_NAME = re.compile(r"[^A-Za-z0-9_.$-]")


@dataclass
class Ptr:
    """A pointer value: memref ``base`` of type ``mtype`` (shape, element) and one index per level so far;
    ``virtual``: the first index is an outer dimension of size 1 the memref does not have (a local or global
    object, not a parameter), so it must be 0 at every access."""

    base: str
    shape: list[int | None]
    elem: str
    idx: list[int | str]
    virtual: bool = False
    key: str = ""  # the memref's identity (parameter, local or @global), whatever SSA name reads it

    def deepened(self, depth: int) -> "Ptr":
        """The same address with indices down to ``depth`` levels (the start of an array is its first
        element)."""
        extra = max(0, depth - len(self.idx))
        return Ptr(self.base, self.shape, self.elem, self.idx + [0] * extra, self.virtual, self.key)

    def same_object(self, other: "Ptr") -> bool:
        """Both point into one memref at the same position but for the last index."""
        return (self.key or self.base) == (other.key or other.base) and self.idx[:-1] == other.idx[:-1]

    def memref(self) -> str:
        dims = "".join(("?" if d is None else str(d)) + "x" for d in self.shape)
        return f"memref<{dims}{self.elem}>"


@dataclass
class Global:
    """A ``const`` global table: its name, memref type and nested values."""

    name: str
    shape: list[int]
    elem: str
    values: object


@dataclass
class Emitter:
    """The MLIR text of one function under construction."""

    file: str
    locs: list  # the function's location, then one per instruction (llvm_text.function_locations)
    names: dict[str, str] = field(default_factory=dict)  # LLVM value name -> MLIR SSA name
    taken: set[str] = field(default_factory=set)
    ptrs: dict[str, Ptr] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)  # MLIR SSA name -> MLIR type
    out: list[str] = field(default_factory=list)
    counter: int = 0
    loc: Location | None = None
    globals_used: dict[str, Global] = field(default_factory=dict)

    def fresh(self, hint: str) -> str:
        base = "%" + (_NAME.sub("_", hint) or "v")
        if base[1].isdigit():
            base = "%v" + base[1:]
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name

    def loc_of(self, pos: tuple[int, int] | None) -> Location:
        """The C location (line, column) from clang's debug info, else the last one seen."""
        if pos is not None and pos[0] > 0:
            return Location(self.file, pos[0], pos[1])
        return self.loc or Location(self.file, 1, 1)

    def loc_text(self) -> str:
        loc = self.loc or Location(self.file, 1, 1)
        return f' loc("{loc.file}":{loc.line}:{loc.col})'

    def emit(self, text: str) -> None:
        self.out.append(f"    {text}{self.loc_text()}")

    def error(self, message: str) -> LoomError:
        return LoomError(message, loc=self.loc or Location(self.file, 1, 1), code=UNSUPPORTED)

    def const(self, value, mtype: str) -> str:
        """A fresh ``arith.constant`` of ``value``."""
        self.counter += 1
        name = self.fresh(f"c{self.counter}")
        self.types[name] = mtype
        if mtype == "i1":
            self.emit(f"{name} = arith.constant {'true' if value else 'false'}")
        elif mtype in ("f32", "f64"):
            self.emit(f"{name} = arith.constant {float_literal(value, mtype)} : {mtype}")
        else:
            self.emit(f"{name} = arith.constant {int(value)} : {mtype}")
        return name


def float_literal(value: float, mtype: str) -> str:
    """An MLIR float literal that denotes ``value`` exactly (hex bits for inf and nan)."""
    import struct

    if math.isfinite(value):
        return f"{value:.17e}"
    if mtype == "f32":
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def mlir_type(ltype: str, em: Emitter) -> str:
    t = ltype.strip()
    if t in lt.SCALARS:
        return lt.SCALARS[t]
    raise em.error(f"values of type '{t}' are not supported (integers, float, double and pointers are)")


class FunctionTranslator:
    """One LLVM function -> the text of one multi-block ``func.func``."""

    def __init__(self, fn, em: Emitter, globals_: dict[str, Global],
                 bounds: dict[str, tuple[int, int]] | None = None, name: str | None = None) -> None:
        self.bounds = bounds or {}  # declared outer bounds of array parameters (param_dims.py)
        self.name = name or fn.name  # the func.func's name (C++: the source name, not the mangled one)
        self.fn = fn
        self.em = em
        self.globals = globals_
        self.block_names: dict[str, str] = {}
        self.phis: dict[str, list] = {}
        self.global_bases: dict[str, Ptr] = {}
        self.phi_args: dict[str, tuple[str, str]] = {}  # phi -> (block argument, type); pointers: their index
        self.body: list[str] = []
        self.cur_block = 0

    # ------------------------------------------------------------------ values
    def value(self, v, want: str | None = None) -> str:
        """The MLIR SSA name of LLVM operand ``v`` (constants are materialised where used)."""
        kind = v.value_kind.name
        if kind in ("argument", "instruction"):
            if v.name in self.em.ptrs:
                raise self.em.error("a pointer is used as a value here (only loads, stores and index arithmetic "
                                    "on pointers are supported)")
            name = self.em.names.get(v.name)
            if name is None:
                raise self.em.error(f"value '%{v.name}' is not supported here")
            return name
        text = str(v).strip()
        ltype, _, token = text.partition(" ")
        mtype = mlir_type(ltype, self.em)
        if kind in ("constant_int", "constant_fp"):
            return self.em.const(lt.scalar_value(token.strip(), ltype), mtype)
        if kind in ("undef_value", "poison_value"):
            # any value refines undef and poison (LLVM's semantics), e.g. a phi's value on a path that never
            # reads it: zero is one of them
            return self.em.const(0.0 if mtype in ("f32", "f64") else 0, mtype)
        raise self.em.error(f"constant '{text}' is not supported")

    def ptr(self, v) -> Ptr:
        kind = v.value_kind.name
        if kind in ("argument", "instruction") and v.name in self.em.ptrs:
            return self.em.ptrs[v.name]
        if kind == "global_variable":
            g = self.globals.get(v.name)
            if g is None:
                raise self.em.error(f"global variable '@{v.name}' is not a const table (only `const` arrays of "
                                    "scalars are supported)")
            self.em.globals_used[g.name] = g
            if g.name not in self.global_bases:  # read once, at the function's entry (dominates every use)
                name = self.em.fresh(g.name)
                p = Ptr(name, list(g.shape), g.elem, [0], virtual=True, key=f"@{g.name}")
                line = f"    {name} = memref.get_global @{g.name} : {p.memref()}{self.em.loc_text()}"
                (self.em.out if self.cur_block == 0 else self.body).insert(0, line)
                self.global_bases[g.name] = p
            return self.global_bases[g.name]
        if kind == "constant_expr":
            return self.const_gep(v)
        if kind == "constant_pointer_null":
            raise self.em.error("null pointers are not supported")
        raise self.em.error("this pointer does not come from a parameter, a local array or a const table "
                            "(pointer phis, selects and casts are not supported)")

    def const_gep(self, v) -> Ptr:
        """A constant GEP into a const table (``W + 1``): LLVM writes it in bytes (``i8``) or in the table's
        types, with constant indices."""
        text = str(v)
        m = re.search(r"getelementptr (?:inbounds |nuw |nusw )*\((.*)\)\s*$", text)
        if not m:
            raise self.em.error(f"the constant pointer '{text.strip()}' is not supported")
        src, end = lt.parse_type(m[1], 0)
        rest = m[1][end:]
        g = re.match(r", ptr @([\w.$]+)((?:, i\d+ -?\d+)*)$", rest)
        if not g:
            raise self.em.error(f"the constant pointer '{text.strip()}' is not supported")
        holder = type("G", (), {"value_kind": type("K", (), {"name": "global_variable"}), "name": g[1]})
        base = self.ptr(holder)
        idx = [int(x) for x in re.findall(r"i\d+ (-?\d+)", g[2])]
        if src.text == "i8" and base.elem != "i8":
            width = {"i1": 1, "i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}[base.elem]
            if len(idx) != 1 or idx[0] % width:
                raise self.em.error("a constant pointer into the middle of an element is not supported")
            flat, out = idx[0] // width, []
            dims = [d for d in base.shape]  # a const table: every dimension static
            for n in range(len(dims)):
                below = 1
                for d in dims[n + 1:]:
                    below *= d  # type: ignore[operator]
                out.append(flat // below)
                flat %= below
            return Ptr(base.base, base.shape, base.elem, [0, *out], base.virtual, base.key)
        dims, scalar = src.dims()
        if not dims and len(base.shape[len(base.idx) - 1:]) == 1:  # `W + 1`: the table decayed to &W[0]
            base = Ptr(base.base, base.shape, base.elem, base.idx + [0], base.virtual, base.key)
        if dims != list(base.shape[len(base.idx) - 1:]) or lt.SCALARS.get(scalar.text) != base.elem or not idx:
            raise self.em.error(f"the constant pointer '{text.strip()}' cannot be turned into indices exactly")
        new = list(base.idx)
        new[-1] = int(new[-1]) + idx[0]
        return Ptr(base.base, base.shape, base.elem, new + idx[1:], base.virtual, base.key)

    def index(self, v) -> int | str:
        """A GEP index operand as a constant or an ``index`` SSA name."""
        if v.value_kind.name == "constant_int":
            return int(lt.scalar_value(str(v).split()[-1], "i64"))
        name = self.value(v)
        t = self.em.types.get(name, "i64")
        cast = self.em.fresh(name[1:] + "_ix")
        self.em.emit(f"{cast} = arith.index_cast {name} : {t} to index")
        self.em.types[cast] = "index"
        return cast

    def add_index(self, a: int | str, b: int | str) -> int | str:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if b == 0:
            return a
        if a == 0:
            return b
        a_s = self.em.const(a, "index") if isinstance(a, int) else a
        b_s = self.em.const(b, "index") if isinstance(b, int) else b
        out = self.em.fresh("ix")
        self.em.emit(f"{out} = arith.addi {a_s}, {b_s} : index")
        self.em.types[out] = "index"
        return out

    def access(self, p: Ptr, scalar: str) -> str:
        """``%m[%i, ...] : memref<...>`` for a load or store of ``scalar`` through ``p``."""
        if scalar != p.elem:
            raise self.em.error(f"a {scalar} is accessed through a pointer to {p.elem} (type punning is not "
                                "supported)")
        idx = list(p.idx)
        if p.virtual:
            if idx[0] != 0:
                raise self.em.error("pointer arithmetic past a local or global array is not supported")
            idx = idx[1:]
        idx += [0] * (len(p.shape) - len(idx))
        names = [self.em.const(i, "index") if isinstance(i, int) else i for i in idx]
        return f"{p.base}[{', '.join(names)}] : {p.memref()}"

    # ------------------------------------------------------------------ function
    def param_ptr(self, arg, name: str) -> Ptr:
        """A pointer parameter's memref: its dimensions from the array type its GEPs index (``int A[][30]``
        is ``memref<?x30xi32>``), its element from the scalar loaded or stored."""
        geps, scalars = set(), set()
        # the parameter and the pointer phis/selects it flows into unchanged (`q = out; ... q++`)
        same = {("argument", arg.name)}

        def key(v) -> tuple[str, str]:
            return (v.value_kind.name, v.name)

        changed = True
        while changed:
            changed = False
            for b in self.fn.blocks:
                for ins in b.instructions:
                    if ins.opcode in ("phi", "select") and str(ins.type) == "ptr" and \
                            ("instruction", ins.name) not in same and any(key(o) in same for o in ins.operands):
                        same.add(("instruction", ins.name))
                        changed = True
        for b in self.fn.blocks:
            for ins in b.instructions:
                ops = list(ins.operands)
                if ins.opcode == "getelementptr" and ops and key(ops[0]) in same:
                    geps.add(lt.gep_source_type(str(ins)).text)
                elif ins.opcode == "load" and key(ops[0]) in same:
                    scalars.add(str(ins.type))
                elif ins.opcode == "store" and key(ops[1]) in same:
                    scalars.add(str(ops[0].type))
        if len(geps) > 1:
            raise self.em.error(f"parameter '{arg.name}' is indexed as several types ({', '.join(sorted(geps))})")
        if geps:
            dims, scalar = lt.type_of(geps.pop()).dims()
        else:
            dims, scalar = [], lt.LType(scalars.pop() if len(scalars) == 1 else "i8")
        if scalar.text not in lt.SCALARS or scalar.text == "i1":
            raise self.em.error(f"parameter '{arg.name}' points to '{scalar.text}' (structs, unions and nested "
                                "pointers are not supported)")
        bound = self.bounds.get(arg.name)
        outer = bound[0] if bound is not None and bound[1] == 1 + len(dims) else None  # `T a[N]...` as declared
        return Ptr(name, [outer, *dims], lt.SCALARS[scalar.text], [0], key=name)

    def translate(self) -> str:
        em, fn = self.em, self.fn
        em.loc = em.loc_of(em.locs[0] if em.locs else None)
        if fn.global_value_type.is_function_vararg:
            raise em.error(f"'{fn.name}' takes a variable argument list (varargs are not supported)")
        params = []
        for arg in fn.arguments:
            t = str(arg.type)
            if "byval" in str(arg) or "sret" in str(arg) or ".coerce" in arg.name:
                raise em.error(f"parameter '{arg.name}' is a struct passed by value (not supported)")
            name = em.fresh(arg.name or "arg")
            if t == "ptr":
                p = self.param_ptr(arg, name)
                em.ptrs[arg.name] = p
                params.append(f"{name}: {p.memref()}")
            else:
                mt = mlir_type(t, em)
                em.names[arg.name] = name
                em.types[name] = mt
                params.append(f"{name}: {mt}")
        ret_t = str(fn.global_value_type.get_function_return()).strip()
        if ret_t == "ptr":
            raise em.error("a function returning a pointer is not supported")
        if ret_t.startswith("{"):
            raise em.error("a function returning a struct is not supported")
        results = "" if ret_t == "void" else f" -> {mlir_type(ret_t, em)}"
        blocks = list(fn.blocks)
        for k, b in enumerate(blocks):
            self.block_names[b.name] = f"^bb{k}"
            self.phis[b.name] = [i for i in b.instructions if i.opcode == "phi"]
        for b in blocks:  # phi results first: a block argument is used before its block is printed
            for phi in self.phis[b.name]:
                if str(phi.type) == "ptr":  # a pointer that moves: its last index is the block argument
                    name = em.fresh(phi.name + "_ix")
                    em.types[name] = "index"
                    self.phi_args[phi.name] = (name, "index")
                    continue
                name = em.fresh(phi.name)
                em.names[phi.name] = name
                em.types[name] = mlir_type(str(phi.type), em)
                self.phi_args[phi.name] = (name, em.types[name])
        body: list[str] = self.body
        at = 0  # the instruction's position in the function (its entry in em.locs is at + 1)
        for k, b in enumerate(blocks):
            em.out = []
            if k:
                args = ", ".join(f"{self.phi_args[p.name][0]}: {self.phi_args[p.name][1]}" for p in self.phis[b.name])
                body.append(f"  ^bb{k}({args}):" if args else f"  ^bb{k}:")
            self.cur_block, self.extra_blocks = k, 0
            for ins in b.instructions:
                at += 1
                em.loc = em.loc_of(em.locs[at] if at < len(em.locs) else None)
                self.instruction(ins)
            body.extend(em.out)
        em.loc = em.loc_of(em.locs[0] if em.locs else None)
        return (f"  func.func @{self.name}({', '.join(params)}){results} {{\n" + "\n".join(body)
                + f"\n  }}{em.loc_text()}\n")

    # ------------------------------------------------------------------ instructions
    def define(self, ins, mtype: str) -> str:
        hint = ins.name or "v"
        if re.fullmatch(r"i\d*", hint):  # a name LLVM's instruction namer gave a nameless value: not C's `i`
            hint = "t" + hint[1:]
        name = self.em.fresh(hint)
        self.em.names[ins.name] = name
        self.em.types[name] = mtype
        return name

    def instruction(self, ins) -> None:
        em, op = self.em, ins.opcode
        text = str(ins)
        ops = list(ins.operands)
        if op == "phi":
            return
        if lt.is_volatile(text):
            raise em.error("volatile accesses are not supported")
        if op in INT_BINOPS or op in FLOAT_BINOPS:
            t = mlir_type(str(ins.type), em)
            a, b = self.value(ops[0]), self.value(ops[1])
            mop = INT_BINOPS.get(op) or FLOAT_BINOPS[op]
            em.emit(f"{self.define(ins, t)} = arith.{mop} {a}, {b} : {t}")
        elif op == "fneg":
            t = mlir_type(str(ins.type), em)
            a = self.value(ops[0])
            em.emit(f"{self.define(ins, t)} = arith.negf {a} : {t}")
        elif op in ("icmp", "fcmp"):
            if str(ops[0].type) == "ptr":
                a_p, b_p = self.ptr(ops[0]), self.ptr(ops[1])
                depth = max(len(a_p.idx), len(b_p.idx))
                a_p, b_p = a_p.deepened(depth), b_p.deepened(depth)
                if not a_p.same_object(b_p):
                    raise em.error("comparing pointers into different arrays or rows is not supported")
                a, b = (em.const(x, "index") if isinstance(x, int) else x for x in (a_p.idx[-1], b_p.idx[-1]))
                em.emit(f"{self.define(ins, 'i1')} = arith.cmpi {lt.predicate(text)}, {a}, {b} : index")
                return
            t = mlir_type(str(ops[0].type), em)
            a, b = self.value(ops[0]), self.value(ops[1])
            pred = lt.predicate(text)
            if op == "fcmp" and pred in ("true", "false"):
                em.emit(f"{self.define(ins, 'i1')} = arith.constant {pred}")
                return
            kind = "cmpi" if op == "icmp" else "cmpf"
            em.emit(f"{self.define(ins, 'i1')} = arith.{kind} {pred}, {a}, {b} : {t}")
        elif op in CASTS:
            src = mlir_type(str(ops[0].type), em)
            dst = mlir_type(str(ins.type), em)
            a = self.value(ops[0])
            em.emit(f"{self.define(ins, dst)} = arith.{CASTS[op]} {a} : {src} to {dst}")
        elif op == "freeze":
            em.names[ins.name] = self.value(ops[0])
        elif op == "select":
            if str(ins.type) == "ptr":
                a_p, b_p = self.ptr(ops[1]), self.ptr(ops[2])
                depth = max(len(a_p.idx), len(b_p.idx))
                a_p, b_p = a_p.deepened(depth), b_p.deepened(depth)
                if not a_p.same_object(b_p):
                    raise em.error("selecting between pointers into different arrays or rows is not supported")
                a, b = (em.const(x, "index") if isinstance(x, int) else x for x in (a_p.idx[-1], b_p.idx[-1]))
                c = self.value(ops[0])
                out = em.fresh((ins.name or "p") + "_ix")
                em.emit(f"{out} = arith.select {c}, {a}, {b} : index")
                em.types[out] = "index"
                em.ptrs[ins.name] = Ptr(a_p.base, a_p.shape, a_p.elem, a_p.idx[:-1] + [out], a_p.virtual, a_p.key)
                return
            t = mlir_type(str(ins.type), em)
            c, a, b = (self.value(o) for o in ops)
            em.emit(f"{self.define(ins, t)} = arith.select {c}, {a}, {b} : {t}")
        elif op == "getelementptr":
            self.gep(ins, text, ops)
        elif op == "load":
            ref = self.access(self.ptr(ops[0]), mlir_type(str(ins.type), em))
            em.emit(f"{self.define(ins, mlir_type(str(ins.type), em))} = memref.load {ref}")
        elif op == "store":
            if str(ops[0].type) == "ptr":
                raise em.error("storing a pointer is not supported")
            v = self.value(ops[0])
            em.emit(f"memref.store {v}, {self.access(self.ptr(ops[1]), mlir_type(str(ops[0].type), em))}")
        elif op == "alloca":
            t = lt.alloca_type(text)
            dims, scalar = t.dims()
            rest = text.split("alloca", 1)[1].strip()[len(t.text):]
            if scalar.text not in lt.SCALARS or not (rest == "" or rest.startswith((", align", ", !"))):
                raise em.error(f"a local variable of type '{t.text}' is not supported (arrays of scalars are)")
            name = em.fresh(ins.name or "local")
            p = Ptr(name, dims or [1], lt.SCALARS[scalar.text], [0], virtual=bool(dims), key=name)
            em.emit(f"{name} = memref.alloca() : {p.memref()}")
            em.ptrs[ins.name] = p
        elif op == "call":
            self.call(ins, text, ops)
        elif op == "br":
            self.branch(ins, ops)
        elif op == "ret":
            if ops:
                v = self.value(ops[0])
                em.emit(f"func.return {v} : {em.types[v]}")
            else:
                em.emit("func.return")
        elif op == "unreachable":
            raise em.error("control reaches an 'unreachable' point (a noreturn call or __builtin_unreachable)")
        elif op in ("ptrtoint", "inttoptr", "bitcast", "addrspacecast"):
            raise em.error(f"casts between pointers and integers ({op}) are not supported")
        elif op in ("extractvalue", "insertvalue"):
            raise em.error("struct values are not supported")
        elif op in ("indirectbr", "callbr"):
            raise em.error("computed goto and asm goto are not supported")
        else:
            raise em.error(f"the LLVM instruction '{op}' is not supported")

    def gep(self, ins, text: str, ops) -> None:
        base = self.ptr(ops[0])
        src = lt.gep_source_type(text)
        dims, scalar = src.dims()
        if scalar.text not in lt.SCALARS:
            raise self.em.error(f"indexing into '{src.text}' is not supported (structs and unions are not)")
        fixed = len(base.idx) - (1 if base.virtual else 0)  # memref dimensions the pointer has fixed
        expect = list(base.shape[fixed:])
        if not dims and len(expect) == 1:  # an element pointer into a 1-D array that decayed (`int *p = t`)
            base = Ptr(base.base, base.shape, base.elem, base.idx + [0], base.virtual, base.key)
            expect = []
        if dims != expect or lt.SCALARS[scalar.text] != base.elem:
            raise self.em.error(f"pointer arithmetic in units of '{src.text}' on an array of "
                                f"{base.memref()} cannot be turned into indices exactly")
        idx = list(base.idx)
        idx[-1] = self.add_index(idx[-1], self.index(ops[1]))
        for o in ops[2:]:
            idx.append(self.index(o))
        self.em.ptrs[ins.name] = Ptr(base.base, base.shape, base.elem, idx, base.virtual, base.key)

    def call(self, ins, text: str, ops) -> None:
        em = self.em
        callee = ops[-1]
        if callee.value_kind.name == "inline_asm" or "asm " in text.split("call", 1)[1][:40]:
            raise em.error("inline assembly is not supported")
        if callee.value_kind.name != "function":
            raise em.error("calls through function pointers are not supported")
        name = callee.name
        if name.startswith(IGNORED_CALLS):
            return
        if not self.fn.module.get_function(name).is_declaration:
            raise em.error(f"call of '{name}' cannot be inlined (recursion is not supported)")
        if name in ("memset", "llvm.memset.p0.i64", "memcpy", "memmove", "llvm.memcpy.p0.p0.i64",
                    "llvm.memmove.p0.p0.i64"):
            self.mem_loop(ins, name, ops)
            return
        base = name[5:].split(".")[0] if name.startswith("llvm.") else name
        if base == "abs" and name.startswith("llvm."):
            t = mlir_type(str(ins.type), em)
            em.emit(f"{self.define(ins, t)} = math.absi {self.value(ops[0])} : {t}")
            return
        if base not in MATH and base.endswith(("f", "l")) and base[:-1] in MATH:
            base = base[:-1]
        if base in ("abs", "labs", "llabs") and not name.startswith("llvm."):
            t = mlir_type(str(ins.type), em)
            em.emit(f"{self.define(ins, t)} = math.absi {self.value(ops[0])} : {t}")
            return
        if base not in MATH:
            raise em.error(f"call of '{name}', which is not defined in this file and is not a math.h "
                           "function loom knows")
        mop, n = MATH[base]
        if len(ops) - 1 != n:
            raise em.error(f"call of '{name}' with {len(ops) - 1} arguments")
        t = mlir_type(str(ins.type), em)
        args = ", ".join(self.value(o) for o in ops[:-1])
        em.emit(f"{self.define(ins, t)} = {mop} {args} : {t}")

    def flat_indices(self, p: Ptr, k: str) -> list[str]:
        """The memref indices of the element ``k`` elements after the one ``p`` points to (row-major, the
        pointer's last index absorbing whole sub-arrays), as index SSA names."""
        em = self.em
        fixed = list(p.idx[1:] if p.virtual else p.idx)
        rest = list(p.shape[len(fixed):])
        if any(d is None for d in rest):
            raise em.error("a block copy or fill over an array with a dynamic inner dimension is not supported")
        size = 1
        for d in rest:
            size *= d  # type: ignore[operator]
        names: list[str] = []
        if fixed:
            outer = k
            if rest:
                outer = self.index_op("divui", k, size)
            last = self.add_index(fixed[-1], outer)
            fixed[-1] = last
        elif p.virtual and p.idx[0] != 0:
            raise em.error("pointer arithmetic past a local or global array is not supported")
        inner: list[int | str] = []
        rem = k
        for n, d in enumerate(rest):
            below = 1
            for e in rest[n + 1:]:
                below *= e  # type: ignore[operator]
            q = self.index_op("divui", rem, below) if below != 1 else rem
            inner.append(self.index_op("remui", q, d) if (fixed or n > 0) else q)
        for i in fixed + inner:
            names.append(em.const(i, "index") if isinstance(i, int) else i)
        return names

    def index_op(self, op: str, a: int | str, b: int) -> str:
        em = self.em
        a_s = em.const(a, "index") if isinstance(a, int) else a
        out = em.fresh("ix")
        em.emit(f"{out} = arith.{op} {a_s}, {em.const(b, 'index')} : index")
        em.types[out] = "index"
        return out

    def mem_loop(self, ins, name: str, ops) -> None:
        """``memset``/``memcpy``/``memmove`` as a CF loop over the elements (a fill of zero bytes, or of any
        byte into ``char`` arrays; a copy between arrays of one element type, forwards, or backwards for a
        memmove whose target may lie after its source)."""
        em = self.em
        fill = "memset" in name
        dst = self.ptr(ops[0])
        src = None if fill else self.ptr(ops[1])
        if src is not None and src.elem != dst.elem:
            raise em.error(f"{name} between arrays of {src.elem} and {dst.elem} is not supported")
        width = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}[dst.elem]
        value = None
        if fill:
            if ops[1].value_kind.name != "constant_int":
                byte = self.value(ops[1])
                if dst.elem != "i8":
                    raise em.error("memset of a non-char array with a variable byte is not supported")
                src_t = em.types[byte]
                value = em.fresh("fill")
                em.emit(f"{value} = arith.trunci {byte} : {src_t} to i8" if src_t != "i8" else
                        f"{value} = arith.addi {byte}, {em.const(0, 'i8')} : i8")
            else:
                b = lt.scalar_value(str(ops[1]).split()[-1], "i32") & 0xFF
                if b == 0:
                    value = em.const(0.0 if dst.elem[0] == "f" else 0, dst.elem)
                elif dst.elem in ("i8",) or (b == 0xFF and dst.elem[0] == "i"):
                    value = em.const(-1 if b == 0xFF else b, dst.elem)
                else:
                    raise em.error(f"memset of {dst.elem} elements with the byte {b} is not supported")
        length = ops[2]
        if length.value_kind.name == "constant_int":
            nbytes = int(lt.scalar_value(str(length).split()[-1], "i64"))
            if nbytes % width:
                raise em.error(f"{name} of {nbytes} bytes is not a whole number of {dst.elem} elements")
            count = em.const(nbytes // width, "index")
        else:
            nb = self.value(length)
            nb_ix = em.fresh("bytes")
            em.emit(f"{nb_ix} = arith.index_cast {nb} : {em.types[nb]} to index")
            count = self.index_op("divui", nb_ix, width)
        self.extra_blocks += 1
        tag = f"^bb{self.cur_block}_m{self.extra_blocks}"
        k, k_next, cond = em.fresh("k"), em.fresh("k"), em.fresh("more")
        zero, one = em.const(0, "index"), em.const(1, "index")
        em.emit(f"cf.br {tag}h({zero} : index)")
        em.out.append(f"  {tag}h({k}: index):")
        em.emit(f"{cond} = arith.cmpi ult, {k}, {count} : index")
        em.emit(f"cf.cond_br {cond}, {tag}b, {tag}x")
        em.out.append(f"  {tag}b:")
        pos = k
        if "memmove" in name and src is not None and src.base == dst.base:
            # overlapping: copy backwards when the target lies after the source (else forwards)
            if len(dst.shape) != 1:
                raise em.error("memmove within a multi-dimensional array is not supported")
            at = [p.idx[-1] if len(p.idx) > (1 if p.virtual else 0) else 0 for p in (dst, src)]
            d_at, s_at = (em.const(a, "index") if isinstance(a, int) else a for a in at)
            later, last, back = em.fresh("later"), em.fresh("ix"), em.fresh("ix")
            em.emit(f"{later} = arith.cmpi ugt, {d_at}, {s_at} : index")
            em.emit(f"{last} = arith.subi {count}, {one} : index")
            em.emit(f"{back} = arith.subi {last}, {k} : index")
            pos = em.fresh("ix")
            em.emit(f"{pos} = arith.select {later}, {back}, {k} : index")
        if src is not None:
            value = em.fresh("elem")
            em.emit(f"{value} = memref.load {src.base}[{', '.join(self.flat_indices(src, pos))}] : {src.memref()}")
        em.emit(f"memref.store {value}, {dst.base}[{', '.join(self.flat_indices(dst, pos))}] : {dst.memref()}")
        em.emit(f"{k_next} = arith.addi {k}, {one} : index")
        em.emit(f"cf.br {tag}h({k_next} : index)")
        em.out.append(f"  {tag}x:")

    def branch_args(self, src, dst) -> str:
        """``^bbK(%a, %b : T, U)``: the target with the values its phis take when coming from ``src``."""
        label = self.block_names[dst.name]
        vals, types = [], []
        for phi in self.phis[dst.name]:
            for v, blk in zip(phi.operands, phi.incoming_blocks):
                if blk.name == src.name:
                    if phi.name in self.phi_args and self.phi_args[phi.name][1] == "index" and \
                            str(phi.type) == "ptr":
                        vals.append(self.ptr_phi_value(phi, v))
                    else:
                        vals.append(self.value(v))
                    types.append(self.phi_args[phi.name][1])
                    break
            else:
                raise self.em.error(f"phi without a value for block {src.name}")
        return f"{label}({', '.join(vals)} : {', '.join(types)})" if vals else label

    def ptr_phi_value(self, phi, v) -> str:
        """The index a pointer phi takes from incoming pointer ``v`` (which must point into the same memref
        at the same position but for its last index); the phi's pointer is made from the first one seen."""
        em = self.em
        p = self.ptr(v)
        arg = self.phi_args[phi.name][0]
        mine = em.ptrs.get(phi.name)
        if mine is None:
            mine = Ptr(p.base, p.shape, p.elem, p.idx[:-1] + [arg], p.virtual, p.key or p.base)
            em.ptrs[phi.name] = mine
        p = p.deepened(len(mine.idx))
        if not mine.same_object(p):
            raise em.error("a pointer that moves between different arrays or rows is not supported "
                           "(index the array instead)")
        last = p.idx[-1]
        return em.const(last, "index") if isinstance(last, int) else last

    def branch(self, ins, ops) -> None:
        src = ins.block
        if len(ops) == 1:
            self.em.emit(f"cf.br {self.branch_args(src, ops[0])}")
            return
        cond = self.value(ops[0])
        # llvmlite lists a conditional branch's operands as (cond, false dest, true dest), as LLVM stores them
        f, t = ops[1], ops[2]
        self.em.emit(f"cf.cond_br {cond}, {self.branch_args(src, t)}, {self.branch_args(src, f)}")


def translate_globals(module, file: str, lines_of: dict[int, tuple[int, int]]) -> dict[str, Global]:
    """The module's constant array globals (``static const`` tables) by name."""
    out: dict[str, Global] = {}
    for g in module.global_variables:
        text = str(g)
        m = re.match(r"@[\w.$\"]+ = (?:[a-z_]+ )*?(constant|global) ", text)
        if not m or m[1] != "constant" or g.is_declaration:
            continue
        t, end = lt.parse_type(text, m.end())
        dims, scalar = t.dims()
        if scalar.text not in lt.SCALARS:
            continue
        try:
            values = lt.parse_constant(text[end:].split(", align")[0].split(", !dbg")[0], t)
        except (ValueError, AssertionError, IndexError):
            continue
        out[g.name] = Global(_NAME.sub("_", g.name), dims or [1], lt.SCALARS[scalar.text],
                             values if dims else [values])
    return out


def global_text(g: Global) -> str:
    """``memref.global "private" constant @name : memref<...> = dense<...>``."""
    def fmt(v) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(fmt(x) for x in v) + "]"
        if g.elem in ("f32", "f64"):
            return float_literal(float(v), g.elem)
        if g.elem == "i1":
            return "true" if v else "false"
        return str(int(v))
    dims = "".join(f"{d}x" for d in g.shape)
    return f'  memref.global "private" constant @{g.name} : memref<{dims}{g.elem}> = dense<{fmt(g.values)}>\n'
