"""``malloc``/``calloc`` inside a kernel as ``memref.alloc``, ``free`` as nothing (specs/frontend-c.md).

The buffer's element type and inner dimensions are read from how the kernel indexes it, as for a pointer
parameter; its element count is the byte size divided by the element's (a constant size gives a static
memref, which the DFG lowering accepts; a size from the parameters a dynamic one, which the SCF stage runs).
``calloc`` also fills it with zeros. An allocation is never null: a comparison of it with ``NULL`` folds.
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
        memref = em.fresh(c_variable(self, ins.name) or ins.name or name)
        shape_p = self.param_ptr(_Seeds(f"the {name} buffer", {("instruction", ins.name)}), memref)
        inner = shape_p.shape[1:]
        row = WIDTH[shape_p.elem]
        for d in inner:
            row *= d  # type: ignore[operator]
        sizes = ops[:-1]
        if all(o.value_kind.name == "constant_int" for o in sizes):
            nbytes = 1
            for o in sizes:
                nbytes *= int(lt.scalar_value(str(o).split()[-1], "i64"))
            if nbytes % row:
                raise em.error(f"{name} of {nbytes} bytes is not a whole number of {shape_p.elem} rows")
            p = Ptr(memref, [nbytes // row, *inner], shape_p.elem, [0], key=memref)
            em.emit(f"{memref} = memref.alloc() : {p.memref()}")
            count: int | str = nbytes // row
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
            p = Ptr(memref, [None, *inner], shape_p.elem, [0], key=memref)
            em.emit(f"{memref} = memref.alloc({count}) : {p.memref()}")
        em.types[memref] = p.memref()
        em.ptrs[ins.name] = p
        if name == "calloc":
            elems = count
            if inner:
                elems = (count * (row // WIDTH[p.elem]) if isinstance(count, int) else
                         self.index_op("muli", count, row // WIDTH[p.elem]))
            zero = em.const(0.0 if p.elem[0] == "f" else 0, p.elem)
            self.element_loop(name, p, None, zero, elems)
        return True

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
