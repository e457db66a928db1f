"""A scratch buffer a loop swaps with a pointer parameter, or with a buffer allocated earlier: copy in, copy out.

``pagerank_spmv`` (upstream's graph_pipeline.c) ping-pongs between ``src = malloc(...)`` and its parameter
``rank_out``: one pointer moving between two arrays, which a memref position cannot be. When a pointer phi or
select mixes exactly one allocation ``X`` with one other buffer ``Y`` -- a 1-D pointer parameter, or an allocation
that dominates ``X`` (the same swap after inlining, where ``rank_out`` is the caller's ``malloc``) -- ``X`` is
allocated with room for ``Y`` behind it: ``X``'s ``count`` elements, then ``len(Y)`` more (the parameter's
``memref.dim``, or the earlier allocation's own count), ``Y``'s contents copied in right after the allocation.
From there on every pointer to ``Y`` is the position ``count`` in that buffer, so the swap is a phi of the start
index (``heap.py``'s ping-pong), and before every return the mirror is copied back into the parameter (an
allocation's contents die with the call).

This is exact on every run that stays in bounds (parameters never alias, as everywhere in loom) when ``X`` runs at
most once per call (no cycle through its block) and every block reachable from ``X`` is dominated by it: then each access of ``Y`` before
``X`` reads the real ``Y`` and each after reads the mirror, which holds what ``Y`` would hold. What it gives up is
the same as for two swapped allocations: an access past ``X``'s end that lands in the mirror is not caught. Other
shapes (``X`` in a loop, a branch around ``X`` that reaches ``Y``'s uses, a multi-dimensional parameter, two
parameters swapped) keep the refusal at the swap.
"""

from __future__ import annotations

from loom.frontend.c.pointers import Ptr
from loom.ir.dominance import dominator_sets


