"""The ``loom`` command line: parse arguments, call the library, print.

Contract (exit codes, JSON shapes) is in ../shared/DESIGN.md: 0 success, 1 a property
refuted / program deadlocked or left tokens, 2 bad input or usage, 3
inconclusive. Bad input never produces a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Callable, Optional, Sequence

from loom.diagnostics import LoomError
from loom.verify.obligation import DEFAULT_BMC_RLIMIT, DEFAULT_MAX_STATES, DEFAULT_RLIMIT, RLIMIT_MAX

EXIT_OK, EXIT_REFUTED, EXIT_USAGE, EXIT_UNKNOWN = 0, 1, 2, 3
USAGE = "CLI_USAGE"


class _UsageError(Exception):
    """argparse errors, turned into a one-line message and exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(f"{self.prog}: error: [{USAGE}] {_option_first(message)}")


# argparse's "argument --x: must be ..." for a value one of the type functions below rejected
_BAD_VALUE = re.compile(r"argument (?:\S+/)?(-[^\s:/]+): (must .*)", re.S)


def _option_first(message: str) -> str:
    """argparse's ``argument --x: must be >= 1 (got 0)`` as ``--x must be >= 1 (got 0)``, the form of every
    bad option value."""
    m = _BAD_VALUE.fullmatch(message)
    return f"{m[1]} {m[2]}" if m else message


def _int_in(lo: int, hi: Optional[int] = None) -> Callable[[str], int]:
    """An argparse type: an integer in ``lo..hi`` (no upper bound when ``hi`` is None), so that a value that
    makes no sense is a usage error naming the option before any work starts."""

    def parse(text: str) -> int:
        value = int(text)  # a ValueError: argparse says "invalid int value"
        if value < lo or (hi is not None and value > hi):
            bound = f">= {lo}" if hi is None else f"in {lo}..{hi}"
            raise argparse.ArgumentTypeError(f"must be {bound} (got {value})")
        return value

    parse.__name__ = "int"
    return parse


def _seconds(text: str) -> float:
    """An argparse type: a time limit, a positive and finite number of seconds (as VerifyContext requires)."""
    value = float(text)
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive, finite number of seconds (got {text})")
    return value


_seconds.__name__ = "float"


class _Given(argparse.Action):
    """``store``, also noting the option in ``args.given``: an option that acts only with another is checked
    against it once everything is parsed (see ``_OPTION_NEEDS``)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[override]
        setattr(namespace, self.dest, values)
        namespace.given = getattr(namespace, "given", frozenset()) | {self.dest}


class _GivenFlag(_Given):
    """``store_true`` that is noted in ``args.given`` as ``_Given`` does."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=False, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[override]
        super().__call__(parser, namespace, True, option_string)


BUFFERS_HELP = ("the channel FIFOs: uniform (every channel a registered FIFO, as before issue 26) or opt (transparent "
                "FIFOs except one registered channel on every cycle, loom.hdl.buffers; default)")


# per command: (option, the options of which one must be given for it to act; else it would be ignored)
_OPTION_NEEDS: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    "sim": (("--stall", ("--rtl",)), ("--fifo-depth", ("--rtl",)), ("--vcd", ("--rtl",)), ("--buffers", ("--rtl",)),
            ("--max-join-fanin", ("--lower", "--rtl")), ("--no-rar", ("--lower", "--rtl"))),
    "verify": (("--rtl-bound", ("--rtl",)), ("--rtl-depth", ("--rtl",)), ("--rtl-prove", ("--rtl",)),
               ("--buffers", ("--rtl",)), ("--rtl-timeout", ("--rtl",)),
               ("--seed", ("--adg",))),
}
_MAPPER_FLAGS = ("--mapper-base-config", "--mapper-seed", "--mapper-budget", "--mapper-routing-heuristic-weight",
                 "--mapper-snapshot-interval-seconds", "--mapper-snapshot-interval-rounds",
                 "--mapper-enable-route-aware-sa")  # loom.map.options.add_mapper_flags's
# per command: (option, an option with which it has no effect)
_OPTION_CLASHES: dict[str, tuple[tuple[str, str], ...]] = {
    "sim": (("--max-steps", "--rtl"),),
    "map": (("--seed", "--check-only"), ("--budget", "--check-only"),
            *((f, "--check-only") for f in _MAPPER_FLAGS)),
}


def _given(args, option: str) -> bool:
    """Whether ``option`` was on the command line (every option of the tables above is declared with
    ``_Given`` or ``_GivenFlag``, as a default value cannot tell)."""
    return option.lstrip("-").replace("-", "_") in getattr(args, "given", ())


def _check_option_needs(args) -> None:
    """Refuse an option that would be silently ignored: it needs an absent option, or clashes with one."""
    command = getattr(args, "command", None)
    for option, any_of in _OPTION_NEEDS.get(command, ()):
        if _given(args, option) and not any(_given(args, o) for o in any_of):
            raise _UsageError(f"loom {command}: error: [{USAGE}] {option} needs {' or '.join(any_of)}")
    for option, other in _OPTION_CLASHES.get(command, ()):
        if _given(args, option) and _given(args, other):
            raise _UsageError(f"loom {command}: error: [{USAGE}] {option} has no effect with {other}")


def _stem(path: Path) -> str:
    from loom.stdin import STDIN_STEM, is_stdin

    if is_stdin(path):
        return STDIN_STEM
    name = path.name
    for suffix in (".scf.mlir", ".dfg.mlir", ".mlir", ".c", ".cpp", ".cc", ".cxx"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def _check_readable(path: Path) -> None:
    from loom.stdin import is_input_file

    if not is_input_file(path):
        reason = "no such file" if not path.exists() else "not a file"
        raise LoomError(f"cannot read input file: {reason}", loc=_file_loc(path), code="IO_INPUT_UNREADABLE")


# the C front end's settings for a ``.c`` input of any command: --func, -I, -D (set by main)
_C_SETTINGS: dict = {}


def _read_module(path: Path):
    from loom.mlir import parse_file

    if path.name.endswith((".c", ".cpp", ".cc", ".cxx")):  # C/C++: compiled through the front end's stages
        return _compile_c(path).module
    _check_readable(path)
    return parse_file(path)


def _compile_c(path: Path):
    """The C front end's artifacts for ``path`` (clang, the CF stage, the SCF stage), linked with the other C
    files of the command line when there are several (one program, as `cc a.c b.c`)."""
    from loom.frontend.c import compile_c
    from loom.frontend.c.toolchain import ClangOptions

    opts = ClangOptions(tuple(_C_SETTINGS.get("include", ())), tuple(_C_SETTINGS.get("define", ())))
    group = list(_C_SETTINGS.get("sources") or ())
    files = [Path(p) for p in group] if str(path) in group else [path]
    return compile_c(files, _C_SETTINGS.get("func") if not _C_SETTINGS.get("region") else None, opts,
                     _C_SETTINGS.get("region"))


def _c_sources(args) -> list[str]:
    """The C files of the command line that are one program (compile/verify --link IN..., sim/hdl/map IN
    MORE.c...)."""
    from loom.frontend.c.driver import is_c_file

    command = getattr(args, "command", None)
    if command in ("compile", "verify"):  # IN...: each C file a kernel file of its own unless --link
        return [n for n in args.inputs if is_c_file(n)] if args.link else []
    if command not in ("sim", "hdl", "map"):
        return []
    names = [args.input] + list(getattr(args, "more_c", None) or ())
    if len(names) > 1 and not all(is_c_file(n) for n in names):
        raise _UsageError(f"loom {command}: error: [{USAGE}] several inputs are one C program: "
                          f"each must be a .c file (got {', '.join(names)})")
    return [n for n in names if is_c_file(n)]


def _one_per_program(names: Sequence[str]) -> list[str]:
    """``names`` with the C files after the first dropped: they are compiled with it, as one program."""
    group = _C_SETTINGS.get("sources") or ()
    return [n for n in names if n not in group or n == group[0]] if len(group) > 1 else list(names)


def _c_as_scf_file(path: Path) -> Path:
    """``path`` itself, or for a C file its SCF stage written to a temporary ``<stem>.scf.mlir`` (what
    ``loom verify`` reads; the ops' locations still name the C source)."""
    if not path.name.endswith((".c", ".cpp", ".cc", ".cxx")):
        return path
    import atexit
    import shutil
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="loom-c-"))
    atexit.register(shutil.rmtree, tmp, True)
    out = tmp / f"{_stem(path)}.scf.mlir"
    out.write_text(_compile_c(path).scf)
    return out


