"""The ``loom`` command line: parse arguments, call the library, print.

Contract (exit codes, JSON shapes) is in DESIGN.md: 0 success, 1 a property
refuted / program deadlocked or left tokens, 2 bad input or usage, 3
inconclusive. Bad input never produces a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Optional, Sequence

from loom.diagnostics import LoomError

EXIT_OK, EXIT_REFUTED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3


class _UsageError(Exception):
    """argparse errors, turned into a one-line message and exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: {message}")


def _stem(path: Path) -> str:
    name = path.name
    for suffix in (".scf.mlir", ".dfg.mlir", ".mlir"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _check_readable(path: Path) -> None:
    if not path.is_file():
        reason = "no such file" if not path.exists() else "not a file"
        raise LoomError(f"cannot read input file: {reason}", loc=_file_loc(path))


def _read_module(path: Path):
    from loom.mlir import parse_file

    _check_readable(path)
    return parse_file(path)


def _file_loc(path: Path):
    from loom.ir.location import Location

    return Location(str(path), 1, 1)


def _pick_function(module, name: Optional[str], kinds: Sequence[str], path: Path):
    """The function named ``name``, or the single candidate of the given kinds."""
    funcs = [f for f in module.functions() if f.name in kinds]
    # declarations and private helpers (func.func private @f) are never the entry point
    public = [f for f in funcs if f.regions and f.regions[0].blocks and getattr(f.attributes.get("sym_visibility"), "value", "public") != "private"]
    funcs = public or funcs
    if name is not None:
        for f in module.functions():
            if f.attributes["sym_name"].value == name:
                return f
        raise LoomError(f"no function named '{name}' in the file", loc=_file_loc(path))
    if len(funcs) == 1:
        return funcs[0]
    if not funcs:
        raise LoomError(f"no {' or '.join(kinds)} in the file", loc=_file_loc(path))
    names = ", ".join(f.attributes["sym_name"].value for f in funcs)
    raise LoomError(f"several candidate functions ({names}); choose one with --func", loc=_file_loc(path))


def _write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a failure never leaves half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ----------------------------------------------------------------------------- compile


def _lower_options(args):
    from loom.lower import LowerOptions

    k = getattr(args, "max_join_fanin", None)
    return LowerOptions(rar=not getattr(args, "no_rar", False), max_join_fanin=k)


def _dfg_module(path: Path, func: Optional[str], args):
    """Parse ``path``; a file holding only func.func (SCF) is lowered first."""
    from loom.lower import lower_module

    module = _read_module(path)
    kinds = [f.name for f in module.functions()]
    if "handshake.func" in kinds and (func is None or _has_handshake_named(module, func)):
        return module
    _pick_function(module, func, ("func.func",), path)  # a clear error when absent/ambiguous
    return lower_module(module, func, _lower_options(args))


def _has_handshake_named(module, name: str) -> bool:
    return any(f.name == "handshake.func" and f.attributes["sym_name"].value == name for f in module.functions())


def cmd_compile(args) -> int:
    from loom.lower import lower_module
    from loom.mlir import print_module

    outdir = Path(args.output)
    # Lower everything first: nothing is written unless every input compiles.
    texts = []
    for name in args.inputs:
        path = Path(name)
        module = _read_module(path)
        _pick_function(module, args.func, ("func.func",), path)
        dfg = lower_module(module, args.func, _lower_options(args))
        texts.append((outdir / f"{_stem(path)}.dfg.mlir", print_module(dfg, debuginfo=args.debug_info)))
    for out, text in texts:
        _write_atomically(out, text)
        print(f"wrote {out}")
    return EXIT_OK


# ----------------------------------------------------------------------------- sim


def cmd_sim(args) -> int:
    from loom.runtime import decode_inputs, run_result_json

    path = Path(args.input)
    module = _read_module(path)
    inputs_path = Path(args.inputs)
    try:
        raw_inputs = json.loads(inputs_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as e:
        reason = e.strerror if isinstance(e, OSError) and e.strerror else "not UTF-8 text"
        raise LoomError(f"cannot read inputs file: {reason.lower()}", loc=_file_loc(inputs_path))
    except json.JSONDecodeError as e:
        from loom.ir.location import Location

        raise LoomError(f"inputs are not valid JSON: {e.msg}", loc=Location(str(inputs_path), e.lineno, e.colno))

    if args.rtl:
        return _sim_rtl(args, path, raw_inputs, inputs_path)
    kinds = ("handshake.func",) if args.lower else ("func.func", "handshake.func")
    if args.lower:
        from loom.lower import lower_module

        _pick_function(module, args.func, ("func.func",), path)
        module = lower_module(module, args.func, _lower_options(args))
    func = _pick_function(module, args.func, kinds, path)
    if func.name == "func.func":
        from loom.interp import interpret

        names, types = _func_arg_names_types(func)
        inputs = decode_inputs(names, types, raw_inputs, str(inputs_path), module=module)
        r = interpret(module, func.attributes["sym_name"].value, inputs, max_steps=args.max_steps)
        doc = run_result_json(r.status, r.results, r.memrefs, None, None, r.error, func=func)
        failed = r.status != "completed"
    else:
        from loom.sim import simulate

        names, types = _func_arg_names_types(func)
        inputs = decode_inputs(names, types, raw_inputs, str(inputs_path), module=module)
        r = simulate(func, inputs, max_steps=args.max_steps)
        doc = run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error, func=func)
        failed = r.status != "completed" or r.residual_tokens != 0
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_sim_human(doc, r, dfg=func.name == "handshake.func")
    return EXIT_REFUTED if failed else EXIT_OK


def _sim_rtl(args, path: Path, raw_inputs, inputs_path: Path) -> int:
    """``loom sim --rtl``: co-simulate the emitted RTL; same report and JSON as the token simulator."""
    from loom.hdl.commands import simulate_rtl
    from loom.runtime import decode_inputs, run_result_json

    module = _dfg_module(path, args.func, args)
    func = _pick_function(module, args.func, ("handshake.func",), path)
    names, types = _func_arg_names_types(func)
    inputs = decode_inputs(names, types, raw_inputs, str(inputs_path), module=module)
    r = simulate_rtl(func, _stem(path), inputs, module, stall=args.stall, fifo_depth=args.fifo_depth)
    doc = run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error, func=func)
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_sim_human(doc, r, dfg=True)
    return EXIT_REFUTED if r.status != "completed" or r.residual_tokens != 0 else EXIT_OK


