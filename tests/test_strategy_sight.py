"""What a strategy reads decides how a game asks it (``BLIND_COLUMN``): a ``uniform`` strategy's draw
is made by the game itself (``simlab.core.play.seat_pick``), which must be the very draw the strategy makes,
or every random-play frame would silently change."""
import re

import numpy as np
import pytest

from simlab.core.game import available_games, get_game
from simlab.core.rng import randint, root_key, seed_stream
from simlab.core.runner import Prepared, RunConfig
from simlab.core.errors import SimlabError
from simlab.core.strategy import BLIND, BLIND_COLUMN, SEES, UNIFORM, load_strategy_file, strategies_for


def _uniform_strategies():
    return [(g, s) for g in available_games() for s in strategies_for(g).values() if s.uniform]


def test_every_game_has_a_uniform_strategy_and_only_blind_ones_are_uniform():
    assert {g for g, _ in _uniform_strategies()} == set(available_games())
    for g in available_games():
        for s in strategies_for(g).values():
            assert s.sight == (UNIFORM if s.uniform else BLIND if s.blind else SEES)
            assert not s.uniform or s.blind


@pytest.mark.parametrize("game,strat", _uniform_strategies(), ids=lambda x: getattr(x, "name", x))
def test_a_uniform_strategy_decides_exactly_randint_of_its_stream(game, strat):
    """Called directly, on junk it must not read, it returns randint(rng, n) and leaves its stream
    where that draw leaves it."""
    junk = np.full(4096, 7, dtype=np.int32)
    cfg = np.zeros(64, dtype=np.int64)
    legal = np.arange(1024, dtype=np.int32)
    rng, twin = np.zeros(4, dtype=np.uint64), np.zeros(4, dtype=np.uint64)
    seed_stream(root_key(11), 3, rng)
    seed_stream(root_key(11), 3, twin)
    for n in (1, 2, 3, 7, 36, 100, 1023):
        for _ in range(20):
            assert strat.decide(junk, cfg, 0, legal, n, np.zeros(9), rng) == randint(twin, n)
    assert (rng == twin).all()


@pytest.mark.parametrize("game", sorted(available_games()))
def test_the_games_own_uniform_draw_plays_the_games_the_strategy_call_plays(game):
    """The same seats with the random slots marked BLIND (so the game calls the function) and UNIFORM
    (the game draws): identical rows and trace, in every seat and rotation."""
    prep = Prepared(RunConfig(game, 3, ("random", get_game(game).default_seats[0], "random"), 1))
    assert list(prep.seat_params[:3, BLIND_COLUMN]) == [UNIFORM, SEES, UNIFORM]
    fast_rows, fast_log = prep.play(0, 30, log_capacity=20_000)
    prep.seat_params[:3, BLIND_COLUMN] = [BLIND, SEES, BLIND]
    called_rows, called_log = prep.play(0, 30, log_capacity=20_000)
    assert (fast_rows == called_rows).all() and (fast_log == called_log).all()
    assert len(fast_log) > 0


@pytest.mark.parametrize("game", sorted(available_games()))
def test_an_answer_outside_the_list_stops_the_game_naming_seat_slot_and_choices(game, tmp_path):
    """Lean play loops (``kernel.lean``) cannot raise with values: they record the refusal and their
    caller raises it. The error must still name the seat, the strategy's slot, the choices and the answer.
    (The strategy comes from a file, so it leaves the registry with the test: see conftest.)"""
    path = tmp_path / "overreach.py"
    path.write_text(f"from simlab.core.strategy import strategy\n\n"
                    f"@strategy({game!r}, 'sight_overreach', 'answers one past the last legal choice')\n"
                    f"def decide(state, cfg, seat, legal, n_legal, params, rng):\n    return n_legal\n")
    load_strategy_file(path)
    prep = Prepared(RunConfig(game, 2, ("random", "sight_overreach"), 1))
    with pytest.raises(SimlabError) as info:
        prep.play(0, 1)
    m = re.fullmatch(r"strategy 'sight_overreach' returned index (\d+) for a decision with (\d+) legal choices "
                     r"\(indices 0\.\.(\d+)\): game 0, seat 1, seed 1", str(info.value))
    assert m, str(info.value)
    index, n_legal, last = map(int, m.groups())
    assert index == n_legal == last + 1 >= 2
