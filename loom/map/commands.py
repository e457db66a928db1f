"""The ``loom adg`` and ``loom map`` subcommands (called by loom.cli; argument parsing stays there)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Callable, Optional

from loom.diagnostics import LoomError
from loom.ir.location import Location
from loom.outputs import write_all


def adg_stem(path: Path) -> str:
    name = path.name
    for suffix in (".fabric.mlir", ".mlir"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return path.stem


def run_adg_mesh(args, dfg_module: Optional[Callable] = None) -> int:
    from dataclasses import replace

    from loom.map.adg.mesh import MeshParams, border_tracks, fit_params, memory_lanes, mesh

    # the option ranges are checked where they are parsed (loom.cli: --rows/--cols 1..64, --extmem 0..16, ...)
    shared = getattr(args, "mem_ifaces", None)
    tags = getattr(args, "mem_tags", None) or 0
    regions = getattr(args, "mem_regions", None) or (tags or (4 if shared else 1))
    params = MeshParams(rows=args.rows, cols=args.cols, extmem=shared or args.extmem, max_join_fanin=args.max_join_fanin,
                        tracks=args.tracks or 3, mem_regions=regions, temporal=getattr(args, "temporal", None) or 0,
                        mem_tags=tags)
    fit = getattr(args, "fit", None) or []
    if fit:  # --fit: every kernel's ops and memory ports (the DFGs are read before anything is written)
        assert dfg_module is not None
        dfgs = [_kernel_dfg(Path(f), dfg_module, args) for f in fit]
        params = fit_params(params, dfgs)
        if args.tracks is None:  # the wires and memory lanes the border must carry, unless the user chose
            params = replace(params, tracks=border_tracks(params, memory_lanes(dfgs)))
    text = mesh(params)
    if getattr(args, "verbose", False):  # on stderr: with -o - stdout is the fabric alone
        from loom.map.adg.read import read_adg
        from loom.mlir import parse_text

        adg = read_adg(parse_text(text, "<mesh>"), "<mesh>")
        n_pe = sum(1 for n in adg.nodes if n.kind in ("pe", "tpe"))
        print(f"fabric.module @{adg.name}: {n_pe} {'temporal ' if params.temporal else ''}PEs, {len(adg.switches())} switches, "
              f"{len(adg.memories())} memories, join fan-in {adg.max_join_fanin()}", file=sys.stderr)
    if args.output == "-":  # mlir-opt's habit: the one output on stdout
        sys.stdout.write(text)
        return 0
    out = Path(args.output)
    write_all([(out, text)])
    if not getattr(args, "quiet", False):
        _say([f"wrote {out}"])
    return 0


def _kernel_dfg(path: Path, dfg_module: Callable, args):
    """The mapper's graph of the one kernel of ``path`` (a DFG, or SCF/C lowered first)."""
    from loom.ir.entry import choose_function
    from loom.lower.instances import inline_instances
    from loom.map.dfg import read_dfg
    from loom.map.legalize import legalize_for_fabric
    from loom.stdin import display_name

    name = getattr(args, "func", None)
    module = dfg_module(path, name, args)
    func = choose_function(module, name, ("handshake.func",), Location(display_name(path), 1, 1))
    return read_dfg(legalize_for_fabric(inline_instances(func, module)))


def run_adg_verify(args) -> int:
    """Check each fabric file against the fabric rules; a valid fabric the mapper cannot use yet is still ok."""
    from loom.map.adg.read import load_adg
    from loom.map.adg.verify import NotMappable
    from loom.stdin import display_name, is_input_file

    quiet, verbose = getattr(args, "quiet", False), getattr(args, "verbose", False)
    for name in args.inputs:
        path = Path(name)
        if not is_input_file(path):
            raise LoomError("cannot read input file: no such file", Location(display_name(path), 1, 1))
        shown = display_name(path)
        try:
            adg = load_adg(str(path))
        except NotMappable as e:  # verify_fabric passed (it runs first): valid, only loom map cannot use it yet
            if not quiet:
                print(f"{shown}: ok: valid fabric; not mappable by loom map yet: {e.what} at line {e.loc.line}")
            continue
        if quiet:
            continue
        n_tpe = sum(1 for n in adg.nodes if n.kind == "tpe")
        print(f"{shown}: ok: fabric.module @{adg.name}: {len(adg.pes())} PEs, "
              + (f"{n_tpe} temporal PEs, " if n_tpe else "")
              + f"{len(adg.switches())} switches, {len(adg.memories())} memories, join fan-in {adg.max_join_fanin()}")
        if verbose:  # each PE definition once, with its FUs' ops
            defs = {id(n.defn): n.defn for n in adg.pes()}
            for d in sorted(defs.values(), key=lambda d: d.name):
                ops: dict[str, int] = {}
                for fu in d.fus:
                    for op in fu.body:
                        ops[op.name] = ops.get(op.name, 0) + 1
                print(f"  pe @{d.name}: {len(d.fus)} FUs: " + ", ".join(f"{n} x{k}" for n, k in sorted(ops.items())))
    return 0


