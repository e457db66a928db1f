"""One lazily computed facts object per function and run (``loom.verify.facts``, issue 28 item 3): every checker
reads its parts, each part is computed once, only when read, and a part that fails fails every reader alike."""

from __future__ import annotations

import dataclasses

import pytest

import loom.verify.lengths.check as lengths_check
from loom.cli import main
from loom.diagnostics import LoomError
from loom.verify import VerifyContext, driver, verify_function
from loom.verify.driver import functions_to_verify
from loom.verify.facts import DfgFacts

from support.paths import EXAMPLES_DIR


def _watch_prepare(monkeypatch) -> list[DfgFacts]:
    """Record the facts object ``prepare`` hands the checkers of each function."""
    seen: list[DfgFacts] = []
    real = driver.prepare

    def prepare(*args, **kwargs):
        ctx, facts = real(*args, **kwargs)
        seen.append(facts)
        return ctx, facts

    monkeypatch.setattr(driver, "prepare", prepare)
    return seen


def _count(monkeypatch, targets: list[tuple[object, str]]) -> dict:
    """Count the calls of each ``(module, name)`` function, all under one counter."""
    n = {"calls": 0}
    for mod, name in targets:
        real = getattr(mod, name)

        def counted(*args, _real=real, **kwargs):
            n["calls"] += 1
            return _real(*args, **kwargs)

        monkeypatch.setattr(mod, name, counted)
    return n


def _watch_checkers(monkeypatch) -> list[tuple[str, tuple[str, ...], DfgFacts]]:
    """Record each checker run's name, declared reads and the facts object it was handed."""
    seen: list[tuple[str, tuple[str, ...], DfgFacts]] = []
    real = driver.run_checker

    def run_checker(checker, func, ctx, facts, part=None):
        seen.append((checker.name, checker.reads, facts))
        return real(checker, func, ctx, facts, part)

    monkeypatch.setattr(driver, "run_checker", run_checker)
    return seen


def test_every_part_is_computed_once_and_only_when_read(monkeypatch):
    """``prepare`` computes the layout; each checker then reads a copy of those facts (as a ``loom verify`` unit
    does in a process of its own) and computes there, once each, only the parts it reads."""
    prepared = _watch_prepare(monkeypatch)
    seen = _watch_checkers(monkeypatch)
    func, src = functions_to_verify(EXAMPLES_DIR / "dot.scf.mlir")[0]
    verify_function(func, VerifyContext(), source=src)
    assert set(prepared[-1].computed) == {"layout"}
    assert len({id(f) for _, _, f in seen}) == len(seen) == 7
    for name, reads, f in seen:
        assert set(f.computed) <= set(reads) and set(f.computed.values()) <= {1}, (name, f.computed)
        assert f.layout is prepared[-1].layout  # no context changes it: computed once, for every checker
    got = {name: set(f.computed) for name, _, f in seen}
    assert got["lengths"] == {"lengths", "length_obligations"} and got["safety"] == {"structured_source"}
    seen.clear()
    verify_function(func, VerifyContext(), source=src, checkers=("structure", "memory"))
    assert [(name, set(f.computed)) for name, _, f in seen] == [
        ("structure", {"structure_obligations"}), ("memory", {"order_obligations"})]


def test_hdl_runs_the_clock_calculus_once(tmp_path, monkeypatch):
    """``loom hdl``'s monitors and helper invariants read one analysis (they ran it once each before)."""
    n = _count(monkeypatch, [(lengths_check, "analyze")])
    assert main(["hdl", str(EXAMPLES_DIR / "dot.scf.mlir"), "-o", str(tmp_path / "o"), "-q"]) == 0
    assert n["calls"] == 1


def test_a_failing_part_fails_every_reader_with_the_same_error(monkeypatch):
    """A part that raised is not computed a second way: every later read raises the same exception."""
    n = {"calls": 0}

    def broken(*args, **kwargs):
        n["calls"] += 1
        raise RuntimeError("injected analysis failure")

    monkeypatch.setattr(lengths_check, "analyze", broken)
    func, src = functions_to_verify(EXAMPLES_DIR / "dot.scf.mlir")[0]
    f = DfgFacts(func, src)
    with pytest.raises(RuntimeError) as first:
        f.lengths
    for reader in ("lengths", "loops", "length_ids", "balance"):
        with pytest.raises(RuntimeError) as again:
            getattr(f, reader)
        assert again.value is first.value
    assert n["calls"] == 1
    assert f.layout.accesses  # the parts that do not need it are unaffected


def test_a_failing_part_is_unknown_in_verify_never_proved(monkeypatch):
    """In ``loom verify`` the checker that reads a failing part reports ``internal.<checker>`` unknown, naming
    the failure; bad input (a ``LoomError``) stops the run with its own code."""
    func, src = functions_to_verify(EXAMPLES_DIR / "dot.scf.mlir")[0]

    def broken(*args, **kwargs):
        raise RuntimeError("injected analysis failure")

    monkeypatch.setattr(lengths_check, "analyze", broken)
    r = verify_function(func, VerifyContext(), source=src, checkers=("lengths",))
    assert [(o.id, o.status) for o in r.obligations] == [("internal.lengths", "unknown")]
    assert "injected analysis failure" in r.obligations[0].detail

    def bad(func, *args, **kwargs):
        raise LoomError("not analysable", func.loc, code="CPL_INPUT_INVALID")

    monkeypatch.setattr(lengths_check, "analyze", bad)
    with pytest.raises(LoomError) as e:
        verify_function(func, VerifyContext(), source=src, checkers=("lengths",))
    assert e.value.code == "CPL_INPUT_INVALID"


def test_facts_are_read_only_and_per_context():
    """The facts cannot be assigned; ``under`` keeps the parts no context changes and recomputes the rest."""
    func, src = functions_to_verify(EXAMPLES_DIR / "dot.scf.mlir")[0]
    f = DfgFacts(func, src)
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.layout = None  # type: ignore[misc]
    f.require("layout", "lengths")
    g = f.under(dataclasses.replace(f.ctx, rlimit=1000))
    assert g.layout is f.layout and g.ctx.rlimit == 1000 and g.cache is f.cache
    assert g.lengths is not f.lengths
