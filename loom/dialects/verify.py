"""Module verification: SSA scoping and dominance, symbols, tagged types, then every op's own rules.

``verify_module`` raises the first problem as a VerifyError at the offending op's
location with its code (spec codes for dataflow/memory, ``CPL_IR_*`` otherwise;
all listed in specs/errors.md).
"""

from __future__ import annotations

from collections.abc import Iterator

from loom.diagnostics import VerifyError
from loom.dialects.checks import VerifyContext, fail
from loom.dialects.dataflow import tagged_problem
from loom.dialects.registry import known_ops, lookup
from loom.ir.attributes import ArrayAttr, Attribute, DictAttr, StringAttr, TypeAttr
from loom.ir.core import Block, BlockArgument, Module, Operation, OpResult, Region, Value
from loom.ir.dominance import dominator_sets
from loom.ir.types import FunctionType, MemRefType, TaggedType, TensorType, Type, VectorType

UNDEFINED = "CPL_IR_UNDEFINED_VALUE"
DOMINANCE = "CPL_IR_DOMINANCE"
DUPLICATE_SYMBOL = "CPL_IR_DUPLICATE_SYMBOL"
STRUCTURE = "CPL_IR_STRUCTURE"


def verify_module(module: Module) -> None:
    """Check ``module``; raises VerifyError (with location and code) on the first problem."""
    ctx = VerifyContext(symbols=_symbols(module.op), non_terminators=_non_terminators())
    _verify_op(module.op, ctx, None)


def _non_terminators() -> frozenset[str]:
    out = set()
    for name in known_ops():
        d = lookup(name)
        if d is not None and not d.terminator:
            out.add(name)
    return frozenset(out)


def _symbols(root: Operation) -> dict[str, Operation]:
    """Symbols defined directly in ``root``'s body (and nested modules' bodies, by name)."""
    table: dict[str, Operation] = {}
    for region in root.regions:
        for block in region.blocks:
            for op in block.ops:
                name = op.attributes.get("sym_name")
                if isinstance(name, StringAttr) and op.name != "builtin.module":
                    if name.value in table:
                        raise VerifyError(f"redefinition of symbol '@{name.value}'", op.loc, DUPLICATE_SYMBOL)
                    table[name.value] = op
                if op.name == "builtin.module":
                    for k, v in _symbols(op).items():
                        table.setdefault(k, v)
    return table


# ---------------------------------------------------------------------------- walk


def _verify_op(op: Operation, ctx: VerifyContext, parent: Block | None) -> None:
    if op.parent is not parent and parent is not None:
        fail(op, STRUCTURE, "has a stale parent link (it was moved without updating op.parent)")
    _check_types(op)
    d = lookup(op.name)
    for region in op.regions:
        if region.parent is not op:
            fail(op, STRUCTURE, "owns a region whose parent link points elsewhere")
        for block in region.blocks:
            if block.parent is not region:
                fail(op, STRUCTURE, "owns a block whose parent link points elsewhere")
            for k, arg in enumerate(block.args):
                if arg.block is not block or arg.index != k:
                    fail(op, STRUCTURE, f"block argument #{k} has stale owner links")
            for inner in block.ops:
                _verify_op(inner, ctx, block)
    for k, r in enumerate(op.results):
        if r.op is not op or r.index != k:
            fail(op, STRUCTURE, f"result #{k} has stale owner links")
    for i, v in enumerate(op.operands):
        _check_operand(op, i, v)
    if d is not None and d.verify is not None:
        d.verify(op, ctx)
    if op.regions and d is not None and d.isolated:
        _check_dominance(op)


# ---------------------------------------------------------------------------- tagged types


def _types_in(t: Type) -> Iterator[Type]:
    yield t
    if isinstance(t, (MemRefType, TensorType, VectorType)):
        yield from _types_in(t.element)
    elif isinstance(t, TaggedType):
        yield from _types_in(t.value)
        yield from _types_in(t.tag)
    elif isinstance(t, FunctionType):
        for x in (*t.inputs, *t.results):
            yield from _types_in(x)


def _attr_types(a: Attribute) -> Iterator[Type]:
    if isinstance(a, TypeAttr):
        yield a.type
    elif isinstance(a, ArrayAttr):
        for e in a.elements:
            yield from _attr_types(e)
    elif isinstance(a, DictAttr):
        for _, e in a.entries:
            yield from _attr_types(e)


