"""The one error type users see: ``file:line:col: error: [CODE] message``.

Every stage raises ``LoomError`` for bad input; the CLI prints ``str(err)`` on
one line and exits 2. Anything else escaping is a bug in loom.
"""

from __future__ import annotations

import sys
from typing import Optional

from loom.ir.location import UNKNOWN, Location


DEFAULT_CODE = "CPL_INPUT_INVALID"


class LoomError(Exception):
    """A user-facing error located in a source file, with an optional spec code."""

    def __init__(self, message: str, loc: Optional[Location] = None, code: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        self.loc = loc or UNKNOWN
        self.code = code

    def with_default_code(self) -> "LoomError":
        """This error, coded ``CPL_INPUT_INVALID`` when the raising site named no finer code."""
        if self.code is None:
            self.code = DEFAULT_CODE
        return self

    def __str__(self) -> str:
        code = f"[{self.code}] " if self.code else ""
        msg = " ".join(self.message.split())  # always one line
        return f"{self.loc}: error: {code}{msg}"


SYNTAX = "CPL_IR_SYNTAX"


class ParseError(LoomError):
    """Malformed MLIR text; without a more specific code it is ``CPL_IR_SYNTAX``."""

    def __init__(self, message: str, loc: Optional[Location] = None, code: Optional[str] = None) -> None:
        super().__init__(message, loc, code or SYNTAX)


class VerifyError(LoomError):
    """Well-formed text that breaks an op's rules (CPL_* codes, SSA, types)."""


class SimulationError(LoomError):
    """A runtime error while executing a program (e.g. RT_DATAFLOW_STREAM_ZERO_STEP)."""

    @classmethod
    def of_op(cls, op_name: str, message: str, loc: Optional[Location],
              code: Optional[str]) -> "SimulationError":
        """The error of op ``op_name``, named once: the operator tables' messages already start with it, and
        the interpreter, the token simulator and the RTL must print the same text."""
        prefix = f"{op_name}: "
        return cls(message if message.startswith(prefix) else prefix + message, loc, code)


def warn(message: str, loc: Optional[Location] = None, code: Optional[str] = None) -> None:
    """Print a one-line warning to stderr in the same shape as errors."""
    code_s = f"[{code}] " if code else ""
    print(f"{loc or UNKNOWN}: warning: {code_s}{message}", file=sys.stderr)
