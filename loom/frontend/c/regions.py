"""DFG-domain selection (upstream spec-dse.md, layer 1): which contiguous SCF region becomes a DFG.

A candidate respects the SCF hierarchy: a whole function (``--region function``, the default), each
outermost loop nest (``--region nest``) or each innermost loop (``--region innermost``), or the loops and
functions a ``#pragma loom candidate`` line stands before. A loop candidate is outlined into its own
``func.func @<function>_L<line>``: the values it uses from outside become arguments (constants and
``memref.get_global`` are copied in instead), the loop's results become the function's results, and the
host function calls it with ``func.call`` where the loop was. What stays in the host is reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from loom.ir.attributes import StringAttr, SymbolRefAttr, TypeAttr
from loom.ir.core import Block, Module, Operation, Region, Value, replace_all_uses
from loom.ir.types import FunctionType
from loom.lower.clone import clone_op

LOOPS = ("scf.for", "scf.while")
MODES = ("function", "nest", "innermost")
_PRAGMA = re.compile(r"^\s*#\s*pragma\s+loom\s+candidate\b")
_COPIED = ("arith.constant", "memref.get_global")  # used from outside: copied into the kernel


@dataclass
class Selection:
    """The candidates (kernel function names, in order) and one line per host function saying what stays."""

    kernels: list[str] = field(default_factory=list)
    report: list[str] = field(default_factory=list)


def pragma_lines(path: Path) -> set[int]:
    """The source lines that follow a ``#pragma loom candidate`` (the loop or function it stands before)."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    out = set()
    for n, line in enumerate(lines):
        if _PRAGMA.match(line):
            k = n + 1
            while k < len(lines) and (not lines[k].strip() or lines[k].strip().startswith(("//", "/*", "#"))):
                k += 1
            out.add(k + 1)
    return out


_LOC = re.compile(r'loc\((?:"[^"]*"\()?(?:callsite\()?"([^"]*)":(\d+):(\d+)[) ]')  # see driver._LOC


def c_loc(op: Operation) -> tuple[str, int, int]:
    """The C source position an op came from (its ``loc(...)``), else its position in the MLIR text."""
    m = _LOC.search(op.loc.text or "")
    return (m[1], int(m[2]), int(m[3])) if m else (op.loc.file, op.loc.line, op.loc.col)


def _where(op: Operation) -> str:
    f, line, col = c_loc(op)
    return f"{f}:{line}:{col}"


def _sym(f: Operation) -> str:
    return f.attributes["sym_name"].value


def _loops_in(func: Operation, mode: str, lines: set[tuple[str, int]] | None) -> list[Operation]:
    """The loop ops of ``func`` that are candidates, outermost first, none inside another."""
    loops = [o for o in func.walk() if o.name in LOOPS]

    def enclosing(o: Operation) -> bool:
        return any(a.name in LOOPS for a in o.ancestors() if a is not o)

    if lines is not None:
        picked = [o for o in loops if c_loc(o)[:2] in lines]
        return [o for o in picked if not any(a in picked for a in o.ancestors() if a is not o)]
    if mode == "nest":
        return [o for o in loops if not enclosing(o)]
    return [o for o in loops if not any(x.name in LOOPS for x in o.walk() if x is not o)]  # innermost


def select(module: Module, mode: str | None, pragmas: set[tuple[str, int]], funcs: list[str] | None = None) -> Selection:
    """Outline the candidates of every public function of ``module`` (or of ``funcs``) in place."""
    sel = Selection()
    for func in [f for f in module.functions() if f.name == "func.func" and f.regions and f.regions[0].blocks]:
        name = _sym(func)
        if funcs is not None and name not in funcs:
            continue
        use_pragmas = mode is None and bool(pragmas)
        if (mode in (None, "function") and not use_pragmas) or (use_pragmas and c_loc(func)[:2] in pragmas):
            sel.kernels.append(name)
            sel.report.append(f"candidate @{name}: the whole function ({_where(func)}){_host_buffers(func)}")
            continue
        loops = _loops_in(func, mode or "nest", pragmas if use_pragmas else None)
        outlined = []
        for loop in loops:
            kernel = outline(module, func, loop, f"{name}_L{c_loc(loop)[1]}")
            sel.kernels.append(_sym(kernel))
            outlined.append(_sym(kernel))
            args = ", ".join(a.name_hint or "?" for a in kernel.regions[0].entry.args)
            sel.report.append(f"candidate @{_sym(kernel)}: the {loop.name} at {_where(loop)} (arguments: {args})")
        left = sum(1 for o in func.walk() if o is not func and o.name not in ("func.call", "func.return"))
        calls = ", ".join(f"@{k}" for k in outlined) or "no candidate"
        sel.report.append(f"host @{name}: {left} op(s) stay on the host; it calls {calls}")
    return sel


def _host_buffers(func: Operation) -> str:
    """What the host allocates for a kernel (loom/lower/host_alloc.py): its dynamically sized scratch buffers."""
    from loom.lower.host_alloc import host_buffers

    bufs = host_buffers(func)
    return "".join(f"; the host allocates %{b.name} ({b.type}, sized as at {_where(b.alloc)}) and passes it"
                   for b in bufs)


def outline(module: Module, func: Operation, loop: Operation, name: str) -> Operation:
    """Move ``loop`` into a new ``func.func @name`` and call it from where it was; returns the new function."""
    inside: set[int] = set()
    for o in loop.walk():
        inside.add(id(o))
        for r in o.results:
            inside.add(id(r))
        for reg in o.regions:
            for b in reg.blocks:
                inside.update(id(a) for a in b.args)
    live: list[Value] = []
    seen: set[int] = set()
    for o in loop.walk():
        for v in o.operands:
            if id(v) not in inside and id(v) not in seen:
                seen.add(id(v))
                live.append(v)
    copied = [v for v in live if type(v).__name__ == "OpResult" and v.owner.name in _COPIED]
    args = [v for v in live if v not in copied]
    entry = Block.create([v.type for v in args], [v.name_hint for v in args])
    mapping: dict[Value, Value] = dict(zip(args, entry.args))
    for v in copied:
        c = clone_op(v.owner, {})
        entry.append(c)
        mapping[v] = c.results[0]
    body = clone_op(loop, mapping)
    entry.append(body)
    entry.append(Operation.create("func.return", list(body.results), loc=loop.loc))
    ftype = FunctionType(tuple(v.type for v in args), tuple(r.type for r in loop.results))
    # private: the host stays the file's entry point (`loom sim kernel.c` runs the whole program)
    kernel = Operation.create("func.func", [], [], {"sym_name": StringAttr(name), "function_type": TypeAttr(ftype),
                                                    "sym_visibility": StringAttr("private")},
                              [Region.of(entry)], loc=loop.loc)
    block = loop.parent
    at = block.ops.index(loop)
    call = Operation.create("func.call", args, [r.type for r in loop.results],
                            {"callee": SymbolRefAttr(name)}, loc=loop.loc,
                            result_names=[r.name_hint for r in loop.results])
    block.insert(at, call)
    for r, n in zip(loop.results, call.results):
        replace_all_uses(func, r, n)
    block.remove(loop)
    mod_block = module.body
    mod_block.insert(mod_block.ops.index(func) + 1, kernel)
    return kernel
