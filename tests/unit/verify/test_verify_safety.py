"""Safety obligations (``safe.<op>@L:C.<what>``): every fault kind refuted with inputs the interpreter replays
(checked here again by ``loom sim``, independently of the checker), every correct twin proved, the rule table's
Python and Z3 forms agreeing, and generated (defined) programs never refuted."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import z3
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from loom.ir.attributes import OpaqueAttr
from loom.ir.types import FloatType, IndexType, IntegerType
from loom.semantics.scalar import mask
from loom.semantics.undefined import ub_rules
from loom.verify import VerifyContext
from loom.verify.safety.check import check_safety

from support.cli import loom_here
from support.paths import DATA, ROOT

DATA = DATA / "safety"

# fault file -> (the obligation refuted, the runtime error the interpreter stops with)
FAULTS = {
    "reduce_past_end": ("safe.load@9:5.bounds", "RT_MEMREF_OUT_OF_BOUNDS"),
    "gather": ("safe.load@7:5.bounds", "RT_MEMREF_OUT_OF_BOUNDS"),
    "div_loaded": ("safe.divsi@8:5.divzero", "RT_ARITH_DIV_BY_ZERO"),
    "offset_wraps": ("safe.load@8:5.bounds", "RT_MEMREF_OUT_OF_BOUNDS"),
    "rem_arg": ("safe.remui@8:5.divzero", "RT_ARITH_DIV_BY_ZERO"),
    "trip_div": ("safe.divui@6:3.divzero", "RT_ARITH_DIV_BY_ZERO"),
    "window_past_end": ("safe.reinterpret_cast@6:3.bounds", "RT_MEMREF_OUT_OF_BOUNDS"),
    "rows_reshape": ("safe.expand_shape@7:3.shape", "RT_MEMREF_BAD_VIEW"),
    "flatten_strided": ("safe.collapse_shape@7:3.shape", "RT_MEMREF_BAD_VIEW"),
    "cast_static": ("safe.cast@7:3.shape", "RT_MEMREF_CAST_MISMATCH"),
    "copy_short": ("safe.copy@3:3.shape", "RT_MEMREF_CAST_MISMATCH"),
}
TWINS = {"reduce_past_end": "reduce_ok", "gather": "gather_ok", "div_loaded": "div_loaded_ok",
         "offset_wraps": "offset_ok", "rem_arg": "rem_arg_ok", "trip_div": "trip_div_ok",
         "window_past_end": "window_ok", "rows_reshape": "rows_ok", "flatten_strided": "flatten_ok", "cast_static": "cast_static_ok",
         "copy_short": "copy_same"}
VIEWS = {"window_past_end", "rows_reshape", "flatten_strided", "cast_static", "copy_short"}  # faults of a view op, which a DFG has no more


def loom(*args: str) -> subprocess.CompletedProcess:
    """``loom ARGS`` in a fresh process: ``loom verify``'s verdicts are read from a process of their own (the
    replays' ``loom sim`` and the ``loom compile`` runs go through ``loom_here``, in this process)."""
    return subprocess.run([sys.executable, "-m", "loom", *args], capture_output=True, text=True, cwd=ROOT)


def _verify(path: Path) -> tuple[int, dict]:
    r = loom("verify", "--json", str(path))
    return r.returncode, json.loads(r.stdout)


@pytest.mark.parametrize("name", sorted(FAULTS))
def test_each_fault_is_refuted_with_inputs_the_interpreter_replays(name, tmp_path):
    oid, code = FAULTS[name]
    rc, doc = _verify(DATA / f"{name}.scf.mlir")
    assert rc == 1
    got = {o["id"]: o for o in doc["obligations"] if o["id"].startswith("safe.")}
    ob = got[oid]
    assert ob["status"] == "refuted" and ob["nature"] == "behaviour", ob
    cex = ob["counterexample"]
    assert cex["finding"] == "input" and cex["error"].startswith(code)
    assert "memref dimensions < 2^48" in ob["assumes"]
    # an independent run of the reported inputs stops with the same error at the same op
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(cex["inputs"]))
    r = loom_here("sim", str(DATA / f"{name}.scf.mlir"), "--inputs", str(inputs), "--json")
    run = json.loads(r.stdout)
    line, col = oid.split("@")[1].split(".")[0].split(":")
    assert run["status"] == "error" and run["error"].startswith(code)
    assert f":{line}:{col})" in run["error"]


