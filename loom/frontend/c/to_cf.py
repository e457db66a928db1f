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
from loom.frontend.c.heap import HeapRules, c_variable
from loom.frontend.c.mirrors import MirrorRules
from loom.frontend.c.memops import BlockCopies
from loom.frontend.c.pointers import PointerRules, Ptr
from loom.frontend.c.records import Record, RecordRules
from loom.frontend.c.vectors import VectorRules, returned_struct, struct_fields, vector_type
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
IGNORED_CALLS = ("llvm.lifetime.", "llvm.dbg.", "llvm.assume", "llvm.experimental.noalias", "llvm.var.annotation",
                 "llvm.stacksave", "llvm.stackrestore")  # the last two: a VLA's scope (its memref.alloca's)
_NAME = re.compile(r"[^A-Za-z0-9_.$-]")
_KNOWN_CALLS = ("malloc", "calloc", "free", "memset", "memcpy", "memmove")  # heap.py, memops.py


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
    vectors: dict[str, list[str]] = field(default_factory=dict)  # LLVM vector value -> its lanes (vectors.py)
    aggregates: dict[str, list] = field(default_factory=dict)  # LLVM struct value -> its members (vectors.py)
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

    def loc_of(self, pos: tuple | None) -> Location:
        """The C location (line, column, file) from clang's debug info, else the last one seen."""
        if pos is not None and pos[0] > 0:
            return Location(pos[2] if len(pos) > 2 and pos[2] else self.file, pos[0], pos[1])
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


