"""The search player on a game whose best moves are known (Nim: leave a multiple of 4)."""
import numpy as np
import pytest

from simlab.search.specialise import specialise
from toy_nim import MODEL

UNIFORM = (np.zeros(1, np.int64), np.zeros((1, 9), np.float64))   # the play-out policy table: policy 0 only
SEARCH = specialise("toy-nim", MODEL, UNIFORM)


def choose(pile, iters, seed=1):
    obs = np.array([pile, 0, -1], np.int32)
    legal = np.arange(1, min(3, pile) + 1, dtype=np.int32)
    rng = np.array([seed, 2, 3, 4], np.uint64)
    params = np.array([iters, 0.7, 0, 0, 0, 0, 0, 0], np.float64)
    return int(legal[SEARCH.ismcts(obs, np.zeros(1, np.int64), 0, legal, len(legal), params, rng)])


@pytest.mark.parametrize("pile", [5, 6, 7, 9, 10, 11, 13, 14, 15])
def test_search_leaves_a_multiple_of_four(pile):
    assert choose(pile, 3000) == pile % 4


def test_search_with_one_iteration_still_returns_a_legal_move():
    assert choose(9, 1) in (1, 2, 3)


def test_search_is_reproducible_from_its_stream():
    assert [choose(13, 50, seed=s) for s in range(5)] == [choose(13, 50, seed=s) for s in range(5)]
