"""The lean reference Karuba (simlab.reference.karuba): a second program of the same rules.

It shares only the printed data and the random streams with the engine, so playing the very same
games as the engine's random seats checks both readings of every rule that random play reaches
(placing, discarding, the move's reach through connected exits and past other explorers, the
beach and temple steps, treasures, same-round temple ties and their compensation, the end after
the last tile). It is also issue 16's yardstick for speed (``simlab bench --reference``).
"""
import re

import numpy as np
import pytest

from simlab.core.errors import SimlabError
from simlab.core.runner import Prepared, RunConfig
from simlab.reference import karuba as reference


def both(players, seed, games, params=None):
    engine = Prepared(RunConfig("karuba", players, ("random",) * players, 1, seed=seed, params=params or {}))
    ours = reference.engine_rows(engine.play(0, games)[0])
    lean = np.zeros((games, players, reference.N_OUT), np.int64)
    reference.play(engine.key, 0, players, lean)
    return ours, lean


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_reference_plays_the_engines_games_row_for_row(players):
    """Score, tiles placed (the tie-break), crystals with tie compensation, nuggets, explorers home,
    rounds: identical for every seat of every game, for two seeds."""
    for seed in (1, 2026):
        ours, lean = both(players, seed, 400)
        assert np.array_equal(ours, lean), f"{players} players, seed {seed}: {int((ours != lean).any(axis=(1, 2)).sum())} games differ"
        # the games reach what the comparison is meant to check
        assert ours[:, :, reference.HOME].max() >= 1 and (ours[:, :, reference.CRYSTALS] > 0).any() \
            and (ours[:, :, reference.NUGGETS] > 0).any()


def test_a_different_rule_reading_in_the_engine_is_caught():
    """Entering the temple for free (temple_step=0) is a rule the reference does not play: the
    comparison must then fail, or it could not catch a misreading either."""
    ours, lean = both(4, 1, 400, {"temple_step": 0})
    assert not np.array_equal(ours, lean)


def test_one_game_repeats_whatever_block_it_is_played_in():
    _, whole = both(3, 5, 50)
    part = np.zeros((10, 3, reference.N_OUT), np.int64)
    reference.play(Prepared(RunConfig("karuba", 3, ("random",) * 3, 1, seed=5)).key, 40, 3, part)
    assert np.array_equal(part, whole[40:])


@pytest.mark.parametrize("config, words", [
    (RunConfig("jamaica", 4, ("random",) * 4, 1), "plays Karuba only"),
    (RunConfig("karuba", 4, ("random",) * 3 + ("builder",), 1), "every seat uniform random, not random, random, random, builder"),
    (RunConfig("karuba", 4, ("random",) * 4, 1, params={"bonus_tiles": True}), "default rules, not bonus_tiles"),
    (RunConfig("karuba", 4, ("random",) * 4, 1, rotate=True), "fixed seating, not rotated"),
])
def test_runs_the_reference_does_not_play_are_refused(config, words):
    with pytest.raises(SimlabError, match=words):
        reference.check_config(config)


def test_bench_reference_checks_the_games_and_prints_the_ratio(cli_run):
    code, out, err = cli_run("bench", "--reference", "-p", "2", "--seconds", "0.2", "--rounds", "1")
    assert code == 0, err
    row = re.search(r"^\s+2\s+2,000 of 2,000\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)\s+\[", out, re.M)
    assert row, out
    assert float(row.group(3)) > 0
    assert re.search(r"\d+ cores, load average [\d.]+; one process", out)