def _file_loc(path: Path):
    from loom.ir.location import Location
    from loom.stdin import display_name

    return Location(display_name(path), 1, 1)


def _pick_function(module, name: Optional[str], kinds: Sequence[str], path: Path):
    """The function named ``name``, or the single candidate of the given kinds (loom.ir.entry's one rule)."""
    from loom.ir.entry import choose_function

    return choose_function(module, name, kinds, _file_loc(path))


def _write_atomically(path: Path, text: str) -> None:
    """Write via a temporary file and rename, so a failure never leaves half a file (located error on failure)."""
    from loom.outputs import write_file

    write_file(path, text)


def _check_verify_outputs(args) -> None:
    """Bad --junit/--sarif/--emit-smt2 paths fail before the (long) verification starts."""
    from loom.outputs import check_directory, check_output_file

    to_stdout = _stdout_outputs(args)
    if len(to_stdout) > 1:
        raise _UsageError(f"loom verify: error: [{USAGE}] {' and '.join(to_stdout)} would both print on stdout; "
                          f"write all but one to a file")
    if args.junit and args.junit != "-":
        check_output_file(Path(args.junit), "--junit file")
    if args.sarif and args.sarif != "-":
        check_output_file(Path(args.sarif), "--sarif file")
    if args.emit_smt2 is not None:
        check_directory(Path(args.emit_smt2), "--emit-smt2 directory")


# ----------------------------------------------------------------------------- output conventions

# what `-o` names is a file, not the artifact family's directory, when it ends so (README, "Inputs and outputs")
_FILE_SUFFIXES = (".mlir", ".sv", ".v", ".json", ".html", ".bin", ".h", ".txt", ".xml", ".sarif")


def _family_directory(args, command: str, hint: str = "") -> Path:
    """``-o DIR`` of a command that writes a family of files: ``-`` and a file name are usage errors (a
    directory named ``-`` or ``x.sv`` is never what was meant)."""
    out = Path(args.output)
    if args.output == "-" or (out.name.endswith(_FILE_SUFFIXES) and not out.is_dir()):
        raise _UsageError(f"loom {command}: error: [{USAGE}] -o {args.output}: "
                          + (hint or f"loom {command} writes a family of files; -o names their directory"))
    return out


def _stdout_outputs(args) -> list[str]:
    """The options of ``args`` that print a document on stdout (``--json``, ``--junit -``, ``--sarif -``)."""
    taken = ["--json"] if getattr(args, "json", False) else []
    return taken + [o for o in ("--junit", "--sarif") if getattr(args, o[2:], None) == "-"]


def _say(args, text: str) -> None:
    """Print ``text`` unless ``-q`` (what was written, progress: never a result)."""
    if not getattr(args, "quiet", False):
        print(text)


def _stdin_inputs(args) -> list[str]:
    """The options and arguments of ``args`` that read standard input (``-``)."""
    named = [("input", getattr(args, "input", None)), ("--inputs", getattr(args, "inputs", None)),
             ("--adg", getattr(args, "adg", None)), ("--source", getattr(args, "source", None))]
    uses = []
    for name, value in named:
        values = value if isinstance(value, list) else [value]
        uses += [name if name.startswith("-") else "IN" for v in values if v == "-"]
    return uses


def _read_stdin_once(args) -> None:
    """Standard input can feed one input; it is read before any work (and any forked worker) starts."""
    from loom.stdin import forget, read_stdin

    uses = _stdin_inputs(args)
    if len(uses) > 1:
        raise _UsageError(f"loom {args.command}: error: [{USAGE}] standard input (-) is given {len(uses)} times "
                          f"({', '.join(uses)}); it can feed one input")
    if uses:
        forget()
        try:
            read_stdin()
        except (OSError, ValueError) as e:  # closed, or not readable (a captured stdin under pytest)
            from loom.ir.location import Location
            from loom.stdin import STDIN_NAME

            raise LoomError(f"cannot read standard input: {e}", Location(STDIN_NAME, 1, 1),
                            "IO_INPUT_UNREADABLE") from None


