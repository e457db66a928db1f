"""Input assumptions: what the user says legal inputs are (``--assume``, ``{loom.range = [lo, hi]}``).

An assumption is a conjunction of comparisons over integer arguments, integer
literals, the elements of a memref argument (``idx[*]``: every element) and its
sizes (``dim(a)`` is dimension 0, ``dim(a, 1)`` dimension 1), e.g.
``lb >= 0 && ub <= 1048576``, ``0 <= n <= 4096`` (chains allowed),
``0 <= idx[*] < dim(a)`` or ``dim(a) >= n``.
Arguments are read as signed integers of their type (``index`` is 64 bits), as the
lowering's streams compare them. Every obligation is then proved for the inputs
that satisfy the assumptions only, and every report lists them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Optional, Sequence, Union

import z3

from loom.diagnostics import LoomError
from loom.ir.attributes import ArrayAttr, DictAttr, IntegerAttr, StringAttr
from loom.ir.core import Operation
from loom.ir.types import MemRefType
from loom.runtime import function_arg_names
from loom.runtime.host_size import host_sizes
from loom.verify import host_length
from loom.verify.host_length import HostLength
from loom.semantics.layout import int_width

CODE = "CPL_VERIFY_ASSUME"
OPS = ("<=", ">=", "==", "!=", "<", ">")
_NAME = r"[A-Za-z_][A-Za-z0-9_$.]*"
_TOKEN = re.compile(rf"\s*(?:(?P<num>\d+)|(?P<arith>[-+*])|dim\s*\(\s*(?P<dim>{_NAME})\s*(?:,\s*(?P<dimk>\d+)\s*)?\)"
                    rf"|(?P<elem>{_NAME})\s*\[\s*\*\s*\]|(?P<name>{_NAME})|(?P<op><=|>=|==|!=|<|>)|(?P<and>&&))")
ELEMENTS = "[*]"  # ``a[*]``: every element of memref argument a


def element_of(operand: Union[str, int]) -> Optional[str]:
    """The memref argument an ``a[*]`` operand ranges over (None for any other operand)."""
    return operand[:-len(ELEMENTS)] if isinstance(operand, str) and operand.endswith(ELEMENTS) else None


def dim_of(operand: Union[str, int]) -> Optional[tuple[str, int]]:
    """(memref argument, dimension) of a ``dim(a, k)`` operand (None for any other operand)."""
    if isinstance(operand, str) and operand.startswith("dim(") and operand.endswith(")"):
        name, k = operand[4:-1].split(",")
        return name, int(k)
    return None


@dataclass(frozen=True)
class Sum:
    """A linear side: ``sum(coef * operand) + const`` over operand names (``n``, ``a[*]``, ``dim(a,k)``),
    compared over the mathematical integers (no wrap-around)."""

    terms: tuple[tuple[int, str], ...]
    const: int = 0

    def names(self) -> set[str]:
        return {n for _, n in self.terms}

    def __str__(self) -> str:
        items = [f"{c} * {n}" if c != 1 else n for c, n in self.terms] + ([str(self.const)] if self.const else [])
        return " + ".join(items).replace("+ -", "- ")


Side = Union[str, int, Sum, "HostLength"]


@dataclass(frozen=True)
class Compare:
    """``left op right``: each side an operand name (str), an integer literal or a linear ``Sum``."""

    left: Side
    op: str
    right: Side

    def __str__(self) -> str:
        return f"{self.left} {self.op} {self.right}"

    def names(self) -> set[str]:
        out: set[str] = set()
        for x in (self.left, self.right):
            if isinstance(x, str):
                out.add(x)
            elif isinstance(x, (Sum, HostLength)):
                out |= x.names()
        return out


@dataclass(frozen=True)
class Assumption:
    """One user assumption: its text as written, where it came from, and its comparisons (all must hold)."""

    text: str
    origin: str  # "--assume" or "loom.range of %n"
    atoms: tuple[Compare, ...]

    def names(self) -> set[str]:
        return {x for a in self.atoms for x in a.names()}


def parse_assumption(text: str, origin: str = "--assume") -> Assumption:
    """``lb >= 0 && ub <= 1048576`` -> an Assumption; a malformed text is a usage error (``ValueError``)."""
    atoms: list[Compare] = []
    for part in text.split("&&"):
        toks = _tokens(part.strip(), text)
        sides: list[Side] = []
        ops: list[str] = []
        k = 0
        while True:
            side, k = _side(toks, k, text, part)
            sides.append(side)
            if k == len(toks):
                break
            if toks[k] not in OPS:
                raise ValueError(f"--assume {text!r}: expected <operand> <comparison> <operand>, got {part.strip()!r}")
            ops.append(str(toks[k]))
            k += 1
        if not ops:
            raise ValueError(f"--assume {text!r}: expected comparisons like 'n <= 1024' joined by '&&'")
        atoms += [Compare(sides[j], ops[j], sides[j + 1]) for j in range(len(ops))]
    return Assumption(text.strip(), origin, tuple(atoms))


def _side(toks: list, k: int, text: str, part: str) -> tuple[Side, int]:
    """One side of a comparison from ``toks[k]`` on: ``[-] item (('+'|'-') item)*``, an item being an integer,
    an operand, or an integer times an operand (either order). A lone operand or integer stays as it is."""
    bad = ValueError(f"--assume {text!r}: expected comparisons like 'n <= 1024' or 'a + 2 * b < dim(c)' joined "
                     f"by '&&', got {part.strip()!r}")
    terms: dict[str, int] = {}
    const = 0
    sign = 1
    if k < len(toks) and toks[k] == "-":
        sign, k = -1, k + 1
    first = True
    while True:
        if k >= len(toks) or toks[k] in OPS or toks[k] in ("+", "-", "*"):
            raise bad
        x, k = toks[k], k + 1
        coef, name = (x, None) if isinstance(x, int) else (1, x)
        if k < len(toks) and toks[k] == "*":
            if k + 1 >= len(toks) or toks[k + 1] in OPS or toks[k + 1] in ("+", "-", "*"):
                raise bad
            y = toks[k + 1]
            k += 2
            if isinstance(y, int) == (name is None):  # int * int or name * name: not linear / not supported
                if isinstance(y, int):
                    coef *= y
                else:
                    raise bad
            elif isinstance(y, int):
                coef *= y
            else:
                name = y
        if name is None:
            const += sign * coef
        else:
            terms[name] = terms.get(name, 0) + sign * coef
        first = False
        if k < len(toks) and toks[k] in ("+", "-"):
            sign = 1 if toks[k] == "+" else -1
            k += 1
            continue
        break
    del first
    if not terms:
        return const, k
    if len(terms) == 1 and const == 0 and next(iter(terms.values())) == 1:
        return next(iter(terms)), k
    return Sum(tuple(sorted((c, n) for n, c in terms.items() if c)), const), k


def _tokens(part: str, whole: str) -> list[Union[str, int]]:
    out: list[Union[str, int]] = []
    pos = 0
    while pos < len(part):
        m = _TOKEN.match(part, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"--assume {whole!r}: cannot read {part[pos:].strip()!r}")
        pos = m.end()
        if m.group("num") is not None:
            out.append(int(m.group("num")))
        elif m.group("dim") is not None:
            out.append(f"dim({m.group('dim')},{int(m.group('dimk') or 0)})")
        elif m.group("elem") is not None:
            out.append(m.group("elem") + ELEMENTS)
        elif m.group("name") is not None:
            out.append(m.group("name"))
        elif m.group("op") is not None:
            out.append(m.group("op"))
        elif m.group("arith") is not None:
            out.append(m.group("arith"))
        else:
            raise ValueError(f"--assume {whole!r}: '&&' joins comparisons")
    return out


def range_assumptions(func: Operation) -> list[Assumption]:
    """The ``{loom.range = [lo, hi]}`` argument attributes of a func.func or handshake.func, and its
    ``loom.assume = ["EXPR", ...]`` attribute (each EXPR as ``--assume`` reads it)."""
    out = []
    listed = func.attributes.get("loom.assume")
    if listed is not None:
        texts = listed.elements if isinstance(listed, ArrayAttr) else (listed,)
        for t in texts:
            if not isinstance(t, StringAttr):
                raise LoomError(f"loom.assume must be an array of strings, got {t}", func.loc, CODE)
            try:
                out.append(parse_assumption(t.value, "loom.assume"))
            except ValueError as e:
                raise LoomError(str(e).replace("--assume", "loom.assume", 1), func.loc, CODE) from None
    out += host_length_assumptions(func)
    attrs = func.attributes.get("arg_attrs")
    if not isinstance(attrs, ArrayAttr):
        return out
    names = function_arg_names(func)
    for name, d in zip(names, attrs.elements):
        r = d.get("loom.range") if isinstance(d, DictAttr) else None
        if r is None:
            continue
        if not (isinstance(r, ArrayAttr) and len(r.elements) == 2 and all(isinstance(e, IntegerAttr) for e in r.elements)):
            raise LoomError(f"loom.range of %{name} must be [lo, hi] with two integers, got {r}", func.loc, CODE)
        lo, hi = (e.value for e in r.elements)
        arg = func.regions[0].entry.args[names.index(name)]
        x = name + ELEMENTS if isinstance(arg.type, MemRefType) else name  # a memref's range bounds its elements
        out.append(Assumption(f"{lo} <= {x} <= {hi}", f"loom.range of %{name}",
                              (Compare(lo, "<=", x), Compare(x, "<=", hi))))
    return out


def host_length_assumptions(func: Operation) -> list[Assumption]:
    """``dim(buf, k) == <size>`` for every dynamic dimension of every buffer the host allocates (an argument with
    ``loom.host_size``): the host allocates exactly what the kernel asks for (``loom.verify.host_length``)."""
    out = []
    for h in host_sizes(func):
        dyn = [k for k, d in enumerate(h.type.shape) if d is None]
        for j, k in enumerate(dyn):
            length = HostLength(h, j)
            out.append(Assumption(f"dim({h.name}, {k}) == {length}", f"loom.host_size of %{h.name}: the host allocates "
                                  "exactly the size the kernel asks for, when below 2^48",
                                  (Compare(f"dim({h.name},{k})", "==", length),)))
    return out


def check_names(assumptions: Sequence[Assumption], func: Operation) -> None:
    """Every name an assumption uses is an integer argument of ``func``, or a memref argument under
    ``[*]`` (integer elements) or ``dim(..)`` (a dimension it has); else a located error."""
    names = function_arg_names(func)
    types = {n: a.type for n, a in zip(names, func.regions[0].entry.args)}
    for a in assumptions:
        for n in sorted(a.names()):
            elem, dim = element_of(n), dim_of(n)
            base = elem or (dim[0] if dim else n)
            if base not in types:
                known = ", ".join(k for k, t in types.items() if int_width(t) or isinstance(t, MemRefType)) or "none"
                raise LoomError(f"{a.origin} '{a.text}': '{base}' is not an argument of @{_sym(func)} "
                                f"(integer and memref arguments: {known})", func.loc, CODE)
            t = types[base]
            if elem is not None or dim is not None:
                if not isinstance(t, MemRefType):
                    raise LoomError(f"{a.origin} '{a.text}': '{n}' needs a memref argument; '{base}' has type {t}",
                                    func.loc, CODE)
                if elem is not None and int_width(t.element) is None:
                    raise LoomError(f"{a.origin} '{a.text}': the elements of '{base}' have type {t.element}; "
                                    "assumptions compare integer and index elements only", func.loc, CODE)
                if dim is not None and dim[1] >= t.rank:
                    raise LoomError(f"{a.origin} '{a.text}': '{base}' has rank {t.rank}, no dimension {dim[1]}",
                                    func.loc, CODE)
                continue
            if int_width(t) is None:
                raise LoomError(f"{a.origin} '{a.text}': argument '{n}' has type {t}; assumptions "
                                "compare integer and index arguments only", func.loc, CODE)


def _sym(func: Operation) -> str:
    s = func.attributes.get("sym_name")
    return getattr(s, "value", "?")


def to_z3(assumptions: Sequence[Assumption], arg: Callable[[str], Optional[z3.BitVecRef]],
          elements: Optional[Callable[[str], Sequence[z3.BitVecRef]]] = None) -> z3.BoolRef:
    """The assumptions as one Z3 formula over a checker's own argument constants.

    ``arg(name)`` gives the checker's bit-vector for an argument or a ``dim(a,k)`` operand (None: the
    checker does not model it, and the comparisons that need it are left out -- that only widens the
    inputs considered, so it never turns a refutation into a proof). ``elements(a)`` gives the terms of
    the values the checker reads from memref ``a``: a comparison over ``a[*]`` holds for each of them.
    """
    parts: list[z3.BoolRef] = []
    for a in assumptions:
        for c in a.atoms:
            sides = sorted(x for x in c.names() if element_of(x) is not None)
            if not sides:
                f = _compare(c, arg)
                if f is not None:
                    parts.append(f)
                continue
            if elements is None:
                continue
            mem = element_of(sides[0])
            for term in elements(mem):
                f = _compare(c, lambda n, term=term: term if n == mem + ELEMENTS else arg(n))
                if f is not None:
                    parts.append(f)
    return parts[0] if len(parts) == 1 else z3.And(*parts) if parts else z3.BoolVal(True)


def _compare(c: Compare, arg: Callable[[str], Optional[z3.BitVecRef]]) -> Optional[z3.BoolRef]:
    """One comparison in pure bit-vector logic (signed), so the checkers' queries stay QF_BV."""
    if isinstance(c.right, HostLength) and isinstance(c.left, str):
        dim = arg(c.left)
        return None if dim is None else host_length.assumed(c.right, dim, arg)
    if isinstance(c.left, Sum) or isinstance(c.right, Sum):
        return _compare_linear(c, arg)
    vals: list[Union[int, z3.BitVecRef]] = []
    for x in (c.left, c.right):
        v = x if isinstance(x, int) else arg(x)
        if v is None:
            return None
        vals.append(v)
    lhs, rhs = vals
    if isinstance(lhs, int) and isinstance(rhs, int):
        return z3.BoolVal(_py(c.op, lhs, rhs))
    width = max(v.size() for v in vals if not isinstance(v, int))
    lo, hi = -(1 << (width - 1)), (1 << (width - 1)) - 1
    sides = []
    for k, v in enumerate(vals):
        if isinstance(v, int):
            if not lo <= v <= hi:
                # a literal outside the argument's range: one answer for every argument value (take the
                # extreme value on the literal's side as the representative)
                probe = lo if v < lo else hi
                return z3.BoolVal(_py(c.op, v, probe) if k == 0 else _py(c.op, probe, v))
            sides.append(z3.BitVecVal(v, width))
        else:
            sides.append(z3.SignExt(width - v.size(), v) if v.size() < width else v)
    a, b = sides
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[c.op]