@pytest.mark.parametrize("name", sorted(TWINS))
def test_each_correct_twin_is_proved(name):
    rc, doc = _verify(DATA / f"{TWINS[name]}.scf.mlir")
    bad = [(o["id"], o["status"], o["detail"][:200]) for o in doc["obligations"] if o["status"] != "proved"
           and o["status"] != "assumed"]
    assert rc == 0 and not bad
    assert any(o["id"] == FAULTS[name][0] for o in doc["obligations"])  # the same site, proved


def test_examples_prove_every_safety_obligation():
    r = loom("verify", "--json", *sorted(str(p) for p in (ROOT / "examples").glob("*.scf.mlir")))
    doc = json.loads(r.stdout)
    safe = [o for o in doc["obligations"] if o["kind"] == "safety"]
    assert r.returncode == 0 and len(safe) >= 30 and all(o["status"] == "proved" for o in safe)


def test_a_bound_that_needs_the_loop_facts_is_proved_for_every_trip_count():
    """Triangular nest: the inner bound is the outer index + 1; only the for-loop facts (lb <= iv < ub) of
    both loops prove L[i, j] in bounds."""
    rc, doc = _verify(ROOT / "examples" / "triangular.scf.mlir")
    ids = {o["id"]: o["status"] for o in doc["obligations"]}
    assert ids["safe.load@12:9.bounds"] == "proved" and ids["safe.load@13:9.bounds"] == "proved"


# ---------------------------------------------------------------------------- the rule table, two forms

I32, I8 = IntegerType(32), IntegerType(8)
INT_RULE_OPS = ["arith.divsi", "arith.divui", "arith.remsi", "arith.remui", "arith.ceildivsi", "arith.floordivsi",
                "arith.shli", "arith.shrui", "arith.shrsi", "math.ipowi"]
EDGES = st.sampled_from([0, 1, 2, 7, 8, 9, 31, 32, 33, 127, 128, 255, -1, -128, -(2**31), 2**31 - 1])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(INT_RULE_OPS + ["arith.addi", "arith.subi", "arith.muli"]), st.sampled_from([I8, I32]),
       st.one_of(EDGES, st.integers(-(2**31), 2**31 - 1)), st.one_of(EDGES, st.integers(-(2**31), 2**31 - 1)),
       st.sampled_from(["", "nsw", "nuw", "nsw, nuw"]))
def test_rule_python_and_z3_forms_agree(name, t, a, b, flags):
    attrs = {"overflowFlags": OpaqueAttr(f"#arith.overflow<{flags}>")} if flags else {}
    rules, sig = ub_rules(name, attrs, [t, t], [t])
    w = t.width
    av, bv = mask(a, w), mask(b, w)
    for r in rules:
        py = r.holds([av, bv], sig)
        term = z3.simplify(r.term([z3.BitVecVal(av, w), z3.BitVecVal(bv, w)], sig))
        assert z3.is_true(term) == py and (z3.is_false(term) or z3.is_true(term)), (name, a, b, r.what)


@pytest.mark.parametrize("x, bad", [(1.5, False), (-1.9, False), (2147483520.0, False), (2147483648.0, True),
                                    (-2147483648.0, False), (-2147483904.0, True), (float("nan"), True),
                                    (float("inf"), True)])
def test_cast_rule_python_and_z3_forms_agree(x, bad):
    f32 = FloatType("f32")
    (rule,), sig = ub_rules("arith.fptosi", {}, [f32], [I32])
    assert rule.holds([x], sig) is bad
    fp = z3.FPVal(x, z3.Float32()) if x == x else z3.fpNaN(z3.Float32())
    assert z3.is_true(z3.simplify(rule.term([fp], sig))) is bad


def test_index_cast_and_plain_arithmetic_have_no_rule():
    assert ub_rules("arith.index_cast", {}, [IndexType()], [I32])[0] == ()
    assert ub_rules("arith.addi", {}, [I32, I32], [I32])[0] == ()


def test_the_interpreter_stops_where_each_rule_holds(tmp_path):
    text = """
    func.func @f(%a: i32, %b: i32) -> (i32, i32, i32) {
      %q = arith.divsi %a, %b : i32
      %s = arith.shli %a, %b : i32
      %w = arith.addi %a, %b overflow<nsw> : i32
      return %q, %s, %w : i32, i32, i32
    }
    """
    src = tmp_path / "k.scf.mlir"
    src.write_text(text)
    cases = {(5, 0): "RT_ARITH_DIV_BY_ZERO", (-(2**31), -1): "RT_ARITH_DIV_OVERFLOW", (1, 32): "RT_ARITH_SHIFT_RANGE",
             (2**31 - 1, 1): "RT_ARITH_OVERFLOW", (6, 3): None}
    for (a, b), code in cases.items():
        (tmp_path / "i.json").write_text(json.dumps({"a": a, "b": b}))
        run = json.loads(loom_here("sim", str(src), "--inputs", str(tmp_path / "i.json"), "--json").stdout)
        if code is None:
            assert run["status"] == "completed"
        else:
            assert run["status"] == "error" and run["error"].startswith(code), (a, b, run)
    rc, doc = _verify(src)
    ids = {o["id"]: o["status"] for o in doc["obligations"]}
    assert ids["safe.divsi@3:7.divzero"] == ids["safe.divsi@3:7.overflow"] == "refuted"
    assert ids["safe.shli@4:7.shift"] == ids["safe.addi@5:7.wrap"] == "refuted"