class _VersionAction(argparse.Action):
    """``--version``: loom and the tools it found (loom.toolversions), looked up only when asked."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # type: ignore[override]
        from loom.toolversions import version_lines

        print("\n".join(version_lines()))
        parser.exit()


def _add_report_parser(sub) -> None:
    """``loom report merge SHARD.json...``: the report of a ``loom verify --shard`` run."""
    rp = sub.add_parser("report", help="work with reports: merge the shards of a `loom verify --shard` run")
    rsub = rp.add_subparsers(dest="report_command", metavar="ACTION", parser_class=_Parser)
    rm = rsub.add_parser("merge", help="join the shard documents of one run into its report (as `loom verify`)")
    rm.add_argument("inputs", nargs="+", metavar="SHARD.json", help="the documents of shards 0/N .. N-1/N")
    rm.add_argument("--json", action="store_true", help="print the report as JSON")
    rm.add_argument("--junit", metavar="FILE", help="write a JUnit XML report")
    rm.add_argument("--sarif", metavar="FILE", help="write a SARIF 2.1.0 report")
    _add_verbosity(rm, "print only what is not proved, and the summary", "print the detail of every obligation")
    rm.set_defaults(run=cmd_report_merge)


def _add_verbosity(p: argparse.ArgumentParser, quiet: str, verbose: str) -> None:
    """``-q``/``-v`` (every subcommand has both; one at a time), with what they mean for this command."""
    g = p.add_mutually_exclusive_group()
    g.add_argument("-q", "--quiet", action="store_true", help=quiet)
    g.add_argument("-v", "--verbose", action="store_true", help=verbose)


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


def _scf_sources(path: Path, source: Optional[str] = None) -> dict:
    """The SCF func.funcs a DFG of ``path`` was lowered from, by name: ``path``'s own when it holds no
    handshake.func (it is lowered), else ``source``'s (``--source``); the RTL order monitors require their
    program order, as ``loom verify`` does."""
    from loom.verify.driver import _sources

    module = _read_module(path)
    if not any(f.name == "handshake.func" for f in module.functions()):
        return _sources(module)
    return _sources(_read_module(Path(source))) if source else {}


def _dataflow_function(module, name: Optional[str], path: Path):
    """The handshake.func ``name`` of ``module`` (or its only one), with its ``handshake.instance`` ops inlined:
    what every back end (simulator, RTL, mapper) runs."""
    from loom.lower.instances import inline_instances

    return inline_instances(_pick_function(module, name, ("handshake.func",), path), module)


def _inlined_functions(module) -> dict:
    """Every handshake.func of ``module`` by name, instances inlined."""
    from loom.lower.instances import inline_instances

    return {f.attributes["sym_name"].value: inline_instances(f, module)
            for f in module.functions() if f.name == "handshake.func"}


def _has_handshake_named(module, name: str) -> bool:
    return any(f.name == "handshake.func" and f.attributes["sym_name"].value == name for f in module.functions())


def cmd_compile(args) -> int:
    """``loom compile``: lower every input first (nothing is written unless all compile), then write them all."""
    from loom.lower import lower_module
    from loom.mlir import print_module
    from loom.outputs import write_all

    inputs = _one_per_program(args.inputs)  # several C files are one program: one target, named below
    targets, to_stdout, to_file = _compile_destinations(args, inputs)
    # Lower everything first: nothing is written unless every input compiles, and then all or none.
    texts, reports, shapes = [], [], []
    for path, out in targets:
        if path.name.endswith((".c", ".cpp", ".cc", ".cxx")):
            out, dfg = _compile_c_input(args, path, out, to_stdout or to_file, texts, reports, shapes)
            if dfg is None:  # one DFG per candidate, already among the texts
                continue
        else:
            module = _read_module(path)
            _pick_function(module, args.func, ("func.func",), path)
            dfg = lower_module(module, args.func, _lower_options(args))
        if args.circt:
            from loom.lower.circt_form import circt_form

            dfg = circt_form(dfg)
        texts.append((out, print_module(dfg, debuginfo=args.debug_info, generic=args.generic)))
        shapes.append((out, _dfg_shape(dfg)))
    if args.verbose:  # on stderr: with -o - stdout is the DFG alone
        for out, shape in shapes:
            print(f"{'<stdout>' if to_stdout else out}: {shape}", file=sys.stderr)
    if to_stdout:  # the DFG itself on stdout (a pipe into another tool)
        sys.stdout.write(texts[0][1])
        return EXIT_OK
    write_all(texts, "output file")
    for out, _ in texts:
        _say(args, f"wrote {out}")
    for line in reports:  # C input split into DFG candidates: what each is and what stays on the host
        _say(args, line)
    return EXIT_OK


def _compile_destinations(args, inputs: list) -> tuple[list[tuple[Path, Path]], bool, bool]:
    """(input, output DFG path) pairs of ``compile -o``: a directory, one NAME.dfg.mlir file or - (stdout);
    with whether it is stdout and whether one file (each of those takes one input)."""
    from loom.outputs import check_directory

    to_stdout = args.output == "-"
    to_file = not to_stdout and args.output.endswith(".dfg.mlir") and not Path(args.output).is_dir()
    if (to_stdout or to_file) and len(inputs) != 1:
        raise _UsageError(f"loom compile: error: [{USAGE}] -o {args.output} takes one input, got {len(inputs)}")
    if to_file:
        from loom.outputs import check_output_file

        return [(Path(inputs[0]), check_output_file(Path(args.output)))], to_stdout, to_file
    if to_stdout:
        return [(Path(inputs[0]), Path("-"))], to_stdout, to_file
    outdir = check_directory(_family_directory(args, "compile", "-o names a directory, one NAME.dfg.mlir "
                                                                   "file, or - (the DFG on stdout)"))
    return _compile_targets(inputs, outdir), to_stdout, to_file


def _compile_c_input(args, path: Path, out: Path, single: bool, texts: list, reports: list,
                     shapes: list) -> tuple[Path, Optional[object]]:
    """A C input: its stages before SCF as artifacts beside the DFG (unless ``single``: -o - or one file), and
    (its DFG's path, its DFG) -- or None as the DFG when it has one DFG per candidate, each added to ``texts``."""
    from loom.frontend.c.driver import lower_kernels
    from loom.mlir import print_module

    c = _compile_c(path)  # the stages before SCF, each an artifact beside the DFG
    if not single and c.source is not None:  # several files: named after --func's
        out = out.with_name(f"{_stem(c.source)}.dfg.mlir")
    if not single:
        base = str(out)[: -len(".dfg.mlir")]
        texts += [(Path(base + ".ll"), c.ll), (Path(base + ".cf.mlir"), c.cf),
                  (Path(base + ".scf.mlir"), c.scf)]
    if c.per_candidate:  # ../shared/DESIGN.md: one DFG per candidate, <stem>.<candidate>.dfg.mlir
        reports.extend(c.report)
        if single:
            raise _UsageError(f"loom compile: error: [{USAGE}] -o {args.output} takes one DFG; "
                              f"{path} has one per candidate (give -o OUTDIR)")
        base = str(out)[: -len(".dfg.mlir")]
        for k in c.kernels:
            dfg = lower_kernels(c, _lower_options(args), None, [k])
            if args.circt:
                from loom.lower.circt_form import circt_form

                dfg = circt_form(dfg)
            texts.append((Path(f"{base}.{k}.dfg.mlir"), print_module(dfg, debuginfo=args.debug_info,
                                                                     generic=args.generic)))
            shapes.append((texts[-1][0], _dfg_shape(dfg)))
        return out, None
    dfg = lower_kernels(c, _lower_options(args), args.func)
    # whole-function kernels: only what the host must do for them (allocate their scratch buffers)
    reports.extend(r for r in c.report if "the host allocates" in r
                   and (args.func is None or r.startswith(f"candidate @{args.func}:")))
    return out, dfg


def _dfg_shape(module) -> str:
    """One line per DFG module for ``compile -v``: each handshake.func with its op count by dialect."""
    parts = []
    for f in module.functions():
        if f.name != "handshake.func":
            continue
        counts: dict[str, int] = {}
        for op in f.walk():
            if op is not f:
                dialect = op.name.split(".", 1)[0]
                counts[dialect] = counts.get(dialect, 0) + 1
        total = sum(counts.values())
        by = ", ".join(f"{n} {d}" for d, n in sorted(counts.items()))
        parts.append(f"@{f.attributes['sym_name'].value}: {total} ops ({by})")
    return "; ".join(parts)


def _compile_targets(inputs: Sequence[str], outdir: Path) -> list[tuple[Path, Path]]:
    """(input, output) pairs; two inputs with one stem would overwrite each other, so that is an error."""
    from loom.outputs import OUTPUT_CLASH, output_error

    pairs, seen = [], {}
    for name in inputs:
        path = Path(name)
        out = outdir / f"{_stem(path)}.dfg.mlir"
        if out in seen:
            raise output_error(path, f"has the same stem as {seen[out]}: both would be written to {out}",
                               OUTPUT_CLASH)
        seen[out] = path
        pairs.append((path, out))
    return pairs


# ----------------------------------------------------------------------------- sim


def cmd_sim(args) -> int:
    from loom.runtime import decode_inputs, run_result_json

    path = Path(args.input)
    module = _read_module(path)
    inputs_path = Path(args.inputs)
    from loom.sourcefile import read_json

    raw_inputs = read_json(inputs_path)

    if args.rtl:
        return _sim_rtl(args, path, raw_inputs, inputs_path)
    kinds = ("handshake.func",) if args.lower else ("func.func", "handshake.func")
    if args.lower:
        from loom.lower import lower_module

        _pick_function(module, args.func, ("func.func",), path)
        module = lower_module(module, args.func, _lower_options(args))
    func = _pick_function(module, args.func, kinds, path)
    if func.name == "handshake.func":
        from loom.lower.instances import inline_instances

        func = inline_instances(func, module)
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
        raw_inputs = _host_allocated(func, raw_inputs)
        inputs = decode_inputs(names, types, raw_inputs, str(inputs_path), module=module)
        r = simulate(func, inputs, max_steps=args.max_steps)
        doc = run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error, func=func)
        failed = r.status != "completed" or r.residual_tokens != 0
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        _print_sim_human(doc, r, dfg=func.name == "handshake.func", args=args)
    return EXIT_REFUTED if failed else EXIT_OK


