"""``memset``, ``memcpy`` and ``memmove`` as CF loops over the elements (specs/frontend-c.md)."""

from __future__ import annotations

from loom.frontend.c import llvm_text as lt
from loom.frontend.c.pointers import Ptr


class BlockCopies:
    """The block-copy half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``ptr``, ``value``, ...)."""

    def flat_indices(self, p: Ptr, k: str) -> list[str]:
        """The memref indices of the element ``k`` elements after the one ``p`` points to (row-major, the
        pointer's last index absorbing whole sub-arrays), as index SSA names."""
        em = self.em
        fixed = list(p.idx[1:] if p.virtual else p.idx)
        rest = list(p.shape[len(fixed):])
        if any(d is None for d in rest):
            raise em.error("a block copy or fill over an array with a dynamic inner dimension is not supported")
        size = 1
        for d in rest:
            size *= d  # type: ignore[operator]
        names: list[str] = []
        if fixed:
            outer = k
            if rest:
                outer = self.index_op("divui", k, size)
            last = self.add_index(fixed[-1], outer)
            fixed[-1] = last
        elif p.virtual and p.idx[0] != 0:
            raise em.error("pointer arithmetic past a local or global array is not supported")
        inner: list[int | str] = []
        rem = k
        for n, d in enumerate(rest):
            below = 1
            for e in rest[n + 1:]:
                below *= e  # type: ignore[operator]
            q = self.index_op("divui", rem, below) if below != 1 else rem
            inner.append(self.index_op("remui", q, d) if (fixed or n > 0) else q)
        for i in fixed + inner:
            names.append(em.const(i, "index") if isinstance(i, int) else i)
        return names

    def index_op(self, op: str, a: int | str, b: int) -> str:
        em = self.em
        a_s = em.const(a, "index") if isinstance(a, int) else a
        out = em.fresh("ix")
        em.emit(f"{out} = arith.{op} {a_s}, {em.const(b, 'index')} : index")
        em.types[out] = "index"
        return out

    def mem_loop(self, ins, name: str, ops) -> None:
        """``memset``/``memcpy``/``memmove`` as a CF loop over the elements (a fill of zero bytes, or of any
        byte into ``char`` arrays; a copy between arrays of one element type, forwards, or backwards for a
        memmove whose target may lie after its source)."""
        em = self.em
        fill = "memset" in name
        dst = self.ptr(ops[0])
        src = None if fill else self.ptr(ops[1])
        if src is not None and src.elem != dst.elem:
            raise em.error(f"{name} between arrays of {src.elem} and {dst.elem} is not supported")
        width = {"i1": 1, "i8": 1, "i16": 2, "i32": 4, "i64": 8, "f32": 4, "f64": 8}[dst.elem]
        value = None
        if fill:
            if ops[1].value_kind.name != "constant_int":
                byte = self.value(ops[1])
                if dst.elem != "i8":
                    raise em.error("memset of a non-char array with a variable byte is not supported")
                src_t = em.types[byte]
                value = em.fresh("fill")
                em.emit(f"{value} = arith.trunci {byte} : {src_t} to i8" if src_t != "i8" else
                        f"{value} = arith.addi {byte}, {em.const(0, 'i8')} : i8")
            else:
                b = lt.scalar_value(str(ops[1]).split()[-1], "i32") & 0xFF
                if b == 0:
                    value = em.const(0.0 if dst.elem[0] == "f" else 0, dst.elem)
                elif dst.elem in ("i8",) or (b == 0xFF and dst.elem[0] == "i"):
                    value = em.const(-1 if b == 0xFF else b, dst.elem)
                else:
                    raise em.error(f"memset of {dst.elem} elements with the byte {b} is not supported")
        length = ops[2]
        if length.value_kind.name == "constant_int":
            nbytes = int(lt.scalar_value(str(length).split()[-1], "i64"))
            if nbytes % width:
                raise em.error(f"{name} of {nbytes} bytes is not a whole number of {dst.elem} elements")
            count = em.const(nbytes // width, "index")
        else:
            nb = self.value(length)
            nb_ix = em.fresh("bytes")
            em.emit(f"{nb_ix} = arith.index_cast {nb} : {em.types[nb]} to index")
            count = self.index_op("divui", nb_ix, width)
        self.element_loop(name, dst, src, value, count)

    def element_loop(self, name: str, dst: Ptr, src: Ptr | None, value: str | None, count: int | str) -> None:
        """A CF loop over ``count`` elements from ``dst``: each set to ``value``, or to the element of ``src``
        at the same position (``memmove`` within one array: backwards when the target lies after the source)."""
        em = self.em
        if isinstance(count, int):
            count = em.const(count, "index")
        self.extra_blocks += 1
        tag = f"^bb{self.cur_block}_m{self.extra_blocks}"
        k, k_next, cond = em.fresh("k"), em.fresh("k"), em.fresh("more")
        zero, one = em.const(0, "index"), em.const(1, "index")
        em.emit(f"cf.br {tag}h({zero} : index)")
        em.out.append(f"  {tag}h({k}: index):")
        em.emit(f"{cond} = arith.cmpi ult, {k}, {count} : index")
        em.emit(f"cf.cond_br {cond}, {tag}b, {tag}x")
        em.out.append(f"  {tag}b:")
        pos = k
        if "memmove" in name and src is not None and src.base == dst.base:
            # overlapping: copy backwards when the target lies after the source (else forwards)
            if len(dst.shape) != 1:
                raise em.error("memmove within a multi-dimensional array is not supported")
            at = [p.idx[-1] if len(p.idx) > (1 if p.virtual else 0) else 0 for p in (dst, src)]
            d_at, s_at = (em.const(a, "index") if isinstance(a, int) else a for a in at)
            later, last, back = em.fresh("later"), em.fresh("ix"), em.fresh("ix")
            em.emit(f"{later} = arith.cmpi ugt, {d_at}, {s_at} : index")
            em.emit(f"{last} = arith.subi {count}, {one} : index")
            em.emit(f"{back} = arith.subi {last}, {k} : index")
            pos = em.fresh("ix")
            em.emit(f"{pos} = arith.select {later}, {back}, {k} : index")
        if src is not None:
            value = em.fresh("elem")
            em.emit(f"{value} = memref.load {src.base}[{', '.join(self.flat_indices(src, pos))}] : {src.memref()}")
        em.emit(f"memref.store {value}, {dst.base}[{', '.join(self.flat_indices(dst, pos))}] : {dst.memref()}")
        em.emit(f"{k_next} = arith.addi {k}, {one} : index")
        em.emit(f"cf.br {tag}h({k_next} : index)")
        em.out.append(f"  {tag}x:")
