"""Run the C stages in order and keep every artifact's text (``.ll``, ``.cf.mlir``, ``.scf.mlir``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Optional, Sequence

from loom.diagnostics import LoomError
from loom.frontend.c.toolchain import ClangOptions, compile_to_llvm
from loom.ir.location import Location


@dataclass
class CArtifacts:
    """What ``compile_c`` produced: the texts of each stage and the SCF module (what the DFG lowering reads)."""

    ll: str
    cf: str
    scf: str
    module: object  # loom.ir.core.Module of the SCF stage
    kernels: list = None  # type: ignore[assignment]  # the DFG candidates' function names (regions.py)
    report: list = None  # type: ignore[assignment]  # what is a candidate and what stays on the host
    per_candidate: bool = False  # --region nest|innermost or pragmas: one DFG file per candidate
    source: Optional[Path] = None  # the file the artifacts are named after: --func's file, else the first


SOURCE_SUFFIXES = (".c", ".cpp", ".cc", ".cxx")


def is_c_file(path: Path | str) -> bool:
    """A C (or C++) source the front end compiles, by its suffix."""
    return str(path).endswith(SOURCE_SUFFIXES)


def compile_c(path: Path | Sequence[Path], func: Optional[str] = None, opts: ClangOptions = ClangOptions(),
              region: Optional[str] = None) -> CArtifacts:
    """C file ``path`` (or several files, one program: linked, calls across them inlined) through clang,
    loom's LLVM pipeline, the CF stage, the SCF raising and the DFG-domain selection (``region``: function,
    nest or innermost; None: the pragmas, else function)."""
    paths = [path] if isinstance(path, (str, Path)) else list(path)
    paths = [Path(p) for p in paths]
    try:
        return _compile_c(paths, func, opts, region)
    except LoomError:
        raise
    except Exception as e:  # a bug of the front end: still one located line, never a traceback
        raise LoomError(f"loom's C front end failed on this file ({type(e).__name__}: {e}); please report it",
                        loc=Location(str(paths[0]), 1, 1), code="CPL_C_INTERNAL") from None


def _compile_c(paths: list[Path], func: Optional[str], opts: ClangOptions, region: Optional[str]) -> CArtifacts:
    from loom.frontend.c import llvm_text as lt
    from loom.frontend.c.passes import run_pipeline
    from loom.frontend.c.raise_for import raise_module
    from loom.frontend.c.to_cf import Emitter, FunctionTranslator, global_text, translate_globals
    from loom.mlir import parse_text, print_module

    from loom.frontend.c.link import check_one_definition, local_mains

    for p in paths:
        if not p.is_file():
            reason = "no such file" if not p.exists() else "not a file"
            raise LoomError(f"cannot read input file: {reason}", loc=Location(str(p), 1, 1),
                            code="IO_INPUT_UNREADABLE")
    path, where = paths[0], "the file" if len(paths) == 1 else "the files"
    texts = local_mains([compile_to_llvm(p, opts) for p in paths])  # each file's own test main: not the program's
    check_one_definition(paths, texts)
    module = run_pipeline(texts)
    ll = str(module)
    lt.register_structs(ll)
    lines_of = lt.debug_lines(ll, tuple(str(p) for p in paths))
    locs = lt.function_locations(ll, lines_of)
    globals_ = translate_globals(module, str(path), lines_of)
    source_names = lt.source_names(ll)  # C++: mangled name -> the name in the source
    defined = [f for f in module.functions if not f.is_declaration and f.linkage.name != "internal"]
    if func is not None:
        defined = [f for f in module.functions if not f.is_declaration
                   and func in (f.name, source_names.get(f.name))]
        if not defined:
            raise LoomError(f"no function named '{func}' in {where}", loc=Location(str(path), 1, 1),
                            code="CPL_FUNC_NOT_FOUND")
    if not defined:
        raise LoomError(f"no function defined in {where}", loc=Location(str(path), 1, 1),
                        code="CPL_FUNC_NOT_FOUND")
    from loom.frontend.c.param_dims import declared_bounds

    def file_of(f) -> str:  # the file that defines f (its DISubprogram's), else the first file
        own = (locs.get(f.name) or [None])[0]
        return own[2] if own and len(own) > 2 and own[2] else str(path)

    bounds: dict = {}
    for p in paths:  # each file's array parameters' declared bounds, from that file's AST
        with_arrays = [source_names.get(f.name, f.name) for f in defined
                       if file_of(f) == str(p) and any(str(a.type) == "ptr" for a in f.arguments)]
        bounds.update(declared_bounds(p, with_arrays, opts) if with_arrays else {})
    funcs, used = [], {}
    for f in defined:
        em = Emitter(file_of(f), locs.get(f.name, []))
        plain = source_names.get(f.name, f.name)
        unique = sum(1 for g in defined if source_names.get(g.name, g.name) == plain) == 1
        name = plain if unique else f.name  # C++ overloads keep their mangled names
        funcs.append(FunctionTranslator(f, em, globals_, bounds.get(plain), name).translate())
        used.update(em.globals_used)
    cf = "module {\n" + "".join(global_text(used[n]) for n in sorted(used)) + "".join(funcs) + "}\n"
    cf_name = f"{path}.cf.mlir"
    try:
        scf_module = raise_module(parse_text(cf, cf_name))
    except LoomError as e:  # located in the CF text: point at the C line that op came from instead
        raise _in_c_source(e, cf, cf_name) from None
    from loom.frontend.c.regions import pragma_lines, select

    pragmas = {(str(p), line) for p in paths for line in pragma_lines(p)}
    selection = select(scf_module, region, pragmas)
    scf = print_module(scf_module, debuginfo=True)
    source = next((Path(file_of(f)) for f in defined if func is not None and Path(file_of(f)) in paths), path)
    return CArtifacts(ll=ll, cf=cf, scf=scf, module=_at_c_lines(parse_text(scf, f"{path}.scf.mlir")),
                      kernels=selection.kernels,
                      report=selection.report,
                      per_candidate=region in ("nest", "innermost") or (region is None and bool(pragmas)),
                      source=source)


def lower_kernels(art: CArtifacts, options, func: Optional[str] = None, only: Optional[list] = None):
    """One DFG module holding every candidate kernel of ``art`` lowered (only ``func``'s when given, only
    those named in ``only`` when given), each global once."""
    from loom.ir.core import Module
    from loom.lower import lower_module

    names = [k for k in art.kernels if func is None or k == func or k.startswith(f"{func}_L")]
    if func is not None and not names:
        names = [func]
    if only is not None:
        names = [k for k in names if k in only]
    out = Module.empty(str(art.module.filename))
    out.explicit = True
    have: set[str] = set()
    for name in names:
        for op in list(lower_module(art.module, name, options).body.ops):
            sym = op.attributes.get("sym_name")
            key = f"{op.name}:{getattr(sym, 'value', id(op))}"
            if key not in have:
                have.add(key)
                out.body.append(op)
    return out


# a plain location, an inlined op's (callsite: its helper's position), a k-th access at one position (a name)
_LOC = re.compile(r'loc\((?:"[^"]*"\()?(?:callsite\()?"([^"]*)":(\d+):(\d+)(?:\)+| at .*\))\s*$')


def _in_c_source(e: LoomError, cf: str, cf_name: str) -> LoomError:
    """``e`` located at the C source of the CF line it names (each CF op carries its C location)."""
    if e.loc.file == cf_name:
        lines = cf.splitlines()
        for n in range(min(e.loc.line, len(lines)) - 1, -1, -1):  # the line, else the nearest op above it
            m = _LOC.search(lines[n])
            if m:
                e.loc = Location(m[1], int(m[2]), int(m[3]))
                break
    return e


def _at_c_lines(module):
    """``module`` with every op located at the C line its ``loc(...)`` names (the parser locates ops in the
    MLIR text), so that later stages' errors and reports (lowering, sim, verify) point into the C file."""
    for op in module.walk():
        m = _LOC.search(op.loc.text or "")
        if m:
            op.loc = Location(m[1], int(m[2]), int(m[3]), op.loc.text)
    return module
