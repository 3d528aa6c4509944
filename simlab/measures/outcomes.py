"""What a designer watches besides who wins, and whether a change changed play at all.

Each game declares its key outcomes (``GameSpec.outcomes``: Loot Island's eliminations by cause
and games nobody wins, Karuba's temple reach, Jamaica's finishes and ghost ship, Legend Raiders'
stack running out), each read from one result column as a rate; every report tables them with
their intervals. A rule change that the strategies ignore (a rule no seat ever meets, or one no
heuristic plays for: ``tests/test_players_for_rules.py`` lists every variant's share) leaves every
decision as it was: :func:`play_changed` replays the first
games of two arms with their event logs and counts the games in which any seat's decisions
(``GameSpec.decision_events``) differ, so a report can say so before it reads a length or a tie
as a finding.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from simlab.core.game import GameSpec, Outcome, get_game
from simlab.core.runner import Prepared, RunConfig

from simlab.measures.fairness import clustered_proportion, deal_of
from simlab.measures.stats import Estimate

SAMPLE = 500          # games replayed with their event logs to compare two arms' decisions


def of_seats(spec: GameSpec, outcome: Outcome) -> bool:
    """A seat column's outcome is a share of players, a game column's a share of games."""
    return next(c for c in spec.columns if c.name == outcome.column).per == "seat"


def per_game(frame: pd.DataFrame, spec: GameSpec, outcome: Outcome) -> pd.Series:
    """The outcome's value in every game (indexed by game id): the share of its players, or 0/1."""
    rate = outcome.rate(frame[outcome.column].to_numpy())
    if of_seats(spec, outcome):
        return pd.Series(rate, index=frame.index).groupby(frame["game"], sort=True).mean()
    first = frame["seat"].to_numpy() == 0
    return pd.Series(rate[first], index=frame["game"].to_numpy()[first]).sort_index()


def table(frame: pd.DataFrame, spec: GameSpec) -> pd.DataFrame:
    """Every key outcome per player count, with its interval clustered by deal (or game)."""
    rows = []
    for n, g in frame.groupby("players", observed=True, sort=True):
        clusters = deal_of(g[g["seat"] == 0].set_index("game", drop=False).sort_index())
        for o in spec.outcomes:
            v = per_game(g, spec, o)
            e = clustered_proportion(v, clusters.loc[v.index], trials=int(n) if of_seats(spec, o) else 1)
            rows.append({"players": int(n), "outcome": o.name, "key": o.key, "of": "players" if of_seats(spec, o)
                         else "games", "rate": e.value, "lo": e.lo, "hi": e.hi, "games": len(v)})
    return pd.DataFrame(rows, columns=["players", "outcome", "key", "of", "rate", "lo", "hi", "games"])


def decisions(config: RunConfig, games: int) -> list[np.ndarray]:
    """The decision events of games ``0 .. games - 1`` of ``config``, one array per game."""
    prep = Prepared(config)
    _, log, ends = prep.traces(0, games)
    kinds = np.isin(log[:, 0], prep.spec.decision_events)
    starts = np.concatenate([[0], ends[:-1]])
    return [log[a:b][kinds[a:b]] for a, b in zip(starts, ends)]


def play_changed(a: RunConfig, b: RunConfig, games: int = SAMPLE) -> Estimate | None:
    """The share of games (the first ``games`` of both arms, the same deals) in which any seat's
    decisions differ between the arms, with its interval; None when the game declares no decision
    events. 0 means the strategies played the very same game in both arms: only what the rules make
    of the same decisions (the scoring, say) can differ."""
    spec = get_game(a.game)
    if not spec.decision_events:
        return None
    n = min(games, a.games, b.games)
    da, db = decisions(a, n), decisions(b, n)
    differ = np.array([x.shape != y.shape or not np.array_equal(x, y) for x, y in zip(da, db)], dtype=np.float64)
    clusters = np.arange(n) // a.players if a.duplicate else np.arange(n)
    e = clustered_proportion(differ, clusters)
    return Estimate(e.value, e.lo, e.hi, n, "games whose decisions differ, of the first games of both arms")
