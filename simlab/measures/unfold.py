"""How a game unfolds: the standings after every round of a sample of games, and what they say.

Every game logs an :data:`~simlab.core.play.EV_STANDINGS` event at the end of each round when
it is traced: the score each seat would have if the game ended then, by the game's own end
scoring; the last one is the final score. :func:`standings` replays a sample of a run's games
with a log for each (the same game ids, so the same games as the run's rows) and reads them into
a long frame. :func:`game_measures` turns one game's trajectory into the measures below, after
Ludii's (Ludeme/Ludii, ``Evaluation/src/metrics``), which read a UCT win estimate for every
player after every move where these read the score after every round:

* **Leaders.** The leaders of a round are all seats with the highest score then, ties included:
  a tie for the lead is a shared lead, not a lead change.
* **Lead changes** (Ludii ``LeadChange``): the rounds after the first whose set of leaders
  differs from the previous round's (so {A} -> {A, B} is a change, as in Ludii, which compares
  the sets), as a count and as a share of the game's R - 1 round-to-round steps. Ludii also
  counts the first state (from no leader) and divides by the number of moves.
* **Decided at**: the earliest round K from which an eventual winner leads, alone or tied,
  in every round to the end; reported as K and as K / R (a wire-to-wire win: round 1). Ludii's
  ``DecisivenessMoves`` is instead the first move at which a winner's evaluation exceeds the best
  any non-winner ever reaches (``DecisivenessThreshold``): with scores that mostly grow, a
  loser's best is near its final score, so that reading would put every decision at the end.
* **Drama** (Ludii ``Drama``, Browne's definition of averaging over the states where the winner
  is behind): over the rounds in which no eventual winner leads, the mean of (leading score -
  winner's score), averaged over the winners as Ludii does, divided by the game's score scale
  (the largest absolute score any seat has in any round), so a value from 0 towards 1: the
  share of a top score the winner had to make up. Ludii's evaluations are win estimates in
  [-1, 1] and need no scale; its ``Drama Average`` averages over all states (including the
  winner's leading ones, at 0) rather than the trailing ones. 0 when the winner never trails.
* **Half-time leader wins**: of the leaders after round ceil(R / 2), the share that win (1 or 0
  for a sole leader; with k tied leaders, the winners among them / k).
* **Comeback**: of the seats last after round ceil(R / 3), the share that still win, counted as
  the half-time leaders are; none when every seat is level then (nobody is behind) or the game is
  shorter than 3 rounds (its first third is no part of a game).

Each measure is declared (name, unit, bounds) in :data:`simlab.measures.catalogue.UNFOLDING`; this
module computes them.

Games without a winner (a Loot Island game in which everybody is eliminated) have no winner
measures (NaN), and a one-round game no lead-change share.
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import pandas as pd

from simlab.core.errors import SimlabError
from simlab.core.play import EV_STANDINGS
from simlab.core.results import build_frame
from simlab.core.runner import Prepared, RunConfig

from simlab.measures.catalogue import UNFOLDING
from simlab.measures.fairness import deal_of
from simlab.measures.stats import clustered_mean


def standings(config: RunConfig, games: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Replay games ``0 .. games - 1`` of ``config``: the standings, a long frame (game, round,
    seat, score), and the games' result rows (:func:`simlab.core.results.build_frame`)."""
    prep = Prepared(config)
    n = config.players
    out, log, ends = prep.traces(0, games)
    game = np.repeat(np.arange(games), np.diff(ends, prepend=0))
    standing = log[:, 0] == EV_STANDINGS
    ev, game = log[standing], game[standing]
    silent = np.setdiff1d(np.arange(games), game)
    if len(silent):
        raise SimlabError(f"{config.game} game {silent[0]} logged no standings")
    trajectories = pd.DataFrame({"game": np.repeat(game, n), "round": np.repeat(ev[:, 1], n),
                                 "seat": np.tile(np.arange(n), len(ev)), "score": ev[:, 2:2 + n].ravel()})
    return trajectories, build_frame(prep.spec, out, 0, prep.labels, config.duplicate)


class Replay(NamedTuple):
    """A run config's first games replayed with their standings: what the unfolding section draws."""
    config: RunConfig
    games: int
    trajectories: pd.DataFrame
    result: pd.DataFrame


def replay(configs, games: int = 1000) -> list[Replay]:
    """The first ``games`` games of each config (at most its own count), replayed by :func:`standings`."""
    return [Replay(c, min(games, c.games), *standings(c, min(games, c.games))) for c in configs]


