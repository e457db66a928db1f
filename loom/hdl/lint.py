"""Elaborate an emitted design with pyslang (``--sva full``: concurrent SVA must parse and elaborate cleanly)."""

from __future__ import annotations



def slang_diagnostics(files: dict[str, str], full: bool = True, defines: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """pyslang errors and warnings of the design's SV files (``LOOM_ASSERTIONS`` on; ``LOOM_SVA_FULL`` if ``full``).

    ``defines`` adds more (``LOOM_LIVENESS``: the whole-run monitor). The property header is inlined and the
    defines are prepended, so one compilation unit holds everything.
    """
    import pyslang

    head = "`define LOOM_ASSERTIONS\n" + ("`define LOOM_SVA_FULL\n" if full else "") + "".join(
        f"`define {d}\n" for d in defines) + files["loom_props.svh"]
    out: list[tuple[str, str]] = []
    comp = pyslang.ast.Compilation()
    sources = [head]
    for name, text in files.items():
        if name.endswith(".sv"):
            sources.append(f"// file {name}\n" + text.replace('`include "loom_props.svh"', ""))
    tree = pyslang.syntax.SyntaxTree.fromText("\n".join(sources), "design.sv")
    comp.addSyntaxTree(tree)
    for d in comp.getAllDiagnostics():
        text = pyslang.DiagnosticEngine.reportAll(tree.sourceManager, [d]).strip()
        out.append(("error" if d.isError() else "warning", text))
    return out
