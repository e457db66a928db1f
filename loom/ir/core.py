"""The uniform IR: values, operations, blocks, regions and modules.

One structure serves every dialect (func, arith, scf, memref, handshake,
dataflow): an op is a name with operands, results, attributes and regions, as
in MLIR's generic form. Dialect knowledge (syntax, verification, semantics)
lives in ``loom.dialects`` and ``loom.semantics``, never here.

Use lists are not stored: they are derived on demand (``users``), so passes
may rewrite operand lists freely without keeping a second structure in sync.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Optional, Sequence

from loom.ir.attributes import Attribute
from loom.ir.location import UNKNOWN, Location
from loom.ir.types import Type


class Value:
    """An SSA value: an op result or a block argument."""

    __slots__ = ("type", "name_hint")

    def __init__(self, type: Type, name_hint: Optional[str] = None) -> None:
        self.type = type
        self.name_hint = name_hint  # source name without '%', used by the printer

    @property
    def owner(self) -> "Operation | Block":  # pragma: no cover - overridden
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} %{self.name_hint or '?'} : {self.type}>"


class OpResult(Value):
    """Result number ``index`` of ``op``."""

    __slots__ = ("op", "index")

    def __init__(self, op: "Operation", index: int, type: Type, name_hint: Optional[str] = None) -> None:
        super().__init__(type, name_hint)
        self.op = op
        self.index = index

    @property
    def owner(self) -> "Operation":
        return self.op


class BlockArgument(Value):
    """Argument number ``index`` of ``block``."""

    __slots__ = ("block", "index")

    def __init__(self, block: "Block", index: int, type: Type, name_hint: Optional[str] = None) -> None:
        super().__init__(type, name_hint)
        self.block = block
        self.index = index

    @property
    def owner(self) -> "Block":
        return self.block


@dataclass(eq=False)
class Operation:
    """One operation. Identity semantics: two ops are equal only if they are the same object."""

    name: str
    operands: list[Value] = field(default_factory=list)
    results: list[OpResult] = field(default_factory=list)
    attributes: dict[str, Attribute] = field(default_factory=dict)
    regions: list["Region"] = field(default_factory=list)
    successors: list["Block"] = field(default_factory=list)
    loc: Location = UNKNOWN
    parent: Optional["Block"] = None

    @staticmethod
    def create(
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: Optional[dict[str, Attribute]] = None,
        regions: Sequence["Region"] = (),
        loc: Location = UNKNOWN,
        result_names: Optional[Sequence[Optional[str]]] = None,
    ) -> "Operation":
        """Build an op, creating its results and adopting its regions."""
        op = Operation(name, list(operands), [], dict(attributes or {}), [], [], loc)
        names = list(result_names) if result_names is not None else [None] * len(result_types)
        op.results = [OpResult(op, i, t, names[i]) for i, t in enumerate(result_types)]
        for r in regions:
            op.add_region(r)
        return op

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0] if "." in self.name else ""

    @property
    def result(self) -> OpResult:
        """The single result (error if the op has zero or several)."""
        if len(self.results) != 1:
            raise ValueError(f"{self.name} has {len(self.results)} results, not 1")
        return self.results[0]

    def add_region(self, region: "Region") -> "Region":
        region.parent = self
        self.regions.append(region)
        return region

    def attr(self, name: str, default: Optional[Attribute] = None) -> Optional[Attribute]:
        return self.attributes.get(name, default)

    def walk(self) -> Iterator["Operation"]:
        """This op and every op nested in its regions, in pre-order."""
        yield self
        for region in self.regions:
            for block in region.blocks:
                for op in block.ops:
                    yield from op.walk()

    @property
    def parent_op(self) -> Optional["Operation"]:
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    def ancestors(self) -> Iterator["Operation"]:
        """Enclosing ops, innermost first."""
        p = self.parent_op
        while p is not None:
            yield p
            p = p.parent_op

    def is_ancestor_of(self, other: "Operation") -> bool:
        return any(a is self for a in other.ancestors())

    def __repr__(self) -> str:
        return f"<Operation {self.name} at {self.loc}>"


@dataclass(eq=False)
class Block:
    """A basic block: arguments and a list of ops (the last one usually a terminator)."""

    args: list[BlockArgument] = field(default_factory=list)
    ops: list[Operation] = field(default_factory=list)
    label: Optional[str] = None  # source label without '^'
    parent: Optional["Region"] = None

    @staticmethod
    def create(arg_types: Sequence[Type] = (), arg_names: Optional[Sequence[Optional[str]]] = None) -> "Block":
        b = Block()
        names = list(arg_names) if arg_names is not None else [None] * len(arg_types)
        for t, n in zip(arg_types, names):
            b.add_arg(t, n)
        return b

    def add_arg(self, type: Type, name_hint: Optional[str] = None) -> BlockArgument:
        a = BlockArgument(self, len(self.args), type, name_hint)
        self.args.append(a)
        return a

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Operation) -> Operation:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def remove(self, op: Operation) -> None:
        self.ops.remove(op)
        op.parent = None

    @property
    def terminator(self) -> Optional[Operation]:
        return self.ops[-1] if self.ops else None

    @property
    def parent_op(self) -> Optional[Operation]:
        return self.parent.parent if self.parent is not None else None


@dataclass(eq=False)
class Region:
    """An ordered list of blocks owned by an op."""

    blocks: list[Block] = field(default_factory=list)
    parent: Optional[Operation] = None

    @staticmethod
    def of(*blocks: Block) -> "Region":
        r = Region()
        for b in blocks:
            r.add_block(b)
        return r

    def add_block(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]


@dataclass(eq=False)
class Module:
    """A parsed file (or one ``// -----`` split of it).

    ``op`` is the ``builtin.module`` op whose single block holds the top-level
    ops; a file without an explicit ``module { }`` gets an implicit one
    (``explicit`` False) so printing gives back the same shape.
    """

    op: Operation
    explicit: bool = True
    attribute_aliases: dict[str, Attribute] = field(default_factory=dict)
    type_aliases: dict[str, Type] = field(default_factory=dict)
    filename: str = "<string>"

    @staticmethod
    def empty(filename: str = "<string>") -> "Module":
        op = Operation.create("builtin.module", regions=[Region.of(Block())])
        return Module(op, explicit=False, filename=filename)

    @property
    def body(self) -> Block:
        return self.op.regions[0].entry

    @property
    def ops(self) -> list[Operation]:
        return self.body.ops

    def walk(self) -> Iterator[Operation]:
        for op in self.body.ops:
            yield from op.walk()

    def functions(self) -> list[Operation]:
        """Top-level func.func and handshake.func ops (also inside nested modules)."""
        return [op for op in self.walk() if op.name in ("func.func", "handshake.func")]

    def functions_by_name(self, op_name: str) -> dict[str, Operation]:
        """The functions of one kind (``func.func`` or ``handshake.func``) by symbol name; the first wins."""
        from loom.ir.attributes import StringAttr

        out: dict[str, Operation] = {}
        for f in self.functions():
            name = f.attributes.get("sym_name")
            if f.name == op_name and isinstance(name, StringAttr):
                out.setdefault(name.value, f)
        return out

    def lookup(self, sym_name: str) -> Optional[Operation]:
        """Top-level op whose ``sym_name`` attribute equals ``sym_name``."""
        from loom.ir.attributes import StringAttr

        for op in self.walk():
            a = op.attributes.get("sym_name")
            if isinstance(a, StringAttr) and a.value == sym_name:
                return op
        return None


def users(root: Operation, value: Value) -> list[tuple[Operation, int]]:
    """Every (op, operand index) under ``root`` that reads ``value``."""
    return [(op, i) for op in root.walk() for i, v in enumerate(op.operands) if v is value]


def replace_all_uses(root: Operation, old: Value, new: Value) -> int:
    """Point every use of ``old`` under ``root`` at ``new``; returns how many were changed."""
    n = 0
    for op in root.walk():
        for i, v in enumerate(op.operands):
            if v is old:
                op.operands[i] = new
                n += 1
    return n


def defining_op(value: Value) -> Optional[Operation]:
    return value.op if isinstance(value, OpResult) else None


def is_declaration(func: Operation) -> bool:
    """True for a function op without a body (``func.func private @f(i32)``, an external ``handshake.func``)."""
    return not func.regions or not func.regions[0].blocks
