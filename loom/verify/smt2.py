"""``--emit-smt2 DIR``: every single-query obligation as a self-contained SMT-LIB2 file, plus a manifest.

A file holds the declarations, the assertions and ``(check-sat)`` of the query the
verifier solved, in loom's canonical SMT-LIB2 form (``loom.verify.smtlib``: the
same bytes whatever the solver version); a stock solver answers ``unsat`` when the
obligation is proved. Obligations that are not one SMT query
(graph checks, BMC) get no file; the manifest lists them with ``file: null``.
File names are the obligation ids made filesystem-safe, prefixed by the function.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Iterable

from loom.verify.report import VerifyReport

_UNSAFE = re.compile(r"[^A-Za-z0-9._+=,()-]")


_WORDS = (
    ("->", "_to_"),
    ("<<", "_shl_"),
    (">>", "_shr_"),
    ("<=", "_le_"),
    (">=", "_ge_"),
    ("!=", "_ne_"),
    ("<", "_lt_"),
    (">", "_gt_"),
    ("|", "-"),
    ("%", ""),
    ("*", "_mul_"),
    ("/", "_div_"),
    (";", ","),
    ("?", "q"),
    (":", "_"),
    (" ", ""),
    ("[", "("),
    ("]", ")"),
)


def safe_name(text: str) -> str:
    """An obligation id as a portable, readable file-name fragment (``st0<ld1`` -> ``st0_lt_ld1``)."""
    for a, b in _WORDS:
        text = text.replace(a, b)
    return _UNSAFE.sub(lambda m: f"_{ord(m.group()):x}_", text)


def header(function: str, oid: str, status: str) -> str:
    return f"; loom verify obligation {oid} of @{function}\n; verdict: {status} (unsat means proved)\n"


def emit_smt2(
    reports: Iterable[VerifyReport], out_dir: Path, prefix: str = "", manifest: bool = True
) -> list[dict]:
    """Write one ``.smt2`` per obligation that has a script, and (unless told not to) ``manifest.json``.

    Returns the manifest entries: ``{function, id, kind, verdict, file}`` (``file``
    relative to ``out_dir``, or None for an obligation that is not one SMT query).
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    entries = []
    taken: set[str] = set()
    for r in reports:
        for o in r.obligations:
            entry = {"function": r.function, "id": o.id, "kind": o.kind, "verdict": o.status, "file": None}
            if r.file:
                entry["source"] = r.file
            if o.smt2 and o.method == "smt":  # rules, graph checks and simulations have no script
                base = safe_name(f"{prefix}{r.function}.{o.id}")
                name, k = base + ".smt2", 1
                while name in taken:
                    name = f"{base}.{k}.smt2"
                    k += 1
                taken.add(name)
                text = header(r.function, o.id, o.status) + o.smt2
                (out_dir / name).write_text(text, encoding="utf-8")
                entry["file"] = name
            entries.append(entry)
    if manifest:
        write_manifest(entries, out_dir / "manifest.json")
    return entries


def write_manifest(entries: list[dict], path: Path) -> None:
    """The manifest: a JSON list of {source, function, id, kind, verdict, file}, sorted, one entry per obligation."""
    ordered = sorted(entries, key=lambda e: (e.get("source", ""), e["function"], e["id"]))
    Path(path).write_text(json.dumps(ordered, indent=1, sort_keys=True) + "\n", encoding="utf-8")
