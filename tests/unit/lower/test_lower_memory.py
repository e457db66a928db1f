"""Memory lowering: root-domain grouping, view address arithmetic, interfaces, port packing, memref.dim."""

from __future__ import annotations

from typing import Callable

import pytest

from loom.diagnostics import LoomError
from loom.ir.attributes import StridedLayoutAttr, SymbolRefAttr
from loom.ir.core import Operation, Value
from loom.ir.types import MemRefType, i32, i64, index, none
from loom.lower import LowerOptions, lower_function, lower_module
from loom.testing.differential import check_lowering
from loom.testing.scf_builder import ScfBuilder

A16 = MemRefType((16,), i32)
M46 = MemRefType((4, 6), i64)


def body_ops(hs: Operation, name: str) -> list[Operation]:
    return [op for op in hs.regions[0].entry.ops if op.name == name]


def sweep(b: ScfBuilder, view: Value, sizes: tuple[int, ...], salt: Value) -> None:
    """For every index of ``view`` (row-major): view[i] = view[i] * 3 + salt + i."""
    c0, c1 = b.const(0, index), b.const(1, index)
    elem = view.type.element  # type: ignore[attr-defined]

    def nest(depth: int, idx: list[Value]) -> None:
        if depth == len(sizes):
            v = b.load(view, idx)
            lin = idx[0]
            for k in range(1, len(idx)):
                lin = b.arith("arith.addi", [b.arith("arith.muli", [lin, b.const(sizes[k], index)]), idx[k]])
            t = b.arith("arith.addi", [b.arith("arith.muli", [v, b.const(3, elem)]), salt])
            t = b.arith("arith.addi", [t, b.cast("arith.index_cast", lin, elem)])
            b.store(t, view, idx)
            return

        def body(i: Value, _: list[Value]) -> list[Value]:
            nest(depth + 1, idx + [i])
            return []

        b.for_(c0, b.const(sizes[depth], index), c1, [], body)

    nest(0, [])


ViewMaker = Callable[[ScfBuilder, Value, Value], tuple[Value, tuple[int, ...]]]

VIEWS_1D: dict[str, ViewMaker] = {
    "identity": lambda b, a, k: (a, (16,)),
    "cast": lambda b, a, k: (b.memref_cast(a, MemRefType((None,), i32)), (16,)),
    "subview": lambda b, a, k: (
        b.subview(a, [3], [8], [1], MemRefType((8,), i32, StridedLayoutAttr((1,), 3))),
        (8,),
    ),
    "strided": lambda b, a, k: (
        b.subview(a, [1], [5], [3], MemRefType((5,), i32, StridedLayoutAttr((3,), 1))),
        (5,),
    ),
    "dynamic_offset": lambda b, a, k: (
        b.subview(a, [k], [6], [1], MemRefType((6,), i32, StridedLayoutAttr((1,), None))),
        (6,),
    ),
    "expand": lambda b, a, k: (b.expand_shape(a, [[0, 1]], MemRefType((4, 4), i32)), (4, 4)),
    "reinterpret": lambda b, a, k: (
        b.reinterpret_cast(a, 2, [3, 4], [4, 1], MemRefType((3, 4), i32, StridedLayoutAttr((4, 1), 2))),
        (3, 4),
    ),
    "subview_of_expand": lambda b, a, k: (
        b.subview(
            b.expand_shape(a, [[0, 1]], MemRefType((4, 4), i32)),
            [1, 1],
            [2, 3],
            [2, 1],
            MemRefType((2, 3), i32, StridedLayoutAttr((8, 1), 5)),
        ),
        (2, 3),
    ),
}

VIEWS_2D: dict[str, ViewMaker] = {
    "identity": lambda b, m, k: (m, (4, 6)),
    "subview": lambda b, m, k: (
        b.subview(m, [1, 2], [2, 3], [1, 1], MemRefType((2, 3), i64, StridedLayoutAttr((6, 1), 8))),
        (2, 3),
    ),
    "rank_reducing": lambda b, m, k: (
        b.subview(m, [2, 0], [1, 6], [1, 1], MemRefType((6,), i64, StridedLayoutAttr((1,), 12))),
        (6,),
    ),
    "collapse": lambda b, m, k: (b.collapse_shape(m, [[0, 1]], MemRefType((24,), i64)), (24,)),
    "reinterpret_2d_root": lambda b, m, k: (
        b.reinterpret_cast(m, 5, [7], [2], MemRefType((7,), i64, StridedLayoutAttr((2,), 5))),
        (7,),
    ),
}


