"""Reading input files as text or JSON, with every failure a located, coded ``LoomError``.

An undecodable byte is named by its line:col (counted in bytes before it); a JSON syntax error by
the decoder's position; nesting deeper than ``MAX_JSON_DEPTH`` at the bracket that goes too deep
(Python's decoder would otherwise raise RecursionError, which says nowhere).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from loom.diagnostics import LoomError
from loom.ir.location import Location

INPUT_UNREADABLE = "IO_INPUT_UNREADABLE"
INPUT_ENCODING = "IO_INPUT_ENCODING"
INPUT_JSON = "IO_INPUT_JSON"
INPUT_NESTING = "IO_INPUT_NESTING"
MAX_JSON_DEPTH = 200


def location_of_offset(path: str, data: bytes | str, offset: int) -> Location:
    """``path:line:col`` of position ``offset`` in ``data`` (1-based; columns count units of ``data``)."""
    nl = b"\n" if isinstance(data, bytes) else "\n"
    line = data.count(nl, 0, offset) + 1
    col = offset - (data.rfind(nl, 0, offset) + 1) + 1
    return Location(path, line, col)


def read_text(path: Path, what: str = "file") -> str:
    """The UTF-8 text of ``path`` (``-``: standard input); an unreadable or undecodable file is a located error."""
    from loom.stdin import display_name, is_stdin, read_stdin

    try:
        data = read_stdin() if is_stdin(path) else path.read_bytes()
    except OSError as e:
        reason = (e.strerror or type(e).__name__).lower()
        raise LoomError(f"cannot read {what}: {reason}", Location(display_name(path), 1, 1),
                        INPUT_UNREADABLE) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        loc = location_of_offset(display_name(path), data, e.start)
        raise LoomError(f"{what} is not UTF-8 text: byte 0x{data[e.start]:02x} at offset {e.start} cannot be "
                        f"decoded", loc, INPUT_ENCODING) from None


def _too_deep(text: str, limit: int) -> int | None:
    """Offset of the first '[' or '{' nested deeper than ``limit`` (outside strings), or None."""
    depth, in_str, esc = 0, False, False
    for i, ch in enumerate(text):
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return i
        elif ch in "]}":
            depth -= 1
    return None


def read_json(path: Path, what: str = "inputs file") -> Any:
    """The JSON document in ``path``; bad text, bad JSON and too-deep nesting are located errors."""
    from loom.stdin import display_name

    text = read_text(path, what)
    name = display_name(path)
    deep = _too_deep(text, MAX_JSON_DEPTH)
    if deep is not None:
        raise LoomError(f"{what} nests lists/objects more than {MAX_JSON_DEPTH} levels deep",
                        location_of_offset(name, text, deep), INPUT_NESTING)
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise LoomError(f"{what} is not valid JSON: {e.msg}", Location(name, e.lineno, e.colno),
                        INPUT_JSON) from None
    except RecursionError:  # pragma: no cover - the depth scan above comes first
        raise LoomError(f"{what} nests too deeply", Location(str(path), 0, 0), INPUT_NESTING) from None