def _progress(quiet: bool):
    from loom.map.mapper import Progress

    if quiet or not sys.stderr.isatty():
        return Progress()
    start = time.monotonic()

    def update(msg: str) -> None:
        sys.stderr.write(f"\r\033[K[{time.monotonic() - start:5.1f}s] {msg}")
        sys.stderr.flush()

    return Progress(update)


def run_map(args, dfg_module: Callable, stem: Callable[[Path], str]) -> int:
    """Map one DFG (or lowered SCF) onto an ADG and write the artifacts; 1 when it does not fit."""
    from loom.map.mapper import MapFailure, map_dfg
    from loom.map.options import resolve
    from loom.map.snapshots import Snapshots

    if args.budget is not None and args.budget <= 0:
        raise LoomError("--budget must be positive", Location("<command line>", 1, 1))
    options = resolve(args)  # upstream's --mapper-* flags and base YAML, refused before anything is read
    adg_path, in_path = Path(args.adg), Path(args.input)
    adg, dfg = _read_inputs(args, adg_path, in_path, dfg_module)
    base = f"{stem(in_path)}.{adg_stem(adg_path)}"
    if getattr(args, "check_only", False):
        return _check_existing(dfg, adg, Path(args.output) / base)
    for w in options.warnings:
        print(f"loom map: warning: {w}", file=sys.stderr)
    snaps = (Snapshots(Path(args.output), base, in_path.name, adg_path.name, options.snapshot_interval_rounds,
                       options.snapshot_interval_seconds) if options.snapshots else None)
    progress = _progress(args.quiet)
    try:
        mapping = map_dfg(dfg, adg, seed=options.seed, budget=options.budget, progress=progress,
                          placer=getattr(args, "placer", "sa"), options=options, snapshots=snaps)
    except MapFailure as e:
        _clear(args.quiet)
        if snaps is not None and snaps.files:
            write_all(snaps.files)  # the checkpoints the user asked for, also when nothing fits
        _print_no_fit(e, in_path, adg_path)
        return 1
    _clear(args.quiet)
    return _write_mapping(args, mapping, dfg, adg, base, in_path, adg_path, snaps)


def _read_inputs(args, adg_path: Path, in_path: Path, dfg_module: Callable):
    """The fabric and the one DFG to map (an SCF or C input lowered with the fabric's join fan-in)."""
    from loom.lower.instances import inline_instances
    from loom.map.adg.read import load_adg
    from loom.map.dfg import read_dfg
    from loom.map.legalize import legalize_for_fabric, refuse_unallowed
    from loom.stdin import display_name, is_input_file

    for p in (adg_path, in_path):
        if not is_input_file(p):
            raise LoomError("cannot read input file: no such file", Location(display_name(p), 1, 1))
    adg = load_adg(str(adg_path))
    if getattr(args, "max_join_fanin", None) is None and adg.max_join_fanin() >= 2:
        args.max_join_fanin = adg.max_join_fanin()  # the ADG's join capacity drives join legalization
    module = dfg_module(in_path, args.func, args)
    funcs = [f for f in module.functions() if f.name == "handshake.func"]
    if args.func is not None:
        funcs = [f for f in funcs if f.attributes["sym_name"].value == args.func]  # type: ignore[union-attr]
    if len(funcs) != 1:
        raise LoomError("expected one handshake.func to map (choose with --func)", Location(str(in_path), 1, 1))
    dfg = read_dfg(legalize_for_fabric(inline_instances(funcs[0], module)))
    refuse_unallowed(dfg)  # an op no fabric has an FU for is the kernel's, located, not a fabric too small
    return adg, dfg