def game_measures(scores, winners) -> dict:
    """The measures of one game (see the module docstring) from its ``scores[round, seat]`` (one
    row per round, in order) and a boolean ``winners[seat]``."""
    s = np.asarray(scores, dtype=np.float64)
    w = np.asarray(winners, dtype=bool)
    r = len(s)
    leaders = s == s.max(axis=1, keepdims=True)
    changes = int(np.any(leaders[1:] != leaders[:-1], axis=1).sum())
    out = {"rounds": r, "lead_changes": changes, "lead_change_share": changes / (r - 1) if r > 1 else math.nan,
           "decided_round": math.nan, "decided_share": math.nan, "drama": math.nan,
           "halftime_leader_wins": math.nan, "comeback": math.nan}
    if not w.any():
        return out
    winner_leads = (leaders & w).any(axis=1)
    trailing = np.flatnonzero(~winner_leads)
    decided = int(trailing[-1]) + 2 if len(trailing) else 1
    out["decided_round"] = min(decided, r)
    out["decided_share"] = out["decided_round"] / r
    scale = np.abs(s).max()
    if len(trailing) and scale > 0:
        gaps = s.max(axis=1)[trailing] - s[trailing][:, w].mean(axis=1)
        out["drama"] = float(gaps.mean() / scale)
    else:
        out["drama"] = 0.0
    half = leaders[math.ceil(r / 2) - 1]
    out["halftime_leader_wins"] = (half & w).sum() / half.sum()
    third = s[math.ceil(r / 3) - 1]
    last = third == third.min()
    if r >= 3 and not last.all():
        out["comeback"] = (last & w).sum() / last.sum()
    return out


def measures(trajectories: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """One row of :func:`game_measures` per game, from :func:`standings`' two frames (every seat
    of a game in every round it reaches)."""
    t = trajectories.sort_values(["game", "round", "seat"])
    r = rows.sort_values(["game", "seat"])
    games, starts = np.unique(t["game"].to_numpy(), return_index=True)
    scores = np.split(t["score"].to_numpy(np.float64), starts[1:])
    win_games, win_starts = np.unique(r["game"].to_numpy(), return_index=True)
    wins = dict(zip(win_games, np.split(r["win"].to_numpy(bool), win_starts[1:])))
    deal = dict(zip(r["game"], deal_of(r)))
    return pd.DataFrame([{"game": game, "deal": deal[game], **game_measures(s.reshape(-1, len(wins[game])), wins[game])}
                         for game, s in zip(games, scores)])


def summary(per_game: pd.DataFrame) -> dict:
    """Mean and 95% interval of every measure over the games that have it, clustered by deal (the
    rotations of a duplicate deal are one deal's games; :func:`~simlab.measures.stats.clustered_mean`)
    and kept within the measure's bounds, with the median decided round and game length."""
    def estimate(m):
        has = per_game[m.key].notna()
        return clustered_mean(per_game.loc[has, m.key], per_game.loc[has, "deal"]).within(*m.bounds)

    out = {m.key: estimate(m) for m in UNFOLDING}
    out["median_rounds"] = float(per_game["rounds"].median())
    out["median_decided_round"] = float(per_game["decided_round"].median())
    out["games"] = len(per_game)
    return out


def winner_paths(trajectories: pd.DataFrame, rows: pd.DataFrame, min_share: float = 0.1) -> pd.DataFrame:
    """Mean score by round of the eventual winners and of the other seats, with 95% intervals
    (columns round, who, mean, lo, hi, games), over the games still running in that round, up
    to the last round that at least ``min_share`` of the games reach. A game counts once per
    group (the mean of its winners, of its other seats), so the intervals are over games, clustered
    by deal (a duplicate deal's rotations share their luck)."""
    t = trajectories.merge(rows[["game", "seat", "win"]].assign(deal=deal_of(rows)), on=["game", "seat"])
    t["who"] = np.where(t["win"], "winner", "others")
    reached = t.groupby("round")["game"].nunique()
    last = reached[reached >= min_share * t["game"].nunique()].index.max()
    per_game = t[t["round"] <= last].groupby(["round", "who", "game"])[["score", "deal"]].agg(
        {"score": "mean", "deal": "first"})
    out = []
    for (rnd, who), g in per_game.groupby(level=["round", "who"]):
        e = clustered_mean(g["score"], g["deal"])
        out.append({"round": rnd, "who": who, "mean": e.value, "lo": e.lo, "hi": e.hi, "games": len(g)})
    return pd.DataFrame(out)
