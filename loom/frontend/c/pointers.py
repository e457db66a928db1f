"""Pointers as memref positions: a pointer is never a value but a memref plus one index per dimension.

The rules (specs/frontend-c.md, "Pointers" and "Moving pointers"): a parameter's memref from the array type
its GEPs index and its declared bound, a GEP chain as indices (the first index offsets the current last
one, each further index selects the next dimension; exact by the C type or an error), a pointer phi,
select or compare within one array as index arithmetic, constant GEPs into const tables as constant
indices.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from loom.frontend.c import llvm_text as lt

COPIES = ("memcpy", "memmove", "llvm.memcpy.", "llvm.memmove.")  # calls whose two pointers share a type


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


class PointerRules:
    """The pointer half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``fn``, ``value``, ...)."""

    def _row_positions(self, x, y, doing: str) -> tuple[Ptr, str, str]:
        """Pointers ``x`` and ``y`` into one row: ``x`` at the depth of both, and the position of each in that
        row (its last index) as an ``index`` value -- what comparing or selecting between them means."""
        a_p, b_p = self.ptr(x), self.ptr(y)
        depth = max(len(a_p.idx), len(b_p.idx))
        a_p, b_p = a_p.deepened(depth), b_p.deepened(depth)
        if not a_p.same_object(b_p):
            raise self.em.error(f"{doing} pointers into different arrays or rows is not supported")
        a, b = (self.em.const(i, "index") if isinstance(i, int) else i for i in (a_p.idx[-1], b_p.idx[-1]))
        return a_p, a, b

    def ptr(self, v) -> Ptr:
        kind = v.value_kind.name
        if kind in ("argument", "instruction") and v.name in self.em.ptrs:
            mirror = self.mirrored(v.name)  # a buffer swapped with a scratch buffer, past its copy-in (mirrors.py)
            return self.em.ptrs[v.name] if mirror is None else mirror
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
        same = set(getattr(arg, "seeds", None) or {("argument", arg.name)})

        def key(v) -> tuple[str, str]:
            return (v.value_kind.name, v.name)

        def flows(ptrs: set) -> set:
            """``ptrs`` and the pointer phis and selects they flow into unchanged."""
            ptrs = set(ptrs)
            changed = True
            while changed:
                changed = False
                for b in self.fn.blocks:
                    for ins in b.instructions:
                        if ins.opcode in ("phi", "select") and str(ins.type) == "ptr" and \
                                ("instruction", ins.name) not in ptrs and any(key(o) in ptrs for o in ins.operands):
                            ptrs.add(("instruction", ins.name))
                            changed = True
            return ptrs

        same = flows(same)
        def uses_of(ptrs: set) -> None:
            """The GEP source types and the scalar types loaded or stored through any pointer of ``ptrs``."""
            for b in self.fn.blocks:
                for ins in b.instructions:
                    ops = list(ins.operands)
                    if ins.opcode == "getelementptr" and ops and key(ops[0]) in ptrs:
                        geps.add(lt.gep_source_type(str(ins)).text)
                    elif ins.opcode == "load" and key(ops[0]) in ptrs:
                        scalars.add(str(ins.type))
                    elif ins.opcode == "store" and key(ops[1]) in ptrs:
                        scalars.add(str(ops[0].type))

        uses_of(same)
        if not geps and not scalars:  # only copied (`memcpy(buf, trace, ...)`): typed as the other side is
            partners = set()
            for b in self.fn.blocks:
                for ins in b.instructions:
                    ops = list(ins.operands)
                    if ins.opcode == "call" and ops[-1].name.startswith(COPIES) and len(ops) >= 3:
                        ends = [key(ops[0]), key(ops[1])]
                        if ends[0] in same or ends[1] in same:
                            partners.update(e for e in ends if e not in same)
            uses_of(flows(partners))  # a scratch buffer copied into and then swapped (`src` of pagerank_spmv)
        if len(geps) > 1 and "i8" in geps:
            geps.discard("i8")  # byte offsets (a field of a struct) say nothing about the array's shape
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

    def gep(self, ins, text: str, ops) -> None:
        if len(ops) == 3 and lt.gep_source_name(text) in lt.ARRAY_MEMBER_STRUCTS and \
                ops[2].value_kind.name == "constant_int" and int(str(ops[2]).split()[-1]) == 0:
            ops = ops[:2]  # `&s->m` of `struct { T m[n]; }`: the member is the whole struct, at the same place
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
        if src.text == "i8" and base.elem != "i8" and len(ops) == 2 and ops[1].value_kind.name == "constant_int":
            self.em.ptrs[ins.name] = self.byte_offset(base, int(lt.scalar_value(str(ops[1]).split()[-1], "i64")))
            return
        if dims != expect or lt.SCALARS[scalar.text] != base.elem:
            raise self.em.error(f"pointer arithmetic in units of '{src.text}' on an array of "
                                f"{base.memref()} cannot be turned into indices exactly")
        idx = list(base.idx)
        idx[-1] = self.add_index(idx[-1], self.index(ops[1]))
        for o in ops[2:]:
            idx.append(self.index(o))
        self.em.ptrs[ins.name] = Ptr(base.base, base.shape, base.elem, idx, base.virtual, base.key)

    def byte_offset(self, base: Ptr, nbytes: int) -> Ptr:
        """``base`` moved by a constant number of bytes (LLVM's canonical ``gep i8`` for a field of a struct
        of equal scalars or an element a few places on): whole elements, staying inside the row when the
        innermost dimension is static."""
        width = {"i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}.get(base.elem, 1)
        if nbytes % width:
            raise self.em.error(f"a pointer {nbytes} bytes into an array of {base.elem} points into the middle "
                                "of an element")
        k = nbytes // width
        full = base.deepened(len(base.shape) + (1 if base.virtual else 0))
        last, inner = full.idx[-1], full.shape[-1]
        rows_fixed = len(full.shape) > 1 or full.virtual
        if rows_fixed and not (isinstance(last, int) and inner is not None and 0 <= last + k < inner):
            if k != 0:
                raise self.em.error(f"a pointer {nbytes} bytes on in {base.memref()} may leave its row: not "
                                    "turned into indices")
        return Ptr(full.base, full.shape, full.elem, full.idx[:-1] + [self.add_index(last, k)], full.virtual,
                   full.key)

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