def _print_no_fit(e, in_path: Path, adg_path: Path) -> None:
    """Why the DFG does not fit, and the best partial result, on stderr."""
    print(f"loom map: {in_path} does not fit {adg_path.name}:", file=sys.stderr)
    for r in e.reasons:
        print(f"  {r}", file=sys.stderr)
    if e.partial:
        p = e.partial
        routed = ("not routed (placement stopped first)" if p["routed_edges"] is None else
                  f"{p['routed_edges']}/{p['edges']} edges routed, {p['shared_ports']} ports still shared")
        print(f"  best partial result (after {e.attempts} attempt(s)): {len(p['placed'])}/{p['nodes']} nodes placed, "
              f"{routed}", file=sys.stderr)


def _write_mapping(args, mapping, dfg, adg, base: str, in_path: Path, adg_path: Path, snaps) -> int:
    """Prove the mapping's config.bin (a rejection is an internal error: nothing written), then write the
    artifact family into -o DIR and say what was written."""
    from loom.map.artifacts import config_bin, config_h, config_json, dumps, map_json, map_txt
    from loom.map.check import check
    from loom.map.config import from_bytes

    doc = map_json(mapping, in_path.name, adg_path.name)
    binary = config_bin(mapping)
    report = check(dfg, adg, from_bytes(binary), json.loads(json.dumps(doc)))
    if not report.ok:  # the mapper produced something the proof rejects: a bug, never written
        print(f"loom map: internal error: the checker rejects the mapping: {report.violations[0]}", file=sys.stderr)
        return 1
    out = Path(args.output)
    files = [
        (out / f"{base}.map.json", dumps(doc)),
        (out / f"{base}.map.txt", map_txt(mapping, doc)),
        (out / f"{base}.config.json", dumps(config_json(mapping))),
        (out / f"{base}.config.bin", binary),
        (out / f"{base}.config.h", config_h(mapping, base)),
    ]
    try:
        from loom.map.viz import viz_html

        files.append((out / f"{base}.viz.html", viz_html(mapping, doc)))
    except ImportError:
        pass
    if snaps is not None:
        files += snaps.files
    write_all(files)
    s = doc["stats"]
    _say([f"mapped {in_path.name} @{dfg.name} onto {adg_path.name}: {s['pes_used']}/{s['pes_total']} PEs, "
          f"{s['dfg_edges']} edges, {s['switch_hops']} switch hops; checker: proved ({report.edges_checked} edges)"]
         + [f"wrote {path}" for path, _ in files]
         + (files[1][1].splitlines() if getattr(args, "verbose", False) else []))  # -v: the .map.txt
    return 0

def _say(lines: list[str]) -> None:
    """Print to stdout; a reader that went away (``| head``) is not an error."""
    try:
        for line in lines:
            print(line)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _check_existing(dfg, adg, base: Path) -> int:
    """Re-prove artifacts already on disk: 0 when the checker accepts them, 1 with the violations otherwise."""
    from loom.map.check import check
    from loom.map.config import from_bytes

    map_path, bin_path = Path(f"{base}.map.json"), Path(f"{base}.config.bin")
    for p in (map_path, bin_path):
        if not p.is_file():
            raise LoomError("cannot read mapping artifact: no such file", Location(str(p), 1, 1))
    try:
        doc = json.loads(map_path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise LoomError(f"map.json is not valid JSON: {e}", Location(str(map_path), 1, 1)) from None
    if not isinstance(doc, dict):
        raise LoomError("map.json is not a JSON object", Location(str(map_path), 1, 1))
    try:
        words = from_bytes(bin_path.read_bytes())
        report = check(dfg, adg, words, doc)
    except Exception as e:  # a malformed certificate is a refutation, never a traceback
        from loom.map.check import CheckReport

        report = CheckReport([f"C1: map.json is malformed ({type(e).__name__}: {e})"])
    if report.ok:
        rules = "C1-C6, C8-C11" if any(n.kind == "tpe" for n in adg.nodes) else "C1-C4, C6, C8, C10, C11"  # C5, C9: temporal
        print(f"{bin_path}: proved: the configuration implements @{dfg.name} ({report.edges_checked} edges, {rules})")
        return 0
    print(f"{bin_path}: refuted:", file=sys.stderr)
    for v in report.violations[:20]:
        print(f"  {v}", file=sys.stderr)
    return 1


def _clear(quiet: bool) -> None:
    if not quiet and sys.stderr.isatty():
        sys.stderr.write("\r\033[K")
        sys.stderr.flush()