def _host_allocated(func, raw_inputs):
    """The inputs with the buffers the host allocates (``loom.host_size`` arguments the inputs omit) added, each
    said on stderr: zeros of the size the kernel asks for on these inputs (loom/runtime/host_size.py)."""
    from loom.runtime.host_size import allocate_missing

    raw_inputs, added = allocate_missing(func, raw_inputs)
    for name in added:
        v, shape = raw_inputs[name], []
        while isinstance(v, list):
            shape.append(len(v))
            v = v[0] if v else None
        print(f"note: the host allocates %{name} ({'x'.join(map(str, shape))} elements, zero-filled: "
              "loom.host_size)", file=sys.stderr)
    return raw_inputs


def _sim_rtl(args, path: Path, raw_inputs, inputs_path: Path) -> int:
    """``loom sim --rtl``: co-simulate the emitted RTL; same report and JSON as the token simulator."""
    from loom.hdl.commands import simulate_rtl
    from loom.runtime import decode_inputs, run_result_json

    module = _dfg_module(path, args.func, args)
    func = _dataflow_function(module, args.func, path)
    names, types = _func_arg_names_types(func)
    raw_inputs = _host_allocated(func, raw_inputs)
    inputs = decode_inputs(names, types, raw_inputs, str(inputs_path), module=module)
    src = _scf_sources(path).get(func.attributes["sym_name"].value)  # names the safety monitors' source ops
    vcd = None
    if args.vcd:
        from loom.outputs import check_output_file

        vcd = check_output_file(Path(args.vcd), "waveform file")
    info: dict = {}
    progress = (lambda msg: print(f"loom sim --rtl: {msg}", file=sys.stderr, flush=True)) if sys.stderr.isatty() else None
    r = simulate_rtl(func, _stem(path), inputs, module, stall=args.stall, fifo_depth=args.fifo_depth, source=src,
                     info=info, vcd=vcd, progress=progress, buffers=args.buffers)
    doc = run_result_json(r.status, r.results, r.memrefs, r.residual_tokens, r.channels, r.error, func=func)
    rtl = {"simulator": info.get("simulator"), "version": info.get("version"), "cycles": info.get("cycles"),
           "return_cycle": info.get("return_cycle"), "loops": info.get("loops", []), "vcd": str(vcd) if vcd else None}
    if args.json:
        print(json.dumps({**doc, "rtl": rtl}, indent=2))
    else:
        _print_sim_human(doc, r, dfg=True, args=args)
        ret = f"the return fired at cycle {rtl['return_cycle']}" if rtl["return_cycle"] is not None else \
            "the return never fired"
        print(f"rtl: {rtl['cycles']} cycles ({ret}), {rtl['version']}" + (f"; waveform {vcd}" if vcd else ""))
        for lp in rtl["loops"]:  # measured initiation interval: cycles per iteration of the loop's index stream
            ii = f"II {lp['ii']:g}" if lp["ii"] is not None else "II -"
            bound = f"bound {lp['bound']:g}" if lp.get("bound") is not None else "bound -"
            if lp.get("bound_run") not in (None, lp.get("bound")):  # an outer loop: with its inner loops' iterations
                bound += f", {lp['bound_run']:g} with its inner loops"
            print(f"rtl: loop %{lp['stream']}: {lp['tokens']} index tokens, {ii} (cycles {lp['first_cycle']} to "
                  f"{lp['last_cycle']}), {bound}")
    for s in r.safety:  # the RTL's safety monitors (loom.hdl.monitors.safety): the source op is undefined there
        print(f"{s.loc}: warning: [{s.code}] safety monitor {s.obligation} fired at cycle {s.cycle}", file=sys.stderr)
    return EXIT_REFUTED if r.status != "completed" or r.residual_tokens != 0 else EXIT_OK


def cmd_hdl(args) -> int:
    """``loom hdl``: write the RTL, library, file list, SymbiYosys project and property manifest."""
    from loom.hdl.commands import write_design
    from loom.outputs import check_directory

    check_directory(_family_directory(args, "hdl"))  # before the (slow) emission, as `loom compile` does
    path = Path(args.input)
    module = _dfg_module(path, args.func, args)
    func = _dataflow_function(module, args.func, path)
    src = _scf_sources(path).get(func.attributes["sym_name"].value)
    e = write_design(func, _stem(path), Path(args.output), sva=args.sva, fifo_depth=args.fifo_depth, source=src,
                     buffers=args.buffers)
    if args.verbose:
        for name in sorted(e.files):
            print(f"wrote {Path(args.output) / name}")
    else:
        _say(args, f"wrote {Path(args.output) / (e.stem + '.sv')} and {len(e.files) - 1} more file(s)")
    if args.stats:
        from loom.hdl.synth import report, synth_stats
        from loom.ir.location import Location

        d = e.design
        n_props = len(json.loads(e.files[f"{e.stem}.props.json"])["properties"])
        print(f"instances: {len(d.instances)}  channels: {len(d.channels)}  components: {len(d.components)}  "
              f"properties: {n_props}")
        floats = [n for n, c in d.components.items() if c.float_behavioural]
        try:
            s = synth_stats(e.files, e.sv_files, d.top, floats)
        except LoomError as err:
            err.loc = Location(str(path), 1, 1)
            raise
        print(report(s))
    return EXIT_OK


def _func_arg_names_types(func):
    from loom.runtime import function_arg_names

    return function_arg_names(func), [a.type for a in func.regions[0].entry.args]


def _print_sim_human(doc: dict, result, dfg: bool, args=None) -> None:
    """The run's report: status, error, results, memrefs (-v: in full; -q: only the status and error)."""
    print(f"status: {doc['status']}")
    if doc.get("error"):
        print(f"error: {doc['error']}")
    if getattr(args, "quiet", False):
        return
    print(f"results: {json.dumps(doc['results'])}")
    full = getattr(args, "verbose", False)
    for name, values in doc["memrefs"].items():
        shown = values if len(values) <= 16 or full else values[:16] + ["..."]
        print(f"memref {name}: {json.dumps(shown)}")
    if dfg:
        print(f"residual tokens: {doc['residual_tokens']}")
    report = getattr(result, "deadlock_report", None)
    if report:
        print(report)


# ----------------------------------------------------------------------------- verify


def cmd_report_merge(args) -> int:
    """``loom report merge``: the report of a sharded run, as ``loom verify`` prints it unsharded."""
    from loom.verify import exit_code_of, human_of, json_of, junit_of, sarif_of
    from loom.verify.shard import merge, read_shards

    for name in args.inputs:
        _check_readable(Path(name))
    reports = merge(read_shards([Path(n) for n in args.inputs]))
    if args.junit:
        _write_atomically(Path(args.junit), junit_of(reports))
    if args.sarif:
        _write_atomically(Path(args.sarif), json.dumps(sarif_of(reports), indent=2) + "\n")
    if args.json:
        print(json.dumps(json_of(reports), indent=2))
    else:
        print(human_of(reports, verbose=args.verbose, quiet=args.quiet))
    return exit_code_of(reports)


