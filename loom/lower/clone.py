"""Deep copies of ops (with their regions), for the passes that rewrite a copy of the source function."""

from __future__ import annotations

from loom.ir.core import Block, Operation, Region, Value


def clone_op(op: Operation, mapping: dict[Value, Value]) -> Operation:
    """A deep copy of ``op``; operands are looked up in ``mapping`` (which learns the copy's values).

    Graph regions (handshake.func) use values before their definition, so once everything is copied a
    second pass points such forward uses at the copies too."""
    new = _clone(op, mapping)
    for inner in new.walk():
        inner.operands = [mapping.get(v, v) for v in inner.operands]
    return new


def _clone(op: Operation, mapping: dict[Value, Value]) -> Operation:
    new = Operation.create(
        op.name, [mapping.get(v, v) for v in op.operands], [r.type for r in op.results], dict(op.attributes),
        loc=op.loc, result_names=[r.name_hint for r in op.results],
    )
    for old, r in zip(op.results, new.results):
        mapping[old] = r
    blocks: dict[int, Block] = {}
    for region in op.regions:
        copy = Region()
        for b in region.blocks:
            nb = Block.create([a.type for a in b.args], [a.name_hint for a in b.args])
            nb.label = b.label
            for a, na in zip(b.args, nb.args):
                mapping[a] = na
            blocks[id(b)] = nb
            copy.add_block(nb)
        new.add_region(copy)
    for region, copy in zip(op.regions, new.regions):
        for b, nb in zip(region.blocks, copy.blocks):
            for inner in b.ops:
                c = _clone(inner, mapping)
                c.successors = [blocks.get(id(s), s) for s in inner.successors]
                nb.append(c)
    return new
