"""Karuba invariants over whole games, reproducibility, and the trace."""
import numpy as np
import pandas as pd
import pytest

from simlab.core.runner import Prepared, RunConfig
from simlab.core.rng import STRATEGY_STREAM
from simlab.games.karuba import rules, step
from simlab.games.karuba import state as S
from simlab.games.karuba.invariants import check_invariants
from simlab.games.karuba.components import PARAMS
from simlab.games.karuba.state import MAX_CHOICES, STATE_SIZE
from strategies.karuba import random_play

from karuba_helpers import streams

MIX = ("builder", "racer", "collector", "random")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_after_every_round_of_random_games(players):
    cfg = PARAMS.pack(PARAMS.resolve({"bonus_tiles": True}))
    seat_params = np.zeros((6, 8))
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    no_log = np.zeros((0, 8), dtype=np.int32)
    for game in range(15):
        rng = streams(game, players)
        state = np.zeros(STATE_SIZE, dtype=np.int32)
        step.new_game(state, cfg, players, rng)
        while step.to_move(state) >= 0:
            n = step.legal(state, cfg, legal)
            step.apply(state, cfg, legal[random_play(state, cfg, 0, legal, n, seat_params[0], rng[STRATEGY_STREAM])],
                       rng, no_log)
            assert check_invariants(state, cfg) == 0


def test_the_invariant_checker_catches_a_broken_tile_order_a_lost_tile_a_stray_nugget_and_a_token_too_many():
    """The checker can fail: each corruption of a finished game is named by its number."""
    cfg = PARAMS.pack(PARAMS.resolve({}))
    state = np.zeros(STATE_SIZE, dtype=np.int32)
    block = streams(3, 1)
    step.new_game(state, cfg, 3, block)
    legal = np.zeros(MAX_CHOICES, dtype=np.int32)
    while step.to_move(state) >= 0:
        n = step.legal(state, cfg, legal)
        step.apply(state, cfg, legal[random_play(state, cfg, 0, legal, n, np.zeros(8), block[STRATEGY_STREAM])],
                   block, np.zeros((0, 8), dtype=np.int32))
    assert check_invariants(state, cfg) == 0
    for corrupt, code in ((lambda s: s.__setitem__(S.T_ORDER, s[S.T_ORDER + 1]), 1),
                          (lambda s: s.__setitem__(S.P0 + S.B_FATE + s[S.S_SEQ] - 1, 0), 3),
                          (lambda s: s.__setitem__(S.P0 + S.B_PLACED, s[S.P0 + S.B_PLACED] + 1), 4),
                          (lambda s: s.__setitem__(S.P0 + S.B_GOLD, s[S.P0 + S.B_GOLD] + 1), 7),
                          (lambda s: s.__setitem__(S.S_TAKEN, s[S.S_TAKEN] + 1), 9)):
        bad = state.copy()
        corrupt(bad)
        assert check_invariants(bad, cfg) == code


def test_invariants_of_result_rows_over_many_heuristic_games():
    frame = Prepared(RunConfig("karuba", 4, MIX, 1, seed=5, params={"bonus_tiles": True})).frame(0, 2000)
    parts = frame.token_points + frame.crystals + 2 * frame.gold + frame.bonus_points
    assert (frame.score == parts).all(), "score = sum of its parts"
    assert (frame.tiles_placed + frame.tiles_discarded == frame.rounds).all(), "one tile per player per round"
    assert (frame.tiles_placed <= 30).all()
    for c in ("brown", "blue", "purple", "yellow"):
        assert (frame[f"home_round_{c}"] <= frame.rounds).all()
        assert ((frame.groupby("game")[f"home_round_{c}"].transform(lambda s: (s > 0).sum())) <= 4).all()
    assert (frame.temples == sum((frame[f"home_round_{c}"] > 0) for c in ("brown", "blue", "purple", "yellow"))).all()
    ended_home = frame[frame.end_reason == 2].groupby("game").temples.max()
    assert (ended_home == 4).all(), "the all-home ending needs someone with 4 explorers home"
    assert (frame[frame.end_reason == 1].rounds == 36).all()
    winners = frame[frame.win]
    assert (winners.groupby("game").size() >= 1).all() and frame.game.nunique() == 2000
    assert (frame.groupby("game").score.transform("max")[frame.win] == winners.score).all()
    assert frame.compensation.min() >= 0 and frame.bonus_tiles.max() <= 15


def test_same_seed_gives_identical_frames_and_other_seed_differs():
    a = Prepared(RunConfig("karuba", 3, MIX[:3], 1, seed=42)).frame(0, 300)
    b = Prepared(RunConfig("karuba", 3, MIX[:3], 1, seed=42)).frame(0, 300)
    c = Prepared(RunConfig("karuba", 3, MIX[:3], 1, seed=43)).frame(0, 300)
    pd.testing.assert_frame_equal(a, b)
    assert not a.score.equals(c.score)


