"""Jamaica: invariants over many whole games, reproducibility, strategies, the trace, the rules doc."""
import re
from pathlib import Path

import numpy as np
import pytest

from jamaica_helpers import Table
from simlab.core.params import ASSUMPTION
from simlab.core.runner import Prepared, RunConfig
from simlab.games.jamaica import GAME, scoring
from simlab.games.jamaica.components import PARAMS, R_CANNON, R_FOOD, R_GOLD, SPACE_SCORE
from simlab.games.jamaica.state import (B_HAND, B_HN, B_HTYPE, B_POS, GHOST, S_BANK, S_TDECK, S_TOWNER)

HEURISTICS = ("racer", "hoarder", "fighter", "balanced")


def frame(players, seats, games, seed=1, **params):
    return Prepared(RunConfig("jamaica", players, tuple(seats), games, seed=seed, params=params)).frame(0, games)


def check_rows(f, start_score=-5, behind_score=-5):
    assert (f.score == f.space_points + f.gold + f.treasure_points).all()
    assert f.position.between(0, 49).all()
    assert (f.lap <= 0).all() and (f[f.lap < 0].space_points == behind_score).all()
    assert (f.gold >= 0).all() and (f.food >= 0).all() and (f.cannons >= 0).all()
    finished = f.finished_round > 0
    assert (f[finished].space_points == 15).all() and (f[finished].position == 0).all()
    home = ~finished & (f.lap == 0) & (f.position == 0)
    assert (f[home].space_points == start_score).all()
    on_track = f[(f.lap == 0) & (f.position > 0)]
    assert (on_track.space_points.values == np.array(SPACE_SCORE)[on_track.position.values]).all()
    assert (f.combats_won <= f.combats).all() and (f.attacks <= f.combats).all()
    assert f.treasure_cards.between(0, 9).all()
    per_game = f.groupby("game")
    assert (per_game.treasure_cards.sum() + f[f.seat == 0].set_index("game").ghost_treasures <= 10).all()
    ended = f[f.end_reason == 1]
    assert (ended.ender >= 0).all()
    assert (f[finished].finished_round == f[finished].rounds).all()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_invariants_hold_after_every_action_over_many_random_games(players):
    f = frame(players, ["random"] * players, 400, seed=players, check_invariants=True)
    check_rows(f)


@pytest.mark.parametrize("players,params", [(2, {}), (2, {"ghost_ship": False}), (4, {}), (6, {}),
                                            (4, {"bank_limited": True, "steal_blind": False}),
                                            (3, {"may_decline_loot": False})])
def test_invariants_hold_over_many_heuristic_games(players, params):
    seats = [HEURISTICS[i % 4] for i in range(players)]
    f = frame(players, seats, 400, seed=11, check_invariants=True, **params)
    check_rows(f)
    assert (f.end_reason == 1).mean() > 0.95


@pytest.mark.parametrize("players", [2, 6])
def test_every_assumption_has_plausible_alternatives_that_play_valid_games(players):
    """Issue 14: ``simlab robust`` reruns a verdict at each plausible alternative of every ASSUMPTION
    (docs/rules/jamaica.md section 6), so each differs from the default and plays whole games, with
    the default seats, that keep every invariant after every action."""
    seats = GAME.default_seats[:players]
    for p in PARAMS.params:
        if p.status != ASSUMPTION:
            continue
        alternatives = p.plausible_alternatives()
        assert alternatives and p.default not in alternatives, p.name
        for alt in alternatives:
            values = PARAMS.resolve({p.name: alt})
            f = frame(players, seats, 300, seed=players, check_invariants=True, **{p.name: alt})
            check_rows(f, values["start_score"], values["behind_score"])
            assert (f.end_reason == 1).mean() > 0.95, (p.name, alt)


def test_invariant_checker_catches_each_kind_of_breach():
    t = Table(3)
    assert t.check() == 0
    t.state[S_BANK + R_GOLD - 1] += 1
    assert t.check() == 1                                     # a doubloon from nowhere
    t = Table(3)
    t.state[t.b(0) + B_HTYPE + 0] = R_FOOD
    t.state[t.b(0) + B_HN + 4] = 2                            # a count in a hold with no kind
    assert t.check() == 2
    t = Table(3)
    t.state[t.b(0) + B_HTYPE + 5] = R_CANNON                  # the 6th hold without its card
    t.state[t.b(0) + B_HN + 5] = 1
    t.state[S_BANK + R_CANNON - 1] -= 1
    assert t.check() == 3
    t = Table(3)
    t.state[S_TOWNER + int(t.state[S_TDECK])] = 1       # a card both in the pile and in a hand
    assert t.check() == 4
    t = Table(3)
    t.state[t.b(1) + B_HAND] = t.state[t.b(1) + B_HAND + 1]   # an action card twice
    assert t.check() == 5
    t = Table(3)
    t.state[t.b(2) + B_POS] = 50                              # off the track
    assert t.check() == 6
    t = Table(2)
    t.state[t.b(GHOST) + B_POS] = -1
    assert t.check() == 6


