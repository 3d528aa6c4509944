"""Explicit, seeded random streams for the kernels (no global numpy/numba random state).

Streams by purpose: every game draws from several xoshiro256** streams, each seeded by hashing
the run's root key with (deal, purpose). A game's randomness therefore depends only on (root
seed, deal), never on which chunk, worker or executor played it: that is what makes a run
reproducible whatever the chunk size or worker count. And because each purpose (the setup, a
deck, the dice, each seat's strategy) has its own stream, two configurations that differ in one
rule or one seat's strategy still share every stream the change does not touch: the k-th card of
a deck or the k-th roll of the dice is the same in both, which is what makes paired comparisons
pair (common random numbers).

A stream is a ``uint64[4]`` row; the kernel owns a ``uint64[N_STREAMS, 4]`` block per game:
rows ``0 .. GAME_STREAMS - 1`` are the game's chance purposes (each game names its own in its
``GameSpec.chance_streams``), rows ``STRATEGY_STREAM + slot`` belong to the strategy in seat slot
``slot``. Only the rows a game names and the seated slots are seeded.
"""
import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S11, _S17, _S23, _S27, _S30, _S31, _S33, _S45 = (np.uint64(k) for k in (11, 17, 23, 27, 30, 31, 33, 45))
_ONE, _FIVE, _NINE, _SEVEN = np.uint64(1), np.uint64(5), np.uint64(9), np.uint64(7)


def root_key(seed: int) -> np.ndarray:
    """The run's 256-bit key, derived from the user's root seed with NumPy's SeedSequence."""
    return np.random.SeedSequence(int(seed)).generate_state(4, np.uint64)


@njit(cache=True, inline="always")
def _splitmix64(x):
    z = x + _GOLDEN
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


GAME_STREAMS = 16                    # chance purposes a game may name (rows 0..15)
STRATEGY_STREAM = GAME_STREAMS       # row of slot 0's strategy stream; slot k uses row 16 + k
N_STREAMS = GAME_STREAMS + 6         # 16 chance purposes + 6 seats
_PURPOSE = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True)
def seed_stream(key, deal, rng, purpose=0):
    """Seed ``rng`` for stream ``purpose`` of deal ``deal`` of the run whose root key is ``key``."""
    x = np.uint64(deal) * _GOLDEN + np.uint64(purpose) * _PURPOSE
    for i in range(4):
        x = _splitmix64(x ^ key[i])
        rng[i] = x
    if rng[0] == 0 and rng[1] == 0 and rng[2] == 0 and rng[3] == 0:
        rng[0] = _ONE


@njit(cache=True)
def seed_streams(key, deal, streams, n_chance=GAME_STREAMS, n_seats=N_STREAMS - GAME_STREAMS):
    """Seed the first ``n_chance`` chance rows and ``n_seats`` strategy rows of ``streams``
    (``uint64[N_STREAMS, 4]``) for ``deal``: row index = purpose."""
    for purpose in range(n_chance):
        seed_stream(key, deal, streams[purpose], purpose)
    for slot in range(n_seats):
        seed_stream(key, deal, streams[STRATEGY_STREAM + slot], STRATEGY_STREAM + slot)


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << k) | (x >> (np.uint64(64) - k))


@njit(cache=True)
def next_u64(rng):
    """xoshiro256** (Blackman and Vigna): fast, 256-bit state, passes BigCrush."""
    result = _rotl(rng[1] * _FIVE, _SEVEN) * _NINE
    t = rng[1] << _S17
    rng[2] ^= rng[0]
    rng[3] ^= rng[1]
    rng[1] ^= rng[2]
    rng[0] ^= rng[3]
    rng[2] ^= t
    rng[3] = _rotl(rng[3], _S45)
    return result


@njit(cache=True)
def randint(rng, n):
    """Uniform integer in [0, n) for 0 < n < 2**31 (multiply-shift; bias below 2**-31 * n)."""
    return np.int64(((next_u64(rng) >> _S33) * np.uint64(n)) >> np.uint64(31))


@njit(cache=True)
def uniform(rng):
    """Uniform float in [0, 1) with 53 random bits."""
    return np.float64(next_u64(rng) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(rng, a, n):
    """Fisher-Yates shuffle of the first ``n`` entries of ``a`` in place."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, i + 1)
        t = a[i]
        a[i] = a[j]
        a[j] = t