def cmd_hdl(args) -> int:
    """``loom hdl``: write the RTL, library, file list, SymbiYosys project and property manifest."""
    from loom.hdl.commands import write_design

    path = Path(args.input)
    module = _dfg_module(path, args.func, args)
    func = _pick_function(module, args.func, ("handshake.func",), path)
    e = write_design(func, _stem(path), Path(args.output), sva=args.sva, fifo_depth=args.fifo_depth)
    print(f"wrote {Path(args.output) / (e.stem + '.sv')} and {len(e.files) - 1} more file(s)")
    if args.stats:
        d = e.design
        n_props = len(json.loads(e.files[f"{e.stem}.props.json"])["properties"])
        print(f"instances: {len(d.instances)}  channels: {len(d.channels)}  components: {len(d.components)}  "
              f"properties: {n_props}")
    return EXIT_OK


def _func_arg_names_types(func):
    from loom.runtime import function_arg_names

    return function_arg_names(func), [a.type for a in func.regions[0].entry.args]


def _print_sim_human(doc: dict, result, dfg: bool) -> None:
    print(f"status: {doc['status']}")
    if doc.get("error"):
        print(f"error: {doc['error']}")
    print(f"results: {json.dumps(doc['results'])}")
    for name, values in doc["memrefs"].items():
        shown = values if len(values) <= 16 else values[:16] + ["..."]
        print(f"memref {name}: {json.dumps(shown)}")
    if dfg:
        print(f"residual tokens: {doc['residual_tokens']}")
    report = getattr(result, "deadlock_report", None)
    if report:
        print(report)


# ----------------------------------------------------------------------------- verify


def cmd_verify(args) -> int:
    from loom.verify import (VerifyContext, emit_smt2, exit_code_of, human_of, json_of, junit_of,
                             progress_printer, sarif_of)
    from loom.verify.driver import verify_files

    if args.timeout is not None and args.timeout <= 0:
        raise _UsageError("loom verify: error: --timeout must be positive")
    if args.bmc_k < 0:
        raise _UsageError("loom verify: error: --bmc-k must be >= 0")
    if args.rtl_bound is not None and args.rtl_bound < 0:
        raise _UsageError("loom verify: error: --rtl-bound must be >= 0")
    ctx = VerifyContext(timeout=args.timeout, bmc_k=args.bmc_k, want_smt2=args.emit_smt2 is not None,
                        progress=None if args.json or args.quiet else progress_printer())
    paths = [Path(name) for name in args.inputs]
    for path in paths:
        _check_readable(path)
    # several files: spread over the cores; each worker proves an operator table once
    source = Path(args.source) if args.source else None
    if source is not None:
        _check_readable(source)
    reports = verify_files(paths, ctx, args.func, jobs=os.cpu_count() or 1, source=source)
    if args.emit_smt2 is not None:
        emit_smt2(reports, Path(args.emit_smt2))
    if args.junit:
        _write_atomically(Path(args.junit), junit_of(reports))
    if args.sarif:
        _write_atomically(Path(args.sarif), json.dumps(sarif_of(reports), indent=2) + "\n")
    rtl = _verify_rtl(paths, reports, args) if args.rtl else None
    if args.json:
        doc = json_of(reports)
        if rtl is not None:
            from loom.hdl.verify_rtl import to_json

            doc["rtl"] = [to_json(r) for r in rtl]
        print(json.dumps(doc, indent=2))
    else:
        print(human_of(reports, verbose=args.verbose))
        if rtl is not None:
            from loom.hdl.verify_rtl import human

            for r in rtl:
                print(human(r, args.rtl_bound))
    code = exit_code_of(reports)
    if rtl is not None:
        from loom.hdl.verify_rtl import exit_code

        rc = exit_code(rtl)
        code = EXIT_REFUTED if EXIT_REFUTED in (code, rc) else max(code, rc)
    return code


