"""Read what llvmlite only shows as text: types, icmp/fcmp predicates, GEP source types, debug locations.

llvmlite gives each instruction's opcode, operands and result type, but a comparison's predicate, a GEP's
source element type, an alloca's type and the ``!dbg`` attachment only appear in the instruction's printed
form; these helpers parse exactly those pieces (never a whole module).
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

SCALARS = {"i1": "i1", "i8": "i8", "i16": "i16", "i32": "i32", "i64": "i64", "float": "f32", "double": "f64"}


@dataclass(frozen=True)
class LType:
    """An LLVM type: a scalar (``i32``, ``float`` ...), ``ptr``, an array ``[n x T]``, or anything else (kept
    as its text, unsupported)."""

    text: str
    count: int | None = None  # arrays: the element count
    elem: "LType | None" = None  # arrays: the element type

    @property
    def is_array(self) -> bool:
        return self.elem is not None

    def dims(self) -> tuple[list[int], "LType"]:
        """The array dimensions, outermost first, and the scalar under them."""
        dims, t = [], self
        while t.elem is not None:
            dims.append(t.count or 0)
            t = t.elem
        return dims, t


def parse_type(text: str, pos: int = 0) -> tuple[LType, int]:
    """The type starting at ``text[pos]`` and the position after it."""
    while text[pos] == " ":
        pos += 1
    if text[pos] == "[":
        m = re.compile(r"\[(\d+) x ").match(text, pos)
        if not m:
            raise ValueError(f"bad array type at {text[pos:pos + 20]!r}")
        elem, end = parse_type(text, m.end())
        assert text[end] == "]"
        inner = text[pos:end + 1]
        return LType(inner, int(m[1]), elem), end + 1
    if text[pos] in "{<":
        close = {"{": "}", "<": ">"}[text[pos]]
        depth, end = 0, pos
        while True:
            if text[end] in "{<[":
                depth += 1
            elif text[end] in "}>]":
                depth -= 1
                if depth == 0 and text[end] == close:
                    break
            end += 1
        return LType(text[pos:end + 1]), end + 1
    m = re.compile(r"[%\w.]+").match(text, pos)
    assert m, text[pos:]
    if m[0] in STRUCT_ARRAYS:  # a struct of n equal scalars is laid out as, and read as, an array [n x T]
        count, elem = STRUCT_ARRAYS[m[0]]
        return LType(f"[{count} x {elem}]", count, LType(elem)), m.end()
    return LType(m[0]), m.end()


# named struct types whose members are n scalars of one type (`typedef struct { float re, im; }`), or whose
# one member is an array of n scalars (`struct { float m[9]; }`): their layout is that of `[n x T]` (no
# padding between equal scalars), so a pointer to them is a 2-D memref
STRUCT_ARRAYS: dict[str, tuple[int, str]] = {}
_STRUCT = re.compile(r"^(%[\w.$\"]+) = type \{ ([^{}]*) \}$", re.M)


ARRAY_MEMBER_STRUCTS: set[str] = set()  # those of STRUCT_ARRAYS whose one member is the array


def register_structs(module_text: str) -> None:
    """Fill STRUCT_ARRAYS from the module's named struct types (packed or mixed ones stay structs)."""
    STRUCT_ARRAYS.clear()
    ARRAY_MEMBER_STRUCTS.clear()
    for m in _STRUCT.finditer(module_text):
        members = [t.strip() for t in m[2].split(",")]
        if members and members[0] in SCALARS and members[0] != "i1" and all(t == members[0] for t in members):
            STRUCT_ARRAYS[m[1]] = (len(members), members[0])
        one = re.fullmatch(r"\[(\d+) x (\w+)\]", members[0]) if len(members) == 1 else None
        if one and one[2] in SCALARS and one[2] != "i1":  # `struct { float m[9]; }`: laid out as its array
            STRUCT_ARRAYS[m[1]] = (int(one[1]), one[2])
            ARRAY_MEMBER_STRUCTS.add(m[1])


def type_of(text: str) -> LType:
    return parse_type(text.strip())[0]


_CMP = re.compile(r"= (?:icmp|fcmp)(?: (?:samesign|fast|nnan|ninf|nsz|arcp|contract|afn|reassoc))* (\w+) ")
_GEP = re.compile(r"= getelementptr(?: (?:inbounds|nuw|nusw|inrange\([^)]*\)))* ")
_ALLOCA = re.compile(r"= alloca ")
_DBG = re.compile(r"!dbg !(\d+)")


