"""Calls in the CF stage: math.h functions and LLVM's math intrinsics as ``math``/``arith`` ops, the calls
other parts own handed on (block copies: memops.py, the heap: heap.py), every other call refused at its
line -- the call half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``fn``, ``value``, ``define``)."""

from __future__ import annotations

from loom.frontend.c.emitter import mlir_type

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
_KNOWN_CALLS = ("malloc", "calloc", "free", "memset", "memcpy", "memmove")  # heap.py, memops.py


class CallRules:
    """The call half of ``to_cf.FunctionTranslator``: which calls are known, and each known one as ops."""

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
        """A call: ignored intrinsics, block copies, heap calls, ``abs`` and the math.h functions; any other a
        located CPL_C_UNSUPPORTED error."""
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
