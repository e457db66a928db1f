"""loom verify: Z3 proofs that a DFG is right for all trip counts (see specs/verification.md).

verify_file(path, ctx, func_name=None) -> list[VerifyReport]     # .scf.mlir is lowered first
verify_function(func, ctx, source=None, cache=None) -> VerifyReport
VerifyReport: .obligations, .exit_code(), .to_json(), .to_junit(), .to_sarif(), .format_human()
VerifyContext(timeout=None, bmc_k=4, want_smt2=False, progress=None, budget=None, require_source=False)
"""

from loom.verify.driver import verify_file, verify_function
from loom.verify.obligation import Obligation, VerifyContext
from loom.verify.report import (
    VerifyReport,
    exit_code_of,
    human_of,
    json_of,
    junit_of,
    progress_printer,
    sarif_of,
)
from loom.verify.smt2 import emit_smt2, write_manifest

__all__ = [
    "Obligation",
    "VerifyContext",
    "VerifyReport",
    "emit_smt2",
    "exit_code_of",
    "human_of",
    "json_of",
    "junit_of",
    "progress_printer",
    "sarif_of",
    "verify_file",
    "verify_function",
    "write_manifest",
]
