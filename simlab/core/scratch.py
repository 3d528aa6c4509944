"""Scratch arrays on a compiled function's stack: a strategy's per-decision work space without an
allocation (and so usable in lean code, ``simlab.core.play.lean``).

``stack_scratch(SIZE)`` reserves ``SIZE`` int64 entries (a compile-time constant) in the frame of
the compiled function it is written in (or inlined into) and returns them as an array that owns
no memory: numba counts no references for it and frees nothing. It lives until that function
returns, so it must never leave it: return it only from helpers compiled ``inline="always"``,
pass it down to callees freely. Its entries start undefined, as ``np.empty``'s.
"""
import numpy as np
from numba import config, types
from numba.core import cgutils
from numba.extending import intrinsic
from numba.np.arrayobj import populate_array

if config.DISABLE_JIT:   # no frames to reserve in: plain numpy for the no-JIT benchmark
    def stack_scratch(size):
        """``size`` int64 entries of scratch (here an ordinary array)."""
        return np.empty(size, dtype=np.int64)
else:
    ARRAY = types.Array(types.int64, 1, "C")

    @intrinsic(prefer_literal=True)
    def stack_scratch(typingctx, size):
        """``size`` int64 entries of scratch in the caller's frame (see the module docstring)."""
        if not isinstance(size, types.IntegerLiteral):
            return None   # the size must be a constant: the entries are reserved in the entry block
        n = size.literal_value

        def codegen(context, builder, signature, args):
            data = cgutils.alloca_once(builder, context.get_value_type(types.int64), size=n)
            array = context.make_array(ARRAY)(context, builder)
            intp = context.get_value_type(types.intp)
            populate_array(array, data=data, shape=[intp(n)], strides=[intp(8)], itemsize=intp(8), meminfo=None)
            return array._getvalue()
        return ARRAY(size), codegen
