"""Stack scratch (``simlab.core.scratch``): per-decision work space without an allocation."""
import numpy as np
import pytest
from numba import njit
from numba.core.errors import TypingError

from simlab.core.scratch import stack_scratch

SIZE = 64


@njit(_nrt=False)   # lean: would fail to compile if the scratch allocated
def fill(k):
    work = stack_scratch(SIZE)
    for i in range(SIZE):
        work[i] = i * k
    rows = work[:48].reshape((6, 8))          # views of it work as of any array
    floats = work[48:52].view(np.float64)
    floats[:] = 0.5
    return rows[5, 7] + work[SIZE - 1], floats.sum()


@njit(_nrt=False)
def inner(k):
    work = stack_scratch(SIZE)
    work[:] = k
    return work.sum()


@njit(_nrt=False)
def outer():
    """Each call reserves its own entries: an inner call's writes never reach the caller's."""
    work = stack_scratch(SIZE)
    work[:] = 1
    total = 0
    for k in range(3):
        total += inner(k + 7)
    return work.sum(), total


def test_scratch_is_a_working_array_that_allocates_nothing():
    assert fill(3) == (47 * 3 + 63 * 3, 2.0)


def test_each_call_has_its_own_scratch():
    assert outer() == (SIZE, SIZE * (7 + 8 + 9))


def test_the_size_must_be_a_constant():
    @njit
    def sized(n):
        return stack_scratch(n)[0]
    with pytest.raises(TypingError):
        sized(8)