class MirrorRules:
    """The copy-in/copy-out half of ``to_cf.FunctionTranslator`` (it provides ``em``, ``fn``, ``element_loop``)."""

    def mirrors(self) -> dict[str, str]:
        """{allocation X: the buffer Y it mirrors} for every sound swap of one allocation with one other buffer."""
        cached = getattr(self, "_mirrors", None)
        if cached is not None:
            return cached
        pairs = self.swapped_pairs()
        self._mirrors: dict[str, str] = {}
        self.mirror_of: dict[str, str] = {}  # Y -> X
        self.mirror_ptrs: dict[str, Ptr] = {}  # Y -> its position in X's buffer, once X is made
        self.mirror_lens: dict[str, int | str] = {}  # Y -> its length (elements)
        self.mirror_region: dict[str, set[str]] = {}  # Y -> the blocks X's block dominates
        self.block_list = [b.name for b in self.fn.blocks]
        paired = set(pairs) | set(pairs.values())
        args = {a.name for a in self.fn.arguments if str(a.type) == "ptr" and a.name not in self.records}
        blocks = {b.name: b for b in self.fn.blocks}
        where = {ins.name: (b.name, k) for b in self.fn.blocks for k, ins in enumerate(b.instructions) if ins.name}
        mixers = {ins.name for b in self.fn.blocks for ins in b.instructions
                  if ins.opcode in ("phi", "select") and str(ins.type) == "ptr"}
        dom: dict[str, set[str]] = {}
        for members in self.ptr_groups.values():
            leaves = members - mixers
            allocs = [m for m in leaves if m in self.allocs and m not in paired]
            if len(leaves) != 2 or not allocs:
                continue
            dom = dom or _dominators(self.fn)  # only for a function that has such a swap
            ordered = sorted(allocs, key=lambda m: (self.block_list.index(where[m][0]), where[m][1]))
            x = ordered[-1]  # the later allocation mirrors the earlier one or the parameter
            (y,) = leaves - {x}
            if y in args:
                pass
            elif y in allocs:
                yb, xb = where[y][0], where[x][0]
                if not (yb == xb and where[y][1] < where[x][1] or yb != xb and yb in dom[xb]):
                    continue  # neither allocation comes first on every path
            else:
                continue
            xb = where[x][0]
            after = _reachable(blocks, xb)
            if xb in after or any(xb not in dom[b] for b in after):
                continue  # X may run twice, or a path from X reaches a block it does not dominate
            self._mirrors[x] = y
            self.mirror_of[y] = x
            self.mirror_region[y] = {b for b in self.block_list if xb in dom[b]}
        self.swap_phis |= self.start_phis(set(self._mirrors) | set(self._mirrors.values()))
        return self._mirrors

    def mirror_length(self, y: str, shape_p: Ptr) -> int | str:
        """How many elements the mirror of ``y`` needs behind the allocation (whose shape is ``shape_p``): a 1-D
        parameter's length (static, or its ``memref.dim``), or the earlier allocation's count."""
        em = self.em
        yp = em.ptrs.get(y)
        if yp is None or len(yp.shape) != 1 or len(shape_p.shape) != 1 or yp.elem != shape_p.elem:
            what = f"{yp.memref()}" if yp is not None else "an unknown buffer"
            raise em.error(f"a {shape_p.elem} buffer swapped with {what} is not supported (only 1-D buffers of one "
                           "element type are copied in and out)")
        if y in self.alloc_counts:
            n: int | str = self.alloc_counts[y]
        elif yp.shape[0] is not None:
            n = yp.shape[0]
        else:
            n = em.fresh(f"{y}_len")
            em.emit(f"{n} = memref.dim {yp.base}, {em.const(0, 'index')} : {yp.memref()}")
            em.types[n] = "index"
        self.mirror_lens[y] = n
        return n

    def mirror_in(self, x: str, p: Ptr, count: int | str) -> None:
        """Right after allocation ``x`` (``p``): the buffer it mirrors is copied behind its ``count`` elements,
        and every later pointer to that buffer is a position there."""
        y = self._mirrors[x]
        real = self.em.ptrs[y]
        mirror = Ptr(p.base, p.shape, p.elem, [count], key=p.key)
        self.element_loop("memcpy", mirror, real, None, self.mirror_lens[y])
        self.mirror_ptrs[y] = mirror

    def mirrored(self, name: str) -> Ptr | None:
        """The mirror of buffer ``name`` where the instruction being translated sees it (None: the real one)."""
        if not getattr(self, "_mirrors", None) or name not in self.mirror_of:
            return None
        if self.block_list[self.cur_block] not in self.mirror_region[name]:
            return None
        p = self.mirror_ptrs.get(name)
        if p is None and self.block_list[self.cur_block] != self.allocs_block(self.mirror_of[name]):
            raise self.em.error(f"'%{name}' is used before the buffer swapped with it is allocated")
        return p

    def allocs_block(self, x: str) -> str:
        return self.allocs[x][0]

    def mirror_out(self) -> None:
        """Before a return: each parameter's mirror is copied back into the parameter."""
        if not getattr(self, "_mirrors", None):
            return
        for y, mirror in self.mirror_ptrs.items():
            if y not in self.alloc_counts and self.block_list[self.cur_block] in self.mirror_region[y]:
                self.element_loop("memcpy", self.em.ptrs[y], mirror, None, self.mirror_lens[y])


def _successors(block) -> list[str]:
    """The names of the blocks ``block``'s terminator branches to."""
    term = list(block.instructions)[-1]
    return [o.name for o in term.operands if o.value_kind.name == "basic_block"]


def _reachable(blocks: dict, start: str) -> set[str]:
    """The blocks some path of at least one edge leads to from ``start``."""
    seen: set[str] = set()
    todo = list(_successors(blocks[start]))
    while todo:
        b = todo.pop()
        if b not in seen:
            seen.add(b)
            todo.extend(_successors(blocks[b]))
    return seen


def _dominators(fn) -> dict[str, set[str]]:
    """Each block's dominators (itself included), by the classic iteration to a fixed point."""
    names = [b.name for b in fn.blocks]
    preds: dict[str, list[str]] = {n: [] for n in names}
    for b in fn.blocks:
        for s in _successors(b):
            preds[s].append(b.name)
    return dominator_sets(names, lambda n: preds[n], [names[0]])
