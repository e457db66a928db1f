"""The IR shared by every stage: types, attributes, ops, blocks, regions, modules."""

from loom.ir.attributes import *  # noqa: F401,F403
from loom.ir.core import (  # noqa: F401
    Block,
    BlockArgument,
    Module,
    Operation,
    OpResult,
    Region,
    Value,
    defining_op,
    replace_all_uses,
    users,
)
from loom.ir.location import UNKNOWN, Location  # noqa: F401
from loom.ir.types import *  # noqa: F401,F403
