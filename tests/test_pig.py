"""Pig, the plug-in in examples/pig: its rules (P1.. as in examples/pig/rules.md) on hand-built
states, its invariant switch, its strategies, and the engine's commands on it (a game with no core
change). Comments number seats from 1, as the traces do."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
os.environ.setdefault("SIMLAB_PLUGINS", str(ROOT / "examples" / "pig"))

import numpy as np
import pytest

from simlab.core.errors import SimlabError
from simlab.core.game import get_game
from simlab.core.play import EVENT_WIDTH, InvariantBroken, play_through
from simlab.core.rng import N_STREAMS, randint, root_key, seed_stream
from simlab.core.runner import Prepared, RunConfig

SPEC = get_game("pig")      # declares the plug-in: `pig` imports from here on
MODEL = SPEC.model

from pig.rules import EV_AGAIN, EV_BUST, EV_HOLD, EV_ROLL, setup  # noqa: E402
from pig.state import (END_CAP, END_ROUND, END_TARGET, HOLD, ROLL, S_BEST, S_BUSTS, S_END, S_HOLDS,  # noqa: E402
                       S_PLAYERS, S_REACHED, S_ROLLS, S_ROUND, S_SCORE, S_SEAT, S_TOTAL, S_TURNS, STATE_SIZE)

NO_LOG = np.zeros((0, EVENT_WIDTH), np.int32)


def cfg(**overrides):
    return SPEC.params.pack(SPEC.params.resolve(overrides))


def rolling(*faces, sides=6):
    """Streams whose die stream rolls ``faces`` next (found by trying deals)."""
    key, streams = root_key(7), np.zeros((N_STREAMS, 4), np.uint64)
    for deal in range(200_000):
        seed_stream(key, deal, streams[0], 0)
        probe = streams[0].copy()
        if all(randint(probe, sides) + 1 == f for f in faces):
            return streams
    raise AssertionError(f"no deal rolls {faces}")


def turn_under_way(n, seat, scores, total, rnd=1):
    """A state in round ``rnd``, ``seat`` to decide with turn total ``total`` (its counters consistent)."""
    state = np.zeros(STATE_SIZE, np.int32)
    setup(state, n)
    state[S_ROUND], state[S_SEAT], state[S_TOTAL] = rnd, seat, total
    for p in range(n):
        state[S_SCORE + p] = scores[p]
        state[S_TURNS + p] = rnd - (p > seat)
        state[S_HOLDS + p] = state[S_TURNS + p] - (p == seat)
        state[S_BEST + p] = scores[p]
        state[S_ROLLS + p] = state[S_TURNS + p] + 1
    return state


def shares(state, c):
    out = np.zeros(6)
    MODEL.returns(state, c, out)
    return list(out[:int(state[S_PLAYERS])])


def play(seats, games, seed=1, **params):
    return Prepared(RunConfig("pig", len(seats), tuple(seats), games, seed=seed, params=params)).frame(0, games)


# --- the rules, on hand-built states -------------------------------------------------------------

def test_p4_a_one_loses_the_turn_total_and_passes_the_turn():
    c = cfg(check_invariants=True)
    state = turn_under_way(2, 0, (30, 40), 9)
    MODEL.apply(state, c, ROLL, rolling(1, 3), NO_LOG)
    assert state[S_SCORE] == 30 and state[S_BUSTS] == 1
    assert MODEL.to_move(state) == 1 and state[S_TOTAL] == 3      # seat 2's compulsory first roll, a 3


def test_p5_holding_banks_the_turn_total_and_ends_the_turn():
    c = cfg(check_invariants=True)
    state = turn_under_way(2, 0, (30, 40), 12)
    MODEL.apply(state, c, HOLD, rolling(4), NO_LOG)
    assert state[S_SCORE] == 42 and state[S_HOLDS] == 1 and state[S_BEST] == 30
    assert MODEL.to_move(state) == 1 and state[S_TOTAL] == 4


def test_p3_the_first_roll_is_compulsory_and_no_seat_decides_at_turn_total_0():
    state = np.zeros(STATE_SIZE, np.int32)
    MODEL.new_game(state, cfg(), 2, rolling(1, 1, 5))          # seats 1 and 2 pig out unasked
    assert MODEL.to_move(state) == 0 and state[S_ROUND] == 2 and state[S_TOTAL] == 5
    assert list(state[S_ROLLS:S_ROLLS + 2]) == [2, 1]
    totals = []

    def every_third_holds(s, seat, legal, n):
        totals.append(int(s[S_TOTAL]))
        return int(len(totals) % 3 == 0)

    play_through(MODEL, cfg(), 3, rolling(2), every_third_holds)
    assert totals and min(totals) >= 2


def test_p5_a_decision_offers_exactly_roll_and_hold():
    out = np.zeros(8, np.int32)
    assert MODEL.legal(turn_under_way(2, 0, (0, 0), 6), cfg(), out) == 2 and list(out[:2]) == [ROLL, HOLD]


def test_p6_reaching_the_target_ends_the_game_at_once_and_that_player_wins():
    c = cfg(check_invariants=True)
    state = turn_under_way(3, 1, (60, 95, 99), 6)
    MODEL.apply(state, c, HOLD, rolling(6), NO_LOG)
    assert state[S_END] == END_TARGET and MODEL.to_move(state) == -1
    assert state[S_TURNS + 2] == 0                               # seat 3 never got its round-1 turn
    assert shares(state, c) == [0, 1, 0]


def test_p7_equal_turns_finishes_the_round_and_shares_a_tie():
    c = cfg(equal_turns=True, check_invariants=True)
    state = turn_under_way(3, 0, (95, 50, 90), 5)
    MODEL.apply(state, c, HOLD, rolling(4), NO_LOG)
    assert MODEL.to_move(state) == 1 and state[S_REACHED] == 0  # the round goes on
    MODEL.apply(state, c, HOLD, rolling(4), NO_LOG)            # seat 2 banks 4
    assert MODEL.to_move(state) == 2
    state[S_TOTAL] = 10                                          # seat 3 has rolled 10 in all (hand-set)
    MODEL.apply(state, c, HOLD, rolling(4), NO_LOG)
    assert state[S_END] == END_ROUND and shares(state, c) == [0.5, 0, 0.5]


def test_p7_equal_turns_shows_in_the_rows_as_a_shared_win():
    seats = ("random", "hold_at:at=5", "random")
    frame = play(seats, 3000, target=20, equal_turns=True)
    assert frame["shared_win"].mean() > 0.01 and set(frame["end_reason"]) == {END_ROUND}
    base = play(seats, 3000, target=20)
    assert not base["shared_win"].any() and set(base["end_reason"]) == {END_TARGET}


def test_p8_the_turn_cap_stops_a_game_nobody_wins():
    c = cfg(max_turns=3, check_invariants=True)
    state = play_through(MODEL, c, 2, rolling(2), lambda s, seat, legal, n: 0)   # always roll again: never banks
    assert state[S_END] == END_CAP and state[S_ROUND] == 3 and shares(state, c) == [0.5, 0.5]


# --- every number comes from cfg ---------------------------------------------------------------

def test_numbers_are_read_from_cfg_a_lower_target_makes_shorter_games():
    assert play(("hold_at", "hold_at"), 2000, target=50)["rounds"].mean() < \
        0.7 * play(("hold_at", "hold_at"), 2000)["rounds"].mean()


def test_numbers_are_read_from_cfg_the_bust_face_and_the_die():
    state = turn_under_way(2, 0, (0, 0), 6)
    MODEL.apply(state, cfg(bust_face=6), ROLL, rolling(1), NO_LOG)   # a 1 is a point when 6 busts
    assert state[S_TOTAL] == 7 and MODEL.to_move(state) == 0
    for faces, bust in ((6, 6), (4, 1), (8, 3)):
        prep = Prepared(RunConfig("pig", 2, ("hold_at", "random"), 1, params={"die_faces": faces, "bust_face": bust}))
        _, log = prep.play(0, 1, log_capacity=10_000)
        rolled = set(log[log[:, 0] == EV_ROLL, 2]) | set(log[log[:, 0] == EV_BUST, 2])
        assert set(log[log[:, 0] == EV_BUST, 2]) == {bust} and rolled <= set(range(1, faces + 1))


def test_check_refuses_settings_under_which_pig_is_no_game():
    for bad in ({"bust_face": 7}, {"target": 0}):
        with pytest.raises(SimlabError) as err:
            SPEC.validate(2, SPEC.params.resolve(bad))
        assert "\n" not in str(err.value)
    with pytest.raises(SimlabError, match="2-6 players"):
        Prepared(RunConfig("pig", 7, ("hold_at",) * 7, 10))


# --- engine contract ---------------------------------------------------------------------------

def test_same_seed_same_frame_other_seed_other_frame():
    seats = ("hold_at", "random", "hold_at:at=25")
    a, b, c = play(seats, 300, seed=5), play(seats, 300, seed=5), play(seats, 300, seed=6)
    assert a.equals(b) and not a.equals(c)


def test_the_invariant_switch_catches_a_corrupted_state():
    state = np.zeros(STATE_SIZE, np.int32)
    MODEL.new_game(state, cfg(), 3, rolling(3))
    state[S_HOLDS + 2] = 5                                         # seat 3 has held before its first turn
    MODEL.apply(state.copy(), cfg(), ROLL, rolling(3), NO_LOG)     # off: nothing checked
    with pytest.raises(InvariantBroken) as err:
        MODEL.apply(state, cfg(check_invariants=True), ROLL, rolling(3), NO_LOG)
    assert err.value.args[0] == 4


def test_random_play_keeps_every_invariant_at_every_step():
    rng = np.random.default_rng(3)
    for n in (2, 4, 6):
        for eq in (False, True):
            play_through(MODEL, cfg(equal_turns=eq), n, rolling(2), lambda s, seat, legal, k: int(rng.integers(k)))


def test_the_trace_counts_one_decision_event_per_decision():
    prep = Prepared(RunConfig("pig", 2, ("hold_at", "random"), 1))
    _, log = prep.play(0, 1, log_capacity=10_000)
    kinds = log[:, 0]
    text = SPEC.narrate(log, 2, prep.values, prep.labels)
    assert (kinds == EV_HOLD).sum() == text.count("and holds")
    assert (kinds == EV_AGAIN).sum() > 0 and "pig!" in text


# The plug-in's own regression oracle (simlab.dev.regress checks only simlab's games): a change meant to
# alter play rewrites these digests and says why.
ORACLE = {
    (2, ("hold_at", "hold_at:at=25"), False, True): "2cea82d0393db898:2331f730",
    (3, ("hold_at", "hold_at:at=25", "hold_at:at=15"), True, True): "4e5e5ded9d0f1d54:370f1528",
    (6, ("random",) * 6, False, False): "5138245b32ac4ee2:13b25901",
}


@pytest.mark.parametrize("key", ORACLE, ids=lambda k: f"{k[0]}p-{'equal' if k[2] else 'base'}-{k[1][0]}")
def test_the_recorded_games_are_played_exactly(key):
    from simlab.dev.regress import digest, play as play_config

    n, seats, equal, rotate = key
    config = {"game": "pig", "players": n, "seats": list(seats), "params": {"equal_turns": equal}, "rotate": rotate}
    assert digest(*play_config(config)) == ORACLE[key]


# --- strategies --------------------------------------------------------------------------------

def test_hold_at_beats_random_clearly():
    frame = Prepared(RunConfig("pig", 2, ("hold_at", "random"), 2000, rotate=True)).frame(0, 2000)
    assert frame.groupby("strategy", observed=True)["win"].mean()["hold_at"] > 0.8


def test_the_first_player_has_an_edge_in_a_mirror_at_target_100():
    """A known property of Pig (about 53% under optimal play, Neller & Presser 2004)."""
    frame = play(("hold_at", "hold_at"), 40_000)
    first = frame[frame["seat"] == 0]["win"].mean()
    assert 0.515 < first < 0.56


def test_a_search_player_plays_pig():
    frame = play(("rollout:samples=4", "hold_at"), 4)
    assert len(frame) == 8 and frame["win"].sum() == 4


# --- the commands, from a fresh process with the plug-in declared only by the environment -----

def simlab(*args, tmp_path):
    env = dict(os.environ, SIMLAB_PLUGINS=str(ROOT / "examples" / "pig"))
    done = subprocess.run([sys.executable, "-m", "simlab", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_run_and_trace_from_the_command_line(tmp_path):
    out = simlab("run", "pig", "-p", "2", "-s", "hold_at,hold_at:at=25", "--games", "2000", "-w", "1", "-q",
                 "-o", str(tmp_path / "run"), tmp_path=tmp_path)
    assert "2,000 games, 2 players" in out and "hold_at:at=25" in out
    text = simlab("trace", "pig", "-s", "hold_at,random", "--seed", "3", tmp_path=tmp_path)
    assert "Round 1" in text and "Standings after round 1" in text and "The game ends in round" in text


def test_compare_the_equal_turns_variant(cli_run, tmp_path):
    code, out, err = cli_run("compare", "pig", "-p", "2", "-s", "hold_at", "--a-variant", "equal-turns", "-n", "400",
                             "-w", "1", "-q", "-o", str(tmp_path / "cmp"), "--runs", str(tmp_path / "runs"))
    assert code == 0, err
    assert (tmp_path / "cmp" / "report.md").is_file()
