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

import re

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.calls import CallRules
from loom.frontend.c.control import ControlRules
from loom.frontend.c.emitter import _NAME, UNSUPPORTED, Emitter, Global, float_literal, mlir_type
from loom.frontend.c.heap import HeapRules, c_variable
from loom.frontend.c.mirrors import MirrorRules
from loom.frontend.c.memops import BlockCopies
from loom.frontend.c.pointers import PointerRules, Ptr
from loom.frontend.c.records import Record, RecordRules
from loom.frontend.c.scalars import CASTS, FLOAT_BINOPS, INT_BINOPS, ScalarRules
from loom.frontend.c.vectors import VectorRules, returned_struct

__all__ = ["UNSUPPORTED", "Emitter", "FunctionTranslator", "Global", "float_literal", "global_text", "mlir_type",
           "translate_globals"]


class FunctionTranslator(ScalarRules, CallRules, ControlRules, PointerRules, RecordRules, HeapRules, MirrorRules,
                         BlockCopies, VectorRules):
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
        """The function's ``func.func`` text: its signature, its blocks' arguments (the phis), then its blocks."""
        em, fn = self.em, self.fn
        em.loc = em.loc_of(em.locs[0] if em.locs else None)
        if fn.global_value_type.is_function_vararg:
            raise em.error(f"'{fn.name}' takes a variable argument list (varargs are not supported)")
        self.external_calls()
        params = self.param_list()
        results = self.result_type()
        blocks = list(fn.blocks)
        self.block_arguments(blocks)
        body = self.block_lines(blocks)
        em.loc = em.loc_of(em.locs[0] if em.locs else None)
        return (f"  func.func @{self.name}({', '.join(params)}){results} {{\n" + "\n".join(body)
                + f"\n  }}{em.loc_text()}\n")

    def param_list(self) -> list[str]:
        """The parameters (``%name: type``): a scalar as itself, a pointer as a memref, a pointer to a struct
        with pointer members as one parameter per member (records.py)."""
        em = self.em
        params: list[str] = []
        params_seen: list[str] = []
        for arg in self.fn.arguments:
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
        return params

    def result_type(self) -> str:
        """The signature's `` -> T`` (or ``-> (T, ...)`` for a struct of equal scalars, kept in ``ret_fields``)."""
        em = self.em
        ret_t = str(self.fn.global_value_type.get_function_return()).strip()
        if ret_t == "ptr":
            raise em.error("a function returning a pointer is not supported")
        self.ret_fields = None  # a struct of n equal scalars returned (the ABI's `{ i64, i32 }`): n results
        if ret_t.startswith("{"):
            self.ret_fields = returned_struct(self, ret_t)
            if self.ret_fields is None:
                raise em.error("a function returning a struct is not supported (only a struct of equal scalars, "
                               "whose members become the function's results)")
            n, t = self.ret_fields
            return " -> (" + ", ".join([lt.SCALARS[t]] * n) + ")"
        return "" if ret_t == "void" else f" -> {mlir_type(ret_t, em)}"

    # ------------------------------------------------------------------ instructions
    def define(self, ins, mtype: str) -> str:
        """A fresh SSA name for ``ins``'s result, of type ``mtype`` (LLVM's nameless ``%i3`` becomes ``%t3``)."""
        hint = ins.name or "v"
        if re.fullmatch(r"i\d*", hint):  # a name LLVM's instruction namer gave a nameless value: not C's `i`
            hint = "t" + hint[1:]
        name = self.em.fresh(hint)
        self.em.names[ins.name] = name
        self.em.types[name] = mtype
        return name

    def instruction(self, ins) -> None:
        """One LLVM instruction as ops of the current block, by its family (each a method of its own)."""
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
        if op in INT_BINOPS or op in FLOAT_BINOPS or op == "fneg":
            self.arith(ins, op, ops)
        elif op in ("icmp", "fcmp"):
            self.compare(ins, op, text, ops)
        elif op in CASTS or op == "freeze":
            self.cast(ins, op, ops)
        elif op == "select":
            self.select(ins, ops)
        elif op in ("getelementptr", "load", "store"):
            self.memory_access(ins, op, text, ops)
        elif op == "alloca":
            self.alloca(ins, text, ops)
        elif op == "call":
            self.call(ins, text, ops)
        elif op == "br":
            self.branch(ins, ops)
        elif op == "ret":
            self.ret(ops)
        else:
            raise self.refusal(op)

    def memory_access(self, ins, op: str, text: str, ops) -> None:
        """A GEP (a record member's or a pointer's position), a load or a store (as ``memref.load``/``store``)."""
        em = self.em
        if op == "getelementptr":
            if not self.record_gep(ins):
                self.gep(ins, text, ops)
            return
        if self.record_access(ins, op, ops):
            return
        if op == "load":
            want, p = mlir_type(str(ins.type), em), self.ptr(ops[0])
            if not self.coerced_load(ins, want, p):
                em.emit(f"{self.define(ins, want)} = memref.load {self.access(p, want)}")
            return
        if str(ops[0].type) == "ptr":
            raise em.error("storing a pointer is not supported")
        v, t, p = self.value(ops[0]), mlir_type(str(ops[0].type), em), self.ptr(ops[1])
        if not self.coerced_store(v, t, p):
            em.emit(f"memref.store {v}, {self.access(p, t)}")

    def alloca(self, ins, text: str, ops) -> None:
        """A local variable: ``memref.alloca`` of its array (or one element), a VLA's with its length."""
        em = self.em
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

    def refusal(self, op: str):
        """The CPL_C_UNSUPPORTED error of an instruction no rule translates, saying why where it is known."""
        em = self.em
        if op == "unreachable":
            return em.error("control reaches an 'unreachable' point (a noreturn call or __builtin_unreachable)")
        if op in ("ptrtoint", "inttoptr", "bitcast", "addrspacecast"):
            return em.error(f"casts between pointers and integers ({op}) are not supported")
        if op in ("extractvalue", "insertvalue"):
            return em.error("struct values are not supported")
        if op in ("indirectbr", "callbr"):
            return em.error("computed goto and asm goto are not supported")
        return em.error(f"the LLVM instruction '{op}' is not supported")

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
