"""Runtime memory: flat buffers and strided views that alias them (memref semantics).

A ``Buffer`` is one allocation (a Python list of runtime scalars, see
``loom.semantics.scalar``). A ``MemRefView`` is MLIR's strided descriptor
(offset, sizes, strides) over a buffer; subview, reinterpret_cast,
collapse_shape and expand_shape make new views of the same buffer, so a store
through any view is visible through every other view of that buffer.

Indices are the runtime index values (unsigned 64-bit patterns); offsets, sizes
and strides given to view constructors are Python ints (signed). Out-of-bounds
accesses raise ``SimulationError`` with code ``RT_MEMREF_OUT_OF_BOUNDS``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Optional, Sequence

from loom.diagnostics import SimulationError
from loom.ir.location import Location
from loom.ir.types import Type
from loom.semantics.scalar import to_signed, zero_value

OUT_OF_BOUNDS = "RT_MEMREF_OUT_OF_BOUNDS"
BAD_VIEW = "RT_MEMREF_BAD_VIEW"
STORE_TO_CONSTANT = "RT_MEMREF_STORE_TO_CONSTANT"


@dataclass(eq=False)
class Buffer:
    """One allocation: flat element storage plus its element type."""

    data: list
    element: Type
    name: str = ""  # what to call it in messages (argument or global name)
    readonly: bool = False  # a constant memref.global

    def __len__(self) -> int:
        return len(self.data)


def row_major_strides(sizes: Sequence[int]) -> tuple[int, ...]:
    """Strides of a contiguous row-major array of the given sizes."""
    strides = []
    acc = 1
    for s in reversed(sizes):
        strides.append(acc)
        acc *= max(s, 1)
    return tuple(reversed(strides))


def _product(xs: Sequence[int]) -> int:
    n = 1
    for x in xs:
        n *= x
    return n


class MemRefView:
    """A strided view ``(buffer, offset, sizes, strides)`` with bounds-checked load/store."""

    __slots__ = ("buffer", "offset", "sizes", "strides")

    def __init__(self, buffer: Buffer, offset: int, sizes: Sequence[int], strides: Sequence[int]) -> None:
        self.buffer = buffer
        self.offset = offset
        self.sizes = tuple(sizes)
        self.strides = tuple(strides)

    # -- construction ---------------------------------------------------------------

    @staticmethod
    def allocate(element: Type, sizes: Sequence[int], name: str = "") -> "MemRefView":
        """A fresh zero-initialised row-major buffer and its identity view."""
        n = _product(sizes)
        return MemRefView(Buffer([zero_value(element)] * n, element, name), 0, sizes, row_major_strides(sizes))

    @staticmethod
    def from_flat(values: Sequence[Any], element: Type, sizes: Sequence[int], name: str = "") -> "MemRefView":
        """A fresh buffer holding ``values`` (row-major) viewed with ``sizes``."""
        if len(values) != _product(sizes):
            raise ValueError(f"{len(values)} values do not fill shape {list(sizes)}")
        return MemRefView(Buffer(list(values), element, name), 0, sizes, row_major_strides(sizes))

    # -- properties -----------------------------------------------------------------

    @property
    def rank(self) -> int:
        return len(self.sizes)

    @property
    def element(self) -> Type:
        return self.buffer.element

    @property
    def num_elements(self) -> int:
        return _product(self.sizes)

    def describe(self) -> str:
        name = f"'{self.buffer.name}' " if self.buffer.name else ""
        return f"memref {name}of shape [{', '.join(map(str, self.sizes))}]"

    # -- access ---------------------------------------------------------------------

    def _oob(self, indices: Sequence[int], what: str, loc: Optional[Location]) -> SimulationError:
        shown = ", ".join(str(to_signed(i, 64)) for i in indices)
        return SimulationError(f"{what}: index [{shown}] is out of bounds of {self.describe()}", loc, OUT_OF_BOUNDS)

    def linear_index(self, indices: Sequence[int], what: str = "access", loc: Optional[Location] = None) -> int:
        """The buffer position of ``indices`` (unsigned index patterns), bounds-checked."""
        sizes = self.sizes
        if len(indices) != len(sizes):
            raise SimulationError(f"{what}: {len(indices)} indices for a rank-{len(sizes)} memref", loc, BAD_VIEW)
        pos = self.offset
        for i, size, stride in zip(indices, sizes, self.strides):
            if i >= size:  # negative indices are huge unsigned patterns
                raise self._oob(indices, what, loc)
            pos += i * stride
        if not 0 <= pos < len(self.buffer.data):
            raise self._oob(indices, what, loc)
        return pos

    def load(self, indices: Sequence[int], what: str = "memref.load", loc: Optional[Location] = None) -> Any:
        """The element at ``indices``."""
        if len(indices) == 1 and len(self.sizes) == 1:  # fast path for the common 1-D case
            i = indices[0]
            pos = self.offset + i * self.strides[0]
            if i < self.sizes[0] and 0 <= pos < len(self.buffer.data):
                return self.buffer.data[pos]
            raise self._oob(indices, what, loc)
        return self.buffer.data[self.linear_index(indices, what, loc)]

    def store(self, value: Any, indices: Sequence[int], what: str = "memref.store",
              loc: Optional[Location] = None) -> None:
        """Write ``value`` at ``indices`` (visible through every view of the buffer)."""
        buf = self.buffer
        if buf.readonly:
            raise SimulationError(f"{what}: write to constant {self.describe()}", loc, STORE_TO_CONSTANT)
        if len(indices) == 1 and len(self.sizes) == 1:
            i = indices[0]
            pos = self.offset + i * self.strides[0]
            if i < self.sizes[0] and 0 <= pos < len(buf.data):
                buf.data[pos] = value
                return
            raise self._oob(indices, what, loc)
        buf.data[self.linear_index(indices, what, loc)] = value

    def positions(self) -> list[int]:
        """Buffer positions of every element, row-major (no bounds check)."""
        out = [self.offset]
        for size, stride in zip(self.sizes, self.strides):
            out = [p + k * stride for p in out for k in range(size)]
        return out

    def to_flat(self) -> list:
        """Contents in row-major order (the view's elements, not the whole buffer)."""
        data = self.buffer.data
        if self.strides == row_major_strides(self.sizes):
            n = self.num_elements
            return data[self.offset:self.offset + n]
        return [data[p] for p in self.positions()]

    def dim(self, i: int, what: str = "memref.dim", loc: Optional[Location] = None) -> int:
        """Size of dimension ``i``."""
        if not 0 <= i < len(self.sizes):
            raise SimulationError(f"{what}: dimension {i} out of range for rank {len(self.sizes)}", loc, OUT_OF_BOUNDS)
        return self.sizes[i]

    # -- views ----------------------------------------------------------------------

    def _check_in_buffer(self, what: str, loc: Optional[Location]) -> "MemRefView":
        if self.num_elements == 0:
            return self
        lo = hi = self.offset
        for size, stride in zip(self.sizes, self.strides):
            ext = (size - 1) * stride
            lo, hi = (lo + ext, hi) if ext < 0 else (lo, hi + ext)
        if lo < 0 or hi >= len(self.buffer.data):
            raise SimulationError(
                f"{what}: view (offset {self.offset}, sizes {list(self.sizes)}, strides {list(self.strides)}) "
                f"reaches outside its buffer of {len(self.buffer.data)} elements", loc, OUT_OF_BOUNDS)
        return self

    def subview(self, offsets: Sequence[int], sizes: Sequence[int], strides: Sequence[int],
                result_rank: Optional[int] = None, what: str = "memref.subview",
                loc: Optional[Location] = None) -> "MemRefView":
        """The window ``offsets + k*strides`` (k < sizes) of this view; drops unit dims down to ``result_rank``."""
        if not (len(offsets) == len(sizes) == len(strides) == self.rank):
            raise SimulationError(f"{what}: expected {self.rank} offsets, sizes and strides", loc, BAD_VIEW)
        for d, (o, s, st) in enumerate(zip(offsets, sizes, strides)):
            if s < 0 or o < 0 or (s > 0 and (o + (s - 1) * st >= self.sizes[d] or o + (s - 1) * st < 0)) \
                    or (s == 0 and o > self.sizes[d]):
                raise SimulationError(
                    f"{what}: window offset {o}, size {s}, stride {st} exceeds dimension {d} "
                    f"of {self.describe()}", loc, BAD_VIEW)
        offset = self.offset + sum(o * st for o, st in zip(offsets, self.strides))
        new_sizes = list(sizes)
        new_strides = [a * b for a, b in zip(strides, self.strides)]
        if result_rank is not None and result_rank < len(new_sizes):
            drop = len(new_sizes) - result_rank
            keep_sizes, keep_strides = [], []
            for s, st in zip(new_sizes, new_strides):
                if drop and s == 1:
                    drop -= 1
                    continue
                keep_sizes.append(s)
                keep_strides.append(st)
            if drop:
                raise SimulationError(f"{what}: cannot drop dimensions of sizes {sizes} to reach rank {result_rank}",
                                      loc, BAD_VIEW)
            new_sizes, new_strides = keep_sizes, keep_strides
        return MemRefView(self.buffer, offset, new_sizes, new_strides)

    def reinterpret(self, offset: int, sizes: Sequence[int], strides: Sequence[int],
                    what: str = "memref.reinterpret_cast", loc: Optional[Location] = None) -> "MemRefView":
        """A new view of the same buffer; ``offset`` counts from the buffer's start (MLIR's aligned pointer)."""
        if any(s < 0 for s in sizes):
            raise SimulationError(f"{what}: negative size in {list(sizes)}", loc, BAD_VIEW)
        return MemRefView(self.buffer, offset, sizes, strides)._check_in_buffer(what, loc)

    def collapse(self, groups: Sequence[Sequence[int]], what: str = "memref.collapse_shape",
                 loc: Optional[Location] = None) -> "MemRefView":
        """Merge each group of consecutive dimensions into one (each group must be contiguous)."""
        sizes, strides = [], []
        for g in groups:
            if not g:
                continue
            gs = [self.sizes[d] for d in g]
            inner = self.strides[g[-1]]
            for k in range(len(g) - 1, 0, -1):  # stride[d] must equal stride[d+1] * size[d+1]
                if gs[k] > 1 and self.sizes[g[k - 1]] > 1 and self.strides[g[k - 1]] != self.strides[g[k]] * gs[k]:
                    raise SimulationError(f"{what}: dimensions {list(g)} are not contiguous in {self.describe()}",
                                          loc, BAD_VIEW)
            sizes.append(_product(gs))
            strides.append(inner)
        return MemRefView(self.buffer, self.offset, sizes, strides)

    def expand(self, groups: Sequence[Sequence[int]], out_sizes: Sequence[int],
               what: str = "memref.expand_shape", loc: Optional[Location] = None) -> "MemRefView":
        """Split source dimension ``i`` into the dims ``groups[i]`` with the given output sizes."""
        if len(groups) != self.rank:
            raise SimulationError(f"{what}: {len(groups)} groups for a rank-{self.rank} memref", loc, BAD_VIEW)
        strides = [0] * len(out_sizes)
        for src, g in enumerate(groups):
            if _product([out_sizes[d] for d in g]) != self.sizes[src]:
                raise SimulationError(
                    f"{what}: sizes {[out_sizes[d] for d in g]} do not multiply to {self.sizes[src]}", loc, BAD_VIEW)
            acc = self.strides[src]
            for d in reversed(g):
                strides[d] = acc
                acc *= out_sizes[d]
        return MemRefView(self.buffer, self.offset, out_sizes, strides)

    def __repr__(self) -> str:
        return (f"MemRefView({self.buffer.name or '?'}, offset={self.offset}, sizes={list(self.sizes)}, "
                f"strides={list(self.strides)})")


def root_buffer(view: MemRefView) -> Buffer:
    """The allocation a view aliases (two views alias iff their root buffers are the same object)."""
    return view.buffer