def _shard_of(args) -> Optional[tuple[int, int]]:
    """``--shard I/N`` as (I, N), or None; a usage error when malformed or given with an output it replaces."""
    from loom.verify.parallel import parse_shard

    if args.shard is None:
        return None
    try:
        shard = parse_shard(args.shard)
    except ValueError as e:
        raise _UsageError(f"loom verify: error: [{USAGE}] {e}") from None
    clash = [o for o, on in (("--json", args.json), ("--junit", args.junit), ("--sarif", args.sarif),
                             ("--emit-smt2", args.emit_smt2), ("--rtl", args.rtl), ("--adg", args.adg)) if on]
    if clash:
        raise _UsageError(f"loom verify: error: [{USAGE}] --shard prints a shard document for `loom report merge`; "
                          f"{clash[0]} goes with the merge")
    return shard


def cmd_verify(args) -> int:
    from loom.verify.parallel import verify_parallel

    ctx, shard = _verify_context(args)
    names = _one_per_program(args.inputs)  # several C files: one program, verified once
    paths = [_c_as_scf_file(Path(name)) for name in names]
    for path in paths:
        _check_readable(path)
    if args.adg is not None:
        _check_readable(Path(args.adg))
    _check_verify_outputs(args)
    # several files: spread over the cores (a unit's verdicts do not depend on which files or units a process ran
    # before, nor on the number of cores: each checker runs in a solver state of its own, loom/verify/isolation.py)
    source = Path(args.source) if args.source else None
    if source is not None:
        _check_readable(source)
    # every (function, checker) unit in a process of its own, --jobs at a time: the same verdicts with any --jobs
    # and with --shard + `loom report merge` (loom/verify/parallel.py)
    # a line per unit as it starts and ends on a terminal or with -v (a long run's only sign of life), never with -q
    progress = not args.quiet and (args.verbose or sys.stderr.isatty())
    reports = verify_parallel(paths, ctx, args.func, jobs=args.jobs or os.cpu_count() or 1, source=source,
                              shard=shard, progress=progress)
    # a C input was verified through its SCF stage in a temporary file: its reports name the C file (the same
    # report on every run, and the file the user gave)
    from loom.stdin import display_name

    given = {str(p): display_name(name) for p, name in zip(paths, names)}
    for r in reports:
        if r.file in given:
            r.file = given[r.file]
    if shard is not None:
        from loom.verify import exit_code_of
        from loom.verify.shard import shard_document

        print(json.dumps(shard_document(reports, *shard), indent=1))
        return exit_code_of(reports)
    if args.adg is not None:
        _verify_mapping(paths, reports, args, ctx, given)
    if args.emit_smt2 is not None:
        _emit_smt2(reports, Path(args.emit_smt2))
    rtl = _verify_rtl(paths, reports, args, given) if args.rtl else None  # before the reports: JUnit/SARIF carry it
    _write_documents(args, reports, rtl)
    rechecked = None
    if args.recheck:
        from loom.verify.recheck import recheck

        rechecked = recheck(reports)
    _print_verify_report(args, reports, rtl, rechecked)
    return _verify_exit_code(reports, rtl, rechecked)


def _verify_context(args):
    """The run's ``VerifyContext`` from the command line (its --assume parsed), and its --shard (or None)."""
    from loom.verify import VerifyContext, progress_printer
    from loom.verify.assume import parse_assumption

    try:
        assumptions = tuple(parse_assumption(a) for a in args.assume)
    except ValueError as e:
        raise _UsageError(f"loom verify: error: [{USAGE}] {e}") from None
    shard = _shard_of(args)
    ctx = VerifyContext(timeout=args.timeout, bmc_k=args.bmc_k, want_smt2=args.emit_smt2 is not None or args.recheck,
                        progress=None if args.json or args.quiet else progress_printer(), budget=args.budget,
                        require_source=args.require_source, assumptions=assumptions, rlimit=args.rlimit,
                        max_states=args.max_states, bmc_rlimit=args.bmc_rlimit)
    return ctx, shard


def _emit_smt2(reports, out: Path) -> None:
    """``--emit-smt2 DIR``: every single-query obligation's SMT-LIB2 file (a directory that cannot be written:
    a located error)."""
    from loom.outputs import OUTPUT_DIR, ensure_directory, output_error
    from loom.verify import emit_smt2

    try:
        emit_smt2(reports, ensure_directory(out, "--emit-smt2 directory"))
    except OSError as e:
        raise output_error(out, f"cannot write the SMT-LIB2 files: {e.strerror or e}", OUTPUT_DIR) from None


def _write_documents(args, reports, rtl) -> None:
    """``--junit`` and ``--sarif``: each to its file, or to stdout for ``-``."""
    from loom.verify import junit_of, sarif_of

    documents = []  # (--junit/--sarif value, text): a file, or stdout for -
    if args.junit:
        documents.append((args.junit, junit_of(reports, rtl)))
    if args.sarif:
        documents.append((args.sarif, json.dumps(sarif_of(reports, rtl), indent=2) + "\n"))
    for target, text in documents:
        if target == "-":
            sys.stdout.write(text)
        else:
            _write_atomically(Path(target), text)


def _print_verify_report(args, reports, rtl, rechecked) -> None:
    """The report: JSON on stdout (--json), else the human text -- on stderr when stdout already holds a
    document (--junit - / --sarif -)."""
    from loom.verify import human_of, json_of

    human_out = sys.stderr if _stdout_outputs(args) and not args.json else sys.stdout  # stdout: one document
    if args.json:
        doc = json_of(reports)
        if rechecked is not None:
            doc["recheck"] = [t.to_json() for t in rechecked]
        if rtl is not None:
            from loom.hdl.formal.verify import to_json

            doc["rtl"] = [to_json(r) for r in rtl]
        print(json.dumps(doc, indent=2))
    else:
        print(human_of(reports, verbose=args.verbose, quiet=args.quiet), file=human_out)
        if rtl is not None:
            from loom.hdl.formal.verify import human

            for r in rtl:
                print(human(r, args.rtl_bound), file=human_out)
        for t in rechecked or ():
            print(t.human(), file=human_out)


def _verify_exit_code(reports, rtl, rechecked) -> int:
    """The reports' exit code; a second solver's contradiction makes a pass inconclusive, and the RTL's
    verdicts join in (refuted wins)."""
    from loom.verify import exit_code_of

    code = exit_code_of(reports)
    if rechecked and any(t.disagree for t in rechecked) and code == EXIT_OK:
        code = EXIT_UNKNOWN  # a second solver contradicts a verdict: not proved until that is understood
    if rtl is not None:
        from loom.hdl.formal.verify import exit_code

        rc = exit_code(rtl)
        code = EXIT_REFUTED if EXIT_REFUTED in (code, rc) else max(code, rc)
    return code

def _verify_mapping(paths, reports, args, ctx, given: Optional[dict[str, str]] = None) -> None:
    """``verify --adg``: map every verified function as ``loom map`` does (nothing written) and append the
    mapping checker's verdicts to its report, and ``map.fifo.*``: the run's bmc (``ctx``) on the configured routes.
    ``given``: the name a report carries for each verified path (a C input's reports name the C file)."""
    from loom.map.adg.read import load_adg
    from loom.map.dfg import read_dfg
    from loom.map.fifo import fresh_copy
    from loom.map.legalize import legalize_for_fabric
    from loom.map.obligations import mapping_obligations

    adg_path = Path(args.adg)
    _check_readable(adg_path)
    adg = load_adg(str(adg_path))
    if adg.max_join_fanin() >= 2:
        args.max_join_fanin = adg.max_join_fanin()  # lowered as `loom map` lowers it
    for path in paths:
        module = _dfg_module(path, args.func, args)
        funcs = _inlined_functions(module)
        sources = _scf_sources(path, getattr(args, "source", None))
        for rep in reports:
            if rep.file not in (str(path), (given or {}).get(str(path)), None) or rep.function not in funcs:
                continue
            dfg = read_dfg(legalize_for_fabric(fresh_copy(funcs[rep.function])))  # the graph `loom map` maps
            rep.obligations += mapping_obligations(dfg, adg, adg_path.name, seed=args.seed,
                                                   ctx=ctx, source=sources.get(rep.function))


