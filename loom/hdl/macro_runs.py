"""Break long runs of macro-call lines in emitted SystemVerilog, so Verilator's preprocessor accepts them.

Verilator (5.006, ``V3PreProc``) counts macro substitutions until it meets a plain token and calls more than
1,000 in a row a "Recursive `define substitution" -- even in a disabled ``ifdef`` block, and even when every
macro expands to nothing (the properties under iverilog or ``LOOM_SIM_MONITORS``). A large top (1,001
``LOOM_ASSUME_NEXT`` lines of the assume-guarantee premises) hits it. A plain token inside an ``ifdef`` of a
macro nobody defines resets the count in an enabled and a disabled block alike, and no tool ever sees it.
"""

from __future__ import annotations

BREAK_EVERY = 500  # macro-call lines between two breaks: half of Verilator's limit
NEVER_DEFINED = "LOOM_PP_BREAK_NEVER_DEFINED"


def _is_macro_line(line: str) -> bool:
    """A line the preprocessor substitutes or skips without a plain token: a macro call or directive, or blank."""
    s = line.strip()
    return not s or s.startswith("`") or s.startswith("//")


def break_macro_runs(lines: list[str], every: int = BREAK_EVERY) -> list[str]:
    """``lines`` with a never-defined ``ifdef`` holding one plain token before every ``every``-th consecutive
    macro-call line (only between whole calls: parentheses balanced); unchanged when no run is that long."""
    out: list[str] = []
    run, depth = 0, 0
    for k, line in enumerate(lines):
        if not _is_macro_line(line):
            run = 0
        else:
            if run >= every and depth == 0 and line.strip().startswith("`"):
                out += [f"`ifdef {NEVER_DEFINED}", f"  loom_pp_break_{k}", "`endif"]
                run = 0
            run += 1
        depth += line.count("(") - line.count(")")
        out.append(line)
    return out
