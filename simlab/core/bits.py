"""Bit tricks for bitmask boards (a cell per bit)."""
from numba import config, njit

if config.DISABLE_JIT:  # the LLVM intrinsic has no Python body; plain Python for the no-JIT benchmark
    def bit_index(low):
        """Index of the single set bit of ``low``."""
        return int(low).bit_length() - 1
else:
    from numba.cpython.unsafe.numbers import trailing_zeros

    @njit(cache=True, inline="always")
    def bit_index(low):
        """Index of the single set bit of ``low`` (one count-trailing-zeros instruction)."""
        return trailing_zeros(low)