def test_chunking_does_not_change_any_row():
    prep = Prepared(RunConfig("karuba", 4, MIX, 1, seed=9))
    whole = prep.frame(0, 500)
    pieces = pd.concat([prep.frame(0, 123), prep.frame(123, 200), prep.frame(323, 177)], ignore_index=True)
    pieces["strategy"] = pieces["strategy"].astype(whole["strategy"].dtype)
    pd.testing.assert_frame_equal(whole, pieces)


def test_seat_rotation_puts_each_strategy_in_each_seat_equally():
    frame = Prepared(RunConfig("karuba", 4, MIX, 1, seed=2, rotate=True)).frame(0, 400)
    counts = frame.groupby(["seat", "strategy"], observed=True).size()
    assert (counts == 100).all() and len(counts) == 16


def test_fixed_setup_is_used_in_every_game():
    params = {"beaches": (60, 20, 110, 90), "temples": (70, 100, 60, 10)}
    frame = Prepared(RunConfig("karuba", 2, ("random", "random"), 1, params=params)).frame(0, 50)
    assert set(frame.beach_blue) == {20} and set(frame.temple_brown) == {70}


def test_trace_narrates_the_game_the_kernel_played():
    from simlab.games.karuba.trace import narrate

    prep = Prepared(RunConfig("karuba", 3, MIX[:3], 1, seed=7))
    out, events = prep.play(0, 1, log_capacity=5000)
    text = narrate(events, 3, prep.values, prep.labels, every=0)
    rounds = out[0, 0, 3 + [c.name for c in prep.spec.columns].index("rounds")]
    assert f"Round {rounds}:" in text and f"Round {rounds + 1}:" not in text
    for p in range(3):
        points = out[0, p, 1]
        assert f"Seat {p + 1} ({prep.labels[p]}): {points} point{'' if points == 1 else 's'}" in text
    assert text.count("Setup:") == 4


def test_trace_tells_which_gold_tiles_got_no_nugget():
    from simlab.games.karuba.trace import narrate

    prep = Prepared(RunConfig("karuba", 4, MIX, 1, seed=3, params={"gold_supply": 3}))
    out, events = prep.play(0, 1, log_capacity=5000)
    text = narrate(events, 4, prep.values, prep.labels, every=0)
    short = out[0, 0, 3 + [c.name for c in prep.spec.columns].index("gold_short")]
    assert short > 0 and text.count("gets no gold nugget after all") == short


def test_trace_says_1_point_1_step_1_crystal_never_1_points():
    """Every count in the trace agrees with its noun: '1 point', '2 points', '0 points'."""
    import re

    from simlab.games.karuba.trace import narrate

    ev = [(rules.EV_SETUP, c, b, t) for c, b, t in zip(range(4), (60, 20, 110, 90), (70, 100, 60, 10))]
    ev += [(rules.EV_TILE, 1, 14, 1), (rules.EV_PLACE, 0, 0, 14, 2), (rules.EV_PLACE, 1, 0, 14, 2),
           (rules.EV_NO_GOLD, 0, 0, 1, 2), (rules.EV_NO_GOLD, 1, 0, 0, 1), (rules.EV_TEMPLE, 0, 0, 1, 1),
           (rules.EV_TEMPLE, 1, 0, 2, 2), (rules.EV_END, 1, 1), (rules.EV_SCORE, 0, 1), (rules.EV_SCORE, 1, 0)]
    events = np.array([e + (0,) * (8 - len(e)) for e in ev], dtype=np.int32)
    prep = Prepared(RunConfig("karuba", 2, ("random", "random"), 1, params={"gold_supply": 12}))
    text = narrate(events, 2, prep.values, prep.labels, every=0)
    for phrase in ("1 step)", "1 nugget left in the supply for 2 players", "0 nuggets left in the supply for 1 player ",
                   "worth 1 point plus 1 crystal for", "worth 2 points plus 2 crystals for", "(random): 1 point\n",
                   "(random): 0 points"):
        assert phrase in text + "\n", phrase
    wrong = re.compile(r"\b1 (points|steps|crystals|nuggets|players)\b|\b([02-9]|\d\d+) (point|step|crystal|nugget|player)\b")
    assert not wrong.search(text)
    for seed in range(20):   # and in whole games, bonus tiles and a short gold supply included
        prep = Prepared(RunConfig("karuba", 4, MIX, 1, seed=seed, params={"gold_supply": 9, "bonus_tiles": True}))
        _, events = prep.play(0, 1, log_capacity=5000)
        assert not wrong.search(narrate(events, 4, prep.values, prep.labels, every=0))
