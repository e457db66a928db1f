"""The arith enums: the comparison predicates of ``arith.cmpi`` / ``arith.cmpf`` (and their one decoder) and
``arith.truncf``'s rounding modes.

MLIR's ``arith::CmpIPredicate`` / ``arith::CmpFPredicate`` / ``arith::RoundingMode``: case i has value i. The
parser (``loom.dialects.arith``), the Python semantics, the Z3 models and the RTL all read these tuples, and
decode a ``predicate`` attribute through ``predicate_name``.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from loom.ir.attributes import IntegerAttr, StringAttr

CMPI_PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
CMPF_PREDICATES = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)
# arith.truncf's ``roundingmode``; absent means the first
ROUNDING_MODES = ("to_nearest_even", "downward", "upward", "toward_zero", "to_nearest_away")


def predicate_name(attrs: Mapping[str, Any], names: tuple[str, ...]) -> Optional[str]:
    """The predicate an op's ``predicate`` attribute names (its enum value, or its name as a string), None when the
    attribute is missing or names none of ``names``."""
    a = attrs.get("predicate")
    if isinstance(a, IntegerAttr) and 0 <= a.value < len(names):
        return names[a.value]
    if isinstance(a, StringAttr) and a.value in names:
        return a.value
    return None


__all__ = ["CMPF_PREDICATES", "CMPI_PREDICATES", "ROUNDING_MODES", "predicate_name"]