def predicate(ins_text: str) -> str:
    """An icmp's or fcmp's predicate (``slt``, ``olt`` ...)."""
    m = _CMP.search(ins_text)
    if not m:
        raise ValueError(f"no predicate in {ins_text!r}")
    return m[1]


def gep_source_type(ins_text: str) -> LType:
    """A getelementptr's source element type."""
    m = _GEP.search(ins_text)
    if not m:
        raise ValueError(f"not a GEP: {ins_text!r}")
    return parse_type(ins_text, m.end())[0]


def gep_source_name(ins_text: str) -> str:
    """A getelementptr's source element type as written (a struct's name, not the array it reads as)."""
    m = _GEP.search(ins_text)
    if not m:
        raise ValueError(f"not a GEP: {ins_text!r}")
    return re.compile(r"[%\w.$\"]+").match(ins_text, m.end())[0] if ins_text[m.end()] != "[" else ""


def alloca_type(ins_text: str) -> LType:
    m = _ALLOCA.search(ins_text)
    if not m:
        raise ValueError(f"not an alloca: {ins_text!r}")
    return parse_type(ins_text, m.end())[0]


def dbg_id(text: str) -> int | None:
    """The ``!dbg !N`` attachment's N, if any."""
    m = _DBG.search(text)
    return int(m[1]) if m else None


def is_volatile(ins_text: str) -> bool:
    return bool(re.search(r"= load volatile |^\s*store volatile ", ins_text))


_DILOC = re.compile(r"^!(\d+) = !DILocation\(line: (\d+)(?:, column: (\d+))?", re.M)
_DISUB = re.compile(r"^!(\d+) = (?:distinct )?!DISubprogram\((?:[^\n]*?)\bline: (\d+)", re.M)


_ANY_DILOC = re.compile(r"^!(\d+) = (?:distinct )?!DILocation\(line: (\d+)(?:, column: (\d+))?([^\n]*)$", re.M)
_INLINED_AT = re.compile(r"\binlinedAt: !(\d+)")


def debug_lines(module_text: str, inputs: tuple[str, ...] = ()) -> dict[int, tuple]:
    """``!N`` of every DILocation and DISubprogram in the module text -> (line, column, file, callers): the file
    is that of the location's scope (a header's or another linked file's line names that file), ``inputs[k]``
    (the name given on the command line) for the main file of the k-th compile unit; ``callers`` the
    (line, column, file) of each call an inlined location was inlined at (``inlinedAt``, innermost first; ()
    when not inlined), which tells apart the copies of a helper inlined at several calls."""
    files = source_files(module_text, inputs)
    out: dict[int, tuple] = {int(m[1]): (int(m[2]), 1, files.get(int(m[1])), ())
                             for m in _DISUB.finditer(module_text)}
    nodes = {}
    for m in _ANY_DILOC.finditer(module_text):
        at = _INLINED_AT.search(m[4])
        nodes[int(m[1])] = (int(m[2]), int(m[3] or 1), files.get(int(m[1])), int(at[1]) if at else None)
    for n in (int(m[1]) for m in _DILOC.finditer(module_text)):
        line, col, file, at = nodes[n]
        callers: list[tuple] = []
        while at is not None and at in nodes and len(callers) < len(nodes):  # (a cycle cannot happen; bounded)
            callers.append(nodes[at][:3])
            at = nodes[at][3]
        out[n] = (line, col, file, tuple(callers))
    return out


_MDNODE = re.compile(r"^!(\d+) = (?:distinct )?!(\w+)\(([^\n]*)\)$", re.M)
_FIELD_REF = re.compile(r"\b(file|scope): !(\d+)")
_FILENAME = re.compile(r'filename: "([^"]*)"')


