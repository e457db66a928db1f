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
    """The vector half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``ptr``, ``value``, ...), with the
    ABI's coerced struct values (wide integer loads and stores of a row of narrower ones, struct results)."""

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

    def coerced_load(self, ins, want: str, p: Ptr) -> bool:
        """An integer load wider than the integers of its row (the ABI passes a struct of three ``i32`` as an
        ``i64`` and an ``i32``): the next elements loaded and joined, the first in the low bits; False when the
        load is not one."""
        em = self.em
        wide, narrow = _INT_BITS.get(want), _INT_BITS.get(p.elem)
        if wide is None or narrow is None or wide <= narrow or wide % narrow:
            return False
        acc = None
        for k in range(wide // narrow):
            part = em.fresh(f"{ins.name or 'v'}_{k}")
            em.emit(f"{part} = memref.load {self.access(self.lane_ptr(p, k), p.elem)}")
            ext = em.fresh("wide")
            em.emit(f"{ext} = arith.extui {part} : {p.elem} to {want}")
            em.types[part], em.types[ext] = p.elem, want
            if k:
                shifted = em.fresh("wide")
                em.emit(f"{shifted} = arith.shli {ext}, {em.const(k * narrow, want)} : {want}")
                joined = em.fresh("wide")
                em.emit(f"{joined} = arith.ori {acc}, {shifted} : {want}")
                em.types[shifted], em.types[joined] = want, want
                ext = joined
            acc = ext
        em.names[ins.name] = acc
        return True

    def coerced_store(self, v: str, want: str, p: Ptr) -> bool:
        """An integer store wider than the integers of its row (a returned ``{ i64, i32 }`` stored into a struct
        of three ``i32``): split into the next elements, the low bits first; False when the store is not one."""
        em = self.em
        wide, narrow = _INT_BITS.get(want), _INT_BITS.get(p.elem)
        if wide is None or narrow is None or wide <= narrow or wide % narrow:
            return False
        for k in range(wide // narrow):
            part = v
            if k:
                part = em.fresh("part")
                em.emit(f"{part} = arith.shrui {v}, {em.const(k * narrow, want)} : {want}")
                em.types[part] = want
            low = em.fresh("part")
            em.emit(f"{low} = arith.trunci {part} : {want} to {p.elem}")
            em.types[low] = p.elem
            em.emit(f"memref.store {low}, {self.access(self.lane_ptr(p, k), p.elem)}")
        return True

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


_INT_BITS = {"i8": 8, "i16": 16, "i32": 32, "i64": 64}
_WIDTH = {"i8": 8, "i16": 16, "i32": 32, "i64": 64, "float": 32, "double": 64}


def returned_struct(self, ret_t: str) -> tuple[int, str] | None:
    """The C struct a function returns as the ABI's literal struct (``point_t`` as ``{ i64, i32 }``), when it is
    one of equal scalars: (how many, the scalar's LLVM type), read from the debug info's return type; else None."""
    if _members(ret_t) is None:
        return None
    from loom.frontend.c.records import _META, _module_text

    sub = re.search(r"!dbg !(\d+) \{", str(self.fn))
    meta = {int(m[1]): m[2] for m in _META.finditer(_module_text(self))}
    node = meta.get(int(sub[1]), "") if sub else ""
    for pattern in (r"type: !(\d+)", r"types: !(\d+)", r"!\{!(\d+)"):
        m = re.search(pattern, node)
        node = meta.get(int(m[1]), "") if m else ""
    name = re.search(r'name: "(\w+)"', node)
    fields = lt.STRUCT_ARRAYS.get(f"%struct.{name[1]}") if name else None
    if fields is None or lt.SCALARS.get(fields[1], "")[:1] not in ("i", "f"):
        return None
    return fields if _bits(ret_t) >= fields[0] * _WIDTH[fields[1]] else None


def _bits(ret_t: str) -> int:
    """How many bits the members of a literal struct of scalars and small vectors hold."""
    total = 0
    for t in _members(ret_t) or []:
        m = re.fullmatch(r"<(\d+) x (\w+)>", t)
        total += int(m[1]) * _WIDTH.get(m[2], 0) if m else _WIDTH.get(t, 0)
    return total


def struct_fields(self, v, n: int, t: str) -> list[str]:
    """The n fields of type ``t`` that returned literal struct ``v`` carries: vector lanes and scalars as they
    are, an integer member holding several narrower fields (``i64`` = two ``i32``) split by shifts."""
    em = self.em
    if not (v.value_kind.name == "instruction" and v.name in em.aggregates):
        raise em.error(f"returning the struct value '{str(v).strip()}' is not supported")
    want = lt.SCALARS[t]
    out: list[str] = []
    for part, mt in zip(em.aggregates[v.name], _members(str(v.type)) or []):
        if part is None:
            part = [em.const(0.0 if want[0] == "f" else 0, want)] * (_WIDTH[mt] // _WIDTH[t] if mt in _WIDTH else 1)
        if isinstance(part, list):
            out += part
        elif mt == t:
            out.append(part)
        else:  # an integer member packing narrower integer fields, the first in its low bits
            src = lt.SCALARS[mt]
            for k in range(_WIDTH[mt] // _WIDTH[t]):
                shifted = part
                if k:
                    amount = em.const(k * _WIDTH[t], src)
                    shifted = em.fresh("field")
                    em.emit(f"{shifted} = arith.shrui {part}, {amount} : {src}")
                    em.types[shifted] = src
                field = em.fresh("field")
                em.emit(f"{field} = arith.trunci {shifted} : {src} to {want}")
                em.types[field] = want
                out.append(field)
    if len(out) < n:
        raise em.error("the returned struct's fields could not be read from its ABI form")
    return out[:n]
