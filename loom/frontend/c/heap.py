"""``malloc``/``calloc`` inside a kernel as ``memref.alloc``, ``free`` as nothing (specs/frontend-c.md).

The buffer's element type and inner dimensions are read from how the kernel indexes it, as for a pointer
parameter; its element count is the byte size divided by the element's (a constant size gives a static
memref, which the DFG lowering accepts; a size from the parameters a dynamic one, which the SCF stage runs).
``calloc`` also fills it with zeros. An allocation is never null: a comparison of it with ``NULL`` folds.

Two buffers a loop swaps (``tmp = cur; cur = next; next = tmp``: pointer phis whose incoming values are both
allocations) are one pointer moving between two arrays, which a memref position cannot be. When the two are
allocated side by side (one block, one callee, the same size operands) they become one ``memref.alloc`` of
twice the size, the first buffer its lower half and the second its upper half: a pointer to either is then a
position in one memref (the second starts at ``count``), and the swap a phi of that start index (a ping-pong
offset), which the pointer-phi rule already handles (``PointerRules.ptr_phi_value``).
"""

from __future__ import annotations

import re

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.pointers import Ptr
from loom.frontend.c.records import _META, _Seeds, _module_text

WIDTH = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}


class HeapRules:
    """The allocation half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``param_ptr``, ``value``, ...)."""

    def heap_call(self, ins, name: str, ops) -> bool:
        """Translate a call of ``malloc``, ``calloc`` or ``free``; False for any other callee."""
        if name == "free":
            if ops[0].value_kind.name != "constant_pointer_null":
                self.ptr(ops[0])  # a pointer loom knows (an allocation or a parameter): nothing to do
            return True
        if name not in ("malloc", "calloc"):
            return False
        em = self.em
        pairs = self.swapped_pairs()
        if ins.name in pairs.values():  # the upper half of a swapped pair: a position in the first one's memref
            first = self.em.ptrs[next(a for a, b in pairs.items() if b == ins.name)]
            em.ptrs[ins.name] = Ptr(first.base, first.shape, first.elem, [self.half[first.key]], key=first.key)
            return True
        second = pairs.get(ins.name)
        mirror = self.mirrors().get(ins.name)  # a buffer swapped with a parameter or an earlier one (mirrors.py)
        var = c_variable(self, ins.name) or ins.name or name
        if second is not None:
            var = f"{var}_{c_variable(self, second) or second}"
        memref = em.fresh(var)
        shape_p = self.param_ptr(_Seeds(f"the {name} buffer", {("instruction", ins.name)}), memref)
        inner = shape_p.shape[1:]
        row = WIDTH[shape_p.elem]
        for d in inner:
            row *= d  # type: ignore[operator]
        sizes = ops[:-1]
        count: int | str
        if all(o.value_kind.name == "constant_int" for o in sizes):
            nbytes = 1
            for o in sizes:
                nbytes *= int(lt.scalar_value(str(o).split()[-1], "i64"))
            if nbytes % row:
                raise em.error(f"{name} of {nbytes} bytes is not a whole number of {shape_p.elem} rows")
            count = nbytes // row
        else:
            idx = []
            for o in sizes:
                v = self.value(o)
                ix = em.fresh("bytes")
                em.emit(f"{ix} = arith.index_cast {v} : {em.types[v]} to index")
                em.types[ix] = "index"
                idx.append(ix)
            nb = idx[0]
            for other in idx[1:]:
                prod = em.fresh("bytes")
                em.emit(f"{prod} = arith.muli {nb}, {other} : index")
                em.types[prod] = "index"
                nb = prod
            count = self.index_op("divui", nb, row)
        total: int | str = count
        if second is not None:
            total = count * 2 if isinstance(count, int) else self.index_op("muli", count, 2)
        elif mirror is not None:
            total = self.add_index(count, self.mirror_length(mirror, shape_p))
        if isinstance(total, int):
            p = Ptr(memref, [total, *inner], shape_p.elem, [0], key=memref)
            em.emit(f"{memref} = memref.alloc() : {p.memref()}")
        else:
            p = Ptr(memref, [None, *inner], shape_p.elem, [0], key=memref)
            em.emit(f"{memref} = memref.alloc({total}) : {p.memref()}")
        self.alloc_counts[ins.name] = count
        if second is not None or mirror is not None:
            self.half[memref] = count
        em.types[memref] = p.memref()
        em.ptrs[ins.name] = p
        if name == "calloc":
            fill = total if second is not None else count  # a mirrored buffer's other part is a copy (below)
            elems = fill
            if inner:
                elems = (fill * (row // WIDTH[p.elem]) if isinstance(fill, int) else
                         self.index_op("muli", fill, row // WIDTH[p.elem]))
            zero = em.const(0.0 if p.elem[0] == "f" else 0, p.elem)
            self.element_loop(name, p, None, zero, elems)
        if mirror is not None:
            self.mirror_in(ins.name, p, count)
        return True

    def swapped_pairs(self) -> dict[str, str]:
        """{first allocation: second} for every two ``malloc``/``calloc`` results that pointer phis or selects
        mix (a buffer swap), allocated side by side: in one block, by one callee, with the same size operands."""
        cached = getattr(self, "_pairs", None)
        if cached is not None:
            return cached
        self.half: dict[str, int | str] = {}
        self.alloc_counts: dict[str, int | str] = {}  # each allocation's element count, by its LLVM name
        parent: dict[str, str] = {}

        def find(x: str) -> str:
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        allocs: dict[str, tuple] = {}
        defs = {ins.name: ins for b in self.fn.blocks for ins in b.instructions if ins.name}
        for b in self.fn.blocks:
            for ins in b.instructions:
                ops = list(ins.operands)
                if ins.opcode == "call" and str(ins.type) == "ptr" and ops[-1].value_kind.name == "function":
                    callee = ops[-1].name
                    if callee in ("malloc", "calloc"):
                        allocs[ins.name] = (b.name, callee, tuple(_value_key(o, defs) for o in ops[:-1]))
                if ins.opcode in ("phi", "select") and str(ins.type) == "ptr":
                    for o in list(ins.operands)[1 if ins.opcode == "select" else 0:]:
                        if o.value_kind.name in ("instruction", "argument") and o.name:
                            parent[find(o.name)] = find(ins.name)
        groups: dict[str, list[str]] = {}
        for a in allocs:
            groups.setdefault(find(a), []).append(a)
        self.ptr_groups: dict[str, set[str]] = {}  # every pointer a phi or select mixes, by its group's root
        for x in set(parent) | set(parent.values()):
            self.ptr_groups.setdefault(find(x), set()).add(x)
        self.allocs = allocs
        self._pairs = {}
        for members in groups.values():
            if len(members) == 2 and len({allocs[m] for m in members}) == 1:
                self._pairs[members[0]] = members[1]
        self.swap_phis = self.start_phis({a for pair in self._pairs.items() for a in pair})
        return self._pairs

    def start_phis(self, starts: set[str]) -> set[str]:
        """The pointer phis that only ever hold one of ``starts`` (a swapped pair's two starts): every incoming
        value a start or such a phi."""
        roots = {r for r, members in self.ptr_groups.items() if members & starts}
        phis = {ins.name: [o.name for o in ins.operands] for b in self.fn.blocks for ins in b.instructions
                if ins.opcode == "phi" and str(ins.type) == "ptr" and
                any(ins.name in self.ptr_groups[r] for r in roots)}
        changed = True
        while changed:
            changed = False
            for name, ins_ops in list(phis.items()):
                if any(o not in starts and o not in phis for o in ins_ops):
                    del phis[name]
                    changed = True
        return set(phis)

    def swap_phi(self, phi) -> None:
        """A phi that only holds one of a swapped pair's starts (``swapped_pairs``) is at 0 or ``count``: its
        position is ``select(ix == 0, 0, count)`` -- ``ix`` itself on every run, and a bound ``loom verify`` sees
        without a loop invariant (the carried index alone could be anything to it)."""
        self.mirrors()  # the pairs, and the buffers swapped with a parameter (mirrors.py)
        mine = self.em.ptrs.get(phi.name)
        if phi.name not in self.swap_phis or mine is None or mine.key not in self.half:
            return
        em, arg = self.em, self.phi_args[phi.name][0]
        zero, half = em.const(0, "index"), self.half[mine.key]
        half = em.const(half, "index") if isinstance(half, int) else half
        at_start, pos = em.fresh("at_start"), em.fresh(phi.name + "_pos")
        em.emit(f"{at_start} = arith.cmpi eq, {arg}, {zero} : index")
        em.emit(f"{pos} = arith.select {at_start}, {zero}, {half} : index")
        em.types[at_start], em.types[pos] = "i1", "index"
        em.ptrs[phi.name] = Ptr(mine.base, mine.shape, mine.elem, [pos], mine.virtual, mine.key)

    def null_compare(self, ins, ops) -> bool:
        """``p == NULL`` / ``p != NULL``: false / true (a memref is never null); False if not such a test."""
        nulls = [o.value_kind.name == "constant_pointer_null" for o in ops[:2]]
        if str(ops[0].type) != "ptr" or not any(nulls):
            return False
        pred = lt.predicate(str(ins))
        if pred not in ("eq", "ne"):
            raise self.em.error(f"ordering a pointer against NULL ({pred}) is not supported")
        for o, is_null in zip(ops[:2], nulls):
            if not is_null and not (o.value_kind.name == "argument" and o.name in self.records):
                self.ptr(o)
        self.em.emit(f"{self.define(ins, 'i1')} = arith.constant {'true' if pred == 'ne' else 'false'}")
        return True


def c_variable(self, value: str) -> str | None:
    """The C variable a ``malloc`` result or a VLA is (``float *hidden = malloc(...)``: ``hidden``), from the
    debug info's ``#dbg_value`` of it: the buffer's name in the SCF stage and, when the DFG gets it from the host
    (loom/lower/host_alloc.py), the DFG argument's name."""
    m = re.search(rf"#dbg_(?:value|declare)\(ptr %{re.escape(value)}, !(\d+),", str(self.fn))
    if not m:
        return None
    meta = {int(k[1]): k[2] for k in _META.finditer(_module_text(self))}
    var = re.match(r'!DILocalVariable\(name: "(\w+)"', meta.get(int(m[1]), ""))
    return var[1] if var else None



_PURE = ("add", "sub", "mul", "shl", "udiv", "sdiv", "sext", "zext", "trunc", "and", "or", "xor")


def _value_key(v, defs: dict) -> str:
    """What a size operand computes, so that two separately computed equal sizes (``(size_t)nv * 4`` twice)
    compare equal: pure integer instructions by their opcode, type and operands, anything else by identity."""
    kind = v.value_kind.name
    d = defs.get(v.name) if kind == "instruction" and v.name else None
    if d is not None and d.opcode in _PURE:
        flags = str(d).split("=", 1)[-1].split("!dbg")[0]
        head = " ".join(w for w in flags.split() if w in ("nsw", "nuw", "exact"))
        return f"{d.opcode} {head} {d.type}(" + ", ".join(_value_key(o, defs) for o in d.operands) + ")"
    if kind in ("instruction", "argument"):
        return f"%{v.name}"
    return str(v)
