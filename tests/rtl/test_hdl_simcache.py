"""The cache of built RTL simulations (loom.hdl.simcache): ``loom sim --rtl`` prints the same bytes with the cache
off, on a miss and on a hit; a run's inputs and stall seed are read at run time, so they share one build; entries
appear whole (written under a temporary name, then renamed) and a changed file is a different entry."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from loom.cli import main
from loom.hdl import rtlsim, simcache
from loom.hdl.emit import emit
from loom.runtime import decode_inputs, function_arg_names

from support.hdl import ROOT, dfg_func, need

SAXPY = ROOT / "examples" / "saxpy.scf.mlir"  # memory load and store ports, forked arguments
LIBM = """func.func @k(%x: memref<2xf64>, %y: memref<2xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    %a = memref.load %x[%i] : memref<2xf64>
    %l = math.log2 %a : f64
    memref.store %l, %y[%i] : memref<2xf64>
  }
  return
}
"""


def _entries(cache: Path) -> list[str]:
    return sorted(p.name for p in cache.iterdir()) if cache.exists() else []


def _cli(args: list[str], capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


def test_cli_output_is_the_same_bytes_off_on_a_miss_and_on_a_hit(tmp_path, monkeypatch, capsys):
    """Text and JSON reports, with and without --stall: the cache changes nothing a user reads; the second and
    later runs of a build reuse it (one entry for stalls off, one for every seed)."""
    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    inputs = str(SAXPY).replace(".scf.mlir", ".inputs.json")
    runs = [[], ["--json"], ["--stall", "3"], ["--stall", "3", "--json"], ["--stall", "9", "--json"]]
    monkeypatch.setenv(simcache.ENV, "off")
    off = [_cli(["sim", "--rtl", str(SAXPY), "--inputs", inputs, *a], capsys) for a in runs]
    cache = tmp_path / "cache"
    monkeypatch.setenv(simcache.ENV, str(cache))
    for attempt in ("miss", "hit"):
        got = [_cli(["sim", "--rtl", str(SAXPY), "--inputs", inputs, *a], capsys) for a in runs]
        assert got == off, attempt
        assert len(_entries(cache)) == 2, attempt  # without stalls, and with (seeds 3 and 9 share it)
    assert json.loads(off[3])["rtl"]["cycles"] != json.loads(off[4])["rtl"]["cycles"]  # the seed did reach the run


def test_inputs_are_read_at_run_time(tmp_path, monkeypatch, capsys):
    """dot with n = 3 then n = 5 (same memory sizes): other argument values and memory contents, one build, and
    each run reports what the token simulator reports."""
    need("iverilog")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    cache = tmp_path / "cache"
    path = ROOT / "examples" / "dot.scf.mlir"
    for n in (3, 5):
        inp = tmp_path / f"dot{n}.json"
        inp.write_text(json.dumps({"x": [float(k) for k in range(5)], "y": [2.0] * 5, "n": n}))
        ref = json.loads(_cli(["sim", "--lower", str(path), "--inputs", str(inp), "--json"], capsys))
        monkeypatch.setenv(simcache.ENV, str(cache))
        rtl = json.loads(_cli(["sim", "--rtl", str(path), "--inputs", str(inp), "--json"], capsys))
        rtl.pop("rtl")
        assert rtl == ref and ref["results"] == [2.0 * sum(range(n))]
    assert len(_entries(cache)) == 1


def test_a_libm_design_reuses_its_vpi_module(tmp_path, monkeypatch, capsys):
    """iverilog loads the C libm as a VPI module from the run's directory: a hit links it in beside the vvp."""
    need("iverilog")
    need("iverilog-vpi")
    monkeypatch.setenv("LOOM_RTL_SIM", "iverilog")
    src = tmp_path / "k.scf.mlir"
    src.write_text(LIBM)
    inp = tmp_path / "k.json"
    inp.write_text(json.dumps({"x": [8.0, 0.5], "y": [0.0, 0.0]}))
    monkeypatch.setenv(simcache.ENV, str(tmp_path / "cache"))
    got = [json.loads(_cli(["sim", "--rtl", str(src), "--inputs", str(inp), "--json"], capsys)) for _ in range(2)]
    assert got[0] == got[1] and got[0]["memrefs"]["y"] == [3.0, -1.0]
    (entry,) = _entries(tmp_path / "cache")
    assert sorted(p.name for p in (tmp_path / "cache" / entry).iterdir()) == ["loom_libm.vpi", "sim.vvp"]


