"""Small LLVM vectors as separate scalars: the x86-64 ABI passes a struct of two floats as ``<2 x float>``,
so an inlined helper taking ``cmplx_t`` by value leaves vector loads, ``extractelement``,
``insertelement``, vector phis and vector stores. Each ``<n x T>`` value is n scalar SSA values: a load
or store is n element accesses, an element insert or extract at a constant position picks one. Vector
arithmetic and shuffles are not supported (loom's pipeline does not vectorise).
"""

from __future__ import annotations

import re

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.pointers import Ptr

_VECTOR = re.compile(r"^<(\d+) x (\w+)>$")


def vector_type(ltype: str) -> tuple[int, str] | None:
    """(lanes, MLIR scalar type) of an LLVM vector type, else None."""
    m = _VECTOR.match(ltype.strip())
    if not m or m[2] not in lt.SCALARS:
        return None
    return int(m[1]), lt.SCALARS[m[2]]


class VectorRules:
    """The vector half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``ptr``, ``value``, ...)."""

    def lanes(self, v) -> list[str]:
        """The scalar SSA names of vector operand ``v`` (undef/poison/zeroinitializer: zeros)."""
        em = self.em
        kind = v.value_kind.name
        if kind in ("argument", "instruction") and v.name in em.vectors:
            return em.vectors[v.name]
        vt = vector_type(str(v.type))
        if vt is None:
            raise em.error(f"the vector value '{str(v).strip()}' is not supported")
        n, t = vt
        if kind in ("undef_value", "poison_value", "constant_aggregate_zero"):
            return [em.const(0.0 if t[0] == "f" else 0, t) for _ in range(n)]
        raise em.error(f"the vector constant '{str(v).strip()}' is not supported")

    def lane_ptr(self, p: Ptr, k: int) -> Ptr:
        """The pointer to lane ``k`` of a vector access starting at ``p`` (the next elements of its row)."""
        q = p.deepened(len(p.shape) + (1 if p.virtual else 0))
        return Ptr(q.base, q.shape, q.elem, q.idx[:-1] + [self.add_index(q.idx[-1], k)], q.virtual, q.key)

    def vector_op(self, ins, op: str, ops) -> bool:
        """Translate ``ins`` if it is a vector load/store/extract/insert; False when it is not one."""
        em = self.em
        if op == "load" and vector_type(str(ins.type)):
            n, t = vector_type(str(ins.type))  # type: ignore[misc]
            p = self.ptr(ops[0])
            names = []
            for k in range(n):
                name = em.fresh(f"{ins.name or 'v'}_{k}")
                em.emit(f"{name} = memref.load {self.access(self.lane_ptr(p, k), t)}")
                em.types[name] = t
                names.append(name)
            em.vectors[ins.name] = names
            return True
        if op == "store" and vector_type(str(ops[0].type)):
            n, t = vector_type(str(ops[0].type))  # type: ignore[misc]
            vals = self.lanes(ops[0])
            p = self.ptr(ops[1])
            for k in range(n):
                em.emit(f"memref.store {vals[k]}, {self.access(self.lane_ptr(p, k), t)}")
            return True
        if op == "extractelement":
            if ops[1].value_kind.name != "constant_int":
                raise em.error("extracting a vector element at a variable position is not supported")
            em.names[ins.name] = self.lanes(ops[0])[int(lt.scalar_value(str(ops[1]).split()[-1], "i64"))]
            return True
        if op == "insertelement":
            if ops[2].value_kind.name != "constant_int":
                raise em.error("inserting a vector element at a variable position is not supported")
            vals = list(self.lanes(ops[0]))
            vals[int(lt.scalar_value(str(ops[2]).split()[-1], "i64"))] = self.value(ops[1])
            em.vectors[ins.name] = vals
            return True
        if op in ("insertvalue", "extractvalue") and _members(str(ops[0].type)) is not None:
            self.aggregate_op(ins, op, ops)
            return True
        if vector_type(str(ins.type)) or (ops and vector_type(str(ops[0].type))):
            raise em.error(f"vector '{op}' is not supported")
        return False

    def aggregate_op(self, ins, op: str, ops) -> None:
        """``insertvalue``/``extractvalue`` on the ABI's literal structs of scalars and small vectors (a struct
        of three floats returned by an inlined helper is ``{ <2 x float>, float }``): each member is its own
        value (a vector: its lanes), so the struct never exists."""
        em = self.em
        members = _members(str(ops[0].type))
        at = re.search(r", (\d+)\s*(?:,\s*!|$)", str(ins).strip())
        if members is None or at is None:
            raise em.error(f"'{op}' on this struct value is not supported")
        k = int(at[1])
        src = ops[0]
        if src.value_kind.name in ("argument", "instruction") and src.name in em.aggregates:
            parts = list(em.aggregates[src.name])
        elif src.value_kind.name in ("undef_value", "poison_value", "constant_aggregate_zero"):
            parts = [None] * len(members)
        else:
            raise em.error(f"the struct value '{str(src).strip()}' is not supported")
        if op == "insertvalue":
            parts[k] = self.lanes(ops[1]) if vector_type(members[k]) else self.value(ops[1])
            em.aggregates[ins.name] = parts
            return
        part, t = parts[k], members[k]
        vt = vector_type(t)
        if part is None:  # never inserted: any value refines it (LLVM's poison), zeros here
            part = ([em.const(0.0 if vt[1][0] == "f" else 0, vt[1]) for _ in range(vt[0])] if vt else
                    em.const(0.0 if lt.SCALARS[t][0] == "f" else 0, lt.SCALARS[t]))
        if vt:
            em.vectors[ins.name] = part  # type: ignore[assignment]
        else:
            em.names[ins.name] = part  # type: ignore[assignment]


def _members(ltype: str) -> list[str] | None:
    """The member types of a literal struct of scalars and small vectors (``{ <2 x float>, float }``)."""
    m = re.fullmatch(r"\{ (.*) \}", ltype.strip())
    if not m:
        return None
    parts = [p.strip() for p in re.split(r",(?![^<]*>)", m[1])]
    ok = all(p in lt.SCALARS and p != "i1" or vector_type(p) for p in parts)
    return parts if ok else None