def _verify_rtl(paths, reports, args, given: Optional[dict[str, str]] = None) -> list:
    """``verify --rtl``: the RTL verdicts of every verified function, paired with its Z3 verdicts. ``given``: the
    name a report carries for each verified path (a C input's reports name the C file, not its SCF stage)."""
    from loom.hdl.formal.verify import RtlOptions, check_function
    from loom.verify import progress_printer

    # SymbiYosys's task, step and elapsed time on a terminal's stderr (progress_printer), unless --json or -q
    progress = None if args.json or args.quiet else progress_printer()
    out = []
    for path in paths:
        module = _dfg_module(path, args.func, args)
        funcs = _inlined_functions(module)
        sources = _scf_sources(path, getattr(args, "source", None))
        for rep in reports:
            if rep.file not in (str(path), (given or {}).get(str(path)), None) or rep.function not in funcs:
                continue
            z3 = {o.id: o.status for o in rep.obligations}
            cex = {o.id: o.counterexample for o in rep.obligations
                   if o.status == "refuted" and isinstance(o.counterexample, dict)}
            witness = {k: c.get("arguments") for k, c in cex.items()}  # its run's arguments
            inputs = {k: c["replay"]["inputs"] for k, c in cex.items()  # and its whole inputs, when Z3 replayed it
                      if isinstance(c.get("replay"), dict) and isinstance(c["replay"].get("inputs"), dict)}
            depth = args.rtl_depth  # None: the DFG monitors over a whole run, no whole-run bmc check; 0: neither
            opts = RtlOptions(top=True, bound=args.rtl_bound, monitors=depth != 0, dfg_depth=depth or None,
                              bmc_k=args.bmc_k, live_depth=depth or None, source=sources.get(rep.function),
                              prove_monitors=getattr(args, "rtl_prove", False), progress=progress,
                              buffers=getattr(args, "buffers", "opt"), timeout=getattr(args, "rtl_timeout", None))
            out.append(check_function(funcs[rep.function], _stem(path), z3, opts, z3_args=witness, z3_inputs=inputs))
    return out


# ----------------------------------------------------------------------------- adg, map


def cmd_adg_mesh(args) -> int:
    from loom.map.commands import run_adg_mesh
    from loom.outputs import check_output_file

    if args.output != "-":  # -: the fabric on stdout
        check_output_file(Path(args.output))
    return run_adg_mesh(args, _dfg_module)


def cmd_adg_verify(args) -> int:
    from loom.map.commands import run_adg_verify

    return run_adg_verify(args)


def cmd_map(args) -> int:
    from loom.map.commands import run_map
    from loom.outputs import check_directory

    out = _family_directory(args, "map")
    if not args.check_only:  # --check-only reads OUTDIR; else it must be writable before the mapping runs
        check_directory(out)
    return run_map(args, _dfg_module, _stem)


# ----------------------------------------------------------------------------- main


def _add_more_c(p: argparse.ArgumentParser) -> None:
    """MORE.c...: further C files compiled with a C input as one program (calls across them inlined)."""
    p.add_argument("more_c", nargs="*", metavar="MORE.c", help="C input: further files of the same program")


def _add_link(p: argparse.ArgumentParser) -> None:
    """--link: the C inputs of compile/verify are one program (each is a kernel file of its own without it)."""
    p.add_argument("--link", action="store_true",
                   help="C inputs: one program -- link them, so calls across the files are inlined (without it "
                        "each C file is compiled on its own)")


def _add_c_options(p: argparse.ArgumentParser) -> None:
    """-I/-D: what clang needs to compile a C input (every command that takes a .c file)."""
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR",
                   help="C input: an include directory for clang")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="X=Y",
                   help="C input: a macro definition for clang")


def _add_compile_parser(sub) -> None:
    """``loom compile``: SCF or C to a DFG; -o a directory, one .dfg.mlir file or - (stdout)."""
    c = sub.add_parser("compile", help="lower SCF (func.func) to a dataflow graph (handshake.func)")
    c.add_argument("inputs", nargs="+", metavar="IN.scf.mlir", help="SCF or C kernels; - reads MLIR from stdin")
    c.add_argument("-o", "--output", default=".", metavar="OUTDIR",
                   help="a directory for <stem>.dfg.mlir (and a C input's stages; default .), one NAME.dfg.mlir "
                        "file, or - for the DFG on stdout")
    c.add_argument("--func", metavar="NAME", help="the function to lower (default: the file's only candidate)")
    _add_c_options(c)
    _add_link(c)
    c.add_argument("--region", choices=("function", "nest", "innermost"),
                   help="C input: the DFG candidates (default: `#pragma loom candidate`, else each function)")
    c.add_argument("--max-join-fanin", type=_int_in(2), metavar="K",
                   help="split joins wider than K inputs into a tree (default: no limit)")
    c.add_argument("--no-rar", action="store_true", help="order consecutive loads serially too")
    c.add_argument("--debug-info", action="store_true",
                   help="print each op's source location (loc(...)), so `loom verify --source` can relate the "
                        "DFG to its SCF source")
    c.add_argument("--generic", action="store_true",
                   help="print every op in MLIR's generic form, which mlir-opt and CIRCT parse "
                        "(they reject the dataflow ops' custom syntax); loom reads it back")
    c.add_argument("--circt", action="store_true",
                   help="write the form CIRCT's handshake passes accept: explicit forks and sinks, an extmemory "
                        "for every memref argument, memref sizes as extra index arguments (<memref>_dim<k>); "
                        "use with --generic. The dataflow ops stay (no CIRCT pass lowers them)")
    _add_verbosity(c, "print nothing on success (no 'wrote' lines)",
                   "print each DFG's op counts by dialect (on stderr)")
    c.set_defaults(run=cmd_compile)


def _add_sim_parser(sub) -> None:
    """``loom sim``: the SCF interpreter or the token simulator (--rtl: RTL co-simulation)."""
    s = sub.add_parser("sim", help="run the SCF interpreter (func.func) or the token simulator (handshake.func)")
    s.add_argument("input", metavar="IN.mlir", help="SCF, DFG or C; - reads MLIR from stdin")
    _add_more_c(s)
    s.add_argument("--func", metavar="NAME", help="the function to run (default: the file's only candidate)")
    _add_c_options(s)
    s.add_argument("--inputs", required=True, metavar="IN.json",
                   help="argument values, keyed by argument name (- reads them from stdin)")
    s.add_argument("--json", action="store_true", help="print the result as JSON on stdout")
    s.add_argument("--max-steps", type=_int_in(1), default=10_000_000, action=_Given, metavar="N",
                   help="without --rtl: stop after N steps (default 10000000)")
    s.add_argument("--lower", action=_GivenFlag, help="lower a func.func first and simulate the DFG")
    s.add_argument("--max-join-fanin", type=_int_in(2), action=_Given, metavar="K",
                   help="with --lower or --rtl")
    s.add_argument("--no-rar", action=_GivenFlag, help="with --lower or --rtl")
    s.add_argument("--rtl", action=_GivenFlag, help="co-simulate the emitted RTL (Verilator, else iverilog)")
    s.add_argument("--vcd", action=_Given, metavar="FILE", help="with --rtl: write the waveform (VCD) to FILE")
    s.add_argument("--stall", type=_int_in(0, 2**31 - 1), action=_Given, metavar="SEED",
                   help="with --rtl: random valid gaps, ready stalls, memory latency and back-pressure")
    s.add_argument("--fifo-depth", type=_int_in(1), default=2, action=_Given, metavar="N",
                   help="with --rtl: slots of every channel FIFO")
    s.add_argument("--buffers", choices=("uniform", "opt"), default="opt", action=_Given, help="with --rtl: " + BUFFERS_HELP)
    _add_verbosity(s, "print only the status line (and the error, if any); the exit code tells the rest",
                   "print every memref in full (not only its first 16 values)")
    s.set_defaults(run=cmd_sim)


