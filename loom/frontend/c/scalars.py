"""Scalar instructions in the CF stage: integer and float arithmetic, comparisons, casts and selects as
``arith`` ops of the same semantics -- the scalar half of ``to_cf.FunctionTranslator`` (it provides ``em``,
``value``, ``define``, ``_row_positions``)."""

from __future__ import annotations

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.emitter import mlir_type
from loom.frontend.c.pointers import Ptr

INT_BINOPS = {"add": "addi", "sub": "subi", "mul": "muli", "sdiv": "divsi", "udiv": "divui", "srem": "remsi",
              "urem": "remui", "shl": "shli", "lshr": "shrui", "ashr": "shrsi", "and": "andi", "or": "ori",
              "xor": "xori"}
FLOAT_BINOPS = {"fadd": "addf", "fsub": "subf", "fmul": "mulf", "fdiv": "divf", "frem": "remf"}
CASTS = {"sext": "extsi", "zext": "extui", "trunc": "trunci", "sitofp": "sitofp", "uitofp": "uitofp",
         "fptosi": "fptosi", "fptoui": "fptoui", "fpext": "extf", "fptrunc": "truncf"}


class ScalarRules:
    """The scalar half of ``to_cf.FunctionTranslator``: one ``arith`` op per LLVM scalar instruction."""

    def arith(self, ins, op: str, ops) -> None:
        """A binary integer/float operation or ``fneg``: the ``arith`` op of the same semantics."""
        em = self.em
        t = mlir_type(str(ins.type), em)
        if op == "fneg":
            a = self.value(ops[0])
            em.emit(f"{self.define(ins, t)} = arith.negf {a} : {t}")
            return
        a, b = self.value(ops[0]), self.value(ops[1])
        mop = INT_BINOPS.get(op) or FLOAT_BINOPS[op]
        em.emit(f"{self.define(ins, t)} = arith.{mop} {a}, {b} : {t}")

    def compare(self, ins, op: str, text: str, ops) -> None:
        """``icmp``/``fcmp``: a NULL test (heap.py), two positions in one row, or ``arith.cmpi``/``cmpf``."""
        em = self.em
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

    def cast(self, ins, op: str, ops) -> None:
        """A width or int/float cast as its ``arith`` cast; ``freeze`` names its operand again."""
        em = self.em
        if op == "freeze":
            em.names[ins.name] = self.value(ops[0])
            return
        src = mlir_type(str(ops[0].type), em)
        dst = mlir_type(str(ins.type), em)
        a = self.value(ops[0])
        em.emit(f"{self.define(ins, dst)} = arith.{CASTS[op]} {a} : {src} to {dst}")

    def select(self, ins, ops) -> None:
        """``select``: of scalars an ``arith.select``; of two pointers into one row, a select of the index."""
        em = self.em
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