@pytest.mark.parametrize("rar", [True, False])
@pytest.mark.parametrize("view", sorted(VIEWS_1D))
def test_view_of_1d_argument(view: str, rar: bool) -> None:
    b = ScfBuilder("v", [A16, index, i32], [], ["a", "k", "s"])
    a, k, s = b.args
    v, sizes = VIEWS_1D[view](b, a, k)
    sweep(b, v, sizes, s)
    b.ret([])
    cmp = check_lowering(b.module(), "v", {"a": list(range(-8, 8)), "k": 5, "s": 11}, LowerOptions(rar=rar))
    assert cmp.ok, cmp.detail
    hs = cmp.dfg
    assert len(body_ops(hs, "handshake.extmemory")) == 1, "every view shares the root's one interface"
    assert not [op for op in hs.regions[0].entry.ops if op.name.startswith("memref.")]
    for acc in body_ops(hs, "handshake.load") + body_ops(hs, "handshake.store"):
        assert len(acc.results) == 2, "one address: the 1-D root's"


@pytest.mark.parametrize("view", sorted(VIEWS_2D))
def test_view_of_2d_argument(view: str) -> None:
    b = ScfBuilder("v", [M46, i64], [], ["m", "s"])
    m, s = b.args
    v, sizes = VIEWS_2D[view](b, m, s)
    sweep(b, v, sizes, s)
    b.ret([])
    grid = [[r * 10 + c for c in range(6)] for r in range(4)]
    cmp = check_lowering(b.module(), "v", {"m": grid, "s": -3})
    assert cmp.ok, cmp.detail
    for acc in body_ops(cmp.dfg, "handshake.load") + body_ops(cmp.dfg, "handshake.store"):
        assert len(acc.results) == 3, "two addresses: the 2-D root's"


def test_two_views_of_one_root_share_one_ordered_domain() -> None:
    """A store through one view and a load of the same element through another stay ordered."""
    b = ScfBuilder("alias", [A16, index], [i32], ["a", "n"])
    a, n = b.args
    lo = b.subview(a, [0], [8], [1], MemRefType((8,), i32, StridedLayoutAttr((1,), 0)))
    hi = b.subview(a, [4], [8], [1], MemRefType((8,), i32, StridedLayoutAttr((1,), 4)))
    c0, c1, c4 = b.const(0, index), b.const(1, index), b.const(4, index)

    def body(i: Value, it: list[Value]) -> list[Value]:
        b.store(b.cast("arith.index_cast", i, i32), lo, [b.arith("arith.addi", [i, c4])])
        v = b.load(hi, [i])  # the element just written
        return [b.arith("arith.addi", [it[0], v])]

    b.ret(b.for_(c0, n, c1, [b.const(0, i32)], body))
    for nval in (0, 1, 4):
        cmp = check_lowering(b.module(), "alias", {"a": [100] * 16, "n": nval})
        assert cmp.ok, cmp.detail
        assert cmp.sim.results == [sum(range(nval))]
    (iface,) = body_ops(cmp.dfg, "handshake.extmemory")
    assert iface.attributes["stCount"].value == 1 and iface.attributes["ldCount"].value == 1


def test_port_packing_stores_first_then_loads() -> None:
    b = ScfBuilder("pack", [A16], [i32], ["a"])
    (a,) = b.args
    c = [b.const(i, index) for i in range(4)]
    x = b.load(a, [c[0]])
    b.store(x, a, [c[1]])
    y = b.load(a, [c[2]])
    b.store(y, a, [c[3]])
    b.ret([b.arith("arith.addi", [x, y])])
    hs = lower_function(b.func)
    (iface,) = body_ops(hs, "handshake.extmemory")
    loads, stores = body_ops(hs, "handshake.load"), body_ops(hs, "handshake.store")
    assert iface.operands[0] is hs.regions[0].entry.args[0]
    expected = [
        stores[0].results[0],
        stores[0].results[1],
        stores[1].results[0],
        stores[1].results[1],
        loads[0].results[1],
        loads[1].results[1],
    ]
    assert iface.operands[1:] == expected
    assert [str(r.type) for r in iface.results] == ["i32", "i32", "none", "none", "none", "none"]
    assert loads[0].operands[1] is iface.results[0] and loads[1].operands[1] is iface.results[1]
    # serial chain: ld0 -> st0 -> ld1 -> st1 (stores' dones are results 2, 3; loads' 4, 5)
    assert stores[0].operands[-1] is iface.results[4]
    assert loads[1].operands[-1] is iface.results[2]
    assert stores[1].operands[-1] is iface.results[5]
    (ret,) = body_ops(hs, "handshake.return")
    assert ret.operands[-1] is iface.results[3]