def _add_verify_parser(sub) -> None:
    """``loom verify``: the proofs of a DFG (Z3), with --rtl and --adg extending them."""
    v = sub.add_parser("verify", help="prove a DFG right for every trip count (Z3), or show a counterexample")
    v.add_argument("inputs", nargs="+", metavar="IN.mlir", help="SCF, DFG or C files; - reads MLIR from stdin")
    v.add_argument("--func", metavar="NAME", help="the function to verify (default: every candidate)")
    _add_c_options(v)
    _add_link(v)
    v.add_argument("--json", action="store_true", help="print the report as JSON on stdout")
    v.add_argument("--junit", metavar="FILE",
                   help="write a JUnit XML report (one testcase per obligation); - prints it on stdout")
    v.add_argument("--sarif", metavar="FILE",
                   help="write a SARIF 2.1.0 report located at the source ops; - prints it on stdout")
    v.add_argument("--emit-smt2", metavar="DIR", help="write every single-query obligation as SMT-LIB2")
    v.add_argument("--recheck", action="store_true",
                   help="re-decide every proved or refuted SMT obligation with cvc5 and yices (the same SMT-LIB2 "
                        "text); a contradicting answer makes the run inconclusive (exit 3)")
    v.add_argument("--timeout", type=_seconds, metavar="S",
                   help="seconds per obligation (wall clock; none by default); a timeout is 'unknown'")
    v.add_argument("--bmc-k", type=_int_in(0), default=4, metavar="K",
                   help="trip-count bound of the BMC cross-check")
    v.add_argument("--budget", type=_seconds, metavar="S",
                   help="seconds per function for all its obligations together (wall clock; none by default); "
                        "what runs out is 'unknown'")
    v.add_argument("--rlimit", type=_int_in(1, RLIMIT_MAX), default=DEFAULT_RLIMIT, metavar="N",
                   help=f"Z3 resource units per solver query (a count of the solver's work: the same verdicts on "
                        f"every machine and load; default {DEFAULT_RLIMIT}); what runs out is 'unknown'")
    v.add_argument("--max-states", type=_int_in(1), default=DEFAULT_MAX_STATES, metavar="N",
                   help=f"states (firings) the BMC cross-check explores per function (deterministic; default "
                        f"{DEFAULT_MAX_STATES}); what runs out is 'unknown'")
    v.add_argument("--bmc-rlimit", type=_int_in(1), default=DEFAULT_BMC_RLIMIT, metavar="N",
                   help=f"Z3 resource units of all the BMC cross-check's branch queries together, per function "
                        f"(deterministic; default {DEFAULT_BMC_RLIMIT}); what runs out is 'unknown'")
    v.add_argument("--require-source", action="store_true",
                   help="a DFG verified without its SCF source (no refinement check) is 'unknown', not skipped")
    v.add_argument("--source", metavar="IN.scf.mlir",
                   help="check DFG files against this SCF source too (refinement; needs a DFG written with "
                        "`loom compile --debug-info`)")
    v.add_argument("--jobs", type=_int_in(1), metavar="N",
                   help="processes that verify at a time, one (function, checker) unit each (default: the number "
                        "of cores); the verdicts are the same with any N")
    v.add_argument("--shard", metavar="I/N",
                   help="verify only every N-th unit from the I-th and print a shard document; `loom report merge` "
                        "joins the N shards into the report of the whole run")
    v.add_argument("--assume", action="append", default=[], metavar="EXPR",
                   help="what legal inputs are, e.g. 'ub <= 1048576 && lb >= 0' (comparisons of integer arguments "
                        "and literals, read as signed; repeatable); every obligation is proved under them")
    _add_verbosity(v, "print only what is not proved, and the summary (no progress messages)",
                   "print the detail of every obligation")
    _add_verify_rtl_options(v)
    v.add_argument("--adg", action=_Given, metavar="X.fabric.mlir",
                   help="also map onto this fabric (as `loom map`, nothing written) and prove the decoded configuration")
    v.add_argument("--seed", type=_int_in(0), default=0, action=_Given, metavar="N",
                   help="with --adg: the mapper's seed")
    v.set_defaults(run=cmd_verify)


def _add_verify_rtl_options(v: argparse.ArgumentParser) -> None:
    """``loom verify --rtl`` and the options that only apply with it."""
    v.add_argument("--rtl", action=_GivenFlag, help="also prove the emitted RTL's properties with SymbiYosys")
    v.add_argument("--rtl-bound", type=_int_in(0), action=_Given, metavar="N",
                   help="with --rtl: cap trip-count arguments at N")
    v.add_argument("--rtl-depth", type=_int_in(0), action=_Given, metavar="D",
                   help="with --rtl: cycles of the bounded checks: the DFG-level monitors (default: a whole run at "
                        "the largest arguments, measured by RTL simulation) and, only when D is given, "
                        "bmc.K*.deadlock / residual on the whole RTL (use with --rtl-bound); 0: skip both")
    v.add_argument("--buffers", choices=("uniform", "opt"), default="opt", action=_Given,
                   help="with --rtl: " + BUFFERS_HELP)
    v.add_argument("--rtl-prove", action=_GivenFlag,
                   help="with --rtl: first try to prove the DFG-level monitors for every run (k-induction with "
                        "helper invariants, task dfg_prove; minutes); what it proves is reported proved")
    v.add_argument("--rtl-timeout", type=_seconds, action=_Given, metavar="S",
                   help="with --rtl: wall-clock seconds per SymbiYosys task (none by default: the depth and z3's "
                        "resource limit decide); a task stopped by it is 'unknown'")


def _add_hdl_parser(sub) -> None:
    """``loom hdl``: SystemVerilog, SVA and a SymbiYosys project into -o DIR."""
    h = sub.add_parser("hdl", help="emit SystemVerilog (one instance per DFG op), its SVA and a SymbiYosys project")
    h.add_argument("input", metavar="IN.mlir", help="a DFG, or SCF/C lowered first; - reads MLIR from stdin")
    _add_more_c(h)
    h.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                   help="the directory for the design's files (<stem>.sv, library, SymbiYosys project, ...)")
    h.add_argument("--func", metavar="NAME", help="the function to emit (default: the file's only candidate)")
    _add_c_options(h)
    h.add_argument("--sva", choices=("full", "yosys"), default="yosys", help="property backend (default yosys)")
    h.add_argument("--fifo-depth", type=_int_in(1), default=2, metavar="N",
                   help="slots of every channel FIFO")
    h.add_argument("--buffers", choices=("uniform", "opt"), default="opt", help=BUFFERS_HELP)
    h.add_argument("--stats", action="store_true",
                   help="print instance, channel, component and property counts, and synthesize the design with Yosys "
                        "to print its cells and flip-flops per module")
    h.add_argument("--max-join-fanin", type=_int_in(2), metavar="K",
                   help="SCF/C input: split joins wider than K inputs into a tree")
    h.add_argument("--no-rar", action="store_true", help="SCF/C input: order consecutive loads serially too")
    _add_verbosity(h, "print nothing on success", "list every file written")
    h.set_defaults(run=cmd_hdl)