def _check_types(op: Operation) -> None:
    types: list[Type] = [v.type for v in op.operands] + [r.type for r in op.results]
    for region in op.regions:
        for block in region.blocks:
            types += [a.type for a in block.args]
    for a in op.attributes.values():
        types += list(_attr_types(a))
    for t in types:
        for inner in _types_in(t):
            if isinstance(inner, TaggedType):
                problem = tagged_problem(inner)
                if problem is not None:
                    fail(op, problem[0], problem[1])


# ---------------------------------------------------------------------------- SSA


def _check_operand(op: Operation, i: int, v: Value) -> None:
    if isinstance(v, OpResult):
        if v.op.parent is None:
            fail(op, UNDEFINED, f"operand #{i} is a result of '{v.op.name}', which is not in any block")
        if v.index >= len(v.op.results) or v.op.results[v.index] is not v:
            fail(op, UNDEFINED, f"operand #{i} is a stale result of '{v.op.name}'")
    elif isinstance(v, BlockArgument):
        if v.block.parent is None or v.index >= len(v.block.args) or v.block.args[v.index] is not v:
            fail(op, UNDEFINED, f"operand #{i} is an argument of a block that is not in any region")
    else:
        fail(op, UNDEFINED, f"operand #{i} is not defined by any op or block")


def _def_site(v: Value, pos_of) -> tuple[Block, int]:
    """(block, position) of a value's definition; block arguments are at position -1."""
    if isinstance(v, BlockArgument):
        return v.block, -1
    assert isinstance(v, OpResult) and v.op.parent is not None
    return v.op.parent, pos_of(v.op)


def _check_dominance(root: Operation) -> None:
    """Every use inside isolated op ``root`` sees its definition (graph regions: any order)."""
    positions: dict[int, int] = {}
    doms: dict[int, dict[int, set[int]]] = {}

    def pos_of(op: Operation) -> int:
        p = positions.get(id(op))
        if p is None:
            assert op.parent is not None
            for k, o in enumerate(op.parent.ops):
                positions[id(o)] = k
            p = positions[id(op)]
        return p

    def walk(op: Operation) -> None:
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    for i, v in enumerate(inner.operands):
                        _check_use(root, inner, i, v, pos_of, doms)
                    d = lookup(inner.name)
                    if d is None or not d.isolated:
                        walk(inner)

    walk(root)


def _region_is_graph(region: Region) -> bool:
    owner = region.parent
    if owner is None:
        return True
    d = lookup(owner.name)
    return d is None or d.graph_regions


def _check_use(root: Operation, user: Operation, i: int, v: Value, pos_of, doms) -> None:
    def_block, def_pos = _def_site(v, pos_of)
    def_region = def_block.parent
    # climb from the user to the op that sits in the definition's region
    anchor: Operation | None = user
    while anchor is not None and (anchor.parent is None or anchor.parent.parent is not def_region):
        if anchor is root:
            anchor = None
            break
        if anchor is not user:
            d = lookup(anchor.name)
            if d is not None and d.isolated:
                anchor = None
                break
        anchor = anchor.parent_op
    name = f"%{v.name_hint}" if v.name_hint else f"operand #{i}"
    if anchor is None:
        fail(user, DOMINANCE, f"uses {name}, which is not visible here (defined in another region)")
    if def_region is None or _region_is_graph(def_region):
        return
    use_block = anchor.parent
    assert use_block is not None
    if use_block is def_block:
        if def_pos >= pos_of(anchor):
            fail(user, DOMINANCE, f"uses {name} before its definition")
        return
    if not _dominates(def_region, def_block, use_block, doms):
        fail(user, DOMINANCE, f"uses {name}, whose definition does not dominate this use")


def _dominates(region: Region, a: Block, b: Block, cache: dict) -> bool:
    key = id(region)
    if key not in cache:
        cache[key] = _dominators(region)
    dom = cache[key]
    db = dom.get(id(b))
    if db is None:  # unreachable block: anything goes, as in MLIR
        return True
    return id(a) in db


def _dominators(region: Region) -> dict[int, set[int]]:
    """Classic iterative dominator sets over the successor edges of a region's blocks."""
    blocks = region.blocks
    if not blocks:
        return {}
    succ = {id(b): [id(s) for s in (b.terminator.successors if b.terminator else [])] for b in blocks}
    reach = {id(blocks[0])}
    work = [id(blocks[0])]
    while work:
        for s in succ.get(work.pop(), []):
            if s not in reach:
                reach.add(s)
                work.append(s)
    preds: dict[int, list[int]] = {id(b): [] for b in blocks}
    for b, ss in succ.items():
        for s in ss:
            if s in preds:
                preds[s].append(b)
    ids = [id(b) for b in blocks if id(b) in reach]
    return dominator_sets(ids, lambda b: preds[b], [ids[0]])
