"""The text of one CF-stage ``func.func`` under construction (``Emitter``), and the scalar types and
literals it prints: the state every part of ``to_cf.FunctionTranslator`` writes through."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from loom.diagnostics import LoomError
from loom.frontend.c import llvm_text as lt
from loom.frontend.c.pointers import Ptr
from loom.ir.location import Location

UNSUPPORTED = "CPL_C_UNSUPPORTED"
_NAME = re.compile(r"[^A-Za-z0-9_.$-]")


@dataclass
class Global:
    """A ``const`` global table: its name, memref type and nested values."""

    name: str
    shape: list[int]
    elem: str
    values: object


@dataclass
class Emitter:
    """The MLIR text of one function under construction."""

    file: str
    locs: list  # the function's location, then one per instruction (llvm_text.function_locations)
    names: dict[str, str] = field(default_factory=dict)  # LLVM value name -> MLIR SSA name
    taken: set[str] = field(default_factory=set)
    ptrs: dict[str, Ptr] = field(default_factory=dict)
    vectors: dict[str, list[str]] = field(default_factory=dict)  # LLVM vector value -> its lanes (vectors.py)
    aggregates: dict[str, list] = field(default_factory=dict)  # LLVM struct value -> its members (vectors.py)
    types: dict[str, str] = field(default_factory=dict)  # MLIR SSA name -> MLIR type
    out: list[str] = field(default_factory=list)
    counter: int = 0
    loc: Location | None = None
    globals_used: dict[str, Global] = field(default_factory=dict)
    accesses_at: dict[str, int] = field(default_factory=dict)  # location text -> memory accesses emitted there

    def fresh(self, hint: str) -> str:
        base = "%" + (_NAME.sub("_", hint) or "v")
        if base[1].isdigit():
            base = "%v" + base[1:]
        name, k = base, 0
        while name in self.taken:
            k += 1
            name = f"{base}_{k}"
        self.taken.add(name)
        return name

    def loc_of(self, pos: tuple | None) -> Location:
        """The C location (line, column, file) from clang's debug info, else the last one seen. A helper's line
        inlined at a call keeps the calls it was inlined at as an MLIR ``loc(callsite(... at ...))`` text, so
        that its copies stay apart (refinement pairs each with its own DFG copy)."""
        if pos is not None and pos[0] > 0:
            here = Location(pos[2] if len(pos) > 2 and pos[2] else self.file, pos[0], pos[1])
            callers = pos[3] if len(pos) > 3 else ()
            if not callers:
                return here
            text = f'"{here.file}":{here.line}:{here.col}'
            chain = f'"{callers[-1][2] or self.file}":{callers[-1][0]}:{callers[-1][1]}'
            for line, col, file in reversed(callers[:-1]):  # callsite(callee at callsite(caller at ...))
                chain = f'callsite("{file or self.file}":{line}:{col} at {chain})'
            return Location(here.file, here.line, here.col, f"loc(callsite({text} at {chain}))")
        return self.loc or Location(self.file, 1, 1)

    def loc_text(self) -> str:
        loc = self.loc or Location(self.file, 1, 1)
        return f" {loc.text}" if loc.text else f' loc("{loc.file}":{loc.line}:{loc.col})'

    def emit(self, text: str) -> None:
        loc = self.loc_text()
        if text.startswith("memref.store ") or " = memref.load " in text:
            # the k-th memory access at one C position (a struct's fields copied at one call, a macro) is told
            # apart by a name location: refinement pairs each with the DFG op lowered from it (which keeps it)
            k = self.accesses_at[loc] = self.accesses_at.get(loc, 0) + 1
            if k > 1:
                loc = f' loc("access {k}"({loc.strip()[4:-1]}))'
        self.out.append(f"    {text}{loc}")

    def error(self, message: str) -> LoomError:
        return LoomError(message, loc=self.loc or Location(self.file, 1, 1), code=UNSUPPORTED)

    def const(self, value, mtype: str) -> str:
        """A fresh ``arith.constant`` of ``value``."""
        self.counter += 1
        name = self.fresh(f"c{self.counter}")
        self.types[name] = mtype
        if mtype == "i1":
            self.emit(f"{name} = arith.constant {'true' if value else 'false'}")
        elif mtype in ("f32", "f64"):
            self.emit(f"{name} = arith.constant {float_literal(value, mtype)} : {mtype}")
        else:
            self.emit(f"{name} = arith.constant {int(value)} : {mtype}")
        return name


def float_literal(value: float, mtype: str) -> str:
    """An MLIR float literal that denotes ``value`` exactly (hex bits for inf and nan)."""
    import struct

    if math.isfinite(value):
        return f"{value:.17e}"
    if mtype == "f32":
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


def mlir_type(ltype: str, em: Emitter) -> str:
    """The MLIR type of LLVM scalar type ``ltype``, else a located CPL_C_UNSUPPORTED error."""
    t = ltype.strip()
    if t in lt.SCALARS:
        return lt.SCALARS[t]
    raise em.error(f"values of type '{t}' are not supported (integers, float, double and pointers are)")
