"""Verdicts across strengths (issue 15 item 6): the stronger players an experiment reruns its headline
with, how many games they play, and how their readings are worded against the heuristics' verdict."""
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from simlab.core.errors import SimlabError
from simlab.core.tuned_sets import tuned_sets
from simlab.measures.stats import Estimate
from simlab.report import rechecks
from simlab.report.page import Report
from simlab.report.sections import mirror_bottom_line, mirror_detail, mirror_seats, start_side
from simlab.report.wording import Band
from simlab.studies import strength
from simlab.studies.experiment import Context, Experiment
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
    said = rechecks.agreement("fair", {"a": ("fair", True), "b": ("favoured", True), "c": ("undecided", False)},
                              games={"c": 400})
    assert said == "holds with a; differs with b (favoured); is not settled with c (at 400 games)"
    assert rechecks.agreement(True, {"x": (True, True)}) == "holds with x"
    # an undecided reading is not settled even where the heuristics' reading is undecided too
    assert rechecks.agreement("undecided", {"x": ("undecided", False)}) == "is not settled with x"


def recheck(player: str, value, decided: bool, games: int, stop: str, looks: int = 3, planned: int = 6,
            minutes: float = 10.0) -> rechecks.Recheck:
    return rechecks.Recheck(player, value, decided, None, games, looks, planned, strength.look_level(planned), stop,
                            minutes)


def test_a_not_settled_recheck_says_why_the_budget_or_every_deal():
    said = rechecks.agreement("fair", {"a": recheck("a", "not yet settled", False, 4000, rechecks.BUDGET),
                                       "b": recheck("b", "not yet settled", False, 20000, rechecks.ALL_DEALS, 6),
                                       "c": recheck("c", "fair", True, 1000, rechecks.DECIDED, 2)})
    assert said == ("holds with c; is not settled with a (4,000 games when the 10-minute budget ran out) and b (all "
                    "20,000 of the heuristics' deals played: the effect sits at the band's edge)")
    assert recheck("c", "fair", True, 1000, rechecks.DECIDED, 2).how() == "1,000 games, 2 of 6 looks at 99.17% each"


def test_a_budget_stop_says_whether_more_games_would_settle_it_or_the_effect_sits_at_the_edge():
    """A share 2.6 points above fair in a +-2 band, read +-1.2 points wide at 4,000 games, clears the
    edge at about 16,000 games (1.2 / 0.6 squared times 4,000): more games would settle it. Read +-1.5
    wide with the edge 0.3 away, it would need 100,000: the effect sits at the band's edge."""
    band = Band.fairness(0.5, 0.02)
    clears = rechecks.needed_games(4000, Estimate(0.526, 0.514, 0.538, 4000, "t"), band)
    assert clears == pytest.approx(16000)
    edge = rechecks.needed_games(4000, Estimate(0.517, 0.502, 0.532, 4000, "t"), band)
    assert edge == pytest.approx(100000)
    assert rechecks.needed_games(4000, None, None) is None
    more = rechecks.Recheck("r", "n", False, None, 4000, 4, 7, 0.99, rechecks.BUDGET, 5.0, 20000, clears)
    assert more.why() == ("4,000 games when the 5-minute budget ran out; about 16,000 would settle it if the effect "
                          "stays where it is") and not more.at_edge
    stuck = rechecks.Recheck("r", "n", False, None, 4000, 4, 7, 0.99, rechecks.BUDGET, 5.0, 20000, edge)
    assert stuck.at_edge and stuck.why() == ("4,000 games when the 5-minute budget ran out; at the band's edge, where "
                                             "all 20,000 deals would likely not settle it")


