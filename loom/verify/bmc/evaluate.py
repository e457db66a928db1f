"""Evaluating table expressions on a state: concrete when every leaf is, else a Z3 term or a fresh symbol."""

from __future__ import annotations

from typing import Any, Optional

import z3

from loom.ir.core import BlockArgument
from loom.ir.types import NoneType, Type
from loom.semantics.expr import TOKEN, Apply, Expr, registers_read
from loom.semantics.functions import MEMORY_DIM, compile_expr
from loom.verify.bmc.network import Actor, CRule
from loom.verify.bmc.values import OPAQUE, Opaque, concrete
from loom.verify.z3model import UnsupportedExpr, const_term, sort_of


class Evaluation:
    """The explorer's values: guards and emitted/updated values of a firing, terms cached by identity."""

    def _dim(self, a: Actor, e: Apply, heads: list, regs: dict[str, Any]) -> Any:
        """``mem.dim``: the size of a memref argument's dimension, one non-negative symbol per run."""
        index = {p.name: i for i, p in enumerate(a.machine.inputs)}
        k = compile_expr(e.args[0], index)(heads, regs, None) if not registers_read(e) else None
        mem = a.op.operands[0]
        key = (self.arg_names[mem.index] if isinstance(mem, BlockArgument) else self.names.get(mem, "?"), k)
        c = self.dims.get(key)
        if c is None:
            c = z3.BitVec(f"dim:{key[0]}:{k}", 64)
            self.dims[key] = c
            self.solver.pop(self.solver.num_scopes())
            self.solver_path.clear()
            self.solver.add(c >= 0)  # sizes are never negative (base level: holds on every path)
        return c

    def _symbolic(self, a: Actor, e: Expr, leaves: tuple, heads: list, regs: dict[str, Any],
                  t: Optional[Type], guard: bool) -> Any:
        """``e`` as a Z3 term over the (possibly symbolic) leaves: a guard as a Boolean, a value as a
        number when constant."""
        index = a.port_index
        zh = {p: self._z3(heads[index[p]], a.encoder.port_types[p]) for p in leaves[0]}
        zr = {r: self._z3(regs[r], a.encoder.reg_types[r]) for r in leaves[1]}
        if guard:
            g = z3.simplify(a.encoder.guard(e, zh, zr))
            return True if z3.is_true(g) else False if z3.is_false(g) else g
        term = z3.simplify(a.encoder.encode(e, zh, zr, t))
        return term.as_long() if z3.is_bv_value(term) else term

    def _eval(self, a: Actor, e: Expr, leaves: tuple, fast, heads: list, regs: dict[str, Any],
              t: Optional[Type]) -> Any:
        """Concrete value when every leaf is concrete, a Z3 term otherwise, fresh when data is opaque."""
        vals = [heads[a.port_index[p]] for p in leaves[0]] + [regs[r] for r in leaves[1]]
        if fast is not None and not any(isinstance(x, (z3.ExprRef, Opaque)) for x in vals):
            return fast(heads, regs, None)
        if isinstance(e, Apply) and e.fn == MEMORY_DIM and not any(isinstance(x, z3.ExprRef) for x in vals):
            return self._dim(a, e, heads, regs)
        if fast is None or any(x is OPAQUE for x in vals):
            if t is None or isinstance(t, NoneType):
                return TOKEN if isinstance(t, NoneType) else OPAQUE
            try:
                return self.fresh("data", sort_of(t))
            except UnsupportedExpr:
                return OPAQUE
        return self._symbolic(a, e, leaves, heads, regs, t, False)

    def _z3(self, v: Any, t: Type) -> z3.ExprRef:
        """``v`` as a Z3 term of type ``t`` (constants made once per value and type)."""
        if isinstance(v, z3.ExprRef):
            return v
        key = (repr(v), str(t))  # repr keeps -0.0 and 0.0 (and 1 and True) apart
        c = self._consts.get(key)
        if c is None:
            c = self._consts[key] = const_term(v, t)
        return c

    def _guard(self, a: Actor, cr: CRule, heads: list, regs: dict[str, Any]) -> Any:
        """Rule ``cr``'s guard on these inputs: a bool when concrete, a Z3 term (cached per leaf terms) when not."""
        if cr.guard is None:
            return True
        if concrete(heads, cr.gports, regs, cr.gleaves[1]):
            return bool(cr.gfast(heads, regs, None))
        vals = [heads[i] for i in cr.gports] + [regs[r] for r in cr.gleaves[1]]
        sym = False
        for x in vals:
            if x is OPAQUE:
                return self.fresh("choice", z3.BoolSort())  # an opaque guard input: both outcomes possible
            if isinstance(x, z3.ExprRef):
                sym = True
        if not sym:
            return bool(cr.gfast(heads, regs, None))
        key = (id(cr),) + tuple(self._zid(x) if isinstance(x, z3.ExprRef) else repr(x) for x in vals)
        hit = self._guards.get(key)
        if hit is not None:
            return hit[0]
        out = self._symbolic(a, cr.guard, cr.gleaves, heads, regs, None, True)
        self._guards[key] = (out, vals)  # keeps the leaf terms alive (Z3 recycles ids)
        return out

    def _zid(self, x: z3.ExprRef) -> int:
        """``x.get_id()``, remembered per Python object (the entry keeps it alive, so its id is not reused):
        tokens are passed on as the same objects, and guards look their ids up at every firing."""
        hit = self._zids.get(id(x))
        if hit is None or hit[0] is not x:
            hit = self._zids[id(x)] = (x, x.get_id())
        return hit[1]
