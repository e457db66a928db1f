"""``--emit-smt2 DIR``: every single-query obligation as a self-contained SMT-LIB2 file, plus a manifest.

A file holds the declarations, the assertions and ``(check-sat)`` as Z3's printer
wrote them for the query the verifier solved (quoted ``|...|`` names rewritten to
plain symbols, see ``portable``); a stock solver answers ``unsat`` when the
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
from loom.verify.z3model import smt_symbol

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


_LET = re.compile(r"(?<![A-Za-z0-9._~!@$%^&*+=<>?/-])[?$]x\d+(?![A-Za-z0-9._~!@$%^&*+=<>?/-])")
_QUOTED = re.compile(r"\|((?:[^|\\]|\\.)*)\|")


def portable(text: str) -> str:
    """Z3's printer quotes unusual names as ``|...|`` and may leave ``\\|`` inside, which no parser accepts
    (Z3's own included): every quoted symbol becomes a simple symbol, one-to-one, so any solver reads the file."""
    mapping: dict[str, str] = {}
    used = set(re.findall(r"[A-Za-z_][A-Za-z0-9._~!@$%^&*+=<>?/-]*", _QUOTED.sub(" ", text)))

    def simple(m: re.Match) -> str:
        raw = m.group(1)
        if raw not in mapping:
            base = smt_symbol(raw.replace("\\|", "|"))
            name, k = base, 1
            while name in used:
                name = f"{base}.q{k}"
                k += 1
            used.add(name)
            mapping[raw] = name
        return mapping[raw]

    text = _QUOTED.sub(simple, text)
    # Z3 names let-bound terms after internal AST ids, which depend on everything the process built
    # before; renumbering them by first appearance makes a file depend on its query alone.
    lets: dict[str, str] = {}

    def renumber(m: re.Match) -> str:
        return lets.setdefault(m.group(), f"{m.group()[0]}t{len(lets) + 1}")

    return _LET.sub(renumber, text)


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
                text = header(r.function, o.id, o.status) + portable(o.smt2)
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
