"""How a game unfolds: every game's standings events, and the measures read from them."""
import math

import numpy as np
import pytest

from simlab.core import runner
from simlab.core.game import get_game
from simlab.core.play import COL_SCORE, EV_STANDINGS
from simlab.core.runner import Prepared, RunConfig
from simlab.measures import unfold

GAMES = ("karuba", "loot-island", "jamaica", "legend-raiders")


@pytest.mark.parametrize("game", GAMES)
def test_standings_after_every_round_end_in_the_final_scores_and_leave_play_alone(game):
    """Each game logs the standings at the end of every round, computed by its own end scoring; the
    last are the scores in the result rows, and logging them changes no row."""
    spec = get_game(game)
    for n in range(spec.min_players, spec.max_players + 1):
        prep = Prepared(RunConfig(game, n, tuple(spec.default_seats[:n]), games=6, rotate=True))
        plain, _ = prep.play(0, 6)
        for g in range(6):
            out, log = prep.play(g, 1, 20_000)
            assert len(log) < 20_000
            np.testing.assert_array_equal(out[0], plain[g])
            ev = log[log[:, 0] == EV_STANDINGS]
            assert len(ev) >= 2, (game, n, g)
            assert np.all(np.diff(ev[:, 1]) == 1) and ev[0, 1] == 1   # rounds 1, 2, ... in order
            np.testing.assert_array_equal(ev[-1, 2:2 + n], out[0, :, COL_SCORE])
            assert not ev[:, 2 + n:].any()   # seats beyond the table stay 0


@pytest.mark.parametrize("room", [runner.TRACE_ROOM, 64])
def test_a_traced_block_logs_every_game_as_it_logs_alone(monkeypatch, room):
    """One kernel call logs a block of games, each with the events and rows it has when played
    alone; a log that fills up (room 64 events) is grown and the rest of the block played again."""
    monkeypatch.setattr(runner, "TRACE_ROOM", room)
    for game in GAMES:
        spec = get_game(game)
        prep = Prepared(RunConfig(game, spec.max_players, tuple(spec.default_seats[:spec.max_players]), games=5,
                                  rotate=True))
        out, log, ends = prep.traces(3, 5)
        assert len(ends) == 5 and ends[-1] == len(log)
        for g in range(5):
            alone, alone_log = prep.play(3 + g, 1, 20_000)
            np.testing.assert_array_equal(out[g], alone[0])
            np.testing.assert_array_equal(log[ends[g - 1] if g else 0:ends[g]], alone_log)


def test_standings_are_the_final_scores_in_every_traced_game_of_a_sample():
    """The long frame from a replayed sample ends, game by game, in the rows' scores."""
    config = RunConfig("jamaica", 3, ("racer", "hoarder", "fighter"), games=30, rotate=True)
    traj, rows = unfold.standings(config, 30)
    last = traj[traj["round"] == traj.groupby("game")["round"].transform("max")]
    merged = last.merge(rows[["game", "seat", "score"]], on=["game", "seat"], suffixes=("", "_row"))
    assert len(merged) == 90 and (merged["score"] == merged["score_row"]).all()
    per_game = unfold.measures(traj, rows)
    assert len(per_game) == 30 and per_game["decided_share"].between(0, 1, inclusive="right").all()
    assert (per_game["lead_changes"] <= per_game["rounds"] - 1).all()


def test_wire_to_wire_win_has_no_lead_change_is_decided_in_round_one_and_no_drama():
    m = unfold.game_measures([[1, 0], [3, 1], [5, 2]], [True, False])
    assert m["lead_changes"] == 0 and m["lead_change_share"] == 0
    assert m["decided_round"] == 1 and m["decided_share"] == pytest.approx(1 / 3)
    assert m["drama"] == 0 and m["halftime_leader_wins"] == 1


def test_comeback_counts_the_lead_change_the_deciding_round_and_the_gap_made_up():
    # seat 0 leads rounds 1-2 by 3, seat 1 takes the lead in round 3 and keeps it
    m = unfold.game_measures([[3, 0, 1], [5, 2, 2], [6, 7, 3], [8, 9, 4]], [False, True, False])
    assert m["lead_changes"] == 1 and m["lead_change_share"] == pytest.approx(1 / 3)
    assert m["decided_round"] == 3 and m["decided_share"] == 0.75
    assert m["drama"] == pytest.approx(3 / 9)     # trailing by 3 in both rounds, top score 9
    assert m["halftime_leader_wins"] == 0         # seat 0 led after round 2
    assert m["comeback"] == 0.5                   # seats 1 and 2 tied last after round 2 of 4 (ceil(4/3)); 1 wins


