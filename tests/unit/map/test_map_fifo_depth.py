"""map.fifo: the verifier's bmc on the function the configuration rebuilds (routes bounded by their depth) --
refuted where a route is too shallow, in agreement with execute.py's run of the same configuration."""

from __future__ import annotations

import functools
import json

from loom.ir.attributes import IntegerAttr
from loom.ir.types import i32
from loom.map.artifacts import config_bin, map_json
from loom.map.config import from_bytes
from loom.map.dfg import read_dfg
from loom.map.execute import decoded_connections, rebuild, run_decoded
from loom.map.fifo import checked, rebuilt_function
from loom.map.mapper import map_dfg
from loom.map.obligations import mapping_obligations
from loom.mlir import parse_file
from loom.semantics.routes import ROUTE_ATTR
from loom.sim import simulate
from loom.verify.assume import parse_assumption
from loom.verify.driver import verify_function
from loom.verify.ids import ObligationId
from loom.verify.obligation import VerifyContext

from support.map import default_mesh
from support.paths import DATA

LATE_SUM = DATA / "map" / "late_sum.dfg.mlir"  # one stream feeds a sum and a loop that waits for that sum
DEADLOCK = "map.fifo.bmc.K4.deadlock"


def _func():
    return [f for f in parse_file(LATE_SUM).functions() if f.name == "handshake.func"][0]


@functools.lru_cache(maxsize=None)
def _mapped():
    adg = default_mesh()
    m = map_dfg(read_dfg(_func()), adg, seed=0)
    return adg, json.loads(json.dumps(map_json(m, LATE_SUM.name, "mesh.fabric.mlir"))), from_bytes(config_bin(m))


def _only(n: int, k: int = 6) -> VerifyContext:
    """The run's context for the input n alone (an assumption), with every loop within the bound."""
    return VerifyContext(bmc_k=k, assumptions=(parse_assumption(f"n == {n}"),))


def _deadlock(obs) -> str:
    return next(o.status for o in obs if ObligationId.parse(o.id).subject.endswith(".deadlock"))


def test_the_dfg_alone_is_proved_but_its_routes_deadlock() -> None:
    """Unbounded channels: bmc proves the DFG. Mapped by loom's own router onto the default mesh, the route
    %iv -> %y holds 2 values, the stream stalls at n = 3, and map.fifo is refuted with the run's witness;
    every checker fact of the mapping still holds."""
    dfg_bmc = verify_function(_func(), VerifyContext(), checkers=("bmc",))
    assert {o.id: o.status for o in dfg_bmc.obligations} == {"bmc.K4.deadlock": "proved", "bmc.K4.residual": "proved"}
    got = {o.id: o for o in mapping_obligations(read_dfg(_func()), default_mesh(), "mesh.fabric.mlir")}
    assert all(o.status == "proved" for k, o in got.items() if not k.startswith("map.fifo."))
    dead = got[DEADLOCK]
    assert dead.status == "refuted" and dead.kind == "mapping" and dead.bounded == 3
    assert "full bounded routes" in dead.detail and "switch hops + buffered FIFO slots" in dead.detail
    assert dead.counterexample["fabric"] == "mesh.fabric.mlir" and dead.counterexample["arguments"]["n"] >= 3
    assert got["map.fifo.bmc.K4.residual"].status == "unknown"  # the exploration stopped at the deadlock
    adg, doc, words = _mapped()
    runs = {n: run_decoded(_func(), _func(), adg, words, doc, {"n": n})[1].status for n in range(7)}
    assert runs == {n: "completed" if n < dead.bounded else "deadlock" for n in range(7)}


def test_execution_of_the_configuration_terminates_exactly_when_map_fifo_proves_it() -> None:
    """Per input n (an assumption n == v, bound K beyond every trip count): map.fifo proved <=> execute.py's
    run of the same config.bin completes; refuted <=> it deadlocks; the DFG itself completes on all."""
    adg, doc, words = _mapped()
    rebuilt = rebuilt_function(_func(), adg, words, doc)
    seen = set()
    for n in range(7):
        verdict = _deadlock(checked(rebuilt, _only(n), "mesh.fabric.mlir"))
        plain, decoded = run_decoded(_func(), _func(), adg, words, doc, {"n": n})
        assert plain.status == "completed"
        assert (verdict, decoded.status) in (("proved", "completed"), ("refuted", "deadlock")), (n, verdict)
        if decoded.status == "completed":
            assert decoded.results == plain.results
        seen.add(verdict)
    assert seen == {"proved", "refuted"}  # both sides of the depth: n <= 2 runs, n >= 3 stalls


