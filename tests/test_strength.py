"""Verdicts across strengths (issue 15 item 6): the stronger players an experiment reruns its headline
with, how many games they play, and how their readings are worded against the heuristics' verdict."""
from pathlib import Path

import pytest

from simlab.analysis import strength
from simlab.analysis.experiment import Context, Experiment
from simlab.analysis.report import Report
from simlab.analysis.sections import mirror_bottom_line, mirror_detail, mirror_seats
from simlab.core.errors import SimlabError
from simlab.core.tuned_sets import tuned_sets
from test_fairness_measures import synthetic

EXP = Experiment("t", "t", "q", lambda ctx: None, options=strength.OPTIONS)


def context(game: str, games: int = 5000, **options) -> Context:
    return Context(EXP, games, Path("."), Path("."), game=game, options=options)


def test_auto_names_every_tuned_set_and_the_search_player_none_names_nobody():
    auto = strength.strong_players(context("loot-island"))
    assert auto == sorted(tuned_sets("loot-island")) + ["rollout"] and "cautious@tuned" in auto
    assert strength.strong_players(context("karuba")) == ["rollout"]        # no tuned set saved for Karuba
    assert strength.strong_players(context("karuba", strong="none")) == []
    assert strength.strong_players(context("karuba", strong="rollout:samples=48, builder")) == ["rollout:samples=48",
                                                                                               "builder"]


@pytest.mark.parametrize("text, message", [("grandmaster", "unknown strategy 'grandmaster'"),
                                           ("rollout:depth=3", "depth"), (",", "name at least one")])
def test_an_unknown_stronger_player_is_refused_by_name(text, message):
    with pytest.raises(SimlabError, match=message):
        strength.strong_players(context("karuba", strong=text))


def test_a_search_player_plays_strong_games_a_tuned_set_the_experiments_games():
    ctx = context("loot-island", games=5000, **{"strong-games": "300"})
    assert strength.strong_games(ctx, "loot-island", "rollout") == 300
    assert strength.strong_games(ctx, "loot-island", "cautious@tuned") == 5000
    assert strength.strong_games(context("loot-island", games=200), "loot-island", "rollout:samples=8") == 200  # at most --games
    with pytest.raises(SimlabError, match="strong-games=0"):
        strength.strong_games(context("karuba", **{"strong-games": "0"}), "karuba", "rollout")


def test_agreement_tells_holds_from_differs_from_not_settled():
    said = strength.agreement("fair", {"a": ("fair", True), "b": ("favoured", True), "c": ("undecided", False)},
                              games={"c": 400})
    assert said == "holds with a; differs with b (favoured); is not settled with c (at 400 games)"
    assert strength.agreement(True, {"x": (True, True)}) == "holds with x"


def test_mirror_bottom_line_reads_the_stronger_mirror_against_the_heuristics_verdict():
    """Two heuristic mirrors favour the start player; a stronger player's large mirror agrees, a small one
    cannot tell, a fair one differs. Each is said so; none changes the heuristics' own verdict."""
    favoured = {h: synthetic(6000, [0.6, 0.4], seed=i) for i, h in enumerate(("h1", "h2"))}
    mirrors = {**favoured, "big": synthetic(6000, [0.6, 0.4], seed=7), "small": synthetic(60, [0.5, 0.5], seed=8),
               "even": synthetic(40000, [0.5, 0.5], seed=9)}
    shares = mirror_seats(Report("t", "q"), mirrors)
    line = mirror_detail(shares, ("big", "small", "even"), {"small": 60})
    assert "favoured at 2 players (all 2 heuristic mirrors agree" in line
    assert "holds with big" in line and "differs with even (fair)" in line
    assert "is not settled with small (at 60 games)" in line
    short = mirror_bottom_line(shares, ("big", "small", "even"))      # the answer: the heuristics' side, one edge
    assert short.startswith("In mirror matches the start player is favoured at 2 players (up to +") and "big" not in short


def test_when_every_heuristic_mirror_ends_level_only_the_stronger_mirror_judges():
    """Karuba's heuristics play the same game in every seat: only a stronger player's mirror can judge."""
    mirrors = {"h": synthetic(300, [0.5, 0.5], seed=1, tie_rate=1.0), "big": synthetic(6000, [0.6, 0.4], seed=2)}
    line = mirror_detail(mirror_seats(Report("t", "q"), mirrors), ("big",))
    assert line.startswith("In mirror matches the start player is favoured at 2 players (only the big mirror can judge")
    assert "stronger play" not in line