WIDE = 160  # bits of a linear side: 64-bit operands times coefficients below 2^64, a few dozen terms, no wrap


def _compare_linear(c: Compare, arg: Callable[[str], Optional[z3.BitVecRef]]) -> Optional[z3.BoolRef]:
    """A comparison with a linear side, over the mathematical integers (operands sign-extended, every sum in
    ``WIDE`` bits)."""
    sides = []
    for x in (c.left, c.right):
        s = x if isinstance(x, Sum) else Sum((), x) if isinstance(x, int) else Sum(((1, x),), 0)
        acc = z3.BitVecVal(s.const, WIDE)
        for coef, name in s.terms:
            v = arg(name)
            if v is None:
                return None
            acc = acc + z3.BitVecVal(coef, WIDE) * z3.SignExt(WIDE - v.size(), v)
        sides.append(acc)
    a, b = sides
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[c.op]


def _py(op: str, a: int, b: int) -> bool:
    return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "==": a == b, "!=": a != b}[op]


def holds(assumptions: Sequence[Assumption], values: dict[str, int]) -> bool:
    """Do concrete argument values (signed) satisfy every assumption? (Names without a value are skipped.)"""
    def value(x: Side) -> Optional[int]:
        if isinstance(x, int):
            return x
        if isinstance(x, Sum):
            vs = [values.get(n) for _, n in x.terms]
            return None if any(v is None for v in vs) else x.const + sum(k * v for (k, _), v in zip(x.terms, vs))
        return values.get(x)

    for a in assumptions:
        for c in a.atoms:
            if isinstance(c.right, HostLength) and isinstance(c.left, str):
                if host_length.holds(c.right, values.get(c.left), values) is False:
                    return False
                continue
            lv, rv = value(c.left), value(c.right)
            if lv is None or rv is None:
                continue
            if not _py(c.op, lv, rv):
                return False
    return True


def admits(assumptions: Sequence[Assumption], scalars: dict[str, int], shapes: dict[str, list[int]],
           elements: dict[str, list[int]]) -> bool:
    """Do concrete inputs satisfy every assumption? ``scalars`` are integer arguments (signed), ``shapes`` each
    memref's sizes (for ``dim(a, k)``), ``elements`` each integer memref's values (for ``a[*]``: every one)."""
    values: dict[str, int] = dict(scalars)
    for name, shape in shapes.items():
        for k, size in enumerate(shape):
            values[f"dim({name},{k})"] = size
    for a in assumptions:
        for c in a.atoms:
            mems = sorted({n[:-len(ELEMENTS)] for n in c.names() if element_of(n) is not None})
            if not mems:
                if not holds([Assumption(a.text, a.origin, (c,))], values):
                    return False
                continue
            for v in elements.get(mems[0], []):
                if not holds([Assumption(a.text, a.origin, (c,))], {**values, mems[0] + ELEMENTS: v}):
                    return False
    return True
