"""Source locations, kept on ops so every message can name file:line:col."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Location:
    """A point in a source file. ``text`` keeps a ``loc(...)`` from the file verbatim."""

    file: str
    line: int
    col: int
    text: Optional[str] = None  # the original ``loc(...)`` attribute, printed back

    def __str__(self) -> str:
        if self.line <= 0:  # a whole file (an output path, an unreadable input): no line to name
            return self.file
        return f"{self.file}:{self.line}:{self.col}"


UNKNOWN = Location("<unknown>", 0, 0)
