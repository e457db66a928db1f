"""Run CIRCT's handshake-to-hw lowering (PyPI ``circt`` wheel) on one MLIR file; prints one JSON line.

    python tools/circt_lower.py FILE [PASS ...]      (default passes: handshake-lower-extmem-to-hw,
                                                      lower-handshake-to-hw)

Run it in a subprocess: a fault inside CIRCT aborts the whole process. The wheel registers no ``arith``
dialect, so arith ops would parse as unregistered and break once a pass loads ``arith`` (CIRCT 1.62:
"'arith.addui_extended' op expected 2 results", or a crash); the passes are therefore first run on a
one-op function, which loads every dialect they depend on, and only then is FILE parsed.
"""

from __future__ import annotations

import json
import sys

DEFAULT = ("handshake-lower-extmem-to-hw", "lower-handshake-to-hw")
WARM = "module { handshake.func @loom_warm(%s: none, ...) -> none { return %s : none } }"


def main(argv: list[str]) -> int:
    import circt
    import circt.ir as ir
    from circt.passmanager import PassManager

    path, passes = argv[0], tuple(argv[1:]) or DEFAULT
    out: dict = {"file": path, "passes": list(passes), "ok": [], "error": None}
    with ir.Context() as ctx:
        circt.register_dialects(ctx)
        ctx.allow_unregistered_dialects = True  # loom's dataflow.* ops (arith is loaded below)
        warm = ir.Module.parse(WARM)
        PassManager.parse(f"builtin.module({', '.join(passes)})").run(warm.operation)
        try:
            module = ir.Module.parse(open(path, encoding="utf-8").read())
        except Exception as e:  # noqa: BLE001 - reported, not raised: the caller reads the JSON line
            out["error"] = f"parse: {e}"
            print(json.dumps(out))
            return 1
        for p in passes:
            try:
                PassManager.parse(f"builtin.module({p})").run(module.operation)
            except Exception as e:  # noqa: BLE001
                out["error"] = f"{p}: {' '.join(str(e).split())}"
                print(json.dumps(out))
                return 1
            out["ok"].append(p)
        text = str(module)
        out["hw_modules"] = text.count("hw.module @")
        out["handshake_ops_left"] = text.count("handshake.")
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