def test_the_verdict_follows_a_hand_edited_route_depth() -> None:
    """The same decoded routes with every depth set to 8 run every n <= 6 (proved, and executed); with every
    depth 1 (the condition routes too) the stall comes at n = 1 (refuted), and the witness deadlocks the run."""
    adg, doc, words = _mapped()
    fresh = _func()
    dfg = read_dfg(fresh)
    conns, intra = decoded_connections(dfg, adg, words, doc)
    ctx = VerifyContext(bmc_k=6)
    for depth, want in ((8, "proved"), (1, "refuted")):
        fresh = _func()
        rebuilt = rebuild(fresh, read_dfg(fresh), [(s, d, depth) for s, d, _ in conns], intra)
        obs = checked(rebuilt, ctx, "edited")
        assert _deadlock(obs) == want
        runs = {n: simulate(rebuilt, {"n": n}).status for n in range(7)}
        if want == "proved":
            assert set(runs.values()) == {"completed"}
        else:
            dead = next(o for o in obs if o.status == "refuted")
            assert runs[dead.counterexample["arguments"]["n"]] == "deadlock"
            # the smallest bound that shows the stall is the smallest trip count that stalls the run
            assert dead.bounded == 1 and runs == {n: "completed" if n < 1 else "deadlock" for n in range(7)}


def test_every_route_of_the_rebuilt_function_is_bounded_by_its_decoded_depth() -> None:
    adg, doc, words = _mapped()
    fresh = _func()
    dfg = read_dfg(fresh)
    conns, intra = decoded_connections(dfg, adg, words, doc)
    rebuilt = rebuilt_function(_func(), adg, words, doc)
    routes = [op for op in rebuilt.regions[0].entry.ops if op.name == "handshake.buffer"]
    assert len(routes) == len(conns) and all(ROUTE_ATTR in op.attributes for op in routes)
    assert sorted(op.attributes["slots"].value for op in routes) == sorted(max(1, h) for _, _, h in conns)
    assert IntegerAttr(1, i32) in {op.attributes["slots"] for op in routes}  # a one-place route is at least 1


def test_a_configuration_that_rebuilds_no_function_leaves_map_fifo_unknown(monkeypatch) -> None:
    """When the decoded routes do not rebuild the DFG (the checker refutes map.iso then), nothing was explored:
    map.fifo is unknown, never proved."""
    import loom.map.execute as execute
    from loom.map.fifo import fifo_obligations

    def broken(*args):
        raise execute.ExecuteError("an operand no route feeds")

    monkeypatch.setattr(execute, "decoded_connections", broken)
    adg, doc, words = _mapped()
    obs = fifo_obligations(_func(), adg, words, doc, "mesh.fabric.mlir", VerifyContext())
    assert [(o.id, o.status) for o in obs] == [(DEADLOCK, "unknown")]
    assert "an operand no route feeds" in obs[0].detail


def test_verify_adg_reports_the_refutation_and_exits_1(tmp_path, capsys) -> None:
    """From the command line: the DFG's own bmc is proved, map.fifo is refuted (exit 1) with bmc's witness."""
    from loom.cli import main

    mesh_file = tmp_path / "mesh.fabric.mlir"
    assert main(["adg", "mesh", "-o", str(mesh_file)]) == 0
    capsys.readouterr()
    rc = main(["verify", str(LATE_SUM), "--adg", str(mesh_file), "--json"])
    got = {o["id"]: o for o in json.loads(capsys.readouterr().out)["obligations"]}
    assert rc == 1
    assert got["bmc.K4.deadlock"]["status"] == "proved"
    assert got[DEADLOCK]["status"] == "refuted" and got[DEADLOCK]["kind"] == "mapping"
    assert got[DEADLOCK]["method"] == "simulation" and got[DEADLOCK]["counterexample"]["arguments"]["n"] >= 3
