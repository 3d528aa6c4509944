"""Bit tricks for bitmask boards (a cell per bit)."""
from numba import config, njit

if config.DISABLE_JIT:  # the LLVM intrinsics have no Python body; plain Python for the no-JIT benchmark
    def bit_index(low):
        """Index of the single set bit of ``low``."""
        return int(low).bit_length() - 1

    def popcount(x):
        """Set bits of ``x``."""
        return bin(int(x) & ((1 << 64) - 1)).count("1")
else:
    from numba.cpython.unsafe.numbers import trailing_zeros
    from numba.extending import intrinsic

    @njit(cache=True, inline="always")
    def bit_index(low):
        """Index of the single set bit of ``low`` (one count-trailing-zeros instruction)."""
        return trailing_zeros(low)

    @intrinsic
    def popcount(typingctx, x):
        """Set bits of the integer ``x`` (one population-count instruction)."""
        def codegen(context, builder, signature, args):
            return builder.ctpop(args[0])
        return x(x), codegen