# ---------------------------------------------------------------------------- generated programs


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.randoms(use_true_random=False))
def test_generated_programs_replay_every_refutation(rng):
    """On generated programs (defined for the inputs the generator gives; other sizes may make them fault), every
    refutation's inputs make an independent interpreter run stop with its error, and the generator's own inputs run
    to completion, as no proved obligation may contradict."""
    from loom.interp import run_json
    from loom.ir.core import Module
    from loom.testing.scf_gen import GenConfig, generate_program

    prog = generate_program(rng, GenConfig())
    func = next(f for f in prog.module.functions() if f.name == "func.func")
    name = func.attributes["sym_name"].value
    for o in check_safety(func, VerifyContext()):
        if o.status == "refuted":
            got = run_json(Module(prog.module.op), name, o.counterexample["inputs"])
            assert got.status == "error" and o.counterexample["error"].startswith(got.error.code), o.id
    assert run_json(Module(prog.module.op), name, prog.inputs).status == "completed"


# the safety kinds a runtime error can be the finding of (the obligation IDs' last part)
KINDS_OF_ERROR = {"RT_MEMREF_OUT_OF_BOUNDS": ("bounds",), "RT_ARITH_DIV_BY_ZERO": ("divzero",),
                  "RT_ARITH_DIV_OVERFLOW": ("overflow",), "RT_ARITH_SHIFT_RANGE": ("shift",),
                  "RT_ARITH_OVERFLOW": ("wrap",), "RT_ARITH_CAST_RANGE": ("cast",),
                  "RT_MEMREF_BAD_VIEW": ("bounds", "shape"), "RT_MEMREF_CAST_MISMATCH": ("shape",),
                  "RT_SCF_FOR_STEP": ("step",)}


def _random_inputs(func, rng) -> dict:
    """Inputs of any shape: dynamic sizes 0-6, small and extreme integers, a few floats (no assumption holds
    them back: these programs state none)."""
    from loom.ir.types import MemRefType as M
    from loom.runtime import function_arg_names

    def nested(shape, pick):
        return pick() if not shape else [nested(shape[1:], pick) for _ in range(shape[0])]

    out: dict = {}
    for n, a in zip(function_arg_names(func), func.regions[0].entry.args):
        t = a.type
        if isinstance(t, M):
            shape = [s if s is not None else rng.randint(0, 6) for s in t.shape]
            pool = [0.0, 1.5, -2.0, 1e10] if isinstance(t.element, FloatType) else [0, 1, -1, 2, 5, -7, 2**31 - 1,
                                                                                     -2**31]
            out[n] = nested(shape, lambda: rng.choice(pool))
        elif isinstance(t, IntegerType) and t.width == 1:
            out[n] = rng.randint(0, 1)
        elif isinstance(t, (IntegerType, IndexType)):
            out[n] = rng.choice([0, 1, 2, 3, 5, 8, -1, -3])
        elif isinstance(t, FloatType):
            out[n] = rng.choice([0.0, 1.5, -3.0])
    return out


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.randoms(use_true_random=False))
def test_no_proved_site_fails_on_any_input(rng):
    """The claim a green verify makes, checked by execution: on generated programs run on inputs of every
    shape, a run that stops with a safety error stops at an op none of whose obligations of that kind is
    proved. (A hand sweep of 550 programs, 3,300 runs and about 500 safety errors found none.)"""
    from loom.interp import run_json
    from loom.ir.core import Module
    from loom.testing.scf_gen import GenConfig, generate_program

    prog = generate_program(rng, GenConfig())
    func = next(f for f in prog.module.functions() if f.name == "func.func")
    name = func.attributes["sym_name"].value
    proved = {o.id for o in check_safety(func, VerifyContext()) if o.status == "proved"}
    for _ in range(6):
        r = run_json(Module(prog.module.op), name, _random_inputs(func, rng), max_steps=200_000)
        if r.status != "error" or r.error.code not in KINDS_OF_ERROR:
            continue
        at = f"@{r.error.loc.line}:{r.error.loc.col}."
        wrong = [i for i in proved if at in i and i.rsplit(".", 1)[1] in KINDS_OF_ERROR[r.error.code]]
        assert not wrong, (wrong, r.error.code, r.error.message)