def test_local_alloca_and_global_tables() -> None:
    b = ScfBuilder("loc", [A16, index], [i32], ["a", "n"])
    a, n = b.args
    b.global_("lut", MemRefType((4,), i32), [7, -1, 3, 9], constant=True)
    b.global_("acc", MemRefType((2,), i32), [0, 5])
    lut = b.get_global("lut", MemRefType((4,), i32))
    lut2 = b.get_global("lut", MemRefType((4,), i32))
    accg = b.get_global("acc", MemRefType((2,), i32))
    buf = b.alloca(MemRefType((4,), i32), "buf")
    c0, c1, c4 = b.const(0, index), b.const(1, index), b.const(4, index)

    def body(i: Value, it: list[Value]) -> list[Value]:
        j = b.arith("arith.remui", [i, c4])
        t = b.arith("arith.addi", [b.load(lut, [j]), b.load(lut2, [j])])
        b.store(b.arith("arith.addi", [b.load(buf, [j]), t]), buf, [j])
        b.store(b.arith("arith.addi", [b.load(accg, [c1]), t]), accg, [c1])
        b.store(b.load(buf, [j]), a, [i])
        return [b.arith("arith.addi", [it[0], b.load(accg, [c1])])]

    b.ret(b.for_(c0, n, c1, [b.const(0, i32)], body))
    for nval in (0, 3, 9):
        cmp = check_lowering(b.module(), "loc", {"a": [0] * 16, "n": nval})
        assert cmp.ok, cmp.detail
    mems = body_ops(cmp.dfg, "handshake.memory")
    assert len(mems) == 3, "one interface per root: lut (both get_globals), acc, buf"
    globals_ = {str(m.attributes.get("loom.global_memref")) for m in mems}
    assert globals_ == {"@lut", "@acc", "None"}
    assert {op.attributes["sym_name"].value for op in cmp.dfg_module.ops if op.name == "memref.global"} == {
        "lut",
        "acc",
    }


def test_undefined_global_is_declared_in_the_output() -> None:
    b = ScfBuilder("g", [], [i32])
    t = b.get_global("table", MemRefType((8,), i32))
    b.ret([b.load(t, [b.const(2, index)])])
    out = lower_module(b.module(), "g", LowerOptions())
    (decl,) = [op for op in out.ops if op.name == "memref.global"]
    assert decl.attributes["sym_name"].value == "table" and "initial_value" not in decl.attributes
    (mem,) = body_ops(out.ops[-1], "handshake.memory")
    assert mem.attributes["loom.global_memref"] == SymbolRefAttr("table")


def test_dynamic_dims_read_the_argument() -> None:
    dyn = MemRefType((None, None), i32)
    b = ScfBuilder("dims", [dyn, MemRefType((None,), i32)], [index], ["g", "v"])
    g, v = b.args
    c0, c1 = b.const(0, index), b.const(1, index)
    rows = b.op("memref.dim", [g, c0], [index]).result
    cols = b.op("memref.dim", [g, c1], [index]).result
    sub = b.subview(v, [c1], [cols], [1], MemRefType((None,), i32, StridedLayoutAttr((1,), None)))
    scols = b.op("memref.dim", [sub, c0], [index]).result

    def row(i: Value, _: list[Value]) -> list[Value]:
        def col(j: Value, __: list[Value]) -> list[Value]:
            b.store(b.arith("arith.addi", [b.load(g, [i, j]), b.load(sub, [j])]), g, [i, j])
            return []

        b.for_(c0, scols, c1, [], col)
        return []

    b.for_(c0, rows, c1, [], row)
    b.ret([b.arith("arith.addi", [rows, cols])])
    grid = [[1, 2, 3], [4, 5, 6]]
    cmp = check_lowering(b.module(), "dims", {"g": grid, "v": [10, 20, 30, 40]})
    assert cmp.ok, cmp.detail
    dims = body_ops(cmp.dfg, "memref.dim")
    assert len(dims) == 2 and all(d.operands[0] is cmp.dfg.regions[0].entry.args[0] for d in dims)


def test_unsupported_memory_forms_are_rejected() -> None:
    b = ScfBuilder("dynalloc", [index], [i32], ["n"])
    buf = b.op("memref.alloc", [b.args[0]], [MemRefType((None,), i32)]).result
    b.ret([b.load(buf, [b.const(0, index)])])
    with pytest.raises(LoomError) as e:
        lower_function(b.func)
    assert "dynamic size" in str(e.value) and e.value.code == "CPL_LOWER_UNSUPPORTED"

    b = ScfBuilder("sel", [A16, A16, index], [i32], ["a", "b", "k"])
    a, bb, k = b.args
    c = b.cmpi("eq", k, b.const(0, index))
    pick = b.op("arith.select", [c, a, bb], [A16]).result
    b.ret([b.load(pick, [k])])
    with pytest.raises(LoomError) as e:
        lower_function(b.func)
    assert "statically known" in str(e.value)


def test_done_token_types() -> None:
    b = ScfBuilder("t", [A16], [], ["a"])
    b.store(b.const(1, i32), b.args[0], [b.const(0, index)])
    b.ret([])
    hs = lower_function(b.func)
    (ret,) = body_ops(hs, "handshake.return")
    assert [v.type for v in ret.operands] == [none]
