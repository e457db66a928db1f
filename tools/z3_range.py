"""Check that other z3-solver releases give every example the verdicts the installed one gives.

The runtime dependency allows a range of z3-solver releases (pyproject.toml); this is how that range is tested.
For each VERSION, z3-solver==VERSION is installed into a scratch directory put first on PYTHONPATH, ``loom verify
examples/*.scf.mlir --json`` runs with it, and every obligation's status is compared with the installed
release's. Exit 1 when any status differs (the differences are listed).

    python tools/z3_range.py 4.13.4.0 4.15.4.0
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def verdicts(pythonpath: str | None) -> tuple[str, dict[str, str]]:
    """(z3 version, {obligation id: status}) of every example, verified with the z3 found on ``pythonpath``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (pythonpath, str(ROOT)) if p)}
    examples = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.scf.mlir"))
    version = subprocess.run([sys.executable, "-c", "import z3; print(z3.get_version_string())"], env=env,
                             capture_output=True, text=True, check=True).stdout.strip()
    r = subprocess.run([sys.executable, "-m", "loom", "verify", *examples, "--json"], env=env, cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode not in (0, 1, 3):
        raise SystemExit(f"loom verify failed with z3 {version}:\n{r.stderr}")
    return version, {o["id"]: o["status"] for o in json.loads(r.stdout)["obligations"]}


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__.strip().splitlines()[-1].strip())
        return 2
    base_version, base = verdicts(None)
    print(f"z3 {base_version} (installed): {len(base)} obligations")
    failed = False
    for version in argv:
        with tempfile.TemporaryDirectory(prefix=f"z3-{version}-") as tmp:
            subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", tmp,
                            f"z3-solver=={version}"], check=True)
            got_version, got = verdicts(tmp)
        differ = sorted(k for k in base.keys() | got.keys() if base.get(k) != got.get(k))
        print(f"z3 {got_version}: {len(got)} obligations, {len(differ)} with another status")
        for k in differ:
            print(f"  {k}: {base.get(k)} with {base_version}, {got.get(k)} with {got_version}")
        failed |= bool(differ)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
