"""Which `loom verify` obligations of the examples have an RTL property (props.json `obligation`), per family.

Usage: python tools/rtl_forms_coverage.py [EXAMPLE ...] [--list]
For each example: the IDs `loom verify examples/X.scf.mlir --json` reports (the lowered DFG checked against
its SCF source) against the `obligation` fields of `loom hdl`'s props.json; prints the count without an RTL
property per family and in total (with --list, every such ID and the reason monitors.py records for it).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def family(oid: str) -> str:
    """The family of an obligation ID: its first dotted parts (``mem.<D>.order.X<Y`` -> ``mem.order``)."""
    parts = oid.split(".")
    if parts[0] == "mem" and len(parts) > 2 and parts[2].startswith("order"):
        return "mem.order"
    if parts[0] == "fsm" and len(parts) > 2 and parts[1] == "stream":
        return "fsm.stream.pre"
    if parts[0] in ("mem", "len", "fsm") and len(parts) > 1:
        return f"{parts[0]}.{parts[1] if parts[0] == 'mem' else parts[-1]}"
    return parts[0]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("examples", nargs="*")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args()
    from loom.hdl.emit import emit
    from loom.verify.driver import functions_to_verify, verify_function
    from loom.verify.obligation import VerifyContext

    every = sorted((ROOT / "examples").glob("*.scf.mlir"))
    paths = [ROOT / "examples" / f"{x}.scf.mlir" for x in args.examples] or every
    total = missing = 0
    fam_missing: Counter = Counter()
    for p in paths:
        stem = p.name[: -len(".scf.mlir")]
        for func, src in functions_to_verify(p):
            ids = [o.id for o in verify_function(func, VerifyContext(), source=src).obligations]
            e = emit(func, stem, source=src)
            doc = json.loads(e.files[f"{stem}.props.json"])
            have = {q["obligation"] for q in doc["properties"] if q["obligation"]}
            skipped = e.design.monitors.skipped if e.design.monitors else {}
            lost = [i for i in ids if i not in have]
            total += len(ids)
            missing += len(lost)
            fam_missing.update(family(i) for i in lost)
            print(f"{stem}: {len(ids)} obligations, {len(lost)} without an RTL property")
            if args.list:
                for i in lost:
                    print(f"    {i}: {skipped.get(i, '')}")
    print(f"total: {total} obligations, {missing} without an RTL property")
    for f, n in sorted(fam_missing.items()):
        print(f"  {f}: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
