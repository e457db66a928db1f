"""SSA names while parsing: one name scope per isolated-from-above op, nested levels per region, and
forward references (graph regions, cycles) as placeholders patched when the definition appears.

Anything still undefined when its scope closes is reported at its first use.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from loom.diagnostics import VerifyError
from loom.dialects.syntax import OperandRef
from loom.ir.core import Operation, Value
from loom.ir.location import Location
from loom.ir.types import Type
from loom.mlir.lexer import Tok

CODE_UNDEFINED = "CPL_IR_UNDEFINED_VALUE"
CODE_REDEFINITION = "CPL_IR_REDEFINITION"
CODE_TYPE_MISMATCH = "CPL_IR_TYPE_MISMATCH"


class Placeholder(Value):
    """Stands for ``%name#index`` until its definition is parsed."""

    __slots__ = ("key",)

    def __init__(self, type: Type | None, key: tuple[str, int]) -> None:
        super().__init__(type, key[0])  # type: ignore[arg-type]
        self.key = key


@dataclass
class Forward:
    """Uses of one not-yet-defined result: its placeholder, the first use (for errors), every (op, operand #)."""

    placeholder: Placeholder
    first: OperandRef
    uses: list[tuple[Operation, int]] = field(default_factory=list)


@dataclass
class NameScope:
    """SSA names visible in one isolated-from-above op (function, module)."""

    values: dict[str, list[Value]] = field(default_factory=dict)
    levels: list[list[str]] = field(default_factory=lambda: [[]])
    forward: dict[str, dict[int, Forward]] = field(default_factory=dict)  # name -> result # -> uses


class SsaNames:
    """The stack of name scopes of the op being parsed; ``loc`` turns a token into a location."""

    def __init__(self, loc: Callable[[Tok], Location]) -> None:
        self.loc = loc
        self.scopes: list[NameScope] = []

    def push(self) -> None:
        """Open the scope of an isolated-from-above op (or the module)."""
        self.scopes.append(NameScope())

    def pop(self) -> None:
        """Close the innermost scope; a name used in it and never defined is an error at its first use."""
        sc = self.scopes.pop()
        pending = [f for uses in sc.forward.values() for f in uses.values()]
        if pending:
            fwd = min(pending, key=lambda f: f.first.tok.start)
            raise VerifyError(f"use of undefined value '%{fwd.first.name}'", self.loc(fwd.first.tok), CODE_UNDEFINED)

    def drop(self) -> None:
        """Discard the innermost scope unchecked (unwinding after an error)."""
        self.scopes.pop()

    def open_level(self) -> None:
        """Names defined from here until ``close_level`` are visible only inside one region."""
        self.scope.levels.append([])

    def close_level(self) -> None:
        for n in self.scope.levels.pop():
            self.scope.values.pop(n, None)

    @property
    def scope(self) -> NameScope:
        return self.scopes[-1]

    def define(self, name: str, values: list[Value], tok: Tok) -> None:
        """Bind ``%name`` to ``values`` (one per result) and patch earlier forward uses."""
        sc = self.scope
        if name in sc.values:
            raise VerifyError(f"redefinition of SSA value '%{name}'", self.loc(tok), CODE_REDEFINITION)
        sc.values[name] = values
        sc.levels[-1].append(name)
        for k, fwd in sorted(sc.forward.pop(name, {}).items()):
            if k >= len(values):
                raise VerifyError(
                    f"'%{name}' has {len(values)} result{'s' if len(values) != 1 else ''}, no result #{k}",
                    self.loc(fwd.first.tok),
                    CODE_UNDEFINED,
                )
            self._patch(fwd, values[k])

    def _patch(self, fwd: Forward, value: Value) -> None:
        want = fwd.placeholder.type
        if want is not None and value.type != want:
            raise VerifyError(
                f"use of value '%{fwd.first.name}' expects type {want}, but it is defined with type {value.type}",
                self.loc(fwd.first.tok),
                CODE_TYPE_MISMATCH,
            )
        for op, i in fwd.uses:
            op.operands[i] = value

    def resolve(self, ref: OperandRef, want: Type | None) -> Value:
        """The value ``ref`` names (a placeholder if not defined yet), checked against ``want``."""
        sc = self.scope
        vals = sc.values.get(ref.name)
        if vals is not None:
            if ref.index >= len(vals):
                raise VerifyError(
                    f"'%{ref.name}' has {len(vals)} result{'s' if len(vals) != 1 else ''}, no result #{ref.index}",
                    self.loc(ref.tok),
                    CODE_UNDEFINED,
                )
            v = vals[ref.index]
            if want is not None and v.type != want:
                raise VerifyError(
                    f"use of value '%{ref.name}' expects type {want}, but it has type {v.type}",
                    self.loc(ref.tok),
                    CODE_TYPE_MISMATCH,
                )
            return v
        pending = sc.forward.setdefault(ref.name, {})
        fwd = pending.get(ref.index)
        if fwd is None:
            fwd = Forward(Placeholder(want, (ref.name, ref.index)), ref)
            pending[ref.index] = fwd
        elif want is not None:
            if fwd.placeholder.type is None:
                fwd.placeholder.type = want
            elif fwd.placeholder.type != want:
                raise VerifyError(
                    f"use of value '%{ref.name}' expects type {want}, but an earlier use expects {fwd.placeholder.type}",
                    self.loc(ref.tok),
                    CODE_TYPE_MISMATCH,
                )
        return fwd.placeholder

    def use(self, op: Operation, i: int, value: Value) -> None:
        """Record that operand ``i`` of ``op`` is ``value``, so a placeholder there gets patched."""
        if isinstance(value, Placeholder):
            name, k = value.key
            self.scope.forward[name][k].uses.append((op, i))