# ---------------------------------------------------------------------------- a DFG without its source


@pytest.mark.parametrize("name", sorted(set(FAULTS) - VIEWS))
def test_a_dfg_alone_is_checked_through_its_own_addresses(name, tmp_path):
    """Compiled without --debug-info, the DFG is verified alone: each fault is refuted again (replayed by the
    token simulator, checked here by an independent loom sim run) and each twin's DFG proves every site."""
    oid, code = FAULTS[name]
    kind = oid.split(".")[-1]
    for stem in (name, TWINS[name]):
        assert loom_here("compile", str(DATA / f"{stem}.scf.mlir"), "-o", str(tmp_path)).returncode == 0
    rc, doc = _verify(tmp_path / f"{name}.dfg.mlir")
    op = oid.split("@")[0]
    bad = [o for o in doc["obligations"] if o["id"].startswith(op + "@") and o["id"].endswith("." + kind)
           and o["status"] == "refuted"]
    assert rc == 1 and bad and bad[0]["counterexample"]["replayed"] == "token simulator"
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({k: v for k, v in bad[0]["counterexample"]["inputs"].items() if v is not None}))
    run = json.loads(loom_here("sim", str(tmp_path / f"{name}.dfg.mlir"), "--inputs", str(inputs), "--json").stdout)
    assert run["status"] == "error" and run["error"].startswith(code)
    rc, doc = _verify(tmp_path / f"{TWINS[name]}.dfg.mlir")
    safe = [o for o in doc["obligations"] if o["kind"] == "safety"]
    assert rc == 0 and safe and all(o["status"] == "proved" for o in safe)


def test_a_dfg_alone_keeps_the_accesses_of_a_view_but_not_its_shape_check(tmp_path):
    """The lowering folds views into addresses: a window past the buffer is refuted again at the load that
    reaches past it (the token simulator stops there), while an expand_shape whose sizes do not multiply to the
    buffer's leaves only in-bounds accesses, so the DFG alone proves them and runs the source's failing inputs
    to completion (MLIR leaves the source undefined there: any behaviour refines it)."""
    for stem in ("window_past_end", "rows_reshape"):
        assert loom_here("compile", str(DATA / f"{stem}.scf.mlir"), "-o", str(tmp_path)).returncode == 0
    rc, doc = _verify(tmp_path / "window_past_end.dfg.mlir")
    bad = [o for o in doc["obligations"] if o["status"] == "refuted"]
    assert rc == 1 and [o["id"].split("@")[0] + "." + o["id"].split(".")[-1] for o in bad] == ["safe.load.bounds"]
    rc, doc = _verify(tmp_path / "rows_reshape.dfg.mlir")
    assert rc == 0 and all(o["status"] == "proved" for o in doc["obligations"] if o["kind"] == "safety")
    _, src = _verify(DATA / "rows_reshape.scf.mlir")
    (cex,) = [o["counterexample"] for o in src["obligations"] if o["status"] == "refuted"]
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(cex["inputs"]))
    run = json.loads(loom_here("sim", str(tmp_path / "rows_reshape.dfg.mlir"), "--inputs", str(inputs), "--json").stdout)
    assert run["status"] == "completed", run


def test_a_clamped_float_converts_safely_and_an_unclamped_one_is_refuted(tmp_path):
    """Floats are abstract in the models: a cast is proved from the operand's interval (the clamp a kernel writes
    before converting), and refuted, replayed with a float no integer type holds, without the clamp."""
    body = """
    func.func @f(%a: memref<?xf32>, %out: memref<?xi32>) attributes {{loom.assume = ["dim(out) >= dim(a)"]}} {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %lo = arith.constant -100.0 : f32
      %hi = arith.constant 100.0 : f32
      %n = memref.dim %a, %c0 : memref<?xf32>
      scf.for %i = %c0 to %n step %c1 {{
        %x = memref.load %a[%i] : memref<?xf32>
        {clamp}
        %k = arith.fptosi %y : f32 to i32
        memref.store %k, %out[%i] : memref<?xi32>
      }}
      return
    }}
    """
    ok = tmp_path / "ok.scf.mlir"
    ok.write_text(body.format(clamp="%m = arith.minnumf %x, %hi : f32\n        %y = arith.maxnumf %m, %lo : f32"))
    bad = tmp_path / "bad.scf.mlir"
    bad.write_text(body.format(clamp="%y = arith.addf %x, %lo : f32"))
    rc, doc = _verify(ok)
    (got,) = [o for o in doc["obligations"] if o["id"].startswith("safe.fptosi@")]
    assert rc == 0 and got["status"] == "proved" and got["id"].endswith(".cast")
    rc, doc = _verify(bad)
    (got,) = [o for o in doc["obligations"] if o["id"].startswith("safe.fptosi@")]
    assert rc == 1 and got["status"] == "refuted" and got["counterexample"]["error"].startswith("RT_ARITH_CAST_RANGE")