def source_files(module_text: str, inputs: tuple[str, ...] = ()) -> dict[int, str]:
    """``!N`` of every metadata node with a file (through its ``scope`` chain) -> that file's name."""
    nodes = {int(m[1]): (m[2], m[3]) for m in _MDNODE.finditer(module_text)}
    names: dict[int, str] = {}
    for n, (kind, body) in nodes.items():
        if kind == "DIFile":
            f = _FILENAME.search(body)
            names[n] = posixpath.normpath(f[1]) if f and f[1] else "?"
    cus = re.search(r"^!llvm\.dbg\.cu = !\{([^}]*)\}", module_text, re.M)
    order = [int(x) for x in re.findall(r"!(\d+)", cus[1])] if cus else []
    for cu, given in zip(order, inputs):  # the main file keeps the name it was given by
        ref = dict((k, int(v)) for k, v in _FIELD_REF.findall(nodes.get(cu, ("", ""))[1])).get("file")
        if ref in names:
            main = names[ref]
            for k in [k for k, v in names.items() if v == main]:
                names[k] = given
    refs = {n: dict((k, int(v)) for k, v in _FIELD_REF.findall(body)) for n, (_, body) in nodes.items()}
    out: dict[int, str] = {}
    for n in nodes:
        seen, k = set(), n
        while k is not None and k not in seen:  # a location's scope, its scope's scope ... until one has a file
            seen.add(k)
            r = refs.get(k, {})
            if "file" in r and r["file"] in names:
                out[n] = names[r["file"]]
                break
            k = r.get("scope")
    return out


def parse_constant(text: str, t: LType):
    """A global's initializer (scalar, array, ``zeroinitializer``, ``c"..."``) as nested Python lists."""
    value, _ = _const(text.strip(), 0, t)
    return value


def _const(text: str, pos: int, t: LType):
    while text[pos] == " ":
        pos += 1
    if text.startswith("zeroinitializer", pos):
        return _zeros(t), pos + len("zeroinitializer")
    if t.is_array:
        if text.startswith('c"', pos):
            end = text.index('"', pos + 2)
            raw = text[pos + 2:end]
            data, i = [], 0
            while i < len(raw):
                if raw[i] == "\\":
                    data.append(int(raw[i + 1:i + 3], 16))
                    i += 3
                else:
                    data.append(ord(raw[i]))
                    i += 1
            return [b - 256 if b > 127 else b for b in data], end + 1
        close = {"[": "]", "{": "}"}[text[pos]]  # a struct of equal scalars is written `{ i32 0, i32 1 }`
        pos += 1
        out = []
        assert t.elem is not None
        for k in range(t.count or 0):
            _, pos = parse_type(text, pos)  # the element's type, repeated before each element
            v, pos = _const(text, pos, t.elem)
            out.append(v)
            while text[pos] in " ,":
                pos += 1
        assert text[pos] == close
        return out, pos + 1
    m = re.compile(r"true|false|-?0x[0-9A-Fa-f]+|[-+0-9.eE]+|inf|nan").match(text, pos)
    if not m:
        raise ValueError(f"unsupported constant {text[pos:pos + 30]!r}")
    return scalar_value(m[0], t.text), m.end()


def _zeros(t: LType):
    if t.is_array:
        assert t.elem is not None
        return [_zeros(t.elem) for _ in range(t.count or 0)]
    return 0.0 if t.text in ("float", "double") else 0


def scalar_value(token: str, ltype: str):
    """An LLVM scalar constant's token as a Python int or float (hex floats are IEEE double bits)."""
    import struct

    if token == "true":
        return 1
    if token == "false":
        return 0
    if ltype in ("float", "double"):
        if token.lower().startswith("0x"):
            return struct.unpack("<d", struct.pack("<Q", int(token, 16)))[0]
        return float(token)
    return int(token, 0)


_DEFINE_NAME = re.compile(r'^define [^@]*@("?[^"(]+"?)\(')


def function_locations(module_text: str, lines_of: dict[int, tuple]) -> dict[str, list]:
    """Per function of the module text: its own location, then one (line, col) or None per instruction in
    order (read from the module's own printing, whose metadata numbers are the module's; an instruction
    printed alone numbers them differently)."""
    out: dict[str, list] = {}
    current: list | None = None
    for line in module_text.splitlines():
        m = _DEFINE_NAME.match(line)
        if m:
            n = dbg_id(line)
            current = out.setdefault(m[1].strip('"'), [lines_of.get(n) if n is not None else None])
            continue
        if current is None:
            continue
        s = line.strip()
        if s == "}":
            current = None
        elif s and not s.startswith((";", "#dbg_")) and not re.match(r"^[\w.$-]+:", s):
            n = dbg_id(s)
            loc = lines_of.get(n) if n is not None else None
            current.append(loc if loc and loc[0] > 0 else None)
    return out


_LINKAGE = re.compile(r'^!\d+ = (?:distinct )?!DISubprogram\(name: "([^"]+)", linkageName: "([^"]+)"', re.M)


def source_names(module_text: str) -> dict[str, str]:
    """C++ functions' mangled (linkage) names -> their names in the source, from the debug info."""
    return {m[2]: m[1] for m in _LINKAGE.finditer(module_text)}
