"""Runtime values shared by the SCF interpreter and the DFG simulator: memory and simulation I/O."""

from loom.runtime.io import (  # noqa: F401
    decode_inputs,
    decode_value,
    encode_memref,
    encode_value,
    function_arg_names,
    global_types,
    global_view,
)
from loom.runtime.memory import Buffer, MemRefView, root_buffer, row_major_strides  # noqa: F401
from loom.runtime.result import format_error, run_result_json  # noqa: F401