def test_an_int_converted_to_float_and_back_is_refuted_with_an_int_that_rounds_out_of_range(tmp_path):
    """``(int)(float)y`` of an int ``y``: i32 -> f32 rounds the ints from 2^31 - 64 up to 2^31, out of i32's range.
    The models keep floats abstract, so the witness search asks for the cast's condition in exact IEEE arithmetic
    (the semantics table's float terms) and the interpreter replays the int it picks -- refuted, not unknown; a
    cast of an i16 converted the same way is proved (its interval fits)."""
    body = """
    func.func @f(%a: memref<?x{t}>, %out: memref<?xi32>) attributes {{loom.assume = ["dim(out) >= dim(a)"]}} {{
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = memref.dim %a, %c0 : memref<?x{t}>
      scf.for %i = %c0 to %n step %c1 {{
        %y = memref.load %a[%i] : memref<?x{t}>
        %f = arith.sitofp %y : {t} to f32
        %k = arith.fptosi %f : f32 to i32
        memref.store %k, %out[%i] : memref<?xi32>
      }}
      return
    }}
    """
    for t, want in (("i32", "refuted"), ("i16", "proved")):
        path = tmp_path / f"{t}.scf.mlir"
        path.write_text(body.format(t=t))
        rc, doc = _verify(path)
        (got,) = [o for o in doc["obligations"] if o["id"].startswith("safe.fptosi@")]
        assert got["status"] == want, got
        if want == "refuted":
            err = got["counterexample"]["error"]
            assert rc == 1 and err.startswith("RT_ARITH_CAST_RANGE"), got
            a = got["counterexample"]["inputs"]["a"]
            assert any(x >= (1 << 31) - 64 for x in a), a  # an int that rounds to 2^31
            (tmp_path / "in.json").write_text(json.dumps(got["counterexample"]["inputs"]))
            r = loom_here("sim", str(path), "--inputs", str(tmp_path / "in.json"))
            assert r.returncode != 0 and "RT_ARITH_CAST_RANGE" in r.stderr + r.stdout  # replayed independently


def test_a_loop_in_a_branch_not_taken_gives_no_facts_after_the_branch(tmp_path):
    """The facts of a loop that ended hold only where it ran: a while loop that never ends, in one branch, must
    not make the load after the branch vacuously safe on the other branch (there it reads a[n], any n). The
    refutation is replayed by an independent loom sim run."""
    rc, doc = _verify(DATA / "branch_spin.scf.mlir")
    (o,) = [o for o in doc["obligations"] if o["id"] == "safe.load@18:3.bounds"]
    assert rc == 1 and o["status"] == "refuted"
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps(o["counterexample"]["inputs"]))
    run = json.loads(loom_here("sim", str(DATA / "branch_spin.scf.mlir"), "--inputs", str(inputs), "--json").stdout)
    assert run["status"] == "error" and run["error"].startswith("RT_MEMREF_OUT_OF_BOUNDS")


def test_a_fault_that_needs_a_long_buffer_is_refuted_not_unknown(tmp_path):
    """Under an assumption that buffers are long (``dim(a) >= 256``, an input profile's), no witness of at most
    64 elements exists; the replay then tries buffers of up to 4,096 elements, so the real fault (a load at
    ``n``, any ``n``) is refuted with inputs the interpreter replays instead of left unknown."""
    src = tmp_path / "long.scf.mlir"
    src.write_text("""func.func @f(%a: memref<?xi32>, %n: index) -> i32 attributes {loom.assume = ["dim(a) >= 256"]} {
  %x = memref.load %a[%n] : memref<?xi32>
  return %x : i32
}
""")
    rc, doc = _verify(src)
    (got,) = [o for o in doc["obligations"] if o["id"].startswith("safe.load@")]
    assert rc == 1 and got["status"] == "refuted", got
    cex = got["counterexample"]
    assert cex["error"].startswith("RT_MEMREF_OUT_OF_BOUNDS") and len(cex["inputs"]["a"]) >= 256