def test_a_hit_skips_the_build(tmp_path, monkeypatch):
    """The second run takes its build from the cache: the simulator's compiler is not started again."""
    need("iverilog")
    monkeypatch.setenv(simcache.ENV, str(tmp_path / "cache"))
    func, module = dfg_func(SAXPY)
    raw = json.loads(Path(str(SAXPY).replace(".scf.mlir", ".inputs.json")).read_text())
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    e = emit(func, "saxpy")
    builds = []
    real = rtlsim._build
    monkeypatch.setattr(rtlsim, "_build", lambda *a: (builds.append(1), real(*a))[1])
    results = [rtlsim.run(e, decode_inputs(names, types, raw, "<in>", module=module), module, stall=s,
                          simulator="iverilog") for s in (4, 5)]
    assert builds == [1] and results[0].memrefs == results[1].memrefs
    rtlsim.run(e, decode_inputs(names, types, raw, "<in>", module=module), module, stall=5, simulator="iverilog",
               cache=False)
    assert builds == [1, 1]


def test_where_the_cache_lives(tmp_path, monkeypatch):
    monkeypatch.delenv(simcache.ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert simcache.root() == tmp_path / "xdg" / "loom" / "rtlsim"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert simcache.root() == tmp_path / "home" / ".cache" / "loom" / "rtlsim"
    monkeypatch.setenv(simcache.ENV, str(tmp_path / "mine"))
    assert simcache.root() == tmp_path / "mine"
    for off in ("off", "OFF", "0"):
        monkeypatch.setenv(simcache.ENV, off)
        assert simcache.root() is None


def test_the_key_covers_every_file_the_command_and_the_simulator():
    base = simcache.key("iverilog", "v11", ["iverilog", "a.sv"], {"a.sv": "module a; endmodule\n"})
    assert base == simcache.key("iverilog", "v11", ["iverilog", "a.sv"], {"a.sv": "module a; endmodule\n"})
    others = [simcache.key("iverilog", "v11", ["iverilog", "a.sv"], {"a.sv": "module a;  endmodule\n"}),
              simcache.key("iverilog", "v11", ["iverilog", "a.sv"], {"b.sv": "module a; endmodule\n"}),
              simcache.key("iverilog", "v12", ["iverilog", "a.sv"], {"a.sv": "module a; endmodule\n"}),
              simcache.key("verilator", "v11", ["iverilog", "a.sv"], {"a.sv": "module a; endmodule\n"}),
              simcache.key("iverilog", "v11", ["iverilog", "-DX", "a.sv"], {"a.sv": "module a; endmodule\n"})]
    assert len({base, *others}) == 6


def test_concurrent_stores_leave_one_whole_entry(tmp_path):
    """Eight writers of the same entry at once (pytest workers building one design): one entry holding the
    artifact, no temporary directory left behind, and a reader sees the entry whole or not at all."""
    src = tmp_path / "w"
    (src / "obj").mkdir(parents=True)
    (src / "obj" / "Vtb").write_bytes(b"\x7fELF" + bytes(1 << 20))
    cache = tmp_path / "cache"
    seen = []

    def read() -> None:
        for _ in range(200):
            entry = simcache.lookup(cache, "k" * 64, ["obj/Vtb"])
            if entry is not None:
                seen.append((entry / "obj" / "Vtb").stat().st_size)

    threads = [threading.Thread(target=simcache.store, args=(cache, "k" * 64, src, ["obj/Vtb"])) for _ in range(8)]
    threads.append(threading.Thread(target=read))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert _entries(cache) == ["k" * 64]
    assert (cache / ("k" * 64) / "obj" / "Vtb").read_bytes() == (src / "obj" / "Vtb").read_bytes()
    assert all(size == (1 << 20) + 4 for size in seen)


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    """A cache directory that cannot be made (a file is in the way): the run builds as without a cache."""
    need("iverilog")
    (tmp_path / "file").write_text("")
    monkeypatch.setenv(simcache.ENV, str(tmp_path / "file" / "cache"))
    func, module = dfg_func(SAXPY)
    raw = json.loads(Path(str(SAXPY).replace(".scf.mlir", ".inputs.json")).read_text())
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    r = rtlsim.run(emit(func, "saxpy"), decode_inputs(names, types, raw, "<in>", module=module), module,
                   simulator="iverilog")
    assert r.status == "completed"


@pytest.mark.parametrize("stall", [None, 6])
def test_the_bench_compiles_no_input(stall):
    """Two runs with other argument values, memory contents and seeds write the same testbench SV: what
    differs is in the run's data files."""
    func, module = dfg_func(SAXPY)
    names, types = function_arg_names(func), [a.type for a in func.regions[0].entry.args]
    e = emit(func, "saxpy")
    raw = json.loads(Path(str(SAXPY).replace(".scf.mlir", ".inputs.json")).read_text())
    other = {k: ([x + 1.5 for x in v] if isinstance(v, list) else (v + 2.5 if isinstance(v, float) else v))
             for k, v in raw.items()}
    assert other != raw
    a = rtlsim.testbench(e, decode_inputs(names, types, raw, "<in>", module=module), module, stall)
    b = rtlsim.testbench(e, decode_inputs(names, types, other, "<in>", module=module), module,
                         None if stall is None else stall + 1, max_cycles=1000)
    assert a.text == b.text and a.hex_files != b.hex_files and set(a.hex_files) == set(b.hex_files)