class FunctionTranslator(PointerRules, RecordRules, HeapRules, MirrorRules, BlockCopies, VectorRules):
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
        self.records: dict[str, Record] = {}
        self.fields: dict[str, tuple[str, int]] = {}

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

    def translate(self) -> str:
        em, fn = self.em, self.fn
        em.loc = em.loc_of(em.locs[0] if em.locs else None)
        if fn.global_value_type.is_function_vararg:
            raise em.error(f"'{fn.name}' takes a variable argument list (varargs are not supported)")
        self.external_calls()
        params: list[str] = []
        params_seen: list[str] = []
        for arg in fn.arguments:
            t = str(arg.type)
            if "byval" in str(arg) or "sret" in str(arg) or ".coerce" in arg.name:
                raise em.error(f"parameter '{arg.name}' is a struct passed by value (not supported)")
            record = self.record_type(arg) if t == "ptr" else None
            if record is not None:  # a pointer to a struct with pointer members: one parameter per member
                params.extend(self.record_params(arg, len(params_seen), record))
                params_seen.append(arg.name)
                continue
            params_seen.append(arg.name)
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
        self.ret_fields = None  # a struct of n equal scalars returned (the ABI's `{ i64, i32 }`): n results
        if ret_t.startswith("{"):
            self.ret_fields = returned_struct(self, ret_t)
            if self.ret_fields is None:
                raise em.error("a function returning a struct is not supported (only a struct of equal scalars, "
                               "whose members become the function's results)")
            n, t = self.ret_fields
            results = " -> (" + ", ".join([lt.SCALARS[t]] * n) + ")"
        else:
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
                vt = vector_type(str(phi.type))
                if vt is not None:  # one block argument per lane
                    lanes = [em.fresh(f"{phi.name}_{k}") for k in range(vt[0])]
                    for lane in lanes:
                        em.types[lane] = vt[1]
                    em.vectors[phi.name] = lanes
                    self.phi_args[phi.name] = (", ".join(f"{x}: {vt[1]}" for x in lanes), "vector")
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
                args = ", ".join(self.phi_args[p.name][0] if self.phi_args[p.name][1] == "vector" else
                                 f"{self.phi_args[p.name][0]}: {self.phi_args[p.name][1]}" for p in self.phis[b.name])
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
            self.swap_phi(ins)  # a swapped buffer's start (heap.py); any other phi is its block's argument
            return
        if lt.is_volatile(text):
            raise em.error("volatile accesses are not supported")
        if self.vector_op(ins, op, ops):
            return
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
            if self.null_compare(ins, ops):
                return
            if str(ops[0].type) == "ptr":
                _, a, b = self._row_positions(ops[0], ops[1], "comparing")
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
                a_p, a, b = self._row_positions(ops[1], ops[2], "selecting between")
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
            if not self.record_gep(ins):
                self.gep(ins, text, ops)
        elif op in ("load", "store") and self.record_access(ins, op, ops):
            return
        elif op == "load":
            want, p = mlir_type(str(ins.type), em), self.ptr(ops[0])
            if not self.coerced_load(ins, want, p):
                em.emit(f"{self.define(ins, want)} = memref.load {self.access(p, want)}")
        elif op == "store":
            if str(ops[0].type) == "ptr":
                raise em.error("storing a pointer is not supported")
            v, t, p = self.value(ops[0]), mlir_type(str(ops[0].type), em), self.ptr(ops[1])
            if not self.coerced_store(v, t, p):
                em.emit(f"memref.store {v}, {self.access(p, t)}")
        elif op == "alloca":
            t = lt.alloca_type(text)
            dims, scalar = t.dims()
            after = text.split("alloca", 1)[1].strip()
            rest = after[lt.parse_type(after, 0)[1]:]  # a struct of equal scalars reads as an array, but is
            # spelt by its name
            if scalar.text not in lt.SCALARS:
                raise em.error(f"a local variable of type '{t.text}' is not supported (arrays of scalars are)")
            vla = rest.startswith(", i") and len(ops) == 1 and ops[0].value_kind.name != "constant_int"
            name = em.fresh((vla and c_variable(self, ins.name)) or ins.name or "local")
            if vla:
                # a variable-length array `T v[n]`: memref.alloca(%n) : memref<?x...xT>
                count = self.value(ops[0])
                n_ix = em.fresh("vla_n")
                em.emit(f"{n_ix} = arith.index_cast {count} : {em.types[count]} to index")
                p = Ptr(name, [None, *dims], lt.SCALARS[scalar.text], [0], key=name)
                em.emit(f"{name} = memref.alloca({n_ix}) : {p.memref()}")
                em.ptrs[ins.name] = p
                return
            if not (rest == "" or rest.startswith((", align", ", !"))):
                raise em.error(f"a local variable of type '{t.text}' is not supported (arrays of scalars are)")
            p = Ptr(name, dims or [1], lt.SCALARS[scalar.text], [0], virtual=bool(dims), key=name)
            em.emit(f"{name} = memref.alloca() : {p.memref()}")
            em.ptrs[ins.name] = p
        elif op == "call":
            self.call(ins, text, ops)
        elif op == "br":
            self.branch(ins, ops)
        elif op == "ret":
            self.mirror_out()  # a parameter swapped with a scratch buffer gets its mirror back (mirrors.py)
            if ops and self.ret_fields is not None:
                vals = struct_fields(self, ops[0], *self.ret_fields)
                em.emit(f"func.return {', '.join(vals)} : {', '.join(em.types[v] for v in vals)}")
            elif ops:
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

    def external_calls(self) -> None:
        """A call of a function defined in no file loom reads (a pipeline driver calling the kernels of other
        files) is refused first, at the call, naming it -- before whatever else the missing body leaves
        unexplained (a struct parameter passed on, a buffer typed only by the callee)."""
        at = 0
        for b in self.fn.blocks:
            for ins in b.instructions:
                at += 1
                ops = list(ins.operands) if ins.opcode == "call" else []
                if not ops or ops[-1].value_kind.name != "function":
                    continue
                name = ops[-1].name
                f = self.fn.module.get_function(name)
                if not f.is_declaration or name.startswith("llvm.") or name in _KNOWN_CALLS:
                    continue
                base = name[:-1] if name not in MATH and name.endswith(("f", "l")) and name[:-1] in MATH else name
                if base not in MATH and base not in ("abs", "labs", "llabs"):
                    self.em.loc = self.em.loc_of(self.em.locs[at] if at < len(self.em.locs) else None)
                    raise self.em.error(f"call of '{name}', which is not defined in the files compiled"
                                        f"{self.near(name)} and is not a math.h function loom knows")

    def near(self, name: str) -> str:
        """`` (did you mean 'x'?)`` for a function of the module whose name is close to ``name`` (a pipeline
        driver calling `viterbi` where the kernel's file defines `viterbi_decode`), else ''."""
        import difflib

        defined = sorted(g.name for g in self.fn.module.functions if not g.is_declaration)
        close = difflib.get_close_matches(name, defined, n=3, cutoff=0.6)
        return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""

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
        target = self.fn.module.get_function(name)
        if not target.is_declaration:
            given, takes = [str(o.type) for o in ops[:-1]], [str(a.type) for a in target.arguments]
            if given != takes:  # a prototype (another file's) that is not the definition's: LLVM does not inline it
                raise em.error(f"call of '{name}' with arguments ({', '.join(given)}) that do not match its "
                               f"definition's parameters ({', '.join(takes)}): the prototype the call sees differs "
                               "from the definition (undefined in C)")
            raise em.error(f"call of '{name}' cannot be inlined (recursion is not supported)")
        if name in ("memset", "llvm.memset.p0.i64", "memcpy", "memmove", "llvm.memcpy.p0.p0.i64",
                    "llvm.memmove.p0.p0.i64"):
            self.mem_loop(ins, name, ops)
            return
        if self.heap_call(ins, name, ops):
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
            raise em.error(f"call of '{name}', which is not defined in the files compiled{self.near(name)} and is "
                           "not a math.h function loom knows")
        mop, n = MATH[base]
        if len(ops) - 1 != n:
            raise em.error(f"call of '{name}' with {len(ops) - 1} arguments")
        t = mlir_type(str(ins.type), em)
        args = ", ".join(self.value(o) for o in ops[:-1])
        em.emit(f"{self.define(ins, t)} = {mop} {args} : {t}")

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
                    elif self.phi_args[phi.name][1] == "vector":
                        lanes = self.lanes(v)
                        vals.extend(lanes)
                        types.extend(self.em.types[x] for x in self.em.vectors[phi.name])
                        break
                    else:
                        vals.append(self.value(v))
                    types.append(self.phi_args[phi.name][1])
                    break
            else:
                raise self.em.error(f"phi without a value for block {src.name}")
        return f"{label}({', '.join(vals)} : {', '.join(types)})" if vals else label

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