def test_mirror_bottom_line_reads_the_stronger_mirror_against_the_heuristics_verdict():
    """Two heuristic mirrors favour the start player; a stronger player's large mirror agrees, a small one
    cannot tell, a fair one differs. Each is said so; none changes the heuristics' own verdict."""
    favoured = {h: synthetic(6000, [0.6, 0.4], seed=i) for i, h in enumerate(("h1", "h2"))}
    mirrors = {**favoured, "big": synthetic(6000, [0.6, 0.4], seed=7), "small": synthetic(60, [0.5, 0.5], seed=8),
               "even": synthetic(40000, [0.5, 0.5], seed=9)}
    shares = mirror_seats(Report("t", "q"), mirrors)
    sides = {s: start_side(mirrors[s]) for s in ("big", "small", "even")}
    assert sides == {"big": "favoured", "small": "not yet settled", "even": "fair"}
    stronger = {s: {2: recheck(s, side, side != "not yet settled", len(mirrors[s]) // 2,
                               rechecks.DECIDED if side != "not yet settled" else rechecks.BUDGET)}
                for s, side in sides.items()}
    line = mirror_detail(shares, stronger)
    assert "favoured at 2 players (all 2 heuristic mirrors agree" in line
    assert "holds with big" in line and "differs with even (fair)" in line
    assert "is not settled with small (60 games when the 10-minute budget ran out)" in line
    short = mirror_bottom_line(shares, ("big", "small", "even"))      # the answer: the heuristics' side, one edge
    assert short.startswith("In mirror matches the start player is favoured at 2 players (up to +") and "big" not in short


def test_a_recheck_reads_its_looks_at_the_level_of_the_looks_planned():
    """A stronger player's mirror is drawn and judged at its recheck's level: a share that a 95% interval
    would call favoured is not settled at the stricter level of six looks."""
    mirrors = {"h": synthetic(6000, [0.6, 0.4], seed=1), "strong": synthetic(2000, [0.54, 0.46], seed=3)}
    assert start_side(mirrors["strong"]) == "favoured"
    assert start_side(mirrors["strong"], strength.look_level(6)) == "not yet settled"
    shares = mirror_seats(Report("t", "q"), mirrors, {"strong": strength.look_level(6)})
    row = shares[(shares["strategy"] == "strong") & (shares["seat"] == 1)].iloc[0]
    assert row["level"] == strength.look_level(6) and row["fair_hi"] - row["fair_lo"] > 0


def test_the_schedule_doubles_to_every_deal_and_splits_the_error_among_its_looks():
    assert strength.schedule(500, 20000) == [500, 1000, 2000, 4000, 8000, 16000, 20000]
    assert strength.schedule(500, 4000) == [500, 1000, 2000, 4000]
    assert strength.schedule(5000, 4000) == [4000]
    assert strength.look_level(1) == 0.95 and abs(strength.look_level(7) - (1 - 0.05 / 7)) < 1e-12


@dataclass
class PlayedRun:
    """What a recheck's budget reads of a run: the seconds it took (:attr:`Run.seconds`)."""
    name: str
    seconds: float


class Looks:
    """A fake recheck read: decides at ``decide_at`` games, records each look, adds one run per look,
    which says it took ``seconds`` a game added, after ``wait`` seconds in a queue."""

    def __init__(self, ctx, decide_at: int | None, seconds: float = 0.0, wait: float = 0.0):
        self.ctx, self.decide_at, self.seconds, self.wait, self.seen = ctx, decide_at, seconds, wait, []

    def __call__(self, games: int, level: float):
        time.sleep(self.wait)
        added = games - (self.seen[-1][0] if self.seen else 0)
        self.seen.append((games, level))
        self.ctx.runs.append(PlayedRun(f"run at {games}", self.seconds * added))
        return "side", self.decide_at is not None and games >= self.decide_at, games


def test_a_search_players_recheck_stops_at_its_first_decided_look_and_keeps_only_its_runs():
    ctx = context("karuba", games=4000, **{"strong-games": "500"})
    looks = Looks(ctx, decide_at=2000)
    r = strength.recheck(ctx, "karuba", "rollout", looks)
    assert [g for g, _ in looks.seen] == [500, 1000, 2000]
    assert {lv for _, lv in looks.seen} == {1 - 0.05 / 4}            # 4 looks planned: 500, 1,000, 2,000, 4,000
    assert (r.decided, r.stop, r.games, r.looks, r.planned, r.detail) == (True, rechecks.DECIDED, 2000, 3, 4, 2000)
    assert [run.name for run in ctx.runs] == ["run at 2000"]         # the superseded looks' runs are dropped