def _verify_rtl(paths, reports, args) -> list:
    """``verify --rtl``: the RTL verdicts of every verified function, paired with its Z3 verdicts."""
    from loom.hdl.verify_rtl import check_function

    out = []
    for path in paths:
        module = _dfg_module(path, args.func, args)
        funcs = {f.attributes["sym_name"].value: f for f in module.functions() if f.name == "handshake.func"}
        for rep in reports:
            if rep.file not in (str(path), None) or rep.function not in funcs:
                continue
            z3 = {o.id: o.status for o in rep.obligations}
            out.append(check_function(funcs[rep.function], _stem(path), z3, top=True, bound=args.rtl_bound))
    return out


# ----------------------------------------------------------------------------- main


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="loom", description="Compile SCF loop kernels to verified dataflow graphs.")
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    c = sub.add_parser("compile", help="lower SCF (func.func) to a dataflow graph (handshake.func)")
    c.add_argument("inputs", nargs="+", metavar="IN.scf.mlir")
    c.add_argument("-o", "--output", default=".", metavar="OUTDIR")
    c.add_argument("--func", metavar="NAME")
    c.add_argument("--max-join-fanin", type=int, metavar="K")
    c.add_argument("--no-rar", action="store_true", help="order consecutive loads serially too")
    c.add_argument("--debug-info", action="store_true",
                   help="print each op's source location (loc(...)), so `loom verify --source` can relate the "
                        "DFG to its SCF source")
    c.set_defaults(run=cmd_compile)

    s = sub.add_parser("sim", help="run the SCF interpreter (func.func) or the token simulator (handshake.func)")
    s.add_argument("input", metavar="IN.mlir")
    s.add_argument("--func", metavar="NAME")
    s.add_argument("--inputs", required=True, metavar="IN.json")
    s.add_argument("--json", action="store_true")
    s.add_argument("--max-steps", type=int, default=10_000_000, metavar="N")
    s.add_argument("--lower", action="store_true", help="lower a func.func first and simulate the DFG")
    s.add_argument("--max-join-fanin", type=int, metavar="K")
    s.add_argument("--no-rar", action="store_true")
    s.add_argument("--rtl", action="store_true", help="co-simulate the emitted RTL (Verilator, else iverilog)")
    s.add_argument("--stall", type=int, metavar="SEED", help="with --rtl: random valid gaps and ready stalls")
    s.add_argument("--fifo-depth", type=int, default=2, metavar="N", help="with --rtl: slots of every channel FIFO")
    s.set_defaults(run=cmd_sim)

    v = sub.add_parser("verify", help="prove a DFG right for every trip count (Z3), or show a counterexample")
    v.add_argument("inputs", nargs="+", metavar="IN.mlir")
    v.add_argument("--func", metavar="NAME")
    v.add_argument("--json", action="store_true", help="print the report as JSON")
    v.add_argument("--junit", metavar="FILE", help="write a JUnit XML report (one testcase per obligation)")
    v.add_argument("--sarif", metavar="FILE", help="write a SARIF 2.1.0 report located at the source ops")
    v.add_argument("--emit-smt2", metavar="DIR", help="write every single-query obligation as SMT-LIB2")
    v.add_argument("--timeout", type=float, metavar="S", help="seconds per obligation; a timeout is 'unknown'")
    v.add_argument("--bmc-k", type=int, default=4, metavar="K", help="trip-count bound of the BMC cross-check")
    v.add_argument("--source", metavar="IN.scf.mlir",
                   help="check DFG files against this SCF source too (refinement; needs a DFG written with "
                        "`loom compile --debug-info`)")
    v.add_argument("-v", "--verbose", action="store_true", help="print the detail of every obligation")
    v.add_argument("-q", "--quiet", action="store_true", help="no progress messages")
    v.add_argument("--rtl", action="store_true", help="also prove the emitted RTL's properties with SymbiYosys")
    v.add_argument("--rtl-bound", type=int, metavar="N", help="with --rtl: cap trip-count arguments at N")
    v.set_defaults(run=cmd_verify)

    h = sub.add_parser("hdl", help="emit SystemVerilog (one instance per DFG op), its SVA and a SymbiYosys project")
    h.add_argument("input", metavar="IN.mlir")
    h.add_argument("-o", "--output", required=True, metavar="OUTDIR")
    h.add_argument("--func", metavar="NAME")
    h.add_argument("--sva", choices=("full", "yosys"), default="yosys", help="property backend (default yosys)")
    h.add_argument("--fifo-depth", type=int, default=2, metavar="N", help="slots of every channel FIFO")
    h.add_argument("--stats", action="store_true", help="print instance, channel, component and property counts")
    h.add_argument("--max-join-fanin", type=int, metavar="K")
    h.add_argument("--no-rar", action="store_true")
    h.set_defaults(run=cmd_hdl)
    return p


def _version() -> str:
    from loom import __version__

    return f"loom {__version__}"


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return EXIT_USAGE
        return args.run(args)
    except _UsageError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE
    except LoomError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print("loom: error: input nested too deeply", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
