"""The refinement check's obligations as reported: proved/refuted/unknown entries and a refutation's
counterexample (arguments, memory, the values shown) (``loom.verify.refine.check``)."""

from __future__ import annotations

import time

import z3

from loom.ir.types import MemRefType
from loom.verify.lengths.values import symbol
from loom.verify.obligation import Obligation
from loom.verify.refine.model import dim_term
from loom.verify.refine.pairs import KIND, MAX_CELL, _RULE, _fmt


class RefinementEvidence:
    """``emit`` and the counterexample of a refuted query, for ``Refinement``."""

    def emit(self, oid: str, goal_facts: list[z3.BoolRef], goal: z3.BoolRef, loc, what: str,
             show: dict[str, tuple]) -> None:
        t0 = time.perf_counter()
        r = self.prove(goal_facts, goal)
        secs = time.perf_counter() - t0
        if r.status == "unsat":
            self.obligations.append(Obligation(oid, KIND, "proved", secs, what, None, loc, r.smt2 or None,
                                               method=r.method, rule=_RULE if r.trivial else ""))
            return
        if r.status != "sat":
            self.obligations.append(Obligation(oid, KIND, "unknown", secs, f"{what}: solver gave up ({r.reason})",
                                               None, loc, r.smt2 or None))
            return
        cex = self.counterexample(r.model, goal_facts, show)
        shown = ", ".join(f"{k}: {v}" for k, v in cex["terms"].items())
        vals = ", ".join(f"{k} = {v}" for k, v in list(cex["values"].items())[:8])
        detail = f"NOT {what}: {shown}" + (f" when {vals}" if vals else "")
        self.obligations.append(Obligation(oid, KIND, "refuted", secs, detail, cex, loc, r.smt2 or None,
                                           nature="behaviour"))

    def counterexample(self, model, facts, show: dict[str, tuple]) -> dict:
        terms = {}
        for label, (term,) in show.items():
            try:
                terms[label] = _fmt(model.eval(term, model_completion=True))
            except z3.Z3Exception:
                terms[label] = "?"
        names: set[str] = set()
        for t in [*facts, *[t for (t,) in show.values()]]:
            names |= self.constants(t)
        values = {}
        for d in model.decls() if model is not None else []:
            n = d.name()
            if n in names and n in self.labels and d.arity() == 0:
                v = model[d]
                if z3.is_bv_value(v) or z3.is_true(v) or z3.is_false(v):  # not the solver's names of floats
                    values[self.labels[n]] = _fmt(v)
        return {"terms": terms, "values": dict(sorted(values.items())), "arguments": self.arguments(model),
                **self.memory(model, names)}

    def memory(self, model, names: set[str]) -> dict:
        """``{"memory": {arg: [cell, ...]}}``: the cells of memref arguments the witness reads -- every source
        load whose value symbol the query mentions, ``{"address", "value"}`` (the linear offset into the
        argument and the value read, both from the model) -- and writes (every source store, ``{"address"}``),
        so the replay can size the buffers and fill them so those loads read the witness's values; {} when
        the witness names no cell (float loads are uninterpreted: their values are no numbers)."""
        from loom.verify.refine.model import load_symbol

        out: dict[str, list[dict]] = {}
        if model is None:
            return {}
        for ev in self.scf.events:
            if ev.kind not in ("load", "store") or ev.addr is None or not ev.root.startswith("arg:"):
                continue
            addr = model.eval(ev.addr, model_completion=True)
            if not z3.is_bv_value(addr) or addr.as_long() >= MAX_CELL:
                continue
            cell: dict = {"address": addr.as_long()}
            if ev.kind == "load":
                sym = load_symbol(self.values, ev.key, ev.op.results[0].type)
                if sym.decl().name() not in names:
                    continue
                v = model.eval(sym, model_completion=True)
                if z3.is_bv_value(v):
                    cell["value"] = v.as_signed_long()
                elif z3.is_true(v) or z3.is_false(v):
                    cell["value"] = int(z3.is_true(v))
                else:
                    continue
                cell["load"] = f"{ev.key.line}:{ev.key.col}"
            cells = out.setdefault(ev.root[len("arg:"):], [])
            if cell not in cells:
                cells.append(cell)
        return {"memory": out} if out else {}

    def arguments(self, model) -> dict:
        """The function arguments the counterexample picks: scalars, and memref sizes as ``name.dimK``
        (the shape of ``loom sim`` inputs that replay it)."""
        out: dict = {}
        if model is None:
            return out
        from loom.runtime import function_arg_names

        for a, n in zip(self.scf.func.regions[0].entry.args, function_arg_names(self.scf.func)):
            if isinstance(a.type, MemRefType):
                for k in range(a.type.rank):
                    if a.type.shape[k] is None:
                        v = model.eval(dim_term(self.values, f"arg:{n}", a.type, k), model_completion=True)
                        if z3.is_bv_value(v):
                            out[f"{n}.dim{k}"] = v.as_signed_long()
                continue
            v = model.eval(z3.Const(symbol(f"arg:{n}"), self.values.sort(a.type)), model_completion=True)
            if z3.is_bv_value(v):
                out[n] = v.as_signed_long()
            elif z3.is_true(v) or z3.is_false(v):
                out[n] = int(z3.is_true(v))
        return out

    def unknown(self, oid: str, why: str, loc) -> None:
        self.obligations.append(Obligation(oid, KIND, "unknown", 0.0, why, None, loc, method="none"))