def test_a_recheck_that_never_decides_plays_every_deal_or_stops_at_its_budget():
    ctx = context("karuba", games=1000, **{"strong-games": "250"})
    r = strength.recheck(ctx, "karuba", "rollout", Looks(ctx, decide_at=None))
    assert (r.decided, r.stop, r.games, r.looks) == (False, rechecks.ALL_DEALS, 1000, 3)
    # a minute's budget at 0.01 s a game: 250 games (2.5 s), 500 (5 s), ... the look at 4,000 games brings
    # the recheck to 40 s; the next (8,000) would take it to 80 s, so a last look plays the 2,000 games
    # the 20 s left have room for (a multiple of the first look's 250)
    slow = context("karuba", games=100_000, **{"strong-games": "250", "strong-minutes": "1"})
    looks = Looks(slow, decide_at=None, seconds=0.01)
    r = strength.recheck(slow, "karuba", "rollout", looks)
    assert [g for g, _ in looks.seen] == [250, 500, 1000, 2000, 4000, 6000]
    assert (r.stop, r.games, r.looks, r.planned) == (rechecks.BUDGET, 6000, 6, 10)
    assert {lv for _, lv in looks.seen} == {strength.look_level(10)}   # the shorter look keeps the planned level
    assert r.why() == "6,000 games when the 1-minute budget ran out"
    assert [run.name for run in slow.runs] == ["run at 6000"]
    # a last look decided is decided; a budget with no room for the first look's games left stops there
    ctx = context("karuba", games=100_000, **{"strong-games": "250", "strong-minutes": "1"})
    r = strength.recheck(ctx, "karuba", "rollout", Looks(ctx, decide_at=5000, seconds=0.01))
    assert (r.decided, r.stop, r.games) == (True, rechecks.DECIDED, 6000)
    tight = context("karuba", games=100_000, **{"strong-games": "250", "strong-minutes": "0.7"})   # 42 s
    looks = Looks(tight, decide_at=None, seconds=0.01)
    r = strength.recheck(tight, "karuba", "rollout", looks)
    assert (r.stop, r.games, len(looks.seen)) == (rechecks.BUDGET, 4000, 5)


def test_a_recheck_budget_counts_its_own_play_not_its_wait_behind_other_runs():
    """An overview queues every player count's first look at once: a recheck whose runs wait in the
    queue longer than its budget still gets the budget's play. Counted by the clock on the wall,
    the wait would have spent it before its second look."""
    ctx = context("karuba", games=1000, **{"strong-games": "250", "strong-minutes": "0.005"})   # 0.3 s
    looks = Looks(ctx, decide_at=None, seconds=1e-5, wait=0.4)
    r = strength.recheck(ctx, "karuba", "rollout", looks)
    assert (r.stop, r.games, len(looks.seen)) == (rechecks.ALL_DEALS, 1000, 3)


def test_a_tuned_set_reads_once_at_the_experiments_games():
    ctx = context("loot-island", games=3000)
    looks = Looks(ctx, decide_at=None)
    r = strength.recheck(ctx, "loot-island", "cautious@tuned", looks)
    assert looks.seen == [(3000, 0.95)] and r.stop == rechecks.ONE_LOOK and r.why() == "at 3,000 games"
    edge = rechecks.Recheck("t", "n", False, None, 20000, 1, 1, 0.95, rechecks.ONE_LOOK, deals=20000, needed=50000.0)
    assert edge.why() == "all 20,000 of the heuristics' deals played: the effect sits at the band's edge"


@pytest.mark.parametrize("text", ["0", "-1", "soon"])
def test_a_bad_time_budget_is_refused_before_anything_plays(text):
    with pytest.raises(SimlabError, match=f"strong-minutes={text}"):
        strength.strong_players(context("karuba", **{"strong-minutes": text}))


def test_when_every_heuristic_mirror_ends_level_only_the_stronger_mirror_judges():
    """Karuba's heuristics play the same game in every seat: only a stronger player's mirror can judge."""
    mirrors = {"h": synthetic(300, [0.5, 0.5], seed=1, tie_rate=1.0), "big": synthetic(6000, [0.6, 0.4], seed=2)}
    big = recheck("big", "favoured", True, 6000, rechecks.DECIDED)
    line = mirror_detail(mirror_seats(Report("t", "q"), mirrors), {"big": {2: big}})
    assert line.startswith("In mirror matches the start player is favoured at 2 players (only the big mirror can judge")
    assert "stronger play" not in line
