"""Duplicate play (issue 12 item 3): every deal, all of its chance, played in all n seat rotations
in a row, as in duplicate bridge, so seat and strategy effects are measured within deals."""
import numpy as np
import pandas as pd
import pytest
from numba import njit

from simlab.core.errors import SimlabError
from simlab.core.game import available_games, get_game
from simlab.core.play import (COL_SCORE, DUPLICATE, EVENT_WIDTH, FIRST_GAME_COLUMN, FIXED, MAX_SEATS, PLAY_SIGNATURE,
                              ROTATE, play_chunk)
from simlab.core.results import load
from simlab.core.rng import STRATEGY_STREAM, next_u64, root_key
from simlab.core.runner import Prepared, RunConfig, run
from simlab.core.strategy import get_strategy


@njit(PLAY_SIGNATURE, cache=True)
def probe_game(cfg, n_players, seat_slot, fns, seat_params, streams, rows, log):
    """A stand-in game that records what chance and strategy streams each seat would see."""
    chance = np.int32(next_u64(streams[0]) >> np.uint64(40))
    for s in range(n_players):
        rows[s, COL_SCORE] = chance
        rows[s, FIRST_GAME_COLUMN] = np.int32(next_u64(streams[STRATEGY_STREAM + seat_slot[s]]) >> np.uint64(40))
    return 0


def probe(seating, n_players=3, games=12, first_game=0):
    fns = tuple([get_strategy("karuba", "random").decide] * MAX_SEATS)
    out = np.zeros((games, n_players, FIRST_GAME_COLUMN + 1), dtype=np.int32)
    play_chunk(probe_game, root_key(5), first_game, np.zeros(1, np.int64), n_players, seating, 1, fns,
               np.zeros((MAX_SEATS, 4)), out, np.zeros((0, EVENT_WIDTH), np.int32), np.zeros(0, np.int64))
    return out


def test_duplicate_plays_each_deal_in_every_rotation_with_the_same_chance():
    out = probe(DUPLICATE)
    chance = out[:, 0, COL_SCORE]
    for deal in range(4):
        block = out[3 * deal: 3 * deal + 3]
        assert len(set(block[:, 0, COL_SCORE])) == 1, "the rotations of one deal share all chance"
        # every strategy slot sits in every seat exactly once within the deal
        assert sorted(map(tuple, np.sort(block[:, :, 0], axis=0).T)) == [(0, 1, 2)] * 3
        # a strategy keeps its own stream wherever it sits: same draw for the same slot
        draws = {(int(slot), int(d)) for slot, d in zip(block[:, :, 0].ravel(), block[:, :, FIRST_GAME_COLUMN].ravel())}
        assert len(draws) == 3
    assert len(set(chance[::3])) == 4, "different deals get different chance"


def test_rotate_and_fixed_give_each_game_its_own_chance():
    for seating in (ROTATE, FIXED):
        assert len(set(probe(seating)[:, 0, COL_SCORE])) == 12


def test_duplicate_chunks_may_split_a_deal():
    whole = probe(DUPLICATE, games=12)
    parts = np.concatenate([probe(DUPLICATE, games=5, first_game=0), probe(DUPLICATE, games=7, first_game=5)])
    assert (whole == parts).all()


@pytest.mark.parametrize("game", available_games())
def test_every_game_runs_in_duplicate_with_a_deal_column(game):
    spec = get_game(game)
    n = spec.min_players
    config = RunConfig(game, n, tuple(spec.default_seats[:n]), games=4 * n, seed=3, duplicate=True)
    frame = Prepared(config).frame(0, 4 * n)
    assert (frame["deal"] == frame["game"] // n).all()
    # within a deal every strategy label sits in every seat
    assert (frame.groupby(["deal", "strategy"], observed=True)["seat"].nunique() == n).all()
    assert "deal" not in Prepared(RunConfig(game, n, config.seats, games=4 * n, seed=3, rotate=True)).frame(0, 4 * n)


def test_duplicate_frames_do_not_depend_on_workers_or_chunks(tmp_path):
    config = RunConfig("karuba", 3, ("builder", "racer", "random"), games=600, seed=9, duplicate=True)
    run(config, tmp_path / "one", workers=1, chunk_size=100, executor="serial", progress=False)
    run(config, tmp_path / "two", workers=2, chunk_size=250, executor="processes", progress=False)  # splits deals
    pd.testing.assert_frame_equal(load(tmp_path / "one"), load(tmp_path / "two"))


def test_duplicate_needs_whole_deals():
    with pytest.raises(SimlabError, match="multiple of 3 games"):
        Prepared(RunConfig("karuba", 3, ("random",) * 3, games=100, duplicate=True))


def test_runs_without_duplicate_keep_their_fingerprint():
    """A run made before duplicate play existed must still resume: its config dict is unchanged."""
    assert "duplicate" not in RunConfig("karuba", 2, ("random", "random"), games=10).to_dict()
    d = RunConfig("karuba", 2, ("random", "random"), games=10, duplicate=True).to_dict()
    assert d["duplicate"] is True and RunConfig.from_dict(d).duplicate


def test_cli_duplicate_from_flag_and_config_file(cli_run, tmp_path):
    code, out, err = cli_run("run", "karuba", "--players", "3", "--games", "10", "--duplicate", "-q",
                              "--out", str(tmp_path / "bad"))
    assert code == 2 and "multiple of 3 games" in err and len(err.strip().splitlines()) == 1
    toml = tmp_path / "dup.toml"
    toml.write_text('game = "karuba"\nplayers = 2\nseats = ["builder", "random"]\ngames = 40\nduplicate = true\n')
    code, out, err = cli_run("run", "--config", str(toml), "-q", "--workers", "1", "--out", str(tmp_path / "r"))
    assert code == 0, err
    frame = load(tmp_path / "r")
    assert frame.attrs["simlab"]["config"]["duplicate"] is True and frame["deal"].nunique() == 20
