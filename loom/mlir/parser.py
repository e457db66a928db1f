"""MLIR text -> loom IR: the op-level recursive-descent parser.

Ops, regions, blocks and the generic op form are parsed here; each registered
op's custom syntax (``loom.dialects``) is driven through the ``AsmParser``
services of the token cursor (``cursor.py``), which ``Parser`` extends; SSA
names and forward references are ``ssa.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from loom.diagnostics import LoomError, ParseError
from loom.dialects.registry import OpDef, lookup
from loom.dialects.syntax import OpDraft, OperandRef
from loom.ir.attributes import Attribute
from loom.ir.core import Block, Module, Operation, Region, Value
from loom.ir.location import Location
from loom.ir.types import FunctionType, Type
from loom.mlir.cursor import Cursor
from loom.mlir.lexer import EOF_TYPE, Tok
from loom.mlir.ssa import SsaNames
from loom.mlir.typeattr import unescape_string

MAX_REGION_DEPTH = 100  # nested regions; deeper input is rejected instead of overflowing the stack


@dataclass
class _BlockScope:
    """Block labels of one region: defined blocks and forward-referenced ones."""

    blocks: dict[str, Block] = field(default_factory=dict)
    defined: set[str] = field(default_factory=set)
    first_use: dict[str, Tok] = field(default_factory=dict)


UNKNOWN_OP = "CPL_IR_UNKNOWN_OP"
# mlir-opt passes that bring a dialect outside loom's subset down into it
_HINTS = {
    "affine": " (run 'mlir-opt --lower-affine' first to get scf/arith/memref)",
    "linalg": " (run 'mlir-opt --convert-linalg-to-loops' on bufferized IR first)",
    "tensor": " (bufferize first: 'mlir-opt --one-shot-bufferize')",
    "bufferization": " (bufferize first: 'mlir-opt --one-shot-bufferize')",
    "vector": " (loom handles scalar code: 'mlir-opt --convert-vector-to-scf' or unvectorized input)",
    "llvm": " (loom reads MLIR before conversion to the llvm dialect)",
}


class _OpParser:
    """Parser's ops: result names, the custom form (the op's own syntax) or the generic form, successors
    (a mixin; the state and the cursor are Parser's)."""

    def parse_op(self) -> Operation:
        start = self.peek()
        loc = self.loc(start)
        defs: list[tuple[str, int, Tok]] = []
        if start.type == "PERCENT_ID":
            defs = self._parse_result_defs()
        n_bound = sum(n for _, n, _ in defs)
        tok = self.peek()
        if tok.type == "STRING":
            op = self._parse_generic(loc, n_bound)
        elif tok.is_bare:
            op = self._parse_custom(loc, n_bound)
        else:
            raise self.error(f"expected operation name, found {tok.describe()}")
        text = self.parse_optional_loc()
        if text is not None:
            op.loc = Location(loc.file, loc.line, loc.col, text)
        if defs and len(op.results) != n_bound:
            raise ParseError(
                f"operation defines {len(op.results)} result{'s' if len(op.results) != 1 else ''} but {n_bound} "
                f"name{'s are' if n_bound != 1 else ' is'} bound",
                loc,
            )
        k = 0
        for name, n, dtok in defs:
            vals: list[Value] = op.results[k : k + n]  # type: ignore[assignment]
            for v in vals:
                v.name_hint = name
            self.names.define(name, vals, dtok)
            k += n
        opdef = lookup(op.name)
        if opdef is not None and opdef.normalize is not None:
            opdef.normalize(op)
        return op

    def _parse_result_defs(self) -> list[tuple[str, int, Tok]]:
        defs = []
        while True:
            tok = self.peek()
            if tok.type != "PERCENT_ID" or "#" in tok.value:
                raise self.error(f"expected result name, found {tok.describe()}")
            self.next()
            n = 1
            if self.accept(":"):
                ctok = self.peek()
                n = self.parse_int()
                if n < 1:
                    raise self.error("result group size must be positive", ctok)
            defs.append((tok.value[1:], n, tok))
            if not self.accept(","):
                break
        self.expect("=", " after result names")
        return defs

    def _resolve_name(self, tok: Tok) -> str:
        name = tok.value
        if "." in name:
            return name
        default = next((d for d in reversed(self.dialects) if d), None)
        if default is not None and lookup(f"{default}.{name}") is not None:
            return f"{default}.{name}"
        if lookup(f"builtin.{name}") is not None:
            return f"builtin.{name}"
        raise ParseError(f"unknown operation '{name}'", self.loc(tok), UNKNOWN_OP)

    def _parse_custom(self, loc: Location, n_bound: int) -> Operation:
        tok = self.next()
        name = self._resolve_name(tok)
        opdef = lookup(name)
        if opdef is None or opdef.syntax is None:
            raise ParseError(
                f"'{name}' is not an operation loom knows; only its generic form \"{name}\"(...) can be read"
                + _HINTS.get(name.split(".", 1)[0], ""),
                self.loc(tok),
                UNKNOWN_OP,
            )
        st = OpDraft(name, loc, n_bound if n_bound else -1)
        self.op_stack.append((name, opdef))
        try:
            opdef.syntax.parse(self, st)
        finally:
            self.op_stack.pop()
        if st.result_types is None or st.operand_types is None:  # pragma: no cover - every Sig sets both
            raise self.error(f"syntax of '{name}' did not give the op's types", tok)
        return self._build(st)

    def _build(self, st: OpDraft) -> Operation:
        op = Operation.create(st.name, [], st.result_types or [], st.attributes, st.regions, st.loc)
        types = st.operand_types or []
        for i, ref in enumerate(st.operands):
            v = self.names.resolve(ref, types[i] if i < len(types) else None)
            op.operands.append(v)
            self.names.use(op, i, v)
        op.successors = list(st.successors)
        return op

    def _parse_generic(self, loc: Location, n_bound: int) -> Operation:
        tok = self.next()
        name = unescape_string(tok.value, self.loc(tok))
        if not name:
            raise self.error("empty operation name", tok)
        opdef = lookup(name)
        refs = self.parse_operand_list("(", ")")
        successors: list[Block] = []
        if self.at("["):
            self.next()
            successors.append(self._parse_successor())
            while self.accept(","):
                successors.append(self._parse_successor())
            self.expect("]", " after successor list")
        attrs: dict[str, Attribute] = {}
        if self.at("<") and self.peek(1).type == "LBRACE":
            self.next()
            attrs.update(self.parse_attr_dict())
            self.expect(">", " after properties")
        regions: list[Region] = []
        if self.at("(") and self.peek(1).type == "LBRACE":
            self.next()
            self.op_stack.append((name, opdef))
            try:
                regions.append(self.parse_region())
                while self.accept(","):
                    regions.append(self.parse_region())
            finally:
                self.op_stack.pop()
            self.expect(")", " after regions")
        dtok = self.peek()
        for k, v in self.parse_attr_dict().items():
            if k in attrs:
                raise self.error(f"attribute '{k}' is given twice", dtok)
            attrs[k] = v
        ctok = self.expect(":", " before the generic op's function type")
        ft = self.parse_type()
        if not isinstance(ft, FunctionType):
            raise self.error(f"expected a function type '(...) -> (...)', found '{ft}'", ctok)
        if len(ft.inputs) != len(refs):
            raise self.error(f"{len(refs)} operands but {len(ft.inputs)} operand types", ctok)
        st = OpDraft(name, loc, n_bound, refs, list(ft.inputs), list(ft.results), attrs, regions)
        op = self._build(st)
        op.successors = successors
        return op

    def parse_successor(self) -> Block:
        """``^label``: a block of the region being parsed (created on first mention)."""
        return self._parse_successor()

    def _parse_successor(self) -> Block:
        tok = self.peek()
        if tok.type != "CARET_ID":
            raise self.error(f"expected block name '^...', found {tok.describe()}")
        self.next()
        if not self.block_scopes:
            raise self.error("successor outside of a region", tok)
        bs = self.block_scopes[-1]
        label = tok.value[1:]
        if label not in bs.blocks:
            bs.blocks[label] = Block(label=label)
            bs.first_use[label] = tok
        return bs.blocks[label]


class _RegionParser:
    """Parser's regions: a region's blocks, their headers and arguments, the implicit terminator (a mixin)."""

    def parse_region(
        self,
        entry_args: list[tuple[OperandRef, Type]] | None = None,
        implicit_terminator: str | None = None,
    ) -> Region:
        """``{ blocks }`` of the op being parsed; ``entry_args`` were named in the op's header."""
        open_tok = self.expect("{")
        self.depth += 1
        if self.depth > MAX_REGION_DEPTH:
            raise self.error(f"regions nested more than {MAX_REGION_DEPTH} levels deep", open_tok)
        _, opdef = self.op_stack[-1] if self.op_stack else ("", None)
        isolated = opdef is not None and opdef.isolated
        if isolated:
            self.names.push()
        self.names.open_level()
        self.dialects.append(opdef.default_dialect if opdef is not None else None)
        self.block_scopes.append(_BlockScope())
        self.op_stack.append(("", None))  # ops inside the region are not the op's own syntax
        bs = self.block_scopes[-1]
        done = False
        try:
            region = self._parse_region_body(entry_args, open_tok)
            for label in bs.blocks:
                if label not in bs.defined:
                    raise self.error(f"reference to undefined block '^{label}'", bs.first_use[label])
            done = True
        finally:  # unwind this region's state also on errors, so the enclosing regions' state stays intact
            self.op_stack.pop()
            self.block_scopes.pop()
            self.dialects.pop()
            self.names.close_level()
            self.depth -= 1
            if isolated and not done:
                self.names.drop()
        if isolated:
            self.names.pop()
        if implicit_terminator is not None:
            self._ensure_terminator(region, implicit_terminator)
        return region

    def _parse_region_body(self, entry_args: list[tuple[OperandRef, Type]] | None, open_tok: Tok) -> Region:
        region = Region()
        if entry_args is not None:
            if self.peek().type == "CARET_ID" and not entry_args:  # `^bb0:` on an entry block without arguments
                tok = self.peek()
                block = region.add_block(self._parse_block_header())
                if block.args:
                    raise self.error("the signature declares no arguments, but the entry block has some", tok)
            elif self.peek().type == "CARET_ID":
                raise self.error("the entry block's arguments are already named in the op header; no block label here")
            else:
                block = region.add_block(Block())
            for ref, t in entry_args:
                if ref.index or "#" in ref.tok.value:
                    raise self.error("block argument names cannot have a '#' result number", ref.tok)
                self.names.define(ref.name, [block.add_arg(t, ref.name)], ref.tok)
        elif self.peek().type == "CARET_ID":
            block = region.add_block(self._parse_block_header())
        elif self.at("}"):
            self.next()
            return region
        else:
            block = region.add_block(Block())
        while True:
            tok = self.peek()
            if tok.type == "RBRACE":
                self.next()
                return region
            if tok.type == EOF_TYPE:
                raise self.error(
                    f"expected '}}' to close the region opened at {open_tok.line}:{open_tok.col}, found end of input", tok
                )
            if tok.type == "CARET_ID":
                block = region.add_block(self._parse_block_header())
                continue
            block.append(self.parse_op())

    def _parse_block_header(self) -> Block:
        tok = self.next()
        label = tok.value[1:]
        bs = self.block_scopes[-1]
        if label in bs.defined:
            raise self.error(f"redefinition of block '^{label}'", tok)
        bs.defined.add(label)
        block = bs.blocks.setdefault(label, Block(label=label))
        if self.accept("(") and not self.accept(")"):
            while True:
                ref = self.parse_operand()
                if ref.index or "#" in ref.tok.value:
                    raise self.error("block argument names cannot have a '#' result number", ref.tok)
                self.expect(":", " after block argument name")
                t = self.parse_type()
                self.parse_optional_loc()
                self.names.define(ref.name, [block.add_arg(t, ref.name)], ref.tok)
                if not self.accept(","):
                    break
            self.expect(")", " after block arguments")
        self.expect(":", " after block label")
        return block

    @staticmethod
    def _ensure_terminator(region: Region, name: str) -> None:
        if not region.blocks:
            region.add_block(Block())
        block = region.blocks[-1]
        last = block.terminator
        if last is not None:
            opdef = lookup(last.name)
            if opdef is None or opdef.terminator:
                return
        block.append(Operation.create(name))


class Parser(_OpParser, _RegionParser, Cursor):
    """Parses one text (one ``// -----`` split) into a Module: its aliases and top-level ops here, each op and
    region by the mixins above, the tokens by ``Cursor``."""

    def __init__(self, text: str, filename: str) -> None:
        super().__init__(text, filename)
        self.names = SsaNames(self.loc)
        self.block_scopes: list[_BlockScope] = []
        self.dialects: list[str | None] = [None]
        self.op_stack: list[tuple[str, OpDef | None]] = []
        self.depth = 0

    def parse_module(self) -> Module:
        self._scan_loc_aliases()
        self.names.push()
        ops: list[Operation] = []
        while self.peek().type != EOF_TYPE:
            if self.peek().type in ("HASH_ID", "BANG_ID") and self.peek(1).type == "EQUAL":
                self._parse_alias()
                continue
            ops.append(self.parse_op())
        self.names.pop()
        if len(ops) == 1 and ops[0].name == "builtin.module":
            module = Module(ops[0], explicit=True, filename=self.filename)
        else:
            module = Module.empty(self.filename)
            module.op.loc = Location(self.filename, 1, 1)  # an implicit module starts the file (even an empty one)
            for op in ops:
                module.body.append(op)
        module.attribute_aliases = dict(self.aliases.attributes)
        module.type_aliases = dict(self.aliases.types)
        return module

    def _scan_loc_aliases(self) -> None:
        """Collect ``#name = loc(...)`` definitions first: files print them after their uses."""
        toks = self.toks
        for k in range(len(toks) - 3):
            if toks[k].type == "HASH_ID" and toks[k + 1].type == "EQUAL" and toks[k + 2].value == "loc" and toks[k + 3].type == "LPAR":
                save = self.pos
                self.pos = k + 2
                try:
                    text = self.parse_optional_loc()
                finally:
                    self.pos = save
                if text is not None:
                    self.loc_aliases[toks[k].value[1:]] = text

    def _parse_alias(self) -> None:
        tok = self.next()
        self.expect("=")
        name = tok.value[1:]
        if tok.type == "HASH_ID":
            if self.at("loc") and self.peek(1).type == "LPAR":
                self.parse_optional_loc()
                return
            if name in self.aliases.attributes:
                raise self.error(f"redefinition of attribute alias '#{name}'", tok)
            self.aliases.attributes[name] = self.parse_attribute()
        else:
            if name in self.aliases.types:
                raise self.error(f"redefinition of type alias '!{name}'", tok)
            self.aliases.types[name] = self.parse_type()

def parse_module_text(text: str, filename: str) -> Module:
    """Parse ``text`` (one split) without verifying it; only LoomError escapes."""
    try:
        return Parser(text, filename).parse_module()
    except LoomError:
        raise
    except RecursionError:
        raise ParseError("input nested too deeply", Location(filename, 1, 1)) from None
