"""A reader for the YAML subset mapper base configs use: nested block mappings of plain scalars.

Upstream's mapper configs (``version: 1`` and a ``mapper:`` map of maps) need nothing more, and a reader of our
own locates every problem at its line and column, which a bad config must report (one line, a code). Anything
outside the subset (lists, flow collections, anchors, multi-line scalars) is refused where it stands."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Union

from loom.diagnostics import LoomError
from loom.ir.location import Location

CONFIG = "CPL_MAP_CONFIG"
Scalar = Union[bool, int, float, str, None]

_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_\-]*)\s*:(?:\s+|$)")
_INT = re.compile(r"[-+]?[0-9]+$")
_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][-+]?[0-9]+)?$")


@dataclass(frozen=True)
class Entry:
    """One key's value and where the key stands (for messages that name a config value)."""

    value: "Scalar | dict[str, Entry]"
    loc: Location


def _scalar(text: str, loc: Location) -> Scalar:
    t = text.strip()
    if t in ("true", "True", "TRUE"):
        return True
    if t in ("false", "False", "FALSE"):
        return False
    if t in ("", "~", "null", "Null", "NULL"):
        return None
    if _INT.match(t):
        return int(t)
    if _FLOAT.match(t):
        return float(t)
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "'\"":
        return t[1:-1]
    if t[0] in "[{&*!|>-'\"":
        raise LoomError(f"'{t}' is outside the YAML subset mapper configs use (block maps of plain scalars)", loc, CONFIG)
    return t


def _strip_comment(line: str) -> str:
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def parse_yaml(text: str, filename: str) -> dict[str, Entry]:
    """The mapping ``text`` holds; a LoomError (``CPL_MAP_CONFIG``) at the first line outside the subset."""
    root: dict[str, Entry] = {}
    stack: list[tuple[int, dict[str, Entry]]] = [(0, root)]
    pending: tuple[int, dict[str, Entry]] | None = None  # a key whose block map has not started yet
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = _strip_comment(raw).rstrip()
        if not line.strip() or line.strip() in ("---", "..."):
            continue
        if "\t" in line[: len(line) - len(line.lstrip())]:
            raise LoomError("tabs may not indent YAML", Location(filename, lineno, 1), CONFIG)
        indent = len(line) - len(line.lstrip())
        loc = Location(filename, lineno, indent + 1)
        if pending is not None:
            if indent > pending[0]:
                stack.append((indent, pending[1]))
            pending = None
        while len(stack) > 1 and indent < stack[-1][0]:
            stack.pop()
        if not stack or indent != stack[-1][0]:
            raise LoomError("this line's indentation matches no enclosing map", loc, CONFIG)
        m = _KEY.match(line, indent)
        if m is None:
            raise LoomError(f"expected 'key: value' (found '{line.strip()}')", loc, CONFIG)
        key, rest = m.group(1), line[m.end():]
        table = stack[-1][1]
        if key in table:
            raise LoomError(f"key '{key}' appears twice in one map", loc, CONFIG)
        if rest.strip():
            table[key] = Entry(_scalar(rest, Location(filename, lineno, m.end() + 1)), loc)
        else:
            child: dict[str, Entry] = {}
            table[key] = Entry(child, loc)
            pending = (indent, child)
    return root