def test_same_seed_gives_an_identical_frame_whatever_the_chunking():
    seats = ("racer", "hoarder", "fighter", "balanced")
    prep = Prepared(RunConfig("jamaica", 4, seats, 300, seed=42, rotate=True))
    a = prep.frame(0, 300)
    b = Prepared(RunConfig("jamaica", 4, seats, 300, seed=42, rotate=True)).frame(0, 300)
    assert a.equals(b)
    parts = [prep.frame(0, 120), prep.frame(120, 180)]
    import pandas as pd
    c = pd.concat(parts, ignore_index=True)
    assert a.drop(columns="strategy").equals(c.drop(columns="strategy"))
    other = Prepared(RunConfig("jamaica", 4, seats, 300, seed=43, rotate=True)).frame(0, 300)
    assert not a.score.equals(other.score)


def test_heuristics_beat_random_play():
    for name in HEURISTICS:
        f = frame(4, [name, "random", "random", "random"], 600, seed=5)
        mine = f[f.seat == 0]
        assert mine.win.mean() > 0.4, name
        assert mine.score.mean() > f[f.seat > 0].score.mean() + 5, name


def test_heuristics_differ_in_structure_racer_finishes_hoarder_hoards_fighter_fights():
    f = Prepared(RunConfig("jamaica", 3, ("racer", "hoarder", "fighter"), 3000, seed=9, rotate=True)).frame(0, 3000)
    by = f.groupby("strategy", observed=True).mean(numeric_only=True)
    assert by.loc["racer", "space_points"] > by.loc["hoarder", "space_points"]
    assert by.loc["hoarder", "gold"] > by.loc["racer", "gold"]
    assert by.loc["fighter", "cannons_spent"] > 2 * by.loc["racer", "cannons_spent"]


def test_strategy_weights_are_tunable_and_change_play():
    calm = frame(4, ["fighter:hunt=-20", "balanced", "balanced", "balanced"], 1500, seed=3)
    keen = frame(4, ["fighter:hunt=30", "balanced", "balanced", "balanced"], 1500, seed=3)
    assert keen[keen.seat == 0].attacks.mean() > calm[calm.seat == 0].attacks.mean() + 0.3


def test_ghost_ship_fights_and_the_switch_removes_it():
    with_ghost = frame(2, ["racer", "fighter"], 800, seed=4)
    without = frame(2, ["racer", "fighter"], 800, seed=4, ghost_ship=False)
    assert with_ghost.ghost_combats.mean() > 0.5 and (with_ghost.ghost_position >= 0).all()
    assert (without.ghost_position == -1).all() and (without.ghost_combats == 0).all()


def test_trace_of_seed_5_with_4_players_reads_like_a_game():
    seats = ("racer", "hoarder", "fighter", "balanced")
    prep = Prepared(RunConfig("jamaica", 4, seats, 1, seed=5))
    out, log = prep.play(0, 1, 20000)
    text = prep.spec.narrate(log, 4, prep.values, prep.labels)
    assert text.startswith("Red (racer) sets sail from Port Royal with 3 doubloons and 3 food.")
    assert "Round 1: captain Red (racer) rolls" in text
    assert "reveals card" in text and "pays" in text
    rounds = int(out[0, 0, scoring.C_ROUNDS])
    assert f"The game ends after round {rounds}" in text
    for p in range(4):
        assert f"= {out[0, p, 1]} points" in text.splitlines()[-4 + p]
    assert np.all(out[0, :, scoring.C_ROUNDS] == rounds)


ROOT = Path(__file__).resolve().parent.parent


def test_the_game_names_its_own_rules_doc_with_every_section():
    from simlab.games.jamaica import GAME
    doc = (ROOT / GAME.rules_file).read_text()
    assert GAME.rules_file == "docs/rules/jamaica.md"
    for n, title in enumerate(("The game in brief", "Setup", "Play", "End and scoring", "Component data",
                               "Open readings", "How simlab models it", "Sources"), 1):
        assert f"## {n}. {title}" in doc
    for p in GAME.params.params:
        if p.status == ASSUMPTION:
            assert f"`{p.name}`" in doc, p.name


def test_the_rules_doc_cites_only_tests_that_exist():
    doc = (ROOT / "docs/rules/jamaica.md").read_text()
    cited = set(re.findall(r"`(test_[a-z0-9_]+)`", doc))
    defined = set()
    for path in (ROOT / "tests").glob("test_jamaica*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)", path.read_text(), flags=re.M))
    assert len(cited) > 40 and cited <= defined, sorted(cited - defined)