def _add_adg_parser(sub) -> None:
    """``loom adg mesh|verify``: generate or check a fabric."""
    a = sub.add_parser("adg", help="generate or check an architecture description (fabric MLIR)")
    asub = a.add_subparsers(dest="adg_command", metavar="ACTION", parser_class=_Parser)
    _add_adg_mesh_parser(asub)
    av = asub.add_parser("verify", help="parse and verify fabric files")
    av.add_argument("inputs", nargs="+", metavar="X.fabric.mlir", help="fabric files; - reads one from stdin")
    _add_verbosity(av, "print nothing for a valid fabric (errors only)", "also list every PE definition's FUs")
    av.set_defaults(run=cmd_adg_verify)


def _add_adg_mesh_parser(asub) -> None:
    """``loom adg mesh``: a mesh of switches and PEs (one file, default stdout)."""
    am = asub.add_parser("mesh", help="generate a mesh of switches and PEs")
    am.add_argument("--rows", type=_int_in(1, 64), default=10, metavar="R", help="PE rows (default 10)")
    am.add_argument("--cols", type=_int_in(1, 64), default=10, metavar="C", help="PE columns (default 10)")
    amem = am.add_mutually_exclusive_group()
    amem.add_argument("--extmem", type=_int_in(0, 16), default=4, metavar="K",
                      help="external memory interfaces")
    amem.add_argument("--mem-ifaces", type=_int_in(1, 16), metavar="K",
                      help="K shared external memory interfaces: --extmem K, each with --mem-regions regions (default 4)")
    am.add_argument("--mem-regions", type=_int_in(1, 16), metavar="R",
                    help="software memories one external interface may host, by tag range (numRegion; default 1)")
    am.add_argument("--mem-tags", type=_int_in(1, 16), metavar="L",
                    help="tagged external interfaces: L load and store lanes share one tagged port per family, "
                         "reached through add_tag/del_tag per lane (numRegion L unless --mem-regions)")
    am.add_argument("--max-join-fanin", type=_int_in(2, 64), default=4, metavar="F",
                    help="inputs of the widest join a PE offers (default 4)")
    am.add_argument("--tracks", type=_int_in(1, 4), default=None, metavar="T",
                    help="wires per direction between switches (default 3; with --fit, 4 when the kernel's memory "
                         "ports crowd the border)")
    am.add_argument("--fit", action="append", metavar="KERNEL",
                    help="a DFG, SCF or C kernel the fabric must serve: FUs for its ops the palette lacks, and memory "
                         "lanes and rank for its memories (repeatable; rows, columns and interfaces stay as given)")
    am.add_argument("--func", metavar="NAME", help="--fit: the kernel of each file (default: the file's only candidate)")
    _add_c_options(am)
    am.add_argument("--temporal", type=_int_in(1, 16), metavar="S",
                    help="every PE a fabric.temporal_pe with S instruction slots (each slot its own tagged PE ports)")
    am.add_argument("-o", "--output", default="-", metavar="X.fabric.mlir",
                    help="the fabric file to write (default -: the fabric on stdout)")
    _add_verbosity(am, "print nothing on success (no 'wrote' line)",
                   "print the fabric's PE, switch and memory counts (on stderr)")
    am.set_defaults(run=cmd_adg_mesh)


def _add_map_parser(sub) -> None:
    """``loom map``: place and route a DFG onto a fabric, writing the artifact family into -o DIR."""
    m = sub.add_parser("map", help="place and route a DFG onto an ADG and write the configuration")
    m.add_argument("input", metavar="IN.mlir", help="a DFG, or SCF/C lowered first; - reads MLIR from stdin")
    _add_more_c(m)
    m.add_argument("--adg", required=True, metavar="X.fabric.mlir", help="the fabric to map onto")
    m.add_argument("-o", "--output", default=".", metavar="OUTDIR",
                   help="the directory for <dfg>.<adg>.map.json, .map.txt, .config.* and .viz.html (default .)")
    m.add_argument("--func", metavar="NAME", help="the function to map (default: the file's only candidate)")
    _add_c_options(m)
    m.add_argument("--seed", type=_int_in(0), default=0, action=_Given, metavar="N",
                   help="the placer's seed (default 0; the same seed gives the same mapping)")
    m.add_argument("--placer", choices=("sa", "cpsat"), default="sa",
                   help="placement: sa = greedy + simulated annealing (default), cpsat = OR-tools CP-SAT "
                        "neighbourhood search (deterministic limits)")
    m.add_argument("--budget", type=_seconds, action=_Given, metavar="SECONDS",
                   help="wall-clock seconds for placement retries (default: none; the mapper stops after a fixed "
                        "number of seeded attempts, so the result does not depend on the machine)")
    m.add_argument("--max-join-fanin", type=_int_in(2), metavar="K", help="default: the ADG's join fan-in")
    from loom.map.options import add_mapper_flags

    add_mapper_flags(m, _Given)  # upstream's --mapper-* flags and base YAML (spec-mapper-config)
    _add_verbosity(m, "no progress display", "also print the placement table (the .map.txt)")
    m.add_argument("--check-only", action=_GivenFlag,
                   help="do not map: prove the artifacts already in OUTDIR (exit 1 when refuted)")
    m.set_defaults(run=cmd_map)


def build_parser() -> argparse.ArgumentParser:
    """loom's command line: one subparser per command, each built by its own ``_add_<command>_parser``."""
    p = _Parser(prog="loom", description="Compile SCF loop kernels to verified dataflow graphs.")
    p.add_argument("--version", action=_VersionAction,
                   help="print loom's version and those of the tools it found (z3, yosys, simulators, solvers)")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for add in (_add_compile_parser, _add_sim_parser, _add_verify_parser, _add_report_parser,
                _add_hdl_parser, _add_adg_parser, _add_map_parser):
        add(sub)
    return p


def _located_somewhere(e: LoomError, args) -> LoomError:
    """An error raised without a location names the command's one input file (line 1) instead."""
    from loom.ir.location import UNKNOWN, Location

    files = [getattr(args, "input", None)] + list(getattr(args, "inputs", None) or [])
    files = [f for f in files if f]
    if e.loc == UNKNOWN and len(files) == 1:
        e.loc = Location(files[0], 1, 1)
    return e


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = build_parser()
    args = argparse.Namespace()
    try:
        args = parser.parse_args(argv)
        args.argv = list(sys.argv[1:] if argv is None else argv)  # as typed: where a contradictory flag stands
        _check_option_needs(args)
        if getattr(args, "command", None):
            _read_stdin_once(args)
        _C_SETTINGS.update(func=getattr(args, "func", None), include=getattr(args, "include", None) or (),
                           define=getattr(args, "define", None) or (), region=getattr(args, "region", None),
                           sources=_c_sources(args))
        if not getattr(args, "run", None):
            parser.print_help()
            return EXIT_USAGE
        return args.run(args)
    except _UsageError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE
    except LoomError as e:
        print(str(_located_somewhere(e.with_default_code(), args)), file=sys.stderr)
        return EXIT_USAGE
    except RecursionError:
        print("loom: error: [IO_INPUT_NESTING] input nested too deeply", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (`loom verify ... | head`): no traceback; 141 as for SIGPIPE
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
