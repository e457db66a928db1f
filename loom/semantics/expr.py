"""The expression language of the operator tables.

Guards, emitted values and register updates are small immutable trees, never
Python lambdas, so that every consumer (simulator, Z3 verifier, HDL emitter) can
walk them. The function vocabulary an ``Apply`` may name is fixed and
documented in ``loom/semantics/functions.py`` and ``specs/semantics.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator, Optional, Union

from loom.ir.attributes import Attribute
from loom.ir.types import Type

TOKEN = None
"""The runtime value of a ``none`` (pure control) token."""


@dataclass(frozen=True)
class In:
    """The value at the head of input port ``port``; only valid for ports the rule reads."""

    port: str


@dataclass(frozen=True)
class Reg:
    """The current value of register ``name`` (before this firing's updates)."""

    name: str


@dataclass(frozen=True)
class Const:
    """A literal runtime value: an int (bit pattern or 0/1), a float, or ``TOKEN``."""

    value: object


@dataclass(frozen=True)
class ScalarInfo:
    """Static context of a ``scalar:<op>`` call: what ``eval_scalar`` needs besides the values."""

    attrs: tuple[tuple[str, Attribute], ...]
    operand_types: tuple[Type, ...]
    result_types: tuple[Type, ...]
    result_index: int = 0


@dataclass(frozen=True)
class Apply:
    """``fn(args...)``; ``param`` carries static data some functions need (e.g. ``ScalarInfo``)."""

    fn: str
    args: tuple["Expr", ...]
    param: Optional[object] = None


Expr = Union[In, Reg, Const, Apply]


def subexprs(e: Expr) -> Iterator[Expr]:
    """``e`` and every expression nested in it, pre-order."""
    yield e
    if isinstance(e, Apply):
        for a in e.args:
            yield from subexprs(a)


def ports_read(e: Expr) -> frozenset[str]:
    """Input ports whose head value ``e`` mentions."""
    return frozenset(x.port for x in subexprs(e) if isinstance(x, In))


def registers_read(e: Expr) -> frozenset[str]:
    """Registers ``e`` mentions."""
    return frozenset(x.name for x in subexprs(e) if isinstance(x, Reg))


def functions_used(e: Expr) -> frozenset[str]:
    """Function names applied anywhere in ``e``."""
    return frozenset(x.fn for x in subexprs(e) if isinstance(x, Apply))


# Small constructors that keep the tables readable.
def app(fn: str, *args: Expr, param: Optional[object] = None) -> Apply:
    return Apply(fn, tuple(args), param)


def is_true(e: Expr) -> Apply:
    """``e == 1`` for an i1 value."""
    return Apply("eq", (e, Const(1)))


def is_false(e: Expr) -> Apply:
    """``e == 0`` for an i1 value."""
    return Apply("eq", (e, Const(0)))


def format_expr(e: Expr) -> str:
    """Human-readable infix rendering used by ``describe``."""
    if isinstance(e, In):
        return e.port
    if isinstance(e, Reg):
        return "$" + e.name
    if isinstance(e, Const):
        if e.value is TOKEN:
            return "token"
        return repr(e.value)
    a = [format_expr(x) for x in e.args]
    if e.fn.startswith(("cmp.", "ucmp.")) and len(a) == 2:
        sym = e.fn.split(".", 1)[1]
        prefix = "u" if e.fn.startswith("u") else ""
        return f"({a[0]} {prefix}{sym} {a[1]})"
    if e.fn.startswith("step.") and len(a) == 2:
        return f"({a[0]} {e.fn[5:-1]} {a[1]})"
    if e.fn in ("eq", "ne", "and", "or") and len(a) == 2:
        sym = {"eq": "==", "ne": "!=", "and": "&&", "or": "||"}[e.fn]
        return f"({a[0]} {sym} {a[1]})"
    if e.fn == "not" and len(a) == 1:
        return f"!{a[0]}"
    if e.fn.startswith("scalar:") and isinstance(e.param, ScalarInfo) and len(e.param.result_types) > 1:
        return f"{e.fn[7:]}({', '.join(a)})#{e.param.result_index}"
    name = e.fn[7:] if e.fn.startswith("scalar:") else e.fn
    return f"{name}({', '.join(a)})"