def test_the_player_last_after_a_third_of_the_game_who_still_wins_is_a_comeback():
    # six rounds: after round 2 seat 2 is last alone and goes on to win
    m = unfold.game_measures([[2, 1, 0], [4, 3, 1], [5, 5, 6], [6, 6, 9], [7, 7, 10], [8, 8, 12]],
                             [False, False, True])
    assert m["comeback"] == 1
    # seats 1 and 2 tied last after round 1 of 3; seat 1 wins: half a comeback
    m = unfold.game_measures([[3, 0, 0], [3, 4, 1], [3, 9, 2]], [False, True, False])
    assert m["comeback"] == 0.5
    # the last player after a third loses: no comeback; every seat level then: nobody is behind
    assert unfold.game_measures([[1, 0], [2, 1], [3, 2]], [True, False])["comeback"] == 0
    assert math.isnan(unfold.game_measures([[0, 0], [1, 2], [1, 3]], [False, True])["comeback"])
    # a game of fewer than three rounds has no first third to be behind in
    assert math.isnan(unfold.game_measures([[0, 2], [1, 3]], [False, True])["comeback"])


def test_the_unfolding_summary_is_clustered_by_deal_and_a_share_stays_within_its_bounds():
    """Two games of one duplicate deal are one cluster: 10 deals of 2 identical games give the
    interval of 10 observations, not 20; a share near 1 keeps its interval at or below 1."""
    import pandas as pd

    from simlab.measures.catalogue import UNFOLDING

    rng = np.random.default_rng(5)
    values = np.repeat(rng.random(10), 2)
    per_game = pd.DataFrame({"game": range(20), "deal": np.repeat(range(10), 2), "rounds": 5})
    for m in UNFOLDING:
        per_game[m.key] = values
    per_game["halftime_leader_wins"] = np.r_[np.ones(19), 0.0]
    s = unfold.summary(per_game)
    alone = unfold.summary(per_game.assign(deal=range(20)))
    assert s["drama"].n == 10 and alone["drama"].n == 20 and s["drama"].width > alone["drama"].width * 1.3
    assert s["halftime_leader_wins"].hi <= 1 and s["halftime_leader_wins"].value == pytest.approx(0.95)
    assert set(s) >= {m.key for m in UNFOLDING}


def test_a_tie_for_the_lead_is_a_shared_lead_and_a_change_of_the_leader_set():
    # leaders: {0, 1}, {0}, {0, 1}, {0}: each step changes the set; seat 0 always leads, alone or tied
    m = unfold.game_measures([[1, 1], [2, 1], [2, 2], [3, 2]], [True, False])
    assert m["lead_changes"] == 3 and m["lead_change_share"] == 1
    assert m["decided_round"] == 1 and m["drama"] == 0
    # tied for the lead at half-time with a seat that loses: half a win
    m = unfold.game_measures([[0, 0], [1, 1], [1, 2]], [False, True])
    assert m["halftime_leader_wins"] == 0.5 and m["decided_round"] == 1


def test_shared_win_drama_averages_the_gap_over_the_winners():
    m = unfold.game_measures([[5, 1, 3], [5, 6, 6]], [False, True, True])
    assert m["drama"] == pytest.approx((5 - 2) / 6) and m["decided_round"] == 2


def test_a_game_without_winner_has_only_lead_changes_and_one_round_no_change_share():
    m = unfold.game_measures([[0, 2], [1, 3]], [False, False])
    assert m["lead_changes"] == 0
    assert all(math.isnan(m[k]) for k in ("decided_round", "drama", "halftime_leader_wins"))
    assert math.isnan(unfold.game_measures([[4, 2]], [True, False])["lead_change_share"])


def test_winner_paths_average_each_game_once_per_group_up_to_the_rounds_most_games_reach():
    import pandas as pd

    traj = pd.DataFrame({"game": [0] * 6 + [1] * 4, "round": [1, 1, 1, 2, 2, 2, 1, 1, 2, 2],
                         "seat": [0, 1, 2] * 2 + [0, 1] * 2, "score": [1, 2, 4, 3, 4, 8, 5, 1, 9, 2]})
    rows = pd.DataFrame({"game": [0, 0, 0, 1, 1], "seat": [0, 1, 2, 0, 1], "win": [False, False, True, True, False]})
    p = unfold.winner_paths(traj, rows).set_index(["round", "who"])
    assert p.loc[(1, "others"), "mean"] == pytest.approx((1.5 + 1) / 2)   # game 0's two others count once
    assert p.loc[(2, "winner"), "mean"] == pytest.approx((8 + 9) / 2) and p.loc[(2, "winner"), "games"] == 2
