"""``loom hdl`` reads the verifier's facts (``loom.verify.facts``): a failure to compute them stops it (one located
line, exit 2, nothing written) instead of writing the RTL without its DFG-level monitors."""

from __future__ import annotations

import dataclasses

import pytest

import loom.verify.facts as facts
import loom.verify.lengths.check as lengths_check
from loom.cli import main
from support.paths import EXAMPLES_DIR


def _boom(*args, **kwargs):
    raise RuntimeError("injected fact failure")


def test_fact_failure_stops_hdl(tmp_path, monkeypatch, capsys):
    """A crash of the fact computation is an HDL_FACTS error at the function, and no file is written."""
    monkeypatch.setattr(lengths_check, "balance_targets", _boom)  # one part of the facts the monitors read
    out = tmp_path / "out"
    assert main(["hdl", str(EXAMPLES_DIR / "dot.scf.mlir"), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "error: [HDL_FACTS]" in err[0] and "injected fact failure" in err[0], err
    assert not out.exists() or not any(out.iterdir())


def test_bad_input_from_the_analyses_keeps_its_code(tmp_path, monkeypatch, capsys):
    """A LoomError the analyses raise (bad input) reaches the user as it is, with its own code."""
    from loom.diagnostics import LoomError

    def bad(func, *args, **kwargs):
        raise LoomError("not analysable", func.loc, code="CPL_INPUT_INVALID")

    monkeypatch.setattr(lengths_check, "analyze", bad)
    assert main(["hdl", str(EXAMPLES_DIR / "saxpy.scf.mlir"), "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "[CPL_INPUT_INVALID] not analysable" in err and "HDL_FACTS" not in err


def test_facts_are_frozen_and_name_every_monitor():
    """The facts are read-only; the design's monitors read the design's facts (one object), and every
    DFG-level monitor's obligation is one of their IDs."""
    from loom.hdl.emit import emit
    from support.examples import example_lowered, example_source

    func = example_lowered("dot").functions()[0]
    src = example_source("dot")[1]
    e = emit(func, "dot", source=src)
    f = facts.dfg_facts(func, src)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.layout = None  # type: ignore[misc]
    assert e.design.facts.computed and set(e.design.facts.computed.values()) == {1}
    ids = set(f.length_ids) | set(f.memory_ids)
    assert ids == set(e.design.facts.length_ids) | set(e.design.facts.memory_ids)
    props = e.design.monitors.props
    assert props and {p.obligation for p in props if not p.obligation.startswith("fsm.")} <= ids
    assert [lf.loop.name for lf in f.loops] == [lp.name for lp in f.lengths.typing.loops]
